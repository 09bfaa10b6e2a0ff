// vicont map: the parameter-plane map of a box (libcont::map_parameter_plane,
// parameter_plane.hpp): periodic orbits z = p/n up to --max-period found on seed lines,
// their branches in p1 traced, and the fold, period-doubling, Neimark-Sacker and grazing
// curves of their special points traced across the box, with the codimension-two points on
// them; as CSV, a JSON summary and the map as a PNG.
#include <algorithm>
#include <memory>
#include <sstream>
#include <tuple>

#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "integrator_choice.hpp"
#include "libcont/parameter_plane.hpp"
#include "map_output.hpp"
#include "output.hpp"
#include "parameter_range.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "shown_text.hpp"
#include "state_list.hpp"
#include "sweep_grid_map.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

using libcont::InputError;

// Cells of the grid under a map at most (500 x 500): a check of the curves, not a study.
constexpr double max_grid_cells = 250'000;

struct MapSettings : ParameterRange {
  MapSettings() : ParameterRange("p1, the horizontal parameter", "e.g. omega", "one end", "the other end") {}

  std::string second;  // --param2
  std::optional<double> second_from, second_to;
  int max_period = 5;
  int max_impacts = 20;
  int lines = 3;
  int seeds = 12;
  int transient = 300;
  int max_points = 500;
  std::string initial_states;
  IntegratorChoice integrator;
  int grid = 0, grid2 = 0;  // brute-force cells along p1 and p2; 0: no grid
  int grid_transient = 300, grid_periods = 300;
  int threads = 1;
  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_parameter_name("param2", second, "p2, the vertical parameter (required), e.g. d");
    options.add_number("from2", second_from, "one end of p2's range (required)");
    options.add_number("to2", second_to, "the other end of p2's range (required)");
    options.add_count("max-period", max_period, 1,
                      "largest n of the orbits z = p/n mapped (default: 5)",
                      limits::detected_period);
    options.add_count("max-impacts", max_impacts, 1,
                      "orbits with more impacts (chattering) are noted, not continued "
                      "(default: 20)",
                      1000);
    options.add_count("lines", lines, 1,
                      "seed lines p2 = const where orbits are sought (default: 3)", 1000);
    options.add_count("seeds", seeds, 1, "orbit searches along each seed line (default: 12)",
                      10000);
    options.add_count("transient", transient, 0,
                      "forcing periods of each search's transient (default: 300)",
                      limits::periods);
    options.add_count("max-points", max_points, 2,
                      "largest number of rows of each curve piece (default: 500)",
                      limits::branch_points);
    options.add_text("initial-states", initial_states,
                     "the searches' initial states, components by commas, states by "
                     "semicolons (default: the system's default state)");
    integrator.add_option(options);
    options.add_count("grid", grid, 0,
                      "also a brute-force sweep over a grid of this many p1 values (with "
                      "--grid2 p2 values) drawn under the curves in map_grid.png; 0: none "
                      "(default)",
                      static_cast<int>(limits::grid_points));
    options.add_count("grid2", grid2, 0, "p2 values of the grid (default: as --grid)",
                      static_cast<int>(limits::grid_points));
    options.add_count("grid-transient", grid_transient, 0,
                      "forcing periods integrated before each grid cell is measured (default: 300)",
                      limits::periods);
    options.add_count("grid-periods", grid_periods, 1,
                      "forcing periods each grid cell is measured over (default: 300)",
                      limits::periods);
    options.add_count("threads", threads, 1, "threads of the grid sweep (default: 1)",
                      limits::threads);
  }
};

class MapCommand : public SystemCommand {
 public:
  explicit MapCommand(CLI::App& vicont)
      : SystemCommand(vicont, "map",
                      "parameter-plane map: fold, period-doubling, Neimark-Sacker and grazing "
                      "curves of the orbits z = p/n in a box of two parameters") {
    settings_.add_options(options_);
    finish_options("print the summary (branches, curves, notes) as one JSON object");
  }

