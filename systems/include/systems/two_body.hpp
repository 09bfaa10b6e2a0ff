#pragma once
// Two-body vibro-impact system with a rigid stop. The main body m1, driven by
// F(t) = lambda F0 cos(omega t), hits the attached body m2 (spring-damper coupled, gap D
// at rest). State (x1, x2, v1, v2); overlap z = x1 - x2, gap h = -z.
// contact = newton: restitution between two free bodies (two_body_impact.hpp); a chattering
//   sequence ends with the bodies moving together (mode "stick") until the contact force
//   turns tensile.
// contact = hertz: F_con = K z^(3/2) while z > 0 (mode "contact"), K from the elastic
//   constants (libcont/hertz_contact.hpp) unless given.
// loading = harmonic: F(t) = lambda F0 cos(omega t).
// loading = random: F(t) = lambda sum_l sqrt(2 S(w_l) dw) cos(w_l t + delta_l) with the
//   filtered-noise density (sigma, theta, alpha), n components at w_l = l dw
//   and phases from `seed` (random_loading.hpp); the load repeats after 2 pi / dw, which
//   is then the forcing period.
#include <optional>

#include "libcont/hertz_contact.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/newton_restitution.hpp"
#include "libcont/random_loading.hpp"

namespace systems {

class TwoBodySystem : public libcont::HybridSystem {
 public:
  enum Mode { Free = 0, Joined = 1 };  // Joined: "stick" (newton) or "contact" (hertz)

  TwoBodySystem();
  std::string name() const override { return "two-body"; }
  std::vector<std::string> state_names() const override { return {"x1", "x2", "v1", "v2"}; }
  std::vector<int> displacement_coordinates() const override { return {0, 1}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  // Not stiff in either mode: the Hertz contact is a fast oscillation (about 4800 rad/s
  // here) that must be resolved anyway to find where it ends, with nothing decaying
  // faster than it (doc/performance.md, loading curve). The Hertz contact is brief and
  // rough (entered every period, force ~ z^(3/2)): the Runge-Kutta pair takes it.
  bool is_brief_and_rough(int mode) const override { return mode == Joined && !newton_; }
  double forcing_period() const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  // Under harmonic loading every mode but the Hertz contact is affine (exact flow).
  bool affine_mode(int mode, libcont::AffineMode& data) const override;
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

  // Derivatives in lambda, the load's intensity (continuation of loading curves): the load
  // drives the main body and, with newton contact, the force that keeps the bodies
  // joined. Resets do not depend on it.
  int derivative_parameter(std::string_view name) const override;
  void field_parameter_derivative(int parameter, int mode, double t, libcont::ConstVectorRef x,
                                  libcont::VectorRef df_dp) const override;
  double event_parameter_derivative(int parameter, int mode, int event, double t,
                                    libcont::ConstVectorRef x) const override;
  bool affine_parameter_derivative(int parameter, int mode,
                                   libcont::AffineMode& derivative) const override;

  // Under random loading the load F(t) is an output (a column of the time series).
  std::vector<std::string> output_names() const override;
  void outputs(int mode, double t, libcont::ConstVectorRef x, libcont::VectorRef values) const override;

  libcont::Vector default_initial_state() const override;
  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;

  double hertz_stiffness() const { return hertz_.stiffness; }
  double force(double t) const;  // lambda times unit_load
  double unit_load(double t) const;  // F0 cos(omega t), or the random load
  // The random load in force (loading = random), else nothing.
  const std::optional<libcont::RandomLoading>& random_loading() const { return random_; }
  // Contact force that keeps the joined bodies together (positive: compressive).
  double joining_force(double t, libcont::ConstVectorRef x) const;

 private:
  // The free accelerations without the load, a = rows . (x1, x2, v1, v2, 1): the one
  // place the coupling's coefficients are written (vector field, Jacobian, affine data).
  // configure() keeps them in rows_, so the right-hand side does not re-derive them (with
  // their divisions) at every call; every parameter change goes through configure().
  Eigen::Matrix<double, 2, 5> derive_free_acceleration_rows() const;
  // Accelerations of the bodies without contact force.
  void free_accelerations(double t, libcont::ConstVectorRef x, double& a1, double& a2) const;

  double m1_ = 1000, m2_ = 100, w1_ = 6.283, w2_ = 4.727, xi1_ = 0.036, xi2_ = 0.2;
  double gap_ = 0.05, f0_ = 400, omega_ = 6, lambda_ = 1;
  Eigen::Matrix<double, 2, 5> rows_;  // derive_free_acceleration_rows() of the above
  bool newton_ = false;
  libcont::NewtonRestitution law_{1.0};
  libcont::HertzContact hertz_;
  std::optional<libcont::RandomLoading> random_;
};

}  // namespace systems
