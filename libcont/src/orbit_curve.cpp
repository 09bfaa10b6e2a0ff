#include "libcont/orbit_curve.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "libcont/fold_curve_problem.hpp"
#include "libcont/input_error.hpp"
#include "libcont/period_doubling_curve_problem.hpp"
#include "libcont/pseudo_arclength.hpp"

namespace libcont {

std::string to_string(CurveKind kind) {
  switch (kind) {
    case CurveKind::Fold: return "fold";
    case CurveKind::PeriodDoubling: return "period-doubling";
    case CurveKind::NeimarkSacker: return "neimark-sacker";
    case CurveKind::Grazing: return "grazing";
  }
  return "";
}

bool OrbitCurve::ok() const {
  ContinuationResult result;
  result.status = status;
  return result.ok();
}

ContinuationOptions OrbitCurveOptions::continuation() const {
  const double span = std::abs(to - from);
  ContinuationOptions o;
  o.lambda_min = first_min;
  o.lambda_max = first_max;
  o.max_points = max_points;
  o.initial_step = initial_step.value_or(span / 100.0);
  o.max_step = max_step.value_or(span / 20.0);
  o.min_step = min_step.value_or(span * 1e-8);
  o.locate_tolerance = locate_tolerance.value_or(span * 1e-9);
  o.boundary_tolerance = std::min(1e-10 * span, o.locate_tolerance);
  o.corrector_tolerance = corrector_tolerance;
  o.stop_at_boundary = true;  // a curve ends at a grazing
  // p1 counts like p2 in the arclength.
  o.parameter_weight = span / (first_max - first_min);
  if (o.initial_step > o.max_step) o.initial_step = o.max_step;
  return o;
}

void OrbitCurveOptions::validate() const {
  const auto bad = [](const std::string& field, const std::string& rule) {
    throw InputError("orbit curve option " + field + " " + rule);
  };
  if (second.empty()) bad("second", "is empty: name the second parameter");
  if (!std::isfinite(from) || !std::isfinite(to)) bad("from", "and to must be finite");
  if (from == to) bad("to", "must differ from from (" + number_text(from) + ")");
  if (!std::isfinite(first_min) || !std::isfinite(first_max) || !(first_min < first_max))
    bad("first_min", "must be finite and below first_max");
  const std::pair<const char*, std::optional<double>> steps[] = {
      {"initial_step", initial_step},
      {"max_step", max_step},
      {"min_step", min_step},
      {"locate_tolerance", locate_tolerance}};
  for (const auto& [name, value] : steps)
    if (value && !(*value > 0.0)) bad(name, "must be positive, not " + number_text(*value));
  if (max_points < 2) bad("max_points", "must be at least 2, not " + std::to_string(max_points));
  if (!(corrector_tolerance > 0.0)) bad("corrector_tolerance", "must be positive");
  continuation().validate();
  flow.validate();
}

namespace {

std::unique_ptr<OrbitCurveProblem> make_problem(HybridSystem& system, CurveKind kind,
                                                const std::string& first,
                                                const OrbitCurveOptions& options, int period,
                                                double phase) {
  switch (kind) {
    case CurveKind::Fold:
      return std::make_unique<FoldCurveProblem>(system, first, options.second, period,
                                                options.flow, phase);
    case CurveKind::PeriodDoubling:
      return std::make_unique<PeriodDoublingCurveProblem>(system, first, options.second, period,
                                                          options.flow, phase);
    default:
      throw InputError("curves of " + to_string(kind) + " points are not available yet");
  }
}

// Reads a recorded point's data (OrbitCurveProblem::point_data_names).
void fill(const OrbitCurveProblem& problem, const BranchPoint& p, CurveRow& row) {
  const int n = problem.state_dimension();
  row.first = p.lambda;
  row.second = p.u[n];
  row.x = p.u.head(n);
  row.auxiliary = p.u.tail(p.u.size() - n - 1);
  row.phase = p.chart;
  row.tests = p.tests;
  if (p.data.size() < 5) return;
  row.impacts = static_cast<int>(p.data[0]);
  row.slowest_impact = p.data[1];
  row.min_gap = p.data[2];
  for (Eigen::Index k = 5; k + 1 < p.data.size(); k += 2)
    row.multipliers.emplace_back(p.data[k], p.data[k + 1]);
}

std::string point_type(const SpecialPoint& s) {
  switch (s.type) {
    case SpecialPointType::Fold: return "turning-point";
    case SpecialPointType::Custom: return s.custom_name;
    default: return to_string(s.type);
  }
}

// The curve's last point on the bound p2 = bound, from `last` (inside) towards `beyond`
// (outside): Newton on (x, auxiliary, p1) with p2 fixed, from their interpolation.
bool land_on_second(OrbitCurveProblem& problem, const BranchPoint& last, const BranchPoint& beyond,
                    double bound, double tolerance, BranchPoint& landed) {
  const int n = problem.state_dimension(), m = problem.dimension();
  const double fraction = (bound - last.u[n]) / (beyond.u[n] - last.u[n]);
  Vector u = last.u + fraction * (beyond.u - last.u);
  double lambda = last.lambda + fraction * (beyond.lambda - last.lambda);
  u[n] = bound;
  problem.set_chart(beyond.chart);
  Vector residual, dlambda;
  Matrix du;
  for (int it = 0; it < 10; ++it) {
    if (!problem.evaluate(u, lambda, residual, du, dlambda)) return false;
    if (it > 0 && residual.norm() <= tolerance * (1.0 + u.norm())) {
      landed = beyond;
      landed.u = u;
      landed.lambda = lambda;
      landed.tests = problem.test_values(u, lambda);
      landed.data = problem.point_data(u, lambda);
      landed.chart = problem.chart();
      return true;
    }
    Matrix j(m, m);  // columns: x, auxiliary, p1 (p2 fixed)
    j.leftCols(n) = du.leftCols(n);
    j.middleCols(n, m - n - 1) = du.rightCols(m - n - 1);
    j.col(m - 1) = dlambda;
    const Vector step = j.partialPivLu().solve(-residual);
    if (!step.allFinite()) return false;
    u.head(n) += step.head(n);
    u.tail(m - n - 1) += step.segment(n, m - n - 1);
    lambda += step[m - 1];
  }
  return false;
}

}  // namespace

OrbitCurve trace_orbit_curve(HybridSystem& system, CurveKind kind, const std::string& first,
                             double first_value, int period, double phase, ConstVectorRef x,
                             const OrbitCurveOptions& options) {
  options.validate();
  if (x.size() != system.dimension()) throw InputError("curve start has the wrong dimension");
  auto problem = make_problem(system, kind, first, options, period, phase);
  problem->second_min = std::min(options.from, options.to);
  problem->second_max = std::max(options.from, options.to);
  problem->grazing = options.grazing;
  // Difference steps on the scale of the ranges (a clearance d of millimetres).
  problem->second_scale = std::abs(options.to - options.from);
  problem->first_scale = options.first_max - options.first_min;
  OrbitCurve curve;
  curve.kind = kind;
  curve.first = first;
  curve.second = options.second;
  curve.period = period;
  for (const TestFunction& t : problem->test_functions()) curve.test_names.push_back(t.name);

  const int n = system.dimension();
  Vector u0(problem->dimension());
  u0.head(n) = x;
  u0[n] = system.parameters()[options.second];
  if (!problem->refit_borders(u0, first_value)) {
    curve.stop_reason = "the start cannot be evaluated: " + problem->failure();
    curve.failure = problem->failure();
    return curve;
  }
  // The first point corrected at fixed p1; its tangent turned towards `to` in p2.
  ContinuationOptions engine = options.continuation();
  ContinuationOptions start = engine;
  start.max_points = 1;
  const ContinuationResult first_run = PseudoArclength(*problem, start).run(u0, first_value);
  if (first_run.points.empty()) {
    curve.status = first_run.status;
    curve.stop_reason = first_run.stop_reason + (problem->failure().empty() ? "" : ": " + problem->failure());
    curve.failure = problem->failure();
    return curve;
  }
  BranchPoint origin = first_run.points.front();
  if (origin.tangent[n] * (options.to - options.from) < 0.0) origin.tangent = -origin.tangent;
  ContinuationResult result = PseudoArclength(*problem, engine).run_from(origin);

  if (result.status == ContinuationStatus::LeftFamily && result.beyond && !result.points.empty()) {
    const double p2 = result.beyond->u[n];
    const double bound = p2 > problem->second_max ? problem->second_max : problem->second_min;
    BranchPoint landed;
    if (land_on_second(*problem, result.points.back(), *result.beyond, bound,
                       options.corrector_tolerance, landed)) {
      result.points.push_back(std::move(landed));
      result.status = ContinuationStatus::ReachedBound;
      result.stop_reason = "reached the bound of " + options.second;
    } else {
      result.status = ContinuationStatus::ReachedBound;
      result.stop_reason = "reached the range of " + options.second +
                           " (the last row is short of its bound: the landing failed)";
    }
  }
  for (const BranchPoint& p : result.points) fill(*problem, p, curve.rows.emplace_back());
  for (const SpecialPoint& s : result.special_points) {
    CurveRow located;
    BranchPoint as_point;
    as_point.u = s.u;
    as_point.lambda = s.lambda;
    as_point.chart = s.chart;
    as_point.tests = s.tests;
    as_point.data = s.data;
    fill(*problem, as_point, located);
    CurvePoint& point = curve.points.emplace_back();
    point.type = point_type(s);
    point.first = located.first;
    point.second = located.second;
    point.x = located.x;
    point.phase = located.phase;
    point.auxiliary = located.auxiliary;
    point.tests = located.tests;
    point.multipliers = located.multipliers;
    point.after_row = s.after_point;
    if (s.type == SpecialPointType::Grazing) point.error_estimate = problem->grazing_error();
  }
  curve.status = result.status;
  curve.stop_reason = result.stop_reason;
  curve.failure = problem->failure();
  return curve;
}

OrbitCurve trace_orbit_curve(HybridSystem& system, const OrbitBranch& branch,
                             const SpecialPoint& point, const OrbitCurveOptions& options) {
  if (options.second == branch.parameter)
    throw InputError("the curve's second parameter '" + options.second +
                     "' is the branch's parameter: name another one");
  CurveKind kind;
  switch (point.type) {
    case SpecialPointType::Fold: kind = CurveKind::Fold; break;
    case SpecialPointType::PeriodDoubling: kind = CurveKind::PeriodDoubling; break;
    case SpecialPointType::NeimarkSacker: kind = CurveKind::NeimarkSacker; break;
    case SpecialPointType::Grazing: kind = CurveKind::Grazing; break;
    default:
      throw InputError("a curve starts at a fold, a period doubling, a Neimark-Sacker point or "
                       "a grazing, not at a " + point.type_name() + " point");
  }
  system.set_parameter(branch.parameter, point.lambda);
  return trace_orbit_curve(system, kind, branch.parameter, point.lambda, branch.period,
                           point.chart, point.u, options);
}

}  // namespace libcont
