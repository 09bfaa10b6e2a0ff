#pragma once
// Branch switching at a period-doubling point: the orbit of type p/n with a
// Floquet multiplier at -1 is, for the doubled map P^(2n), a symmetric pitchfork; the
// doubled (2n) branch leaves it along the multiplier's eigenvector e with the parameter
// stationary. The start returned here, (u*, lambda*) with tangent (e, 0), feeds
// PseudoArclength::run_from on a PeriodicOrbitProblem of period 2n.
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"

namespace libcont {

// `problem` is the period-n problem on which `point` was located (it is put on the
// point's section, its chart); the result is the start of the period-2n branch, on the
// same section (run_from puts the 2n problem there). Throws InputError if the monodromy there has no real
// multiplier near -1 (not a period-doubling point).
BranchPoint doubled_branch_start(PeriodicOrbitProblem& problem, const SpecialPoint& point);

}  // namespace libcont
