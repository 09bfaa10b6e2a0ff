#include "commands/simulate.hpp"

#include "commands/system_command.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "drawn_variables.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "libcont/contact_measures.hpp"
#include "libcont/derived_outputs.hpp"
#include "libcont/energy_balance.hpp"
#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"
#include "output.hpp"
#include "run_limits.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "progress_observer.hpp"
#include "run_inputs.hpp"
#include "start_contact.hpp"
#include "system_report.hpp"
#include "trajectory_recorder.hpp"

namespace vicont {

namespace {

bool forced(const libcont::HybridSystem& system) { return system.forcing_period() > 0.0; }

// The contacts of a run as [t_in, t_out] pairs, from its contact-start and contact-end
// events: a contact under way at the start opens at t_start (as does one whose end comes
// with no start before it: it was under way from the start), one still under way at the
// end has t_out = null. Contacts end in the order they began.
nlohmann::ordered_json contact_intervals(const std::vector<libcont::EventRecord>& events,
                                         bool in_contact_at_start, double t_start) {
  auto intervals = nlohmann::ordered_json::array();
  std::deque<double> open;
  if (in_contact_at_start) open.push_back(t_start);
  for (const auto& e : events) {
    if (e.kind == libcont::EventKind::ContactStart) open.push_back(e.t);
    if (e.kind != libcont::EventKind::ContactEnd) continue;
    const double t_in = open.empty() ? t_start : open.front();
    if (!open.empty()) open.pop_front();
    intervals.push_back({t_in, e.t});
  }
  for (const double t_in : open) intervals.push_back({t_in, nullptr});
  return intervals;
}

// A function of (mode, t, x) whose largest value along a run is wanted.
using Quantity = std::function<double(int mode, double t, libcont::ConstVectorRef x)>;

// Keeps the largest value of a quantity over the samples and event states it sees.
class MaximumObserver : public libcont::FlowObserver {
 public:
  explicit MaximumObserver(Quantity quantity) : quantity_(std::move(quantity)) {}
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override { see(mode, t, x); }
  void on_event(const libcont::EventRecord& e) override {
    see(e.mode_before, e.t, e.x_minus);
    see(e.mode_after, e.t, e.x_plus);
  }
  double maximum() const { return maximum_; }

