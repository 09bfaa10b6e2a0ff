#pragma once
// One finished sweep point as text, exact to the bit: a record of a checkpoint file and
// what MPI ranks send to rank 0. Numbers are written in the shortest form that reads back
// to the same double (output.hpp, number_text), so a point read back gives the same
// output files as the point computed; the text ends with an "end" line, so a truncated
// record is recognised as such.
#include <optional>
#include <string>

#include "libcont/sweep.hpp"

namespace vicont {

// `grid`: the point is a cell of a two-parameter grid, whose record adds the second
// parameter's index and value; a one-parameter sweep's records stay as they always were.
std::string point_text(const libcont::SweepPoint& point, bool grid);

// The point, or std::nullopt with `error` saying what was wrong (unknown keys, missing
// fields, bad numbers, no end line). A record without the grid's fields (a one-parameter
// sweep's) has second index and value 0.
std::optional<libcont::SweepPoint> parse_point_text(const std::string& text, std::string& error);

// File-name friendly name of a point, e.g. "up-ic0-00042": pass, initial condition, grid
// index (zero-padded so that names sort in grid order); a grid cell's adds its row, e.g.
// "fixed-ic0-00042x00007" (index x second index).
std::string point_name(const libcont::SweepPointKey& key, bool grid);

}  // namespace vicont
