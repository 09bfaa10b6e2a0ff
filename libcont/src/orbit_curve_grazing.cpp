#include "libcont/orbit_curve_problem.hpp"

namespace libcont {

BoundaryPassage OrbitCurveProblem::pass_boundary(int, const BranchPoint&, const BoundarySettings&) {
  return {};
}

}  // namespace libcont
