#include "libcont/ateb.hpp"

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

void require_finite_argument(double phi) {
  if (!std::isfinite(phi))
    throw InputError("Ateb function argument phi must be finite (got " + number_text(phi) +
                     ")");
}

// The phase phi >= 0 split into its quadrant k (0..3, periodic) and the fractions f and
// e = 1 - f of the quarter period from the quadrant's start and end. The remainder
// phi - k quarter is formed exactly (fma), and e from it by an exact subtraction
// wherever e <= 1/2, so that both keep full relative precision where they are small: the
// functions then have their full relative precision at their zeros too.
struct Quadrant {
  int k;
  double f;
  double e;
};

Quadrant quadrant_of(double phi, double quarter) {
  double k = std::floor(phi / quarter);
  double rest = std::fma(-k, quarter, phi);
  // The quotient may have rounded across a quadrant boundary.
  if (rest < 0.0) {
    k -= 1.0;
    rest = std::fma(-k, quarter, phi);
  } else if (rest >= quarter) {
    k += 1.0;
    rest = std::fma(-k, quarter, phi);
  }
  // Beyond 2^53 quarter periods the phase carries no digits at all; stay in the domain.
  rest = std::clamp(rest, 0.0, quarter);
  return {static_cast<int>(std::fmod(k, 4.0)), rest / quarter, (quarter - rest) / quarter};
}

}  // namespace

AtebFunctions::AtebFunctions(double alpha) : alpha_(alpha) {
  if (!(alpha > 0.0) || !std::isfinite(alpha))
    throw InputError("Ateb exponent alpha must be finite and > 0 (got " + number_text(alpha) +
                     ")");
  const double a = 1.0 / (alpha + 1.0);
  // I = B(a, 1/2) / (alpha + 1), written with tgamma_ratio for full precision when
  // a is small (large alpha), where the two gammas grow large together.
  quarter_integral_ = std::sqrt(std::numbers::pi) * boost::math::tgamma_ratio(a, a + 0.5) * a;
  quarter_period_ = 0.5 * (1.0 + alpha) * quarter_integral_;
}

AtebFunctions::QuarterValue AtebFunctions::first_quarter(double p, double q) const {
  const double a = 1.0 / (alpha_ + 1.0);
  // Near the zero, I_y(a, 1/2) = (y^a / (a B(a, 1/2))) (1 + O(y)) gives u = I p with a
  // relative error of order u^(alpha+1): below rounding once that is under 1e-17. Used
  // there, it also keeps y = u^(alpha+1) from underflowing for tiny phases.
  const double leading = quarter_integral_ * p;
  if (p <= q && std::pow(leading, alpha_ + 1.0) < 1e-17) return {leading, 2.0 * a};
  // y = u^(alpha+1) solves I_y(a, 1/2) = p; Boost also returns 1 - y to full precision,
  // which the slope needs near the quarter point (u -> 1).
  double one_minus_y = 0.0;
  const double y = p <= q ? boost::math::ibeta_inv(a, 0.5, p, &one_minus_y)
                          : boost::math::ibetac_inv(a, 0.5, q, &one_minus_y);
  return {std::pow(y, a), 2.0 * a * std::sqrt(one_minus_y)};
}

AtebFunctions::QuarterValue AtebFunctions::evaluate(double phi, int quadrant_shift) const {
  require_finite_argument(phi);
  // Work on |phi| (Sa odd, Ca even) so that small negative phases keep their precision.
  const Quadrant quadrant = quadrant_of(std::abs(phi), quarter_period_);
  const int k = (quadrant.k + quadrant_shift) % 4;
  // Rising quadrants (0, 2) run from the start of the quarter, falling ones (1, 3) from
  // its end; the second half period is the first one negated.
  const bool rising = k % 2 == 0;
  QuarterValue v = rising ? first_quarter(quadrant.f, quadrant.e)
                          : first_quarter(quadrant.e, quadrant.f);
  if (k >= 2) v.value = -v.value;
  if (k == 1 || k == 2) v.slope = -v.slope;
  if (phi < 0.0) {
    if (quadrant_shift == 0)
      v.value = -v.value;  // Sa is odd, its slope even
    else
      v.slope = -v.slope;  // Ca is even, its slope odd
  }
  return v;
}

double AtebFunctions::sine(double phi) const { return evaluate(phi, 0).value; }
double AtebFunctions::cosine(double phi) const { return evaluate(phi, 1).value; }
double AtebFunctions::sine_slope(double phi) const { return evaluate(phi, 0).slope; }
double AtebFunctions::cosine_slope(double phi) const { return evaluate(phi, 1).slope; }

AtebTrigApproximation::AtebTrigApproximation(const AtebFunctions& exact)
    : quarter_period_(exact.quarter_period()) {
  constexpr double pi = std::numbers::pi;
  b_ = std::asin(exact.sine(0.5 * quarter_period_)) - pi / 4.0;
  c_ = std::asin(exact.sine(0.25 * quarter_period_)) - pi / 8.0 - b_ * std::sin(pi / 4.0);
}

double AtebTrigApproximation::sine(double phi) const {
  require_finite_argument(phi);
  // s = eta / I: quarter periods. Reduced exactly first, so that large phases do not
  // lose digits inside the sines.
  const double s = std::fmod(phi / quarter_period_, 4.0);
  constexpr double pi = std::numbers::pi;
  return std::sin(pi * s / 2.0 + b_ * std::sin(pi * s) + c_ * std::sin(2.0 * pi * s));
}

double AtebTrigApproximation::cosine(double phi) const {
  require_finite_argument(phi);
  const double s = std::fmod(phi / quarter_period_, 4.0);
  constexpr double pi = std::numbers::pi;
  return std::cos(pi * s / 2.0 - b_ * std::sin(pi * s) + c_ * std::sin(2.0 * pi * s));
}

}  // namespace libcont
