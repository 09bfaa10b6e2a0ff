#pragma once
// Mass dropped on a fixed base under gravity. Height x above the base, x' = v.
// model = hard: x'' = -g in flight, v+ = -r v- at x = 0; a chattering sequence ends with
//   the body resting on the base (mode "rest").
// model = soft: m x'' = -m g - k_s x - c_s x' while x < 0 (mode "contact").
// The vector field is written once as a template; its Jacobian comes from AutoDiff.
#include "libcont/autodiff_system.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

class DropTest : public libcont::AutoDiffSystem<DropTest> {
 public:
  enum Mode { Flight = 0, Ground = 1 };  // Ground: "rest" (hard) or "contact" (soft)

  DropTest();
  std::string name() const override { return "drop"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  bool is_stiff(int mode) const override { return mode == Ground && !hard_; }
  void configure() override;

  template <class S>
  void field(int mode, double /*t*/, const Eigen::Matrix<S, -1, 1>& x,
             Eigen::Matrix<S, -1, 1>& dxdt) const {
    if (mode == Ground && hard_) {
      dxdt[0] = S(0.0);
      dxdt[1] = S(0.0);
      return;
    }
    dxdt[0] = x[1];
    dxdt[1] = S(-g_);
    if (mode == Ground)
      dxdt[1] = dxdt[1] - (contact_.stiffness * x[0] + contact_.damping * x[1]) / m_;
  }

  int event_count(int mode) const override { return (hard_ && mode == Ground) ? 0 : 1; }
  libcont::EventSpec event_spec(int mode, int event) const override;
  double event_function(int mode, int event, double t, libcont::ConstVectorRef x) const override;
  void event_gradient(int mode, int event, double t, libcont::ConstVectorRef x,
                      libcont::VectorRef dh_dx, double& dh_dt) const override;
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override;
  void reset_jacobian(int mode, int event, const libcont::EventOutcome& outcome, double t,
                      libcont::ConstVectorRef x_minus, libcont::MatrixRef dg_dx,
                      libcont::VectorRef dg_dt) const override;

  libcont::Vector default_initial_state() const override;
  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;
  // Total mechanical energy including the contact spring. The soft model accounts for its
  // energy (the damper c_s dissipates); the hard one loses energy at impacts and does not.
  bool accounts_energy() const override { return !hard_; }
  double mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, libcont::ConstVectorRef x) const override;
  // Soft model: contact force -(k_s x + c_s x') and penetration -x while x < 0.
  bool measures_contact() const override { return !hard_; }
  double contact_force(int mode, double t, libcont::ConstVectorRef x) const override;
  double penetration(int mode, double t, libcont::ConstVectorRef x) const override;

  bool hard() const { return hard_; }
  double contact_damping() const { return contact_.damping; }

 private:
  double m_ = 1, g_ = 9.81, h0_ = 1;
  bool hard_ = true;
  libcont::NewtonRestitution law_{0.9};
  libcont::KelvinVoigtContact contact_;
};

}  // namespace systems
