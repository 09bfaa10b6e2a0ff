// Ateb sine and cosine against the published values (doc/reproduction.md), against the defining
// integral by independent quadrature, and against their symmetries.
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "libcont/ateb.hpp"
#include "libcont/input_error.hpp"

using libcont::AtebFunctions;
using libcont::AtebTrigApproximation;

namespace {

constexpr double pi = std::numbers::pi;
constexpr double infinity = std::numeric_limits<double>::infinity();
const double not_a_number = std::numeric_limits<double>::quiet_NaN();

// eta(u) = integral_0^u dw / sqrt(1 - w^(alpha+1)), by tanh-sinh quadrature, which copes
// with the square-root singularity at w = 1 (and never samples w = 1 itself). Near the
// upper end the integrand is written with the distance to it (tanh_sinh passes it as
// the second argument), so that 1 - w^(alpha+1) does not cancel; the default tolerance
// is sqrt(eps), asked for 1e-15 it gives the integral to rounding.
double defining_integral(double alpha, double u) {
  boost::math::quadrature::tanh_sinh<double> integrator;
  const auto integrand = [alpha, u](double w, double to_end) {
    const double log_w = to_end > 0.0 ? std::log(u) + std::log1p(-to_end / u) : std::log(w);
    return 1.0 / std::sqrt(-std::expm1((alpha + 1.0) * log_w));
  };
  return integrator.integrate(integrand, 0.0, u, 1e-15);
}

// The exponents exercised everywhere: soft and hard springs, the linear case alpha = 1
// (Sa = sin), the source's 5/4, 3/2, 5/3, and a large exponent.
const double exponents[] = {0.5, 1.0, 1.25, 1.5, 5.0 / 3.0, 3.0, 10.0};

}  // namespace

TEST_CASE("Ateb quarter integral I(alpha) matches the reference and its defining integral",
          "[ateb]") {
  // Published values (doc/reproduction.md), printed to 8 digits: half a unit of the last digit.
  CHECK(AtebFunctions(1.5).quarter_integral() == Approx(1.4716376).margin(5e-8));
  CHECK(AtebFunctions(5.0 / 3.0).quarter_integral() == Approx(1.4459275).margin(5e-8));
  for (double alpha : exponents) {
    INFO("alpha = " << alpha);
    const AtebFunctions ateb(alpha);
    CHECK(ateb.quarter_integral() == Approx(defining_integral(alpha, 1.0)).epsilon(1e-13));
    CHECK(ateb.quarter_period() == Approx(0.5 * (1.0 + alpha) * ateb.quarter_integral()));
  }
  CHECK(AtebFunctions(1.0).quarter_integral() == Approx(pi / 2.0).epsilon(1e-15));
}

TEST_CASE("10 Sa(3/2, 1; 5/4 eta) at eta/I = 0.1 ... 0.5 matches the reference table", "[ateb]") {
  const AtebFunctions ateb(1.5);
  const double published[] = {1.46989, 2.92357, 4.33389, 5.66665, 6.88386};
  for (int i = 0; i < 5; ++i) {
    const double fraction = 0.1 * (i + 1);
    INFO("eta/I = " << fraction);
    const double value = 10.0 * ateb.sine(fraction * ateb.quarter_period());
    CHECK(value == Approx(published[i]).margin(1e-5));
    // Ca mirrors Sa about eta/I = 1/2.
    CHECK(10.0 * ateb.cosine((1.0 - fraction) * ateb.quarter_period()) ==
          Approx(value).epsilon(1e-14));
  }
}

TEST_CASE("Ateb sine inverts the defining integral at random points", "[ateb]") {
  std::mt19937_64 random(20240517);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (double alpha : exponents) {
    INFO("alpha = " << alpha);
    const AtebFunctions ateb(alpha);
    double worst = 0.0;
    for (int i = 0; i < 200; ++i) {
      const double u = unit(random);
      const double phi = 0.5 * (1.0 + alpha) * defining_integral(alpha, u);
      worst = std::max(worst, std::abs(ateb.sine(phi) - u));
      // The cosine is the same integral read from the quarter point backwards.
      worst = std::max(worst, std::abs(ateb.cosine(ateb.quarter_period() - phi) - u));
    }
    INFO("largest |Sa(phi(u)) - u| = " << worst);
    CHECK(worst < 2e-15);
  }
}

