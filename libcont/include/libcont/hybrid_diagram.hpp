#pragma once
// Hybrid bifurcation diagram (doc/sweeps.md): continuation where a stable
// periodic orbit exists, direct integration with the Lyapunov spectrum where none does,
// in one result.
//
// Along the parameter grid (from -> to) the settled motion is integrated from the last
// state (following the attractor, as Sweep::compute_point). Where it is periodic (z = p/n,
// n <= max_detected_period) the orbit is found by shooting; if it is stable, its branch is
// continued by pseudo-arclength (PeriodicOrbitProblem) to the end of the range or until
// continuation stops — past its loss of stability, so the unstable part and every special
// point (fold, period doubling, Neimark-Sacker, grazing, impact-signature change) are
// recorded. Grid points where the branch is stable are not integrated; integration
// resumes at the first grid point past the loss of stability, from the orbit's state
// there, and may find the next stable orbit (the doubled one after a period doubling) or
// a chaotic band. A branch that runs back through the period doubling where it was born
// (and would go on as the shorter orbit traversed twice) ends there, at that doubling.
// Where integration settles on a stable orbit that lies on a branch already continued
// (which regained its stability past a special point, or was found further on before),
// that branch is not continued again: the grid points on its stable stretch from there
// are skipped as well, and the stretch is recorded on the branch (DiagramBranch::rejoined).
//
// Sequential by nature (each step starts where the last ended): no thread pool.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "libcont/sweep.hpp"

namespace libcont {

struct HybridDiagramOptions {
  // The options of `vicont diagram` over [from, to]: 61 grid values, 500 transient and 500
  // averaged periods, 50 kept samples, and branches with the scale-free steps of `vicont
  // continue` (initial |to - from| / 100, at most max_step; max |to - from| / 20; min
  // |to - from| * 1e-8; special points located to |to - from| * 1e-9): nonsmooth branches
  // end at corners (grazing) where the step must shrink far below the span.
  static HybridDiagramOptions for_range(std::string parameter, double from, double to,
                                        std::optional<double> initial_step = {},
                                        std::optional<double> max_step = {});

  std::string parameter;
  double from = 0.0, to = 0.0;
  int steps = 101;             // integration grid, both ends included
  Vector initial_state;        // empty: default_initial_state()
  LyapunovOptions lyapunov;    // per integration point: transient, averaged periods, max n
  int kept_samples = 100;      // Poincare samples kept per integration point
  // Step sizes, point budget, tolerances. The parameter bounds and direction are set
  // from `from` and `to`.
  ContinuationOptions continuation;
  ShootingOptions shooting;
  // Called as the sweep moves on with the integration grid points passed (computed, or
  // skipped along a stable branch) and the points in all; none by default.
  std::function<void(int done, int total)> progress;
};

// A branch of periodic orbits started where integration settled on a stable orbit.
struct DiagramBranch {
  int n = 1;                  // forcing periods of the orbits
  int p = 0;                  // impacts per orbit where it was found
  double found_at = 0.0;      // the parameter value where it was found
  // Where it stopped being stable, going from `found_at` in the sweep direction, and why:
  // the special point's type by name (SpecialPoint::type_name: "period-doubling", "fold",
  // "neimark-sacker", "grazing", "impact-signature"), "stability lost" when no special
  // point was located there, "range end" or "branch ended" (continuation stopped while the
  // orbit was stable).
  double stable_until = 0.0;
  std::string lost_by;
  Vector last_stable_state;   // the orbit at its last stable branch point, on t = 0 (mod T)
  ContinuationResult branch;  // every point (stable and unstable) and special point
  // Per branch point and per special point: the orbit at t = 0, T, ..., (n - 1) T (mod
  // nT), a column each, where the integration's Poincare samples lie. A branch point
  // lies on its own section, which continuation moves off the orbit's events
  // (section_placement.hpp): drawn on it, a branch jumps where the section moves and
  // misses the samples it stands for. NaN where the flow fails.
  std::vector<Matrix> stroboscopic, special_stroboscopic;
  std::vector<std::string> data_names;  // of BranchPoint::data (PeriodicOrbitProblem)
  bool stable(const BranchPoint& point) const;  // spectral radius < 1
  // Later stable stretches where integration settled on this branch's orbits again: the
  // grid value it settled at, and where the stretch ended and why (as stable_until and
  // lost_by).
  struct Rejoin {
    double at = 0.0, stable_until = 0.0;
    std::string lost_by;
  };
  std::vector<Rejoin> rejoined;
};

struct HybridDiagramResult {
  std::vector<DiagramBranch> branches;
  std::vector<SweepPoint> integration;  // direct-integration points, in the order computed
  int failed = 0;                       // integration points whose flow failed
};

class HybridDiagram {
 public:
  // Validates (InputError naming the item) as Sweep does; the system must be forced.
  HybridDiagram(SystemFactory factory, HybridDiagramOptions options);
  HybridDiagramResult compute() const;

 private:
  // Continues the branch of the stable orbit `orbit` (a point on the section) from the
  // parameter value `start`; fills in where it stopped being stable.
  DiagramBranch follow_branch(const ShootingResult& orbit, int n, double start) const;

  SystemFactory factory_;
  HybridDiagramOptions options_;
  Sweep integrator_;  // the direct-integration points, one at a time
};

}  // namespace libcont
