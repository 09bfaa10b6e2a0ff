#pragma once
// Which state variables a time-series plot draws: gnuplot parses the whole CSV once per
// curve, so drawing every variable of a large state costs the square of its size
// (doc/performance.md, "Large systems"); the CSV keeps them all.
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace vicont {

// All of a state of up to 24 variables (12 panels of two); of a larger one (a chain of a
// hundred masses) 12: its displacement coordinates, and variables spread evenly from the
// first to the last.
std::vector<std::string> drawn_variables(const libcont::HybridSystem& system);

}  // namespace vicont
