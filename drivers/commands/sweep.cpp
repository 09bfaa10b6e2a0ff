// vicont sweep: a brute-force bifurcation diagram (libcont::Sweep, doc/sweeps.md): for each
// value of one parameter the settled motion's Poincare samples, z = p/n, a_i, a_e, the
// impact velocities and the Lyapunov spectrum; as CSV, the three-panel PNG of the source
// figures and a JSON summary. With --param2 the sweep covers a grid of two parameters and
// draws the parameter-plane map (sweep_grid_map.hpp) instead of the three panels. Points
// run on --threads threads (and over MPI ranks in an MPI build started by mpirun), each
// finished point is checkpointed at once, and --resume computes only what a killed run
// left undone; the files come out the same.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "integrator_choice.hpp"
#include "libcont/sweep.hpp"
#include "mpi_session.hpp"
#include "output.hpp"
#include "parameter_range.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "sweep_checkpoint.hpp"
#include "sweep_grid_map.hpp"
#include "sweep_output.hpp"
#include "state_list.hpp"
#include "sweep_point_text.hpp"
#include "systems/linear_impact_system.hpp"
#include "system_report.hpp"
#include "run_limits.hpp"

namespace vicont {

namespace {

struct SweepSettings : ParameterRange {
  SweepSettings() : ParameterRange("the swept parameter", "e.g. omega") {}

  int steps = 101;
  // The grid's second parameter (--param2, --from2, --to2, --steps2); no name: a
  // one-parameter sweep.
  std::string parameter2;
  std::optional<double> from2, to2;
  int steps2 = 0;  // 0: not given (101 in a grid)
  std::string direction;  // up | down | both; empty: the order of --from and --to
  bool follow = false;
  std::string initial_states;  // "x,v;x,v"
  int threads = 1;
  bool resume = false;
  int transient = 1000;
  int periods = 1000;
  int max_period = 16;
  int samples = 0;  // 0: not given (100, or 10 per cell in a grid)
  IntegratorChoice integrator;

  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_count("steps", steps, 1, "parameter values, both ends included (default: 101)",
                      static_cast<int>(limits::grid_points));
    options.add_parameter_name("param2", parameter2,
                     "a second swept parameter, e.g. r: the sweep covers the grid of both "
                     "(doc/sweeps.md, Grids)");
    options.add_number("from2", from2,
                       "first value of the second parameter (required with --param2)");
    options.add_number("to2", to2, "last value of the second parameter (required with --param2)");
    options.add_count("steps2", steps2, 1,
                      "values of the second parameter, both ends included (default: 101)",
                      static_cast<int>(limits::grid_points));
    options.add_text("direction", direction,
                     "up, down or both (default: from --from towards --to); matters with --follow");
    options.add_flag("follow", follow,
                     "start each point from the previous point's final state (follow the "
                     "attractor) instead of from the initial states");
    options.add_text("initial-states", initial_states,
                     "initial states, components by commas, states by semicolons, e.g. "
                     "'0,0;0.004,0' (default: the system's default state)");
    options.add_count("threads", threads, 1, "threads (default: 1)", limits::threads);
    options.add_flag("resume", resume,
                     "go on from the checkpoint in OUT/points: compute only the missing points");
    options.add_count("transient", transient, 0,
                      "forcing periods integrated before averaging, per point (default: 1000)",
                      limits::periods);
    options.add_count("periods", periods, 1, "forcing periods averaged over, per point (default: 1000)",
                      limits::periods);
    options.add_count("max-period", max_period, 1,
                      "largest n tried when detecting z = p/n (default: 16)",
                      limits::detected_period);
    options.add_count("samples", samples, 1,
                      "Poincare samples and impact velocities kept per point (default: 100; 10 "
                      "per cell of a grid)",
                      limits::kept_samples);
    integrator.add_option(options);
  }

