// Shooting for the z = 1/2 orbit of the moving-base oscillator, r = 1, eta = 4
// (doc/reproduction.md), and its Floquet multipliers through the library's own
// functions (floquet_multipliers, exponents_from_multipliers,
// floquet_lyapunov_discrepancy). tests/test_lyapunov.cpp already checks a settled
// orbit's monodromy against a long Benettin run; here the orbit comes from Newton
// (single and multiple shooting, which must agree), and the Lyapunov spectrum is
// computed from the shot orbit point.
//
// Exact facts (r = 1: det S = 1 at every impact, divergence -c/m in every mode): the two
// multipliers multiply to exp(-c/m * nT); for a complex pair each has modulus
// exp(-c/m * nT / 2), i.e. both exponents are -c/(2m) = -0.115.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>

#include "libcont/floquet.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::FloquetMultipliers;
using libcont::Matrix;
using libcont::Shooting;
using libcont::ShootingOptions;
using libcont::ShootingResult;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

constexpr double a = 0.0025;  // base amplitude: the scale of the motion
constexpr double c_over_m = 0.23;

ShootingResult shoot(const MovingBaseOscillator& system, const Vector& guess, bool multiple) {
  ShootingOptions options;
  options.multiple = multiple;
  return Shooting(system, 2, options).solve(guess);
}

}  // namespace

