#pragma once
// Through a grazing of hard impacts on a branch of periodic orbits (doc/theory.md, 6.3).
// The branch of PeriodicOrbitProblem stops short of a grazing (its Boundary test); the
// passage goes on from that last point:
//  1. Approach: the arriving family is continued in its own grazing coordinate sigma (the
//     grazing impact's speed |v_r| on an impacting family, the gap's minimum on the other,
//     each in the orbit's units: grazing.hpp), in which it is smooth, down a geometric
//     sequence to sigma ~ 1e-4: tens of orbits, never thousands. The shooting equations
//     get one more row, the orbit's signed squared normal speed q (grazing.hpp) at its
//     target, which is smooth across grazing: sigma^2 (impacting) or -c sigma (gap).
//  2. Location: the grazing orbit is sigma = 0, reached by polynomial extrapolation of
//     (x, lambda) through the last orbits of the approach (they are smooth in sigma), each
//     at most 0.9 times the sigma of the one before (closer ones amplify noise); the
//     difference of two extrapolation orders is the error estimate, and the approach goes
//     on until it is below the tolerance.
//  3. Departure: the other family (one impact more or fewer) leaves the grazing orbit with
//     its own coordinate growing from ~1e-4: on the other side of lambda (persistence) or
//     on the same side, turning back (a nonsmooth fold). Its first orbits are continued in
//     sigma up to leave_distance, where arclength continuation takes over.
// Folds, period doublings and Neimark-Sacker points on either way are located by
// bisection in sigma. The penetrating continuation of a non-impacting orbit is never an
// orbit of the passage: every orbit recorded is one of the real flow.
#include <string>
#include <vector>

#include "libcont/grazing.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/branch_point.hpp"

namespace libcont {

// Through the grazing short of which the branch stopped at `start`; the passage's points and
// special points (the grazing: SpecialPointType::Grazing, detail its kind,
// to_string(GrazingKind)).
BoundaryPassage pass_grazing(PeriodicOrbitProblem& problem, const BranchPoint& start,
                             const BoundarySettings& settings, const GrazingPassageOptions& options);

}  // namespace libcont
