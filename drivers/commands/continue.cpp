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
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
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
    options.add_flag("follow-doubling", follow_doubling,
                     "at the first period doubling, also continue the doubled (2n) branch "
                     "(files in OUT/doubled)");
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

  libcont::ContinuationOptions continuation() const {
    require_range();
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

// A branch, continued on as long as a move of its section helps. The continuation
// keeps the section off the orbit's events as it goes (PeriodicOrbitProblem::recenter);
// should a branch still stall right after an event crossed its section (the map is
// nonsmooth there, so a step may jump it), it is moved to a quiet section
// (orbit_search.hpp) and continued from its last point, up to a few times.
struct SectionedBranch {
  libcont::ContinuationResult result;
  int section_moves = 0;
  std::string failure;         // the problem's last failure message, if it stopped early
};

constexpr int max_section_moves = 4;

bool stalled(const libcont::ContinuationResult& r) {
  return !r.ok && r.stop_reason.rfind("step size below min_step", 0) == 0;
}

// Appends `more` (whose first point repeats the last point of `into`) to `into`.
void append_branch(SectionedBranch& into, const libcont::ContinuationResult& more) {
  const int offset = static_cast<int>(into.result.points.size()) - 1;
  for (size_t i = 1; i < more.points.size(); ++i) into.result.points.push_back(more.points[i]);
  for (auto p : more.special_points) {
    p.after_point += offset;
    into.result.special_points.push_back(std::move(p));
  }
  into.result.ok = more.ok;
  into.result.stop_reason = more.stop_reason;
}

// Whether a stalled branch has run into a grazing orbit: an impact whose normal speed, or
// a gap minimum that, is a small fraction of the orbit's scale (as in
// PeriodicOrbitProblem's grazing classification). With hard impacts the map has a
// square-root singularity there and the branch of impacting orbits ends.
bool ends_at_grazing(const libcont::HybridSystem& system, const std::vector<std::string>& names,
                     const libcont::BranchPoint& last) {
  double extent = 0.0, slowest = 0.0, gap = 0.0;
  for (size_t i = 0; i < names.size() && i < static_cast<size_t>(last.data.size()); ++i) {
    const double v = last.data[static_cast<Eigen::Index>(i)];
    if (names[i].rfind("A_max:", 0) == 0) extent = std::max(extent, 2.0 * v);
    if (names[i] == "slowest_impact") slowest = v;
    if (names[i] == "min_gap") gap = v;
  }
  const double tolerance = libcont::PeriodicOrbitProblem::default_grazing_tolerance;
  return extent > 0.0 && (slowest <= tolerance * extent / system.forcing_period() ||
                          std::abs(gap) <= tolerance * extent);
}

SectionedBranch trace_branch(libcont::HybridSystem& system, const std::string& parameter, int n,
                             double phase, const libcont::Vector& x0, double lambda0,
                             libcont::ContinuationOptions options,
                             const libcont::FlowOptions& flow) {
  SectionedBranch branch;
  {
    libcont::PeriodicOrbitProblem problem(system, parameter, n, flow, phase);
    branch.result = libcont::PseudoArclength(problem, options).run(x0, lambda0);
    branch.failure = problem.failure();
  }
  while (stalled(branch.result) && branch.section_moves < max_section_moves &&
         !branch.result.points.empty()) {
    const libcont::BranchPoint last = branch.result.points.back();
    system.set_parameter(parameter, last.lambda);
    const QuietSection quiet = quiet_section(system, last.u, last.chart, n);
    if (!quiet.ok || quiet.phase == last.chart) break;  // stalled for another reason
    ++branch.section_moves;
    phase = quiet.phase;
    const Eigen::Index m = last.u.size();
    options.direction = last.tangent[m] < 0.0 ? -1 : +1;
    libcont::PeriodicOrbitProblem problem(system, parameter, n, flow, phase);
    const libcont::ContinuationResult more =
        libcont::PseudoArclength(problem, options).run(quiet.x, last.lambda);
    branch.failure = problem.failure();
    if (more.points.size() < 2) break;
    append_branch(branch, more);
  }
  if (stalled(branch.result) && !branch.result.points.empty()) {
    libcont::PeriodicOrbitProblem problem(system, parameter, n);
    const libcont::BranchPoint& last = branch.result.points.back();
    if (ends_at_grazing(system, problem.point_data_names(), last)) {
      libcont::SpecialPoint end;
      end.type = "grazing";
      end.after_point = static_cast<int>(branch.result.points.size()) - 1;
      end.u = last.u;
      end.lambda = last.lambda;
      end.tests = last.tests;
      end.data = last.data;
      branch.result.special_points.push_back(std::move(end));
      branch.result.ok = true;
      branch.result.stop_reason =
          "the branch ends at a grazing orbit (the map is not differentiable there)";
    }
  }
  return branch;
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
                           const SectionedBranch& sectioned, RunHealth& health,
                           std::vector<std::string>& files) {
  const libcont::ContinuationResult& branch = sectioned.result;
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
  health.add_plot(files, [&] {
    return plot_branch(
        BranchPlot{directory, "branch.csv", "special_points.csv", table.parameter,
                   amplitude_columns,
                   "periodic orbits of " + system.name() + " (n = " + std::to_string(table.period) +
                       ") continued in " + table.parameter},
        "branch");
  });

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

class ContinueCommand : public SystemCommand {
 public:
  explicit ContinueCommand(CLI::App& vicont)
      : SystemCommand(vicont, "continue",
                      "branch of periodic orbits by pseudo-arclength continuation, with special points") {
    settings_.add_options(options_);
    search_.add_options(options_);
    finish_options("print the special points and the point count as one JSON object");
  }

  int run() override {
    // Inputs are checked before the output directory is made.
    const auto system = inputs_.resolve();
    const libcont::ContinuationOptions options = settings_.continuation();
    const libcont::FlowOptions flow = settings_.flow();
    system->set_parameter(settings_.parameter, *settings_.from);  // names a bad parameter
    prepare_output_directory(out_);

    RunHealth health;
    FoundOrbit start;
    SectionedBranch sectioned;
    const libcont::ContinuationResult& branch = sectioned.result;
    BranchTable table;
    table.parameter = settings_.parameter;
    table.state_names = system->state_names();
    {
      ProgressIndicator progress("continue: orbit at " + settings_.parameter + " = " +
                                 number_text(*settings_.from) + ", then the branch");
      start = find_periodic_orbit(*system, search_);
      health.report = start.transient;
      if (start.shooting.converged) {
        table.period = start.period;
        table.data_names =
            libcont::PeriodicOrbitProblem(*system, settings_.parameter, start.period).point_data_names();
        sectioned = trace_branch(*system, settings_.parameter, start.period, start.phase,
                                 start.shooting.x, *settings_.from, options, flow);
        if (!branch.ok)
          health.numerical_failure =
              "continuation stopped: " + branch.stop_reason +
              (sectioned.failure.empty() ? "" : " (" + sectioned.failure + ")");
      } else if (health.report.ok()) {
        health.numerical_failure = "no periodic orbit at " + settings_.parameter + " = " +
                                   number_text(*settings_.from) + ": " + start.shooting.reason;
      }
    }

    std::vector<std::string> files = {(out_ / "continue.json").string()};
    const BranchReport main_report =
        report_branch(out_, *system, table, sectioned, health, files);
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
        libcont::PeriodicOrbitProblem single(*system, settings_.parameter, table.period, flow);
        libcont::PeriodicOrbitProblem doubled(*system, settings_.parameter, 2 * table.period,
                                              flow);
        SectionedBranch doubled_branch;
        libcont::ContinuationResult& second = doubled_branch.result;
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
        doubled_report =
            report_branch(directory, *system, doubled_table, doubled_branch, health, files);
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
    s["section_phase"] = start.phase;
    s["section_moves"] = sectioned.section_moves;
    if (!main_report.last_point.is_null()) s["last_point"] = main_report.last_point;
    if (settings_.follow_doubling)
      s["doubled_branch"] = {{"note", doubled_note},
                             {"n", 2 * table.period},
                             {"points", doubled_report.points},
                             {"special_points", doubled_report.special_points}};
    write_summary(out_ / "continue.json", s, health, files);

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
         << ": " << (branch.stop_reason.empty() ? "-" : branch.stop_reason)
         << (sectioned.section_moves ? " (section moved " + std::to_string(sectioned.section_moves) +
                                           " times away from events)"
                                     : "")
         << '\n';
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
    return report(s, text.str(), health);
  }

 private:
  ContinueSettings settings_;
  OrbitSearchSettings search_;
};

}  // namespace

std::unique_ptr<Command> make_continue_command(CLI::App& vicont) {
  return std::make_unique<ContinueCommand>(vicont);
}

}  // namespace vicont