 private:
  void see(int mode, double t, libcont::ConstVectorRef x) {
    maximum_ = std::max(maximum_, quantity_(mode, t, x));
  }
  Quantity quantity_;
  double maximum_ = -std::numeric_limits<double>::infinity();
};

// The largest value of a quantity along the run. Over the recorded points alone a peak
// between samples would be cut (by 0.2 % for the soft drop's depth at the default step);
// so where the largest value lies at a grid sample, the two sample intervals around it
// are integrated again on a grid 1000 times finer, which cuts that error a millionfold.
double maximum_along(const libcont::HybridSystem& integrated, const libcont::FlowOptions& flow_options,
                     const std::vector<TrajectoryPoint>& points, const Quantity& quantity) {
  size_t best = 0;
  for (size_t i = 1; i < points.size(); ++i)
    if (quantity(points[i].mode, points[i].t, points[i].x) >
        quantity(points[best].mode, points[best].t, points[best].x))
      best = i;
  double maximum = quantity(points[best].mode, points[best].t, points[best].x);
  if (points[best].event >= 0 || best == 0 || best + 1 >= points.size()) return maximum;
  const TrajectoryPoint& before = points[best - 1];
  const TrajectoryPoint& after = points[best + 1];
  if (before.event >= 0 || after.event >= 0) return maximum;
  // A bounded budget: this only sharpens a peak the run already passed through, and
  // must not turn a run that failed on a too-stiff contact into a long one.
  libcont::FlowOptions options = flow_options;
  options.max_steps = 100'000;
  libcont::Flow flow(integrated, options);
  libcont::FlowState state{before.t, before.x, before.mode, {}};
  MaximumObserver observer(quantity);
  const double step = (after.t - before.t) / 2000.0;
  if (flow.advance(state, after.t, &observer, libcont::SampleGrid{before.t, step}).ok())
    maximum = std::max(maximum, observer.maximum());
  return maximum;
}

struct ContactMaxima {
  double force = 0.0;
  double penetration = 0.0;
};
// `integrated` must have contact measures.
ContactMaxima contact_maxima(const libcont::HybridSystem& integrated,
                             const libcont::FlowOptions& flow_options,
                             const std::vector<TrajectoryPoint>& points) {
  const libcont::ContactMeasures& contact = *integrated.contact_measures();
  const auto force = [&](int mode, double t, libcont::ConstVectorRef x) {
    return contact.contact_force(mode, t, x);
  };
  const auto depth = [&](int mode, double t, libcont::ConstVectorRef x) {
    return contact.penetration(mode, t, x);
  };
  return {std::max(0.0, maximum_along(integrated, flow_options, points, force)),
          std::max(0.0, maximum_along(integrated, flow_options, points, depth))};
}

nlohmann::ordered_json outputs_json(const libcont::DerivedOutputs& derived, int mode, double t,
                                    const libcont::Vector& x) {
  const auto names = derived.output_names();
  libcont::Vector values(static_cast<Eigen::Index>(names.size()));
  derived.outputs(mode, t, x, values);
  nlohmann::ordered_json result = nlohmann::ordered_json::object();
  for (size_t i = 0; i < names.size(); ++i) result[names[i]] = values[static_cast<Eigen::Index>(i)];
  return result;
}

// The balance relative to the largest energy involved (the initial energy may be zero,
// as for a body starting at rest in its equilibrium).
// NaN when one of them is NaN (std::max would drop it or not, by its place).
double energy_scale(const libcont::EnergyBalance& b) {
  double scale = 0.0;
  for (const double e : {b.initial, b.current, b.dissipated, b.supplied}) {
    if (std::isnan(e)) return e;
    scale = std::max(scale, std::abs(e));
  }
  return scale;
}

class SimulateCommand : public SystemCommand {
 public:
  explicit SimulateCommand(CLI::App& vicont)
      : SystemCommand(vicont, "simulate", "integrate one trajectory: time series, events, plots, summary") {
    settings_.add_options(options_);
    settings_.integrator.add_option(options_);
    settings_.series.add_option(options_);
    finish_options("print the summary as one JSON object on stdout");
  }

  int run() override {
    const auto system = prepare();
    settings_.parameters_set = parameter_values_text(*system, inputs_.assigned_parameters());
    const SimulationRun result = run_simulation(*system, settings_, out_);
    return report(result.summary, result.text, result.health);
  }