TEST_CASE("Ateb functions with alpha = 1 are sin and cos over the real line", "[ateb]") {
  const AtebFunctions ateb(1.0);
  for (double phi = -40.0; phi <= 40.0; phi += 0.0373) {
    INFO("phi = " << phi);
    CHECK(ateb.sine(phi) == Approx(std::sin(phi)).margin(1e-14));
    CHECK(ateb.cosine(phi) == Approx(std::cos(phi)).margin(1e-14));
    CHECK(ateb.sine_slope(phi) == Approx(std::cos(phi)).margin(1e-14));
    CHECK(ateb.cosine_slope(phi) == Approx(-std::sin(phi)).margin(1e-14));
  }
}

TEST_CASE("Ateb functions are periodic and signed like sin and cos", "[ateb]") {
  std::mt19937_64 random(7);
  for (double alpha : exponents) {
    INFO("alpha = " << alpha);
    const AtebFunctions ateb(alpha);
    const double quarter = ateb.quarter_period();
    std::uniform_real_distribution<double> phase(-3.0 * ateb.period(), 3.0 * ateb.period());
    CHECK(ateb.sine(0.0) == 0.0);
    CHECK(ateb.sine(quarter) == Approx(1.0).epsilon(1e-15));
    CHECK(ateb.sine(2.0 * quarter) == Approx(0.0).margin(1e-15));
    CHECK(ateb.sine(3.0 * quarter) == Approx(-1.0).epsilon(1e-15));
    CHECK(ateb.cosine(0.0) == 1.0);
    CHECK(ateb.cosine(quarter) == Approx(0.0).margin(1e-15));
    CHECK(ateb.cosine(2.0 * quarter) == Approx(-1.0).epsilon(1e-15));
    for (int i = 0; i < 200; ++i) {
      const double phi = phase(random);
      INFO("phi = " << phi);
      const double sa = ateb.sine(phi), ca = ateb.cosine(phi);
      // The shifted arguments carry a rounding of about eps * |phi| / quarter in quarter
      // periods, so the checks allow a few times that, times the largest slope.
      const double tolerance = 1e-14 * (1.0 + std::abs(phi) / quarter);
      CHECK(ateb.sine(phi + ateb.period()) == Approx(sa).margin(tolerance));
      CHECK(ateb.cosine(phi - ateb.period()) == Approx(ca).margin(tolerance));
      CHECK(ateb.sine(-phi) == -sa);
      CHECK(ateb.cosine(-phi) == ca);
      CHECK(ateb.sine(phi + 2.0 * quarter) == Approx(-sa).margin(tolerance));
      CHECK(ateb.sine(2.0 * quarter - phi) == Approx(sa).margin(tolerance));
      CHECK(ateb.cosine(phi) == Approx(ateb.sine(phi + quarter)).margin(tolerance));
      CHECK(std::abs(sa) <= 1.0);
      CHECK(std::abs(ca) <= 1.0);
    }
  }
}

TEST_CASE("Ateb slopes: the energy integral holds and they match difference quotients",
          "[ateb]") {
  std::mt19937_64 random(11);
  for (double alpha : exponents) {
    INFO("alpha = " << alpha);
    const AtebFunctions ateb(alpha);
    const double half = 0.5 * (1.0 + alpha);
    std::uniform_real_distribution<double> phase(-ateb.period(), ateb.period());
    for (int i = 0; i < 100; ++i) {
      const double phi = phase(random);
      INFO("phi = " << phi);
      for (bool sine : {true, false}) {
        const double value = sine ? ateb.sine(phi) : ateb.cosine(phi);
        const double slope = sine ? ateb.sine_slope(phi) : ateb.cosine_slope(phi);
        // The oscillator's energy: ((1+alpha)/2 d/dphi)^2 + |.|^(alpha+1) = 1 for both.
        CHECK(std::pow(half * slope, 2) + std::pow(std::abs(value), alpha + 1.0) ==
              Approx(1.0).epsilon(1e-13));
        const double h = 1e-5 * ateb.quarter_period();
        const auto f = [&](double p) { return sine ? ateb.sine(p) : ateb.cosine(p); };
        const double quotient = (f(phi + h) - f(phi - h)) / (2.0 * h);
        // Central differences: error ~ h^2 f''' / 6, except where the second derivative
        // |x|^alpha is not smooth (near the zeros, for alpha < 2): there h^alpha.
        CHECK(slope == Approx(quotient).margin(1e-6));
      }
    }
  }
}

