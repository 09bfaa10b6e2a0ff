// vicont continue: a branch of periodic orbits z = p/n traced by pseudo-arclength
// continuation in one parameter (SPEC 1.4), from the orbit found at --from towards --to:
// the branch with amplitudes, impacts and stability as CSV, its special points (fold,
// period doubling, Neimark-Sacker, grazing, impact-signature changes) as a table and CSV,
// and the loading or frequency-response curve as a PNG.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "branch_output.hpp"
#include "commands/command.hpp"
#include "exit_codes.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "orbit_search.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

struct ContinueSettings {
  std::string parameter;
  std::optional<double> from, to;
  int max_points = 2000;
  std::optional<double> initial_step, max_step, min_step;
  std::optional<double> locate_tolerance;
  bool natural = false;
  bool follow_doubling = false;

  void add_options(RunOptions& options) {
    options.add_text("param", parameter, "the continued parameter (required), e.g. lambda or eta");
    options.add_number("from", from, "start value of the parameter (required)");
    options.add_number("to", to, "end value of the parameter (required)");
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
    options.add_flag("follow-doubling", follow_doubling,
                     "at the first period doubling, also continue the doubled (2n) branch "
                     "(files in OUT/doubled)");
  }

  libcont::ContinuationOptions continuation() const {
    if (parameter.empty()) throw libcont::InputError("--param is required (the continued parameter)");
    if (!from) throw libcont::InputError("--from is required (start value of " + parameter + ")");
    if (!to) throw libcont::InputError("--to is required (end value of " + parameter + ")");
    if (*from == *to) throw libcont::InputError("--from and --to must differ");
    const double span = std::abs(*to - *from);
    libcont::ContinuationOptions o;
    o.lambda_min = std::min(*from, *to);
    o.lambda_max = std::max(*from, *to);
    o.direction = *to > *from ? +1 : -1;
    o.max_points = max_points;
    o.initial_step = initial_step.value_or(span / 100.0);
    o.max_step = max_step.value_or(span / 20.0);
    o.min_step = min_step.value_or(span * 1e-8);
    o.locate_tolerance = locate_tolerance.value_or(span * 1e-9);
    o.natural = natural;
    if (o.initial_step > o.max_step) o.initial_step = o.max_step;
    if (o.min_step > o.initial_step)
      throw libcont::InputError("--min-step must not exceed --initial-step and --max-step");
    return o;
  }
};

std::string cell(const std::string& text, int width) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%-*s", width, text.c_str());
  return buffer;
}

// What is reported of one branch: files written, its special points as JSON and as a
// table for the human summary.
struct BranchReport {
  size_t points = 0;
  nlohmann::ordered_json special_points = nlohmann::ordered_json::array();
  nlohmann::ordered_json last_point;  // null when the branch is empty
  std::string table;
};

