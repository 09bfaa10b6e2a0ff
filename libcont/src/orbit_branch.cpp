#include "libcont/orbit_branch.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "libcont/input_error.hpp"
#include "libcont/orbit_merge.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

ContinuationOptions OrbitBranchOptions::continuation() const {
  const double span = std::abs(to - from);
  ContinuationOptions o;
  o.parameter_name = parameter;
  o.lambda_min = std::min(from, to);
  o.lambda_max = std::max(from, to);
  o.direction = to > from ? +1 : -1;
  o.max_points = max_points;
  o.initial_step = initial_step.value_or(span / 100.0);
  o.max_step = max_step.value_or(span / 20.0);
  o.min_step = min_step.value_or(span * 1e-8);
  o.locate_tolerance = locate_tolerance.value_or(span * 1e-9);
  if (corrector_tolerance) o.corrector_tolerance = *corrector_tolerance;
  o.natural = natural;
  o.user_values = user_values;
  o.stop_at_boundary = stop_at_grazing;
  // A grazing's parameter to 1e-10 of the range (finer with locate_tolerance).
  o.boundary_tolerance = std::min(1e-10 * span, o.locate_tolerance);
  if (o.initial_step > o.max_step) o.initial_step = o.max_step;
  return o;
}

void OrbitBranchOptions::validate() const {
  const auto bad = [](const std::string& field, const std::string& rule) {
    throw InputError("orbit branch option " + field + " " + rule);
  };
  if (parameter.empty()) bad("parameter", "is empty: name the continued parameter");
  if (!std::isfinite(from) || !std::isfinite(to)) bad("from", "and to must be finite");
  if (from == to) bad("to", "must differ from from (" + number_text(from) + ")");
  const std::pair<const char*, std::optional<double>> steps[] = {
      {"initial_step", initial_step},
      {"max_step", max_step},
      {"min_step", min_step},
      {"locate_tolerance", locate_tolerance},
      {"corrector_tolerance", corrector_tolerance}};
  for (const auto& [name, value] : steps)
    if (value && !(*value > 0.0)) bad(name, "must be positive, not " + number_text(*value));
  if (max_points < 2) bad("max_points", "must be at least 2, not " + std::to_string(max_points));
  for (const double value : user_values)
    if (!in_range(value))
      bad("user_values", number_text(value) + " lies outside the range from " +
                             number_text(from) + " to " + number_text(to));
  if (max_section_moves < 0) bad("max_section_moves", "must not be negative");
  const ContinuationOptions c = continuation();
  if (c.min_step > c.initial_step)
    bad("min_step", number_text(c.min_step) + " must not exceed the initial step " +
                        number_text(c.initial_step) + " and max_step " + number_text(c.max_step));
  if (!(grazing.smallest_distance > 0.0 && grazing.ratio > 0.0 && grazing.ratio < 1.0 &&
        grazing.leave_distance > grazing.smallest_distance && grazing.smallest_depth >= 0.0))
    bad("grazing", "needs 0 < smallest_distance < leave_distance, 0 < ratio < 1 and "
                   "smallest_depth >= 0");
  c.validate();
  flow.validate();
}

namespace {

// The branch as traced so far: what the engine's progress is added to.
struct Prefix {
  int points = 0;
  int special_points = 0;
  int section_moves = 0;
};

class Tracer {
 public:
  Tracer(HybridSystem& system, int period, const OrbitBranchOptions& options)
      : system_(system), period_(period), options_(options) {}

  OrbitBranch empty() const {
    OrbitBranch b;
    b.parameter = options_.parameter;
    b.period = period_;
    b.data_names = PeriodicOrbitProblem(system_, options_.parameter, period_).point_data_names();
    return b;
  }

