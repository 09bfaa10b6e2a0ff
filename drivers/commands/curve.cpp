// vicont curve: the two-parameter curve of a codimension-one point of a saved branch
// (libcont::trace_orbit_curve, orbit_curve.hpp): a fold (LPk), a period doubling (PDk), a
// Neimark-Sacker point (NSk) or a grazing (GRk, of any kind) of a run of `vicont continue`,
// continued in (p1, p2), p1 the branch's parameter and p2 --param2; or,
// from a codimension-two point of a saved curve of `vicont curve` (a fold-flip, a
// resonance, a grazing end, a resonant grazing), the curve of --kind that issues from it in
// the same (p1, p2) (libcont::switch_orbit_curve, curve_switch.hpp). The curve's rows and
// its codimension-two points (cusp, fold-flip, grazing, turning points) as CSV and JSON, and
// the curve in the (p1, p2) plane as a PNG.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "branch_restart.hpp"
#include "arclength_steps.hpp"
#include "commands/system_command.hpp"
#include "curve_output.hpp"
#include "curve_restart.hpp"
#include "exit_codes.hpp"
#include "integrator_choice.hpp"
#include "libcont/curve_switch.hpp"
#include "libcont/orbit_curve.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

using libcont::InputError;

struct CurveSettings {
  std::string restart;  // RUN_DIR:LABEL or CURVE_DIR:LABEL
  std::string kind;     // --kind (a restart from a curve); empty: not given
  std::string second;   // --param2
  std::optional<double> from, to;
  std::optional<double> first_from, first_to;  // --p1-from, --p1-to
  int max_points = 500;
  ArclengthSteps steps;
  IntegratorChoice integrator;

  void add_options(RunOptions& options) {
    options.add_parameter_name("param2", second,
                     "the second parameter p2 (required from a branch), any numeric parameter "
                     "of the system but the saved branch's; from a curve the saved curve's p2 "
                     "(may be omitted)");
    options.add_text("kind", kind,
                     "with --restart CURVE_DIR:LABEL (required there): the kind of curve to "
                     "switch onto at the saved curve's point, fold, period-doubling or grazing");
    options.add_number("from", from,
                       "one end of the range of p2 (required); the start's value of p2 must "
                       "lie between --from and --to");
    options.add_number("to", to, "the end of p2 the curve runs towards (required)");
    options.add_number("p1-from", first_from,
                       "one end of the range of p1, the branch's parameter (default: the "
                       "saved run's --from)");
    options.add_number("p1-to", first_to,
                       "the other end of the range of p1 (default: the saved run's --to)");
    options.add_count("max-points", max_points, 2, "largest number of curve rows (default: 500)",
                      limits::branch_points);
    steps.add_options(options, "a codimension-two point",
                      libcont::OrbitCurveOptions{}.corrector_tolerance);
    integrator.add_option(options);
  }
};

// The saved special point (or codimension-two point of a saved curve) the curve starts
// from.
struct CurveStart {
  std::string restart;  // RUN_DIR:LABEL or CURVE_DIR:LABEL
  std::string label;
  std::string type;     // of the special point
  std::string kind;     // a grazing's kind
  double first = 0.0;   // p1 there
  double second = 0.0;  // p2 there (the system's value)
  int n = 1;
  double phase = 0.0;   // its section
  std::string from_curve;  // a switch: the saved curve's kind; empty from a branch
};

// The range of p2 and the default range of p1 a curve's options are checked against.
struct CurveRange {
  std::string first, second;     // p1, p2
  double first_value = 0.0;      // the start's p1
  std::string label;             // of the start, for messages
  std::optional<double> first_from, first_to;  // the saved range of p1
  std::string saved_file;        // where it was saved, for messages
};