// Writes branch.csv, special_points.csv and branch.{png,gp} into `directory` (nothing
// for an empty branch) and describes the branch.
BranchReport report_branch(const std::filesystem::path& directory,
                           const libcont::HybridSystem& system, const BranchTable& table,
                           const libcont::ContinuationResult& branch, RunHealth& health,
                           std::vector<std::string>& files) {
  BranchReport report;
  report.points = branch.points.size();
  if (branch.points.empty()) return report;
  std::vector<std::string> amplitude_columns;
  for (const auto& name : table.data_names)
    if (name.rfind("A_max:", 0) == 0) amplitude_columns.push_back(name);
  write_branch_csv(directory / "branch.csv", table, branch.points);
  write_special_points_csv(directory / "special_points.csv", table, branch.special_points);
  files.push_back((directory / "branch.csv").string());
  files.push_back((directory / "special_points.csv").string());
  try {
    const PlotFiles plot = plot_branch(
        BranchPlot{directory, "branch.csv", "special_points.csv", table.parameter,
                   amplitude_columns,
                   "periodic orbits of " + system.name() + " (n = " + std::to_string(table.period) +
                       ") continued in " + table.parameter},
        "branch");
    files.push_back(plot.png.string());
    files.push_back(plot.script.string());
  } catch (const OutputError& error) {
    health.plot_errors.push_back(error.what());
  }

  auto amplitudes_json = [&](const libcont::Vector& data) {
    nlohmann::ordered_json a = nlohmann::ordered_json::object();
    for (const auto& column : amplitude_columns)
      a[column.substr(std::string("A_max:").size())] = data[data_column(table, column)];
    return a;
  };
  const Eigen::Index impacts = data_column(table, "impacts");
  const Eigen::Index radius = data_column(table, "spectral_radius");
  for (const auto& p : branch.special_points)
    report.special_points.push_back({{"type", p.type},
                                     {"parameter", p.lambda},
                                     {"amplitudes", amplitudes_json(p.data)},
                                     {"p", std::lround(p.data[impacts])},
                                     {"n", table.period},
                                     {"stable", p.data[radius] < 1.0},
                                     {"spectral_radius", p.data[radius]},
                                     {"after_point", p.after_point}});
  const auto& last = branch.points.back();
  report.last_point = {{"parameter", last.lambda}, {"amplitudes", amplitudes_json(last.data)}};

  std::ostringstream text;
  text << "special points (" << branch.special_points.size() << ")\n";
  if (!branch.special_points.empty()) {
    text << "  " << cell("type", 18) << cell(table.parameter, 22);
    for (const auto& column : amplitude_columns) text << cell(column, 22);
    text << cell("p", 5) << "stable\n";
    for (const auto& p : branch.special_points) {
      text << "  " << cell(p.type, 18) << cell(rounded_text(p.lambda, 10), 22);
      for (const auto& column : amplitude_columns)
        text << cell(rounded_text(p.data[data_column(table, column)], 10), 22);
      text << cell(std::to_string(std::lround(p.data[impacts])), 5)
           << (p.data[radius] < 1.0 ? "yes" : "no") << '\n';
    }
  }
  report.table = text.str();
  return report;
}

class ContinueCommand : public Command {
 public:
  explicit ContinueCommand(CLI::App& vicont)
      : command_(*vicont.add_subcommand(
            "continue",
            "branch of periodic orbits by pseudo-arclength continuation, with special points")),
        inputs_(command_, options_, RunInputs::SystemChoice::ByName) {
    settings_.add_options(options_);
    search_.add_options(options_);
    options_.add_path("out", out_, "directory for the result files (default: out)");
    options_.add_flag("json", json_, "print the special points and the point count as one JSON object");
    options_.attach_to(command_);
  }