  // From the orbit through x on the section `phase`, at lambda0. Should it stall, it is
  // moved to a quiet section and continued from its last point, as often as that helps.
  OrbitBranch trace(double phase, ConstVectorRef x, double lambda0, ContinuationOptions c,
                    const Prefix& prefix) {
    OrbitBranch branch = empty();
    {
      PeriodicOrbitProblem problem(system_, options_.parameter, period_, options_.flow, phase);
      problem.grazing = options_.grazing;
      c.progress = progress(prefix, branch);
      result(branch) = PseudoArclength(problem, c).run(x, lambda0);
      branch.failure = problem.failure();
    }
    while (stalled(branch) && branch.section_moves < options_.max_section_moves &&
           !branch.points.empty()) {
      const BranchPoint last = branch.points.back();
      system_.set_parameter(options_.parameter, last.lambda);
      const QuietSection quiet = quiet_section(system_, last.u, last.chart, period_, options_.flow);
      if (!quiet.ok || quiet.phase == last.chart) break;  // stalled for another reason
      ++branch.section_moves;
      phase = quiet.phase;
      const Eigen::Index m = last.u.size();
      c.direction = last.tangent[m] < 0.0 ? -1 : +1;
      PeriodicOrbitProblem problem(system_, options_.parameter, period_, options_.flow, phase);
      problem.grazing = options_.grazing;
      c.progress = progress(prefix, branch);
      const ContinuationResult more = PseudoArclength(problem, c).run(quiet.x, last.lambda);
      branch.failure = problem.failure();
      if (more.points.size() < 2) break;
      append(branch, more);
    }
    end_at_merge(branch, c);
    return branch;
  }

  // From a point with its tangent; should it stall, trace() goes on from its last point
  // (on the same section first).
  OrbitBranch trace_from(const BranchPoint& start, ContinuationOptions c) {
    OrbitBranch branch = empty();
    {
      PeriodicOrbitProblem problem(system_, options_.parameter, period_, options_.flow,
                                   start.chart);
      problem.grazing = options_.grazing;
      c.progress = progress({}, branch);
      result(branch) = PseudoArclength(problem, c).run_from(start);
      branch.failure = problem.failure();
    }
    end_at_merge(branch, c);
    if (!stalled(branch) || branch.points.size() < 2) return branch;
    const BranchPoint last = branch.points.back();
    c.direction = last.tangent[last.u.size()] < 0.0 ? -1 : +1;
    c.max_points = std::max(2, c.max_points - static_cast<int>(branch.points.size()) + 1);
    const Prefix prefix{static_cast<int>(branch.points.size()),
                        static_cast<int>(branch.special_points.size()), branch.section_moves};
    const OrbitBranch rest = trace(last.chart, last.u, last.lambda, c, prefix);
    if (rest.points.empty()) return branch;
    append(branch, rest);
    branch.section_moves = rest.section_moves;
    branch.failure = rest.failure;
    return branch;
  }

 private:
  static ContinuationResult& result(OrbitBranch& branch) { return branch; }

  // A branch that ran into an orbit of a shorter period ends where it met it.
  void end_at_merge(OrbitBranch& branch, const ContinuationOptions& c) const {
    if (branch.status != ContinuationStatus::LeftFamily) return;
    const OrbitMerge merge =
        locate_orbit_merge(system_, options_.parameter, options_.flow, period_, branch, c);
    record_orbit_merge(branch, merge, options_.parameter, period_);
  }

  static bool stalled(const ContinuationResult& r) {
    return r.status == ContinuationStatus::StepTooSmall;
  }

  // Appends `more`, whose first point repeats the last point of `into`.
  static void append(OrbitBranch& into, const ContinuationResult& more) {
    const int offset = static_cast<int>(into.points.size()) - 1;
    for (size_t i = 1; i < more.points.size(); ++i) into.points.push_back(more.points[i]);
    for (auto p : more.special_points) {
      p.after_point += offset;
      into.special_points.push_back(std::move(p));
    }
    into.status = more.status;
    into.stop_reason = more.stop_reason;
    into.boundary_test = more.boundary_test;
    into.beyond = more.beyond;
  }