// What vicont curve reports.
struct CurveSummary {
  const libcont::HybridSystem& system;
  nlohmann::ordered_json parameters;  // at the start
  CurveStart start;
  double from = 0.0, to = 0.0;              // p2's range
  double first_min = 0.0, first_max = 0.0;  // p1's
  int max_points = 0;
  std::filesystem::path out;
  libcont::OrbitCurve curve{};
  std::vector<std::string> labels{};  // of curve.points
  RunHealth health{};
  std::vector<std::string> files{};
};

nlohmann::ordered_json moduli_json(const std::vector<std::complex<double>>& multipliers) {
  nlohmann::ordered_json moduli = nlohmann::ordered_json::array();
  for (const auto& mu : multipliers) moduli.push_back(std::abs(mu));
  return moduli;
}

std::vector<double> values(const libcont::Vector& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

nlohmann::ordered_json rows_json(const libcont::OrbitCurve& curve) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const libcont::CurveRow& r : curve.rows) {
    nlohmann::ordered_json row;
    row["p1"] = r.first;
    row["p2"] = r.second;
    row["impacts"] = r.impacts;
    // Only what the orbit has: no impact, no slowest impact speed (inf in curve.csv).
    if (std::isfinite(r.slowest_impact)) row["slowest_impact"] = r.slowest_impact;
    if (std::isfinite(r.min_gap)) row["min_gap"] = r.min_gap;
    row["tests"] = values(r.tests);
    row["multiplier_moduli"] = moduli_json(r.multipliers);
    row["section_phase"] = r.phase;
    row["state"] = values(r.x);
    const auto names = auxiliary_names(curve.kind);
    for (size_t k = 0; k < names.size() && static_cast<Eigen::Index>(k) < r.auxiliary.size(); ++k)
      row[names[k]] = r.auxiliary[static_cast<Eigen::Index>(k)];
    rows.push_back(row);
  }
  return rows;
}

nlohmann::ordered_json render_json(const CurveSummary& summary) {
  const libcont::OrbitCurve& curve = summary.curve;
  const CurveStart& start = summary.start;
  nlohmann::ordered_json s;
  s["command"] = "curve";
  s["system"] = summary.system.name();
  add_model_file(s, summary.system);
  s["parameters"] = summary.parameters;
  s["kind"] = to_string(curve.kind);
  s["p1"] = curve.first;
  s["p2"] = curve.second;
  s["start"] = {{"restart", start.restart}, {"label", start.label}, {"type", start.type},
                {"kind", start.kind},       {"p1", start.first},     {"p2", start.second},
                {"n", start.n},             {"section_phase", start.phase}};
  if (!start.from_curve.empty()) {
    // A switch starts at the point or, at a resonant grazing, beside it: how far.
    s["start"]["curve"] = start.from_curve;
    if (!curve.rows.empty())
      s["start"]["first_row_offset"] = {curve.rows.front().first - start.first,
                                        curve.rows.front().second - start.second};
  }
  s["from"] = summary.from;
  s["to"] = summary.to;
  s["p1_range"] = {summary.first_min, summary.first_max};
  s["max_points"] = summary.max_points;
  s["n"] = curve.period;
  s["test_names"] = curve.test_names;
  s["state_names"] = summary.system.state_names();
  s["rows_count"] = curve.rows.size();
  s["rows"] = rows_json(curve);
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (size_t i = 0; i < curve.points.size(); ++i) {
    const libcont::CurvePoint& p = curve.points[i];
    points.push_back({{"label", summary.labels[i]},
                      {"type", p.type},
                      {"p1", p.first},
                      {"p2", p.second},
                      {"after_row", p.after_row},
                      {"error_estimate", p.error_estimate},
                      {"detail", curve_point_detail(curve, p)},
                      {"multiplier_moduli", moduli_json(p.multipliers)}});
  }
  s["points"] = points;
  s["curve_status"] = to_string(curve.status);
  s["stop_reason"] = curve.stop_reason;
  s["failure"] = curve.failure;
  return s;
}

