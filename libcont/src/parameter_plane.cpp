#include "libcont/parameter_plane.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "libcont/input_error.hpp"

namespace libcont {

void ParameterPlaneOptions::validate() const {
  const auto bad = [](const std::string& field, const std::string& rule) {
    throw InputError("parameter plane option " + field + " " + rule);
  };
  if (first.empty()) bad("first", "is empty: name the first parameter");
  if (second.empty()) bad("second", "is empty: name the second parameter");
  if (first == second) bad("second", "'" + second + "' is the first parameter: name another one");
  const auto check_range = [&](const char* name, double low, double high) {
    if (!std::isfinite(low) || !std::isfinite(high) || !(low < high))
      bad(name, "range [" + number_text(low) + ", " + number_text(high) +
                    "] must be finite with its minimum below its maximum");
  };
  check_range("first", first_min, first_max);
  check_range("second", second_min, second_max);
  const std::pair<const char*, int> counts[] = {{"max_period", max_period},
                                                {"max_impacts", max_impacts},
                                                {"seed_lines", seed_lines},
                                                {"seeds_per_line", seeds_per_line}};
  for (const auto& [name, value] : counts)
    if (value < 1) bad(name, "must be at least 1, not " + std::to_string(value));
  if (transient_periods < 0) bad("transient_periods", "must not be negative");
  if (branch_max_points < 2) bad("branch_max_points", "must be at least 2");
  if (curve_max_points < 2) bad("curve_max_points", "must be at least 2");
  flow.validate();
}

namespace {

using Progress = ParameterPlaneProgress;

// Two amplitudes agree to 2 % of the larger (and to 1e-12 absolutely, for amplitudes near
// zero): a branch's rows are spaced so that interpolating between two of them is about that
// accurate near a resonance peak, while two distinct orbits of the same n and impact count
// at the same parameters differ by more.
bool close(double a, double b) {
  return std::abs(a - b) <= 2e-2 * std::max(std::abs(a), std::abs(b)) + 1e-12;
}

// Whether `branch` holds the orbit `probe` (a row at p1 = probe.lambda): two neighbouring
// rows bracket its p1, count its impacts, and their amplitude, interpolated, is its own.
bool holds(const OrbitBranch& branch, const OrbitBranch& probe_branch, const BranchPoint& probe) {
  const OrbitPointData p = probe_branch.orbit(probe);
  if (p.amplitudes.empty()) return false;
  for (size_t i = 0; i + 1 < branch.points.size(); ++i) {
    const BranchPoint &a = branch.points[i], &b = branch.points[i + 1];
    if (probe.lambda < std::min(a.lambda, b.lambda) || probe.lambda > std::max(a.lambda, b.lambda))
      continue;
    const OrbitPointData da = branch.orbit(a), db = branch.orbit(b);
    if (da.impacts != p.impacts || db.impacts != p.impacts) continue;
    const double w = a.lambda == b.lambda ? 0.0 : (probe.lambda - a.lambda) / (b.lambda - a.lambda);
    if (close(da.amplitudes[0] + w * (db.amplitudes[0] - da.amplitudes[0]), p.amplitudes[0]))
      return true;
  }
  return false;
}

// Whether a curve piece passes through (first, second): two neighbouring rows bracket p2
// and their p1, interpolated, lies within `tolerance` of it.
bool passes_through(const OrbitCurve& curve, double first, double second, double tolerance) {
  for (size_t i = 0; i + 1 < curve.rows.size(); ++i) {
    const CurveRow &a = curve.rows[i], &b = curve.rows[i + 1];
    if (second < std::min(a.second, b.second) || second > std::max(a.second, b.second)) continue;
    const double w = a.second == b.second ? 0.0 : (second - a.second) / (b.second - a.second);
    if (std::abs(a.first + w * (b.first - a.first) - first) <= tolerance) return true;
  }
  return curve.rows.size() == 1 && std::abs(curve.rows[0].first - first) <= tolerance &&
         curve.rows[0].second == second;
}

// The curve kind a special point of a branch starts, or none (with the reason) for one no
// curve of orbit_curve.hpp starts from.
std::optional<CurveKind> curve_kind(const SpecialPoint& s, std::string& why_not) {
  if (s.detail == "unlocated") {
    why_not = "located only to within a step of its branch (a map inside its bracket failed): "
              "no curve starts there";
    return std::nullopt;
  }
  switch (s.type) {
    case SpecialPointType::Fold: return CurveKind::Fold;
    case SpecialPointType::PeriodDoubling: return CurveKind::PeriodDoubling;
    case SpecialPointType::NeimarkSacker: return CurveKind::NeimarkSacker;
    case SpecialPointType::Grazing:
      // Every grazing of a hard impact has its curve of tangencies: of the orbit without
      // impacts, of an impacting orbit's gap minimum, of an impact slowing to zero among
      // others (grazing_curve_problem.hpp).
      if (s.grazing_kind) return CurveKind::Grazing;
      why_not = "a grazing of no known kind (not followed in two parameters)";
      return std::nullopt;
    default:
      why_not = "a " + s.type_name() + " point (no curve of its kind)";
      return std::nullopt;
  }
}

class PlaneMapper {
 public:
  PlaneMapper(HybridSystem& system, const ParameterPlaneOptions& options)
      : system_(system), o_(options) {
    map_.first = o_.first;
    map_.second = o_.second;
    progress_.lines = o_.seed_lines;
  }

