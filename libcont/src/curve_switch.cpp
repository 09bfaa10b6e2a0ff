#include "libcont/curve_switch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "libcont/grazing_curve_problem.hpp"
#include "libcont/input_error.hpp"

namespace libcont {

namespace {

// The row the point was located after (its orbit's impact count before it).
const CurveRow* row_before(const OrbitCurve& curve, const CurvePoint& point) {
  if (curve.rows.empty()) return nullptr;
  const auto i = static_cast<size_t>(std::clamp<int>(point.after_row, 0,
                                                     static_cast<int>(curve.rows.size()) - 1));
  return &curve.rows[i];
}

std::string kinds_text(const std::vector<CurveKind>& kinds) {
  std::string text;
  for (const CurveKind k : kinds) text += (text.empty() ? "" : " or ") + to_string(k);
  return text;
}

// The smooth switches' start: the point's orbit, at the point's parameters.
OrbitCurve trace_from_point(HybridSystem& system, const OrbitCurve& curve,
                            const CurvePoint& point, CurveKind kind,
                            const OrbitCurveOptions& options) {
  system.set_parameter(curve.first, point.first);
  system.set_parameter(curve.second, point.second);
  return trace_orbit_curve(system, kind, curve.first, point.first, curve.period, point.phase,
                           point.x, options);
}

// Step 1 of a resonant-grazing start (curve_switch.hpp): the touching orbit at p1, the
// grazing problem's first row there (corrected at fixed p1 from the point's orbit).
std::optional<CurveRow> touching_orbit_at(HybridSystem& system, const OrbitCurve& curve,
                                          const CurvePoint& point, double first,
                                          const OrbitCurveOptions& options) {
  system.set_parameter(curve.first, first);
  system.set_parameter(curve.second, point.second);
  OrbitCurveOptions one = options;
  const double span = std::abs(options.to - options.from);
  one.from = point.second - span;
  one.to = point.second + span;
  one.max_points = 2;
  const OrbitCurve start = trace_orbit_curve(system, CurveKind::Grazing, curve.first, first,
                                             curve.period, point.phase, point.x, one);
  if (start.rows.empty()) return std::nullopt;
  return start.rows.front();
}

// The sign of the change of the touching orbit's gap with p2 at fixed p1 (the orbit kept
// periodic under the flow without events and the gap at its minimum): the side of p2 where
// the orbit without the impact exists. 0 where it cannot be told.
double gap_side(HybridSystem& system, const OrbitCurve& curve, const CurveRow& touching,
                const OrbitCurveOptions& options) {
  // As trace_orbit_curve scales and flies it (an impacting orbit keeps its other impacts),
  // so that the row's unknowns read alike.
  const auto problem =
      scaled_grazing_problem(system, curve.first, curve.period, touching.phase, options);
  double s = 0.0;
  if (!problem->find_tangency(touching.x, s)) return 0.0;
  const int n = system.dimension(), m = n + 2;
  Vector u(m), residual, dlambda;
  u << touching.x, touching.second, touching.auxiliary[0] / problem->time_unit;
  Matrix du;
  if (!problem->evaluate(u, touching.first, residual, du, dlambda)) return 0.0;
  // Unknowns (x, s) from the periodicity rows and h' = 0, for a unit change of p2.
  std::vector<int> rows, columns;
  for (int i = 0; i < n; ++i) rows.push_back(i), columns.push_back(i);
  rows.push_back(n + 1);
  columns.push_back(n + 1);
  Matrix a(n + 1, n + 1);
  Vector b(n + 1);
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) a(i, j) = du(rows[i], columns[j]);
    b[i] = -du(rows[i], n);
  }
  const Vector change = a.partialPivLu().solve(b);
  double gap = du(n, n);
  for (int j = 0; j <= n; ++j) gap += du(n, columns[j]) * change[j];
  return std::isfinite(gap) && gap != 0.0 ? (gap > 0.0 ? 1.0 : -1.0) : 0.0;
}

// Steps 2 and 3's input: at p1 = first, the branch in p2 from the orbit without the impact
// through the grazing; its first special point of `type` beyond the grazing, on an orbit
// with impacts.
struct ImpactingStart {
  SpecialPoint point;
  double first = 0.0;
  double from_grazing = 0.0;  // |p2 - the grazing's p2|
};

std::optional<ImpactingStart> impacting_start(HybridSystem& system, const OrbitCurve& curve,
                                              const CurvePoint& point, double first,
                                              SpecialPointType type,
                                              const OrbitCurveOptions& options,
                                              std::string& why) {
  const std::optional<CurveRow> touching = touching_orbit_at(system, curve, point, first, options);
  if (!touching || touching->auxiliary.size() != 1) {
    why = "the grazing curve cannot be corrected at " + curve.first + " = " + number_text(first);
    return std::nullopt;
  }
  const double side = gap_side(system, curve, *touching, options);
  if (side == 0.0) {
    why = "the side of the orbit without the impact cannot be told at " + curve.first + " = " +
          number_text(first);
    return std::nullopt;
  }
  // From the orbit without the impact, 2 % of p2's range off the grazing, to as far on the
  // other side.
  const double reach = 0.02 * std::abs(options.to - options.from);
  system.set_parameter(curve.first, first);
  OrbitBranchOptions across(curve.second, touching->second + side * reach,
                            touching->second - side * reach);
  across.flow = options.flow;
  across.grazing = options.grazing;
  across.max_points = 400;
  const OrbitBranch branch =
      trace_orbit_branch(system, curve.period, touching->phase, touching->x, across);
  bool crossed = false;
  for (const SpecialPoint& s : branch.special_points) {
    if (s.type == SpecialPointType::Grazing) crossed = true;
    if (crossed && s.type == type && branch.orbit(s).impacts > 0)
      return ImpactingStart{s, first, std::abs(s.lambda - touching->second)};
  }
  why = "the branch in " + curve.second + " at " + curve.first + " = " + number_text(first) +
        (crossed ? " has no " + to_string(type) + " beyond its grazing"
                 : " does not reach the grazing (" + branch.stop_reason + ")");
  return std::nullopt;
}

