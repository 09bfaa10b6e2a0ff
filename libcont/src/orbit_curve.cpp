#include "libcont/orbit_curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "libcont/fold_curve_problem.hpp"
#include "libcont/grazing_curve_problem.hpp"
#include "libcont/input_error.hpp"
#include "libcont/minimal_period.hpp"
#include "libcont/neimark_sacker_curve_problem.hpp"
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

// The extended problem of a curve and its first point u0 = (x, p2, auxiliary unknowns).
struct Setup {
  std::unique_ptr<ZeroProblem> problem;
  OrbitCurveProblem* bordered = nullptr;  // fold, period doubling, Neimark-Sacker
  GrazingCurveProblem* tangency = nullptr;
  Vector u0;
  std::string start_failure;  // why the start's auxiliary unknowns could not be set
  std::string failure() const {
    return bordered ? bordered->failure() : tangency ? tangency->failure() : std::string();
  }
};

Setup make_problem(HybridSystem& system, CurveKind kind, const std::string& first,
                   double first_value, const OrbitCurveOptions& options, int period, double phase,
                   ConstVectorRef x) {
  Setup setup;
  const int n = system.dimension();
  const double p2 = system.parameters()[options.second];
  const double scale = std::abs(options.to - options.from);
  if (kind == CurveKind::Grazing) {
    auto problem = scaled_grazing_problem(system, first, period, phase, options);
    double s = 0.0;
    if (!problem->find_tangency(x, s)) s = 0.0;
    setup.u0.resize(n + 2);
    setup.u0 << x, p2, s / problem->time_unit;
    setup.tangency = problem.get();
    setup.problem = std::move(problem);
    return setup;
  }
  std::unique_ptr<OrbitCurveProblem> problem;
  switch (kind) {
    case CurveKind::Fold:
      problem = std::make_unique<FoldCurveProblem>(system, first, options.second, period,
                                                   options.flow, phase);
      break;
    case CurveKind::PeriodDoubling:
      problem = std::make_unique<PeriodDoublingCurveProblem>(system, first, options.second, period,
                                                             options.flow, phase);
      break;
    case CurveKind::NeimarkSacker:
      problem = std::make_unique<NeimarkSackerCurveProblem>(system, first, options.second, period,
                                                            options.flow, phase);
      break;
    default:
      throw InputError("curves of " + to_string(kind) + " points are not available yet");
  }
  problem->second_min = std::min(options.from, options.to);
  problem->second_max = std::max(options.from, options.to);
  problem->grazing = options.grazing;
  // Difference steps on the scale of the ranges (a clearance d of millimetres).
  problem->second_scale = scale;
  problem->first_scale = options.first_max - options.first_min;
  setup.u0.resize(problem->dimension());
  setup.u0.head(n) = x;
  setup.u0[n] = p2;
  if (auto* ns = dynamic_cast<NeimarkSackerCurveProblem*>(problem.get())) {
    // kappa = cos theta of the start's complex pair nearest to the unit circle.
    double kappa = 0.0;
    if (!ns->critical_kappa(x, first_value, p2, kappa)) {
      // A start whose orbit is computed but has no complex pair is no Neimark-Sacker point
      // (a mislabelled one): bad input. A map that fails there is a numerical failure.
      if (ns->failure().empty())
        throw InputError("the start is no Neimark-Sacker point: its monodromy has no complex "
                         "pair of multipliers");
      setup.start_failure = ns->failure();
    }
    setup.u0[n + 1] = kappa;
  }
  setup.bordered = problem.get();
  setup.problem = std::move(problem);
  return setup;
}

