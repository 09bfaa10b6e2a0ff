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
