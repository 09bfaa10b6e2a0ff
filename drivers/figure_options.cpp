#include "figure_options.hpp"

#include "axis_labels.hpp"
#include "plots.hpp"
#include "run_options.hpp"

namespace vicont {

void add_format_option(RunOptions& options, std::string& formats) {
  options.add_text("format", formats,
                   "the figures' formats, separated by commas: png (always drawn), pdf, svg; "
                   "or none: only their gnuplot scripts (default: png)");
}

void use_figure_settings(const std::string& formats, const libcont::HybridSystem& system) {
  set_figure_formats(parse_figure_formats(formats));
  use_units_of(system);
}

}  // namespace vicont
