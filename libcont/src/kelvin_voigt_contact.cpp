#include "libcont/kelvin_voigt_contact.hpp"

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <numbers>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

void check_restitution(double r) {
  if (!(r > 0.0 && r <= 1.0))
    throw InputError("restitution coefficient r must lie in (0, 1] for an equivalent contact "
                     "damping (got " + number_text(r) + ")");
}

// The approximate relation as a function of zeta = beta / lambda_s.
double approximate_restitution(double zeta) {
  const double loss = (1.0 + zeta * zeta) * (1.0 - std::exp(-2.0 * std::numbers::pi * zeta));
  return loss >= 1.0 ? 0.0 : std::sqrt(1.0 - loss);
}

}  // namespace

std::string to_string(EnergyRelation relation) {
  return relation == EnergyRelation::Exact ? "exact" : "approximate";
}

double damping_ratio_for_restitution(double r, EnergyRelation relation) {
  check_restitution(r);
  if (r == 1.0) return 0.0;
  const double log_r = std::log(r);
  if (relation == EnergyRelation::Exact)
    return -log_r / std::sqrt(std::numbers::pi * std::numbers::pi + log_r * log_r);
  // Solve r'(zeta) = r; r' falls monotonically from 1 at zeta = 0 on the bracket used.
  const auto f = [r](double zeta) { return approximate_restitution(zeta) - r; };
  double upper = 0.01;
  while (f(upper) > 0.0) {
    upper *= 2.0;
    if (upper > 10.0) throw InputError("no approximate-relation damping for r = " + number_text(r));
  }
  boost::math::tools::eps_tolerance<double> tol(50);
  std::uintmax_t iterations = 200;
  const auto [lo, hi] = boost::math::tools::toms748_solve(f, 0.0, upper, tol, iterations);
  const double zeta = 0.5 * (lo + hi);
  return zeta / std::sqrt(1.0 + zeta * zeta);  // zeta = xi / sqrt(1 - xi^2)
}

double contact_damping_for_restitution(double r, double stiffness, double mass,
                                       EnergyRelation relation) {
  if (!(stiffness > 0.0)) throw InputError("contact stiffness must be positive");
  if (!(mass > 0.0)) throw InputError("mass must be positive");
  return 2.0 * damping_ratio_for_restitution(r, relation) * std::sqrt(stiffness * mass);
}

double restitution_for_contact(double stiffness, double damping, double mass,
                               EnergyRelation relation) {
  const double beta = damping / (2.0 * mass);
  const double lambda_squared = stiffness / mass - beta * beta;
  if (!(lambda_squared > 0.0)) return 0.0;  // overdamped: no rebound
  const double zeta = beta / std::sqrt(lambda_squared);
  return relation == EnergyRelation::Exact ? std::exp(-std::numbers::pi * zeta)
                                           : approximate_restitution(zeta);
}

}  // namespace libcont
