#pragma once
// Mass falling onto a rheological damper. x downward, gravity g; the damper's
// unloaded surface at x = 0; state (x, v = x', z) with z the damper's internal coordinate.
//   m x'' = m g - R,   R = k1 (y - z) >= 0 in contact (y = x), R = 0 out of contact (y = z)
// model = viscoelastic | viscoplastic | elastoplastic picks the damper law
// (libcont/rheological_damper.hpp, which lists the regimes and switching conditions).
// Declared as a structure (libcont/impacting_structure.hpp): one mass under gravity and the
// bumper as a unilateral contact on -x whose law is the damper; the modes are the damper's
// regimes: free, contact (viscoelastic) or stick, slip, slip-back (laws with a slider).
// Every switch is an event without a jump.
//
// Outputs y (bumper top) and R (reaction); characteristic curves: the hysteresis loops
// (y, R) and (z, R). The energy E = m v^2 / 2 - m g x + damper springs accounts for
// itself: dE/dt = -(power dissipated in the damper).
#include <memory>

#include "libcont/derived_outputs.hpp"
#include "libcont/impacting_structure.hpp"
#include "libcont/rheological_damper.hpp"

namespace systems {

class RheologicalDamperDrop : public libcont::ImpactingStructure, public libcont::DerivedOutputs {
 public:
  RheologicalDamperDrop();
  std::string name() const override { return "rheological"; }
  void configure() override;
  libcont::Vector default_initial_state() const override;

  // The bumper position y and the reaction R, and their hysteresis loops.
  const libcont::DerivedOutputs* derived_outputs() const override { return this; }
  std::vector<std::string> output_names() const override { return {"y", "R"}; }
  void outputs(int mode, double t, libcont::ConstVectorRef x,
               libcont::VectorRef values) const override;
  std::vector<libcont::CharacteristicCurve> characteristic_curves() const override;

  const libcont::RheologicalDamper& damper() const { return *damper_; }
  double reaction(int mode, libcont::ConstVectorRef x) const;
  double bumper_position(int mode, libcont::ConstVectorRef x) const;

 private:
  static libcont::DamperRegime regime(int mode) { return static_cast<libcont::DamperRegime>(mode); }

  libcont::Vector initial_;
  std::shared_ptr<const libcont::RheologicalDamper> damper_;  // set by configure()
};

}  // namespace systems