// Reads a recorded point's data by name (the problems' point_data_names).
void fill(const std::vector<std::string>& names, int n, const BranchPoint& p, CurveRow& row) {
  row.first = p.lambda;
  row.second = p.u[n];
  row.x = p.u.head(n);
  row.auxiliary = p.u.tail(p.u.size() - n - 1);
  row.phase = p.chart;
  row.tests = p.tests;
  row.slowest_impact = row.min_gap = std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < names.size() && static_cast<Eigen::Index>(k) < p.data.size(); ++k) {
    const double value = p.data[static_cast<Eigen::Index>(k)];
    if (names[k] == "impacts") row.impacts = static_cast<int>(value);
    if (names[k] == "slowest_impact") row.slowest_impact = value;
    if (names[k] == "min_gap") row.min_gap = value;
    if (names[k] == "tangency_time") row.auxiliary = Vector::Constant(1, value);
    if (names[k].ends_with(":re") && k + 1 < names.size())
      row.multipliers.emplace_back(value, p.data[static_cast<Eigen::Index>(k) + 1]);
  }
}

std::string point_type(const SpecialPoint& s) {
  switch (s.type) {
    case SpecialPointType::Fold: return "turning-point";
    case SpecialPointType::Custom: return s.custom_name;
    default: return to_string(s.type);
  }
}

// Newton steps of least norm in (u, lambda), lambda weighted by `weight` (the arclength's
// norm), from `point`'s u and lambda onto the zero set, to |F| <= tolerance (1 + |u|); the
// point's tangent is then the Jacobian's null vector, and its chart the problem's.
bool correct_by_least_norm(ZeroProblem& problem, double weight, double tolerance,
                           BranchPoint& point) {
  const int m = problem.dimension();
  Vector residual, dlambda;
  Matrix du;
  double first = 0.0;
  for (int it = 0; it <= 12; ++it) {
    if (!problem.evaluate(point.u, point.lambda, residual, du, dlambda)) return false;
    Matrix j(m, m + 1);  // in (u, weight * lambda)
    j << du, dlambda / weight;
    if (it > 0 && residual.norm() <= tolerance * (1.0 + point.u.norm())) {
      const Eigen::HouseholderQR<Matrix> qr(j.transpose());
      const Vector null = Matrix(qr.householderQ()).col(m);
      point.tangent = null;
      point.tangent[m] /= weight;
      point.chart = problem.chart();
      return point.tangent.allFinite();
    }
    // Iterates that run off are not waited for (as the engine's corrector).
    if (it == 0) first = residual.norm();
    if (it >= 2 && residual.norm() > 2.0 * first) return false;
    const Vector step = j.completeOrthogonalDecomposition().solve(-residual);
    if (!step.allFinite()) return false;
    point.u += step.head(m);
    point.lambda += step[m] / weight;
  }
  return false;
}

}  // namespace

// Newton on every unknown of (u, lambda) but the fixed one, from the interpolation of the
// two points to the bound.
bool land_on_bound(ZeroProblem& problem, int fixed, const BranchPoint& last,
                   const BranchPoint& beyond, double bound, double tolerance,
                   BranchPoint& landed) {
  const int m = problem.dimension();
  const auto coordinate = [&](const BranchPoint& p) { return fixed < m ? p.u[fixed] : p.lambda; };
  const double fraction = (bound - coordinate(last)) / (coordinate(beyond) - coordinate(last));
  Vector y(m + 1), beyond_y(m + 1);
  y << last.u, last.lambda;
  beyond_y << beyond.u, beyond.lambda;
  y += fraction * (beyond_y - y);
  y[fixed] = bound;
  problem.set_chart(beyond.chart);
  Vector residual, dlambda;
  Matrix du;
  for (int it = 0; it < 10; ++it) {
    if (!problem.evaluate(y.head(m), y[m], residual, du, dlambda)) return false;
    if (it > 0 && residual.norm() <= tolerance * (1.0 + y.head(m).norm())) {
      landed = beyond;
      landed.u = y.head(m);
      landed.lambda = y[m];
      landed.tests = problem.test_values(landed.u, landed.lambda);
      landed.data = problem.point_data(landed.u, landed.lambda);
      landed.chart = problem.chart();
      return true;
    }
    Matrix j(m, m + 1);  // the columns of (u, lambda), the fixed one dropped below
    j << du, dlambda;
    Matrix free_columns(m, m);
    free_columns << j.leftCols(fixed), j.rightCols(m - fixed);
    const Vector step = free_columns.partialPivLu().solve(-residual);
    if (!step.allFinite()) return false;
    y.head(fixed) += step.head(fixed);
    y.tail(m - fixed) += step.tail(m - fixed);
  }
  return false;
}

