#pragma once
// Affine modes: a mode whose vector field is affine in the state with constant and
// harmonic forcing,
//   x' = A x + b0 + b_cos cos(w t) + b_sin sin(w t),
// has a flow known in closed form (exact_linear_flow.hpp); Flow then needs no integrator
// between events (FlowOptions::exact_linear_modes). A model that has such modes implements
// AffineModes and returns it from HybridSystem::affine_modes().
#include <cmath>

#include "libcont/hybrid_system.hpp"

namespace libcont {

// A, b0, b_cos, b_sin are n x n and n; w >= 0 (b_cos, b_sin unused at 0).
struct AffineMode {
  Matrix A;
  Vector b0, b_cos, b_sin;
  double frequency = 0.0;  // w
  // Sized for n states, for AffineModes::affine_mode to fill without allocating.
  void resize(Eigen::Index n) {
    A.resize(n, n);
    b0.resize(n);
    b_cos.resize(n);
    b_sin.resize(n);
  }
  // Every entry finite, and the sum of |A|'s entries too: it bounds every norm the exact
  // flow takes (an overflow there would make the exponential's scaling meaningless).
  bool finite() const {
    return A.allFinite() && b0.allFinite() && b_cos.allFinite() && b_sin.allFinite() &&
           std::isfinite(frequency) && std::isfinite(A.cwiseAbs().sum());
  }
};

class AffineModes {
 public:
  virtual ~AffineModes() = default;
  // An affine mode returns true and fills `data` (its members come sized n x n and n:
  // filling them does not allocate); it must agree with vector_field exactly. False: the
  // mode is integrated.
  virtual bool affine_mode(int mode, AffineMode& data) const = 0;
  // In an affine mode an event function may be affine too,
  //   h(t, x) = c_x . x + c_0 + c_cos cos(w t) + c_sin sin(w t)  (w: the mode's frequency);
  // the model then returns true and fills `coefficients` = (c_x, c_0, c_cos, c_sin), size
  // n + 3 (it must agree with event_function exactly). The exact path then evaluates h
  // and its rate as dot products with the lifted state, without calling the model.
  virtual bool affine_event(int /*mode*/, int /*event*/, VectorRef /*coefficients*/) const {
    return false;
  }
  // The reset of an event in an affine mode may be affine too, for each outcome kind
  // apply_event can return (an impact's rebound, the start or end of sticking):
  //   x+ = R_x x + r_0 + r_cos cos(w t) + r_sin sin(w t);
  // the model then returns true and fills `reset` = (R_x, r_0, r_cos, r_sin), n x (n + 3)
  // (it must agree with apply_event to rounding and with reset_jacobian: R_x = D_x g,
  // D_t g = w (r_sin cos - r_cos sin)). The exact path then forms an event's saltation
  // matrix from it and the lifted state, without the model's Jacobians and fields.
  virtual bool affine_reset(int /*mode*/, int /*event*/, EventKind /*kind*/,
                            MatrixRef /*reset*/) const {
    return false;
  }
  // The outcome apply_event returns for the event at state x, where the model can decide
  // it from the event function's rate there (h' = the gap's rate) without the forcing's
  // phase: the exact path then applies the outcome's affine reset to its lifted state
  // instead of calling apply_event (no cos and sin of the phase per impact). It must agree
  // with apply_event's choice; a model whose apply_event adds to its base's (a terminal
  // outcome, a changed state) returns false for those events. False: apply_event decides.
  virtual bool affine_outcome(int /*mode*/, int /*event*/, double /*rate*/, ConstVectorRef /*x*/,
                              EventOutcome& /*outcome*/) const {
    return false;
  }
};

}  // namespace libcont