  libcont::SweepOptions sweep_options() const {
    require_range();
    libcont::SweepOptions o;
    o.parameter = parameter;
    o.from = *from;
    o.to = *to;
    o.steps = steps;
    set_second_parameter(o);
    if (direction.empty())
      o.direction = *to >= *from ? libcont::SweepDirection::Up : libcont::SweepDirection::Down;
    else if (direction == "up")
      o.direction = libcont::SweepDirection::Up;
    else if (direction == "down")
      o.direction = libcont::SweepDirection::Down;
    else if (direction == "both")
      o.direction = libcont::SweepDirection::Both;
    else
      throw libcont::InputError("--direction must be up, down or both (got '" + direction + "')");
    o.follow_attractor = follow;
    o.initial_states = parse_state_list(initial_states);
    o.threads = threads;
    o.lyapunov.transient_periods = transient;
    o.lyapunov.periods = periods;
    o.lyapunov.max_detected_period = max_period;
    o.lyapunov.flow = integrator.flow();
    o.kept_samples = samples > 0 ? samples : o.grid() ? 10 : 100;
    check_size(o);
    return o;
  }

  // The grid's second parameter, checked here so that the messages name the options.
  void set_second_parameter(libcont::SweepOptions& o) const {
    if (parameter2.empty()) {
      const char* stray = from2 ? "--from2" : to2 ? "--to2" : steps2 ? "--steps2" : nullptr;
      if (stray)
        throw libcont::InputError(std::string(stray) +
                                  " is given without --param2 (the grid's second parameter)");
      return;
    }
    if (parameter2 == parameter)
      throw libcont::InputError("--param2 " + parameter2 +
                                " is the parameter of --param; a grid needs two different "
                                "parameters");
    if (!from2)
      throw libcont::InputError("--from2 is required with --param2 (first value of " +
                                parameter2 + ")");
    if (!to2)
      throw libcont::InputError("--to2 is required with --param2 (last value of " + parameter2 +
                                ")");
    o.second_parameter = parameter2;
    o.second_from = *from2;
    o.second_to = *to2;
    o.second_steps = steps2 > 0 ? steps2 : 101;
  }

  // The forcing period within the limits at the ends of both ranges.
  void check_forcing_period_at_all_ends(
      const std::function<std::unique_ptr<libcont::HybridSystem>()>& make) const {
    check_forcing_period_at_ends(make);
    if (!parameter2.empty() && from2 && to2)
      check_forcing_period_over(make, parameter2, {{*from2, "--from2"}, {*to2, "--to2"}});
  }

