// Random loading (random_loading.hpp) and the two-body system driven by it.
//
// What is checked, and why it is exact or how wide its tolerance is:
// - Reproducibility: std::mt19937_64 is fixed by the standard (its 10000th output from the
//   default seed is 9981545732273789042, a value the standard states), and the phases take
//   its top 53 bits, so the same seed gives the same load everywhere.
// - The variance over time: the frequencies are multiples of dw, so F has period
//   P = 2 pi / dw and the mean of F^2 over one period is exactly sum a_l^2 / 2 =
//   sum S(w_l) dw (orthogonality). F^2 is a trigonometric polynomial of degree 2 n in
//   2 pi t / P, so the trapezoid rule with N > 2 n points over one period is exact up to
//   rounding: tolerance 1e-12.
// - The variance over the phases (an ensemble of seeds, F at one instant): a statistical
//   check. For F = sum a_l cos(phi_l), phi_l iid uniform, E F^2 = V = sum a_l^2 / 2 and
//   E F^4 = 3 V^2 - (3/8) sum a_l^4, so the mean of F^2 over M seeds has standard error
//   sqrt((2 V^2 - (3/8) sum a_l^4) / M); 5 standard errors (a chance of ~6e-7 for a
//   correct generator; the seeds are fixed, so the test is deterministic).
// - sum S(w_l) dw against sigma^2 = integral_0^inf S dw: the sum is the midpoint rule of S
//   on [dw/2, (n + 1/2) dw]; checked against an adaptive quadrature of that interval
//   within the midpoint rule's error bound, and the two tails are computed by quadrature,
//   so that sum + tails = sigma^2 within that bound. The integral of S over (0, inf) is
//   first checked against its analytic value sigma^2.
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <random>

#include "libcont/flow.hpp"
#include "libcont/random_loading.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::FilteredNoiseSpectrum;
using libcont::RandomLoading;
using test_support::make_system;

namespace {

const FilteredNoiseSpectrum spectrum{4242.642, 6.0, 5.0};  // the two-body defaults
constexpr int n = 100;
constexpr double dw = 0.2;

double integral(double from, double to) {
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(spectrum, from, to, 15,
                                                                        1e-14);
}

}  // namespace

