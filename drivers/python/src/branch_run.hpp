#pragma once
// A traced branch as the package keeps it: the branch, the system it was traced on (as
// its catalogue name and parameter assignments, the continued parameter at the start) and
// the options, so that restarts, switches and two-parameter curves start from it as
// vicont continue --restart and vicont curve --restart do from its saved files.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "configured_system.hpp"
#include "libcont/orbit_branch.hpp"

namespace libcont_python {

// The branch options vicont continue has (--max-points, the arclength steps, --natural,
// --stop-at-grazing, --integrator), defaults as there.
struct BranchSettings {
  long max_points = 2000;
  std::optional<double> initial_step, max_step, min_step, locate_tolerance;
  std::optional<double> corrector_tolerance;
  bool natural = false;
  bool stop_at_grazing = false;
  std::string integrator = "auto";
  std::vector<double> user_values;  // OrbitBranchOptions::user_values
  // The library's options for `parameter` from `from` to `to`, validated.
  libcont::OrbitBranchOptions options(const std::string& parameter, double from, double to) const;
};

struct BranchRun {
  ConfiguredSystem model;     // at the branch's start
  libcont::OrbitBranch branch;
  double from = 0.0, to = 0.0;
  BranchSettings settings;
};

// The columns, special points and status of a branch as a dict of arrays and lists.
pybind11::dict branch_dict(const BranchRun& run);

}  // namespace libcont_python
