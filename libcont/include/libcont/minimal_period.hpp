#pragma once
// The minimal period of a periodic orbit given as a fixed point of the n-th stroboscopic
// map: an orbit of period d traversed n/d times is a fixed point of P^n as well, with the
// same points and its multipliers raised to the power n/d, so that its period doublings
// show there as multipliers touching +1 (no special point). Continuation of z = p/n orbits
// checks with this that it has not strayed onto such an orbit (PeriodicOrbitProblem::
// same_family).
#include "libcont/poincare_map.hpp"

namespace libcont {

// The fewest forcing periods d, a divisor of n, after which the orbit through x on the
// map's section closes: |P^d(x) - x| <= tolerance |x|. n if it closes after no proper
// divisor of n, or if a map fails.
int minimal_period(StroboscopicMap& map, ConstVectorRef x, int n, double tolerance = 1e-6);

}  // namespace libcont
