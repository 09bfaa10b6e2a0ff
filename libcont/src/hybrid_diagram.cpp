#include "libcont/hybrid_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "libcont/floquet.hpp"
#include "libcont/orbit_merge.hpp"
#include "libcont/orbit_point_data.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

namespace {

// The direct-integration points are those of a sweep that follows the attractor.
SweepOptions integration_options(const HybridDiagramOptions& o) {
  SweepOptions s;
  s.parameter = o.parameter;
  s.from = o.from;
  s.to = o.to;
  s.steps = o.steps;
  s.follow_attractor = true;
  s.direction = o.to >= o.from ? SweepDirection::Up : SweepDirection::Down;
  if (o.initial_state.size()) s.initial_states = {o.initial_state};
  s.lyapunov = o.lyapunov;
  s.kept_samples = o.kept_samples;
  return s;
}

// Special points that end stability rather than only change the impact signature.
bool changes_stability(SpecialPointType type) {
  return type == SpecialPointType::PeriodDoubling || type == SpecialPointType::Fold ||
         type == SpecialPointType::NeimarkSacker;
}

// The z = p/n orbit through u on the section t = chart (mod nT) at lambda, at t = 0, T,
// ..., (n - 1) T (mod nT), a column each: forward to the next t = 0 (mod nT), then one
// forcing period at a time. Columns from a failed flow on are NaN.
Matrix stroboscopic_states(HybridSystem& system, const std::string& parameter,
                           const FlowOptions& options, const Vector& u, double lambda,
                           double chart, int n) {
  system.set_parameter(parameter, lambda);
  const double period = system.forcing_period();
  FlowOptions plain = options;
  plain.tangent = false;
  Flow flow(system, plain);
  FlowState state = flow.initial_state(chart, u);
  const double first = chart + forward_shift(chart, 0.0, n * period);
  Matrix states = Matrix::Constant(u.size(), n, std::numeric_limits<double>::quiet_NaN());
  for (int k = 0; k < n; ++k) {
    if (flow.advance(state, first + k * period).status != FlowStatus::Success) break;
    states.col(k) = state.x;
  }
  return states;
}

// Where a stable stretch of a branch ends, walking its points from `first` by `step` (+1
// or -1 in point order) while they are stable and the parameter moves in the sweep's
// direction (a fold ends it too).
struct StretchEnd {
  int last = -1;  // the last stable point; -1: `first` is not stable
  double until = 0.0;
  std::string lost_by;
};

StretchEnd end_of_stable_stretch(const DiagramBranch& b, int first, int step, double direction,
                                 double range_end) {
  const auto& points = b.branch.points;
  const int size = static_cast<int>(points.size());
  StretchEnd end;
  for (int k = first; k >= 0 && k < size; k += step) {
    if (!b.stable(points[static_cast<size_t>(k)])) break;
    if (k != first && (points[static_cast<size_t>(k)].lambda -
                       points[static_cast<size_t>(k - step)].lambda) * direction < 0)
      break;
    end.last = k;
  }
  if (end.last < 0) {
    end.lost_by = "stability lost";
    return end;
  }
  end.until = points[static_cast<size_t>(end.last)].lambda;
  const int next = end.last + step;
  const bool merged = b.branch.status == ContinuationStatus::LeftFamily;
  if (next < 0 || (next >= size && !merged)) {
    end.lost_by = std::abs(end.until - range_end) <= 1e-9 * (1.0 + std::abs(range_end))
                      ? "range end"
                      : "branch ended";
    return end;
  }
  // The special point located inside the step where stability was lost, if any: one that
  // changes stability first, else whatever was found there (a grazing, say). A branch that
  // merges into another family ends on that family's special point (the period doubling
  // a doubled branch was born at), located in its last step: whether the last row, with
  // its spectral radius 1 there, counts as stable is rounding.
  const int after = next >= size ? size - 2 : std::min(end.last, next);
  const SpecialPoint* cause = nullptr;
  for (const auto& special : b.branch.special_points)
    if (special.after_point == after &&
        (!cause || (changes_stability(special.type) && !changes_stability(cause->type))))
      cause = &special;
  end.lost_by = cause ? cause->type_name() : "stability lost";
  if (cause) end.until = cause->lambda;
  return end;
}

// A branch point's orbit on t = 0 (mod nT), where the integration goes on from it (the
// point itself where the flow failed).
Vector state_at_phase_zero(const DiagramBranch& b, int point) {
  const auto strobe = b.stroboscopic[static_cast<size_t>(point)].col(0);
  return strobe.allFinite() ? Vector(strobe) : b.branch.points[static_cast<size_t>(point)].u;
}

// A stable stretch of an earlier branch of period n through the orbit x (on t = 0 mod T)
// at the parameter value `value`: the branch and the pair of consecutive stable points
// around `value` whose stroboscopic states, interpolated there, come within twice the
// pair's own distance of x in one of the n laps (a curved branch strays from its chords),
// and from which `converges_to_x` (the shooting at `value`) reaches x itself.
struct StretchHit {
  int branch = -1, point = -1;  // the pair is (point, point + 1)
};

StretchHit stable_stretch_through(const std::vector<DiagramBranch>& branches, int n,
                                  double value, const Vector& x,
                                  const std::function<bool(const Vector&)>& converges_to_x) {
  for (size_t b = 0; b < branches.size(); ++b) {
    const DiagramBranch& branch = branches[b];
    if (branch.n != n) continue;
    const auto& points = branch.branch.points;
    for (size_t k = 0; k + 1 < points.size(); ++k) {
      const double l0 = points[k].lambda, l1 = points[k + 1].lambda;
      if (l0 == l1 || (value - l0) * (value - l1) > 0) continue;
      if (!branch.stable(points[k]) || !branch.stable(points[k + 1])) continue;
      const Matrix& s0 = branch.stroboscopic[k];
      const Matrix& s1 = branch.stroboscopic[k + 1];
      const double w = (value - l0) / (l1 - l0);
      for (Eigen::Index j = 0; j < s0.cols(); ++j) {
        const Vector at = (1.0 - w) * s0.col(j) + w * s1.col(j);
        if (!at.allFinite()) continue;
        const double reach = 2.0 * (s1.col(j) - s0.col(j)).norm() + 1e-6 * (1.0 + x.norm());
        if ((at - x).norm() <= reach && converges_to_x(at))
          return {static_cast<int>(b), static_cast<int>(k)};
      }
    }
  }
  return {};
}

}  // namespace

