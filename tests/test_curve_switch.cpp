// Switching at codimension-two points of two-parameter curves (curve_switch.hpp). On the
// moving-base oscillator (r = 1, d = -0.005 and the defaults otherwise), whose closed form
// knows the answer:
//  - the grazing curve of the orbit without impacts, traced from a branch's grazing, has
//    its resonant grazing points at eta* = 2 w_d / j (doc/theory.md 6.4); from eta* = w_d the
//    fold and period-doubling curves of the z = 1/1 impacting orbit, switched onto there,
//    lie on the closed form row by row;
//  - the grazing curve switched onto at the grazing end of the period-doubling curve
//    (the same resonant grazing, reached from the impacting side) is the grazing curve
//    from the branch's grazing.
// On the two-body system with Hertz contact: the fold curve switched onto at the 1:1
// resonance of its Neimark-Sacker curve against the loading branch's fold. On the
// two-degree-of-freedom cantilever (e = 0.1, r = 0.8): the period-doubling curve switched
// onto at a fold-flip of its fold curve against a one-parameter branch.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "closed_form_curves.hpp"
#include "libcont/curve_switch.hpp"
#include "libcont/input_error.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/shooting.hpp"
#include "systems/cantilever.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using test_support::cpu_seconds;
using test_support::grazing_clearance;
using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;
using test_support::library_system;
using test_support::resonant_eta;
using test_support::resonant_grazing_parameters;

namespace {

// The grazing curve of the orbit without impacts from the grazing of its branch in eta at
// d = -0.005 (eta = 0.8335639, the orbit's gap closing), towards d = -0.0115: down past
// eta* = w_d (d* = -0.0110646) to the curve's lowest d near eta = 1.015, and up again to
// the end of eta's range, 1.2. In arclength steps of `step` (default: the library's).
libcont::OrbitCurve grazing_curve_from_branch(systems::MovingBaseOscillator& system,
                                              std::optional<double> step = std::nullopt) {
  const ImpactOscillatorParameters p = resonant_grazing_parameters().with("omega", 0.75);
  system.set_parameter("omega", p.eta);
  const ImpactOscillatorClosedForm cf(p);
  const double phase = ImpactOscillatorClosedForm::wrap(
      cf.nonimpacting_time_of_min_gap() + 0.5 * cf.period(), cf.period());
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 1, phase, cf.nonimpacting_state(phase),
      libcont::OrbitBranchOptions("omega", 0.75, 0.9));
  INFO(branch.stop_reason);
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* grazing = nullptr;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::Grazing && !grazing) grazing = &s;
  REQUIRE(grazing != nullptr);
  CHECK(grazing->grazing_kind == libcont::GrazingKind::NonImpactingGap);
  CHECK(std::abs(grazing->lambda - 0.8335639335) <= 1e-8);
  libcont::OrbitCurveOptions options("d", -0.005, -0.0115, 0.8, 1.2);
  options.initial_step = options.max_step = step;
  options.max_points = 2000;
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(system, branch, *grazing, options);
  INFO(curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  return curve;
}

// The curve's points of a type.
std::vector<const libcont::CurvePoint*> points_of(const libcont::OrbitCurve& curve,
                                                  const std::string& type) {
  std::vector<const libcont::CurvePoint*> found;
  for (const auto& p : curve.points)
    if (p.type == type) found.push_back(&p);
  return found;
}

// The one point of a type on the curve.
const libcont::CurvePoint& only_point(const libcont::OrbitCurve& curve, const std::string& type) {
  const auto found = points_of(curve, type);
  INFO("points of type " << type << ": " << found.size());
  REQUIRE(found.size() == 1);
  return *found.front();
}

// `found` lies within `first` and `second` of `reference` in the curve's two parameters.
void check_at(const libcont::CurvePoint& found, const libcont::CurvePoint& reference,
              double first, double second) {
  INFO(std::setprecision(17) << found.type << " at " << found.first << ", " << found.second
                             << "; " << reference.type << " at " << reference.first << ", "
                             << reference.second);
  CHECK(std::abs(found.first - reference.first) <= first);
  CHECK(std::abs(found.second - reference.second) <= second);
}

}  // namespace