  // Memory for the points and their kept samples, before any is computed.
  void check_size(const libcont::SweepOptions& o) const {
    const double points = static_cast<double>(steps) *
                          (o.grid() ? static_cast<double>(o.second_steps) : 1.0) *
                          (o.direction == libcont::SweepDirection::Both && follow ? 2 : 1) *
                          static_cast<double>(std::max<size_t>(1, o.initial_states.size()));
    const std::string grid_steps =
        o.grid() ? " x --steps2 " + std::to_string(o.second_steps) : std::string();
    if (points > limits::grid_points)
      throw libcont::InputError("--steps " + std::to_string(steps) + grid_steps + " makes " +
                                number_text(points) + " sweep points (passes and initial states "
                                "included); at most " + number_text(limits::grid_points));
    if (points * o.kept_samples > limits::kept_samples_in_all)
      throw libcont::InputError("--samples " + std::to_string(o.kept_samples) + " over " +
                                number_text(points) + " points keeps more than " +
                                number_text(limits::kept_samples_in_all) + " samples in all");
  }
};

std::string direction_name(libcont::SweepDirection d) {
  switch (d) {
    case libcont::SweepDirection::Up: return "up";
    case libcont::SweepDirection::Down: return "down";
    case libcont::SweepDirection::Both: return "both";
  }
  return "up";
}

// FNV-1a of a text in hex: stable across runs and platforms.
std::string text_fingerprint(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  std::ostringstream out;
  out << std::hex << hash;
  return out.str();
}

// Everything that determines the numbers of the points, one item a line: a checkpoint is
// resumed only under the same manifest. Threads, ranks and output options are not in it:
// they do not change a single bit.
std::string manifest(const libcont::HybridSystem& system, const libcont::Sweep& sweep) {
  const auto& o = sweep.options();
  nlohmann::ordered_json parameters = parameters_json(system);
  parameters.erase(o.parameter);  // set per point
  if (o.grid()) parameters.erase(o.second_parameter);
  std::ostringstream m;
  m << "vicont sweep checkpoint 1\n"
    << "system " << system.name() << '\n';
  // A model file's run resumes only with the same file and text (only then, so that the
  // catalogue's checkpoints stay as they were).
  if (const auto* model = dynamic_cast<const systems::LinearImpactSystem*>(&system))
    m << "model " << model_file(system).value_or(model->description().source) << '\n'
      << "model-text " << text_fingerprint(model->description().text) << '\n';
  m << "parameters " << parameters.dump() << '\n'
    << "swept " << o.parameter << '\n'
    << "from " << number_text(o.from) << '\n'
    << "to " << number_text(o.to) << '\n'
    << "steps " << o.steps << '\n';
  // Only in a grid, so that one-parameter checkpoints stay as they were.
  if (o.grid())
    m << "swept2 " << o.second_parameter << '\n'
      << "from2 " << number_text(o.second_from) << '\n'
      << "to2 " << number_text(o.second_to) << '\n'
      << "steps2 " << o.second_steps << '\n';
  m << "follow " << (o.follow_attractor ? "yes" : "no") << '\n'
    << "direction " << (o.follow_attractor ? direction_name(o.direction) : "-") << '\n';
  for (const auto& state : o.initial_states) {
    m << "initial_state";
    for (Eigen::Index i = 0; i < state.size(); ++i) m << ' ' << number_text(state[i]);
    m << '\n';
  }
  m << "transient " << o.lyapunov.transient_periods << '\n'
    << "periods " << o.lyapunov.periods << '\n'
    << "max_period " << o.lyapunov.max_detected_period << '\n'
    << "samples " << o.kept_samples << '\n'
    << "phase " << number_text(o.phase) << '\n';
  // Only when chosen, so that checkpoints written before the option still resume.
  if (o.lyapunov.flow.method != libcont::IntegratorMethod::Auto)
    m << "integrator " << static_cast<int>(o.lyapunov.flow.method) << '\n';
  return m.str();
}

// A run of consecutive points of one chain with the same periodic type z = p/n: a
// periodic window of the diagram.
struct Window {
  libcont::SweepPass pass;
  int initial_condition = 0;
  int p = 0, n = 0;
  double first = 0, last = 0;  // parameter values, in the order swept
  int points = 0;
};

std::vector<Window> periodic_windows(const std::vector<libcont::SweepPoint>& points) {
  std::vector<Window> windows;
  const libcont::SweepPoint* previous = nullptr;
  for (const auto& point : points) {
    const bool continues = previous && previous->key.pass == point.key.pass &&
                           previous->key.initial_condition == point.key.initial_condition &&
                           previous->key.second_index == point.key.second_index &&
                           previous->n == point.n && previous->p == point.p &&
                           std::abs(previous->key.index - point.key.index) == 1;
    if (point.n > 0) {
      if (continues) {
        windows.back().last = point.parameter;
        ++windows.back().points;
      } else {
        windows.push_back({point.key.pass, point.key.initial_condition, point.p, point.n,
                           point.parameter, point.parameter, 1});
      }
    }
    previous = &point;
  }
  return windows;
}

// Thrown on the ranks that did not fail when another MPI rank failed: the failing rank
// reports; the others end quietly instead of waiting forever in a collective.
struct OtherRankFailed {};

// Runs `step`; if it throws on any rank, every rank learns it in the same collective.
template <class Step>
void on_every_rank(const MpiSession& mpi, Step&& step) {
  std::exception_ptr error;
  try {
    step();
  } catch (...) {
    error = std::current_exception();
  }
  if (mpi.all(!error)) return;
  if (error) std::rethrow_exception(error);
  throw OtherRankFailed{};
}

// The records of several points, one after the other (each ends with its "end" line).
std::vector<libcont::SweepPoint> parse_points(const std::string& texts) {
  std::vector<libcont::SweepPoint> points;
  const std::string terminator = "\nend\n";
  size_t begin = 0;
  for (size_t end; (end = texts.find(terminator, begin)) != std::string::npos;) {
    std::string problem;
    auto point = parse_point_text(texts.substr(begin, end + terminator.size() - begin), problem);
    if (!point) throw std::runtime_error("a point sent by an MPI rank is not valid: " + problem);
    points.push_back(std::move(*point));
    begin = end + terminator.size();
  }
  return points;
}

// What vicont sweep reports: its options, the points (of every process) and how the run
// went.
struct SweepSummary {
  const libcont::HybridSystem& system;
  const libcont::SweepOptions& options;
  std::filesystem::path out;
  libcont::SweepResult result;
  std::vector<std::string> notes;  // about the checkpoint
  double seconds = 0.0;
  int ranks = 1;  // MPI processes
  RunHealth health{};
  std::vector<std::string> files{};
  GridMap map{};  // of a grid's points (empty for a one-parameter sweep)

