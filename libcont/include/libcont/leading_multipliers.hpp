#pragma once
// The few Floquet multipliers of largest modulus of a large system, matrix-free
// (doc/theory.md, 6): Arnoldi iteration (Spectra) on the operator v -> D P^n(x*) v,
// each product one integration of a single tangent vector along the orbit, so the n x n
// monodromy is never formed. Stability needs only the multipliers of largest modulus.
#include <string>

#include "libcont/poincare_map.hpp"

namespace libcont {

struct LeadingMultipliers {
  Eigen::VectorXcd multipliers;  // by decreasing modulus
  bool converged = false;
  int products = 0;  // tangent-flow products used
  std::string message;
};

// count: how many multipliers; orbit_point: a point of the orbit on the map's section.
LeadingMultipliers leading_multipliers(StroboscopicMap& map, ConstVectorRef orbit_point,
                                       int period, int count);

}  // namespace libcont
