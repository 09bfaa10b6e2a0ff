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
#include "arclength_steps.hpp"
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
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
#include "run_limits.hpp"

namespace vicont {

namespace {

struct ContinueSettings : ParameterRange {
  ContinueSettings()
      : ParameterRange("the continued parameter", "e.g. lambda or omega", "start value", "end value") {}

  int max_points = 2000;
  ArclengthSteps steps;
  bool natural = false;
  bool follow_doubling = false;
  bool stop_at_grazing = false;
  std::vector<double> user_values;

  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_count("max-points", max_points, 2, "largest number of branch points (default: 2000)",
                      limits::branch_points);
    steps.add_options(options, "a special point", libcont::ContinuationOptions{}.corrector_tolerance);
    options.add_number_list("at", user_values,
                            "values of the continued parameter, separated by commas, at which "
                            "the branch's orbit is also computed, exactly there, and listed as "
                            "special points UZ1, UZ2, ... (AUTO's user points)");
    options.add_flag("natural", natural,
                     "natural-parameter continuation (stops at folds) instead of pseudo-arclength");
    options.add_flag("stop-at-grazing", stop_at_grazing,
                     "end the branch at the first grazing instead of going on along the other "
                     "family (doc/theory.md, section 6.3)");
    options.add_flag("follow-doubling", follow_doubling,
                     "at every period doubling PDk of the branch, also continue the doubled "
                     "(2n) branch (files in OUT/doubled-PDk, drawn in the branch's plot)");
  }

