#include "libcont/hybrid_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "libcont/floquet.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"

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

// The fewest forcing periods, a divisor of n, after which the orbit through u closes
// (relative to its size; the shooting tolerance is far below this). A branch of z = p/n
// orbits born at a period doubling of the n/2 orbit, continued back through its birth,
// goes on as the n/2 orbit traversed twice: same points, squared multipliers, and that
// orbit's next period doubling would show as a +1 multiplier, no special point.
int minimal_period(StroboscopicMap& map, ConstVectorRef u, int n) {
  const double tolerance = 1e-6 * std::max(u.norm(), std::numeric_limits<double>::min());
  for (int d = 1; d < n; ++d) {
    if (n % d != 0) continue;
    const MapEvaluation e = map.iterate(u, d, false);
    if (e.ok() && (e.x - u).norm() <= tolerance) return d;
  }
  return n;
}

// The point of a z = p/n orbit on the section t = 0 (mod nT), where the sweep's
// integration starts, from a branch point on its own section (its chart: continuation
// moves the section off the orbit's events). The point itself if the flow fails.
Vector on_section_zero(HybridSystem& system, const std::string& parameter,
                       const FlowOptions& flow, const BranchPoint& point, int n) {
  system.set_parameter(parameter, point.lambda);
  Vector x = point.u;
  follow_to_section(system, flow, point.u, point.chart, 0.0, x, n);
  return x;
}

}  // namespace

bool DiagramBranch::stable(const BranchPoint& point) const {
  const auto it = std::find(data_names.begin(), data_names.end(), "spectral_radius");
  return it != data_names.end() && point.data[it - data_names.begin()] < 1.0;
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
  c.lambda_min = std::min(options_.from, options_.to);
  c.lambda_max = std::max(options_.from, options_.to);
  c.direction = direction > 0 ? +1 : -1;

  DiagramBranch b;
  b.n = n;
  b.p = orbit.p;
  b.found_at = start;
  b.data_names = problem.point_data_names();
  b.branch = PseudoArclength(problem, c).run(orbit.x, start);
  b.stable_until = start;
  b.last_stable_state = orbit.x;
  const auto& points = b.branch.points;
  // The stable stretch from the start: it ends where the orbit turns unstable or the
  // branch turns back (a fold).
  int last_stable = -1;
  StroboscopicMap map(*system, options_.shooting.flow);
  for (size_t k = 0; k < points.size(); ++k) {
    if (!b.stable(points[k])) break;
    if (k > 0 && (points[k].lambda - points[k - 1].lambda) * direction < 0) break;
    if (n > 1 && k > 0) {
      system->set_parameter(options_.parameter, points[k].lambda);
      map.set_phase(points[k].chart);
      const int shorter = minimal_period(map, points[k].u, n);
      if (shorter < n) {
        end_at_merge(b, k, shorter);
        return b;
      }
    }
    last_stable = static_cast<int>(k);
  }
  if (last_stable < 0) {
    b.lost_by = "stability lost";
    return b;
  }
  const BranchPoint& last = points[static_cast<size_t>(last_stable)];
  b.last_stable_state = on_section_zero(*system, options_.parameter, options_.shooting.flow, last, n);
  b.stable_until = last.lambda;
  if (last_stable + 1 == static_cast<int>(points.size())) {
    const double end = options_.to;
    b.lost_by = std::abs(last.lambda - end) <= 1e-9 * (1.0 + std::abs(end)) ? "range end"
                                                                              : "branch ended";
    return b;
  }
  // The special point located inside the step where stability was lost, if any: one that
  // changes stability first, else whatever was found there (a grazing, say).
  const SpecialPoint* cause = nullptr;
  for (const auto& special : b.branch.special_points)
    if (special.after_point == last_stable &&
        (!cause || (changes_stability(special.type) && !changes_stability(cause->type))))
      cause = &special;
  b.lost_by = cause ? cause->type_name() : "stability lost";
  if (cause) b.stable_until = cause->lambda;
  return b;
}

void HybridDiagram::end_at_merge(DiagramBranch& b, size_t k, int shorter) const {
  // The branch met the shorter orbit between points k - 1 and k; past it the branch only
  // repeats the shorter orbit, which integration finds and follows as a branch of its
  // own. Usually the two met at the shorter orbit's period doubling, located on the
  // shorter orbit's branch continued back from point k: its multiplier -1 is a regular
  // sign change there, while on this branch it is a +1 without one. Otherwise (a grazing
  // that turned this orbit into the shorter one, say) the special point located within
  // that step says where and how.
  const BranchPoint merged = b.branch.points[k];
  const double before = b.branch.points[k - 1].lambda;
  const int last_kept = static_cast<int>(k) - 1;
  std::vector<SpecialPoint> in_step;
  for (const auto& s : b.branch.special_points)
    if (s.after_point == last_kept) in_step.push_back(s);
  b.branch.points.resize(k);
  std::erase_if(b.branch.special_points,
                [&](const SpecialPoint& s) { return s.after_point >= last_kept; });
  b.lost_by = "stability lost";
  b.stable_until = before;
  const auto system = factory_();
  b.last_stable_state =
      on_section_zero(*system, options_.parameter, options_.shooting.flow, merged, b.n);
  PeriodicOrbitProblem problem(*system, options_.parameter, shorter, options_.shooting.flow,
                               merged.chart);
  ContinuationOptions c = options_.continuation;
  c.lambda_min = std::min(before, merged.lambda);
  c.lambda_max = std::max(before, merged.lambda);
  c.direction = before < merged.lambda ? -1 : +1;
  c.initial_step = std::min(c.initial_step, 0.25 * std::abs(merged.lambda - before));
  const ContinuationResult back = PseudoArclength(problem, c).run(merged.u, merged.lambda);
  for (const auto& special : back.special_points) {
    if (special.type != SpecialPointType::PeriodDoubling) continue;
    in_step = {special};
    break;
  }
  if (in_step.empty()) return;
  SpecialPoint& cause = in_step.front();
  cause.after_point = last_kept;
  b.lost_by = cause.type_name();
  b.stable_until = cause.lambda;
  b.branch.special_points.push_back(std::move(cause));
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
    DiagramBranch branch = follow_branch(orbit, n, value);
    // Integration resumes past the stable stretch, from the orbit where it was last stable.
    while (k + 1 < steps &&
           (integrator_.parameter_value(index_at(k + 1)) - branch.stable_until) * direction <= 0)
      ++k;
    state = branch.last_stable_state;
    result.branches.push_back(std::move(branch));
  }
  return result;
}

}  // namespace libcont
