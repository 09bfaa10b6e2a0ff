#pragma once
// The files of `vicont map`: a parameter-plane map (libcont::ParameterPlaneMap) as CSV —
// its curves row by row, their codimension-two points, the seed branches' stable stretches
// (where an orbit z = p/n was found stable on a seed line) — and its JSON summary.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "libcont/parameter_plane.hpp"

namespace vicont {

// curve, kind, n, direction, row, <p1>, <p2>, impacts, slowest_impact, min_gap: every row
// of every curve piece; a row of NaN between pieces, so that a plot draws each piece apart.
void write_map_curves_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map);

// curve, kind, type, <p1>, <p2>: the codimension-two points of the curves (turning points
// left out: they belong to the parametrisation, not to the dynamics), and each curve's
// start ("start-fold", "start-period-doubling", ...).
void write_map_points_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map);

// branch, <p2>, z, n, impacts, <p1>_from, <p1>_to: the stretches of the seed branches where
// their orbit is stable with one impact count, one row each.
void write_map_stable_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map);

// The branches (line, seed, n, rows, special points, how each ended), the curve pieces
// (kind, n, start, direction, rows, end, codimension-two points) and the notes.
nlohmann::ordered_json map_json(const libcont::ParameterPlaneMap& map);

// How many curve pieces of each kind: "3 fold, 5 period-doubling, 2 grazing".
std::string curve_counts_text(const libcont::ParameterPlaneMap& map);

}  // namespace vicont
