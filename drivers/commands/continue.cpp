// vicont continue: a branch of periodic orbits z = p/n traced by pseudo-arclength
// continuation in one parameter, from the orbit found at --from towards --to:
// the branch with amplitudes, impacts and stability as CSV, its special points (fold,
// period doubling, Neimark-Sacker, grazing, impact-signature changes) as a table and CSV,
// and the loading or frequency-response curve as a PNG. --restart RUN_DIR:LABEL starts
// instead from a saved point of an earlier run (branch_restart.hpp): along its tangent,
// in another parameter, or onto the doubled branch of a period doubling (--switch);
// --follow-doubling traces the doubled branch of every period doubling too.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "branch_output.hpp"
#include "branch_restart.hpp"
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "orbit_search.hpp"
#include "output.hpp"
#include "parameter_range.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

struct ContinueSettings : ParameterRange {
  ContinueSettings()
      : ParameterRange("the continued parameter", "e.g. lambda or eta", "start value", "end value") {}

  int max_points = 2000;
  std::optional<double> initial_step, max_step, min_step;
  std::optional<double> locate_tolerance;
  bool natural = false;
  bool follow_doubling = false;
  bool stop_at_grazing = false;
  std::string integrator = "auto";

  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_count("max-points", max_points, 2, "largest number of branch points (default: 2000)");
    options.add_positive_number("initial-step", initial_step,
                                "first arclength step (default: |to - from| / 100)");
    options.add_positive_number("max-step", max_step, "largest arclength step (default: |to - from| / 20)");
    options.add_positive_number("min-step", min_step,
                                "smallest arclength step before giving up (default: |to - from| * 1e-8)");
    options.add_positive_number("locate-tolerance", locate_tolerance,
                                "arclength bracket at which a special point counts as located "
                                "(default: |to - from| * 1e-9)");
    options.add_flag("natural", natural,
                     "natural-parameter continuation (stops at folds) instead of pseudo-arclength");
    options.add_flag("stop-at-grazing", stop_at_grazing,
                     "end the branch at the first grazing instead of going on along the other "
                     "family (doc/theory.md, section 6.3)");
    options.add_flag("follow-doubling", follow_doubling,
                     "at every period doubling PDk of the branch, also continue the doubled "
                     "(2n) branch (files in OUT/doubled-PDk, drawn in the branch's plot)");
    options.add_text("integrator", integrator,
                     "auto (BDF where a mode is stiff, an explicit Runge-Kutta pair where the "
                     "model calls it brief and rough, such as a Hertz contact, CVODE's Adams "
                     "elsewhere), rk (the pair for every non-stiff mode) or adams (Adams for "
                     "every mode); doc/performance.md");
  }

  libcont::FlowOptions flow() const {
    libcont::FlowOptions o;
    if (integrator == "rk")
      o.method = libcont::IntegratorMethod::RungeKutta;
    else if (integrator == "adams")
      o.method = libcont::IntegratorMethod::Adams;
    else if (integrator != "auto")
      throw libcont::InputError("--integrator must be auto, rk or adams, not '" + integrator + "'");
    return o;
  }

  // The library's options (their steps from the range unless given), checked in the
  // options' own words first; then the integrator.
  libcont::OrbitBranchOptions branch() const {
    require_range();
    if (*from == *to) throw libcont::InputError("--from and --to must differ");
    libcont::OrbitBranchOptions o;
    o.parameter = parameter;
    o.from = *from;
    o.to = *to;
    o.max_points = max_points;
    o.initial_step = initial_step;
    o.max_step = max_step;
    o.min_step = min_step;
    o.locate_tolerance = locate_tolerance;
    o.natural = natural;
    o.stop_at_grazing = stop_at_grazing;
    const libcont::ContinuationOptions steps = o.continuation();
    if (steps.min_step > steps.initial_step)
      throw libcont::InputError("--min-step must not exceed --initial-step and --max-step");
    o.flow = flow();
    o.validate();
    return o;
  }
};

std::string cell(const std::string& text, int width) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%-*s", width, text.c_str());
  return buffer;
}

