// Two-parameter curves of folds and period doublings of periodic orbits (orbit_curve.hpp)
// on the moving-base impact oscillator, against its closed form
// (impact_oscillator_closed_form.hpp): at every row of a traced curve, the closed form at
// the row's second parameter has its one-parameter fold (or period doubling) in eta at the
// row's eta. The library integrates (exact affine flow, event location, saltation) and
// solves the extended zero problem with bordered test functions; the reference solves the
// impact phase equation of Shaw & Holmes (1983) in closed form.
#include <catch2/catch.hpp>
#include <cmath>
#include <ctime>
#include <memory>
#include <iomanip>
#include <sstream>
#include <string>

#include "impact_oscillator_closed_form.hpp"
#include "libcont/fold_curve_problem.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/period_doubling_curve_problem.hpp"
#include "systems/moving_base.hpp"

using test_support::ImpactingOrbit;
using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;

namespace {

systems::MovingBaseOscillator library_system(const ImpactOscillatorParameters& p) {
  systems::MovingBaseOscillator system;
  for (const char* name : {"m", "k", "c", "a", "d", "r", "eta"}) system.set_parameter(name, p[name]);
  return system;
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// A point of the closed form's z = 1/n orbit (the branch `branch` of its phase equation) on
// the section half a period after its impact.
struct Start {
  double phase = 0.0;
  libcont::Vector x;
};
Start closed_form_start(const ImpactOscillatorParameters& p, int n, int branch) {
  const ImpactOscillatorClosedForm cf(p);
  ImpactingOrbit orbit;
  REQUIRE(cf.impacting_orbit(n, branch, orbit));
  Start start;
  start.phase = ImpactOscillatorClosedForm::wrap(orbit.tau + 0.5 * cf.period(), cf.period());
  start.x = cf.section_states(orbit, start.phase)[0];
  return start;
}

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
      system, c.kind, "eta", c.p.eta, c.n, start.phase, start.x, options);
  const double seconds = cpu_seconds() - begin;
  INFO(c.label << ": " << curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  REQUIRE(curve.rows.size() >= 5);
  // The curve reaches the asked bound of the second parameter.
  CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
  CHECK(std::abs(curve.rows.back().second - c.to) <= 1e-12 * (1.0 + std::abs(c.to)));
  double worst = 0.0, worst_multiplier = 0.0;
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
    const double reference = test_support::one_parameter_point_near(
        c.p.with(c.second, row.second), "eta", c.n, fold, row.first, 0.02);
    INFO(c.label << ": row at eta = " << std::setprecision(14) << row.first << ", "
                 << c.second << " = " << row.second << ", closed form " << reference);
    REQUIRE(std::isfinite(reference));
    CHECK(std::abs(row.first - reference) <= 1e-8);
    worst = std::max(worst, std::abs(row.first - reference));
    double nearest = INFINITY;
    for (const auto& mu : row.multipliers) nearest = std::min(nearest, std::abs(mu - target));
    CHECK(nearest <= 1e-7);
    worst_multiplier = std::max(worst_multiplier, nearest);
  }
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

TEST_CASE("a period-doubling curve ends where it meets the grazing curve (resonant grazing)",
          "[curves]") {
  // The z = 1/1 orbit's det(M + I) = 1 + det M - r (E00 + E11) + E01 s10, with E = exp(A T)
  // and s10 ~ 1/v_r of the saltation matrix (impact_oscillator_closed_form.hpp): along a
  // period-doubling curve that reaches a grazing (v_r -> 0) E01 = exp(-c T/2m) sin(w_d T)/w_d
  // must vanish with v_r, so the curve meets the grazing curve where the forcing period is
  // a multiple of half the damped natural period: eta* = 2 w_d / j. From the period
  // doubling at eta = 0.9453 (d = -0.005, r = 1) the curve in (eta, d) runs into j = 2,
  // eta* = w_d, at the grazing clearance d* = -|a - H(eta*)|.
  ImpactOscillatorParameters p;
  p.r = 1.0;
  p.d = -0.005;
  p.eta = 0.93;
  auto system = library_system(p);
  const Start start = closed_form_start(p, 1, 1);
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 1, start.phase, start.x, libcont::OrbitBranchOptions("eta", 0.93, 0.96));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* flip = nullptr;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::PeriodDoubling) flip = &s;
  REQUIRE(flip != nullptr);
  CHECK(std::abs(flip->lambda - 0.9452849121) <= 1e-8);

  const double begin = cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, branch, *flip, libcont::OrbitCurveOptions("d", -0.005, -0.012, 0.8, 1.2));
  const double seconds = cpu_seconds() - begin;
  INFO(curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  CHECK(curve.status == libcont::ContinuationStatus::EndedAtBoundary);
  REQUIRE(!curve.points.empty());
  const libcont::CurvePoint& end = curve.points.back();
  CHECK(end.type == "grazing");
  const double wd = std::sqrt(p.k / p.m - std::pow(p.c / (2.0 * p.m), 2));
  const double d_star =
      -std::abs(p.a - ImpactOscillatorClosedForm(p.with("eta", wd)).response());
  // Every row is on the closed form's period-doubling curve, as in the tests above.
  double worst = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    const double reference = test_support::one_parameter_point_near(
        p.with("d", row.second), "eta", 1, false, row.first, 0.02);
    INFO("row at eta = " << std::setprecision(14) << row.first << ", d = " << row.second);
    CHECK(std::abs(row.first - reference) <= 1e-8);
    worst = std::max(worst, std::abs(row.first - reference));
  }
  std::ostringstream line;
  line << std::setprecision(12) << "period-doubling curve (eta, d) from eta = " << flip->lambda
       << ": " << curve.rows.size() << " rows, ends at a grazing at eta = " << end.first
       << ", d = " << end.second << " (closed form " << wd << ", " << d_star
       << std::setprecision(3) << "; deviations " << end.first - wd << ", "
       << end.second - d_star << ", estimate " << end.error_estimate
       << "); rows: max |eta - closed form| = " << worst << ", " << seconds << " CPU s";
  WARN(line.str());
  CHECK(std::abs(end.first - wd) <= 1e-6);
  CHECK(std::abs(end.second - d_star) <= 1e-6 * std::abs(d_star));
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
        system, libcont::CurveKind::Grazing, "eta", p.eta, 1, phase, cf.nonimpacting_state(phase),
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
           test_support::nonimpacting_grazing(at_row, "eta", row.first - 0.01, row.first + 0.01, 20))
        reference = g.value;
      INFO("row at eta = " << std::setprecision(14) << row.first << ", d = " << row.second);
      REQUIRE(std::isfinite(reference));
      CHECK(std::abs(row.first - reference) <= 1e-8);
      worst = std::max(worst, std::abs(row.first - reference));
      // The touching time s after the section, against the closed form's (mod T).
      const ImpactOscillatorClosedForm at(at_row.with("eta", row.first));
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
      problem = std::make_unique<libcont::FoldCurveProblem>(system, "eta", "d", 1,
                                                            libcont::FlowOptions{}, start.phase);
    else
      problem = std::make_unique<libcont::PeriodDoublingCurveProblem>(
          system, "eta", "d", 1, libcont::FlowOptions{}, start.phase);
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