  long chaotic() const {
    return std::count_if(result.points.begin(), result.points.end(),
                         [](const libcont::SweepPoint& p) { return p.chaotic(); });
  }
  // The chaotic points whose lambda_1 lies within three standard errors of 0.
  std::vector<const libcont::SweepPoint*> chaos_within_error() const {
    std::vector<const libcont::SweepPoint*> within;
    for (const auto& p : result.points)
      if (p.chaos_within_error()) within.push_back(&p);
    return within;
  }
  FallbackTally fallbacks() const {
    return points_fallbacks(result.points, options.parameter, options.second_parameter);
  }
};

// sweep.json: the settings, the periodic windows and every point.
nlohmann::ordered_json render_json(const SweepSummary& summary) {
  const libcont::HybridSystem& system = summary.system;
  const libcont::SweepOptions& o = summary.options;
  const std::vector<libcont::SweepPoint>& points = summary.result.points;
  nlohmann::ordered_json s;
  s["command"] = "sweep";
  s["system"] = system.name();
  add_model_file(s, system);
  s["parameters"] = parameters_json(system);
  s["parameters"].erase(o.parameter);
  if (o.grid()) s["parameters"].erase(o.second_parameter);
  s["contact_damping"] = contact_damping_json(system);
  s["parameter"] = o.parameter;
  s["from"] = o.from;
  s["to"] = o.to;
  s["steps"] = o.steps;
  if (o.grid()) {
    s["parameter2"] = o.second_parameter;
    s["from2"] = o.second_from;
    s["to2"] = o.second_to;
    s["steps2"] = o.second_steps;
    s["grid"] = {{"columns", o.steps},
                 {"rows", o.second_steps},
                 {"cells", static_cast<long>(o.steps) * o.second_steps},
                 {"layers", summary.map.layers.size()}};
  }
  s["start"] = o.follow_attractor ? "follow" : "fixed";
  if (o.follow_attractor) s["direction"] = direction_name(o.direction);
  s["initial_states"] = nlohmann::ordered_json::array();
  for (const auto& state : o.initial_states) s["initial_states"].push_back(state_json(system, state));
  s["transient_periods"] = o.lyapunov.transient_periods;
  s["periods"] = o.lyapunov.periods;
  s["max_period"] = o.lyapunov.max_detected_period;
  s["point_count"] = points.size();
  s["failed"] = summary.result.failed();
  s["chaotic"] = summary.chaotic();
  nlohmann::ordered_json within = nlohmann::ordered_json::array();
  for (const libcont::SweepPoint* p : summary.chaos_within_error()) {
    nlohmann::ordered_json point = {{o.parameter, p->parameter}};
    if (o.grid()) point[o.second_parameter] = p->second_parameter;
    within.push_back(point);
  }
  s["chaotic_within_error"] = within;
  s["fallbacks"] = fallbacks_json(summary.fallbacks(), "points");
  if (o.grid()) {
    // The map's classes, each with its cells' count and the box they lie in.
    nlohmann::ordered_json regions = nlohmann::ordered_json::array();
    for (size_t k = 0; k < summary.map.classes.size(); ++k) {
      const GridClass& c = summary.map.classes[k];
      constexpr double inf = std::numeric_limits<double>::infinity();
      double box[4] = {inf, -inf, inf, -inf};
      for (size_t i = 0; i < summary.map.cells.size(); ++i) {
        if (summary.map.cell_class[i] != static_cast<int>(k)) continue;
        const auto& cell = *summary.map.cells[i];
        box[0] = std::min(box[0], cell.parameter);
        box[1] = std::max(box[1], cell.parameter);
        box[2] = std::min(box[2], cell.second_parameter);
        box[3] = std::max(box[3], cell.second_parameter);
      }
      regions.push_back({{"class", k},
                         {"label", c.label},
                         {"regime", libcont::to_string(c.regime)},
                         {"p", c.p},
                         {"n", c.n},
                         {"cells", c.cells},
                         {o.parameter, {box[0], box[1]}},
                         {o.second_parameter, {box[2], box[3]}}});
    }
    s["regions"] = regions;
  } else {
    nlohmann::ordered_json windows = nlohmann::ordered_json::array();
    for (const auto& w : periodic_windows(points))
      windows.push_back({{"direction", libcont::to_string(w.pass)},
                         {"initial_condition", w.initial_condition},
                         {"p", w.p},
                         {"n", w.n},
                         {"from", w.first},
                         {"to", w.last},
                         {"points", w.points}});
    s["periodic_windows"] = windows;
  }
  nlohmann::ordered_json notes_json = nlohmann::ordered_json::object();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const std::string at = "points[" + std::to_string(i) + "].";
    nlohmann::ordered_json entry = {{"direction", libcont::to_string(p.key.pass)},
                                    {"initial_condition", p.key.initial_condition},
                                    {o.parameter, p.parameter}};
    if (o.grid()) entry[o.second_parameter] = p.second_parameter;
    entry["p"] = p.p;
    entry["n"] = p.n;
    entry["exponents"] = finite_or_null_list(p.exponents, at + "exponents", notes_json);
    entry["exponent_errors"] = finite_or_null_list(p.exponent_errors, at + "exponent_errors", notes_json);
    entry["status"] = libcont::to_string(p.status);
    entry["fallbacks"] = p.fallbacks;
    list.push_back(std::move(entry));
  }
  s["points"] = list;
  if (!notes_json.empty()) {
    s["non_finite"] = notes_json;
    s["non_finite_note"] = "JSON has no infinity: these fields are null; -inf exponents mean "
                           "that sticking collapsed the tangent space";
  }
  return s;
}