OrbitCurve resonant_grazing_switch(HybridSystem& system, const OrbitCurve& curve,
                                   const CurvePoint& point, CurveKind kind,
                                   const OrbitCurveOptions& options, double offset) {
  const SpecialPointType type =
      kind == CurveKind::Fold ? SpecialPointType::Fold : SpecialPointType::PeriodDoubling;
  const double step = offset * (options.first_max - options.first_min);
  std::optional<ImpactingStart> best;
  std::string why;
  for (const double side : {1.0, -1.0}) {
    const double first = point.first + side * step;
    if (first < options.first_min || first > options.first_max) continue;
    std::string reason;
    const auto found = impacting_start(system, curve, point, first, type, options, reason);
    if (!found) why += (why.empty() ? "" : "; ") + reason;
    else if (!best || found->from_grazing < best->from_grazing) best = found;
  }
  if (!best) {
    OrbitCurve failed;
    failed.kind = kind;
    failed.first = curve.first;
    failed.second = curve.second;
    failed.period = curve.period;
    failed.status = ContinuationStatus::StartFailed;
    failed.stop_reason = "no start beside the resonant grazing: " +
                         (why.empty() ? std::string("both sides leave the range of ") + curve.first
                                      : why);
    return failed;
  }
  // The start may lie just beyond the range asked (the curve leaves the point tangent to
  // the grazing curve): the range is widened to hold it.
  OrbitCurveOptions widened = options;
  const double p2 = best->point.lambda;
  if (widened.from <= widened.to) widened.from = std::min(widened.from, p2);
  else widened.from = std::max(widened.from, p2);
  system.set_parameter(curve.first, best->first);
  system.set_parameter(curve.second, p2);
  return trace_orbit_curve(system, kind, curve.first, best->first, curve.period,
                           best->point.chart, best->point.u, widened);
}

}  // namespace

std::vector<CurveKind> curve_switches(const OrbitCurve& curve, const CurvePoint& point) {
  const std::string& t = point.type;
  switch (curve.kind) {
    case CurveKind::Fold:
    case CurveKind::PeriodDoubling: {
      const CurveKind other =
          curve.kind == CurveKind::Fold ? CurveKind::PeriodDoubling : CurveKind::Fold;
      if (t == "fold-flip") return {other};
      if (t == "grazing") {
        const CurveRow* before = row_before(curve, point);
        if (before && before->impacts <= 1) return {CurveKind::Grazing};
      }
      return {};
    }
    case CurveKind::NeimarkSacker:
      if (t == "resonance-1:1") return {CurveKind::Fold};
      if (t == "resonance-1:2") return {CurveKind::PeriodDoubling};
      return {};
    case CurveKind::Grazing:
      if (t == "resonant-grazing-fold") return {CurveKind::Fold};
      if (t == "resonant-grazing-flip") return {CurveKind::PeriodDoubling};
      return {};
  }
  return {};
}

OrbitCurve switch_orbit_curve(HybridSystem& system, const OrbitCurve& curve,
                              const CurvePoint& point, CurveKind kind,
                              const OrbitCurveOptions& options, double resonant_offset) {
  options.validate();
  const std::vector<CurveKind> kinds = curve_switches(curve, point);
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw InputError("no " + to_string(kind) + " curve issues from a " + point.type +
                     " point of a " + to_string(curve.kind) + " curve" +
                     (kinds.empty() ? std::string(" (no switch there)")
                                    : " (only a " + kinds_text(kinds) + " curve)"));
  if (options.second != curve.second)
    throw InputError("the switched curve's second parameter is the curve's, '" + curve.second +
                     "', not '" + options.second + "'");
  if (point.second < std::min(options.from, options.to) ||
      point.second > std::max(options.from, options.to))
    throw InputError("the range of " + curve.second + " (" + number_text(options.from) + " to " +
                     number_text(options.to) + ") does not hold the point's " + curve.second +
                     " = " + number_text(point.second));
  if (point.first < options.first_min || point.first > options.first_max)
    throw InputError("the range of " + curve.first + " does not hold the point's " +
                     curve.first + " = " + number_text(point.first));
  if (!(resonant_offset > 0.0 && resonant_offset < 0.5))
    throw InputError("the resonant grazing's offset must lie in (0, 0.5), not " +
                     number_text(resonant_offset));
  if (curve.kind == CurveKind::Grazing)
    return resonant_grazing_switch(system, curve, point, kind, options, resonant_offset);
  return trace_from_point(system, curve, point, kind, options);
}

}  // namespace libcont
