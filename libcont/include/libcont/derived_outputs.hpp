#pragma once
// Derived outputs: named functions of the state worth reporting beside it (a bumper
// position, a reaction force; time series get one column each), and the curves that
// characterise the model. A model that has them implements DerivedOutputs and returns it
// from HybridSystem::derived_outputs().
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace libcont {

// A pair (horizontal, vertical) of state or output names worth a plot: a hysteresis loop,
// a force-deflection curve.
struct CharacteristicCurve {
  std::string name;  // file-name friendly, e.g. "hysteresis_R_y"
  std::string horizontal;
  std::string vertical;
};

class DerivedOutputs {
 public:
  virtual ~DerivedOutputs() = default;
  virtual std::vector<std::string> output_names() const = 0;
  // One value per name.
  virtual void outputs(int mode, double t, ConstVectorRef x, VectorRef values) const = 0;
  virtual std::vector<CharacteristicCurve> characteristic_curves() const { return {}; }
};

}  // namespace libcont
