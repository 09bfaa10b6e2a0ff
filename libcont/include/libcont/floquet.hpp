#pragma once
// Floquet multipliers of a periodic orbit: the eigenvalues of its saltation-corrected
// monodromy matrix (doc/theory.md, 6), and the cross-check against Lyapunov exponents,
// lambda_k = ln|mu_k| / (n T).
#include <Eigen/Eigenvalues>

#include "libcont/types.hpp"

namespace libcont {

struct FloquetMultipliers {
  Eigen::VectorXcd multipliers;  // sorted by decreasing modulus
  double spectral_radius = 0.0;
  bool stable = false;  // all strictly inside the unit circle
};

FloquetMultipliers floquet_multipliers(ConstMatrixRef monodromy);

// Lyapunov exponents implied by the multipliers of an orbit of period `orbit_time`
// (= n T), sorted descending.
Vector exponents_from_multipliers(const FloquetMultipliers& floquet, double orbit_time);

// Largest absolute difference between the exponents implied by the multipliers and a
// Lyapunov spectrum computed independently (both sorted descending).
double floquet_lyapunov_discrepancy(const FloquetMultipliers& floquet, double orbit_time,
                                    ConstVectorRef lyapunov_exponents);

}  // namespace libcont
