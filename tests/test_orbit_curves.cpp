// Two-parameter curves of folds and period doublings of periodic orbits (orbit_curve.hpp)
// on the moving-base impact oscillator, against its closed form
// (impact_oscillator_closed_form.hpp): at every row of a traced curve, the closed form at
// the row's second parameter has its one-parameter fold (or period doubling) in eta at the
// row's eta. The library integrates (exact affine flow, event location, saltation) and
// solves the extended zero problem with bordered test functions; the reference solves the
// impact phase equation of Shaw & Holmes (1983) in closed form.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <memory>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "closed_form_curves.hpp"
#include "impact_oscillator_closed_form.hpp"
#include "libcont/fold_curve_problem.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/period_doubling_curve_problem.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;
using test_support::cpu_seconds;
using test_support::grazing_clearance;
using test_support::library_system;
using test_support::resonant_eta;
using test_support::closed_form_start;
using test_support::period_doubling_to_grazing;
using test_support::PeriodDoublingToGrazing;
using test_support::resonant_grazing_parameters;
using test_support::Start;

namespace {

struct CurveCase {
  const char* label;
  ImpactOscillatorParameters p;  // at the one-parameter point (eta there)
  libcont::CurveKind kind;
  int n, branch;
  const char* second;
  double to;  // the curve goes from p[second] to `to`
  double eta_min, eta_max;
};

// Traces the curve from the closed form's point and checks every row against the closed
// form's one-parameter point at the row's second parameter; returns the curve.
libcont::OrbitCurve check_curve(const CurveCase& c) {
  const bool fold = c.kind == libcont::CurveKind::Fold;
  auto system = library_system(c.p);
  const Start start = closed_form_start(c.p, c.n, c.branch);
  const libcont::OrbitCurveOptions options(c.second, c.p[c.second], c.to, c.eta_min, c.eta_max);
  const double begin = cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, c.kind, "omega", c.p.eta, c.n, start.phase, start.x, options);
  const double seconds = cpu_seconds() - begin;
  INFO(c.label << ": " << curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  REQUIRE(curve.rows.size() >= 5);
  // The curve reaches the asked bound of the second parameter.
  CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
  CHECK(std::abs(curve.rows.back().second - c.to) <= 1e-12 * (1.0 + std::abs(c.to)));
  double worst_multiplier = 0.0;
  const double target = fold ? 1.0 : -1.0;
  for (const libcont::CurveRow& row : curve.rows) {
    // Every row after the start (corrected in p2 at the start's eta, which need not be
    // the closed form's exactly) inside the asked ranges of both parameters.
    if (&row != &curve.rows.front()) {
      CHECK(row.second >= std::min(c.p[c.second], c.to));
      CHECK(row.second <= std::max(c.p[c.second], c.to));
      CHECK(row.first >= c.eta_min);
      CHECK(row.first <= c.eta_max);
    }
    double nearest = INFINITY;
    for (const auto& mu : row.multipliers) nearest = std::min(nearest, std::abs(mu - target));
    CHECK(nearest <= 1e-7);
    worst_multiplier = std::max(worst_multiplier, nearest);
  }
  INFO(c.label);
  const double worst = test_support::check_rows_against_closed_form(curve, c.p, c.second, c.n, fold);
  std::ostringstream line;
  line << std::setprecision(3) << c.label << ": " << curve.rows.size() << " rows, eta "
       << std::setprecision(8) << curve.rows.front().first << " -> " << curve.rows.back().first
       << ", " << c.second << " " << curve.rows.front().second << " -> "
       << curve.rows.back().second << std::setprecision(3)
       << "; max |eta - closed form| = " << worst << ", max |mu - (" << target
       << ")| = " << worst_multiplier << ", " << seconds << " CPU s";
  WARN(line.str());
  return curve;
}

}  // namespace

TEST_CASE("fold curves of z = 1/1 orbits against the closed form", "[curves]") {
  ImpactOscillatorParameters p;
  p.r = 1.0;
  p.d = -0.005;
  // Next to the admissible fold of the closed form at eta = 1.8480105972
  // (test_closed_form_reference), where both orbits exist: the curve's first point is
  // corrected in d at this eta.
  p.eta = 1.848;
  check_curve({"fold (eta, d)", p, libcont::CurveKind::Fold, 1, 0, "d", -0.004, 1.0, 3.0});
  check_curve({"fold (eta, r)", p, libcont::CurveKind::Fold, 1, 0, "r", 0.8, 1.0, 3.0});
}

