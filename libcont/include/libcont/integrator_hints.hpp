#pragma once
// Integrator hints: which integrator suits a mode, for FlowOptions::method = Auto. A model
// whose modes are not all Nonstiff implements IntegratorHints and returns it from
// HybridSystem::integrator_hints().
#include "libcont/hybrid_system.hpp"

namespace libcont {

enum class ModeIntegration {
  // Adams (CVODE): smooth, non-stiff modes. The default.
  Nonstiff,
  // BDF (CVODE), under every method but Adams: motions that decay much faster than anything
  // the integration must resolve (a heavily damped contact spring). A contact that
  // oscillates and must be resolved to find where it ends (undamped Hertz contact) is not
  // stiff: Adams' higher orders take fewer steps there.
  Stiff,
  // The explicit Runge-Kutta pair (Verner 6(5)) under Auto: a mode entered and left every
  // forcing period whose field is smooth only to low order, such as a Hertz contact (force
  // ~ z^(3/2)). Adams restarts from order 1 at every entry and stays at low order there;
  // the one-step pair does not restart.
  ExplicitPair
};

class IntegratorHints {
 public:
  virtual ~IntegratorHints() = default;
  virtual ModeIntegration integration(int mode) const = 0;
};

}  // namespace libcont
