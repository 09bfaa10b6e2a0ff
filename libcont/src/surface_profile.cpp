#include "libcont/surface_profile.hpp"

#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <numbers>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

// Q = (1 - nu^2) / E: the body's share of the plane-strain compliance.
double plane_strain_compliance(const ElasticBody& body, const char* which) {
  require_positive(body.young_modulus,
                   elastic_constant_name(body.young_name, "Young's modulus", which));
  if (!(body.poisson_ratio >= 0.0 && body.poisson_ratio <= 0.5))
    throw InputError(elastic_constant_name(body.poisson_name, "Poisson ratio", which) +
                     " must lie in [0, 0.5] (got " + number_text(body.poisson_ratio) + ")");
  return (1.0 - body.poisson_ratio * body.poisson_ratio) / body.young_modulus;
}

}  // namespace

double profile_force_exponent(const SurfaceProfile& profile) {
  require_positive(profile.exponent, "surface profile exponent n");
  return 1.0 + 1.0 / profile.exponent;
}

double profile_contact_stiffness(const SurfaceProfile& profile, const ElasticBody& first,
                                 const ElasticBody& second) {
  require_positive(profile.exponent, "surface profile exponent n");
  require_positive(profile.coefficient, "surface profile coefficient A");
  const double n = profile.exponent;
  const double compliance =
      plane_strain_compliance(first, "first") + plane_strain_compliance(second, "second");
  // The penetration of a profile A r^n at contact radius a is kappa_n A a^n; integrating
  // the pressure gives F = 2 n/(n+1) a delta / (Q1 + Q2), and eliminating a gives c.
  const double kappa =
      std::sqrt(std::numbers::pi) * boost::math::tgamma_ratio(0.5 * n + 1.0, 0.5 * n + 0.5);
  return 2.0 * n / (n + 1.0) / compliance * std::pow(kappa * profile.coefficient, -1.0 / n);
}

}  // namespace libcont