  int run() override {
    const auto system = inputs_.resolve();
    const libcont::ContinuationOptions options = settings_.continuation();
    system->set_parameter(settings_.parameter, *settings_.from);  // names a bad parameter
    prepare_output_directory(out_);

    RunHealth health;
    FoundOrbit start;
    libcont::ContinuationResult branch;
    BranchTable table;
    table.parameter = settings_.parameter;
    table.state_names = system->state_names();
    {
      ProgressIndicator progress("continue: orbit at " + settings_.parameter + " = " +
                                 number_text(*settings_.from) + ", then the branch");
      start = find_periodic_orbit(*system, search_);
      health.report = start.transient;
      if (start.shooting.converged) {
        libcont::PeriodicOrbitProblem problem(*system, settings_.parameter, start.period);
        table.period = start.period;
        table.data_names = problem.point_data_names();
        libcont::PseudoArclength continuation(problem, options);
        branch = continuation.run(start.shooting.x, *settings_.from);
        if (!branch.ok)
          health.numerical_failure = "continuation stopped: " + branch.stop_reason +
                                     (problem.failure().empty() ? "" : " (" + problem.failure() + ")");
      } else if (health.report.ok()) {
        health.numerical_failure = "no periodic orbit at " + settings_.parameter + " = " +
                                   number_text(*settings_.from) + ": " + start.shooting.reason;
      }
    }

    std::vector<std::string> files = {(out_ / "continue.json").string()};
    const BranchReport main_report =
        report_branch(out_, *system, table, branch, health, files);
    BranchReport doubled_report;
    std::string doubled_note;
    if (settings_.follow_doubling) {
      const libcont::SpecialPoint* flip = nullptr;
      for (const auto& p : branch.special_points)
        if (p.type == "period-doubling" && !flip) flip = &p;
      if (!flip) {
        doubled_note = "no period-doubling point on the branch";
      } else {
        ProgressIndicator progress("continue: doubled branch from " + settings_.parameter + " = " +
                                   number_text(flip->lambda));
        libcont::PeriodicOrbitProblem single(*system, settings_.parameter, table.period);
        libcont::PeriodicOrbitProblem doubled(*system, settings_.parameter, 2 * table.period);
        libcont::ContinuationResult second;
        try {
          second = libcont::PseudoArclength(doubled, options)
                       .run_from(libcont::doubled_branch_start(single, *flip));
        } catch (const libcont::InputError& error) {  // no multiplier near -1 after all
          second.stop_reason = std::string("cannot switch branches: ") + error.what();
        }
        BranchTable doubled_table = table;
        doubled_table.period = 2 * table.period;
        const auto directory = out_ / "doubled";
        prepare_output_directory(directory);
        doubled_report = report_branch(directory, *system, doubled_table, second, health, files);
        doubled_note = "from the period doubling at " + settings_.parameter + " = " +
                       number_text(flip->lambda) + ": " + second.stop_reason;
        if (!second.ok && health.numerical_failure.empty())
          health.numerical_failure = "doubled branch stopped: " + second.stop_reason;
      }
    }

    nlohmann::ordered_json s;
    s["command"] = "continue";
    s["system"] = system->name();
    s["parameters"] = parameters_json(*system);
    s["parameter"] = settings_.parameter;
    s["from"] = *settings_.from;
    s["to"] = *settings_.to;
    s["n"] = table.period;
    s["start"] = {{"converged", start.shooting.converged},
                  {"period_choice", start.note},
                  {"p", start.shooting.p},
                  {"iterations", start.shooting.iterations}};
    s["method"] = options.natural ? "natural-parameter" : "pseudo-arclength";
    s["points"] = branch.points.size();
    s["special_points"] = main_report.special_points;
    s["stop_reason"] = branch.stop_reason;
    if (!main_report.last_point.is_null()) s["last_point"] = main_report.last_point;
    if (settings_.follow_doubling)
      s["doubled_branch"] = {{"note", doubled_note},
                             {"n", 2 * table.period},
                             {"points", doubled_report.points},
                             {"special_points", doubled_report.special_points}};
    health.add_to(s);
    s["files"] = files;
    write_json_file(out_ / "continue.json", s);

    std::ostringstream text;
    text << "vicont continue\n";
    print_system(text, *system, {settings_.parameter});
    text << "start       " << settings_.parameter << " = " << number_text(*settings_.from) << ": "
         << (start.shooting.converged ? "orbit z = " + std::to_string(start.shooting.p) + "/" +
                                            std::to_string(start.period) + " (" + start.note + ")"
                                      : "no orbit: " + start.shooting.reason)
         << '\n'
         << "branch      " << branch.points.size() << " points, " << settings_.parameter
         << " from " << number_text(*settings_.from) << " towards " << number_text(*settings_.to)
         << ": " << (branch.stop_reason.empty() ? "-" : branch.stop_reason) << '\n';
    if (!branch.points.empty())
      text << "last point  " << settings_.parameter << " = " << number_text(branch.points.back().lambda)
           << '\n';
    text << main_report.table;
    if (settings_.follow_doubling)
      text << "doubled     n = " << 2 * table.period << ", " << doubled_report.points
           << " points (" << doubled_note << ")\n"
           << doubled_report.table;
    text << "files       " << out_.string()
         << "/{branch.csv, special_points.csv, branch.png, branch.gp, continue.json}\n";
    print_summary(json_, s, text.str());
    health.print_problems("continue", out_);
    return health.exit_code();
  }

 private:
  CLI::App& command_;
  RunOptions options_;
  ContinueSettings settings_;
  OrbitSearchSettings search_;
  std::filesystem::path out_ = "out";
  bool json_ = false;
  RunInputs inputs_;
};

}  // namespace

std::unique_ptr<Command> make_continue_command(CLI::App& vicont) {
  return std::make_unique<ContinueCommand>(vicont);
}

}  // namespace vicont