namespace {

// A Neimark-Sacker curve that stopped past a 1:1 or 1:2 resonance (|kappa| > 1): its last
// row is put on the resonance, kappa = +-1, which is also its last special point.
void end_on_resonance(ZeroProblem& problem, const NeimarkSackerCurveProblem::Resonance& resonance,
                      double tolerance, ContinuationResult& result) {
  BranchPoint landed;
  if (!land_on_bound(problem, problem.dimension() - 1, result.points.back(), *result.beyond,
                     resonance.kappa, tolerance, landed)) {
    result.stop_reason += " (the last row is short of it: the landing failed)";
    return;
  }
  SpecialPoint& s = result.special_points.emplace_back();
  s.custom_name = resonance.test_name();
  s.after_point = static_cast<int>(result.points.size()) - 1;
  s.take_point(landed);
  result.points.push_back(std::move(landed));
}

}  // namespace

OrbitCurve trace_orbit_curve(HybridSystem& system, CurveKind kind, const std::string& first,
                             double first_value, int period, double phase, ConstVectorRef x,
                             const OrbitCurveOptions& options) {
  options.validate();
  if (x.size() != system.dimension()) throw InputError("curve start has the wrong dimension");
  Setup setup = make_problem(system, kind, first, first_value, options, period, phase, x);
  ZeroProblem& problem = *setup.problem;
  OrbitCurve curve;
  curve.kind = kind;
  curve.first = first;
  curve.second = options.second;
  curve.period = period;
  for (const TestFunction& t : problem.test_functions()) curve.test_names.push_back(t.name);
  const std::vector<std::string> names = problem.point_data_names();

  const int n = system.dimension();
  const Vector& u0 = setup.u0;
  if (!setup.start_failure.empty()) {
    curve.failure = setup.start_failure;
    curve.stop_reason = "the start cannot be evaluated: " + curve.failure;
    return curve;
  }
  if (setup.bordered && !setup.bordered->refit_borders(u0, first_value)) {
    curve.failure = setup.failure();
    curve.stop_reason = "the start cannot be evaluated: " + curve.failure;
    return curve;
  }
  // The first point corrected at fixed p1, where that converges within the range's width
  // of the start; else (a curve along p1 = const, where the correction at fixed p1 is
  // singular or runs off) by Newton steps of least norm. Its tangent turned towards `to`
  // in p2.
  ContinuationOptions engine = options.continuation();
  engine.parameter_name = first;  // the engine's lambda is p1
  ContinuationOptions start = engine;
  start.max_points = 1;
  const ContinuationResult first_run = PseudoArclength(problem, start).run(u0, first_value);
  const double span = std::abs(options.to - options.from);
  BranchPoint origin;
  if (!first_run.points.empty() && std::abs(first_run.points.front().u[n] - u0[n]) <= span) {
    origin = first_run.points.front();
  } else {
    origin.u = u0;
    origin.lambda = first_value;
    if (!correct_by_least_norm(problem, engine.parameter_weight, options.corrector_tolerance,
                               origin)) {
      curve.status = ContinuationStatus::StartFailed;
      curve.failure = setup.failure();
      curve.stop_reason =
          (first_run.points.empty() ? first_run.stop_reason
                                    : std::string("the start's correction runs off")) +
          (curve.failure.empty() ? "" : ": " + curve.failure);
      return curve;
    }
  }
  if (origin.tangent[n] * (options.to - options.from) < 0.0) origin.tangent = -origin.tangent;
  ContinuationResult result = PseudoArclength(problem, engine).run_from(origin);

  const double p2_low = std::min(options.from, options.to), p2_high = std::max(options.from, options.to);
  const bool left_range = result.status == ContinuationStatus::LeftFamily && result.beyond &&
                          !result.points.empty();
  const auto resonance = left_range && kind == CurveKind::NeimarkSacker
                             ? NeimarkSackerCurveProblem::resonance_beyond(result.beyond->u)
                             : std::nullopt;
  const double beyond_p2 = left_range ? result.beyond->u[n] : 0.0;
  if (resonance && beyond_p2 >= p2_low && beyond_p2 <= p2_high) {
    end_on_resonance(problem, *resonance, options.corrector_tolerance, result);
  } else if (left_range) {
    const double bound = beyond_p2 > p2_high ? p2_high : p2_low;
    BranchPoint landed;
    if (land_on_bound(problem, n, result.points.back(), *result.beyond, bound,
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
  for (const BranchPoint& p : result.points) fill(names, n, p, curve.rows.emplace_back());
  // A curve along which p1 stays constant to rounding has no turning points in p1: a
  // symmetry makes the special point independent of p2 (the cantilever beam at d = 0, whose
  // motions scale with the forcing amplitude e, doubles its period at one omega for every
  // e), the tangent's p1 component is rounding noise, and so are the sign changes that the
  // fold test sees.
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const CurveRow& row : curve.rows) {
    low = std::min(low, row.first);
    high = std::max(high, row.first);
  }
  const bool first_constant =
      curve.rows.size() >= 3 && high - low <= 1e-10 * std::max(1.0, std::abs(high));
  for (const SpecialPoint& s : result.special_points) {
    if (first_constant && s.type == SpecialPointType::Fold) continue;
    CurveRow located;
    BranchPoint as_point;
    as_point.u = s.u;
    as_point.lambda = s.lambda;
    as_point.chart = s.chart;
    as_point.tests = s.tests;
    as_point.data = s.data;
    fill(names, n, as_point, located);
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
    if (s.type == SpecialPointType::Grazing && setup.bordered)
      point.error_estimate = setup.bordered->grazing_error();
  }
  curve.status = result.status;
  curve.stop_reason = result.stop_reason;
  if (first_constant)
    curve.stop_reason += "; " + first + " stays at " + number_text(high) +
                         " to rounding along the curve: the point does not depend on " +
                         options.second;
  // Where a curve stalls or its steps fail, the orbit is usually near a grazing that the
  // curve does not watch (a soft contact's): say how near.
  if (curve.status == ContinuationStatus::StepTooSmall && !curve.rows.empty() &&
      std::isfinite(curve.rows.back().slowest_impact))
    curve.stop_reason += " (the orbit's slowest impact there has the speed " +
                         number_text(curve.rows.back().slowest_impact) + ")";
  // A map that failed on the way of a curve that ended normally (a prediction beyond the
  // parameter's valid range on a bound at its edge, r = 1) tells nothing of its end.
  if (!curve.ok()) curve.failure = setup.failure();
  return curve;
}

std::unique_ptr<GrazingCurveProblem> scaled_grazing_problem(HybridSystem& system,
                                                            const std::string& first, int period,
                                                            double phase,
                                                            const OrbitCurveOptions& options) {
  auto problem = std::make_unique<GrazingCurveProblem>(system, first, options.second, period,
                                                       options.flow, phase);
  const double scale = std::abs(options.to - options.from);
  problem->second_min = std::min(options.from, options.to);
  problem->second_max = std::max(options.from, options.to);
  problem->second_scale = scale;
  problem->first_scale = options.first_max - options.first_min;
  problem->time_unit = period * system.forcing_period() / scale;
  return problem;
}

int curve_period(HybridSystem& system, const std::string& parameter, int period,
                 const SpecialPoint& point, const FlowOptions& flow) {
  if (point.type != SpecialPointType::PeriodDoubling || point.detail != "merge") return period;
  system.set_parameter(parameter, point.lambda);
  StroboscopicMap map(system, flow, point.chart);
  return minimal_period(map, point.u, period);
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
  const int period = curve_period(system, branch.parameter, branch.period, point, options.flow);
  return trace_orbit_curve(system, kind, branch.parameter, point.lambda, period, point.chart,
                           point.u, options);
}

}  // namespace libcont