 private:
  SimulationSettings settings_;
};

}  // namespace

void SimulationSettings::add_options(RunOptions& options) {
  options.add_positive_number("t-end", t_end,
                              "end time (default: 20 forcing periods; 3 for the drop test)");
  options.add_positive_number(
      "sample-step", sample_step,
      "time between samples (default: forcing period / 200; 0.001 for the drop test)");
  options.add_count("max-events", max_events, 1,
                    "events recorded at most: a run with more (chattering) stops there with a "
                    "numerical failure, its files written (default: 200000)",
                    limits::max_recorded_events);
}

double default_end_time(const libcont::HybridSystem& system) {
  return forced(system) ? 20.0 * system.forcing_period() : 3.0;
}

double default_sample_step(const libcont::HybridSystem& system) {
  return forced(system) ? system.forcing_period() / 200.0 : 1e-3;
}

namespace {

void check_sample_count(const libcont::HybridSystem& system, const SimulationSettings& settings,
                        double t_start, double t_end, double step) {
  // A bound on the rows of a time series, so that a slip in --sample-step cannot fill the
  // disk; written so that NaN (inf / inf) fails it too.
  if ((t_end - t_start) / step <= limits::samples) return;
  // Name what made the step: the option, or the forcing period it was derived from.
  const std::string step_source =
      settings.sample_step ? "--sample-step " + number_text(step)
      : forced(system) ? "the default sample step (forcing period / 200 = " + number_text(step) +
                             ", with " + settings.parameters_set + ")"
                       : "the default sample step " + number_text(step);
  const std::string end_source = settings.t_end ? "--t-end " + number_text(t_end)
                                                : "the default t-end " + number_text(t_end);
  throw libcont::InputError(step_source + " is too small for " + end_source + " (more than " +
                            number_text(limits::samples) + " samples); give a larger --sample-step");
}

}  // namespace

SimulationRun run_simulation(const libcont::HybridSystem& system,
                             const SimulationSettings& settings, const std::filesystem::path& out) {
  const double t_start = 0.0;
  const double t_end = settings.t_end.value_or(default_end_time(system));
  const double step = settings.sample_step.value_or(default_sample_step(system));
  check_sample_count(system, settings, t_start, t_end, step);

  // A model that accounts for its energy is integrated with its energy accounts (two more
  // state components, energy_balance.hpp); everything else reads the model's part.
  std::optional<libcont::EnergyAccountingSystem> accounted;
  if (system.energy_account()) accounted.emplace(system);
  const libcont::HybridSystem& integrated =
      accounted ? static_cast<const libcont::HybridSystem&>(*accounted) : system;
  const Eigen::Index n = system.dimension();

  libcont::FlowOptions flow_options = settings.integrator.flow();
  flow_options.max_events = settings.max_events;
  libcont::Flow flow(integrated, flow_options);
  libcont::FlowState state = flow.initial_state(t_start, integrated.default_initial_state());
  const libcont::Vector initial = state.x.head(n);
  const int initial_mode = state.mode;
  TrajectoryRecorder trajectory;
  libcont::ImpactRecorder impacts(integrated, &trajectory);
  trajectory.add_point(state);  // advance() samples only after the start
  SimulationRun run;
  {
    Progress progress("simulate", t_end - t_start);
    ProgressObserver observed(impacts, [&](double t) { progress.update(t - t_start); });
    run.health.report = flow.advance(state, t_end, &observed, libcont::SampleGrid{t_start, step});
    if (run.health.report.ok()) progress.finish();  // t_end itself is rarely a sample
  }
  // The end (or the last good state before a failure) is rarely on the sample grid.
  if (trajectory.points().back().t < state.t) trajectory.add_point(state);

  // Files named in the summary: the data written, each plot's script, and its PNG only if
  // drawn; the series --save left out, with their rows.
  std::vector<std::string> files;
  nlohmann::ordered_json not_saved = nlohmann::ordered_json::object();
  const bool series_saved = settings.series.wanted("timeseries", trajectory.points().size());
  if (series_saved) {
    write_time_series_csv(out / "timeseries.csv", integrated, trajectory.points());
    files.push_back((out / "timeseries.csv").string());
  } else {
    not_saved["timeseries"] = trajectory.points().size();
  }
  if (settings.series.wanted("events", trajectory.events().size())) {
    write_events_csv(out / "events.csv", integrated, trajectory.events());
    files.push_back((out / "events.csv").string());
  } else {
    not_saved["events"] = trajectory.events().size();
  }
  const std::string label = short_label(system);
  // Panels: the model's state and its outputs (not the energy accounts).
  const libcont::DerivedOutputs* derived = system.derived_outputs();
  std::vector<std::string> plotted = drawn_variables(system);
  if (derived)
    for (const auto& name : derived->output_names()) plotted.push_back(name);
  const TrajectoryPlot plot{out, "timeseries.csv", plotted, ""};
  auto titled = [&](std::string title) {
    TrajectoryPlot p = plot;
    p.title = std::move(title);
    return p;
  };
  auto draw = [&](const std::function<PlotFiles()>& plot_once, const std::string& stem) {
    try {
      const PlotFiles drawn = plot_once();
      if (!drawn.png.empty()) files.push_back(drawn.png.string());
      for (const auto& other : drawn.others) files.push_back(other.string());
    } catch (const OutputError& error) {
      run.health.plot_errors.push_back(error.what());
    }
    files.push_back((out / (stem + ".gp")).string());
  };
  // The model's characteristic curves (hysteresis loops), one plot each.
  const auto curves = derived ? derived->characteristic_curves()
                              : std::vector<libcont::CharacteristicCurve>{};
  // The plots draw the time series' file: none without it.
  if (series_saved) {
    draw([&] { return plot_time_series(titled("time series: " + label), "timeseries"); },
         "timeseries");
    draw([&] { return plot_phase_portrait(titled("phase portrait: " + label), "phase"); }, "phase");
    for (const auto& curve : curves)
      draw(
          [&] {
            return plot_phase_portrait(
                TrajectoryPlot{out, "timeseries.csv", {curve.horizontal, curve.vertical},
                               curve.vertical + " against " + curve.horizontal + ": " + label},
                curve.name);
          },
          curve.name);
  }

  const auto& stats = impacts.statistics();
  nlohmann::ordered_json& s = run.summary;
  s["command"] = "simulate";
  s["system"] = system.name();
  add_model_file(s, system);
  s["parameters"] = parameters_json(system);
  s["contact_damping"] = contact_damping_json(system);
  s["t_start"] = t_start;
  s["t_end"] = t_end;
  s["sample_step"] = step;
  const libcont::Vector final_x = state.x.head(n);
  s["initial_state"] = state_json(system, initial);
  s["final_state"] = {{"t", state.t},
                      {"mode", system.mode_name(state.mode)},
                      {"state", state_json(system, final_x)}};
  if (derived && !derived->output_names().empty())
    s["final_state"]["outputs"] = outputs_json(*derived, state.mode, state.t, final_x);
  s["impacts"] = stats.impacts;
  s["events"] = trajectory.events().size();
  s["steps"] = run.health.report.steps;
  s["fallbacks"] = fallbacks_json(run.health.report);
  std::optional<ContactMaxima> maxima;
  if (const libcont::ContactMeasures* contact = system.contact_measures()) {
    s["contacts"] = contact_intervals(trajectory.events(),
                                      contact->in_contact(initial_mode, t_start, initial), t_start);
    maxima = contact_maxima(integrated, flow.options(), trajectory.points());
    s["max_contact_force"] = maxima->force;
    s["max_penetration"] = maxima->penetration;
  }
  std::optional<libcont::EnergyBalance> balance;
  if (accounted) {
    balance = accounted->balance(t_start, initial, initial_mode, state);
    const double scale = energy_scale(*balance);
    s["energy_balance_error"] = balance->residual();
    s["energy"] = {{"initial", balance->initial},
                   {"final", balance->current},
                   {"dissipated", balance->dissipated},
                   {"supplied", balance->supplied},
                   {"balance_error", balance->residual()},
                   // null only when every energy is 0; an energy that is not finite
                   // makes it NaN, noted in non_finite as the energy is.
                   {"relative_balance_error", scale == 0.0 ? nlohmann::ordered_json(nullptr)
                                                           : nlohmann::ordered_json(balance->residual() / scale)}};
  }
  s["not_saved"] = not_saved;
  run.health.add_to(s);
  files.push_back((out / "simulate.json").string());
  s["files"] = files;
  write_json_file(out / "simulate.json", s);

  std::ostringstream text;
  text << "vicont simulate\n";
  print_system(text, system);
  text << "time        " << number_text(t_start) << " to " << number_text(t_end) << ", sample step "
       << number_text(step) << '\n'
       << "impacts     " << stats.impacts << " (" << trajectory.events().size()
       << " events in all)\n"
       << "final state t = " << number_text(state.t) << ", " << state_text(system, final_x)
       << ", mode " << system.mode_name(state.mode) << '\n';
  if (maxima)
    text << "contacts    " << s["contacts"].size() << ", max contact force "
         << rounded_text(maxima->force) << ", max penetration " << rounded_text(maxima->penetration)
         << '\n';
  if (balance)
    text << "energy      initial " << rounded_text(balance->initial) << ", final "
         << rounded_text(balance->current) << ", dissipated " << rounded_text(balance->dissipated)
         << ", supplied " << rounded_text(balance->supplied) << "; balance error "
         << rounded_text(balance->residual(), 3) << '\n';
  text << fallbacks_text(run.health.report)
       << "flow status " << libcont::to_string(run.health.report.status)
       << (run.health.report.message.empty() ? "" : ": " + run.health.report.message) << '\n'
       << "files       " << file_list_text(out, files) << '\n';
  for (const auto& [name, rows] : not_saved.items())
    text << "not saved   " << name << ".csv (" << rows.get<std::size_t>() << " rows; --save "
         << name << ")\n";
  run.text = text.str();
  return run;
}

std::unique_ptr<Command> make_simulate_command(CLI::App& vicont) {
  return std::make_unique<SimulateCommand>(vicont);
}

}  // namespace vicont