TEST_CASE("z = 1/2 orbit at eta = 4: single and multiple shooting agree", "[orbits]") {
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const auto system = make_system<MovingBaseOscillator>(
        {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", "4"}});
    const double period = system.forcing_period();
    // A rough guess: 30 periods of transient from rest leave the motion ~1 % of a off
    // the orbit (contraction exp(-0.23 T) = 0.70 per period).
    const Vector guess = settle(system, 0.0, vec2(0.0, 0.0), 30).x;
    const ShootingResult single = shoot(system, guess, false);
    const ShootingResult multiple = shoot(system, guess, true);
    INFO("single: " << single.reason << " after " << single.iterations
                    << " iterations; multiple: " << multiple.reason << " after "
                    << multiple.iterations);
    REQUIRE(single.converged);
    REQUIRE(multiple.converged);
    CHECK(single.n == 2);
    CHECK(multiple.n == 2);
    CHECK(single.p == 1);  // one impact (hard) or one contact (soft) every two periods
    CHECK(multiple.p == 1);
    CHECK(single.iterations <= 8);
    CHECK(multiple.iterations <= 8);
    // Newton really iterated from a poor guess, and the residual fell monotonically.
    CHECK(single.residual_history.front() > 1e-3 * a);
    for (size_t i = 1; i < single.residual_history.size(); ++i)
      CHECK(single.residual_history[i] < single.residual_history[i - 1]);

    // Same orbit point: both converged to |P^2(x) - x| <= ~1e-12, the map contracts, so
    // the points differ at the map's integration error (~1e-11 m).
    INFO("single x = " << single.x.transpose() << ", multiple x = " << multiple.x.transpose());
    CHECK((single.x - multiple.x).norm() <= 1e-7 * a);
    // It is a fixed point of P^2 but not of P (a true period-2 orbit): to the shooting
    // tolerance on the map shooting used, and to the map's integration error (measured
    // ~1e-11 m hard, ~1e-10 m soft: BDF in the contact) on an independent integration
    // (without the map's extremum and gap monitors, so along other steps).
    Shooting again(system, 2);
    const auto same_map = again.map().iterate(single.x, 2, true);  // as shooting evaluates it
    const ShootingOptions defaults;
    CHECK((same_map.x - single.x).norm() <=
          defaults.absolute_tolerance + defaults.relative_tolerance * single.x.norm());
    const MapResult twice = flow_map(system, FlowOptions{}, 0.0, single.x, 2 * period, false);
    const MapResult once = flow_map(system, FlowOptions{}, 0.0, single.x, period, false);
    INFO("|P^2(x) - x| = " << (same_map.x - single.x).norm() << " (shooting's map), "
                           << (twice.x - single.x).norm() << " (independent integration)");
    CHECK((twice.x - single.x).norm() <= 1e-7 * a);
    CHECK((once.x - single.x).norm() > 0.1 * a);
    // Same monodromy D P^2 (the multiple-shooting one is a product of two D P).
    INFO("single monodromy\n" << single.monodromy << "\nmultiple monodromy\n"
                              << multiple.monodromy);
    CHECK(relative_error(multiple.monodromy, single.monodromy) <= 1e-6);
  }
}

TEST_CASE("z = 1/2 orbit at eta = 4: Floquet multipliers, exponents and Lyapunov spectrum",
          "[orbits]") {
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const auto system = make_system<MovingBaseOscillator>(
        {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", "4"}});
    const double orbit_time = 2 * system.forcing_period();
    const Vector guess = settle(system, 0.0, vec2(0.0, 0.0), 100).x;
    const ShootingResult orbit = shoot(system, guess, false);
    INFO(orbit.reason);
    REQUIRE(orbit.converged);

    const FloquetMultipliers floquet = libcont::floquet_multipliers(orbit.monodromy);
    const auto& mu = floquet.multipliers;
    INFO("multipliers " << mu.transpose());
    REQUIRE(mu.size() == 2);
    CHECK(floquet.stable);
    CHECK(std::abs(mu[0]) >= std::abs(mu[1]));  // sorted by decreasing modulus
    CHECK(floquet.spectral_radius == std::abs(mu[0]));
    // Product: exp(-c/m * 2T) (Liouville, det S = 1).
    const double product = std::exp(-c_over_m * orbit_time);
    CHECK(std::abs(mu[0] * mu[1] - product) <= 1e-8 * product);
    // A complex pair, each of modulus exp(-c/m * T_orbit / 2).
    REQUIRE(std::abs(mu[0].imag()) > 1e-3);
    CHECK(std::abs(mu[0] - std::conj(mu[1])) <= 1e-12);
    const double modulus = std::exp(-c_over_m * orbit_time / 2);
    CHECK(std::abs(std::abs(mu[0]) - modulus) <= 1e-8 * modulus);
    CHECK(std::abs(std::abs(mu[1]) - modulus) <= 1e-8 * modulus);
    // Exponents: both -c/(2m), 1e-9 from Floquet (doc/reproduction.md).
    const Vector exponents = libcont::exponents_from_multipliers(floquet, orbit_time);
    INFO("Floquet exponents " << exponents.transpose());
    REQUIRE(exponents.size() == 2);
    CHECK(std::abs(exponents[0] + c_over_m / 2) <= 1e-9);
    CHECK(std::abs(exponents[1] + c_over_m / 2) <= 1e-9);

    // Benettin from the orbit point (no transient needed), 2000 periods: the same
    // exponents to 1e-3 (the average of a rotating pair converges like 1/t).
    libcont::LyapunovOptions options;
    options.transient_periods = 0;
    options.periods = 2000;
    const auto lyapunov = libcont::LyapunovSpectrum(system, options).compute(0.0, orbit.x);
    REQUIRE(lyapunov.ok());
    CHECK(lyapunov.n == 2);
    CHECK(lyapunov.p == 1);
    const double discrepancy =
        libcont::floquet_lyapunov_discrepancy(floquet, orbit_time, lyapunov.exponents);
    INFO("Lyapunov exponents " << lyapunov.exponents.transpose() << ", discrepancy "
                               << discrepancy);
    CHECK(discrepancy <= 1e-3);
    // The discrepancy is what it says: the largest difference of sorted exponents.
    Vector shifted = lyapunov.exponents;
    shifted[1] += 0.5;  // now above exponent 0: re-sorted inside, still a 0.5-ish gap
    CHECK(libcont::floquet_lyapunov_discrepancy(floquet, orbit_time, shifted) > 0.4);
    CHECK(std::isinf(libcont::floquet_lyapunov_discrepancy(floquet, orbit_time, Vector::Zero(3))));
  }
}
