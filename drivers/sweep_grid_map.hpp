#pragma once
// The parameter-plane map of a two-parameter sweep (vicont sweep --param2, doc/sweeps.md
// "Grids"): which class each cell falls in (its z = p/n, chaotic, non-periodic or failed:
// what the map colours it by), the cells in map order, and sweep_grid.csv, one row per
// cell, which the map's plot reads. Whoever draws a grid (vicont sweep, a map of curves
// drawn over the grid) goes through here:
//
//   const libcont::SweepResult result = libcont::Sweep(factory, options).run();
//   const GridMap map = grid_map(result.points);
//   write_sweep_grid_csv(dir / "sweep_grid.csv", options, map);
//   SweepMapPlot plot = sweep_map_plot(dir, "sweep_grid.csv", options, map, title);
//   plot.curves.push_back(...);   // optional: curves over the cells (plots.hpp)
//   plot_sweep_map(plot, "sweep_map");
#include <filesystem>
#include <string>
#include <vector>

#include "libcont/sweep.hpp"
#include "plots.hpp"

namespace vicont {

// A class of cells: one z = p/n, or all the periodic ones beyond the colours a map can
// tell apart ("other z"), or one of the non-periodic regimes.
struct GridClass {
  libcont::SweepRegime regime = libcont::SweepRegime::Periodic;
  int p = 0, n = 0;   // z of a periodic class; n = 0 for "other z"
  std::string label;  // "z = 1/2", "z = other", "chaotic", "non-periodic", "failed"
  long cells = 0;
};

// One pass from one initial condition over the whole grid: a map of its own (following
// the attractor up and down gives two, where hysteresis shows as their difference).
struct GridLayer {
  libcont::SweepPass pass = libcont::SweepPass::Fixed;
  int initial_condition = 0;
  long first_cell = 0, cells = 0;  // a run of GridMap::cells (rows of sweep_grid.csv)
};

struct GridMap {
  // Legend order: periodic classes by n, then p (at most max_periodic_classes; beyond
  // that the z with fewest cells share "z = other"), then chaotic, non-periodic, failed.
  // Only classes with cells are listed.
  std::vector<GridClass> classes;
  std::vector<const libcont::SweepPoint*> cells;  // by layer, then row (p2), then p1 upwards
  std::vector<int> cell_class;                    // index into `classes`, per cell
  std::vector<GridLayer> layers;
  // The colour scale of the exponent map, [-exponent_scale, exponent_scale]: the largest
  // positive lambda_1, and at least the |lambda_1| that 90 % of the cells with a finite one
  // stay within (0 if none). A few strongly damped cells (a multiplier near 0, where a
  // chattering sequence ends in sticking) would otherwise stretch it tenfold and leave
  // the chaotic cells white. `exponent_clipped`: some cell lies beyond it.
  double exponent_scale = 0.0;
  bool exponent_clipped = false;
};

// As many periodic classes as a map has distinct colours for.
inline constexpr int max_periodic_classes = 10;

// The map of a grid's points (the points of SweepResult, whatever their order); the
// pointers are into `points`, which must outlive the map.
GridMap grid_map(const std::vector<libcont::SweepPoint>& points);

// sweep_grid.csv (atomically): one row per cell in map order, columns
//   direction,initial_condition,index,index2,P1,P2,status,regime,p,n,z,lambda_1,a_i,a_e,
//   class,label
// z is "p/n" for a periodic cell and empty otherwise; lambda_1 the largest exponent (nan
// if the cell has none); class the index of the cell's class in GridMap::classes and
// label its name, so that the file alone redraws the map.
void write_sweep_grid_csv(const std::filesystem::path& file, const libcont::SweepOptions& options,
                          const GridMap& map);

// The plot of the map as vicont sweep draws it, from `cells_csv` (in `directory`) written
// by write_sweep_grid_csv; `curves` is left empty for the caller to fill.
SweepMapPlot sweep_map_plot(const std::filesystem::path& directory, const std::string& cells_csv,
                            const libcont::SweepOptions& options, const GridMap& map,
                            std::string title);

}  // namespace vicont
