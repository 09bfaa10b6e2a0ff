// The forcing by rotation (libcont/harmonic_phase.hpp): cos(w t) and sin(w t) from a
// kept pair rotated through a small exact remainder, against std::cos and std::sin over
// long runs, and the same bits for the same t whatever was evaluated before.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "libcont/harmonic_phase.hpp"
#include "systems/two_body.hpp"

using libcont::detail::harmonic_phase;

namespace {

// The rounding std::cos(w * t) itself carries: that of its argument w t (half an ulp of
// it, times |d cos/dx| <= 1) and of its result.
double argument_rounding(double w, double t) {
  return std::numeric_limits<double>::epsilon() * (std::abs(w * t) + 1.0);
}

}  // namespace

TEST_CASE("Forcing by rotation: cos and sin of w t to rounding over 10^5 periods",
          "[harmonic-phase]") {
  for (const double w : {6.0, 1.0, 0.37, 41.3}) {
    const double period = 2.0 * M_PI / w;
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> uniform(0.0, 1e5 * period);
    double worst = 0.0;
    // Stage-like clusters: a base time and times within a step of it, as an explicit
    // pair asks for them, and jumps to anywhere in the run between clusters.
    for (int cluster = 0; cluster < 2000; ++cluster) {
      const double base = uniform(random);
      for (const double offset : {0.0, 1e-9, 3e-6, 7e-6, 1e-4, 2e-3, 1e-2, -5e-3}) {
        const double t = base + offset;
        const auto phase = harmonic_phase(w, t);
        const double scale = argument_rounding(w, t);
        worst = std::max(worst, std::abs(phase.cosine - std::cos(w * t)) / scale);
        worst = std::max(worst, std::abs(phase.sine - std::sin(w * t)) / scale);
      }
    }
    INFO("w = " << w << ": largest difference " << worst << " of the argument's rounding");
    CHECK(worst <= 4.0);
  }
}

TEST_CASE("Forcing by rotation: the whole number nearest the argument, as std::nearbyint",
          "[harmonic-phase]") {
  using libcont::detail::nearest_whole;
  std::mt19937_64 random(3);
  // Arguments from tiny to the split's range (2^49 / 16 = 2^45 and beyond), both signs.
  std::uniform_real_distribution<double> exponent(-8.0, 50.0), unit(-1.0, 1.0);
  for (int k = 0; k < 200000; ++k) {
    const double x = unit(random) * std::exp2(exponent(random));
    CAPTURE(x);
    REQUIRE(nearest_whole(x) == std::nearbyint(x));  // +0 and -0 compare equal
  }
  // Ties go to the even neighbour, as nearbyint's default rounding; whole numbers stay.
  for (const double x : {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e6 + 0.5, 1125899906842625.5,
                         -1125899906842624.5, 3.0, -7.0, 0.0, 0.49999999999999994}) {
    CAPTURE(x);
    CHECK(nearest_whole(x) == std::nearbyint(x));
  }
  // Beyond 2^51 a number as large (harmonic_phase then takes std::cos and std::sin).
  for (const double x : {std::exp2(51.0), -std::exp2(52.0) * 1.25, 1e300})
    CHECK(std::abs(nearest_whole(x)) >= std::exp2(49.0));
  CHECK(std::isnan(nearest_whole(NAN)));
  CHECK(!(std::abs(nearest_whole(INFINITY)) < std::exp2(49.0)));
}

TEST_CASE("Forcing by rotation: the same t gives the same bits, whatever came before",
          "[harmonic-phase]") {
  const double w = 6.0;
  const double t = 1234.5678901;
  const auto first = harmonic_phase(w, t);
  for (const double before : {0.0, t - 1e-3, t + 0.2, 1e6, -3.0}) {
    (void)harmonic_phase(w, before);
    const auto again = harmonic_phase(w, t);
    CHECK(again.cosine == first.cosine);
    CHECK(again.sine == first.sine);
  }
  // Small and negative arguments, and zero.
  for (const double s : {0.0, 1e-300, -2.5, -1e4}) {
    const auto phase = harmonic_phase(w, s);
    CHECK(std::abs(phase.cosine - std::cos(w * s)) <= 4.0 * argument_rounding(w, s));
    CHECK(std::abs(phase.sine - std::sin(w * s)) <= 4.0 * argument_rounding(w, s));
  }
}

TEST_CASE("Forcing by rotation: the two-body field carries lambda F0 cos(omega t)",
          "[harmonic-phase][two-body]") {
  systems::TwoBodySystem system;
  system.set_parameter("lambda", 0.8);
  const auto& p = system.parameters();
  const double m1 = p["m1"], f0 = p["F0"], omega = p["omega"];
  libcont::Vector x(4), rest(4), with_load(4);
  x << 0.01, 0.05, 0.1, -0.2;
  // Apart from the load the field does not depend on t: its change from t = 0 to t is
  // the load's, lambda F0 / m1 (cos(omega t) - 1) in v1'.
  for (const double t : {0.0, 0.3, 17.25, 2671.26, 1e5 + 0.1}) {
    system.vector_field(systems::TwoBodySystem::Free, t, x, with_load);
    system.vector_field(systems::TwoBodySystem::Free, 0.0, x, rest);
    const double expected = 0.8 * f0 / m1 * (std::cos(omega * t) - 1.0);
    INFO("t = " << t);
    CHECK(std::abs((with_load[2] - rest[2]) - expected) <=
          1e-15 * (0.8 * f0 / m1) * (std::abs(omega * t) + 1.0) + 1e-15 * std::abs(rest[2]));
    CHECK(with_load[3] == rest[3]);
  }
}
