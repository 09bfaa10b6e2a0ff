// The root search's start (libcont/src/hermite_crossing.hpp): the zero of the cubic Hermite
// interpolant from the values and rates at a scan step's two ends. Exact for a cubic; for
// damped oscillations over half a radian, far closer to the true crossing than either end.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "../libcont/src/hermite_crossing.hpp"

using libcont::detail::hermite_crossing;

TEST_CASE("Hermite crossing: the zero of a cubic from its ends", "[hermite-crossing]") {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    // p(t) = (t - root) (c0 + c1 t + c2 t^2) on [0, length], c0 > 0 large enough that
    // the quadratic factor keeps one sign: one simple root inside.
    const double length = std::exp(3.0 * uniform(random));
    const double root = length * (0.5 + 0.49 * uniform(random));
    const double c1 = uniform(random) / length, c2 = uniform(random) / (length * length);
    const double c0 = 4.0 + std::abs(uniform(random));
    const auto p = [&](double t) { return (t - root) * (c0 + c1 * t + c2 * t * t); };
    const auto dp = [&](double t) {
      return (c0 + c1 * t + c2 * t * t) + (t - root) * (c1 + 2.0 * c2 * t);
    };
    const double q = hermite_crossing(length, p(0.0), dp(0.0), p(length), dp(length));
    REQUIRE(q > 0.0);
    REQUIRE(q < 1.0);
    CHECK(std::abs(q * length - root) <= 1e-9 * length);
    ++checked;
  }
  CHECK(checked == 20000);
}

TEST_CASE("Hermite crossing: a damped oscillation's crossing within a scan step",
          "[hermite-crossing]") {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  int found = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    // h(t) = e^{a t} (A cos b t + B sin b t) + C cos(w t + phi) + D over a step of half a
    // radian of the fastest rate.
    const double a = -0.3 * std::abs(uniform(random)), b = 1.0 + 0.5 * uniform(random);
    const double w = 2.0 + 8.0 * std::abs(uniform(random)), phi = 3.0 * uniform(random);
    const double A = uniform(random), B = uniform(random), C = uniform(random);
    const double D = 0.5 * uniform(random);
    const double t0 = 10.0 * std::abs(uniform(random)), length = 0.5 / std::max(b, w);
    const auto h = [&](double t) {
      return std::exp(a * t) * (A * std::cos(b * t) + B * std::sin(b * t)) +
             C * std::cos(w * t + phi) + D;
    };
    const auto rate = [&](double t) {
      return std::exp(a * t) * ((a * A + b * B) * std::cos(b * t) + (a * B - b * A) * std::sin(b * t)) -
             C * w * std::sin(w * t + phi);
    };
    const double h0 = h(t0), h1 = h(t0 + length);
    const double q = hermite_crossing(length, h0, rate(t0), h1, rate(t0 + length));
    if (!(h0 * h1 < 0.0)) {
      CHECK(q == -1.0);  // no change of sign: no start
      continue;
    }
    // The crossing by bisection.
    double lo = t0, hi = t0 + length;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      ((h(mid) < 0.0) == (h0 < 0.0) ? lo : hi) = mid;
    }
    REQUIRE(q > 0.0);
    REQUIRE(q < 1.0);
    // Within a small share of the step (the interpolant is within (w L)^4 / 384 of the
    // function's scale), where an end of the step can be the whole step away.
    // Checked where the crossing is single and clear: the rate of one sign at both ends
    // and at the crossing, and not small there.
    const double r0 = rate(t0), r1 = rate(t0 + length), r = rate(lo);
    const double scale = std::abs(h0) + std::abs(h1) + length * (std::abs(r0) + std::abs(r1));
    if (r0 * r > 0.0 && r1 * r > 0.0 && std::abs(r) * length > 0.1 * scale) {
      CHECK(std::abs(t0 + q * length - lo) <= 2e-3 * length);
      ++found;
    }
  }
  CHECK(found > 1000);
}

TEST_CASE("Hermite crossing: no start without a change of sign or with non-finite data",
          "[hermite-crossing]") {
  CHECK(hermite_crossing(1.0, 1.0, -1.0, 0.5, 1.0) == -1.0);
  CHECK(hermite_crossing(1.0, 1.0, -1.0, 0.0, 1.0) == -1.0);
  CHECK(hermite_crossing(1.0, 1.0, std::nan(""), -1.0, 1.0) == -1.0);
  CHECK(hermite_crossing(1.0, -1.0, INFINITY, 1.0, 1.0) == -1.0);
  const double q = hermite_crossing(2.0, 1.0, -1.0, -1.0, -1.0);  // a line: its midpoint
  CHECK(q == 0.5);
}