// The start of the doubled (2n) branch at a saved period-doubling point of a branch of
// period n (--switch): the point, left along the eigenvector of its multiplier -1
// (libcont::doubled_branch_start). None, and `failure` says why, when the monodromy there
// has no multiplier near -1 after all.
std::optional<libcont::BranchPoint> doubled_start(libcont::HybridSystem& system,
                                                  const std::string& parameter, int n,
                                                  const libcont::SpecialPoint& flip,
                                                  const libcont::FlowOptions& flow,
                                                  std::string& failure) {
  try {
    libcont::PeriodicOrbitProblem single(system, parameter, n, flow);
    return libcont::doubled_branch_start(single, flip);
  } catch (const libcont::InputError& error) {
    failure = std::string("cannot switch branches: ") + error.what();
    return std::nullopt;
  }
}

// What is reported of one branch: files written, its special points (with their labels,
// special_point_labels) as JSON and as a table for the human summary.
struct BranchReport {
  size_t points = 0;
  std::vector<std::string> labels;
  nlohmann::ordered_json special_points = nlohmann::ordered_json::array();
  nlohmann::ordered_json last_point;  // null when the branch is empty
  std::string table;
};

std::vector<std::string> amplitude_columns(const BranchTable& table) {
  std::vector<std::string> columns;
  for (const auto& name : table.data_names)
    if (name.rfind("A_max:", 0) == 0) columns.push_back(name);
  return columns;
}

// Writes branch.csv and special_points.csv into `directory` (nothing for an empty branch)
// and describes the branch.
BranchReport report_branch(const std::filesystem::path& directory, const BranchTable& table,
                           const libcont::OrbitBranch& branch, std::vector<std::string>& files) {
  BranchReport report;
  report.points = branch.points.size();
  report.labels = special_point_labels(branch.special_points);
  if (branch.points.empty()) return report;
  const std::vector<std::string> amplitudes = amplitude_columns(table);
  write_branch_csv(directory / "branch.csv", table, branch.points);
  write_special_points_csv(directory / "special_points.csv", table, branch.special_points,
                           report.labels, branch.points);
  files.push_back((directory / "branch.csv").string());
  files.push_back((directory / "special_points.csv").string());

  auto amplitudes_json = [](const libcont::OrbitPointData& orbit) {
    nlohmann::ordered_json a = nlohmann::ordered_json::object();
    for (size_t k = 0; k < orbit.coordinates.size(); ++k)
      a[orbit.coordinates[k]] = orbit.amplitudes[k];
    return a;
  };
  for (size_t i = 0; i < branch.special_points.size(); ++i) {
    const auto& p = branch.special_points[i];
    const libcont::OrbitPointData orbit = branch.orbit(p);
    report.special_points.push_back({{"label", report.labels[i]},
                                     {"type", p.type_name()},
                                     {"kind", p.detail},
                                     {"parameter", p.lambda},
                                     {"amplitudes", amplitudes_json(orbit)},
                                     {"p", orbit.impacts},
                                     {"n", table.period},
                                     {"stable", orbit.stable()},
                                     {"spectral_radius", orbit.spectral_radius},
                                     {"after_point", p.after_point}});
  }
  const auto& last = branch.points.back();
  report.last_point = {{"parameter", last.lambda},
                       {"amplitudes", amplitudes_json(branch.orbit(last))}};

  std::ostringstream text;
  text << "special points (" << branch.special_points.size() << ")\n";
  if (!branch.special_points.empty()) {
    text << "  " << cell("label", 7) << cell("type", 18) << cell("kind", 19)
         << cell(table.parameter, 22);
    for (const auto& column : amplitudes) text << cell(column, 22);
    text << cell("p", 5) << "stable\n";
    for (size_t i = 0; i < branch.special_points.size(); ++i) {
      const auto& p = branch.special_points[i];
      const libcont::OrbitPointData orbit = branch.orbit(p);
      text << "  " << cell(report.labels[i], 7) << cell(p.type_name(), 18)
           << cell(p.detail.empty() ? "-" : p.detail, 19) << cell(rounded_text(p.lambda, 10), 22);
      for (const double amplitude : orbit.amplitudes)
        text << cell(rounded_text(amplitude, 10), 22);
      text << cell(std::to_string(orbit.impacts), 5) << (orbit.stable() ? "yes" : "no") << '\n';
    }
  }
  report.table = text.str();
  return report;
}