std::string render_text(const CurveSummary& summary) {
  const libcont::OrbitCurve& curve = summary.curve;
  const CurveStart& start = summary.start;
  std::ostringstream text;
  text << "vicont curve\n";
  print_system(text, summary.system, {curve.first, curve.second});
  text << "start       " << start.restart << " (" << start.type
       << (start.kind.empty() ? "" : ", " + start.kind)
       << (start.from_curve.empty() ? "" : " of a " + start.from_curve + " curve")
       << ", n = " << start.n << ") at " << curve.first << " = " << number_text(start.first)
       << ", " << curve.second << " = " << number_text(start.second) << '\n';
  if (!start.from_curve.empty() && !curve.rows.empty())
    text << "switch      onto the " << to_string(curve.kind) << " curve; its first row is "
         << rounded_text(curve.rows.front().first - start.first, 3) << " in " << curve.first
         << " and " << rounded_text(curve.rows.front().second - start.second, 3) << " in "
         << curve.second << " from the point\n";
  text
       << "curve       " << to_string(curve.kind) << " curve in (" << curve.first << ", "
       << curve.second << "), " << curve.second << " from " << number_text(summary.from)
       << " to " << number_text(summary.to) << ", " << curve.first << " in ["
       << number_text(summary.first_min) << ", " << number_text(summary.first_max) << "]\n"
       << "rows        " << curve.rows.size() << ": "
       << (curve.stop_reason.empty() ? "-" : curve.stop_reason)
       << (curve.failure.empty() || curve.ok() ? "" : " (" + curve.failure + ")") << '\n';
  if (!curve.rows.empty()) {
    const auto& first = curve.rows.front();
    const auto& last = curve.rows.back();
    text << "first row   " << curve.first << " = " << number_text(first.first) << ", "
         << curve.second << " = " << number_text(first.second) << '\n'
         << "last row    " << curve.first << " = " << number_text(last.first) << ", "
         << curve.second << " = " << number_text(last.second) << '\n';
  }
  text << "points      " << curve.points.size() << " codimension-two and turning points\n";
  if (!curve.points.empty()) {
    // The type column as wide as its longest entry needs (resonant-grazing-flip).
    size_t type_width = 15;
    for (const auto& p : curve.points) type_width = std::max(type_width, p.type.size() + 2);
    text << "  " << table_cell("label", 7) << table_cell("type", type_width)
         << table_cell(curve.first, 20)
         << table_cell(curve.second, 20) << "after row\n";
    for (size_t i = 0; i < curve.points.size(); ++i) {
      const libcont::CurvePoint& p = curve.points[i];
      text << "  " << table_cell(summary.labels[i], 7) << table_cell(p.type, type_width)
           << table_cell(rounded_text(p.first, 10), 20) << table_cell(rounded_text(p.second, 10), 20)
           << p.after_row << '\n';
    }
  }
  // Those written: no plot of a curve without rows, or where gnuplot failed.
  text << "files       " << file_list_text(summary.out, summary.files) << '\n';
  return text.str();
}

class CurveCommand : public SystemCommand {
 public:
  explicit CurveCommand(CLI::App& vicont)
      : SystemCommand(vicont, "curve",
                      "two-parameter curve of a fold, period doubling or grazing of a saved "
                      "branch, or switched onto at a point of a saved curve") {
    settings_.add_options(options_);
    command_
        .add_option("--restart", settings_.restart,
                    "the point the curve starts from (required): LABEL a fold (LPk), a period "
                    "doubling (PDk), a Neimark-Sacker point (NSk) or a grazing (GRk) of the run "
                    "of vicont continue in RUN_DIR; or a point "
                    "of CURVE_DIR/curve_points.csv of an earlier vicont curve (with --kind). "
                    "System and parameters are the saved ones; --set overrides the others "
                    "(not p1, nor a curve's p2)")
        ->type_name("RUN_DIR:LABEL");
    finish_options("print the summary with every row as one JSON object");
  }

