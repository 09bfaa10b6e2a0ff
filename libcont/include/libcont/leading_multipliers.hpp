#pragma once
// The few Floquet multipliers of largest modulus of a large system, matrix-free
// (doc/theory.md, 6): Arnoldi iteration (Spectra) on the operator v -> D P^n(x*) v,
// each product one integration of a single tangent vector along the orbit, so the n x n
// monodromy is never formed. Stability needs only the multipliers of largest modulus.
#include <string>

#include "libcont/poincare_map.hpp"
#include "libcont/shooting.hpp"

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

// The multipliers of an orbit found by shooting (period n, on the section t = phase): all
// of them from its monodromy matrix by a dense eigensolve up to full_spectrum_limit state
// dimensions (milliseconds at 200, and no gap in modulus needed, which a uniformly damped
// chain lacks: Arnoldi does not converge there); above it, or without the matrix, the
// leading `count` ones matrix-free.
struct OrbitMultipliers {
  static constexpr int full_spectrum_limit = 1000;
  Eigen::VectorXcd values;  // by decreasing modulus
  bool all = true;          // every multiplier, or only the leading ones
  std::string failure;      // empty unless the Arnoldi iteration failed
};
OrbitMultipliers orbit_multipliers(const HybridSystem& system, const ShootingResult& orbit,
                                   int period, double phase, const FlowOptions& flow,
                                   int count = 6);

}  // namespace libcont