// How this run went: printed with --json, never in sweep.json.
nlohmann::ordered_json run_json(const SweepSummary& summary) {
  return {{"computed", summary.result.computed}, {"from_checkpoint", summary.result.reused},
          {"threads", summary.options.threads},  {"processes", summary.ranks},
          {"seconds", summary.seconds},          {"notes", summary.notes}};
}

// "            4 of them with lambda_1 within 3 standard errors of 0 (...): omega = 5.3,
// 6.95, ..." or nothing when there are none; at most six points named.
std::string chaos_within_error_text(const std::vector<const libcont::SweepPoint*>& within,
                                    const libcont::SweepOptions& o) {
  if (within.empty()) return "";
  std::string text = "            " + std::to_string(within.size()) +
                     " of them with lambda_1 within 3 standard errors of 0 (not told from a "
                     "quasi-periodic motion or a long transient): ";
  constexpr size_t kNamed = 6;
  text += o.grid() ? "(" + o.parameter + ", " + o.second_parameter + ") = " : o.parameter + " = ";
  for (size_t i = 0; i < within.size() && i < kNamed; ++i) {
    const libcont::SweepPoint& p = *within[i];
    text += (i ? ", " : "") + (o.grid() ? "(" + number_text(p.parameter) + ", " +
                                              number_text(p.second_parameter) + ")"
                                        : number_text(p.parameter));
  }
  return text + (within.size() > kNamed ? ", ... (all in sweep.json)\n" : "\n");
}

