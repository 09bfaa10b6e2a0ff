#pragma once
// What the tests of two-parameter curves and maps of the moving-base oscillator share: the
// library's model at the closed form's parameters, the closed form's resonant grazing
// quantities, and the check of a traced fold or period-doubling curve row by row against the
// closed form (impact_oscillator_closed_form.hpp).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <string>

#include "impact_oscillator_closed_form.hpp"
#include "libcont/orbit_curve.hpp"
#include "systems/moving_base.hpp"

namespace test_support {

// The library's moving-base oscillator with the closed form's parameters.
inline systems::MovingBaseOscillator library_system(const ImpactOscillatorParameters& p) {
  systems::MovingBaseOscillator system;
  for (const char* name : {"m", "k", "c", "a", "d", "r", "eta"}) system.set_parameter(name, p[name]);
  return system;
}

inline double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The damped natural frequency w_d: the z = 1/1 orbit's resonant grazing is at eta = w_d,
// the z = 1/2 orbit's period doubling meets the grazing curve at eta = 2 w_d.
inline double resonant_eta(const ImpactOscillatorParameters& p) {
  return std::sqrt(p.k / p.m - std::pow(p.c / (2.0 * p.m), 2));
}

// The grazing curve of the orbit without impacts (and of the z = 1/1 orbit):
// d = -|a - H(eta)|.
inline double grazing_clearance(const ImpactOscillatorParameters& p, double eta) {
  return -std::abs(p.a - ImpactOscillatorClosedForm(p.with("eta", eta)).response());
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
        one_parameter_point_near(p.with(second, row.second), "eta", n, fold, row.first, 0.02);
    INFO("row at eta = " << std::setprecision(14) << row.first << ", " << second << " = "
                         << row.second << ": closed form " << reference);
    REQUIRE(std::isfinite(reference));
    CHECK(std::abs(row.first - reference) <= tolerance);
    worst = std::max(worst, std::abs(row.first - reference));
  }
  return worst;
}

}  // namespace test_support