  int run() override {
    // The system first: resolving the inputs also reads the options (config file included).
    const auto system = resolve_checked();
    const libcont::ParameterPlaneOptions options = plane_options();
    prepare_output_directory(out_);

    libcont::ParameterPlaneOptions run_options = options;
    Progress progress("map", options.seed_lines, "seed lines");
    run_options.progress = [&](const libcont::ParameterPlaneProgress& p) {
      progress.update(p.lines_done);
      return true;
    };
    const nlohmann::ordered_json parameters = parameters_json(*system);
    const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(*system, run_options);

    RunHealth health;
    std::vector<std::string> files = {(out_ / "map.json").string(), (out_ / "map_curves.csv").string(),
                                      (out_ / "map_points.csv").string(),
                                      (out_ / "map_stable.csv").string()};
    write_map_curves_csv(out_ / "map_curves.csv", map);
    write_map_points_csv(out_ / "map_points.csv", map);
    write_map_stable_csv(out_ / "map_stable.csv", map);
    health.add_plot(files, [&] {
      return plot_parameter_plane(
          ParameterPlanePlot{out_, "map_curves.csv", "map_points.csv", "map_stable.csv",
                             options.first, options.second, options.first_min, options.first_max,
                             options.second_min, options.second_max,
                             "parameter plane of " + system->name() + ": orbits z = p/n, n <= " +
                                 std::to_string(options.max_period)},
          "map");
    });

    if (settings_.grid > 0) draw_grid(options, files, health);

    nlohmann::ordered_json json;
    json["command"] = "map";
    json["system"] = system->name();
    add_model_file(json, *system);
    json["parameters"] = parameters;
    json["p1"] = options.first;
    json["p2"] = options.second;
    json["p1_range"] = {options.first_min, options.first_max};
    json["p2_range"] = {options.second_min, options.second_max};
    json["max_period"] = options.max_period;
    json["max_impacts"] = options.max_impacts;
    json["seed_lines"] = options.seed_lines;
    json["seeds_per_line"] = options.seeds_per_line;
    json.update(map_json(map));
    if (grid_) {
      json["grid"] = {{"p1_values", grid_->options.steps},
                      {"p2_values", grid_->options.second_steps},
                      {"transient_periods", settings_.grid_transient},
                      {"periods", settings_.grid_periods},
                      {"status", to_string(grid_->result.status)},
                      {"message", grid_->result.message}};
      nlohmann::ordered_json classes = nlohmann::ordered_json::array();
      for (const GridClass& c : grid_->map.classes)
        classes.push_back({{"label", c.label}, {"cells", c.cells}});
      json["grid"]["classes"] = classes;
    }
    write_summary(out_ / "map.json", json, health, files);
    return report(json, text(*system, options, map, files), health);
  }

 private:
  // The brute-force grid of the same box (libcont::Sweep over two parameters), its cells
  // in map_grid.csv and the map's curves drawn over them in map_grid.png: where the cells'
  // z changes, a curve should run.
  struct Grid {
    libcont::SweepOptions options;
    libcont::SweepResult result;
    GridMap map;
  };

  void draw_grid(const libcont::ParameterPlaneOptions& plane, std::vector<std::string>& files,
                 RunHealth& health) {
    grid_ = std::make_unique<Grid>();
    libcont::SweepOptions& o = grid_->options;
    o.parameter = plane.first;
    o.from = plane.first_min;
    o.to = plane.first_max;
    o.steps = settings_.grid;
    o.second_parameter = plane.second;
    o.second_from = plane.second_min;
    o.second_to = plane.second_max;
    o.second_steps = settings_.grid2 > 0 ? settings_.grid2 : settings_.grid;
    o.initial_states = plane.initial_states;
    o.lyapunov.transient_periods = settings_.grid_transient;
    o.lyapunov.periods = settings_.grid_periods;
    o.lyapunov.max_detected_period = std::max(plane.max_period, 16);
    o.lyapunov.flow = settings_.integrator.flow();
    o.kept_samples = 1;
    o.threads = settings_.threads;
    {
      Progress progress("map grid", o.steps * o.second_steps, "cells");
      grid_->result = libcont::Sweep(inputs_.system_factory(), o).run({}, [&](const libcont::SweepPoint&) {
        progress.advance();
        return true;
      });
    }
    if (!grid_->result.complete && health.numerical_failure.empty())
      health.numerical_failure = "the grid sweep: " + grid_->result.message;
    grid_->map = grid_map(grid_->result.points);
    write_sweep_grid_csv(out_ / "map_grid.csv", o, grid_->map);
    files.push_back((out_ / "map_grid.csv").string());
    health.add_plot(files, [&] {
      SweepMapPlot plot = sweep_map_plot(out_, "map_grid.csv", o, grid_->map,
                                         "parameter plane: curves of the map over a brute-force grid");
      // Colours no class of cells takes (the classes' palette has the map.png curves'
      // blue and red), period doublings dashed.
      const std::tuple<const char*, const char*, bool> kinds[] = {
          {"fold", "#ff00ff", false},
          {"period-doubling", "#000000", true},
          {"neimark-sacker", "#00c000", false},
          {"grazing", "#000000", false}};
      for (const auto& [kind, colour, dashed] : kinds) {
        PlaneCurve curve;
        curve.csv = "map_curves.csv";
        curve.title = std::string(kind) + " curves";
        curve.colour = colour;
        curve.dashed = dashed;
        curve.kind = kind;
        plot.curves.push_back(curve);
      }
      return plot_sweep_map(plot, "map_grid");
    });
  }

