#pragma once
// Two-degree-of-freedom cantilever beam with impacts. A light beam (E I,
// length l) carries m1 at its free end and m2 at l2 from the clamp:
//   M x'' + nu M x' + KB x = (e eta^2 sin(eta t), 0),  M = diag(m1, m2),
//   KB = (1/W) [[12 EI l2^3, -6 EI l2^2 (3l - l2)], [-6 EI l2^2 (3l - l2), 12 EI l^3]],
//   W = 4 l^3 l2^3 - l2^4 (3l - l2)^2,
// state (x1, x2, v1, v2). m1 hits a base that lies d below its equilibrium: gap
// h = x1 + d >= 0 (d = 0 in the source).
// model = hard: Newton restitution v1+ = -r v1- (the light beam passes no impulse to
//   m2); a chattering sequence ends with m1 held on the base (mode "stick") until the
//   holding force would turn tensile.
// model = soft: while h < 0, k_s and c_s add to entry (1,1) of the stiffness and damping
//   matrices (mode "contact"): the force k_s (-h) + c_s (-h') on m1, measured from the
//   base (for d = 0 exactly the source's k_s x1 + c_s x1'). c_s follows from r and m1 by
//   the chosen energy relation (doc/theory.md, 9) unless given.
// set = 1 | 2 picks the source's masses and l2 (2DOF-1: 0.92, 0.08, 0.34; 2DOF-2: 0.28,
// 0.72, 0.31); m1, m2, l2 given explicitly override the set. The forcing amplitude e has
// no default (the source does not give it): a run refuses to start without it.
#include <Eigen/Dense>

#include "libcont/hybrid_system.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

class CantileverBeam : public libcont::HybridSystem {
 public:
  enum Mode { Free = 0, Attached = 1 };  // Attached: "stick" (hard) or "contact" (soft)

  CantileverBeam();
  std::string name() const override { return "cantilever-2dof"; }
  std::vector<std::string> state_names() const override { return {"x1", "x2", "v1", "v2"}; }
  std::vector<int> displacement_coordinates() const override { return {0, 1}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  bool is_stiff(int mode) const override;
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

  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;
  double divergence(int mode, double t, libcont::ConstVectorRef x) const override;

  // Soft model: E = v^T M v / 2 + x^T KB x / 2 + k_s delta^2 / 2; the dampers nu M and
  // c_s dissipate, the forcing supplies F(t) v1.
  bool accounts_energy() const override { return !hard_; }
  double mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, libcont::ConstVectorRef x) const override;
  double supplied_power(int mode, double t, libcont::ConstVectorRef x) const override;
  bool measures_contact() const override { return !hard_; }
  double contact_force(int mode, double t, libcont::ConstVectorRef x) const override;
  double penetration(int mode, double t, libcont::ConstVectorRef x) const override;

  bool hard() const { return hard_; }
  double contact_damping() const { return contact_.damping; }
  const Eigen::Matrix2d& mass_matrix() const { return mass_; }
  const Eigen::Matrix2d& stiffness_matrix() const { return stiffness_; }
  // Undamped natural frequencies of the beam without the base, ascending: the square
  // roots of the eigenvalues of KB x = w^2 M x.
  Eigen::Vector2d natural_frequencies() const;
  double force(double t) const;  // e eta^2 sin(eta t) on m1
  // Force the base exerts on m1 held on it (positive: pushing m1 away from the base).
  double holding_force(double t, libcont::ConstVectorRef x) const;

 private:
  // Accelerations without any force from the base.
  Eigen::Vector2d free_accelerations(double t, libcont::ConstVectorRef x) const;

  Eigen::Matrix2d mass_ = Eigen::Matrix2d::Identity();
  Eigen::Matrix2d stiffness_ = Eigen::Matrix2d::Identity();
  double nu_ = 0.23, eta_ = 1, e_ = 0, d_ = 0;
  bool hard_ = true;
  libcont::NewtonRestitution law_{1.0};
  libcont::KelvinVoigtContact contact_;
};

}  // namespace systems