std::string render_text(const SweepSummary& summary) {
  const libcont::SweepOptions& o = summary.options;
  const libcont::SweepResult& r = summary.result;
  std::ostringstream text;
  text << "vicont sweep\n";
  std::vector<std::string> swept = {o.parameter};
  if (o.grid()) swept.push_back(o.second_parameter);
  print_system(text, summary.system, swept);
  text << "sweep       " << o.parameter << " from " << number_text(o.from) << " to "
       << number_text(o.to) << ", " << o.steps << " values, "
       << (o.grid() ? "x " + o.second_parameter + " from " + number_text(o.second_from) +
                          " to " + number_text(o.second_to) + ", " +
                          std::to_string(o.second_steps) + " values (a grid of " +
                          std::to_string(static_cast<long>(o.steps) * o.second_steps) +
                          " cells), "
                    : std::string())
       << (o.follow_attractor ? "following the attractor " + direction_name(o.direction)
                              : std::string("every point from the initial state"))
       << (o.initial_states.size() > 1 ? " (" + std::to_string(o.initial_states.size()) +
                                             " initial states)"
                                       : std::string())
       << '\n'
       << "periods     " << o.lyapunov.transient_periods << " transient + "
       << o.lyapunov.periods << " averaged per point\n"
       << "points      " << r.points.size() << " (" << r.computed << " computed, " << r.reused
       << " from the checkpoint) on " << o.threads << " thread" << (o.threads > 1 ? "s" : "")
       << (summary.ranks > 1 ? " x " + std::to_string(summary.ranks) + " processes" : std::string())
       << " in " << duration_text(summary.seconds) << '\n';
  if (o.grid()) {
    const auto& classes = summary.map.classes;
    text << "regions     " << classes.size() << " classes of cells on the map\n";
    for (const auto& c : classes)
      text << "            " << c.label << ": " << c.cells << (c.cells == 1 ? " cell" : " cells")
           << '\n';
  } else {
    const auto w = periodic_windows(r.points);
    text << "windows     " << w.size() << " periodic run" << (w.size() == 1 ? "" : "s")
         << " of consecutive points\n";
    for (size_t i = 0; i < w.size() && i < 12; ++i)
      text << "            z = " << w[i].p << '/' << w[i].n << "  " << o.parameter << ' '
           << number_text(w[i].first) << " to " << number_text(w[i].last) << " (" << w[i].points
           << (w[i].points == 1 ? " point, " : " points, ") << libcont::to_string(w[i].pass)
           << (o.initial_states.size() > 1
                   ? ", initial state " + std::to_string(w[i].initial_condition + 1)
                   : std::string())
           << ")\n";
    if (w.size() > 12) text << "            ... (all in sweep.json)\n";
  }
  text << "chaotic     " << summary.chaotic() << " points with lambda_1 > 0 and no period up to "
       << o.lyapunov.max_detected_period << '\n'
       << chaos_within_error_text(summary.chaos_within_error(), o)
       << "failed      " << r.failed() << '\n'
       << fallbacks_text(summary.fallbacks(), "point");
  // Notes about the checkpoint are part of the summary (and of --json's run.notes), not
  // messages on stderr: stderr is for errors, numerical failures and failed plots.
  for (size_t i = 0; i < summary.notes.size(); ++i)
    text << (i == 0 ? "notes       " : "            ") << summary.notes[i] << '\n';
  text << "files       " << summary.out.string()
       << (o.grid() ? "/{sweep.csv, sweep_grid.csv, sweep_samples.csv, sweep_impacts.csv, " +
                          figure_file_names("sweep_map")
                    : "/{sweep.csv, sweep_samples.csv, sweep_impacts.csv, " +
                          figure_file_names("sweep"))
       << ", sweep.json, points/}\n";
  return text.str();
}

// sweep.png: the source's three panels, one colour per direction swept.
void draw_sweep(SweepSummary& summary, const SweepFiles& names) {
  const libcont::HybridSystem& system = summary.system;
  const libcont::SweepOptions& o = summary.options;
  std::vector<std::string> directions;
  for (const auto& point : summary.result.points)
    if (std::find(directions.begin(), directions.end(), libcont::to_string(point.key.pass)) ==
        directions.end())
      directions.push_back(libcont::to_string(point.key.pass));
  summary.health.add_plot(summary.files, [&] {
    const int column =
        system.displacement_coordinates().empty() ? 0 : system.displacement_coordinates().front();
    const auto coordinate = system.state_names()[static_cast<size_t>(column)];
    // A panel per exponent, of the four largest at most: those tell chaos and
    // quasi-periodicity apart; a chain's hundreds would not fit in one figure
    // (sweep.csv keeps them all).
    std::vector<std::string> drawn_exponents = exponent_columns(system.dimension());
    if (drawn_exponents.size() > 4) drawn_exponents.resize(4);
    SweepPlot plot{summary.out, names.points, names.samples, names.impacts, o.parameter,
                   coordinate, drawn_exponents, directions,
                   system.name() + ": " + o.parameter + " from " + rounded_text(o.from) + " to " +
                       rounded_text(o.to) + " (" +
                       (o.follow_attractor ? "following the attractor" : "fixed start") + ")"};
    // The clouds from the points in memory: the numbers the samples and impacts files hold.
    for (const auto& point : summary.result.points) {
      const int direction = static_cast<int>(
          std::find(directions.begin(), directions.end(), libcont::to_string(point.key.pass)) -
          directions.begin());
      for (const auto& sample : point.samples)
        plot.samples.add(point.parameter, sample[column], direction);
      for (const double v_r : point.impact_velocities)
        plot.impacts.add(point.parameter, v_r, direction);
    }
    return plot_sweep(plot, "sweep");
  });
}