  int run() override {
    // Inputs are checked before the output directory is made.
    if (settings_.restart.empty())
      throw InputError("--restart RUN_DIR:LABEL is required (a special point of a saved run "
                       "of vicont continue, or a point of a saved curve)");
    if (is_curve_restart(settings_.restart)) return run_switch();
    SavedRun saved = read_saved_run(settings_.restart);
    inputs_.restart_from(saved.system, saved.parameters,
                         (saved.directory / "continue.json").string(), saved.model);
    const auto system = resolve_checked();  // the options given are read from here on
    // A run saved before a parameter was renamed names it by its old name.
    saved.parameter = system->parameters().canonical(saved.parameter);
    if (!settings_.kind.empty())
      throw InputError("--kind " + settings_.kind + ": " + item() + " is a run of vicont "
                       "continue, whose point gives the curve's kind; --kind is for a restart "
                       "from a saved curve (CURVE_DIR:LABEL)");
    const SavedPoint point =
        read_saved_point(saved, system->state_names(), GrazingStart::AsSaved);
    const libcont::CurveKind kind = curve_kind(point);
    if (settings_.second.empty())
      throw InputError("--param2 is required (the second parameter, e.g. d or r)");
    const libcont::OrbitCurveOptions options = curve_options(
        *system, {saved.parameter, settings_.second, point.point.lambda, point.label, saved.from,
                  saved.to, (saved.directory / "continue.json").string()});
    system->set_parameter(saved.parameter, point.point.lambda);
    return trace_and_report(
        *system,
        {settings_.restart, point.label, to_string(*point.type), point.kind, point.point.lambda,
         system->parameters()[options.second], point.n, point.point.chart, ""},
        saved.parameter, options, [&] { return trace(*system, kind, saved.parameter, point, options); });
  }

 private:
  std::string item() const { return "--restart " + settings_.restart; }