TEST_CASE("fold and period-doubling curves switched onto at a resonant grazing lie on the "
          "closed form",
          "[curves][switch]") {
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  auto system = library_system(p);
  double begin = cpu_seconds();
  const libcont::OrbitCurve grazing = grazing_curve_from_branch(system);
  const double grazing_seconds = cpu_seconds() - begin;
  const double eta_star = resonant_eta(p), d_star = grazing_clearance(p, eta_star);
  std::ostringstream line;
  line << std::setprecision(12) << "grazing curve from the branch's grazing: "
       << grazing.rows.size() << " rows (" << std::setprecision(3) << grazing_seconds
       << " CPU s); resonant grazing eta* = " << std::setprecision(12) << eta_star
       << ", d* = " << d_star;
  struct Case {
    const char* type;
    libcont::CurveKind kind;
    double to;     // p2's end: away from the point along the curve
    bool fold;
  };
  for (const Case& c : {Case{"resonant-grazing-fold", libcont::CurveKind::Fold, -0.0115, true},
                        Case{"resonant-grazing-flip", libcont::CurveKind::PeriodDoubling, -0.005,
                             false}}) {
    INFO(c.type);
    // The resonance at eta* = w_d is the one on this stretch (2 w_d is beyond eta's range).
    const libcont::CurvePoint& point = only_point(grazing, c.type);
    CHECK(std::abs(point.first - eta_star) <= 1e-8);
    CHECK(std::abs(point.second - d_star) <= 1e-10);
    libcont::OrbitCurveOptions options("d", std::min(point.second, c.to),
                                       std::max(point.second, c.to), 0.8, 1.2);
    if (c.to < point.second) std::swap(options.from, options.to);
    begin = cpu_seconds();
    const libcont::OrbitCurve curve =
        libcont::switch_orbit_curve(system, grazing, point, c.kind, options);
    const double seconds = cpu_seconds() - begin;
    INFO(curve.stop_reason << " " << curve.failure);
    REQUIRE(curve.ok());
    REQUIRE(curve.rows.size() >= 5);
    const libcont::CurveRow& first = curve.rows.front();
    // The start: a little into the impacting side, offset 1e-3 of eta's range (0.4) in eta.
    CHECK(std::abs(std::abs(first.first - point.first) - 4e-4) <= 1e-12);
    CHECK(first.impacts == 1);
    CHECK(std::abs(first.second - grazing_clearance(p, first.first)) <= 1e-4);
    const double worst = test_support::check_rows_against_closed_form(curve, p, "d", 1, c.fold);
    line << "\n" << c.type << " at eta = " << std::setprecision(14) << point.first << ", d = "
         << point.second << std::setprecision(3) << " (closed form: " << point.first - eta_star
         << ", " << point.second - d_star << "): " << to_string(c.kind) << " curve of "
         << curve.rows.size() << " rows to " << curve.stop_reason << ", starts "
         << first.first - point.first << " in eta, " << first.second - point.second
         << " in d from the point, " << first.second - grazing_clearance(p, first.first)
         << " in d from the grazing curve, impact speed " << first.slowest_impact
         << "; max |eta - closed form| = " << worst << ", " << seconds << " CPU s";
  }
  WARN(line.str());
}

