#include "libcont/shooting.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {
void require(bool condition, const std::string& field, const std::string& rule) {
  if (!condition) throw InputError("shooting option '" + field + "' must be " + rule);
}
}  // namespace

void ShootingOptions::validate() const {
  require(max_iterations >= 0, "max_iterations", ">= 0");
  require(absolute_tolerance >= 0.0, "absolute_tolerance", ">= 0");
  require(relative_tolerance >= 0.0, "relative_tolerance", ">= 0");
  require(absolute_tolerance + relative_tolerance > 0.0, "absolute_tolerance",
          "> 0 when relative_tolerance is 0");
  require(max_halvings >= 0, "max_halvings", ">= 0");
  flow.validate();
}

std::string to_string(ShootingStatus status) {
  switch (status) {
    case ShootingStatus::Converged: return "converged";
    case ShootingStatus::FlowFailed: return "flow failed";
    case ShootingStatus::NoConvergence: return "no convergence";
    case ShootingStatus::SingularJacobian: return "singular Jacobian";
    case ShootingStatus::NoDecrease: return "no decrease";
  }
  return "unknown";
}

Shooting::Shooting(const HybridSystem& system, int period, ShootingOptions options, double phase)
    : period_(period), options_((options.validate(), std::move(options))),
      map_(system, options_.flow, phase) {
  if (period_ < 1) throw InputError("orbit period n must be >= 1 (got " + std::to_string(period_) + ")");
}

bool Shooting::evaluate(const Vector& unknowns, Evaluation& out) {
  const Eigen::Index d = map_.system().dimension();
  if (!options_.multiple) {
    MapEvaluation e = map_.iterate(unknowns, period_, true);
    out.report = e.report;
    if (!e.ok()) return false;
    out.residual = e.x - unknowns;
    out.jacobian = e.jacobian - Matrix::Identity(d, d);
    out.monodromy = std::move(e.jacobian);
    out.impacts = e.impacts;
    return true;
  }
  const Eigen::Index size = d * period_;
  out.residual.resize(size);
  out.jacobian = Matrix::Zero(size, size);
  out.monodromy = Matrix::Identity(d, d);
  out.impacts = 0;
  for (int k = 0; k < period_; ++k) {
    const int next = (k + 1) % period_;
    MapEvaluation e = map_.iterate(unknowns.segment(k * d, d), 1, true);
    out.report = e.report;
    if (!e.ok()) return false;
    out.residual.segment(k * d, d) = e.x - unknowns.segment(next * d, d);
    out.jacobian.block(k * d, k * d, d, d) = e.jacobian;
    out.jacobian.block(k * d, next * d, d, d) -= Matrix::Identity(d, d);
    out.monodromy = e.jacobian * out.monodromy;
    out.impacts += e.impacts;
  }
  return true;
}

ShootingResult Shooting::solve(ConstVectorRef guess) {
  ShootingResult result;
  result.n = period_;
  const Eigen::Index d = map_.system().dimension();
  if (guess.size() != d) throw InputError("shooting guess has the wrong dimension");
  Vector x = guess;
  if (options_.multiple) {  // segment starts from iterating the map
    x.resize(d * period_);
    x.head(d) = guess;
    for (int k = 1; k < period_; ++k) {
      const MapEvaluation e = map_.iterate(x.segment((k - 1) * d, d), 1, false);
      if (!e.ok()) {
        result.x = guess;
        result.report = e.report;
        result.status = ShootingStatus::FlowFailed;
        result.reason = "flow failed while building the segment starts: " + e.report.message;
        return result;
      }
      x.segment(k * d, d) = e.x;
    }
  }
  Evaluation eval;
  const auto small_enough = [&](double residual, const Vector& at) {
    return residual <= options_.absolute_tolerance + options_.relative_tolerance * at.norm();
  };
  if (!evaluate(x, eval)) {
    result.x = guess;
    result.report = eval.report;
    result.status = ShootingStatus::FlowFailed;
    result.reason = "flow failed at the initial guess: " + eval.report.message;
    return result;
  }
  double residual = eval.residual.norm();
  result.residual_history.push_back(residual);
  while (!small_enough(residual, x)) {
    if (result.iterations >= options_.max_iterations) {
      result.status = ShootingStatus::NoConvergence;
      result.reason = "no convergence in " + std::to_string(options_.max_iterations) + " iterations";
      break;
    }
    ++result.iterations;
    const Eigen::ColPivHouseholderQR<Matrix> qr(eval.jacobian);
    const Vector step = qr.solve(-eval.residual);
    if (qr.rank() < eval.jacobian.rows() || !step.allFinite()) {
      result.status = ShootingStatus::SingularJacobian;
      result.reason = "singular shooting Jacobian (a Floquet multiplier at +1)";
      break;
    }
    // Backtracking: accept the first step length that decreases the residual.
    double length = 1.0;
    bool accepted = false;
    for (int h = 0; h <= options_.max_halvings && !accepted; ++h, length *= 0.5) {
      const Vector trial = x + length * step;
      Evaluation trial_eval;
      if (!evaluate(trial, trial_eval)) continue;
      const double trial_residual = trial_eval.residual.norm();
      if (trial_residual < (1.0 - 1e-4 * length) * residual) {
        x = trial;
        eval = std::move(trial_eval);
        residual = trial_residual;
        accepted = true;
      }
    }
    result.residual_history.push_back(residual);
    if (!accepted) {
      result.status = ShootingStatus::NoDecrease;
      result.reason = "line search found no decrease of the residual";
      break;
    }
  }
  result.converged = small_enough(residual, x);
  if (result.converged) {
    result.status = ShootingStatus::Converged;
    result.reason = "converged";
  }
  result.x = x.head(d);
  result.monodromy = eval.monodromy;
  result.p = eval.impacts;
  result.report = eval.report;
  return result;
}

}  // namespace libcont