// Draws branch.{png,gp} into `directory`: the branches of `curves` (their files named
// relative to it; the first is the parent) in one plot. Nothing for an empty branch.
void draw_branches(const std::filesystem::path& directory, const libcont::HybridSystem& system,
                   const BranchTable& table, const BranchReport& report,
                   std::vector<BranchCurve> curves, RunHealth& health,
                   std::vector<std::string>& files) {
  if (report.points == 0) return;
  health.add_plot(files, [&] {
    return plot_branch(BranchPlot{directory, std::move(curves), table.parameter,
                                  amplitude_columns(table),
                                  "periodic orbits of " + system.name() + " (n = " +
                                      std::to_string(table.period) + ") continued in " +
                                      table.parameter},
                       "branch");
  });
}

// Where a branch starts: the orbit found at --from (a run of its own) or a saved point
// (--restart). The continuation, the files and the summary are the same for both.
struct BranchStart {
  bool found = false;  // there is a point to continue from
  int n = 1;           // of the branch's orbits
  double phase = 0.0;  // the section of the point
  libcont::Vector x;   // the orbit at --from, corrected there first
  std::optional<libcont::BranchPoint> along;  // or a point left along its tangent
  std::string failure;  // why nothing was found
  std::string text;     // for the summary
  nlohmann::ordered_json json;
};

class ContinueCommand : public SystemCommand {
 public:
  explicit ContinueCommand(CLI::App& vicont)
      : SystemCommand(vicont, "continue",
                      "branch of periodic orbits by pseudo-arclength continuation, with special points") {
    settings_.add_options(options_);
    search_.add_options(options_);
    command_
        .add_option("--restart", restart_,
                    "continue from a saved point of an earlier run: LABEL is a special "
                    "point's label (PD1, LP2, GR1, ...) or a row index of RUN_DIR/branch.csv. "
                    "System and parameters are the saved ones, the continued one at the "
                    "point's value; --set overrides the others (the point is then corrected "
                    "first), --system must name the same system. --param defaults to the saved "
                    "one (continued along the saved tangent towards --to); another one is "
                    "continued from the point's orbit. --from is ignored")
        ->type_name("RUN_DIR:LABEL");
    command_.add_flag("--switch", switch_,
                      "with --restart at a period doubling (PDk): continue the doubled (2n) "
                      "branch from it, towards --to");
    finish_options("print the special points and the point count as one JSON object");
  }

