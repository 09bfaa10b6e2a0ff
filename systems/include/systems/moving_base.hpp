#pragma once
// Impacting oscillator on a moving base (doc/theory.md, 3): m x'' + c x' + k x = k a sin(eta t),
// base at a sin(eta t) + d, gap h = x - base >= 0, relative velocity v_r = x' - base'.
// model = hard: Newton restitution v_r+ = -r v_r-, chattering ends in sticking to the
//   base (mode "stick") until the contact force would turn tensile.
// model = soft: while h < 0 the contact force k_s h + c_s v_r acts (mode "contact");
//   c_s follows from r by the chosen energy relation (doc/theory.md, 9) unless given.
#include "libcont/hybrid_system.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

class MovingBaseOscillator : public libcont::HybridSystem {
 public:
  enum Mode { Free = 0, Attached = 1 };  // Attached: "stick" (hard) or "contact" (soft)

  MovingBaseOscillator();
  std::string name() const override { return "moving-base"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  bool is_stiff(int mode) const override;
  double forcing_period() const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  // Every mode is affine with forcing at eta (free, stick, and the soft contact unless its
  // force is clipped): Flow follows the exact flow between events.
  bool affine_mode(int mode, libcont::AffineMode& data) const override;
  // The gap and the holding force are affine in (x, 1, cos eta t, sin eta t).
  bool affine_event(int mode, int event, libcont::VectorRef coefficients) const override;
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

  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;
  double divergence(int mode, double t, libcont::ConstVectorRef x) const override;

  // Soft model: E = m v^2/2 + k x^2/2 + k_s delta^2/2 (delta = -gap in contact); the
  // dampers c and c_s dissipate, the forcing k a sin(eta t) and the moving base (through
  // the contact force) supply power. The hard model loses energy at impacts: no account.
  bool accounts_energy() const override { return !hard_; }
  double mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, libcont::ConstVectorRef x) const override;
  double supplied_power(int mode, double t, libcont::ConstVectorRef x) const override;
  // Soft model: the Kelvin-Voigt force on the body and delta = -gap while in contact.
  bool measures_contact() const override { return !hard_; }
  double contact_force(int mode, double t, libcont::ConstVectorRef x) const override;
  double penetration(int mode, double t, libcont::ConstVectorRef x) const override;

  bool hard() const { return hard_; }
  double contact_damping() const { return contact_.damping; }
  libcont::EnergyRelation energy_relation() const { return relation_; }

  // Base kinematics and the force needed to hold the body on the base.
  double base_position(double t) const;
  double base_velocity(double t) const;
  double base_acceleration(double t) const;
  double holding_force(double t) const;

 private:
  double m_ = 1, k_ = 1, c_ = 0.23, a_ = 0.0025, d_ = 0, eta_ = 4;
  bool hard_ = true;
  libcont::NewtonRestitution law_{1.0};
  libcont::KelvinVoigtContact contact_;
  libcont::EnergyRelation relation_ = libcont::EnergyRelation::Exact;
};

}  // namespace systems