  ParameterPlaneMap run() {
    for (int line = 0; line < o_.seed_lines && !map_.stopped; ++line) {
      const double second =
          o_.second_min + (line + 0.5) * (o_.second_max - o_.second_min) / o_.seed_lines;
      map_line(second);
      if (map_.stopped) break;
      progress_.lines_done = line + 1;
      report();
    }
    if (failed_searches_ > 0)
      map_.notes.push_back(std::to_string(failed_searches_) +
                           " orbit searches found no periodic orbit (the settled motion's n above " +
                           std::to_string(o_.max_period) + ", or shooting did not converge)");
    return std::move(map_);
  }

 private:
  void report() {
    progress_.branches = static_cast<int>(map_.branches.size());
    progress_.curves = static_cast<int>(map_.curves.size());
    if (o_.progress && !o_.progress(progress_)) map_.stopped = true;
  }

  std::vector<Vector> starts() const {
    if (!o_.initial_states.empty()) return o_.initial_states;
    return {system_.default_initial_state()};
  }

  void map_line(double second) {
    const size_t first_branch = map_.branches.size();
    for (int k = 0; k < o_.seeds_per_line && !map_.stopped; ++k) {
      const double seed =
          o_.first_min + (k + 0.5) * (o_.first_max - o_.first_min) / o_.seeds_per_line;
      for (const Vector& start : starts()) {
        if (map_.stopped) break;
        system_.set_parameter(o_.second, second);
        system_.set_parameter(o_.first, seed);
        OrbitSearchOptions search;
        search.transient_periods = o_.transient_periods;
        search.max_period = o_.max_period;
        search.initial_state = start;
        search.shooting.flow = o_.flow;
        ++map_.searches;
        const OrbitSearchResult found = find_periodic_orbit(system_, search);
        if (!found.found() || found.period > o_.max_period) {
          ++failed_searches_;
          continue;
        }
        ++map_.orbits_found;
        if (found.shooting.p > o_.max_impacts) {
          map_.notes.push_back("the orbit found at " + o_.first + " = " + number_text(seed) +
                               ", " + o_.second + " = " + number_text(second) + " has " +
                               std::to_string(found.shooting.p) + " impacts per " +
                               std::to_string(found.period) + " periods, more than max_impacts " +
                               std::to_string(o_.max_impacts) + " (chattering): not continued");
          continue;
        }
        trace_new_branch(found, second, seed, first_branch);
      }
    }
    for (size_t b = first_branch; b < map_.branches.size() && !map_.stopped; ++b)
      trace_curves(static_cast<int>(b));
  }

  // The flow of an orbit's maps: one that chatters (a mass riding on its stop reaches
  // thousands of impacts per period) fails fast instead of costing seconds per map, and the
  // branch or curve ends there with its reason.
  FlowOptions map_flow(int period) const {
    FlowOptions flow = o_.flow;
    flow.max_events = std::min(flow.max_events, 50L * o_.max_impacts * period);
    return flow;
  }

  OrbitBranchOptions branch_options(double from, double to, int period) const {
    OrbitBranchOptions b(o_.first, from, to);
    b.max_points = o_.branch_max_points;
    b.flow = map_flow(period);
    return b;
  }

  // Both pieces of the branch through `found`, unless a branch of the line already holds it.
  void trace_new_branch(const OrbitSearchResult& found, double second, double seed,
                        size_t line_begin) {
    OrbitBranchOptions probe_options = branch_options(seed, o_.first_max, found.period);
    probe_options.max_points = 2;
    const OrbitBranch probe = trace_orbit_branch(system_, found, probe_options);
    if (probe.points.empty()) {
      map_.notes.push_back("the orbit found at " + o_.first + " = " + number_text(seed) + ", " +
                           o_.second + " = " + number_text(second) +
                           " could not be continued: " + probe.stop_reason);
      return;
    }
    for (size_t b = line_begin; b < map_.branches.size(); ++b)
      if (map_.branches[b].branch.period == found.period &&
          holds(map_.branches[b].branch, probe, probe.points.front()))
        return;
    for (const double end : {o_.first_max, o_.first_min}) {
      system_.set_parameter(o_.second, second);
      system_.set_parameter(o_.first, seed);
      PlaneBranch piece;
      piece.second = second;
      piece.seed = seed;
      piece.branch = trace_orbit_branch(system_, found, branch_options(seed, end, found.period));
      if (!piece.branch.ok())
        map_.notes.push_back("branch of z = " + std::to_string(probe.orbit(probe.points.front()).impacts) +
                             "/" + std::to_string(found.period) + " from " +
                             o_.first + " = " + number_text(seed) + " at " + o_.second + " = " +
                             number_text(second) + ": " + piece.branch.stop_reason);
      map_.branches.push_back(std::move(piece));
      report();
      if (map_.stopped) return;
    }
  }