  int run() override {
    // Inputs are checked before the output directory is made.
    std::optional<SavedRun> saved;
    if (!restart_.empty()) {
      saved = read_saved_run(restart_);
      inputs_.restart_from(saved->system, saved->parameters,
                           (saved->directory / "continue.json").string());
    } else if (switch_) {
      throw libcont::InputError(
          "--switch needs --restart RUN_DIR:PDk (a period-doubling point of a saved run)");
    }
    const auto system = inputs_.resolve();
    std::optional<SavedPoint> point;
    if (saved) point = restart_point(*saved, *system);
    const libcont::OrbitBranchOptions branch_options = settings_.branch();
    const libcont::FlowOptions& flow = branch_options.flow;
    system->set_parameter(settings_.parameter, *settings_.from);  // names a bad parameter
    if (saved && std::filesystem::exists(out_) &&
        std::filesystem::equivalent(out_, saved->directory))
      throw libcont::InputError("--out " + out_.string() +
                                " is the restarted run's directory, whose files it would "
                                "overwrite: choose another --out");
    prepare_output_directory(out_);
    const nlohmann::ordered_json parameters = parameters_json(*system);

    RunHealth health;
    BranchStart start;
    libcont::OrbitBranch branch;
    BranchTable table;
    table.parameter = settings_.parameter;
    table.state_names = system->state_names();
    {
      ProgressIndicator progress(
          point ? "continue: from " + restart_ + " in " + settings_.parameter
                : "continue: orbit at " + settings_.parameter + " = " +
                      number_text(*settings_.from) + ", then the branch");
      start = point ? restart_start(*system, *saved, *point, flow) : search_start(*system, health);
      if (start.found) {
        table.period = start.n;
        branch = start.along ? libcont::trace_orbit_branch_from(*system, start.n, *start.along,
                                                                 branch_options)
                             : libcont::trace_orbit_branch(*system, start.n, start.phase, start.x,
                                                           branch_options);
        table.data_names = branch.data_names;
        if (!branch.ok())
          health.numerical_failure =
              "continuation stopped: " + branch.stop_reason +
              (branch.failure.empty() ? "" : " (" + branch.failure + ")");
      } else if (health.report.ok()) {
        health.numerical_failure = start.failure;
      }
    }

    std::vector<std::string> files = {(out_ / "continue.json").string()};
    const BranchReport main_report = report_branch(out_, table, branch, files);
    // The plot of the branch shows its parent (a switched restart's saved branch) and its
    // doubled branches too.
    std::vector<BranchCurve> curves;
    if (switch_ && main_report.points > 0) {
      copy_saved_branch(*saved, out_ / "parent");
      files.push_back((out_ / "parent" / "branch.csv").string());
      files.push_back((out_ / "parent" / "special_points.csv").string());
      curves.push_back({"parent/branch.csv", "parent/special_points.csv",
                        "parent, n = " + std::to_string(point->n)});
    }
    curves.push_back({"branch.csv", "special_points.csv", "n = " + std::to_string(table.period)});
    nlohmann::ordered_json doubled_branches = nlohmann::ordered_json::array();
    std::ostringstream doubled_text;
    if (settings_.follow_doubling) {
      for (size_t i = 0; i < branch.special_points.size(); ++i) {
        const libcont::SpecialPoint& flip = branch.special_points[i];
        if (flip.type != libcont::SpecialPointType::PeriodDoubling) continue;
        const std::string& label = main_report.labels[i];
        ProgressIndicator progress("continue: doubled branch from " + label + " at " +
                                   settings_.parameter + " = " + number_text(flip.lambda));
        const libcont::OrbitBranch doubled =
            libcont::trace_doubled_branch(*system, table.period, flip, branch_options);
        BranchTable doubled_table = table;
        doubled_table.period = 2 * table.period;
        const std::string name = "doubled-" + label;
        const auto directory = out_ / name;
        prepare_output_directory(directory);
        const BranchReport report = report_branch(directory, doubled_table, doubled, files);
        draw_branches(directory, *system, doubled_table, report,
                      {{"branch.csv", "special_points.csv", ""}}, health, files);
        if (report.points > 0)
          curves.push_back({name + "/branch.csv", name + "/special_points.csv",
                            label + ", n = " + std::to_string(doubled_table.period)});
        nlohmann::ordered_json entry;
        entry["label"] = label;
        entry["parameter"] = flip.lambda;
        entry["n"] = doubled_table.period;
        entry["directory"] = name;
        entry["points"] = report.points;
        entry["special_points"] = report.special_points;
        entry["stop_reason"] = doubled.stop_reason;
        entry["ok"] = doubled.ok();
        doubled_branches.push_back(entry);
        // Its own continue.json, so that --restart works from its points too.
        nlohmann::ordered_json own = {{"command", "continue"},
                                      {"system", system->name()},
                                      {"parameters", parameters},
                                      {"parameter", settings_.parameter},
                                      {"from", flip.lambda},
                                      {"to", *settings_.to},
                                      {"n", doubled_table.period},
                                      {"parent", label},
                                      {"points", report.points},
                                      {"special_points", report.special_points},
                                      {"stop_reason", doubled.stop_reason},
                                      {"section_phase", flip.chart},
                                      {"section_moves", doubled.section_moves}};
        write_json_file(directory / "continue.json", own);
        files.push_back((directory / "continue.json").string());
        if (!doubled.ok() && health.numerical_failure.empty())
          health.numerical_failure =
              "doubled branch from " + label + " stopped: " + doubled.stop_reason;
        doubled_text << "doubled     from " << label << " at " << settings_.parameter << " = "
                     << number_text(flip.lambda) << ": n = " << doubled_table.period << ", "
                     << report.points << " points, " << doubled.stop_reason << " (in "
                     << directory.string() << ")\n"
                     << report.table;
      }
      if (doubled_branches.empty())
        doubled_text << "doubled     no period-doubling point on the branch\n";
    }
    draw_branches(out_, *system, table, main_report, std::move(curves), health, files);

    nlohmann::ordered_json s;
    s["command"] = "continue";
    s["system"] = system->name();
    s["parameters"] = parameters;
    s["parameter"] = settings_.parameter;
    s["from"] = *settings_.from;
    s["to"] = *settings_.to;
    s["n"] = table.period;
    s["start"] = start.json;
    s["method"] = settings_.natural ? "natural-parameter" : "pseudo-arclength";
    s["points"] = branch.points.size();
    s["special_points"] = main_report.special_points;
    s["stop_reason"] = branch.stop_reason;
    s["section_phase"] = start.phase;
    s["section_moves"] = branch.section_moves;
    if (!main_report.last_point.is_null()) s["last_point"] = main_report.last_point;
    if (settings_.follow_doubling) s["doubled_branches"] = doubled_branches;
    write_summary(out_ / "continue.json", s, health, files);

    std::ostringstream text;
    text << "vicont continue\n";
    print_system(text, *system, {settings_.parameter});
    text << "start       " << start.text << '\n'
         << "branch      " << branch.points.size() << " points, " << settings_.parameter
         << " from " << number_text(*settings_.from) << " towards " << number_text(*settings_.to)
         << ": " << (branch.stop_reason.empty() ? "-" : branch.stop_reason)
         << (branch.section_moves ? " (section moved " + std::to_string(branch.section_moves) +
                                           " times away from events)"
                                     : "")
         << '\n';
    if (!branch.points.empty())
      text << "last point  " << settings_.parameter << " = " << number_text(branch.points.back().lambda)
           << '\n';
    text << main_report.table << doubled_text.str();
    text << "files       " << out_.string()
         << "/{branch.csv, special_points.csv, branch.png, branch.gp, continue.json}\n";
    return report(s, text.str(), health);
  }