  // The library's options (their steps from the range unless given), checked in one
  // place, OrbitBranchOptions::validate (the range, the steps against each other, the
  // flow), whose message names the field.
  libcont::OrbitBranchOptions branch(const libcont::FlowOptions& flow) const {
    require_range();
    libcont::OrbitBranchOptions o;
    o.parameter = parameter;
    o.from = *from;
    o.to = *to;
    o.max_points = max_points;
    steps.apply(o);
    o.natural = natural;
    for (const double value : user_values)
      if (!o.in_range(value))
        throw libcont::InputError("--at: " + libcont::number_text(value) +
                                  " lies outside the range of --from " +
                                  libcont::number_text(*from) + " and --to " +
                                  libcont::number_text(*to));
    o.user_values = user_values;
    o.stop_at_grazing = stop_at_grazing;
    o.flow = flow;
    o.validate();
    return o;
  }
};

// Drives a progress line (total 1) from a branch's progress: the parameter's way from
// `from` towards `to` or the points used of max_points, whichever is further (a branch
// that winds back and forth uses its points before it reaches the end of the range).
std::function<void(const libcont::OrbitBranchProgress&)> branch_progress(
    Progress& progress, const libcont::OrbitBranchOptions& options) {
  return [&progress, from = options.from, to = options.to,
          max_points = options.max_points](const libcont::OrbitBranchProgress& p) {
    const double along = (p.lambda - from) / (to - from);
    progress.update(std::max(along, static_cast<double>(p.points) / max_points));
  };
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

std::vector<std::string> amplitude_columns(const BranchTable& table) {
  std::vector<std::string> columns;
  for (const auto& name : table.data_names)
    if (name.rfind("A_max:", 0) == 0) columns.push_back(name);
  return columns;
}

// A special point as reported: its label (special_point_labels), what it is, and the
// orbit there.
struct LabelledPoint {
  std::string label;
  libcont::SpecialPoint point;
  libcont::OrbitPointData orbit;
  StabilityAround around;  // of the branch rows either side
};

// What is reported of one branch: its columns, its point count, its special points and
// its last point (none for an empty branch).
struct BranchReport {
  BranchTable table;
  size_t points = 0;
  std::vector<LabelledPoint> special_points{};
  std::optional<double> last_lambda{};
  libcont::OrbitPointData last_orbit{};
};

// Writes branch.csv and special_points.csv into `directory` (nothing for an empty branch)
// and describes the branch.
BranchReport report_branch(const std::filesystem::path& directory, const BranchTable& table,
                           const libcont::OrbitBranch& branch, std::vector<std::string>& files) {
  BranchReport report{table, branch.points.size()};
  if (branch.points.empty()) return report;
  const std::vector<std::string> labels = special_point_labels(branch.special_points);
  write_branch_csv(directory / "branch.csv", table, branch.points);
  write_special_points_csv(directory / "special_points.csv", table, branch.special_points, labels,
                           branch.points);
  files.push_back((directory / "branch.csv").string());
  files.push_back((directory / "special_points.csv").string());
  for (size_t i = 0; i < branch.special_points.size(); ++i)
    report.special_points.push_back(
        {labels[i], branch.special_points[i], branch.orbit(branch.special_points[i]),
         stability_around(table, branch.special_points[i], branch.points)});
  report.last_lambda = branch.points.back().lambda;
  report.last_orbit = branch.orbit(branch.points.back());
  return report;
}

nlohmann::ordered_json amplitudes_json(const libcont::OrbitPointData& orbit) {
  nlohmann::ordered_json a = nlohmann::ordered_json::object();
  for (size_t k = 0; k < orbit.coordinates.size(); ++k) a[orbit.coordinates[k]] = orbit.amplitudes[k];
  return a;
}

nlohmann::ordered_json special_points_json(const BranchReport& report) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  const auto or_null = [](std::optional<bool> b) {
    return b ? nlohmann::ordered_json(*b) : nlohmann::ordered_json(nullptr);
  };
  for (const auto& [label, p, orbit, around] : report.special_points)
    points.push_back({{"label", label},
                      {"type", p.type_name()},
                      {"kind", p.detail},
                      {"parameter", p.lambda},
                      {"amplitudes", amplitudes_json(orbit)},
                      {"p", orbit.impacts},
                      {"n", report.table.period},
                      // The branch arriving at the point and leaving it: at the point
                      // itself a multiplier is on the unit circle.
                      {"stable", around.before.value_or(orbit.stable())},
                      {"stable_after", or_null(around.after)},
                      {"spectral_radius", orbit.spectral_radius},
                      {"after_point", p.after_point}});
  return points;
}

// The table of special points of the human summary; nothing for an empty branch.
std::string special_points_text(const BranchReport& report) {
  if (report.points == 0) return "";
  std::ostringstream text;
  text << "special points (" << report.special_points.size() << ")\n";
  if (report.special_points.empty()) return text.str();
  text << "  " << table_cell("label", 7) << table_cell("type", 18) << table_cell("kind", 19)
       << table_cell(report.table.parameter, 22);
  for (const auto& column : amplitude_columns(report.table)) text << table_cell(column, 22);
  text << table_cell("p", 5) << "stable before -> after\n";
  const auto yes_no = [](std::optional<bool> b) { return b ? (*b ? "yes" : "no") : "-"; };
  for (const auto& [label, p, orbit, around] : report.special_points) {
    text << "  " << table_cell(label, 7) << table_cell(p.type_name(), 18)
         << table_cell(p.detail.empty() ? "-" : p.detail, 19) << table_cell(rounded_text(p.lambda, 10), 22);
    for (const double amplitude : orbit.amplitudes) text << table_cell(rounded_text(amplitude, 10), 22);
    text << table_cell(std::to_string(orbit.impacts), 5) << yes_no(around.before) << " -> "
         << yes_no(around.after) << '\n';
  }
  return text.str();
}

// Draws branch.{png,gp} into `directory`: the branches of `curves` (their files named
// relative to it; the first is the parent) in one plot. Nothing for an empty branch.
void draw_branches(const std::filesystem::path& directory, const libcont::HybridSystem& system,
                   const BranchReport& report, std::vector<BranchCurve> curves, RunHealth& health,
                   std::vector<std::string>& files) {
  if (report.points == 0) return;
  const BranchTable& table = report.table;
  health.add_plot(files, [&] {
    return plot_branch(BranchPlot{directory, std::move(curves), table.parameter,
                                  amplitude_columns(table),
                                  "periodic orbits of " + system.name() + " (n = " +
                                      std::to_string(table.period) + ") continued in " +
                                      table.parameter},
                       "branch");
  });
}

// How the orbit at --from was found (a run without --restart).
struct SearchedStart {
  bool converged = false;
  std::string period_note;  // how n was chosen
  int p = 0;
  int iterations = 0;
  std::string reason;  // of the shooting
};

// The saved point a --restart starts from, and how the branch leaves it.
struct RestartedStart {
  std::string restart;    // RUN_DIR:LABEL
  std::string label;
  std::string type;       // the special point's type, or "row"
  std::string kind;       // the special point's kind
  int row = 0;
  std::string parameter;  // the saved run's, at `value`
  double value = 0.0;
  int n = 1;              // of the saved point
  std::string mode{};     // switch, along-tangent, corrected or other-parameter
};

// Where a branch starts: the orbit found at --from (a run of its own) or a saved point
// (--restart). The continuation, the files and the summary are the same for both.
struct BranchStart {
  bool found = false;  // there is a point to continue from
  int n = 1;           // of the branch's orbits
  double phase = 0.0;  // the section of the point
  libcont::Vector x;   // the orbit at --from, corrected there first
  std::optional<libcont::BranchPoint> along;  // or a point left along its tangent
  std::string failure;  // why nothing was found
  SearchedStart searched;
  std::optional<RestartedStart> restarted;
};

// A doubled branch of --follow-doubling, from a period doubling of the main branch.
struct DoubledBranch {
  std::string label;      // of the period doubling
  double parameter = 0.0; // there
  double section_phase = 0.0;
  std::string directory;  // in --out
  BranchReport report{};
  std::string stop_reason{};
  bool ok = false;
  int section_moves = 0;
};

// What vicont continue reports: where the branch started, the branch and its doubled
// branches, and the run's files.
struct ContinueSummary {
  const libcont::HybridSystem& system;
  nlohmann::ordered_json parameters;  // at the start of the branch
  std::string parameter;
  double from = 0.0, to = 0.0;
  bool natural = false, follow_doubling = false;
  std::filesystem::path out;
  BranchStart start{};
  libcont::OrbitBranch branch{};
  BranchReport report{};
  std::vector<DoubledBranch> doubled{};
  RunHealth health{};
  std::vector<std::string> files{};
};

// The columns of the branch's files: n of the start (1 when there was none).
BranchTable branch_table(const ContinueSummary& summary) {
  return {summary.parameter, summary.start.found ? summary.start.n : 1, summary.branch.data_names,
          summary.system.state_names()};
}

nlohmann::ordered_json start_json(const BranchStart& start) {
  if (const auto& r = start.restarted)
    return {{"restart", r->restart}, {"label", r->label}, {"type", r->type},
            {"kind", r->kind},       {"row", r->row},     {"parameter", r->parameter},
            {"value", r->value},     {"n", r->n},         {"mode", r->mode}};
  const SearchedStart& s = start.searched;
  return {{"converged", s.converged},
          {"period_choice", s.period_note},
          {"p", s.p},
          {"iterations", s.iterations}};
}

std::string start_text(const ContinueSummary& summary) {
  const BranchStart& start = summary.start;
  if (const auto& r = start.restarted) {
    const std::string where = r->restart + " (" + r->type + ", " + r->parameter + " = " +
                              number_text(r->value) + ", n = " + std::to_string(r->n) + ")";
    if (r->mode == "switch") return where + ": the doubled branch, n = " + std::to_string(start.n);
    if (r->mode == "along-tangent") return where + ": along its tangent";
    return where + ": its orbit corrected and continued in " + summary.parameter + " from " +
           number_text(summary.from);
  }
  const SearchedStart& s = start.searched;
  return summary.parameter + " = " + number_text(summary.from) + ": " +
         (s.converged ? "orbit z = " + std::to_string(s.p) + "/" + std::to_string(start.n) + " (" +
                            s.period_note + ")"
                      : "no orbit: " + s.reason);
}

// The continue.json of a doubled branch, in its own directory: what a restart from its
// points reads.
nlohmann::ordered_json doubled_run_json(const ContinueSummary& summary, const DoubledBranch& d) {
  nlohmann::ordered_json s = {{"command", "continue"}, {"system", summary.system.name()}};
  add_model_file(s, summary.system);
  s.update(nlohmann::ordered_json{
      {"parameters", summary.parameters},
      {"parameter", summary.parameter},
      {"from", d.parameter},
      {"to", summary.to},
      {"n", d.report.table.period},
      {"parent", d.label},
      {"points", d.report.points},
      {"special_points", special_points_json(d.report)},
      {"stop_reason", d.stop_reason},
      {"section_phase", d.section_phase},
      {"section_moves", d.section_moves}});
  return s;
}

nlohmann::ordered_json render_json(const ContinueSummary& summary) {
  const libcont::OrbitBranch& branch = summary.branch;
  nlohmann::ordered_json s;
  s["command"] = "continue";
  s["system"] = summary.system.name();
  add_model_file(s, summary.system);
  s["parameters"] = summary.parameters;
  s["parameter"] = summary.parameter;
  s["from"] = summary.from;
  s["to"] = summary.to;
  s["n"] = summary.report.table.period;
  s["start"] = start_json(summary.start);
  // Of the first orbit's search (a restart searches none); the branch's maps keep no report.
  s["fallbacks"] = fallbacks_json(summary.health.report);
  s["method"] = summary.natural ? "natural-parameter" : "pseudo-arclength";
  s["points"] = branch.points.size();
  s["special_points"] = special_points_json(summary.report);
  s["stop_reason"] = branch.stop_reason;
  s["stability_warnings"] = stability_warnings_json(branch, branch.data_names);
  s["section_phase"] = summary.start.phase;
  s["section_moves"] = branch.section_moves;
  if (summary.report.last_lambda)
    s["last_point"] = {{"parameter", *summary.report.last_lambda},
                       {"amplitudes", amplitudes_json(summary.report.last_orbit)}};
  if (summary.follow_doubling) {
    nlohmann::ordered_json doubled = nlohmann::ordered_json::array();
    for (const auto& d : summary.doubled) {
      nlohmann::ordered_json entry;
      entry["label"] = d.label;
      entry["parameter"] = d.parameter;
      entry["n"] = d.report.table.period;
      entry["directory"] = d.directory;
      entry["points"] = d.report.points;
      entry["special_points"] = special_points_json(d.report);
      entry["stop_reason"] = d.stop_reason;
      entry["ok"] = d.ok;
      doubled.push_back(entry);
    }
    s["doubled_branches"] = doubled;
  }
  return s;
}

std::string render_text(const ContinueSummary& summary) {
  const libcont::OrbitBranch& branch = summary.branch;
  std::ostringstream text;
  text << "vicont continue\n";
  print_system(text, summary.system, {summary.parameter});
  text << "start       " << start_text(summary) << '\n'
       << fallbacks_text(summary.health.report)
       << "branch      " << branch.points.size() << " points, " << summary.parameter << " from "
       << number_text(summary.from) << " towards " << number_text(summary.to) << ": "
       << (branch.stop_reason.empty() ? "-" : branch.stop_reason)
       << (branch.section_moves ? " (section moved " + std::to_string(branch.section_moves) +
                                      " times away from events)"
                                : "")
       << '\n';
  if (summary.report.last_lambda)
    text << "last point  " << summary.parameter << " = " << number_text(*summary.report.last_lambda)
         << '\n';
  text << special_points_text(summary.report)
       << stability_warning_text(branch, branch.data_names, summary.parameter, "warning     ");
  for (const auto& d : summary.doubled)
    text << "doubled     from " << d.label << " at " << summary.parameter << " = "
         << number_text(d.parameter) << ": n = " << d.report.table.period << ", "
         << d.report.points << " points, " << d.stop_reason << " (in "
         << (summary.out / d.directory).string() << ")\n"
         << special_points_text(d.report);
  if (summary.follow_doubling && summary.doubled.empty())
    text << "doubled     no period-doubling point on the branch\n";
  text << "files       " << summary.out.string()
       << "/{branch.csv, special_points.csv, " << figure_file_names("branch")
       << ", continue.json}\n";
  return text.str();
}

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
    std::optional<SavedRun> saved = saved_run();
    const auto system = resolve_checked();
    // A run saved before a parameter was renamed names it by its old name.
    if (saved) saved->parameter = system->parameters().canonical(saved->parameter);
    std::optional<SavedPoint> point;
    if (saved) point = restart_point(*saved, *system);
    const libcont::OrbitBranchOptions options = settings_.branch(search_.integrator.flow());
    settings_.check_forcing_period_at_ends(inputs_.system_factory());  // the range is known now
    system->set_parameter(settings_.parameter, *settings_.from);  // names a bad parameter
    if (saved) refuse_restarted_directory(*saved);
    prepare_output_directory(out_);
    ContinueSummary summary{*system, parameters_json(*system), settings_.parameter,
                            *settings_.from, *settings_.to, settings_.natural,
                            settings_.follow_doubling, out_};
    trace_branch(summary, *system, saved, point, options);
    summary.files = {(out_ / "continue.json").string()};
    summary.report = report_branch(out_, branch_table(summary), summary.branch, summary.files);
    std::vector<BranchCurve> curves = parent_curves(summary, saved, point);
    if (settings_.follow_doubling) trace_doubled_branches(summary, *system, options, curves);
    draw_branches(out_, *system, summary.report, std::move(curves), summary.health, summary.files);
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "continue.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