// sweep_map.png: the grid's parameter-plane map.
void draw_map(SweepSummary& summary, const std::string& cells_csv) {
  const libcont::SweepOptions& o = summary.options;
  summary.health.add_plot(summary.files, [&] {
    return plot_sweep_map(
        sweep_map_plot(summary.out, cells_csv, o, summary.map,
                       summary.system.name() + ": " + o.parameter + " from " +
                           rounded_text(o.from) + " to " + rounded_text(o.to) + " x " +
                           o.second_parameter + " from " + rounded_text(o.second_from) +
                           " to " + rounded_text(o.second_to) + ", " +
                           std::to_string(o.steps) + " x " + std::to_string(o.second_steps) +
                           " cells (" +
                           (o.follow_attractor ? "following the attractor along " + o.parameter
                                               : std::string("fixed start")) +
                           ")"),
        "sweep_map");
  });
}

class SweepCommand : public SystemCommand {
 public:
  explicit SweepCommand(CLI::App& vicont)
      : SystemCommand(vicont, "sweep",
                      "brute-force bifurcation diagram: Poincare samples, z = p/n, a_i, a_e, v_r "
                      "and Lyapunov exponents over a parameter range") {
    settings_.add_options(options_);
    finish_options("print the summary with every point's p, n and exponents as JSON");
  }

  int run() override {
    MpiSession mpi;
    try {
      return run_sweep(mpi);
    } catch (const OtherRankFailed&) {
      return OutputFailure;  // the rank that failed has said why
    } catch (const libcont::InputError&) {
      if (!mpi.root()) return BadInput;  // every rank validates alike; rank 0 reports
      throw;
    }
  }

 private:
  int run_sweep(const MpiSession& mpi) {
    const auto start_time = std::chrono::steady_clock::now();
    const auto system = resolve_checked();
    libcont::SweepOptions options = settings_.sweep_options();
    settings_.check_forcing_period_at_all_ends(inputs_.system_factory());
    options.partition_rank = mpi.rank();
    options.partition_size = mpi.size();
    const libcont::Sweep sweep(inputs_.system_factory(), options);
    const bool grid = options.grid();
    SweepCheckpoint checkpoint(out_ / "points", manifest(*system, sweep), grid);

    std::vector<std::string> notes;
    // Rank 0 prepares the directory before anyone reads or writes points in it.
    on_every_rank(mpi, [&] {
      if (!mpi.root()) return;
      prepare_output_directory(out_);
      if (settings_.resume && !checkpoint.exists())
        notes.push_back("--resume: no checkpoint in '" + checkpoint.directory().string() +
                        "'; starting afresh");
      if (!settings_.resume || !checkpoint.exists()) checkpoint.start_fresh();
    });
    std::vector<libcont::SweepPoint> finished;
    // Every rank reads the checkpoint (and rejects one made with other settings).
    if (settings_.resume) on_every_rank(mpi, [&] { finished = checkpoint.load(sweep, notes); });

    // One process writes its CSV files while the points come (its points are the plan's);
    // over several, rank 0 has the others' points only after the gather.
    const SweepFiles names;
    const auto plan = sweep.plan();
    std::map<std::string, size_t> position;  // in the plan, by point name
    for (size_t i = 0; i < plan.size(); ++i) position[point_name(plan[i], grid)] = i;
    std::optional<SweepCsvWriter> csv;
    if (mpi.size() == 1) {
      csv.emplace(out_, names, *system, options.parameter, plan.size(), options.second_parameter);
      for (const auto& point : finished) csv->add(position.at(point_name(point.key, grid)), point);
    }

    libcont::SweepResult result;
    on_every_rank(mpi, [&] {
      checkpoint.open(mpi.rank());  // after every rank has read the checkpoint
      // One line for the whole run: the root's.
      std::optional<Progress> progress;
      if (mpi.root())
        progress.emplace("sweep " + options.parameter + (grid ? " x " + options.second_parameter : ""),
                         points_to_compute(sweep, finished), "points");
      result = sweep.run(finished, [&](const libcont::SweepPoint& point) {
        checkpoint.save(point);
        if (csv) csv->add(position.at(point_name(point.key, grid)), point);
        if (progress) progress->advance();
        return true;
      });
    });

    if (mpi.size() > 1) {
      std::string mine;
      for (const auto& point : result.points) mine += point_text(point, grid);
      const auto texts = mpi.gather(mine + "counts " + std::to_string(result.computed) + ' ' +
                                    std::to_string(result.reused) + '\n');
      if (!mpi.root()) return Success;
      result.points = merge_ranks(sweep, texts, result.computed, result.reused);
      csv.emplace(out_, names, *system, options.parameter, result.points.size(),
                  options.second_parameter);
      for (size_t i = 0; i < result.points.size(); ++i) csv->add(i, result.points[i]);
    }
    // Judged over the whole plan: on one process its partition is the plan, over several
    // the points are now those of every rank.
    libcont::judge_sweep(result, sweep.plan().size(), options.parameter,
                         options.second_parameter);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    return report_sweep(*system, sweep, *csv, std::move(result), std::move(notes), seconds,
                        mpi.size());
  }