  // A codimension-two point beyond the box (a grazing extrapolated past a bound the curve
  // stopped at) is no point of the map: noted, not listed.
  void drop_points_outside(OrbitCurve& curve, const std::string& where) {
    const auto inside = [&](const CurvePoint& p) {
      return p.first >= o_.first_min && p.first <= o_.first_max && p.second >= o_.second_min &&
             p.second <= o_.second_max;
    };
    for (const CurvePoint& p : curve.points)
      if (!inside(p))
        map_.notes.push_back(to_string(curve.kind) + " curve from the " + where + ": its " +
                             p.type + " at " + o_.first + " = " + number_text(p.first) + ", " +
                             o_.second + " = " + number_text(p.second) +
                             " lies outside the box (not listed)");
    std::erase_if(curve.points, [&](const CurvePoint& p) { return !inside(p); });
  }

  bool traced_before(CurveKind kind, int period, double first, double second) const {
    const double tolerance = 1e-3 * (o_.first_max - o_.first_min);
    for (const PlaneCurve& c : map_.curves) {
      const bool same_kind = c.curve.kind == kind &&
                             (kind == CurveKind::Grazing || c.curve.period == period);
      if (same_kind && passes_through(c.curve, first, second, tolerance)) return true;
    }
    return false;
  }

  void trace_curves(int b) {
    const PlaneBranch& piece = map_.branches[static_cast<size_t>(b)];
    const OrbitBranch& branch = piece.branch;
    for (size_t i = 0; i < branch.special_points.size() && !map_.stopped; ++i) {
      const SpecialPoint& s = branch.special_points[i];
      std::string why_not;
      const std::optional<CurveKind> kind = curve_kind(s, why_not);
      const std::string where = s.type_name() + " at " + o_.first + " = " + number_text(s.lambda) +
                                ", " + o_.second + " = " + number_text(piece.second);
      if (!kind) {
        if (s.type == SpecialPointType::Grazing || s.detail == "unlocated")
          map_.notes.push_back(where + ": " + why_not);
        continue;
      }
      system_.set_parameter(o_.second, piece.second);
      const int period =
          curve_period(system_, branch.parameter, branch.period, s, map_flow(branch.period));
      if (traced_before(*kind, period, s.lambda, piece.second)) continue;
      for (const int direction : {+1, -1}) {
        const double to = direction > 0 ? o_.second_max : o_.second_min;
        OrbitCurveOptions c(o_.second, piece.second, to, o_.first_min, o_.first_max);
        c.max_points = o_.curve_max_points;
        c.flow = map_flow(period);
        system_.set_parameter(o_.second, piece.second);
        PlaneCurve curve;
        curve.branch = b;
        curve.special_point = static_cast<int>(i);
        curve.direction = direction;
        try {
          curve.curve = trace_orbit_curve(system_, branch, s, c);
        } catch (const InputError& e) {
          map_.notes.push_back(where + ": no curve starts there (" + e.what() + ")");
          break;
        }
        drop_points_outside(curve.curve, where);
        if (!curve.curve.ok())
          map_.notes.push_back(to_string(*kind) + " curve from the " + where + " towards " +
                               o_.second + " = " + number_text(to) + ": " +
                               curve.curve.stop_reason +
                               (curve.curve.failure.empty() ? "" : " (" + curve.curve.failure + ")"));
        map_.curves.push_back(std::move(curve));
        report();
        if (map_.stopped) return;
      }
    }
  }

  HybridSystem& system_;
  const ParameterPlaneOptions& o_;
  ParameterPlaneMap map_;
  Progress progress_;
  int failed_searches_ = 0;
};

}  // namespace

ParameterPlaneMap map_parameter_plane(HybridSystem& system, const ParameterPlaneOptions& options) {
  options.validate();
  for (const std::string& name : {options.first, options.second})
    if (!system.parameters().contains(name))
      throw InputError("the system '" + system.name() + "' has no parameter '" + name + "'");
  for (const Vector& state : options.initial_states)
    if (state.size() != system.dimension())
      throw InputError("an initial state of the parameter plane has " +
                       std::to_string(state.size()) + " components; the system's state has " +
                       std::to_string(system.dimension()));
  return PlaneMapper(system, options).run();
}

}  // namespace libcont