 private:
  // The run --restart names (none without it).
  std::optional<SavedRun> saved_run() {
    if (restart_.empty()) {
      if (switch_)
        throw libcont::InputError(
            "--switch needs --restart RUN_DIR:PDk (a period-doubling point of a saved run)");
      return std::nullopt;
    }
    SavedRun saved = read_saved_run(restart_);
    inputs_.restart_from(saved.system, saved.parameters, (saved.directory / "continue.json").string(),
                         saved.model);
    return saved;
  }

  void refuse_restarted_directory(const SavedRun& saved) const {
    if (std::filesystem::exists(out_) && std::filesystem::equivalent(out_, saved.directory))
      throw libcont::InputError("--out " + out_.string() +
                                " is the restarted run's directory, whose files it would "
                                "overwrite: choose another --out");
  }

  // The start (the orbit at --from, or the saved point) and the branch from it; a branch
  // that could not be started or ended early is the run's numerical failure.
  void trace_branch(ContinueSummary& summary, libcont::HybridSystem& system,
                    const std::optional<SavedRun>& saved, const std::optional<SavedPoint>& point,
                    const libcont::OrbitBranchOptions& options) const {
    Progress progress(point ? "continue from " + restart_ : "continue", 1.0);
    libcont::OrbitBranchOptions traced = options;
    traced.progress = branch_progress(progress, options);
    BranchStart& start = summary.start;
    start = point ? restart_start(system, *saved, *point, options.flow)
                  : search_start(system, summary.health);
    if (!start.found) {
      if (summary.health.report.ok()) summary.health.numerical_failure = start.failure;
      return;
    }
    summary.branch =
        start.along ? libcont::trace_orbit_branch_from(system, start.n, *start.along, traced)
                    : libcont::trace_orbit_branch(system, start.n, start.phase, start.x, traced);
    progress.finish();
    if (!summary.branch.ok())
      summary.health.numerical_failure =
          "continuation stopped: " + summary.branch.stop_reason +
          (summary.branch.failure.empty() ? "" : " (" + summary.branch.failure + ")");
  }

