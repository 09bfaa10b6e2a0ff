#pragma once
// Hertz power-law contact: F = K delta^alpha for penetration delta > 0
// (alpha = 3/2 for spheres), with K from the elastic constants of the two bodies:
//   K = (4/3) q / ((d1 + d2) sqrt(A + B)),  d_i = (1 - mu_i^2) / (pi E_i),
// A, B the curvature constants of the contacting surfaces and q a tabulated function of
// A/B, q(A/B = 1) = 0.318.
#include <string>
#include <string_view>
#include <cmath>

namespace libcont {

struct ElasticBody {
  double young_modulus = 0.0;  // E
  double poisson_ratio = 0.0;  // mu
  // The model's names of the two (messages name them); empty: "the first body's ...".
  std::string_view young_name = {}, poisson_name = {};
};

// How messages name a constant of a body: "parameter 'mu1' (Poisson ratio of the first
// body)", or without a model name "Poisson ratio of the first body".
std::string elastic_constant_name(std::string_view name, const char* what, const char* which);

// Throws InputError naming the bad constant.
double hertz_stiffness(const ElasticBody& first, const ElasticBody& second, double curvature_a,
                       double curvature_b, double q = 0.318);

struct HertzContact {
  double stiffness = 0.0;  // K
  double exponent = 1.5;   // alpha
  // Viscous term c delta' added while in contact (a damped Hertz contact); 0: elastic.
  double damping = 0.0;

  // For the spheres' alpha = 3/2, delta sqrt(delta) instead of pow: the same to an ulp and
  // about ten times cheaper, and the contact force is evaluated at every stage of every
  // step (pow was 14 % of a loading curve's time).
  double force(double penetration) const {
    if (!(penetration > 0.0)) return 0.0;
    return stiffness * (exponent == 1.5 ? penetration * std::sqrt(penetration)
                                        : std::pow(penetration, exponent));
  }
  // With the viscous term: K delta^alpha + c delta' in the closed contact. The viscous
  // term is not cut at delta = 0: the closed mode's field there is its limit from inside,
  // as the flow enters and leaves the mode on the surface (to rounding, on either side),
  // so that the saltation matrices at entry and exit both see the field's jump c delta'
  // (cut there, one of them would see none of it).
  double force(double penetration, double penetration_rate) const {
    return force(penetration) + damping * penetration_rate;
  }
  // Energy stored at penetration delta, K delta^(alpha + 1) / (alpha + 1) (energy balances).
  double stored_energy(double penetration) const {
    return penetration > 0.0
               ? stiffness * std::pow(penetration, exponent + 1.0) / (exponent + 1.0)
               : 0.0;
  }
  // dF/d(delta); continuous at delta = 0 for alpha > 1.
  double force_slope(double penetration) const {
    if (!(penetration > 0.0)) return 0.0;
    return exponent * stiffness *
           (exponent == 1.5 ? std::sqrt(penetration) : std::pow(penetration, exponent - 1.0));
  }
};

}  // namespace libcont