  // The points this process will compute: those of its tasks not in the checkpoint.
  static int points_to_compute(const libcont::Sweep& sweep,
                               const std::vector<libcont::SweepPoint>& finished) {
    const bool grid = sweep.options().grid();
    std::set<std::string> done;
    for (const auto& point : finished) done.insert(point_name(point.key, grid));
    int count = 0;
    for (const auto& task : sweep.partition_tasks())
      for (const auto& key : task) count += done.count(point_name(key, grid)) ? 0 : 1;
    return count;
  }

  // Rank 0: every rank's points, put in plan order.
  static std::vector<libcont::SweepPoint> merge_ranks(const libcont::Sweep& sweep,
                                                      const std::vector<std::string>& texts,
                                                      int& computed, int& reused) {
    const bool grid = sweep.options().grid();
    std::map<std::string, libcont::SweepPoint> by_name;
    computed = reused = 0;
    for (const auto& text : texts) {
      const auto counts = text.rfind("counts ");
      std::istringstream tail(text.substr(counts + 7));
      int c = 0, r = 0;
      tail >> c >> r;
      computed += c;
      reused += r;
      for (auto& point : parse_points(text.substr(0, counts)))
        by_name.emplace(point_name(point.key, grid), std::move(point));
    }
    std::vector<libcont::SweepPoint> points;
    for (const auto& key : sweep.plan())
      if (const auto it = by_name.find(point_name(key, grid)); it != by_name.end())
        points.push_back(std::move(it->second));
    return points;
  }

  // `csv`: the CSV files, holding every point of `result`, to be finished.
  int report_sweep(const libcont::HybridSystem& system, const libcont::Sweep& sweep,
                   SweepCsvWriter& csv, libcont::SweepResult result,
                   std::vector<std::string> notes, double seconds, int ranks) {
    SweepSummary summary{system, sweep.options(), out_, std::move(result), std::move(notes),
                         seconds, ranks};
    const SweepFiles names;
    const libcont::SweepOptions& o = summary.options;
    csv.finish();
    summary.files = {(out_ / "sweep.json").string(), (out_ / names.points).string(),
                     (out_ / names.samples).string(), (out_ / names.impacts).string()};
    if (o.grid()) {
      const std::string cells_csv = "sweep_grid.csv";
      summary.map = grid_map(summary.result.points);
      write_sweep_grid_csv(out_ / cells_csv, o, summary.map);
      summary.files.insert(summary.files.begin() + 2, (out_ / cells_csv).string());
      draw_map(summary, cells_csv);
    } else {
      draw_sweep(summary, names);
    }
    summary.health.numerical_failure = summary.result.message;
    // sweep.json holds only what the points determine: identical for any thread count,
    // process count or resume. How this run went is printed (and in the --json output).
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "sweep.json", json, summary.health, summary.files);
    json["run"] = run_json(summary);
    return report(json, render_text(summary), summary.health);
  }

  SweepSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_sweep_command(CLI::App& vicont) {
  return std::make_unique<SweepCommand>(vicont);
}

}  // namespace vicont
