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
// half_lap, if given, receives P^{n/2}(x) - x for an even n (the first map tried; empty
// for an odd n or a failed map).
int minimal_period(StroboscopicMap& map, ConstVectorRef x, int n, double tolerance = 1e-6,
                   Vector* half_lap = nullptr);

// A branch of z = p/n orbits (n even) born at a period doubling of the orbit of period
// n/2 is, near its birth, a parabola in the parameter whose two halves are the same
// orbits started n/2 periods apart. A step of pseudo-arclength that passes the tip lands
// on the other half and would trace the family again backwards, its tip labelled a fold.
// Across the tip the half-lap difference P^{n/2}(x) - x on one section turns to its
// opposite; a regular step turns it little. True when the differences of two
// consecutive points (of minimal_period's half_lap) point opposite ways, within 60 degrees.
bool laps_swapped(const Vector& before, const Vector& after);

}  // namespace libcont