  // The curves of the branch's plot: a switched restart's saved branch (copied into
  // OUT/parent) first, then the branch.
  std::vector<BranchCurve> parent_curves(ContinueSummary& summary,
                                         const std::optional<SavedRun>& saved,
                                         const std::optional<SavedPoint>& point) const {
    std::vector<BranchCurve> curves;
    if (switch_ && summary.report.points > 0) {
      copy_saved_branch(*saved, out_ / "parent");
      summary.files.push_back((out_ / "parent" / "branch.csv").string());
      summary.files.push_back((out_ / "parent" / "special_points.csv").string());
      curves.push_back({"parent/branch.csv", "parent/special_points.csv",
                        "parent, n = " + std::to_string(point->n)});
    }
    curves.push_back({"branch.csv", "special_points.csv",
                      "n = " + std::to_string(summary.report.table.period)});
    return curves;
  }

  // --follow-doubling: the doubled branch of every period doubling of the branch, each in
  // OUT/doubled-PDk with its files and a continue.json of its own (so that --restart works
  // from its points too), drawn in the branch's plot as well.
  void trace_doubled_branches(ContinueSummary& summary, libcont::HybridSystem& system,
                              const libcont::OrbitBranchOptions& options,
                              std::vector<BranchCurve>& curves) const {
    for (const auto& [label, flip, orbit, around] : summary.report.special_points) {
      if (flip.type != libcont::SpecialPointType::PeriodDoubling) continue;
      Progress progress("continue: doubled branch from " + label, 1.0);
      libcont::OrbitBranchOptions traced = options;
      traced.progress = branch_progress(progress, options);
      const int n = summary.report.table.period;
      const libcont::OrbitBranch doubled = libcont::trace_doubled_branch(system, n, flip, traced);
      progress.finish();
      BranchTable table = summary.report.table;
      table.period = 2 * n;
      DoubledBranch d{label, flip.lambda, flip.chart, "doubled-" + label};
      const auto directory = out_ / d.directory;
      prepare_output_directory(directory);
      d.report = report_branch(directory, table, doubled, summary.files);
      d.stop_reason = doubled.stop_reason;
      d.ok = doubled.ok();
      d.section_moves = doubled.section_moves;
      draw_branches(directory, system, d.report, {{"branch.csv", "special_points.csv", ""}},
                    summary.health, summary.files);
      if (d.report.points > 0)
        curves.push_back({d.directory + "/branch.csv", d.directory + "/special_points.csv",
                          label + ", n = " + std::to_string(table.period)});
      write_json_file(directory / "continue.json", doubled_run_json(summary, d));
      summary.files.push_back((directory / "continue.json").string());
      if (!d.ok && summary.health.numerical_failure.empty())
        summary.health.numerical_failure =
            "doubled branch from " + label + " stopped: " + d.stop_reason;
      summary.doubled.push_back(std::move(d));
    }
  }