TEST_CASE("period-doubling curves of z = 1/1 orbits against the closed form", "[curves]") {
  ImpactOscillatorParameters p;
  p.r = 0.8;
  p.d = 0.0;
  p.eta = 2.6653749532;
  check_curve({"period doubling (eta, d)", p, libcont::CurveKind::PeriodDoubling, 1, 1, "d",
               0.002, 2.0, 3.5});
  check_curve({"period doubling (eta, r)", p, libcont::CurveKind::PeriodDoubling, 1, 1, "r",
               0.6, 2.0, 3.5});
}

TEST_CASE("fold and period-doubling curves of z = 1/1 orbits in the base amplitude and the damping",
          "[curves]") {
  // The base amplitude a and the damping c enter the map differently from d and r: a
  // scales the forcing and the base motion together (at d = 0 the orbits only scale with
  // it, so the points are taken at d != 0, where the curves move), c changes the flight's
  // exponential and the response H. The same check as above, row by row.
  ImpactOscillatorParameters fold;
  fold.r = 1.0;
  fold.d = -0.005;
  fold.eta = 1.848;  // next to the fold at 1.8480105972, as above
  check_curve({"fold (eta, a)", fold, libcont::CurveKind::Fold, 1, 0, "a", 0.003, 1.0, 3.0});
  check_curve({"fold (eta, c)", fold, libcont::CurveKind::Fold, 1, 0, "c", 0.2, 1.0, 3.0});
  ImpactOscillatorParameters flip;
  flip.r = 1.0;
  flip.d = -0.002;
  flip.eta = 2.3693020330;  // the closed form's period doubling at this d
  check_curve({"period doubling (eta, a)", flip, libcont::CurveKind::PeriodDoubling, 1, 1, "a",
               0.003, 2.0, 3.0});
  check_curve({"period doubling (eta, c)", flip, libcont::CurveKind::PeriodDoubling, 1, 1, "c",
               0.3, 2.0, 3.0});
}

TEST_CASE("fold and period-doubling curves of z = 1/2 orbits against the closed form",
          "[curves]") {
  // One impact every two forcing periods: the map over 2 T, the closed form's phase
  // equation with E = exp(2 A T). Its fold at eta = 2.1406816153 and period doubling at
  // 2.3478043738 (d = -0.005, r = 1), continued in d, a, r and c. The period-doubling
  // curve is a loop through the period doubling at 2.6559140506 (d = -0.005): in each
  // parameter it turns back (at d = -0.00540, a = 0.00232, r = 0.876, c = 0.252), so the
  // bounds asked lie before that. Along r it starts at eta = 2.34781, next to the point
  // on the side where its correction in r stays below r = 1, the end of r's range.
  ImpactOscillatorParameters fold;
  fold.r = 1.0;
  fold.d = -0.005;
  fold.eta = 2.1406816153;
  const auto kind = libcont::CurveKind::Fold;
  check_curve({"z = 1/2 fold (eta, d)", fold, kind, 2, 0, "d", -0.006, 1.5, 3.0});
  check_curve({"z = 1/2 fold (eta, a)", fold, kind, 2, 0, "a", 0.002, 1.5, 3.0});
  check_curve({"z = 1/2 fold (eta, r)", fold, kind, 2, 0, "r", 0.8, 1.5, 3.0});
  check_curve({"z = 1/2 fold (eta, c)", fold, kind, 2, 0, "c", 0.26, 1.5, 3.0});
  ImpactOscillatorParameters flip = fold;
  flip.eta = 2.3478043738;
  const auto doubling = libcont::CurveKind::PeriodDoubling;
  check_curve({"z = 1/2 period doubling (eta, d)", flip, doubling, 2, 1, "d", -0.0053, 1.5, 3.0});
  check_curve({"z = 1/2 period doubling (eta, a)", flip, doubling, 2, 1, "a", 0.0024, 1.5, 3.0});
  check_curve({"z = 1/2 period doubling (eta, c)", flip, doubling, 2, 1, "c", 0.25, 1.5, 3.0});
  flip.eta = 2.34781;
  check_curve({"z = 1/2 period doubling (eta, r)", flip, doubling, 2, 1, "r", 0.9, 1.5, 3.0});
}

TEST_CASE("a curve that reaches its bound while it walks down to a grazing ends on the bound",
          "[curves]") {
  // The z = 1/2 fold curve from eta = 2.1406816153 towards larger d nears an interior
  // grazing (its gap minimum falls to 0 at d = -0.0033273): from d = -0.00428 on, its
  // orbits are those of the walk in the gap (orbit_curve_grazing.cpp), which passes
  // d = -0.0036. The curve must end on that bound, every row inside [-0.005, -0.0036] and
  // on the closed form. (The walk used to go on to the grazing beyond the bound: rows to
  // d = -0.00333.)
  ImpactOscillatorParameters fold;
  fold.r = 1.0;
  fold.d = -0.005;
  fold.eta = 2.1406816153;
  const libcont::OrbitCurve curve = check_curve(
      {"z = 1/2 fold (eta, d) to a bound before its grazing", fold, libcont::CurveKind::Fold, 2,
       0, "d", -0.0036, 1.5, 3.0});
  CHECK(curve.stop_reason == "reached the bound of d");
  CHECK(curve.points.empty());  // no grazing located beyond the bound
}