TEST_CASE("Random loading: the engine and the phases are the same on every platform",
          "[random-loading]") {
  std::mt19937_64 engine;  // default seed 5489
  engine.discard(9999);
  CHECK(engine() == 9981545732273789042ULL);  // stated by the C++ standard
  std::mt19937_64 a(7), b(7);
  const std::uint64_t raw = a();
  CHECK(libcont::unit_interval_sample(b) == static_cast<double>(raw >> 11) / 9007199254740992.0);
  // The extreme outputs map into [0, 1).
  std::mt19937_64 c(1);
  for (int i = 0; i < 100000; ++i) {
    const double u = libcont::unit_interval_sample(c);
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
}

TEST_CASE("Random loading: same seed, same load; another seed, another load",
          "[random-loading]") {
  const RandomLoading first(spectrum, n, dw, 42), again(spectrum, n, dw, 42),
      other(spectrum, n, dw, 43);
  REQUIRE(first.components().size() == static_cast<size_t>(n));
  double largest_difference = 0.0;
  for (int i = 0; i < 1000; ++i) {
    const double t = 0.037 * i;
    CHECK(first(t) == again(t));  // bit for bit
    largest_difference = std::max(largest_difference, std::abs(first(t) - other(t)));
  }
  CHECK(largest_difference > 0.1 * std::sqrt(first.variance()));
  for (int l = 0; l < n; ++l) {
    const auto& c = first.components()[static_cast<size_t>(l)];
    CHECK(c.frequency == Approx((l + 1) * dw).epsilon(1e-15));
    CHECK(c.amplitude == Approx(std::sqrt(2 * spectrum(c.frequency) * dw)).epsilon(1e-15));
    CHECK(c.phase >= 0.0);
    CHECK(c.phase < 2 * std::numbers::pi);
  }
  // Periodic with period 2 pi / dw.
  CHECK(first.period() == Approx(2 * std::numbers::pi / dw).epsilon(1e-15));
  for (double t : {0.3, 5.0, 17.1})
    CHECK(first(t + first.period()) == Approx(first(t)).margin(1e-9 * std::sqrt(first.variance())));
}

TEST_CASE("Random loading: the variance over one period is sum S(w_l) dw, exactly",
          "[random-loading]") {
  for (std::uint64_t seed : {1ULL, 2ULL, 123456789ULL}) {
    const RandomLoading load(spectrum, n, dw, seed);
    double expected = 0.0;
    for (int l = 1; l <= n; ++l) expected += spectrum(l * dw) * dw;
    CHECK(load.variance() == Approx(expected).epsilon(1e-14));
    const int points = 4096;  // > 2 n: trapezoid rule exact for the degree-2n polynomial F^2
    double mean = 0.0, mean_square = 0.0;
    for (int k = 0; k < points; ++k) {
      const double f = load(load.period() * k / points);
      mean += f / points;
      mean_square += f * f / points;
    }
    INFO("seed " << seed << ": mean " << mean << ", mean square " << mean_square << ", sum S dw "
                 << expected);
    CHECK(std::abs(mean) <= 1e-12 * std::sqrt(expected));
    CHECK(mean_square == Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("Random loading: the variance over an ensemble of seeds at one instant",
          "[random-loading]") {
  const int seeds = 4000;
  const double t = 3.7;
  double mean_square = 0.0, variance = 0.0, fourth = 0.0;
  for (int s = 0; s < seeds; ++s) {
    const RandomLoading load(spectrum, n, dw, static_cast<std::uint64_t>(1000 + s));
    const double f = load(t);
    mean_square += f * f / seeds;
    variance = load.variance();
  }
  const RandomLoading any_seed(spectrum, n, dw, 1);  // amplitudes do not depend on the seed
  for (const auto& c : any_seed.components()) fourth += std::pow(c.amplitude, 4);
  const double standard_error = std::sqrt((2 * variance * variance - 0.375 * fourth) / seeds);
  INFO("mean of F^2 " << mean_square << ", V " << variance << ", standard error "
                      << standard_error);
  CHECK(std::abs(mean_square - variance) <= 5 * standard_error);
}

TEST_CASE("Random loading: sum S(w_l) dw approximates integral S dw = sigma^2",
          "[random-loading]") {
  const double sigma2 = spectrum.variance();
  // The analytic integral over (0, inf).
  const double whole = boost::math::quadrature::exp_sinh<double>().integrate(spectrum, 0.0,
                                                                           INFINITY, 1e-14);
  CHECK(whole == Approx(sigma2).epsilon(1e-10));

  double sum = 0.0;
  for (int l = 1; l <= n; ++l) sum += spectrum(l * dw) * dw;
  const double a = 0.5 * dw, b = (n + 0.5) * dw;
  // Midpoint rule bound (b - a) dw^2 max|S''| / 24, max|S''| from second differences
  // on a grid ten times finer than dw (S is smooth; the grid resolves its peak width).
  double curvature = 0.0;
  for (double w = a; w <= b; w += 0.01 * dw) {
    const double e = 1e-3;
    curvature = std::max(curvature,
                         std::abs(spectrum(w + e) - 2 * spectrum(w) + spectrum(w - e)) / (e * e));
  }
  const double bound = (b - a) * dw * dw * curvature / 24.0;
  const double inside = integral(a, b);
  const double tails = integral(0.0, a) + (sigma2 - integral(0.0, b));
  INFO("sum S dw = " << sum << " (" << sum / sigma2 << " sigma^2), integral over [dw/2, "
                     << b << "] = " << inside << ", tails = " << tails << " ("
                     << tails / sigma2 << " sigma^2), midpoint bound " << bound);
  CHECK(std::abs(sum - inside) <= bound);
  CHECK(std::abs(sum + tails - sigma2) <= bound + 1e-10 * sigma2);
  // How far the sum falls short of sigma^2, for the record (doc/models): about 1.3 %.
  CHECK(sum / sigma2 == Approx(1.0).epsilon(0.03));
}

TEST_CASE("Two-body system with random loading", "[random-loading][two-body]") {
  const auto system = make_system<systems::TwoBodySystem>(
      {{"loading", "random"}, {"seed", "7"}, {"lambda", "0.5"}});
  const RandomLoading load(FilteredNoiseSpectrum{4242.642, 6.0, 5.0}, 100, 0.2, 7);
  REQUIRE(system.random_loading().has_value());
  for (double t : {0.0, 1.3, 25.0}) CHECK(system.force(t) == 0.5 * load(t));
  CHECK(system.forcing_period() == Approx(load.period()).epsilon(1e-15));
  // The load is reported as the output F.
  const libcont::DerivedOutputs* outputs = system.derived_outputs();
  REQUIRE(outputs);
  REQUIRE(outputs->output_names() == std::vector<std::string>{"F"});
  libcont::Vector value(1);
  outputs->outputs(0, 1.3, system.default_initial_state(), value);
  CHECK(value[0] == system.force(1.3));
  // Harmonic loading is untouched by the random parameters.
  const auto harmonic = make_system<systems::TwoBodySystem>({{"seed", "7"}});
  CHECK_FALSE(harmonic.random_loading().has_value());
  CHECK(harmonic.derived_outputs() == nullptr);
  CHECK(harmonic.force(0.0) == 400.0);
  CHECK(harmonic.forcing_period() == Approx(2 * std::numbers::pi / 6.0).epsilon(1e-15));
  // A seed must be a whole number.
  CHECK_THROWS_AS(make_system<systems::TwoBodySystem>({{"loading", "random"}, {"seed", "1.5"}}),
                  libcont::InputError);
  CHECK_THROWS_AS(make_system<systems::TwoBodySystem>({{"loading", "random"}, {"n", "0"}}),
                  libcont::InputError);
  // A trajectory under the random load runs (one load period, Hertz impacts).
  libcont::Flow flow(system);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  test_support::Recorder events;
  REQUIRE(flow.advance(state, system.forcing_period(), &events).ok());
  CHECK(events.count(libcont::EventKind::ContactStart) >= 1);
}