 private:
  // The orbit at --from, found as by vicont orbit.
  BranchStart search_start(const libcont::HybridSystem& system, RunHealth& health) const {
    const libcont::OrbitSearchResult found =
        libcont::find_periodic_orbit(system, search_.options());
    health.report = found.transient;
    BranchStart start;
    start.found = found.shooting.converged;
    start.n = found.period;
    start.phase = found.phase;
    start.x = found.shooting.x;
    start.failure = "no periodic orbit at " + settings_.parameter + " = " +
                    number_text(*settings_.from) + ": " + found.shooting.reason;
    start.text = settings_.parameter + " = " + number_text(*settings_.from) + ": " +
                 (found.shooting.converged
                      ? "orbit z = " + std::to_string(found.shooting.p) + "/" +
                            std::to_string(found.period) + " (" + found.period_note + ")"
                      : "no orbit: " + found.shooting.reason);
    start.json = {{"converged", found.shooting.converged},
                  {"period_choice", found.period_note},
                  {"p", found.shooting.p},
                  {"iterations", found.shooting.iterations}};
    return start;
  }

  // --restart: the saved point, checked against the other options; the system is put
  // where the point lies (the saved parameter at its value) and --param, --from where
  // the branch starts.
  SavedPoint restart_point(const SavedRun& saved, libcont::HybridSystem& system) {
    SavedPoint point = read_saved_point(saved, system.state_names());
    const std::string& fixed = saved.parameter;
    if (inputs_.assigned(fixed))
      throw libcont::InputError("--set " + fixed + ": the restarted point " + point.label +
                                " lies at " + fixed + " = " + number_text(point.point.lambda) +
                                ", which cannot be set");
    system.set_parameter(fixed, point.point.lambda);
    if (settings_.parameter.empty()) settings_.parameter = fixed;
    const bool same = settings_.parameter == fixed;
    if (switch_ && point.type != libcont::SpecialPointType::PeriodDoubling)
      throw libcont::InputError(
          "--switch needs a period-doubling point (PD1, PD2, ...), but " + point.label + " is " +
          (point.type ? "a " + to_string(*point.type) + " point"
                      : std::string("a row of branch.csv")));
    if (switch_ && !same)
      throw libcont::InputError("--switch continues the doubled branch in " + fixed +
                                ", not in --param " + settings_.parameter);
    if (same && !switch_ && !parameters_changed(system) && point.point.tangent.size() == 0)
      throw libcont::InputError("--restart " + restart_ +
                                ": the saved point has no tangent columns (an older run): "
                                "restart it in another --param, or run it again");
    settings_.from = same ? point.point.lambda : system.parameters()[settings_.parameter];
    if (settings_.to && *settings_.to == *settings_.from)
      throw libcont::InputError("--to " + number_text(*settings_.to) +
                                " is where the restart begins (" + settings_.parameter + " = " +
                                number_text(*settings_.from) + "): it must differ");
    return point;
  }