TEST_CASE("curves in the restitution end on r = 1, the parameter's own bound, and on r = 0.6",
          "[curves]") {
  // At d = 0 the z = 1/1 and z = 1/2 period doublings move little with r. A step
  // predicted past r = 1 cannot be evaluated (r > 1 is no restitution): the curve must land
  // on r = 1 (it used to shrink its steps onto r = 1 and stop with "step too small"). The
  // z = 1/2 curve towards r = 0.6 passes orbits whose gap minimum is small (0.37 of the
  // length scale): the walk towards that grazing, which the curve never reaches, must not
  // end it (it used to, at r = 0.61, extrapolating a "grazing" at r = 6).
  ImpactOscillatorParameters flip;
  flip.d = 0.0;
  flip.r = 0.64;
  const auto doubling = libcont::CurveKind::PeriodDoubling;
  flip.eta = test_support::one_parameter_point_near(flip, "omega", 1, false, 2.68, 0.02);
  REQUIRE(std::isfinite(flip.eta));
  check_curve({"z = 1/1 period doubling (eta, r) to r = 1", flip, doubling, 1, 1, "r", 1.0, 2.0,
               10.0});
  flip.eta = test_support::one_parameter_point_near(flip, "omega", 2, false, 3.2738, 0.02);
  REQUIRE(std::isfinite(flip.eta));
  for (const double to : {0.6, 1.0}) {
    const libcont::OrbitCurve curve =
        check_curve({"z = 1/2 period doubling (eta, r)", flip, doubling, 2, 1, "r", to, 2.0, 10.0});
    CHECK(curve.points.empty());
  }
}

TEST_CASE("a period-doubling curve ends where it meets the grazing curve (resonant grazing)",
          "[curves]") {
  // At eta* = w_d, d* = -|a - H(eta*)| (resonant_grazing_parameters above).
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  auto system = library_system(p);
  const PeriodDoublingToGrazing traced = period_doubling_to_grazing(system);
  CHECK(std::abs(traced.flip - 0.9452849121) <= 1e-8);
  const libcont::OrbitCurve& curve = traced.curve;
  const libcont::CurvePoint& end = curve.points.back();
  const double wd = resonant_eta(p);
  const double d_star = grazing_clearance(p, wd);
  // Every row is on the closed form's period-doubling curve, as in the tests above.
  const double worst = test_support::check_rows_against_closed_form(curve, p, "d", 1, false);
  std::ostringstream line;
  line << std::setprecision(12) << "period-doubling curve (eta, d) from eta = " << traced.flip
       << ": " << curve.rows.size() << " rows, ends at a grazing at eta = " << end.first
       << ", d = " << end.second << " (closed form " << wd << ", " << d_star
       << std::setprecision(3) << "; deviations " << end.first - wd << ", "
       << end.second - d_star << ", estimate " << end.error_estimate
       << "); rows: max |eta - closed form| = " << worst << ", " << traced.seconds << " CPU s";
  WARN(line.str());
  CHECK(std::abs(end.first - wd) <= 1e-6);
  CHECK(std::abs(end.second - d_star) <= 1e-6 * std::abs(d_star));
}

