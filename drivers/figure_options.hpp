#pragma once
// --format, the option of every run that draws figures, and what it sets up before a run:
// the figures' formats (refused before anything is computed) and their axes labelled in
// the system's units.
#include <string>

#include "libcont/hybrid_system.hpp"

namespace vicont {

class RunOptions;

// Declares --format on `options`, into `formats` (the command's default: "none", but "png"
// for the main job, whose figures are its point).
void add_format_option(RunOptions& options, std::string& formats);

// Sets the figures' formats from `formats` (InputError naming --format if one is unknown)
// and the axis labels' units from `system`.
void use_figure_settings(const std::string& formats, const libcont::HybridSystem& system);

}  // namespace vicont
