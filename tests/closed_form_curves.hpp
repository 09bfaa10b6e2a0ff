#pragma once
// What the tests of two-parameter curves and maps of the moving-base oscillator share: the
// library's model at the closed form's parameters, the closed form's resonant grazing
// quantities, the check of a traced fold or period-doubling curve row by row against the
// closed form (impact_oscillator_closed_form.hpp), a closed-form orbit to start from, and
// the period-doubling curve that runs into the resonant grazing.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <string>
#include <utility>

#include "impact_oscillator_closed_form.hpp"
#include "libcont/orbit_curve.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

namespace test_support {

// The library's moving-base oscillator with the closed form's parameters.
inline systems::MovingBaseOscillator library_system(const ImpactOscillatorParameters& p) {
  systems::MovingBaseOscillator system;
  for (const char* name : {"m", "k", "c", "a", "d", "r", "omega"}) system.set_parameter(name, p[name]);
  return system;
}

// The damped natural frequency w_d: the z = 1/1 orbit's resonant grazing is at eta = w_d,
// the z = 1/2 orbit's period doubling meets the grazing curve at eta = 2 w_d.
inline double resonant_eta(const ImpactOscillatorParameters& p) {
  return std::sqrt(p.k / p.m - std::pow(p.c / (2.0 * p.m), 2));
}

// The grazing curve of the orbit without impacts (and of the z = 1/1 orbit):
// d = -|a - H(eta)|.
inline double grazing_clearance(const ImpactOscillatorParameters& p, double eta) {
  return -std::abs(p.a - ImpactOscillatorClosedForm(p.with("omega", eta)).response());
}

// Every row of a traced fold (fold = true) or period-doubling curve of the z = 1/n orbit in
// (eta, second) has the closed form's one-parameter point in eta, at the row's `second`,
// within `tolerance` of the row's eta (CHECKed row by row); returns the largest distance.
inline double check_rows_against_closed_form(const libcont::OrbitCurve& curve,
                                             const ImpactOscillatorParameters& p,
                                             const std::string& second, int n, bool fold,
                                             double tolerance = 1e-8) {
  double worst = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    const double reference =
        one_parameter_point_near(p.with(second, row.second), "omega", n, fold, row.first, 0.02);
    INFO("row at eta = " << std::setprecision(14) << row.first << ", " << second << " = "
                         << row.second << ": closed form " << reference);
    REQUIRE(std::isfinite(reference));
    CHECK(std::abs(row.first - reference) <= tolerance);
    worst = std::max(worst, std::abs(row.first - reference));
  }
  return worst;
}

// A point of the closed form's z = 1/n orbit (the branch `branch` of its phase equation) on
// the section half a period after its impact.
struct Start {
  double phase = 0.0;
  libcont::Vector x;
};
inline Start closed_form_start(const ImpactOscillatorParameters& p, int n, int branch) {
  const ImpactOscillatorClosedForm cf(p);
  ImpactingOrbit orbit;
  REQUIRE(cf.impacting_orbit(n, branch, orbit));
  Start start;
  start.phase = ImpactOscillatorClosedForm::wrap(orbit.tau + 0.5 * cf.period(), cf.period());
  start.x = cf.section_states(orbit, start.phase)[0];
  return start;
}

// The resonant grazing of the z = 1/1 orbit (r = 1, d = -0.005 and the defaults otherwise):
// the z = 1/1 orbit's det(M + I) = 1 + det M - r (E00 + E11) + E01 s10, with E = exp(A T)
// and s10 ~ 1/v_r of the saltation matrix (impact_oscillator_closed_form.hpp): along a
// period-doubling curve that reaches a grazing (v_r -> 0) E01 = exp(-c T/2m) sin(w_d T)/w_d
// must vanish with v_r, so the curve meets the grazing curve where the forcing period is
// a multiple of half the damped natural period: eta* = 2 w_d / j. From the period
// doubling at eta = 0.9453 the curve in (eta, d) runs into j = 2, eta* = w_d, at the
// grazing clearance d* = -|a - H(eta*)|.
inline ImpactOscillatorParameters resonant_grazing_parameters() {
  ImpactOscillatorParameters p;
  p.r = 1.0;
  p.d = -0.005;
  p.eta = 0.93;
  return p;
}

