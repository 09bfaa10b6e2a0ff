#pragma once
// Where a branch of z = p/n orbits ran into an orbit of a shorter period d (a divisor of
// n), which PeriodicOrbitProblem::same_family ends the branch at (ContinuationStatus::
// LeftFamily). Usually the branch was born there: at a period doubling of the d-orbit,
// where a multiplier -1 of the d-orbit is a +1 of the branch's n-period map, touching
// without a sign change. It is located on the d-orbit's own branch, continued from the
// point beyond the end back towards the branch's last point: there the multiplier -1 is a
// regular sign change. A step that passed the point (laps_swapped, minimal_period.hpp)
// ends the branch too; the point then lies beyond both ends of the step, and the shorter
// orbit's branch is continued on towards it.
#include <optional>
#include <string>

#include "libcont/flow.hpp"
#include "libcont/pseudo_arclength.hpp"

namespace libcont {

struct OrbitMerge {
  int period = 0;  // d, the shorter orbit's forcing periods
  // Its period doubling between the branch's last point and the point beyond, as a
  // special point of the branch (the n-period orbit's data at it, after_point the last
  // point); none if the two met otherwise (a grazing that halved the orbit's period).
  std::optional<SpecialPoint> point;
  // Where it met a period doubling of the orbit of period n/2 (the usual case): the
  // branch's last row, on the meeting point, its tangent (the eigenvector of the
  // multiplier there, the parameter stationary) pointing on along the doubled orbits.
  std::optional<BranchPoint> row;
};

// For a branch of period n (options: the engine's, for steps and tolerances) that ended
// with LeftFamily, whose problem continued `parameter` on `system` with `flow`.
OrbitMerge locate_orbit_merge(HybridSystem& system, const std::string& parameter,
                              const FlowOptions& flow, int n, const ContinuationResult& branch,
                              ContinuationOptions options);

// Adds the merge's row and period doubling to the branch and says where and into what the
// branch ended in its stop reason.
void record_orbit_merge(ContinuationResult& branch, const OrbitMerge& merge,
                        const std::string& parameter, int n);

}  // namespace libcont