TEST_CASE("the grazing curve switched onto at a period-doubling curve's grazing end is the "
          "grazing curve from the branch's grazing",
          "[curves][switch]") {
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  auto system = library_system(p);
  const test_support::PeriodDoublingToGrazing flip =
      test_support::period_doubling_to_grazing(system);
  const libcont::CurvePoint& end = flip.curve.points.back();
  REQUIRE(end.type == "grazing");
  const std::vector<libcont::CurveKind> kinds = libcont::curve_switches(flip.curve, end);
  REQUIRE(kinds == std::vector<libcont::CurveKind>{libcont::CurveKind::Grazing});
  // Towards d = -0.005 the grazing curve runs down in eta to the branch's grazing.
  double begin = cpu_seconds();
  const libcont::OrbitCurve switched = libcont::switch_orbit_curve(
      system, flip.curve, end, libcont::CurveKind::Grazing,
      libcont::OrbitCurveOptions("d", -0.0115, -0.005, 0.8, 1.2));
  const double seconds = cpu_seconds() - begin;
  INFO(switched.stop_reason << " " << switched.failure);
  REQUIRE(switched.ok());
  CHECK(switched.status == libcont::ContinuationStatus::ReachedBound);
  REQUIRE(switched.rows.size() >= 5);
  // Its first row is the grazing end itself, corrected at the end's eta.
  const double start_distance = std::abs(switched.rows.front().second - end.second);
  CHECK(start_distance <= 1e-10);

  // The reference in steps of 1/200 of its range of d (rows about 1e-3 apart in eta), so
  // that its polynomial through six rows is exact far below the differences measured.
  auto other_system = library_system(p);
  const libcont::OrbitCurve reference = grazing_curve_from_branch(other_system, 0.0065 / 200);
  std::vector<double> d, eta;
  for (const auto& row : reference.rows)
    if (row.first <= 1.0) {  // the stretch down to the lowest d, on which d is monotonic
      d.push_back(row.second);
      eta.push_back(row.first);
    }
  double worst = 0.0, worst_closed_form = 0.0;
  size_t compared = 0;
  for (const auto& row : switched.rows) {
    worst_closed_form =
        std::max(worst_closed_form, std::abs(row.second - grazing_clearance(p, row.first)));
    // Rows within the reference's span of d (its first row, at d = -0.005, is corrected
    // at the branch's grazing: d there is -0.005 only to the corrector's tolerance).
    const double other = test_support::interpolate_nearest(d, eta, row.second, 6);
    if (!std::isfinite(other)) continue;
    INFO("row at eta = " << std::setprecision(14) << row.first << ", d = " << row.second);
    CHECK(std::abs(row.first - other) <= 1e-8);
    worst = std::max(worst, std::abs(row.first - other));
    ++compared;
  }
  CHECK(compared + 1 >= switched.rows.size());
  CHECK(worst_closed_form <= 1e-10);
  // Its last row, on d = -0.005, at the branch's grazing.
  const libcont::CurveRow& last = switched.rows.back();
  CHECK(std::abs(last.first - reference.rows.front().first) <= 1e-8);
  std::ostringstream line;
  line << std::setprecision(3) << "grazing curve switched onto at the period-doubling curve's "
       << "end: " << switched.rows.size() << " rows, first " << start_distance
       << " from the end in d, last at eta = " << std::setprecision(12) << last.first
       << " (the branch's grazing " << reference.rows.front().first << ")"
       << std::setprecision(3) << "; against the curve from the branch's grazing ("
       << reference.rows.size() << " rows, six rows' polynomial in d) at " << compared
       << " rows: max |eta difference| = " << worst << ", against d_g "
       << worst_closed_form << ", " << seconds << " CPU s";
  WARN(line.str());
}

TEST_CASE("switches that do not exist are refused", "[curves][switch]") {
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  auto system = library_system(p);
  const test_support::PeriodDoublingToGrazing flip =
      test_support::period_doubling_to_grazing(system);
  const libcont::CurvePoint& end = flip.curve.points.back();
  const libcont::OrbitCurveOptions options("d", -0.0115, -0.005, 0.8, 1.2);
  CHECK_THROWS_WITH(libcont::switch_orbit_curve(system, flip.curve, end,
                                                libcont::CurveKind::Fold, options),
                    Catch::Contains("no fold curve issues from a grazing point of a "
                                    "period-doubling curve"));
  libcont::OrbitCurveOptions other = options;
  other.second = "r";
  CHECK_THROWS_WITH(libcont::switch_orbit_curve(system, flip.curve, end,
                                                libcont::CurveKind::Grazing, other),
                    Catch::Contains("second parameter"));
  // A grazing end of a curve whose orbit has two impacts: no grazing curve offered.
  libcont::OrbitCurve two = flip.curve;
  two.rows[static_cast<size_t>(end.after_row)].impacts = 2;
  CHECK(libcont::curve_switches(two, end).empty());
}

