#include "figure_options.hpp"

#include "axis_labels.hpp"
#include "plots.hpp"
#include "run_options.hpp"

namespace vicont {

void add_format_option(RunOptions& options, std::string& formats) {
  options.add_text("format", formats,
                   "the figures to draw, formats separated by commas: png, pdf, svg (e.g. "
                   "png,pdf); none: the data and each figure's gnuplot script only, "
                   "'gnuplot NAME.gp' in the output directory draws it later (default: " +
                       formats + ")");
}

void use_figure_settings(const std::string& formats, const libcont::HybridSystem& system) {
  set_figure_formats(parse_figure_formats(formats));
  use_units_of(system);
}

}  // namespace vicont