  // From a point of a saved curve: the curve of --kind issuing from it.
  int run_switch() {
    const SavedCurve saved = read_saved_curve(settings_.restart);
    const libcont::OrbitCurve& curve = saved.curve;
    const libcont::CurvePoint& point = saved.point;
    const std::string file = (saved.directory / "curve.json").string();
    inputs_.restart_from(saved.system, saved.parameters, file, saved.model);
    const auto system = resolve_checked();  // the options given are read from here on
    if (settings_.kind.empty())
      throw InputError("--kind is required with " + item() +
                       " (a point of a saved curve): fold, period-doubling or grazing");
    const auto kind = curve_kind_named(settings_.kind);
    if (!kind || *kind == libcont::CurveKind::NeimarkSacker)
      throw InputError("--kind " + settings_.kind +
                       ": a curve is switched onto as fold, period-doubling or grazing");
    const std::vector<libcont::CurveKind> kinds = libcont::curve_switches(curve, point);
    if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
      std::string offered;
      for (const auto k : kinds) offered += (offered.empty() ? "" : " or ") + to_string(k);
      throw InputError(item() + " (" + point.type + " of a " + to_string(curve.kind) +
                       " curve): no " + settings_.kind + " curve issues from it" +
                       (offered.empty() ? std::string(" (no curve is switched onto there)")
                                        : " (--kind " + offered + ")"));
    }
    if (system->dimension() != point.x.size())
      throw InputError(file + ": the state has " + std::to_string(point.x.size()) +
                       " components, system " + system->name() + " " +
                       std::to_string(system->dimension()));
    if (!settings_.second.empty() && settings_.second != curve.second)
      throw InputError("--param2 " + settings_.second + ": the switched curve is in the saved "
                       "curve's (" + curve.first + ", " + curve.second + ")");
    if (inputs_.assigned(curve.second))
      throw InputError("--set " + curve.second + ": the curve starts at " + point.type + " " +
                       saved.label + ", at " + curve.second + " = " + number_text(point.second) +
                       ", which cannot be set");
    system->set_parameter(curve.second, point.second);
    const libcont::OrbitCurveOptions options = curve_options(
        *system, {curve.first, curve.second, point.first, saved.label, saved.first_min,
                  saved.first_max, file});
    system->set_parameter(curve.first, point.first);
    return trace_and_report(
        *system,
        {settings_.restart, saved.label, point.type, "", point.first, point.second, curve.period,
         point.phase, to_string(curve.kind)},
        curve.first, options, [&] {
          try {
            return libcont::switch_orbit_curve(*system, curve, point, *kind, options);
          } catch (const InputError& error) {
            throw InputError(item() + " (" + point.type + "): " + error.what());
          }
        });
  }

  // The curve traced by `trace` from `start`, its files written and the summary reported.
  template <class Trace>
  int trace_and_report(libcont::HybridSystem& system, CurveStart start, const std::string& first,
                       const libcont::OrbitCurveOptions& options, Trace trace) {
    CurveSummary summary{system,      parameters_json(system), std::move(start), options.from,
                         options.to,  options.first_min,       options.first_max,
                         options.max_points, out_};
    prepare_output_directory(out_);
    {
      Progress progress("curve: from " + settings_.restart + " in (" + first + ", " +
                                 options.second + ")", 0);
      summary.curve = trace();
    }
    if (!summary.curve.ok())
      summary.health.numerical_failure =
          "the curve stopped: " + summary.curve.stop_reason +
          (summary.curve.failure.empty() ? "" : " (" + summary.curve.failure + ")");
    write_files(summary);
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "curve.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

  // The curve of the saved point's type; other points are refused, naming the label.
  libcont::CurveKind curve_kind(const SavedPoint& point) const {
    using libcont::SpecialPointType;
    const std::string supported =
        ": a curve starts at a fold (LPk), a period doubling (PDk), a Neimark-Sacker point "
        "(NSk) or a grazing (GRk)";
    if (!point.type) throw InputError(item() + " is a row of branch.csv, not a special point" + supported);
    switch (*point.type) {
      case SpecialPointType::Fold: return libcont::CurveKind::Fold;
      case SpecialPointType::PeriodDoubling: return libcont::CurveKind::PeriodDoubling;
      case SpecialPointType::NeimarkSacker: return libcont::CurveKind::NeimarkSacker;
      case SpecialPointType::Grazing:
        if (!point.kind.empty()) return libcont::CurveKind::Grazing;
        throw InputError(item() + " is a grazing of no known kind" + supported);
      default:
        throw InputError(item() + " is a " + to_string(*point.type) + " point" + supported);
    }
  }

  // The library's options from --from, --to and the range of p1, checked here against the
  // start (each error naming its option) and by OrbitCurveOptions::validate. The system is
  // at the start's p2.
  libcont::OrbitCurveOptions curve_options(libcont::HybridSystem& system,
                                           const CurveRange& range) const {
    const std::string& first = range.first;
    if (inputs_.assigned(first))
      throw InputError("--set " + first + ": the curve starts at " + range.label + ", at " +
                       first + " = " + number_text(range.first_value) + ", which cannot be set");
    const std::string& second = range.second;
    if (second == first)
      throw InputError("--param2 " + second + " is the saved branch's parameter (p1): name "
                       "another one");
    if (!settings_.from) throw InputError("--from is required (one end of the range of " + second + ")");
    if (!settings_.to) throw InputError("--to is required (the end of " + second + " the curve runs towards)");
    const double from = *settings_.from, to = *settings_.to;
    if (from == to)
      throw InputError("--to " + number_text(to) + " equals --from: the range of " + second +
                       " must not be empty");
    valid_ends(second, "--param2 " + second, {{from, "--from"}, {to, "--to"}});
    const double start = system.parameters()[second];
    if (start < std::min(from, to) || start > std::max(from, to))
      throw InputError("--from " + number_text(from) + " and --to " + number_text(to) +
                       " do not hold the start's " + second + " = " + number_text(start) +
                       ": the curve starts there");
    const auto end = [&](const std::optional<double>& given, const std::optional<double>& saved_end,
                         const char* option) {
      if (given) return *given;
      if (!saved_end)
        throw InputError(std::string(option) + " is required: " + range.saved_file +
                         " has no range of " + first);
      return *saved_end;
    };
    const double a = end(settings_.first_from, range.first_from, "--p1-from");
    const double b = end(settings_.first_to, range.first_to, "--p1-to");
    if (a == b)
      throw InputError("--p1-from and --p1-to: the range of " + first + " is empty (" +
                       number_text(a) + ")");
    valid_ends(first, first + ", the saved branch's parameter", {{a, "--p1-from"}, {b, "--p1-to"}});
    const double lambda = range.first_value;
    if (lambda < std::min(a, b) || lambda > std::max(a, b))
      throw InputError("--p1-from " + number_text(a) + " and --p1-to " + number_text(b) +
                       " do not hold " + range.label + "'s " + first + " = " + number_text(lambda));
    check_forcing_period_over(inputs_.system_factory(), first, {{a, "--p1-from"}, {b, "--p1-to"}});
    check_forcing_period_over(inputs_.system_factory(), second, {{from, "--from"}, {to, "--to"}});
    libcont::OrbitCurveOptions o(second, from, to, std::min(a, b), std::max(a, b));
    o.max_points = settings_.max_points;
    settings_.steps.apply(o);
    o.flow = settings_.integrator.flow();
    o.validate();
    return o;
  }

  // `parameter` is a numeric parameter valid at both ends of its range (each end with the
  // option that gave it; a copy of the system checks them).
  void valid_ends(const std::string& parameter, const std::string& what,
                  const std::vector<std::pair<double, std::string>>& ends) const {
    const auto probe = inputs_.system_factory()();
    for (const auto& [value, option] : ends) {
      try {
        probe->set_parameter(parameter, value);
      } catch (const InputError& error) {
        throw InputError(option + " " + number_text(value) + " (" + what + "): " + error.what());
      }
    }
  }

  // The library refuses what it cannot trace yet (a Neimark-Sacker curve) as bad input:
  // said of the label.
  libcont::OrbitCurve trace(libcont::HybridSystem& system, libcont::CurveKind kind,
                            const std::string& first, const SavedPoint& point,
                            const libcont::OrbitCurveOptions& options) const {
    try {
      libcont::SpecialPoint special;  // for the curve's period (a "merge" is the parent's)
      special.type = *point.type;
      special.detail = point.kind;
      special.u = point.point.u;
      special.lambda = point.point.lambda;
      special.chart = point.point.chart;
      const int period = libcont::curve_period(system, first, point.n, special, options.flow);
      return libcont::trace_orbit_curve(system, kind, first, point.point.lambda, period,
                                        point.point.chart, point.point.u, options);
    } catch (const InputError& error) {
      throw InputError(item() + " (" + to_string(*point.type) + "): " + error.what());
    }
  }

  void write_files(CurveSummary& summary) const {
    const libcont::OrbitCurve& curve = summary.curve;
    summary.labels = curve_point_labels(curve.points);
    const CurveTable table = curve_table(curve, summary.system.state_names());
    write_curve_csv(out_ / "curve.csv", curve, table);
    write_curve_points_csv(out_ / "curve_points.csv", curve, table, summary.labels);
    summary.files = {(out_ / "curve.json").string(), (out_ / "curve.csv").string(),
                     (out_ / "curve_points.csv").string()};
    if (curve.rows.empty()) return;
    summary.health.add_plot(summary.files, [&] {
      return plot_curve_plane(
          CurvePlanePlot{out_, "curve.csv", "curve_points.csv", curve.first, curve.second,
                         summary.start.label,
                         to_string(curve.kind) + " curve of " + summary.system.name() +
                             " (n = " + std::to_string(curve.period) + ") from " +
                             summary.start.label + " in (" + curve.first + ", " + curve.second +
                             ")"},
          "curve");
    });
  }

  CurveSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_curve_command(CLI::App& vicont) {
  return std::make_unique<CurveCommand>(vicont);
}

}  // namespace vicont