HybridDiagramOptions HybridDiagramOptions::for_range(std::string parameter, double from,
                                                     double to, std::optional<double> initial_step,
                                                     std::optional<double> max_step) {
  const double span = std::abs(to - from);
  HybridDiagramOptions o;
  o.parameter = std::move(parameter);
  o.from = from;
  o.to = to;
  o.steps = 61;
  o.lyapunov.transient_periods = 500;
  o.lyapunov.periods = 500;
  o.kept_samples = 50;
  o.continuation.max_step = max_step.value_or(span / 20.0);
  o.continuation.initial_step = std::min(initial_step.value_or(span / 100.0), o.continuation.max_step);
  o.continuation.min_step = span * 1e-8;
  o.continuation.locate_tolerance = span * 1e-9;
  return o;
}

bool DiagramBranch::stable(const BranchPoint& point) const {
  return stable_by_data(data_names, point.data);
}

HybridDiagram::HybridDiagram(SystemFactory factory, HybridDiagramOptions options)
    : factory_(std::move(factory)),
      options_(std::move(options)),
      integrator_(factory_, integration_options(options_)) {
  const auto system = factory_();
  if (!(system->forcing_period() > 0.0))
    throw InputError("diagram: system '" + system->name() +
                     "' is autonomous; periodic orbits need a forcing period");
  if (options_.from == options_.to) throw InputError("diagram: from and to must differ");
}

