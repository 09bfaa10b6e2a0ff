#include "libcont/orbit_merge.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/input_error.hpp"
#include "libcont/minimal_period.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"

namespace libcont {

OrbitMerge locate_orbit_merge(HybridSystem& system, const std::string& parameter,
                              const FlowOptions& flow, int n, const ContinuationResult& branch,
                              ContinuationOptions options) {
  OrbitMerge merge;
  if (branch.status != ContinuationStatus::LeftFamily || !branch.beyond || branch.points.empty())
    return merge;
  const BranchPoint& beyond = *branch.beyond;
  const BranchPoint& last = branch.points.back();
  system.set_parameter(parameter, beyond.lambda);
  StroboscopicMap map(system, flow, beyond.chart);
  Vector after;
  merge.period = minimal_period(map, beyond.u, n, 1e-6, &after);
  bool passed = false;
  if (merge.period == n) {
    // The step may have passed the orbit of half the period instead of landing on it.
    if (n % 2 != 0 || last.chart != beyond.chart) return merge;
    system.set_parameter(parameter, last.lambda);
    Vector before;
    minimal_period(map, last.u, n, 1e-6, &before);
    if (!laps_swapped(before, after)) return merge;
    merge.period = n / 2;
    passed = true;
  }

  // The shorter orbit's branch from the point beyond back to the last point's parameter;
  // or, where the step passed it, on towards the tip the branch turned at, which lies
  // beyond both points in the way the branch was going, within a step.
  PeriodicOrbitProblem shorter(system, parameter, merge.period, flow, beyond.chart);
  options.lambda_min = std::min(last.lambda, beyond.lambda);
  options.lambda_max = std::max(last.lambda, beyond.lambda);
  options.direction = last.lambda < beyond.lambda ? -1 : +1;
  if (passed) {
    const bool upwards = last.tangent.size() > 0 && last.tangent(last.tangent.size() - 1) > 0.0;
    const double reach = std::abs(beyond.lambda - last.lambda) + options.max_step;
    if (upwards)
      options.lambda_max += reach;
    else
      options.lambda_min -= reach;
    options.direction = upwards ? +1 : -1;
  }
  options.initial_step = std::min(
      options.initial_step, 0.25 * (options.lambda_max - options.lambda_min));
  options.min_step = std::min(options.min_step, options.initial_step);
  options.max_step = std::max(options.max_step, options.initial_step);
  options.progress = {};
  const ContinuationResult back = PseudoArclength(shorter, options).run(beyond.u, beyond.lambda);
  const auto flip = std::find_if(back.special_points.begin(), back.special_points.end(),
                                 [](const SpecialPoint& s) {
                                   return s.type == SpecialPointType::PeriodDoubling;
                                 });
  if (flip == back.special_points.end()) return merge;

  // The branch's own view of the point: the n-period map there (its data: 2p impacts,
  // squared multipliers, one of them +1).
  SpecialPoint point = *flip;
  PeriodicOrbitProblem own(system, parameter, n, flow, point.chart);
  Vector residual, dlambda;
  Matrix du;
  if (own.evaluate(point.u, point.lambda, residual, du, dlambda)) {
    point.tests = own.test_values(point.u, point.lambda);
    point.data = own.point_data(point.u, point.lambda);
  }
  point.after_point = static_cast<int>(branch.points.size()) - 1;
  point.detail = "merge";
  if (2 * merge.period == n) {
    BranchPoint row = doubled_branch_start(shorter, *flip);
    row.tests = point.tests;
    row.data = point.data;
    const Eigen::Index m = row.u.size();
    if (row.chart == last.chart && row.tangent.head(m).dot(row.u - last.u) < 0.0)
      row.tangent = -row.tangent;
    merge.row = std::move(row);
  }
  merge.point = std::move(point);
  return merge;
}

void record_orbit_merge(ContinuationResult& branch, const OrbitMerge& merge,
                        const std::string& parameter, int n) {
  if (merge.period == 0 || merge.period == n) return;
  const std::string shorter = "the orbit of period " + std::to_string(merge.period);
  if (!merge.point) {
    branch.stop_reason = "the branch met " + shorter + " between " + parameter + " = " +
                         number_text(branch.points.back().lambda) + " and " +
                         number_text(branch.beyond->lambda) +
                         " (no period doubling of it there), where it ends";
    return;
  }
  branch.stop_reason = "the branch ends at " + parameter + " = " +
                       number_text(merge.point->lambda) + " on " + shorter +
                       ", at its period doubling: the orbits of period " + std::to_string(n) +
                       " are born there; beyond, the branch would repeat " + shorter;
  branch.special_points.push_back(*merge.point);
  if (merge.row) branch.points.push_back(*merge.row);
}

}  // namespace libcont
