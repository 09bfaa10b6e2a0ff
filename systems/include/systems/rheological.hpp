#pragma once
// Mass falling onto a rheological damper. x downward, gravity g; the damper's
// unloaded surface at x = 0; state (x, v = x', z) with z the damper's internal coordinate.
//   m x'' = m g - R,   R = k1 (y - z) >= 0 in contact (y = x), R = 0 out of contact (y = z)
// model = viscoelastic | viscoplastic | elastoplastic picks the damper law
// (libcont/rheological_damper.hpp, which lists the regimes and switching conditions);
// the modes of this system are the damper's regimes: free, contact (viscoelastic) or
// stick, slip, slip-back (laws with a slider). Every mode is affine, every switch an
// event without a jump.
//
// Outputs y (bumper top) and R (reaction); characteristic curves: the hysteresis loops
// (y, R) and (z, R). The energy E = m v^2 / 2 - m g x + damper springs accounts for
// itself: dE/dt = -(power dissipated in the damper).
#include <optional>

#include "libcont/hybrid_system.hpp"
#include "libcont/rheological_damper.hpp"

namespace systems {

class RheologicalDamperDrop : public libcont::HybridSystem {
 public:
  RheologicalDamperDrop();
  std::string name() const override { return "rheological"; }
  std::vector<std::string> state_names() const override { return {"x", "v", "z"}; }
  int mode_count() const override { return damper().regime_count(); }
  std::string mode_name(int mode) const override { return damper().regime_name(regime(mode)); }
  bool is_stiff(int mode) const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  int event_count(int mode) const override;
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
  // Approach speed of the mass towards the bumper top, v - y'.
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;

  bool accounts_energy() const override { return true; }
  double mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, libcont::ConstVectorRef x) const override;
  // Contact force R; penetration: depth of the contact point below the unloaded surface
  // x = 0, i.e. the bumper top y while in contact (0 out of contact).
  bool measures_contact() const override { return true; }
  double contact_force(int mode, double t, libcont::ConstVectorRef x) const override;
  double penetration(int mode, double t, libcont::ConstVectorRef x) const override;
  std::vector<std::string> output_names() const override { return {"y", "R"}; }
  void outputs(int mode, double t, libcont::ConstVectorRef x,
               libcont::VectorRef values) const override;
  std::vector<CharacteristicCurve> characteristic_curves() const override;

  const libcont::RheologicalDamper& damper() const { return *damper_; }
  double reaction(int mode, libcont::ConstVectorRef x) const;
  double bumper_position(int mode, libcont::ConstVectorRef x) const;

 private:
  static libcont::DamperRegime regime(int mode) { return static_cast<libcont::DamperRegime>(mode); }

  double g_ = 9.81, m_ = 100;
  libcont::Vector initial_;
  std::optional<libcont::RheologicalDamper> damper_;  // set by configure()
};

}  // namespace systems
