#pragma once
// The arclength step options that `continue` and `curve` share (--initial-step,
// --max-step, --min-step, --locate-tolerance, --corrector-tolerance): unset, the
// library's defaults (the steps on the scale of the range) apply.
#include <optional>
#include <string>

#include "libcont/input_error.hpp"
#include "run_options.hpp"

namespace vicont {

struct ArclengthSteps {
  std::optional<double> initial_step, max_step, min_step, locate_tolerance, corrector_tolerance;

  // `located`: what --locate-tolerance locates ("a special point"); `corrector_default`:
  // the library's corrector tolerance for the command.
  void add_options(RunOptions& options, const std::string& located, double corrector_default) {
    options.add_positive_number("initial-step", initial_step,
                                "first arclength step (default: |to - from| / 100)");
    options.add_positive_number("max-step", max_step,
                                "largest arclength step (default: |to - from| / 20)");
    options.add_positive_number("min-step", min_step,
                                "smallest arclength step before giving up (default: |to - from| * 1e-8)");
    options.add_positive_number("locate-tolerance", locate_tolerance,
                                "arclength bracket at which " + located +
                                    " counts as located (default: |to - from| * 1e-9)");
    options.add_positive_number(
        "corrector-tolerance", corrector_tolerance,
        "the corrector converges at |F| <= this (1 + |u|), an absolute tolerance for orbits "
        "much smaller than 1 (default: " + libcont::number_text(corrector_default) + ")");
  }
  // Into library options with the same five fields (OrbitBranchOptions, OrbitCurveOptions).
  template <class Options>
  void apply(Options& o) const {
    o.initial_step = initial_step;
    o.max_step = max_step;
    o.min_step = min_step;
    o.locate_tolerance = locate_tolerance;
    if (corrector_tolerance) o.corrector_tolerance = *corrector_tolerance;
  }
};

}  // namespace vicont