namespace {

// The distance in d from a fold or period-doubling curve to the grazing curve at the same
// eta, against delta = eta - eta_c (eta_c: the codimension-two point).
struct Tangency {
  std::vector<double> delta, distance;
};

// Least squares of log |distance| on log |delta|: the tangency's order.
double log_log_slope(const Tangency& t) {
  const size_t k = t.delta.size();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < k; ++i) {
    const double x = std::log(std::abs(t.delta[i])), y = std::log(std::abs(t.distance[i]));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

// Least squares of distance = c2 delta^2 + c3 delta^3: c2, the quadratic coefficient (the
// cubic term takes up the next order, so that it does not bias c2).
double quadratic_coefficient(const Tangency& t) {
  Eigen::MatrixXd a(t.delta.size(), 2);
  Eigen::VectorXd b(t.delta.size());
  for (size_t i = 0; i < t.delta.size(); ++i) {
    a(static_cast<Eigen::Index>(i), 0) = t.delta[i] * t.delta[i];
    a(static_cast<Eigen::Index>(i), 1) = t.delta[i] * t.delta[i] * t.delta[i];
    b[static_cast<Eigen::Index>(i)] = t.distance[i];
  }
  return a.colPivHouseholderQr().solve(b)[0];
}

// d of the traced grazing curve at eta: the polynomial through its six rows nearest in eta;
// NaN outside the rows' span.
double grazing_curve_at(const std::vector<libcont::CurveRow>& rows, double eta) {
  std::vector<double> first, second;
  for (const auto& row : rows) {
    first.push_back(row.first);
    second.push_back(row.second);
  }
  return test_support::interpolate_nearest(first, second, eta, 6);
}

}  // namespace

TEST_CASE("fold and period-doubling curves leave the resonant grazing quadratically tangent",
          "[curves]") {
  // Context only: resonant grazing bifurcations, with fold and period-doubling curves
  // issuing from the grazing curve, are studied by D. J. W. Simpson with P. A. Glendinning,
  // and by Simpson and Ghosh, "Resonant grazing bifurcations revisited" (arXiv
  // 2602.22797). The order of the tangency here is derived from this file's closed form:
  // near grazing the z = 1/1 orbit with impact speed v_r has d - d_g(eta) = alpha v_r +
  // O(v_r^2), alpha ~ E01 ~ delta = eta - eta*; the period doubling needs E01 s10 =
  // -(1 - r e^{-cT/2m})^2 + O(delta), s10 ~ 1/v_r, so v_r ~ delta along its curve, and the
  // fold needs E01 s10 = (1 + r e^{-cT/2m})^2, v_r ~ delta of the other sign: both curves
  // lie at d_g + O(delta^2), each on the side where v_r < 0 (period doubling: eta < eta*;
  // fold: eta > eta*). A tangency of order 2.
  //
  // Measured from the library's curves alone: the period-doubling curve above to its end,
  // the fold curve from eta* + 0.01 to its end, and the grazing curve traced from the
  // period-doubling curve's end both ways; the distance in d at each row's eta against
  // delta from that curve's own end. Only rows where the next order changes distance /
  // delta^2 by a few per cent count: |delta| <= 1e-3 for the period doubling (the closed
  // form's cubic coefficient is 40 times its quadratic one: distance / delta^2 = 29.5 at
  // 1e-4, 28.5 at 1e-3, 16 at 1e-2; the rows there are those of the curve's walk to the
  // grazing), |delta| <= 1e-2 for the fold (-0.3517 at 1e-4, -0.3563 at 1e-2). The finite
  // window leaves the slope at 2 - 0.015 and 2 + 0.005, the closed form's alike. The
  // closed form's distance, d of its one-parameter point in d minus d_g, fitted the same
  // way, gives the quadratic coefficient to compare.
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  auto system = library_system(p);
  const double eta_star = resonant_eta(p);
  const PeriodDoublingToGrazing flip = period_doubling_to_grazing(system);
  const libcont::CurvePoint& flip_end = flip.curve.points.back();

  // The fold curve, from the closed form's fold in d at eta* + 0.01 (just inside it, where
  // the orbits exist), towards larger d.
  double begin = cpu_seconds();
  const double fold_eta = eta_star + 0.01;
  const double fold_d = test_support::one_parameter_point_near(
      p.with("omega", fold_eta), "d", 1, true, grazing_clearance(p, fold_eta), 0.002);
  REQUIRE(std::isfinite(fold_d));
  const ImpactOscillatorParameters at_fold = p.with("omega", fold_eta).with("d", fold_d + 1e-9);
  const Start fold_start = closed_form_start(at_fold, 1, 0);
  system.set_parameter("d", at_fold.d);
  const libcont::OrbitCurve fold = libcont::trace_orbit_curve(
      system, libcont::CurveKind::Fold, "omega", fold_eta, 1, fold_start.phase, fold_start.x,
      libcont::OrbitCurveOptions("d", at_fold.d, -0.0105, 0.8, 1.2));
  const double fold_seconds = cpu_seconds() - begin;
  INFO("fold curve: " << fold.stop_reason << " " << fold.failure);
  REQUIRE(fold.ok());
  REQUIRE(!fold.points.empty());
  const libcont::CurvePoint& fold_end = fold.points.back();
  CHECK(fold_end.type == "grazing");

  // The grazing curve from the period-doubling curve's end (the touching orbit) both ways,
  // in arclength steps of 2e-6 (rows some 1e-4 apart in eta), so that its polynomial
  // through six rows is exact far below the distances measured (checked against d_g
  // below: to rounding).
  begin = cpu_seconds();
  std::vector<libcont::CurveRow> grazing;
  for (const double to : {flip_end.second + 3e-5, flip_end.second - 1.4e-4}) {
    libcont::OrbitCurveOptions options("d", flip_end.second, to, 0.8, 1.2);
    options.max_step = options.initial_step = 2e-6;
    system.set_parameter("d", flip_end.second);
    const libcont::OrbitCurve part = libcont::trace_orbit_curve(
        system, libcont::CurveKind::Grazing, "omega", flip_end.first, 1, flip_end.phase,
        flip_end.x, options);
    INFO("grazing curve to d = " << to << ": " << part.stop_reason << " " << part.failure);
    REQUIRE(part.ok());
    CHECK(part.status == libcont::ContinuationStatus::ReachedBound);
    // Both parts start at the same row: once (a repeated abscissa breaks the interpolation).
    grazing.insert(grazing.end(), part.rows.begin() + (grazing.empty() ? 0 : 1), part.rows.end());
  }
  const double grazing_seconds = cpu_seconds() - begin;

  // The distances from the library's curves, and the interpolated grazing curve against
  // the closed form's d_g at the same eta.
  double worst_grazing = 0.0;
  const auto measure = [&](const libcont::OrbitCurve& curve, double eta_c, double widest) {
    Tangency t;
    for (const libcont::CurveRow& row : curve.rows) {
      const double delta = row.first - eta_c;
      if (!(std::abs(delta) <= widest) || delta == 0.0) continue;
      const double d_g = grazing_curve_at(grazing, row.first);
      INFO("row at eta = " << std::setprecision(14) << row.first);
      REQUIRE(std::isfinite(d_g));
      worst_grazing = std::max(worst_grazing, std::abs(d_g - grazing_clearance(p, row.first)));
      t.delta.push_back(delta);
      t.distance.push_back(row.second - d_g);
    }
    return t;
  };
  // The same from the closed form at the given delta.
  const auto closed_form = [&](bool is_fold, const std::vector<double>& deltas) {
    Tangency t;
    for (const double delta : deltas) {
      const auto at = p.with("omega", eta_star + delta);
      const double d_g = grazing_clearance(p, eta_star + delta);
      const double d = test_support::one_parameter_point_near(at, "d", 1, is_fold, d_g, 2e-3);
      REQUIRE(std::isfinite(d));
      t.delta.push_back(delta);
      t.distance.push_back(d - d_g);
    }
    return t;
  };
  struct Case {
    const char* label;
    const libcont::OrbitCurve* curve;
    bool is_fold;
    double side, widest;
  };
  std::ostringstream line;
  line << std::setprecision(4) << "resonant grazing at eta* = " << std::setprecision(12)
       << eta_star << ": ends of the period-doubling and fold curves at eta - eta* = "
       << std::setprecision(3) << flip_end.first - eta_star << ", " << fold_end.first - eta_star
       << "; CPU s: period doubling " << flip.seconds << ", fold " << fold_seconds
       << ", grazing " << grazing_seconds << " (" << grazing.size() << " rows)";
  for (const Case& c : {Case{"period doubling", &flip.curve, false, -1.0, 1e-3},
                        Case{"fold", &fold, true, +1.0, 1e-2}}) {
    const Tangency traced = measure(*c.curve, c.curve->points.back().first, c.widest);
    REQUIRE(traced.delta.size() >= 4);
    for (double delta : traced.delta) CHECK(delta * c.side > 0.0);  // on its side
    // Independent of the curve: twelve delta over the decade below `widest` on the
    // curve's side. And at the rows' own delta, to tell the fit's truncation (its samples
    // elsewhere) from the curves' error.
    std::vector<double> grid;
    for (int i = 0; i < 12; ++i) grid.push_back(c.side * c.widest * std::pow(10.0, -i / 11.0));
    const Tangency reference = closed_form(c.is_fold, grid);
    const Tangency at_rows = closed_form(c.is_fold, traced.delta);
    const double slope = log_log_slope(traced), reference_slope = log_log_slope(reference);
    const double c2 = quadratic_coefficient(traced), reference_c2 = quadratic_coefficient(reference);
    const double rows_c2 = quadratic_coefficient(at_rows);
    line << "\n" << c.label << ": " << traced.delta.size() << " rows with |delta| "
         << std::abs(traced.delta.front()) << " .. " << std::abs(traced.delta.back())
         << "; log-log slope " << std::setprecision(5) << slope << " (closed form "
         << reference_slope << "); c2 " << std::setprecision(8) << c2 << " (closed form "
         << reference_c2 << std::setprecision(3) << ", relative difference "
         << std::abs(c2 / reference_c2 - 1.0) << "; at the rows' delta " << std::setprecision(8)
         << rows_c2 << std::setprecision(3) << ", relative difference "
         << std::abs(c2 / rows_c2 - 1.0) << ")";
    CHECK(std::abs(slope - 2.0) <= 0.05);
    CHECK(std::abs(reference_slope - 2.0) <= 0.05);
    // Fits of c2 delta^2 + c3 delta^3 to different samples of the same function differ by
    // the terms they leave out, some delta^2 c4 / c2 (measured 7e-4 for both curves between
    // the closed form's grid and the rows); at the rows' own delta only by the curves'
    // error, mostly that of the end they count delta from: eta* to 4e-10 (the test above),
    // 2 * 4e-10 / |delta| of the distance, 7e-6 at the nearest row (measured: 3.4e-6, fold
    // 1.8e-7).
    CHECK(std::abs(c2 / reference_c2 - 1.0) <= 2e-3);
    CHECK(std::abs(c2 / rows_c2 - 1.0) <= 2e-5);
  }
  line << "\ngrazing curve's interpolation against d_g: " << worst_grazing;
  WARN(line.str());
  // The curves' ends at eta*, as the period-doubling one above.
  CHECK(std::abs(flip_end.first - eta_star) <= 1e-6);
  CHECK(std::abs(fold_end.first - eta_star) <= 1e-6);
  CHECK(worst_grazing <= 1e-10);
}

TEST_CASE("the grazing curve of the non-impacting orbit against the closed form", "[curves]") {
  // The non-impacting orbit's gap is Im((H - a) e^{i eta t}) - d: it touches the base where
  // |a - H(eta)| = -d. From its grazing at eta = 1.3852573174 (d = -0.005, r = 1) the curve
  // of tangencies in (eta, d), each row checked against the closed form's grazing in eta at
  // the row's d, and its touching time against the closed form's time of the gap minimum.
  ImpactOscillatorParameters p;
  p.r = 1.0;
  p.d = -0.005;
  p.eta = 1.3852573174;
  auto system = library_system(p);
  const ImpactOscillatorClosedForm cf(p);
  const double phase = ImpactOscillatorClosedForm::wrap(
      cf.nonimpacting_time_of_min_gap() + 0.5 * cf.period(), cf.period());
  for (const double to : {-0.004, -0.009}) {
    const double begin = cpu_seconds();
    const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
        system, libcont::CurveKind::Grazing, "omega", p.eta, 1, phase, cf.nonimpacting_state(phase),
        libcont::OrbitCurveOptions("d", p.d, to, 0.8, 3.0));
    const double seconds = cpu_seconds() - begin;
    INFO(curve.stop_reason << " " << curve.failure);
    REQUIRE(curve.ok());
    CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
    REQUIRE(curve.rows.size() >= 5);
    CHECK(std::abs(curve.rows.back().second - to) <= 1e-15);
    double worst = 0.0, worst_time = 0.0;
    for (const libcont::CurveRow& row : curve.rows) {
      const auto at_row = p.with("d", row.second);
      double reference = NAN;
      for (const auto& g :
           test_support::nonimpacting_grazing(at_row, "omega", row.first - 0.01, row.first + 0.01, 20))
        reference = g.value;
      INFO("row at eta = " << std::setprecision(14) << row.first << ", d = " << row.second);
      REQUIRE(std::isfinite(reference));
      CHECK(std::abs(row.first - reference) <= 1e-8);
      worst = std::max(worst, std::abs(row.first - reference));
      // The touching time s after the section, against the closed form's (mod T).
      const ImpactOscillatorClosedForm at(at_row.with("omega", row.first));
      const double shift = std::remainder(row.phase + row.auxiliary[0] -
                                              at.nonimpacting_time_of_min_gap(), at.period());
      CHECK(std::abs(shift) <= 1e-7);
      worst_time = std::max(worst_time, std::abs(shift));
    }
    std::ostringstream line;
    line << std::setprecision(3) << "grazing curve (eta, d) to d = " << to << ": "
         << curve.rows.size() << " rows, eta " << std::setprecision(8) << curve.rows.front().first
         << " -> " << curve.rows.back().first << std::setprecision(3)
         << "; max |eta - closed form| = " << worst << ", touching time " << worst_time << ", "
         << seconds << " CPU s";
    WARN(line.str());
  }
}

