// vicont map: the parameter-plane map of a box (libcont::map_parameter_plane,
// parameter_plane.hpp): periodic orbits z = p/n up to --max-period found on seed lines,
// their branches in p1 traced, and the fold, period-doubling, Neimark-Sacker and grazing
// curves of their special points traced across the box, with the codimension-two points on
// them; as CSV, a JSON summary and the map as a PNG.
#include <CLI/CLI.hpp>
#include <sstream>

#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "integrator_choice.hpp"
#include "libcont/parameter_plane.hpp"
#include "map_output.hpp"
#include "output.hpp"
#include "parameter_range.hpp"
#include "plots.hpp"
#include "progress_bar.hpp"
#include "run_inputs.hpp"
#include "state_list.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

using libcont::InputError;

struct MapSettings : ParameterRange {
  MapSettings() : ParameterRange("p1, the horizontal parameter", "e.g. eta", "one end", "the other end") {}

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

  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_text("param2", second, "p2, the vertical parameter (required), e.g. d");
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
    for (const auto& name : {options.first, options.second})
      if (inputs_.assigned(name))
        throw InputError("--set " + name + ": the map varies " + name +
                         " over its box, which cannot be set");
    prepare_output_directory(out_);

    libcont::ParameterPlaneOptions run_options = options;
    ProgressBar progress("map", options.seed_lines, "seed lines");
    int lines_shown = 0;
    run_options.progress = [&](const libcont::ParameterPlaneProgress& p) {
      for (; lines_shown < p.lines_done; ++lines_shown) progress.advance();
      return true;
    };
    const nlohmann::ordered_json parameters = parameters_json(*system);
    const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(*system, run_options);

    RunHealth health;
    if (map.orbits_found == 0)
      health.numerical_failure = "no periodic orbit z = p/n with n <= " +
                                 std::to_string(options.max_period) + " was found in the box (" +
                                 std::to_string(map.searches) + " searches)";
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

    nlohmann::ordered_json json;
    json["command"] = "map";
    json["system"] = system->name();
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
    write_summary(out_ / "map.json", json, health, files);
    return report(json, text(*system, options, map, files), health);
  }

 private:
  libcont::ParameterPlaneOptions plane_options() const {
    settings_.require_range();
    if (settings_.second.empty()) throw InputError("--param2 is required (p2, e.g. d)");
    if (!settings_.second_from)
      throw InputError("--from2 is required (one end of " + settings_.second + ")");
    if (!settings_.second_to)
      throw InputError("--to2 is required (the other end of " + settings_.second + ")");
    if (settings_.second == settings_.parameter)
      throw InputError("--param2 " + settings_.second + " is --param: name another parameter");
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
    for (const auto& c : map.curves)
      for (const auto& p : c.curve.points)
        if (p.type != "turning-point") {
          if (codim2 == 0)
            t << "codimension-two points\n  type              " << o.first << "              "
              << o.second << '\n';
          ++codim2;
          t << "  " << p.type << std::string(p.type.size() < 18 ? 18 - p.type.size() : 1, ' ')
            << rounded_text(p.first, 10) << "   " << rounded_text(p.second, 10) << '\n';
        }
    if (codim2 == 0) t << "codimension-two points: none\n";
    t << "notes       " << map.notes.size() << (map.notes.empty() ? "" : " (all in map.json)")
      << '\n';
    for (size_t i = 0; i < map.notes.size() && i < 5; ++i) t << "  " << map.notes[i] << '\n';
    std::string names;
    for (const auto& file : files)
      names += (names.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
    t << "files       " << out_.string() << "/{" << names << "}\n";
    return t.str();
  }

  MapSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_map_command(CLI::App& vicont) {
  return std::make_unique<MapCommand>(vicont);
}

}  // namespace vicont
