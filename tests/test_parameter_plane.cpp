// Parameter-plane maps (parameter_plane.hpp) of the moving-base impact oscillator against
// its closed form (impact_oscillator_closed_form.hpp, after Shaw & Holmes, "A periodic
// impact oscillator", 1983): every row of every z = 1/1 fold and period-doubling curve of
// the map lies on the closed form's fold or period doubling, every row of a grazing curve on
// the closed form's grazing of the non-impacting orbit, and the closed form's admissible
// special points of z = 1/1 along lines of the box that the map did not seed from all lie on
// a curve of the map: the map is exact where it has curves and misses none of these.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "closed_form_curves.hpp"
#include "impact_oscillator_closed_form.hpp"
#include "libcont/input_error.hpp"
#include "libcont/parameter_plane.hpp"
#include "systems/moving_base.hpp"

using test_support::ImpactOscillatorParameters;

namespace {

// The distance from (first, second) to the polygon through `curve`'s rows, each parameter
// measured in units of the box's side (`scale`).
double distance_to(const libcont::OrbitCurve& curve, double first, double second,
                   const libcont::Vector& scale) {
  double nearest = INFINITY;
  const libcont::Vector point = libcont::Vector{{first, second}}.cwiseQuotient(scale);
  for (size_t i = 0; i + 1 < curve.rows.size(); ++i) {
    const libcont::Vector a =
        libcont::Vector{{curve.rows[i].first, curve.rows[i].second}}.cwiseQuotient(scale);
    const libcont::Vector b =
        libcont::Vector{{curve.rows[i + 1].first, curve.rows[i + 1].second}}.cwiseQuotient(scale);
    const libcont::Vector along = b - a;
    const double w = along.squaredNorm() == 0.0
                         ? 0.0
                         : std::clamp((point - a).dot(along) / along.squaredNorm(), 0.0, 1.0);
    nearest = std::min(nearest, (a + w * along - point).norm());
  }
  return nearest;
}

libcont::ParameterPlaneOptions box() {
  libcont::ParameterPlaneOptions o;
  o.first = "omega";
  o.first_min = 1.5;
  o.first_max = 3.0;
  o.second = "d";
  o.second_min = -0.004;
  o.second_max = 0.0;
  o.max_period = 1;
  return o;
}

}  // namespace

TEST_CASE("a parameter-plane map of the moving-base oscillator against the closed form",
          "[plane]") {
  ImpactOscillatorParameters p;  // m = k = 1, c = 0.23, a = 0.0025, r = 1
  auto system = test_support::library_system(p);
  const libcont::ParameterPlaneOptions o = box();
  const double begin = test_support::cpu_seconds();
  const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(system, o);
  const double seconds = test_support::cpu_seconds() - begin;
  REQUIRE_FALSE(map.stopped);
  REQUIRE(map.orbits_found > 0);

  int fold_rows = 0, flip_rows = 0, grazing_rows = 0;
  double worst = 0.0, worst_gap = 0.0;
  for (const libcont::PlaneCurve& piece : map.curves) {
    const libcont::OrbitCurve& curve = piece.curve;
    if (curve.kind == libcont::CurveKind::Grazing) {
      // The gap is linear in d with slope one: the closed form's smallest gap of the
      // non-impacting orbit at a row is the row's distance in d from the grazing curve
      // (along eta the curve is flat, |dd/deta| ~ 1e-3, and a distance in eta says little).
      // The tangency condition is solved to the curve's corrector tolerance, 1e-10.
      for (const libcont::CurveRow& row : curve.rows) {
        const double gap = test_support::ImpactOscillatorClosedForm(
                               p.with("d", row.second).with("omega", row.first))
                               .nonimpacting_min_gap();
        INFO("grazing curve row at eta = " << std::setprecision(14) << row.first
                                           << ", d = " << row.second << ": closed-form gap " << gap);
        CHECK(std::abs(gap) <= 1e-10);
        worst_gap = std::max(worst_gap, std::abs(gap));
      }
      grazing_rows += static_cast<int>(curve.rows.size());
    } else if (curve.period == 1) {
      const bool fold = curve.kind == libcont::CurveKind::Fold;
      INFO(to_string(curve.kind) << " curve of the map");
      worst = std::max(worst, test_support::check_rows_against_closed_form(curve, p, "d", 1, fold));
      (fold ? fold_rows : flip_rows) += static_cast<int>(curve.rows.size());
    }
  }
  CHECK(flip_rows > 0);
  CHECK(grazing_rows > 0);

  // Completeness: on lines the map did not seed from, the closed form's admissible period
  // doublings and non-impacting grazings of z = 1/1 in the box each lie on a map curve of
  // their kind: within 1e-4 of the box's side of the polygon through its rows (the chords
  // between rows are that close to the curve; distinct curves are farther apart).
  const libcont::Vector scale{{o.first_max - o.first_min, o.second_max - o.second_min}};
  double farthest = 0.0;
  int checked = 0;
  for (const double d : {-0.0035, -0.0015, -0.0005}) {
    for (const auto& s :
         test_support::special_points(p.with("d", d), "omega", o.first_min, o.first_max, 1, 400)) {
      libcont::CurveKind kind;
      if (s.type == "period-doubling" && s.admissible)
        kind = libcont::CurveKind::PeriodDoubling;
      else if (s.type == "grazing")
        kind = libcont::CurveKind::Grazing;
      else
        continue;
      double nearest = INFINITY;
      for (const libcont::PlaneCurve& piece : map.curves)
        if (piece.curve.kind == kind)
          nearest = std::min(nearest, distance_to(piece.curve, s.value, d, scale));
      INFO("closed form " << s.type << " at eta = " << std::setprecision(12) << s.value
                          << ", d = " << d);
      CHECK(nearest <= 1e-4);
      farthest = std::max(farthest, nearest);
      ++checked;
    }
  }
  CHECK(checked >= 3);
  std::ostringstream line;
  line << std::setprecision(3) << "map of (eta, d) in [1.5, 3] x [-0.004, 0], n <= 1: "
       << map.branches.size() << " branches, " << map.curves.size() << " curve pieces ("
       << fold_rows << " fold, " << flip_rows << " PD, " << grazing_rows
       << " grazing rows), max |eta - closed form| = " << worst << ", max closed-form gap "
       << worst_gap << "; " << checked << " closed-form points, farthest " << farthest
       << " of the box from a curve; " << seconds << " CPU s";
  WARN(line.str());
}

