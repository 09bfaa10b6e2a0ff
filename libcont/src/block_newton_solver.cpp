#include "block_newton_solver.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>

#include <Eigen/LU>

#include "cvode_integrator.hpp"

namespace libcont::detail {

namespace {

struct BlockNewton {
  void* cvode_memory = nullptr;
  const ModeContext* mode_context = nullptr;
  Matrix jacobian;  // D_x f at the setup point
  Matrix newton;    // I - gamma D_x f
  Eigen::PartialPivLU<Matrix> factors;
};

BlockNewton& content(SUNLinearSolver solver) { return *static_cast<BlockNewton*>(solver->content); }

SUNLinearSolver_Type block_newton_type(SUNLinearSolver) { return SUNLINEARSOLVER_MATRIX_EMBEDDED; }
SUNLinearSolver_ID block_newton_id(SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; }

// I - gamma D_x f from CVODE's current gamma, time and Newton iterate. CVODE (6.4) does
// not call setup for a matrix-embedded solver before solving, so the matrix is formed and
// factorised at every solve: for the small state blocks of impact oscillators that costs
// less than one right-hand side of the full system, and it makes the iteration a full
// Newton iteration on the state block.
int refresh_newton_matrix(BlockNewton& s) {
  const ModeContext& c = *s.mode_context;
  double gamma = 0.0, t = 0.0;
  N_Vector y = nullptr;
  if (CVodeGetCurrentGamma(s.cvode_memory, &gamma) != CV_SUCCESS ||
      CVodeGetCurrentTime(s.cvode_memory, &t) != CV_SUCCESS ||
      CVodeGetCurrentState(s.cvode_memory, &y) != CV_SUCCESS || !y)
    return SUNLS_MEM_FAIL;
  const Eigen::Map<const Vector> x(N_VGetArrayPointer(y), c.n);
  c.jacobians.state_jacobian(c.mode, t, x, s.jacobian);
  if (!s.jacobian.allFinite()) return SUNLS_PACKAGE_FAIL_REC;  // CVODE retries smaller
  s.newton = Matrix::Identity(c.n, c.n) - gamma * s.jacobian;
  s.factors.compute(s.newton);
  return SUNLS_SUCCESS;
}

int block_newton_setup(SUNLinearSolver, SUNMatrix) { return SUNLS_SUCCESS; }

int block_newton_solve(SUNLinearSolver solver, SUNMatrix, N_Vector solution, N_Vector rhs,
                       double) {
  BlockNewton& s = content(solver);
  const int status = refresh_newton_matrix(s);
  if (status != SUNLS_SUCCESS) return status;
  const ModeContext& c = *s.mode_context;
  const int blocks = c.tangent ? c.columns + 1 : 1;
  const Eigen::Map<const Matrix> b(N_VGetArrayPointer(rhs), c.n, blocks);
  Eigen::Map<Matrix> x(N_VGetArrayPointer(solution), c.n, blocks);
  x = s.factors.solve(b);
  return x.allFinite() ? SUNLS_SUCCESS : SUNLS_PACKAGE_FAIL_REC;
}

int block_newton_free(SUNLinearSolver solver) {
  if (!solver) return SUNLS_SUCCESS;
  delete static_cast<BlockNewton*>(solver->content);
  solver->content = nullptr;
  SUNLinSolFreeEmpty(solver);
  return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver make_block_newton_solver(SUNContext context, void* cvode_memory,
                                         const ModeContext* mode_context) {
  SUNLinearSolver solver = SUNLinSolNewEmpty(context);
  if (!solver) return nullptr;
  solver->ops->gettype = block_newton_type;
  solver->ops->getid = block_newton_id;
  solver->ops->setup = block_newton_setup;
  solver->ops->solve = block_newton_solve;
  solver->ops->free = block_newton_free;
  auto* s = new BlockNewton;
  s->cvode_memory = cvode_memory;
  s->mode_context = mode_context;
  s->jacobian = Matrix::Zero(mode_context->n, mode_context->n);
  s->newton = s->jacobian;
  solver->content = s;
  return solver;
}

}  // namespace libcont::detail