// The branch in eta over [0.93, 0.96] at the parameters above, its period doubling, and
// the period-doubling curve in (eta, d) from it towards d = -0.012, which ends at the
// resonant grazing.
struct PeriodDoublingToGrazing {
  double flip = NAN;  // the branch's period doubling
  libcont::OrbitCurve curve;
  double seconds = 0.0;  // the curve's
};
inline PeriodDoublingToGrazing period_doubling_to_grazing(systems::MovingBaseOscillator& system) {
  const ImpactOscillatorParameters p = resonant_grazing_parameters();
  const Start start = closed_form_start(p, 1, 1);
  const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
      system, 1, start.phase, start.x, libcont::OrbitBranchOptions("omega", 0.93, 0.96));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* flip = nullptr;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::PeriodDoubling) flip = &s;
  REQUIRE(flip != nullptr);
  PeriodDoublingToGrazing out;
  out.flip = flip->lambda;
  const double begin = cpu_seconds();
  out.curve = libcont::trace_orbit_curve(
      system, branch, *flip, libcont::OrbitCurveOptions("d", -0.005, -0.012, 0.8, 1.2));
  out.seconds = cpu_seconds() - begin;
  INFO(out.curve.stop_reason << " " << out.curve.failure);
  REQUIRE(out.curve.ok());
  CHECK(out.curve.status == libcont::ContinuationStatus::EndedAtBoundary);
  REQUIRE(!out.curve.points.empty());
  CHECK(out.curve.points.back().type == "grazing");
  return out;
}

// The closed form's z = 1/n orbit at p whose flight comes nearest to the base between its
// impacts (of the two solutions of its phase equation): its smallest interior gap and the
// time of it. A gap of +inf when neither exists.
inline ImpactingOrbit nearest_touching_orbit(const ImpactOscillatorParameters& p, int n) {
  const ImpactOscillatorClosedForm at(p);
  ImpactingOrbit nearest;
  for (const int b : {0, 1}) {
    ImpactingOrbit orbit;
    if (at.impacting_orbit(n, b, orbit) &&
        std::abs(orbit.min_interior_gap) < std::abs(nearest.min_interior_gap))
      nearest = orbit;
  }
  return nearest;
}

// Every row of a curve of the z = 1/n orbit's interior tangencies in (eta, second) has the
// closed form's smallest interior gap within `tolerance` of zero and the row's touching time
// within `time_tolerance` of the closed form's (CHECKed row by row); returns the largest
// gap and time difference.
inline std::pair<double, double> check_interior_tangency_rows(
    const libcont::OrbitCurve& curve, const ImpactOscillatorParameters& p,
    const std::string& second, int n, double tolerance = 1e-11, double time_tolerance = 1e-6) {
  double worst_gap = 0.0, worst_time = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    const ImpactOscillatorParameters at = p.with(second, row.second).with("omega", row.first);
    const ImpactingOrbit nearest = nearest_touching_orbit(at, n);
    INFO("row at eta = " << std::setprecision(14) << row.first << ", " << second << " = "
                         << row.second << ": closed-form gap " << nearest.min_interior_gap);
    CHECK(std::abs(nearest.min_interior_gap) <= tolerance);
    const double shift = std::remainder(row.phase + row.auxiliary[0] - nearest.time_of_min_gap,
                                        at.period());
    CHECK(std::abs(shift) <= time_tolerance);
    worst_gap = std::max(worst_gap, std::abs(nearest.min_interior_gap));
    worst_time = std::max(worst_time, std::abs(shift));
  }
  return {worst_gap, worst_time};
}

}  // namespace test_support
