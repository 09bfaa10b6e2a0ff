#include "libcont/period_doubling_switch.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

BranchPoint doubled_branch_start(PeriodicOrbitProblem& problem, const SpecialPoint& point) {
  Vector residual, dlambda;
  Matrix du;
  problem.set_phase(point.chart);
  if (!problem.evaluate(point.u, point.lambda, residual, du, dlambda))
    throw InputError("cannot evaluate the orbit at the period-doubling point: " + problem.failure());
  Eigen::EigenSolver<Matrix> solver(problem.monodromy());
  Eigen::Index flip = -1;
  double distance = 1e300;
  for (Eigen::Index i = 0; i < solver.eigenvalues().size(); ++i) {
    const auto mu = solver.eigenvalues()[i];
    const double d = std::abs(mu + 1.0);
    if (std::abs(mu.imag()) < 1e-8 && d < distance) {
      distance = d;
      flip = i;
    }
  }
  if (flip < 0 || distance > 1e-2)
    throw InputError("no real Floquet multiplier near -1 at " + problem.parameter() + " = " +
                     std::to_string(point.lambda) + ": not a period-doubling point");
  const Vector e = solver.eigenvectors().col(flip).real().normalized();
  BranchPoint start;
  start.u = point.u;
  start.lambda = point.lambda;
  start.chart = point.chart;
  start.tangent = Vector::Zero(e.size() + 1);
  start.tangent.head(e.size()) = e;
  return start;
}

}  // namespace libcont
