#pragma once
// The arclength step options that `continue` and `curve` share (--initial-step,
// --max-step, --min-step, --locate-tolerance): unset, the library's defaults on the scale
// of the range apply.
#include <optional>
#include <string>

#include "run_options.hpp"

namespace vicont {

struct ArclengthSteps {
  std::optional<double> initial_step, max_step, min_step, locate_tolerance;

  // `located`: what --locate-tolerance locates ("a special point").
  void add_options(RunOptions& options, const std::string& located) {
    options.add_positive_number("initial-step", initial_step,
                                "first arclength step (default: |to - from| / 100)");
    options.add_positive_number("max-step", max_step,
                                "largest arclength step (default: |to - from| / 20)");
    options.add_positive_number("min-step", min_step,
                                "smallest arclength step before giving up (default: |to - from| * 1e-8)");
    options.add_positive_number("locate-tolerance", locate_tolerance,
                                "arclength bracket at which " + located +
                                    " counts as located (default: |to - from| * 1e-9)");
  }
  // Into library options with the same four fields (OrbitBranchOptions, OrbitCurveOptions).
  template <class Options>
  void apply(Options& o) const {
    o.initial_step = initial_step;
    o.max_step = max_step;
    o.min_step = min_step;
    o.locate_tolerance = locate_tolerance;
  }
};

}  // namespace vicont
