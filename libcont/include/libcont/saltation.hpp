#pragma once
// The saltation (Mueller transition) matrix (doc/theory.md, 2): how a perturbation of the state
// just before an event maps to one just after it, including the shift of the event time:
//   S = D_x g + (f+ - D_x g f- - D_t g) (D_x h)^T / (D_x h . f- + D_t h).
// Without this matrix, a monodromy matrix of an impacting orbit is wrong.
#include "libcont/hybrid_system.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "libcont/types.hpp"

namespace libcont {

Matrix saltation_matrix(ConstMatrixRef dg_dx, ConstVectorRef dg_dt, ConstVectorRef f_plus,
                        ConstVectorRef f_minus, ConstVectorRef dh_dx, double dh_dt);

// Evaluates every ingredient from the system for an event applied at (t, x_minus) with
// the given outcome and post-event state x_plus.
Matrix saltation_matrix(const HybridSystem& system, int mode, int event,
                        const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                        ConstVectorRef x_plus);

// Storage for the ingredients and the result, so that repeated evaluations (one per event
// along a trajectory) do not allocate. After a call, `jump` holds f+ - D_x g f- - D_t g
// and `crossing_rate` D_x h . f- + D_t h, S = D_x g + jump (D_x h)^T / crossing_rate: a
// parameter p moves the event time by -(D_x h . dx/dp + D_p h) / crossing_rate, and
// dx/dp jumps to S dx/dp + D_p g + jump D_p h / crossing_rate (parameter_jump).
struct SaltationWorkspace {
  Matrix dg_dx, result;
  Vector dg_dt, f_minus, jump, dh_dx;
  double crossing_rate = 0.0;
};
// As above, into work.result (returned), with the model's Jacobians looked up once by the
// caller (the flow: one evaluation per event).
const Matrix& saltation_matrix(const ModelJacobians& jacobians, int mode, int event,
                               const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                               ConstVectorRef x_plus, SaltationWorkspace& work);

// After saltation_matrix(..., work) for the same event: dx/dp just after it (column in:
// S times dx/dp just before it), the terms of p's own effect on the event added:
// D_p g + jump D_p h / crossing_rate. `scratch`: size n, for D_p g.
void parameter_jump(const ParameterDerivatives& derivatives, int parameter, int mode,
                    int event, const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                    const SaltationWorkspace& work, Vector& scratch, VectorRef column);

}  // namespace libcont
