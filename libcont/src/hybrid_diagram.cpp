#include "libcont/hybrid_diagram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "libcont/floquet.hpp"
#include "libcont/orbit_merge.hpp"
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
  const bool merged = b.branch.status == ContinuationStatus::LeftFamily;
  b.stable_until = start;
  b.last_stable_state = orbit.x;
  const auto& points = b.branch.points;
  // The stable stretch from the start: it ends where the orbit turns unstable or the
  // branch turns back (a fold).
  int last_stable = -1;
  for (size_t k = 0; k < points.size(); ++k) {
    if (!b.stable(points[k])) break;
    if (k > 0 && (points[k].lambda - points[k - 1].lambda) * direction < 0) break;
    last_stable = static_cast<int>(k);
  }
  if (last_stable < 0) {
    b.lost_by = "stability lost";
    return b;
  }
  const BranchPoint& last = points[static_cast<size_t>(last_stable)];
  // On t = 0 (mod nT), where the integration goes on from it (the point itself where the
  // flow failed).
  const auto strobe = b.stroboscopic[static_cast<size_t>(last_stable)].col(0);
  b.last_stable_state = strobe.allFinite() ? Vector(strobe) : last.u;
  b.stable_until = last.lambda;
  if (last_stable + 1 == static_cast<int>(points.size()) && !merged) {
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
    DiagramBranch branch = follow_branch(orbit, n, value);
    // Integration resumes past the stable stretch, from the orbit where it was last stable.
    while (k + 1 < steps &&
           (integrator_.parameter_value(index_at(k + 1)) - branch.stable_until) * direction <= 0)
      ++k;
    if (options_.progress) options_.progress(k + 1, steps);
    state = branch.last_stable_state;
    result.branches.push_back(std::move(branch));
  }
  return result;
}

}  // namespace libcont