TEST_CASE("an (eta, r) map: every curve reaches the box's edges, and on the closed form",
          "[plane]") {
  // The restitution's box ends at r = 1, where r itself ends; the z = 2/2 branches end at
  // the z = 1/1 orbit's period doubling (their parent's, orbit_merge.hpp). Every fold and
  // period-doubling curve must run from edge to edge of the box in r (no curve of these
  // orbits ends inside it), those of z = 1/1 and 1/2 on the closed form. (The map used to
  // start a z = 2/2 "period-doubling" curve at the merge, where the doubled orbit's
  // multiplier is +1, and fail there; curves ended short of r = 1 and at "grazings" at
  // r = 4 to 380. On r = 0.8 a z = 2/2 branch of three impacts has a multiplier running
  // through infinity, from + to -, next to a grazing it steps over: det(M + I) changes sign
  // there, and was taken for a period doubling whose curve could not start.) The grazing
  // curves, of gap minima that close between the impacts, run from edge to edge as well.
  ImpactOscillatorParameters p;
  p.d = 0.0;
  auto system = test_support::library_system(p);
  libcont::ParameterPlaneOptions o;
  o.first = "omega";
  o.first_min = 2.5;
  o.first_max = 4.5;
  o.second = "r";
  o.second_min = 0.6;
  o.second_max = 1.0;
  o.max_period = 2;
  o.seed_lines = 1;  // r = 0.8
  const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(system, o);
  int checked = 0, grazing = 0;
  double worst = 0.0;
  for (const libcont::PlaneCurve& piece : map.curves) {
    const libcont::OrbitCurve& curve = piece.curve;
    INFO(to_string(curve.kind) << " curve of n = " << curve.period << ": " << curve.stop_reason
                               << " " << curve.failure);
    REQUIRE(curve.ok());
    CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
    for (const libcont::CurvePoint& point : curve.points) {  // turning points, say
      INFO(point.type << " at eta = " << point.first << ", r = " << point.second);
      CHECK(point.type != "grazing");
      CHECK((point.first >= o.first_min && point.first <= o.first_max));
      CHECK((point.second >= o.second_min && point.second <= o.second_max));
    }
    const double end = curve.rows.back().second;
    CHECK(std::min(std::abs(end - o.second_min), std::abs(end - o.second_max)) <= 1e-12);
    // The closed form has the orbits of one impact (z = 1/n).
    grazing += curve.kind == libcont::CurveKind::Grazing;
    if (curve.kind == libcont::CurveKind::Grazing || curve.rows.front().impacts != 1) continue;
    worst = std::max(worst, test_support::check_rows_against_closed_form(
                                curve, p, "r", curve.period, curve.kind == libcont::CurveKind::Fold));
    ++checked;
  }
  std::ostringstream line;
  line << std::setprecision(3) << "map of (eta, r) in [2.5, 4.5] x [0.6, 1], n <= 2: "
       << map.curves.size() << " curve pieces (" << grazing << " grazing), " << checked
       << " of one impact on the closed form, max |eta - closed form| = " << worst;
  WARN(line.str());
  // The z = 1/1 period doubling at eta = 2.67 and the z = 1/2 ones at 3.29, each both ways
  // from the seed line; the z = 1/2 orbit's two interior grazings (eta = 3.05, 3.15).
  CHECK(checked >= 4);
  CHECK(grazing >= 4);
}

TEST_CASE("parameter-plane options are checked, naming the item", "[plane]") {
  systems::MovingBaseOscillator system;
  const auto refused = [&](const libcont::ParameterPlaneOptions& o, const std::string& item) {
    try {
      libcont::map_parameter_plane(system, o);
      FAIL("accepted options with a bad " << item);
    } catch (const libcont::InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains(item));
    }
  };
  auto o = box();
  o.second = "omega";
  refused(o, "second");
  o = box();
  o.second_max = o.second_min;
  refused(o, "second");
  o = box();
  o.seed_lines = 0;
  refused(o, "seed_lines");
  o = box();
  o.second = "clearance";
  refused(o, "clearance");
  o = box();
  o.initial_states = {libcont::Vector::Zero(3)};
  refused(o, "initial state");
}

TEST_CASE("a parameter-plane map stops when its progress callback says so", "[plane]") {
  systems::MovingBaseOscillator system;
  auto o = box();
  int calls = 0;
  o.progress = [&](const libcont::ParameterPlaneProgress& p) {
    ++calls;
    CHECK(p.lines == o.seed_lines);
    return p.branches < 1;
  };
  const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(system, o);
  CHECK(map.stopped);
  CHECK(calls == 1);
  CHECK(map.branches.size() == 1);
  CHECK(map.curves.empty());
}