TEST_CASE("a curve started where p1 = const misses it is corrected by least norm", "[curves]") {
  // The z = 1/2 period-doubling curve in (eta, d) from eta = 2.3478043738 (d = -0.005) is an
  // arc that turns in d at d = -0.00539768 (eta = 2.4977) and comes back to d = -0.005 at
  // eta = 2.6559. Traced with p1 = d (the branch's parameter) from d = -0.0054, just beyond
  // that turn, there is no point of the curve at fixed p1: the start must be corrected by
  // Newton steps of least norm onto the curve near the turn, and the curve from there in
  // eta lies on the closed form (its period doubling in d at each row's eta).
  ImpactOscillatorParameters flip;
  flip.r = 1.0;
  flip.d = -0.005;
  flip.eta = 2.3478043738;
  auto system = library_system(flip);
  const Start start = closed_form_start(flip, 2, 1);
  const libcont::OrbitCurve arc = libcont::trace_orbit_curve(
      system, libcont::CurveKind::PeriodDoubling, "omega", flip.eta, 2, start.phase, start.x,
      libcont::OrbitCurveOptions("d", -0.005, -0.0056, 1.5, 3.0));
  REQUIRE(arc.ok());
  const auto lowest = std::min_element(arc.rows.begin(), arc.rows.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
  CHECK(lowest->second > -0.0054);
  system.set_parameter("omega", lowest->first);
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, libcont::CurveKind::PeriodDoubling, "d", -0.0054, 2, lowest->phase, lowest->x,
      libcont::OrbitCurveOptions("omega", lowest->first, 2.6, -0.006, -0.004));
  INFO(curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  REQUIRE(curve.rows.size() >= 5);
  // The first row: on the curve, within the step's reach of the turn.
  CHECK(std::abs(curve.rows.front().first - lowest->second) <= 1e-5);
  double worst = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    const double reference = test_support::one_parameter_point_near(
        flip.with("omega", row.second), "d", 2, false, row.first, 2e-4);
    INFO("row at d = " << std::setprecision(14) << row.first << ", eta = " << row.second
                       << ": closed form d = " << reference);
    REQUIRE(std::isfinite(reference));
    CHECK(std::abs(row.first - reference) <= 1e-10);
    worst = std::max(worst, std::abs(row.first - reference));
  }
  std::ostringstream line;
  line << std::setprecision(10) << "least-norm start from d = -0.0054: first row d = "
       << curve.rows.front().first << ", eta = " << curve.rows.front().second << "; "
       << curve.rows.size() << " rows" << std::setprecision(3)
       << ", max |d - closed form| = " << worst;
  WARN(line.str());
}

