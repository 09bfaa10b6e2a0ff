#pragma once
// A branch of periodic orbits z = p/n of a forced system in one named parameter, traced
// from an orbit (periodic_orbit_search.hpp) by pseudo-arclength continuation of
// PeriodicOrbitProblem (pseudo_arclength.hpp), with what keeps a branch going where a bare
// run of the engine would stall or creep (vicont continue traces its branches so):
//  - steps and tolerances scaled to the range |to - from| unless given;
//  - the section follows the branch (PeriodicOrbitProblem::recenter); should the branch
//    still stall (StepTooSmall) right after an event crossed its section, where the map is
//    nonsmooth and a step may jump, it is moved to a quiet section (quiet_section,
//    section_placement.hpp) and continued from its last point, up to max_section_moves
//    times;
//  - grazings of hard impacts passed onto the other family (grazing_passage.hpp) or,
//    with stop_at_grazing, ended at;
//  - special points located on the way: folds, period doublings, Neimark-Sacker points,
//    grazings, other changes of the impact count (SpecialPointType);
//  - from a recorded point along its tangent (a restart), and onto the doubled branch of a
//    period doubling (period_doubling_switch.hpp).
// tests/test_orbit_branch.cpp shows it in five lines (doc/library.md, section 9).
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcont/grazing.hpp"
#include "libcont/orbit_point_data.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "libcont/pseudo_arclength.hpp"

namespace libcont {

// Where a branch is, for OrbitBranchOptions::progress.
struct OrbitBranchProgress {
  int points = 0;          // rows of the branch so far
  int special_points = 0;  // special points so far
  double lambda = 0.0;     // the parameter at the last row
  int section_moves = 0;   // moves to a quiet section so far
};

struct OrbitBranchOptions {
  OrbitBranchOptions() = default;
  OrbitBranchOptions(std::string parameter, double from, double to)
      : parameter(std::move(parameter)), from(from), to(to) {}

  std::string parameter;        // the continued parameter, one of the system's
  double from = 0.0, to = 0.0;  // the range: the branch goes towards `to` and ends on its bounds
  // Rows the engine records in one run; a move to a quiet section starts another run from
  // the last row.
  int max_points = 2000;
  // Arclength steps in (state, parameter); by default |to - from| / 100 (initial, at most
  // max_step), / 20 (max) and * 1e-8 (min).
  std::optional<double> initial_step, max_step, min_step;
  // Arclength bracket at which a special point counts as located; by default
  // |to - from| * 1e-9. A grazing is located to 1e-10 |to - from| in the parameter, or to
  // this if finer.
  std::optional<double> locate_tolerance;
  // The corrector's tolerance: |F| <= corrector_tolerance (1 + |u|); by default the
  // engine's (ContinuationOptions). The 1 makes it absolute for orbits much smaller than 1:
  // a fold that turns within a few 1e-9 of such an orbit's size (beside a soft contact's
  // grazing) is resolved only with a smaller one, and a smaller min_step.
  std::optional<double> corrector_tolerance;
  bool natural = false;          // natural-parameter continuation (stops at folds)
  // Values of the parameter at which the branch's orbit is computed and reported as a
  // special point (UserValue, AUTO's user points): ContinuationOptions::user_values.
  std::vector<double> user_values;
  bool stop_at_grazing = false;  // end the branch at its first grazing instead of passing it
  int max_section_moves = 4;
  FlowOptions flow;              // of the orbits' maps and the moves to a quiet section
  GrazingPassageOptions grazing; // how close the passage comes, how far it goes
  // Called whenever rows were added to the branch; none by default.
  std::function<void(const OrbitBranchProgress&)> progress;

  // Whether `value` of the parameter lies in the range from `from` to `to`.
  bool in_range(double value) const {
    return value >= std::min(from, to) && value <= std::max(from, to);
  }
  // The engine's options these give: bounds and direction from the range, the steps and
  // tolerances as above. Not validated.
  ContinuationOptions continuation() const;
  // Throws InputError naming the first field out of its range (an empty parameter, from
  // equal to to, min_step above the initial step, ..., the flow's).
  void validate() const;
};

// The branch: its rows (BranchPoint: state on its own section, parameter, unit tangent,
// test values, point data), special points between them, and how it ended (status,
// stop_reason, ok()).
struct OrbitBranch : ContinuationResult {
  std::string parameter;
  int period = 1;                       // n of the orbits
  std::vector<std::string> data_names;  // of BranchPoint::data and SpecialPoint::data
  int section_moves = 0;                // moves to a quiet section after a stall
  std::string failure;  // the last reason a map could not be evaluated, if any
  // A row's or special point's data by name.
  OrbitPointData orbit(const BranchPoint& point) const {
    return orbit_point_data(data_names, point.data);
  }
  OrbitPointData orbit(const SpecialPoint& point) const {
    return orbit_point_data(data_names, point.data);
  }
};

// The rows i of a branch of periodic orbits (its points' data named by data_names, as
// OrbitBranch::data_names) after which the orbits' stability changes with no special
// point between rows i and i + 1. A fold, a period doubling, a Neimark-Sacker point or a
// grazing explains a change; none means that a step jumped to another sheet of the branch
// (the far side of a sharp fold, which the branch then traces back) or that a bifurcation
// was missed. Either way the branch cannot be trusted there: a smaller max_step shows which.
std::vector<int> unexplained_stability_changes(const ContinuationResult& branch,
                                               const std::vector<std::string>& data_names);

// Each traces the branch towards options.to and leaves the system's continued parameter
// where the last map was evaluated; each throws InputError for bad options or a parameter
// the system does not have.
//
// From an orbit found at parameter = options.from (status StartFailed if none was found).
OrbitBranch trace_orbit_branch(HybridSystem& system, const OrbitSearchResult& start,
                               const OrbitBranchOptions& options);
// From a point x of a z = p/n orbit (n = period) on the section t = phase (mod T) at
// parameter = options.from, corrected there first.
OrbitBranch trace_orbit_branch(HybridSystem& system, int period, double phase, ConstVectorRef x,
                               const OrbitBranchOptions& options);
// From a recorded point with its unit tangent (a row of an earlier branch, on its section
// start.chart), the tangent turned towards options.to: the first step follows it, as the
// earlier branch went on from there. options.from is one end of the range (for a restart
// from a row, usually its parameter).
OrbitBranch trace_orbit_branch_from(HybridSystem& system, int period, BranchPoint start,
                                    const OrbitBranchOptions& options);
// The doubled (2n) branch of a period-doubling point of a branch of period n, in the same
// parameter (status StartFailed, with the reason, if the point has no multiplier near -1).
OrbitBranch trace_doubled_branch(HybridSystem& system, int period, const SpecialPoint& flip,
                                 const OrbitBranchOptions& options);

}  // namespace libcont