  libcont::ParameterPlaneOptions plane_options() const {
    settings_.require_range();
    if (settings_.second.empty()) throw InputError("--param2 is required (p2, e.g. d)");
    if (!settings_.second_from)
      throw InputError("--from2 is required (one end of " + settings_.second + ")");
    if (!settings_.second_to)
      throw InputError("--to2 is required (the other end of " + settings_.second + ")");
    if (settings_.second == settings_.parameter)
      throw InputError("--param2 " + settings_.second + " is --param: name another parameter");
    {
      const auto probe = inputs_.system_factory()();
      for (const auto& [option, name] : {std::pair{"--param", settings_.parameter},
                                         std::pair{"--param2", settings_.second}})
        if (!probe->parameters().contains(name))
          throw InputError(std::string(option) + " " + shown_text(name) + ": the system '" +
                           probe->name() + "' has no such parameter");
    }
    if (settings_.grid > 0 &&
        static_cast<double>(settings_.grid) * (settings_.grid2 > 0 ? settings_.grid2 : settings_.grid) >
            max_grid_cells)
      throw InputError("--grid " + std::to_string(settings_.grid) + " and --grid2 make more than " +
                       number_text(max_grid_cells) +
                       " cells under a map; vicont sweep --param2 runs larger grids");
    const auto range = [](double a, double b, const std::string& from_option,
                          const std::string& name) {
      if (a == b)
        throw InputError(from_option + ": the range of " + name + " is empty (" +
                         number_text(a) + ")");
      return std::pair{std::min(a, b), std::max(a, b)};
    };
    const auto [first_min, first_max] = range(*settings_.from, *settings_.to, "--from and --to",
                                              settings_.parameter);
    const auto [second_min, second_max] =
        range(*settings_.second_from, *settings_.second_to, "--from2 and --to2", settings_.second);
    settings_.check_forcing_period_at_ends(inputs_.system_factory());
    check_forcing_period_over(inputs_.system_factory(), settings_.second,
                              {{*settings_.second_from, "--from2"}, {*settings_.second_to, "--to2"}});
    libcont::ParameterPlaneOptions o;
    o.first = settings_.parameter;
    o.second = settings_.second;
    o.first_min = first_min;
    o.first_max = first_max;
    o.second_min = second_min;
    o.second_max = second_max;
    o.max_period = settings_.max_period;
    o.max_impacts = settings_.max_impacts;
    o.seed_lines = settings_.lines;
    o.seeds_per_line = settings_.seeds;
    o.transient_periods = settings_.transient;
    o.curve_max_points = settings_.max_points;
    o.initial_states = parse_state_list(settings_.initial_states);
    o.flow = settings_.integrator.flow();
    o.validate();
    return o;
  }

  std::string text(const libcont::HybridSystem& system, const libcont::ParameterPlaneOptions& o,
                   const libcont::ParameterPlaneMap& map,
                   const std::vector<std::string>& files) const {
    std::ostringstream t;
    t << "vicont map\n";
    print_system(t, system, {o.first, o.second});
    t << "box         " << o.first << " in [" << number_text(o.first_min) << ", "
      << number_text(o.first_max) << "], " << o.second << " in [" << number_text(o.second_min)
      << ", " << number_text(o.second_max) << "]\n"
      << "orbits      " << map.orbits_found << " found in " << map.searches << " searches on "
      << o.seed_lines << " seed lines (n <= " << o.max_period << ")\n"
      << "branches    " << map.branches.size() << " pieces in " << o.first << '\n'
      << "curves      " << map.curves.size() << " pieces: " << curve_counts_text(map) << '\n';
    int codim2 = 0;
    // A point met by two pieces of one curve (both ways from two seeds, say) is listed once.
    std::vector<std::pair<const libcont::PlaneCurve*, const libcont::CurvePoint*>> listed;
    const auto listed_before = [&](const libcont::PlaneCurve& c, const libcont::CurvePoint& p) {
      for (const auto& [other, q] : listed)
        if (q->type == p.type && other->curve.kind == c.curve.kind &&
            other->curve.period == c.curve.period &&
            std::abs(q->first - p.first) <= 1e-7 * (o.first_max - o.first_min) &&
            std::abs(q->second - p.second) <= 1e-7 * (o.second_max - o.second_min))
          return true;
      return false;
    };
    for (const auto& c : map.curves)
      for (const auto& p : c.curve.points)
        if (p.type != "turning-point" && !listed_before(c, p)) {
          listed.emplace_back(&c, &p);
          if (codim2 == 0)
            t << "codimension-two points\n  " << table_cell("type", 16)
              << table_cell("on the curve", 24) << table_cell(o.first, 17) << o.second << '\n';
          ++codim2;
          t << "  " << table_cell(p.type, 16)
            << table_cell(to_string(c.curve.kind) + " n = " + std::to_string(c.curve.period), 24)
            << table_cell(rounded_text(p.first, 10), 17) << rounded_text(p.second, 10) << '\n';
        }
    if (codim2 == 0) t << "codimension-two points: none\n";
    t << "notes       " << map.notes.size() << (map.notes.empty() ? "" : " (all in map.json)")
      << '\n';
    for (size_t i = 0; i < map.notes.size() && i < 5; ++i) t << "  " << map.notes[i] << '\n';
    t << "files       " << file_list_text(out_, files) << '\n';
    return t.str();
  }

  MapSettings settings_;
  std::unique_ptr<Grid> grid_;
};

}  // namespace

std::unique_ptr<Command> make_map_command(CLI::App& vicont) {
  return std::make_unique<MapCommand>(vicont);
}

}  // namespace vicont