TEST_CASE("the interior-tangency curve of the z = 1/2 orbit against the closed form", "[curves]") {
  // The z = 1/2 orbit (d = 0, r = 1) grazes the base between its impacts at eta =
  // 3.1675052041 (its gap minimum closes: test_grazing_passage). From the branch's grazing
  // the curve of tangencies in (eta, r) and (eta, d), flown with the orbit's impact and
  // without the touching contact (grazing_curve_problem.hpp): at every row the closed form's
  // z = 1/2 orbit has its smallest interior gap at zero, and its touching time is the
  // closed form's time of that minimum.
  ImpactOscillatorParameters p;
  p.d = 0.0;
  p.eta = 3.25;
  auto system = library_system(p);
  const Start start = closed_form_start(p, 2, 1);
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 2, start.phase, start.x, libcont::OrbitBranchOptions("omega", 3.25, 3.1));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* grazing = nullptr;
  for (const auto& s : branch.special_points)
    if (s.grazing_kind == libcont::GrazingKind::InteriorTangency) grazing = &s;
  REQUIRE(grazing != nullptr);
  // The closed form's: where the nearer orbit's smallest interior gap is zero.
  const double closed_form = test_support::brent_root(
      [&](double eta) {
        return test_support::nearest_touching_orbit(p.with("omega", eta), 2).min_interior_gap;
      },
      3.15, 3.18);
  CHECK(std::abs(grazing->lambda - closed_form) <= 1e-9);
  for (const auto& [second, to] : {std::pair{"r", 0.7}, std::pair{"d", -0.001}}) {
    system.set_parameter("r", p.r);  // where the branch's grazing is (a curve moves p2)
    system.set_parameter("d", p.d);
    const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
        system, branch, *grazing, libcont::OrbitCurveOptions(second, p[second], to, 3.0, 3.4));
    INFO(second << ": " << curve.stop_reason << " " << curve.failure);
    REQUIRE(curve.ok());
    CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
    REQUIRE(curve.rows.size() >= 5);
    const auto [worst_gap, worst_time] =
        test_support::check_interior_tangency_rows(curve, p, second, 2);
    std::ostringstream line;
    line << std::setprecision(3) << "interior-tangency curve (eta, " << second << ") to " << to
         << ": " << curve.rows.size() << " rows, eta " << std::setprecision(8)
         << curve.rows.front().first << " -> " << curve.rows.back().first << std::setprecision(3)
         << "; max |closed-form gap| = " << worst_gap << ", touching time " << worst_time;
    WARN(line.str());
  }
}

