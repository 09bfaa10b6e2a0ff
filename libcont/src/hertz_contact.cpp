#include "libcont/hertz_contact.hpp"

#include <numbers>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

double compliance(const ElasticBody& body, const char* which) {
  if (!(body.young_modulus > 0.0) || !std::isfinite(body.young_modulus))
    throw InputError(elastic_constant_name(body.young_name, "Young's modulus", which) +
                     " must be positive and finite (got " + number_text(body.young_modulus) + ")");
  if (!(body.poisson_ratio >= 0.0 && body.poisson_ratio < 0.5))
    throw InputError(elastic_constant_name(body.poisson_name, "Poisson ratio", which) +
                     " must lie in [0, 0.5) (got " + number_text(body.poisson_ratio) + ")");
  return (1.0 - body.poisson_ratio * body.poisson_ratio) / (std::numbers::pi * body.young_modulus);
}

}  // namespace

std::string elastic_constant_name(std::string_view name, const char* what, const char* which) {
  const std::string described = std::string(what) + " of the " + which + " body";
  return name.empty() ? described : "parameter '" + std::string(name) + "' (" + described + ")";
}

double hertz_stiffness(const ElasticBody& first, const ElasticBody& second, double curvature_a,
                       double curvature_b, double q) {
  if (!(curvature_a > 0.0 && curvature_b > 0.0))
    throw InputError("Hertz curvature constants A and B must be positive");
  if (!(q > 0.0)) throw InputError("Hertz coefficient q must be positive");
  const double d = compliance(first, "first") + compliance(second, "second");
  return (4.0 / 3.0) * q / (d * std::sqrt(curvature_a + curvature_b));
}

}  // namespace libcont
