#pragma once
// Vibro-impact platform with a soft (rubber) stop (doc/models/platform.md). A table m1 on a
// vibro-isolation spring k1 carries a rubber block of thickness h; a mould m2 lies loose
// on the block, is thrown off and falls back. y up; y1 is the table measured from the
// static equilibrium of the loaded platform, y2 the bottom of the mould in the same frame;
// the block's compression is z = h - (y2 - y1), in contact while z > 0:
//   m1 y1'' = F0 cos(omega t) - k1 y1 - c1 y1' + m2 g - F_con
//   m2 y2'' = -m2 g - c2 y2' + F_con
// (the spring carries (m1 + m2) g at y1 = 0, so gravity on the table cancels against its
// share of that preload), c1 = 2 xi1 m1 w1 (w1 = sqrt(k1/m1)), c2 = 2 xi2 m2 w2
// (w2 = sqrt(k0/m2)). The contact (doc/models/platform.md gives every reading):
//   contact = linear: F_con = k0 z + c0 z' (mode "contact"), c0 = 2 xi0 m2 w2;
//   contact = hertz:  F_con = K z^(3/2) + c0 z', K from E1, mu1 (rubber), E2, mu2
//     (mould) and A = B = 1/(2R) (libcont/hertz_contact.hpp) unless given;
//   contact = newton: a rigid block, restitution r between the two free bodies
//     (two_body_impact.hpp); a chattering sequence ends with the mould resting on the block (mode
//     "stick") until the force between them would turn tensile.
// The state starts by default at the static equilibrium: the mould at rest on the block.
#include "libcont/hertz_contact.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

class VibroImpactPlatform : public libcont::HybridSystem {
 public:
  enum Mode { Free = 0, Joined = 1 };  // Joined: "contact" (linear, hertz), "stick" (newton)
  enum class Contact { Newton, Linear, Hertz };

  VibroImpactPlatform();
  std::string name() const override { return "platform"; }
  std::vector<std::string> state_names() const override { return {"y1", "y2", "v1", "v2"}; }
  std::vector<int> displacement_coordinates() const override { return {0, 1}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  bool is_stiff(int mode) const override { return mode == Joined && contact_ != Contact::Newton; }
  double forcing_period() const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  int event_count(int /*mode*/) const override { return 1; }
  libcont::EventSpec event_spec(int mode, int event) const override;
  double event_function(int mode, int event, double t, libcont::ConstVectorRef x) const override;
  void event_gradient(int mode, int event, double t, libcont::ConstVectorRef x,
                      libcont::VectorRef dh_dx, double& dh_dt) const override;
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override;
  void reset_jacobian(int mode, int event, const libcont::EventOutcome& outcome, double t,
                      libcont::ConstVectorRef x_minus, libcont::MatrixRef dg_dx,
                      libcont::VectorRef dg_dt) const override;

  libcont::Vector default_initial_state() const override;  // static equilibrium
  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;  // the mould's
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;

  // Soft contacts: E = kinetic + k1 y1^2/2 - m2 g y1 + m2 g y2 + the block's stored
  // energy (the preloaded spring and gravity together); the dampers c1, c2, c0
  // dissipate, the forcing supplies F(t) y1'.
  bool accounts_energy() const override { return contact_ != Contact::Newton; }
  double mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, libcont::ConstVectorRef x) const override;
  double supplied_power(int mode, double t, libcont::ConstVectorRef x) const override;
  bool measures_contact() const override { return contact_ != Contact::Newton; }
  double contact_force(int mode, double t, libcont::ConstVectorRef x) const override;
  double penetration(int mode, double t, libcont::ConstVectorRef x) const override;

  Contact contact() const { return contact_; }
  double hertz_stiffness() const { return hertz_.stiffness; }
  double block_damping() const { return c0_; }
  // Compression of the block under the resting mould (0 for the rigid newton block).
  double static_compression() const;
  double force(double t) const;  // F0 cos(omega t)
  // Force between block and mould that keeps the mould resting (newton; > 0 compressive).
  double joining_force(double t, libcont::ConstVectorRef x) const;

 private:
  void free_accelerations(double t, libcont::ConstVectorRef x, double& a1, double& a2) const;
  // Force of a contact that stiffens smoothly (linear or Hertz) at compression z.
  double elastic_force(double z) const;
  double elastic_slope(double z) const;

  double m1_ = 7400, m2_ = 15000, k1_ = 1.278e6, h_ = 0.0275, g_ = 9.81;
  double c0_ = 0, c1_ = 0, c2_ = 0, f0_ = 2.44e5, omega_ = 157;
  Contact contact_ = Contact::Linear;
  libcont::KelvinVoigtContact linear_;
  libcont::HertzContact hertz_;
  libcont::NewtonRestitution law_{0.5};
};

}  // namespace systems