  // How the branch leaves the saved point: along its tangent, turned towards --to (the
  // same parameter); from its orbit, corrected first (another parameter, or the same one
  // with other parameters changed by --set or --config, where the saved point and tangent
  // are no longer on a branch); or onto the doubled branch (--switch).
  BranchStart restart_start(libcont::HybridSystem& system, const SavedRun& saved,
                            const SavedPoint& point, const libcont::FlowOptions& flow) const {
    BranchStart start;
    start.found = true;
    start.n = point.n;
    start.phase = point.point.chart;
    const std::string type = point.type ? to_string(*point.type) : "row";
    const std::string where = restart_ + " (" + type + ", " +
                              saved.parameter + " = " + number_text(point.point.lambda) +
                              ", n = " + std::to_string(point.n) + ")";
    std::string mode;
    if (switch_) {
      mode = "switch";
      start.n = 2 * point.n;
      libcont::SpecialPoint flip;
      flip.type = *point.type;
      flip.u = point.point.u;
      flip.lambda = point.point.lambda;
      flip.chart = point.point.chart;
      start.along = doubled_start(system, settings_.parameter, point.n, flip, flow, start.failure);
      start.found = start.along.has_value();
      start.text = where + ": the doubled branch, n = " + std::to_string(start.n);
    } else if (settings_.parameter == saved.parameter && !parameters_changed(system)) {
      mode = "along-tangent";  // turned towards --to by libcont::trace_orbit_branch_from
      start.along = point.point;
      start.text = where + ": along its tangent";
    } else {
      mode = settings_.parameter == saved.parameter ? "corrected" : "other-parameter";
      start.x = point.point.u;
      start.text = where + ": its orbit corrected and continued in " + settings_.parameter +
                   " from " + number_text(*settings_.from);
    }
    start.json = {{"restart", restart_},
                  {"label", point.label},
                  {"type", type},
                  {"kind", point.kind},
                  {"row", point.row},
                  {"parameter", saved.parameter},
                  {"value", point.point.lambda},
                  {"n", point.n},
                  {"mode", mode}};
    return start;
  }

  // Whether the config file or --set changed a parameter of the system.
  bool parameters_changed(const libcont::HybridSystem& system) const {
    for (const auto& p : system.parameters().all())
      if (inputs_.assigned(p.name)) return true;
    return false;
  }

  ContinueSettings settings_;
  OrbitSearchSettings search_;
  std::string restart_;
  bool switch_ = false;
};

}  // namespace

std::unique_ptr<Command> make_continue_command(CLI::App& vicont) {
  return std::make_unique<ContinueCommand>(vicont);
}

}  // namespace vicont