DiagramBranch HybridDiagram::follow_branch(const ShootingResult& orbit, int n,
                                           double start) const {
  const double direction = options_.to >= options_.from ? 1.0 : -1.0;
  const auto system = factory_();
  PeriodicOrbitProblem problem(*system, options_.parameter, n, options_.shooting.flow);
  ContinuationOptions c = options_.continuation;
  c.parameter_name = options_.parameter;
  c.lambda_min = std::min(options_.from, options_.to);
  c.lambda_max = std::max(options_.from, options_.to);
  c.direction = direction > 0 ? +1 : -1;

  DiagramBranch b;
  b.n = n;
  b.p = orbit.p;
  b.found_at = start;
  b.data_names = problem.point_data_names();
  b.branch = PseudoArclength(problem, c).run(orbit.x, start);
  // A branch that ran into an orbit of a shorter period (usually where it was born, at
  // that orbit's period doubling) ends there; integration finds that orbit and follows it
  // as a branch of its own.
  record_orbit_merge(b.branch,
                     locate_orbit_merge(*system, options_.parameter, options_.shooting.flow, n,
                                        b.branch, c),
                     options_.parameter, n);
  for (const auto& p : b.branch.points)
    b.stroboscopic.push_back(stroboscopic_states(*system, options_.parameter,
                                                 options_.shooting.flow, p.u, p.lambda, p.chart, n));
  for (const auto& p : b.branch.special_points)
    b.special_stroboscopic.push_back(stroboscopic_states(
        *system, options_.parameter, options_.shooting.flow, p.u, p.lambda, p.chart, n));
  b.stable_until = start;
  b.last_stable_state = orbit.x;
  const StretchEnd end = end_of_stable_stretch(b, 0, +1, direction, options_.to);
  b.lost_by = end.lost_by;
  if (end.last < 0) return b;
  b.last_stable_state = state_at_phase_zero(b, end.last);
  b.stable_until = end.until;
  return b;
}

HybridDiagramResult HybridDiagram::compute() const {
  const double direction = options_.to >= options_.from ? 1.0 : -1.0;
  const int steps = options_.steps;
  const SweepPass pass = direction > 0 ? SweepPass::Up : SweepPass::Down;
  auto index_at = [&](int k) { return direction > 0 ? k : steps - 1 - k; };
  const auto system = factory_();
  const Vector initial =
      options_.initial_state.size() ? options_.initial_state : system->default_initial_state();

  HybridDiagramResult result;
  Vector state = initial;
  for (int k = 0; k < steps; ++k) {
    const SweepPointKey key{pass, 0, index_at(k)};
    SweepPoint point = integrator_.compute_point(key, state);
    const bool periodic = point.ok() && point.n > 0;
    if (!point.ok()) ++result.failed;
    if (options_.progress) options_.progress(k + 1, steps);
    // A failed point's last state is no attractor to follow: start afresh.
    state = point.ok() ? point.final_state : initial;
    const double value = point.parameter;
    result.integration.push_back(std::move(point));
    if (!periodic) continue;

    system->set_parameter(options_.parameter, value);
    const int n = result.integration.back().n;
    Shooting shooting(*system, n, options_.shooting);
    const ShootingResult orbit = shooting.solve(state);
    if (!orbit.converged || !floquet_multipliers(orbit.monodromy).stable) continue;
    double stable_until = 0.0;
    const auto converges_to_orbit = [&](const Vector& guess) {
      const ShootingResult from_branch = shooting.solve(guess);
      return from_branch.converged &&
             (from_branch.x - orbit.x).norm() <= 1e-6 * (1.0 + orbit.x.norm());
    };
    const StretchHit hit =
        stable_stretch_through(result.branches, n, value, orbit.x, converges_to_orbit);
    if (hit.branch >= 0) {
      // An orbit of a branch already continued: its stable stretch from here stands for
      // the grid points on it.
      DiagramBranch& known = result.branches[static_cast<size_t>(hit.branch)];
      const auto& points = known.branch.points;
      const size_t k0 = static_cast<size_t>(hit.point);
      const int step = (points[k0 + 1].lambda - points[k0].lambda) * direction > 0 ? +1 : -1;
      const StretchEnd end =
          end_of_stable_stretch(known, hit.point + (step > 0 ? 1 : 0), step, direction, options_.to);
      stable_until = end.until;
      state = state_at_phase_zero(known, end.last);
      known.rejoined.push_back({value, end.until, end.lost_by});
    } else {
      DiagramBranch branch = follow_branch(orbit, n, value);
      stable_until = branch.stable_until;
      state = branch.last_stable_state;
      result.branches.push_back(std::move(branch));
    }
    // Integration resumes past the stable stretch, from the orbit where it was last stable.
    while (k + 1 < steps &&
           (integrator_.parameter_value(index_at(k + 1)) - stable_until) * direction <= 0)
      ++k;
    if (options_.progress) options_.progress(k + 1, steps);
  }
  return result;
}

}  // namespace libcont
