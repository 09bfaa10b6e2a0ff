#pragma once
// The linear solver of CVODE's Newton iteration for the BDF (stiff) instance. The
// integrated vector is x followed by the k tangent columns of Phi, and the Newton matrix
// is block diagonal with k + 1 copies of I - gamma D_x f (the coupling of the tangent
// blocks to x through second derivatives of f is left out: modified Newton converges
// without it, and it vanishes for the piecewise-linear modes of impact oscillators). A
// dense solver on the whole (k + 1) n system would factorise a matrix (k + 1)^3 times
// larger than needed; this one factorises the n x n block once per setup and applies it
// to each block. It is a SUNDIALS "matrix-embedded" solver: it forms its own matrix.
struct _generic_SUNLinearSolver;
struct _SUNContext;

namespace libcont::detail {

struct ModeContext;

// cvode_memory: the CVODE instance it serves (for gamma, the current time and state).
// Returns nullptr if SUNDIALS cannot allocate the solver.
_generic_SUNLinearSolver* make_block_newton_solver(_SUNContext* context, void* cvode_memory,
                                                   const ModeContext* mode_context);

}  // namespace libcont::detail