TEST_CASE("the fold curve switched onto at the two-body Neimark-Sacker curve's 1:1 resonance, "
          "and the fold curve from the branch's fold meeting it there",
          "[curves][switch]") {
  // The Neimark-Sacker curve from the loading branch's point (lambda = 0.56615, omega = 6)
  // towards lower omega reaches kappa = 1 at omega = 5.98028 (test_neimark_sacker_curves);
  // the fold curve switched onto there, towards omega = 6, must end on the loading branch's
  // other fold at omega = 6, lambda = 0.5647304 (the one below its Neimark-Sacker point).
  systems::TwoBodySystem system;
  system.set_parameter("lambda", 0.575);
  const libcont::Vector settled =
      test_support::settle(system, 0.0, system.default_initial_state(), 200).x;
  const auto orbit = libcont::Shooting(system, 1).solve(settled);
  REQUIRE(orbit.converged);
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 1, 0.0, orbit.x, libcont::OrbitBranchOptions("lambda", 0.575, 0.562));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* ns = nullptr;
  const libcont::SpecialPoint* fold = nullptr;
  for (const auto& s : branch.special_points) {
    if (s.type == libcont::SpecialPointType::NeimarkSacker && s.lambda > 0.5655 &&
        s.lambda < 0.5667)
      ns = &s;
    if (s.type == libcont::SpecialPointType::Fold && std::abs(s.lambda - 0.5647304) < 1e-5)
      fold = &s;
  }
  REQUIRE(ns != nullptr);
  REQUIRE(fold != nullptr);
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, branch, *ns, libcont::OrbitCurveOptions("omega", 6.0, 5.978, 0.55, 0.58));
  INFO(curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  const libcont::CurvePoint& r = only_point(curve, "resonance-1:1");
  system.set_parameter("omega", 6.0);
  const double begin = cpu_seconds();
  const libcont::OrbitCurve switched = libcont::switch_orbit_curve(
      system, curve, r, libcont::CurveKind::Fold,
      libcont::OrbitCurveOptions("omega", 5.978, 6.0, 0.55, 0.58));
  const double seconds = cpu_seconds() - begin;
  INFO(switched.stop_reason << " " << switched.failure);
  REQUIRE(switched.ok());
  CHECK(switched.status == libcont::ContinuationStatus::ReachedBound);
  REQUIRE(switched.rows.size() >= 3);
  const libcont::CurveRow& first = switched.rows.front();
  const libcont::CurveRow& last = switched.rows.back();
  // The first row: the resonance corrected at its lambda, omega free.
  const double start_distance = std::abs(first.second - r.second);
  CHECK(start_distance <= 1e-8);
  CHECK(std::abs(last.second - 6.0) <= 1e-12);
  const double difference = last.first - fold->lambda;
  std::ostringstream line;
  line << std::setprecision(10) << "1:1 resonance at lambda = " << r.first << ", omega = "
       << r.second << ": fold curve of " << switched.rows.size() << " rows, first "
       << std::setprecision(3) << start_distance << " from it in omega, last at omega = 6, lambda = "
       << std::setprecision(10) << last.first << std::setprecision(3)
       << "; the loading branch's fold there " << difference << " from it; " << seconds
       << " CPU s";
  WARN(line.str());
  CHECK(std::abs(difference) <= 1e-8);

  // The fold curve traced from that fold towards lower omega passes the same point, where
  // a second multiplier reaches +1: the null vectors of M - I turn orthogonal there. The
  // fold's quadratic coefficient normalised by w^T v = 1 has a pole there and changes sign
  // without vanishing, which was once reported as a cusp; the curve must report the 1:1
  // resonance, where the Neimark-Sacker curve put it, and no cusp.
  const libcont::OrbitCurve from_fold = libcont::trace_orbit_curve(
      system, branch, *fold, libcont::OrbitCurveOptions("omega", 6.0, 5.978, 0.55, 0.58));
  INFO(from_fold.stop_reason << " " << from_fold.failure);
  REQUIRE(from_fold.ok());
  CHECK(points_of(from_fold, "cusp").empty());
  check_at(only_point(from_fold, "resonance-1:1"), r, 1e-8, 1e-8);
}

