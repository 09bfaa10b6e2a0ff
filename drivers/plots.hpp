#pragma once
// Figures of a run, drawn by gnuplot (cairo terminals, gnuplot_process.hpp) from the run's
// own CSV files, in the formats asked for (set_figure_formats: PNG, PDF, SVG; none unless
// asked). Each figure's script is saved always (NAME.gp) and reads the CSV by file name, so
// `cd DIR && gnuplot NAME.gp` draws the PNG exactly as --format png would, and
// `gnuplot -e "format='pdf'" NAME.gp` the PDF.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "libcont/sweep.hpp"

namespace vicont {

// The formats of every figure the run draws: those of the comma-separated list of --format
// ("png", "pdf", "svg", each once: png first, the others in the list's order); none for
// "none", where only the figures' scripts are written (gnuplot is not started; the figures
// are drawn later from the scripts). A word that is no format is refused
// (libcont::InputError naming it).
std::vector<std::string> parse_figure_formats(const std::string& list);
void set_figure_formats(std::vector<std::string> formats);
const std::vector<std::string>& figure_formats();

// The files a figure named `stem` leaves in a run's directory, for the summary's file list:
// "stem.png, stem.pdf, stem.gp" as drawn, "stem.gp" alone when no figure is drawn.
std::string figure_file_names(const std::string& stem);

struct PlotFiles {
  std::filesystem::path png;  // empty when no PNG is drawn (not in --format)
  std::filesystem::path script;
  std::vector<std::filesystem::path> others;  // the same figure in further formats (pdf, svg)
  std::vector<std::filesystem::path> data;    // files the script reads that the plot wrote
};

// What the time-series and phase-portrait plots read: a CSV written by
// write_time_series_csv (columns t, <state names>, mode, event).
struct TrajectoryPlot {
  std::filesystem::path directory;
  std::string csv;                       // file name inside directory
  std::vector<std::string> state_names;  // columns to draw
  std::string title;
};

// One panel per state variable against t; event rows marked with points.
PlotFiles plot_time_series(const TrajectoryPlot& plot, const std::string& stem);

// The first two state variables against each other; event rows marked with points.
// `poincare_csv` (optional, columns k, t, <state names>) adds the stroboscopic samples.
PlotFiles plot_phase_portrait(const TrajectoryPlot& plot, const std::string& stem,
                              const std::string& poincare_csv = "");

// Branches from `vicont continue` (branch_output.hpp) in one plot: one panel per
// amplitude column, A_max against the parameter, stable orbits solid, unstable dashed,
// the special points of all branches numbered in one sequence (numbers apart in a row
// above the panel, the key naming each: "3  LP2  lambda = 0.56700311"), and below a panel whose
// points crowd a second one zoomed on their cluster.
// The first branch (the parent) is drawn blue and red, each other one (a doubled branch)
// in a colour of its own.
struct BranchCurve {
  std::string branch_csv;    // file names relative to the plot's directory
  std::string specials_csv;
  std::string name;          // in the key, e.g. "n = 2" or "PD1: n = 4"
};
struct BranchPlot {
  std::filesystem::path directory;
  std::vector<BranchCurve> branches;
  std::string parameter;
  std::vector<std::string> amplitude_columns;  // e.g. "A_max:x1"
  std::string title;
};
PlotFiles plot_branch(const BranchPlot& plot, const std::string& stem);

// A two-parameter curve from `vicont curve` (curve_output.hpp) in the plane (p1, p2): the
// curve through its rows, its first row (the special point it starts from) circled and
// named, its codimension-two points (curve_points.csv) numbered, the key below the plane
// naming each by its label (CP1, LPPD1, GR1, TP1 ...).
struct CurvePlanePlot {
  std::filesystem::path directory;
  std::string curve_csv, points_csv;  // file names inside directory
  std::string first, second;          // the parameters: the x and y axes
  std::string start_label;            // e.g. "PD1 of run"
  std::string title;
};
PlotFiles plot_curve_plane(const CurvePlanePlot& plot, const std::string& stem);

// A parameter-plane map from `vicont map` (map_output.hpp) in the box (p1, p2): its fold,
// period-doubling, Neimark-Sacker and grazing curves by colour (each piece apart), their
// codimension-two points marked by type, and the seed lines' stretches where an orbit was
// found stable, each labelled with its z = p/n.
struct ParameterPlanePlot {
  std::filesystem::path directory;
  std::string curves_csv, points_csv, stable_csv;  // file names inside directory
  std::string first, second;                       // the parameters: x and y axes
  double first_min = 0.0, first_max = 0.0, second_min = 0.0, second_max = 0.0;
  std::string title;
};
PlotFiles plot_parameter_plane(const ParameterPlanePlot& plot, const std::string& stem);

// Panels of curves from one CSV against a shared horizontal column, e.g. a closed form
// (lines) and a numerical run (points) on top of each other. Columns are drawn times
// their scale, so that a file in SI units can be shown in mm and ms.
struct Curve {
  std::string column;
  std::string title;
  bool points = false;  // marks instead of a line
  int every = 1;        // draw every n-th row (sparse marks over a dense line)
  double scale = 1.0;
};
struct CurvePanel {
  std::string ylabel;
  std::vector<Curve> curves;
};
struct CurvesPlot {
  std::filesystem::path directory;
  std::string csv;
  std::string x_column;
  double x_scale = 1.0;
  std::string xlabel;
  std::vector<CurvePanel> panels;
  std::string title;
};
PlotFiles plot_curves(const CurvesPlot& plot, const std::string& stem);

// The points of a sweep's cloud (its Poincare samples of one coordinate, or its impact
// velocities) against the parameter, each with its direction (an index into
// SweepPlot::directions).
struct SweepCloud {
  std::vector<double> x, y;
  std::vector<int> direction;
  void add(double x_value, double y_value, int direction_index) {
    x.push_back(x_value);
    y.push_back(y_value);
    direction.push_back(direction_index);
  }
};

// A brute-force sweep from `vicont sweep` (sweep_output.hpp), the panels of the source
// figures over the parameter: (a) the Poincare samples of one coordinate, (b) each
// Lyapunov exponent in a panel of its own with the zero line, a_e on a second axis of the
// first, (c) a_i with the relative velocities at impact on a second axis. Each sweep
// direction in its own colour. A cloud of samples or impact velocities of more than 20000
// points is drawn as one image of its panel's pixels (cloud_raster.hpp), written beside
// the figure as STEM_samples.rgba or STEM_impacts.rgba (PlotFiles::data), a smaller one
// as a mark per row of samples_csv or impacts_csv. The clouds' numbers come from memory
// (the same as those files hold), so that the figure does not read the files again.
struct SweepPlot {
  std::filesystem::path directory;
  std::string points_csv, samples_csv, impacts_csv;
  std::string parameter;
  std::string coordinate;                     // state column of panel (a), e.g. "x"
  std::vector<std::string> exponent_columns;  // lambda_1, lambda_2, ...
  std::vector<std::string> directions;        // those present: "up", "down", "fixed"
  std::string title;
  SweepCloud samples, impacts;  // (parameter, coordinate) and (parameter, v_r)
};
PlotFiles plot_sweep(const SweepPlot& plot, const std::string& stem);

// A curve in a parameter plane drawn over a map: a CSV inside the plot's directory whose
// rows are points of the curve (a blank line or a nan breaks the line). While a run holds
// its files (pending_files.hpp) the plot sees only the files that run wrote, so the curve's
// CSV must be written by the same run, before the plot.
struct PlaneCurve {
  std::string csv;
  std::string x_column, y_column;  // empty: the map's own parameters
  std::string title;               // in the key; empty: none
  std::string colour = "black";    // a gnuplot colour, e.g. "#c0392b"
  bool dashed = false;
  bool points = false;             // marks at the rows instead of a line (special points)
  // Only the rows whose `kind` column holds this (one kind of curve of map_curves.csv);
  // empty: every row.
  std::string kind;
};
// A text placed on a map at (x, y) in the parameters' units, e.g. "z = 1/2" in its region.
struct PlaneLabel {
  double x = 0, y = 0;
  std::string text;
};

// The parameter-plane map of a two-parameter sweep (sweep_grid_map.hpp writes its CSV and
// fills this in), one row of two panels per layer (a pass from an initial condition):
// (a) every cell filled with the colour of its class: a colour per z = p/n (in `classes`
// order), chaotic dark grey, non-periodic light grey, failed black, with a key naming the
// classes; (b) the largest Lyapunov exponent lambda_1, blue below 0, white at 0, red above,
// on the scale [-exponent_bound, exponent_bound] (cells beyond it in the end colours);
// cells without one (failed) grey. The
// cells are drawn as an image (a box per cell when one axis has a single value), over the
// box of the grid's cells; `curves` on top of both panels, `labels` on top of panel (a).
struct SweepMapClass {
  libcont::SweepRegime regime = libcont::SweepRegime::Periodic;
  std::string label;
};
struct SweepMapLayer {
  std::string name;              // e.g. "up, initial state 2"; empty for a single layer
  long first_row = 0, rows = 0;  // the layer's rows of cells_csv (0: the first below the header)
};
struct SweepMapPlot {
  std::filesystem::path directory;
  std::string cells_csv;  // columns as sweep_grid.csv: FIRST, SECOND, class, lambda_1, regime
  std::string first, second;  // the parameters: the x and y axes
  int columns = 1, rows = 1;  // grid values of each parameter
  double first_low = 0, first_high = 0, second_low = 0, second_high = 0;  // cell centres
  std::vector<SweepMapClass> classes;  // class k is the value k of the `class` column
  std::vector<SweepMapLayer> layers;
  double exponent_bound = 1.0;
  bool exponent_clipped = false;  // some lambda_1 beyond the bound: drawn at the scale's end
  std::vector<PlaneCurve> curves;
  std::vector<PlaneLabel> labels;
  std::string title;
};
PlotFiles plot_sweep_map(const SweepMapPlot& plot, const std::string& stem);

// A basin map from `vicont basins`: one filled cell per initial condition, coloured by
// the attractor it reaches (ids from `labels`: >= 0 attractors, -1 non-periodic,
// -2 failed), with a key naming each, and the attractors' own section points on top.
// The cells are drawn as an image (a box per cell when one axis has a single value).
struct BasinPlot {
  std::filesystem::path directory;
  std::string cells_csv, attractors_csv;
  std::string x_name, y_name;       // the two initial coordinates (state names)
  double half_width = 0, half_height = 0;  // of a cell
  int columns = 1, rows = 1;               // cells along x and along y
  std::vector<std::pair<int, std::string>> labels;
  std::string title;
};
PlotFiles plot_basins(const BasinPlot& plot, const std::string& stem);

// A hybrid diagram from `vicont diagram`, two panels over the parameter: (a) the branches
// of periodic orbits (stable solid, unstable dashed, special points numbered, repeats of a
// closed branch once) with the Poincare samples of direct integration, and a zoom on a
// cluster of special points; (b) the largest exponent, from the Floquet multipliers along
// the branches and from the Lyapunov spectrum where integrated.
struct DiagramPlot {
  std::filesystem::path directory;
  // branches_csv: a row per branch point (its largest exponent); stroboscopic_csv: a row
  // per branch point and lap k, the orbit at t = kT (mod nT), drawn in panel (a) over the
  // samples (taken at t = kT too), with the special points' rows (column `special`).
  std::string branches_csv, stroboscopic_csv, integration_csv, samples_csv;
  std::string parameter;
  std::string coordinate;  // section coordinate drawn in panel (a)
  int branches = 0;        // branch ids 0 .. branches-1 in branches_csv
  int laps = 1;            // the largest n: laps 0 .. laps-1 in stroboscopic_csv
  std::string title;
};
PlotFiles plot_diagram(const DiagramPlot& plot, const std::string& stem);

}  // namespace vicont
