#include "libcont/shooting.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

Shooting::Shooting(const HybridSystem& system, int period, ShootingOptions options, double phase)
    : period_(period), options_(std::move(options)), map_(system, options_.flow, phase) {
  if (period_ < 1) throw InputError("orbit period n must be >= 1 (got " + std::to_string(period_) + ")");
}

ShootingResult Shooting::solve(ConstVectorRef guess) {
  ShootingResult result;
  result.n = period_;
  Vector x = guess;
  MapEvaluation eval = map_.iterate(x, period_, true);
  const auto residual_of = [](const MapEvaluation& e, const Vector& at) { return (e.x - at).norm(); };
  const auto small_enough = [&](double residual, const Vector& at) {
    return residual <= options_.absolute_tolerance + options_.relative_tolerance * at.norm();
  };
  if (!eval.ok()) {
    result.x = x;
    result.report = eval.report;
    result.reason = "flow failed at the initial guess: " + eval.report.message;
    return result;
  }
  double residual = residual_of(eval, x);
  result.residual_history.push_back(residual);
  const Eigen::Index n = x.size();
  while (!small_enough(residual, x)) {
    if (result.iterations >= options_.max_iterations) {
      result.reason = "no convergence in " + std::to_string(options_.max_iterations) + " iterations";
      break;
    }
    ++result.iterations;
    const Matrix jacobian = eval.jacobian - Matrix::Identity(n, n);
    const Eigen::ColPivHouseholderQR<Matrix> qr(jacobian);
    const Vector step = qr.solve(-(eval.x - x));
    if (qr.rank() < n || !step.allFinite()) {
      result.reason = "singular shooting Jacobian (a Floquet multiplier at +1)";
      break;
    }
    // Backtracking: accept the first step length that decreases the residual.
    double length = 1.0;
    bool accepted = false;
    for (int h = 0; h <= options_.max_halvings && !accepted; ++h, length *= 0.5) {
      const Vector trial = x + length * step;
      MapEvaluation trial_eval = map_.iterate(trial, period_, true);
      if (!trial_eval.ok()) continue;
      const double trial_residual = residual_of(trial_eval, trial);
      if (trial_residual < (1.0 - 1e-4 * length) * residual) {
        x = trial;
        eval = std::move(trial_eval);
        residual = trial_residual;
        accepted = true;
      }
    }
    result.residual_history.push_back(residual);
    if (!accepted) {
      result.reason = "line search found no decrease of the residual";
      break;
    }
  }
  result.converged = small_enough(residual, x);
  if (result.converged) result.reason = "converged";
  result.x = x;
  result.monodromy = eval.jacobian;
  result.p = eval.impacts;
  result.report = eval.report;
  return result;
}

}  // namespace libcont