TEST_CASE("Ca^2 + Sa^(alpha+1) = 1 holds only in the linear case", "[ateb]") {
  // With Ca the quarter-shifted Sa (the reference's convention), the Pythagorean-type
  // identity of some Ateb conventions does not hold: it is tested here so that nobody
  // relies on it.
  for (double alpha : exponents) {
    const AtebFunctions ateb(alpha);
    const double phi = 0.5 * ateb.quarter_period();
    const double sum =
        std::pow(ateb.cosine(phi), 2) + std::pow(ateb.sine(phi), alpha + 1.0);
    INFO("alpha = " << alpha << ", Ca^2 + Sa^(alpha+1) = " << sum);
    if (alpha == 1.0)
      CHECK(sum == Approx(1.0).epsilon(1e-15));
    else
      CHECK(std::abs(sum - 1.0) > 1e-3);
  }
}

TEST_CASE("Ateb functions keep full relative precision at their zeros", "[ateb]") {
  for (double alpha : exponents) {
    INFO("alpha = " << alpha);
    const AtebFunctions ateb(alpha);
    const double slope = 2.0 / (1.0 + alpha);  // d Sa / d phi at 0
    for (double small : {1e-300, 1e-100, 1e-12}) {
      CHECK(ateb.sine(small) == Approx(slope * small).epsilon(1e-14));
      CHECK(ateb.sine(-small) == Approx(-slope * small).epsilon(1e-14));
    }
    // Near the cosine's zero the phase is the difference quarter - phi: a quarter period
    // minus a few ulps of it still has the cosine's leading term to rounding.
    const double quarter = ateb.quarter_period();
    const double below = std::nextafter(std::nextafter(quarter, 0.0), 0.0);
    CHECK(ateb.cosine(below) == Approx(slope * (quarter - below)).epsilon(1e-12));
  }
}

TEST_CASE("Trigonometric approximation: B, C and its error bound for alpha = 3/2", "[ateb]") {
  const AtebFunctions exact(1.5);
  const AtebTrigApproximation approximation(exact);
  // Printed to 6 and 8 decimals: half a unit of the last printed digit.
  CHECK(approximation.b() == Approx(-0.026137).margin(5e-7));
  CHECK(approximation.c() == Approx(-0.0020705).margin(5e-8));
  double worst_sine = 0.0, worst_cosine = 0.0;
  const int points = 20000;
  for (int i = 0; i <= points; ++i) {
    const double phi = exact.quarter_period() * i / points;
    worst_sine = std::max(worst_sine, std::abs(approximation.sine(phi) - exact.sine(phi)));
    worst_cosine =
        std::max(worst_cosine, std::abs(approximation.cosine(phi) - exact.cosine(phi)));
  }
  INFO("largest error: sine " << worst_sine << ", cosine " << worst_cosine);
  CHECK(worst_sine <= 3.4e-4);
  CHECK(worst_cosine <= 3.4e-4);
  // Exact where B and C were fitted: the middle and the eighth of the quarter.
  CHECK(approximation.sine(0.5 * exact.quarter_period()) ==
        Approx(exact.sine(0.5 * exact.quarter_period())).epsilon(1e-15));
  CHECK(approximation.sine(0.25 * exact.quarter_period()) ==
        Approx(exact.sine(0.25 * exact.quarter_period())).epsilon(1e-15));
  // Signed and periodic like the exact function.
  for (double phi : {-2.3, 0.7, 5.1, 11.9}) {
    CHECK(approximation.sine(phi) == Approx(exact.sine(phi)).margin(3.4e-4));
    CHECK(approximation.cosine(phi) == Approx(exact.cosine(phi)).margin(3.4e-4));
  }
}

TEST_CASE("Ateb functions reject bad input, naming it", "[ateb][bad-input]") {
  using Catch::Matchers::Contains;
  for (double alpha : {0.0, -1.5, not_a_number, infinity})
    CHECK_THROWS_WITH(AtebFunctions(alpha), Contains("alpha"));
  const AtebFunctions ateb(1.5);
  for (double phi : {not_a_number, infinity, -infinity}) {
    CHECK_THROWS_WITH(ateb.sine(phi), Contains("phi"));
    CHECK_THROWS_WITH(ateb.cosine(phi), Contains("phi"));
    CHECK_THROWS_AS(ateb.sine_slope(phi), libcont::InputError);
    CHECK_THROWS_AS(AtebTrigApproximation(ateb).sine(phi), libcont::InputError);
  }
}