  // The engine's progress as the whole branch's: `prefix` before this branch, `branch` so
  // far before this run of the engine, whose first point repeats the last one of either.
  std::function<void(const ContinuationResult&)> progress(const Prefix& prefix,
                                                          const OrbitBranch& branch) const {
    if (!options_.progress) return {};
    const int own = static_cast<int>(branch.points.size());
    const int before = prefix.points + (prefix.points > 0 ? std::max(own - 1, 0) : own);
    const int specials = prefix.special_points + static_cast<int>(branch.special_points.size());
    const int moves = prefix.section_moves + branch.section_moves;
    return [callback = options_.progress, before, specials, moves](const ContinuationResult& r) {
      if (r.points.empty()) return;
      OrbitBranchProgress p;
      p.points = before + static_cast<int>(r.points.size()) - (before > 0 ? 1 : 0);
      p.special_points = specials + static_cast<int>(r.special_points.size());
      p.lambda = r.points.back().lambda;
      p.section_moves = moves;
      callback(p);
    };
  }

  HybridSystem& system_;
  int period_;
  const OrbitBranchOptions& options_;
};

OrbitBranch start_failed(const Tracer& tracer, std::string reason) {
  OrbitBranch branch = tracer.empty();
  branch.status = ContinuationStatus::StartFailed;
  branch.stop_reason = std::move(reason);
  return branch;
}

}  // namespace

std::vector<int> unexplained_stability_changes(const ContinuationResult& branch,
                                               const std::vector<std::string>& data_names) {
  std::vector<int> rows;
  const auto& points = branch.points;
  const auto names = static_cast<Eigen::Index>(data_names.size());
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    if (points[i].data.size() != names || points[i + 1].data.size() != names) continue;
    if (stable_by_data(data_names, points[i].data) ==
        stable_by_data(data_names, points[i + 1].data))
      continue;
    const bool explained = std::any_of(
        branch.special_points.begin(), branch.special_points.end(),
        [&](const SpecialPoint& s) { return s.after_point == static_cast<int>(i); });
    if (!explained) rows.push_back(static_cast<int>(i));
  }
  return rows;
}

OrbitBranch trace_orbit_branch(HybridSystem& system, const OrbitSearchResult& start,
                               const OrbitBranchOptions& options) {
  if (!start.found()) {
    options.validate();
    return start_failed(Tracer(system, start.period, options),
                        "no periodic orbit to start from: " + start.message);
  }
  return trace_orbit_branch(system, start.period, start.phase, start.shooting.x, options);
}

OrbitBranch trace_orbit_branch(HybridSystem& system, int period, double phase, ConstVectorRef x,
                               const OrbitBranchOptions& options) {
  options.validate();
  if (period < 1) throw InputError("orbit period n must be >= 1");
  Tracer tracer(system, period, options);
  return tracer.trace(phase, x, options.from, options.continuation(), {});
}

OrbitBranch trace_orbit_branch_from(HybridSystem& system, int period, BranchPoint start,
                                    const OrbitBranchOptions& options) {
  options.validate();
  if (period < 1) throw InputError("orbit period n must be >= 1");
  const Eigen::Index m = start.u.size();
  if (start.tangent.size() != m + 1)
    throw InputError("branch start: a tangent of " + std::to_string(m + 1) +
                     " components (state, parameter) is needed, not " +
                     std::to_string(start.tangent.size()));
  if (start.tangent[m] * (options.to - start.lambda) < 0.0) start.tangent = -start.tangent;
  Tracer tracer(system, period, options);
  return tracer.trace_from(start, options.continuation());
}

OrbitBranch trace_doubled_branch(HybridSystem& system, int period, const SpecialPoint& flip,
                                 const OrbitBranchOptions& options) {
  options.validate();
  std::optional<BranchPoint> begin;
  std::string failure;
  try {
    PeriodicOrbitProblem single(system, options.parameter, period, options.flow);
    begin = doubled_branch_start(single, flip);
  } catch (const InputError& error) {
    failure = std::string("cannot switch branches: ") + error.what();
  }
  Tracer tracer(system, 2 * period, options);
  if (!begin) return start_failed(tracer, failure);
  return tracer.trace_from(*begin, options.continuation());
}

}  // namespace libcont