  // The orbit at --from, found as by vicont orbit.
  BranchStart search_start(const libcont::HybridSystem& system, RunHealth& health) const {
    const libcont::OrbitSearchResult found =
        libcont::find_periodic_orbit(system, search_.options());
    health.report = search_work(found);
    BranchStart start;
    start.found = found.shooting.converged;
    start.n = found.period;
    start.phase = found.phase;
    start.x = found.shooting.x;
    start.failure = "no periodic orbit at " + settings_.parameter + " = " +
                    number_text(*settings_.from) + ": " + found.shooting.reason;
    start.searched = {found.shooting.converged, found.period_note, found.shooting.p,
                      found.shooting.iterations, found.shooting.reason};
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
    // OrbitBranchOptions::validate would refuse it too, but in terms of a --from that a
    // restart is not given: say where the restart begins.
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
    RestartedStart restarted{restart_, point.label, point.type ? to_string(*point.type) : "row",
                             point.kind, point.row, saved.parameter, point.point.lambda, point.n};
    if (switch_) {
      restarted.mode = "switch";
      start.n = 2 * point.n;
      libcont::SpecialPoint flip;
      flip.type = *point.type;
      flip.u = point.point.u;
      flip.lambda = point.point.lambda;
      flip.chart = point.point.chart;
      start.along = doubled_start(system, settings_.parameter, point.n, flip, flow, start.failure);
      start.found = start.along.has_value();
    } else if (settings_.parameter == saved.parameter && !parameters_changed(system)) {
      restarted.mode = "along-tangent";  // turned towards --to by libcont::trace_orbit_branch_from
      start.along = point.point;
    } else {
      restarted.mode = settings_.parameter == saved.parameter ? "corrected" : "other-parameter";
      start.x = point.point.u;
    }
    start.restarted = restarted;
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