TEST_CASE("the bordered test functions' derivatives against independent differences",
          "[curves]") {
  // evaluate() takes the conditions' derivatives as -w^T dM v, dM from central differences
  // of the tangent flow's monodromy. Checked against (a) the same with a step ten times
  // longer, (b) central differences of the condition g itself (the bordered system solved
  // again at each shifted point, the borders kept), at a fold, at a period doubling and at a
  // period doubling 3e-4 in impact speed from a grazing, where the monodromy grows like
  // 1/v_r and differences are most delicate.
  struct Point {
    const char* label;
    ImpactOscillatorParameters p;
    bool fold;
    int branch;
    double step_tolerance, direct_tolerance;
  };
  ImpactOscillatorParameters fold, flip, near_grazing;
  fold.r = 1.0, fold.d = -0.005, fold.eta = 1.848;
  flip.r = 0.8, flip.d = 0.0, flip.eta = 2.6653749532;
  near_grazing.r = 1.0, near_grazing.d = -0.011, near_grazing.eta = 0.99212;
  for (const Point& point : {Point{"fold", fold, true, 0, 1e-6, 1e-6},
                             Point{"period doubling", flip, false, 1, 1e-6, 1e-6},
                             Point{"period doubling near grazing", near_grazing, false, 1, 1e-3, 1e-5}}) {
    auto system = library_system(point.p);
    const Start start = closed_form_start(point.p, 1, point.branch);
    std::unique_ptr<libcont::RealMultiplierCurveProblem> problem;
    if (point.fold)
      problem = std::make_unique<libcont::FoldCurveProblem>(system, "omega", "d", 1,
                                                            libcont::FlowOptions{}, start.phase);
    else
      problem = std::make_unique<libcont::PeriodDoublingCurveProblem>(
          system, "omega", "d", 1, libcont::FlowOptions{}, start.phase);
    problem->second_scale = 0.005;  // d's scale, as trace_orbit_curve sets it from a range
    libcont::Vector u(3);
    u << start.x, point.p.d;
    const double eta = point.p.eta;
    REQUIRE(problem->refit_borders(u, eta));
    const auto condition_row = [&](double step) {
      libcont::Vector residual, dlambda;
      libcont::Matrix du;
      problem->difference_step = step;
      REQUIRE(problem->evaluate(u, eta, residual, du, dlambda));
      libcont::Vector row(4);
      row << du.row(2).transpose(), dlambda[2];
      return row;
    };
    const libcont::Vector row = condition_row(1e-6), longer = condition_row(1e-5);
    // (b): g at u +- h e_j; steps of 1e-7 of each unknown's scale (the state's size, d's
    // scale 5e-3 times the impact's distance to grazing, eta).
    const double distance = std::min(1.0, 2.0 * problem->test_values(u, eta)[problem->test_functions().size() - 1]);
    libcont::Vector direct(4);
    for (int j = 0; j < 4; ++j) {
      const double h = 1e-7 * (j < 2 ? start.x.cwiseAbs().maxCoeff() : j == 2 ? 5e-3 * distance : eta);
      libcont::Vector up = u, um = u;
      double lp = eta, lm = eta;
      (j < 3 ? up[j] : lp) += h;
      (j < 3 ? um[j] : lm) -= h;
      libcont::Vector gp, gm;
      REQUIRE(problem->condition_values(up, lp, gp));
      REQUIRE(problem->condition_values(um, lm, gm));
      direct[j] = (gp[0] - gm[0]) / (2.0 * h);
    }
    const double step_difference = (row - longer).cwiseAbs().cwiseQuotient(row.cwiseAbs()).maxCoeff();
    const double direct_difference = (row - direct).cwiseAbs().cwiseQuotient(row.cwiseAbs()).maxCoeff();
    std::ostringstream line;
    line << std::setprecision(10) << point.label << ": dg/d(x, v, d, eta) = " << row.transpose()
         << std::setprecision(3) << "; largest relative difference to the tenfold step "
         << step_difference << ", to differences of g " << direct_difference;
    WARN(line.str());
    // Truncation errors go with the square of the step: the tenfold step's is a hundred
    // times the default's, so their difference is the longer step's error; near the
    // grazing it is 3e-4 (the default's then 3e-6, as the direct differences say).
    CHECK(step_difference <= point.step_tolerance);
    CHECK(direct_difference <= point.direct_tolerance);
  }
}