TEST_CASE("the period-doubling curves switched onto at the cantilever's fold-flip and 1:2 "
          "resonance",
          "[curves][switch]") {
  // The branch of vicont continue --system cantilever-2dof --set e=0.1 --set r=0.8 --param
  // eta --from 0.3 --to 3 has its fold LP1 at eta = 0.43556875 on an orbit of 15 impacts
  // per period. Its fold curve in (eta, r) towards r = 1 (vicont curve --restart run:LP1
  // --param2 r --from 0.8 --to 1) passes two 1:1 resonances and a turning point and meets
  // a fold-flip at (0.4338674, 0.8044657), where the second multiplier reaches -1, then a
  // cusp, before it ends at a grazing; its row before the fold-flip (state below, from curve.json) starts
  // the fold curve here, whose next row lies beyond it. The period-doubling curve switched
  // onto there: every row holds a multiplier at -1, and a branch in eta at a row's r has
  // its period doubling at the row's eta.
  systems::CantileverBeam system;
  system.set_parameter("e", 0.1);
  const double eta = 0.43381128719057493, phase = 5.4555386408848285;
  system.set_parameter("omega", eta);
  system.set_parameter("r", 0.803893936346931);
  libcont::Vector x(4);
  x << 0.021446558230597327, 0.00337196031078991, -0.009836907526191326,
      -0.0017498247698768735;
  double begin = cpu_seconds();
  // In the steps of that run (|to - from| / 100 first), three rows.
  libcont::OrbitCurveOptions fold_options("r", 0.8, 1.0, 0.3, 3.0);
  fold_options.max_points = 3;
  const libcont::OrbitCurve fold = libcont::trace_orbit_curve(
      system, libcont::CurveKind::Fold, "omega", eta, 1, phase, x, fold_options);
  const double fold_seconds = cpu_seconds() - begin;
  INFO(fold.stop_reason << " " << fold.failure);
  REQUIRE(fold.ok());
  const libcont::CurvePoint& point = only_point(fold, "fold-flip");
  const auto nearest = [](const std::vector<std::complex<double>>& multipliers, double target) {
    double best = INFINITY;
    for (const auto& mu : multipliers) best = std::min(best, std::abs(mu - target));
    return best;
  };
  CHECK(nearest(point.multipliers, 1.0) <= 1e-6);
  CHECK(nearest(point.multipliers, -1.0) <= 1e-6);
  {
    // The same curve to r = 0.805: from this state it is walked towards a grazing (its
    // distance 0.1) on a moved section, to the bound, and the fold-flip lies between the
    // last step and the walk's first orbit. It must be located there as well (it used to be
    // missed: the walk located only the grazing).
    libcont::OrbitCurveOptions short_options("r", 0.8, 0.805, 0.3, 3.0);
    system.set_parameter("r", 0.803893936346931);
    const libcont::OrbitCurve walked = libcont::trace_orbit_curve(
        system, libcont::CurveKind::Fold, "omega", eta, 1, phase, x, short_options);
    INFO(walked.stop_reason << " " << walked.failure);
    REQUIRE(walked.ok());
    check_at(only_point(walked, "fold-flip"), point, 1e-9, 1e-8);
    system.set_parameter("r", 0.803893936346931);
  }

  begin = cpu_seconds();
  const libcont::OrbitCurve flip = libcont::switch_orbit_curve(
      system, fold, point, libcont::CurveKind::PeriodDoubling,
      libcont::OrbitCurveOptions("r", 0.8, 0.805, 0.3, 3.0));
  const double flip_seconds = cpu_seconds() - begin;
  INFO(flip.stop_reason << " " << flip.failure);
  REQUIRE(flip.ok());
  REQUIRE(flip.rows.size() >= 4);
  // It starts at the point itself (corrected at its eta, r free).
  const double start_distance = std::abs(flip.rows.front().second - point.second);
  CHECK(start_distance <= 1e-9);
  CHECK(nearest(flip.rows.front().multipliers, 1.0) <= 1e-6);
  double worst = 0.0;
  for (const auto& row : flip.rows) worst = std::max(worst, nearest(row.multipliers, -1.0));
  CHECK(worst <= 1e-7);

  // A row away from the point, checked by a branch in eta at its r (PeriodicOrbitProblem's
  // own period-doubling test, other unknowns).
  const libcont::CurveRow& row = flip.rows[3];
  system.set_parameter("r", row.second);
  system.set_parameter("omega", row.first - 2e-5);
  begin = cpu_seconds();
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 1, row.phase, row.x,
      libcont::OrbitBranchOptions("omega", row.first - 2e-5, row.first + 2e-5));
  const double branch_seconds = cpu_seconds() - begin;
  INFO(branch.stop_reason);
  REQUIRE(branch.ok());
  double difference = INFINITY;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::PeriodDoubling &&
        std::abs(s.lambda - row.first) < std::abs(difference))
      difference = s.lambda - row.first;
  std::ostringstream line;
  line << std::setprecision(10) << "fold-flip of the cantilever's fold curve at eta = "
       << point.first << ", r = " << point.second << std::setprecision(3)
       << ": period-doubling curve of " << flip.rows.size() << " rows, first "
       << start_distance << " from it in r, max |mu + 1| " << worst
       << "; the branch at row 3 (r = " << std::setprecision(10) << row.second
       << std::setprecision(3) << ") has its period doubling " << difference
       << " from the row's eta; CPU s: fold curve " << fold_seconds << ", switch "
       << flip_seconds << ", branch " << branch_seconds;
  WARN(line.str());
  CHECK(std::abs(difference) <= 1e-8);

  // The same run's Neimark-Sacker point NS1 (eta = 0.43811), continued in (eta, r) towards
  // r = 1, turns back in r and reaches kappa = -1, a 1:2 resonance, at (0.4361859,
  // 0.8036681) after 250 rows (11 s); its row 250 (state below, kappa = -0.9984), the
  // last before the resonance, starts the curve here, towards lower r. The period-doubling curve switched onto at the resonance,
  // towards r = 1, must pass the fold-flip above: where the period-doubling and the fold
  // curve meet.
  const double ns_eta = 0.43618562558479973;
  system.set_parameter("omega", ns_eta);
  system.set_parameter("r", 0.8036689642658218);
  x << 0.021631810738504665, 0.0032847063115263296, -0.010216419870561327,
      0.00045252154875884837;
  begin = cpu_seconds();
  // Steps of the run over r in [0.8, 1] (kappa moves by 0.01 a row).
  libcont::OrbitCurveOptions ns_options("r", 1.0, 0.8, 0.3, 3.0);
  ns_options.max_points = 4;
  const libcont::OrbitCurve ns = libcont::trace_orbit_curve(
      system, libcont::CurveKind::NeimarkSacker, "omega", ns_eta, 1, phase, x, ns_options);
  INFO(ns.stop_reason << " " << ns.failure);
  REQUIRE(ns.ok());
  const libcont::CurvePoint& resonance = only_point(ns, "resonance-1:2");
  CHECK(nearest(resonance.multipliers, -1.0) <= 1e-4);  // a double -1 (a Jordan block)
  libcont::OrbitCurveOptions flip_options("r", 0.8, 1.0, 0.3, 3.0);
  flip_options.max_points = 19;  // just beyond the fold-flip (then on to a grazing)
  const libcont::OrbitCurve from_resonance = libcont::switch_orbit_curve(
      system, ns, resonance, libcont::CurveKind::PeriodDoubling, flip_options);
  const double resonance_seconds = cpu_seconds() - begin;
  INFO(from_resonance.stop_reason << " " << from_resonance.failure);
  REQUIRE(from_resonance.ok());
  const libcont::CurvePoint& met = only_point(from_resonance, "fold-flip");
  const double meeting_first = met.first - point.first;
  const double meeting_second = met.second - point.second;
  std::ostringstream resonance_line;
  resonance_line << std::setprecision(10) << "1:2 resonance of the cantilever's Neimark-Sacker "
                 << "curve at eta = " << resonance.first << ", r = " << resonance.second
                 << std::setprecision(3) << ": period-doubling curve of "
                 << from_resonance.rows.size() << " rows, first "
                 << std::abs(from_resonance.rows.front().second - resonance.second)
                 << " from it in r; its fold-flip " << meeting_first << " in eta, "
                 << meeting_second << " in r from the fold curve's; CPU s " << resonance_seconds;
  WARN(resonance_line.str());
  CHECK(std::abs(meeting_first) <= 1e-8);
  CHECK(std::abs(meeting_second) <= 1e-8);

  // The period-doubling curve from the branch's PD1 (eta = 0.43803) towards r = 1 passes
  // the same point, where a second multiplier reaches -1 (its null vectors turn orthogonal):
  // PD1 (state below, from special_points.csv) starts the curve here, which must locate the
  // 1:2 resonance where the Neimark-Sacker curve put it, then the fold curve's fold-flip,
  // and end at a grazing with no other point: after the fold-flip it once had a spurious
  // 1:2 resonance, where the overlap of the null vectors jumped inside a step (its
  // bracket could not be narrowed) with no second multiplier near -1 (57 rows, about 3 s).
  const double pd_eta = 0.43802961484425335;
  system.set_parameter("omega", pd_eta);
  system.set_parameter("r", 0.8);
  x << 0.021754769636867427, 0.0032741781819773256, -0.01043903160639487, -0.001349969119548803;
  const libcont::OrbitCurveOptions pd_options("r", 0.8, 1.0, 0.3, 3.0);
  const libcont::OrbitCurve pd = libcont::trace_orbit_curve(
      system, libcont::CurveKind::PeriodDoubling, "omega", pd_eta, 1, phase, x, pd_options);
  INFO(pd.stop_reason << " " << pd.failure);
  REQUIRE(pd.ok());
  check_at(only_point(pd, "resonance-1:2"), resonance, 1e-8, 1e-8);
  check_at(only_point(pd, "fold-flip"), point, 1e-8, 1e-8);
  CHECK(pd.points.size() == 3);  // the resonance, the fold-flip, the grazing
  CHECK(pd.points.back().type == "grazing");
}
