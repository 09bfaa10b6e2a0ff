#include "commands/simulate.hpp"

#include <CLI/CLI.hpp>
#include <sstream>

#include "exit_codes.hpp"
#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "trajectory_recorder.hpp"

namespace vicont {

namespace {

// A bound on the rows of a time series, so that a slip in --sample-step cannot fill the
// disk; ten million rows is far beyond any plot.
constexpr double max_samples = 1e7;

bool forced(const libcont::HybridSystem& system) { return system.forcing_period() > 0.0; }

std::string state_text(const libcont::HybridSystem& system, const libcont::Vector& x) {
  const auto names = system.state_names();
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i ? ", " : "") + names[i] + " = " + number_text(x[static_cast<Eigen::Index>(i)]);
  return text;
}

class SimulateCommand : public Command {
 public:
  explicit SimulateCommand(CLI::App& vicont)
      : command_(*vicont.add_subcommand(
            "simulate", "integrate one trajectory: time series, events, plots, summary")),
        inputs_(command_, options_, RunInputs::SystemChoice::ByName) {
    settings_.add_options(options_);
    options_.add_path("out", out_, "directory for the result files (default: out)");
    options_.add_flag("json", json_, "print the summary as one JSON object on stdout");
    options_.attach_to(command_);
  }

  int run() override {
    const auto system = inputs_.resolve();
    prepare_output_directory(out_);
    const SimulationRun result = run_simulation(*system, settings_, out_);
    print_summary(json_, result.summary, result.text);
    result.health.print_problems("simulate", out_);
    return result.health.exit_code();
  }

 private:
  CLI::App& command_;
  RunOptions options_;
  SimulationSettings settings_;
  std::filesystem::path out_ = "out";
  bool json_ = false;
  RunInputs inputs_;
};

}  // namespace

void SimulationSettings::add_options(RunOptions& options) {
  options.add_positive_number("t-end", t_end,
                              "end time (default: 20 forcing periods; 3 for the drop test)");
  options.add_positive_number(
      "sample-step", sample_step,
      "time between samples (default: forcing period / 200; 0.001 for the drop test)");
}

double default_end_time(const libcont::HybridSystem& system) {
  return forced(system) ? 20.0 * system.forcing_period() : 3.0;
}

double default_sample_step(const libcont::HybridSystem& system) {
  return forced(system) ? system.forcing_period() / 200.0 : 1e-3;
}

SimulationRun run_simulation(const libcont::HybridSystem& system,
                             const SimulationSettings& settings, const std::filesystem::path& out) {
  const double t_start = 0.0;
  const double t_end = settings.t_end.value_or(default_end_time(system));
  const double step = settings.sample_step.value_or(default_sample_step(system));
  if ((t_end - t_start) / step > max_samples)
    throw libcont::InputError("sample-step " + number_text(step) + " is too small for t-end " +
                              number_text(t_end) + " (more than " + number_text(max_samples) +
                              " samples)");

  libcont::Flow flow(system);
  libcont::FlowState state = flow.initial_state(t_start, system.default_initial_state());
  const libcont::Vector initial = state.x;
  TrajectoryRecorder trajectory;
  libcont::ImpactRecorder impacts(system, &trajectory);
  trajectory.add_point(state);  // advance() samples only after the start
  SimulationRun run;
  run.health.report = flow.advance(state, t_end, &impacts, libcont::SampleGrid{t_start, step});
  // The end (or the last good state before a failure) is rarely on the sample grid.
  if (trajectory.points().back().t < state.t) trajectory.add_point(state);

  write_time_series_csv(out / "timeseries.csv", system, trajectory.points());
  write_events_csv(out / "events.csv", system, trajectory.events());
  const std::string label = short_label(system);
  const TrajectoryPlot plot{out, "timeseries.csv", system.state_names(), ""};
  auto titled = [&](std::string title) {
    TrajectoryPlot p = plot;
    p.title = std::move(title);
    return p;
  };
  try {
    plot_time_series(titled("time series: " + label), "timeseries");
  } catch (const OutputError& error) {
    run.health.plot_errors.push_back(error.what());
  }
  try {
    plot_phase_portrait(titled("phase portrait: " + label), "phase");
  } catch (const OutputError& error) {
    run.health.plot_errors.push_back(error.what());
  }

  const auto& stats = impacts.statistics();
  nlohmann::ordered_json& s = run.summary;
  s["command"] = "simulate";
  s["system"] = system.name();
  s["parameters"] = parameters_json(system);
  s["contact_damping"] = contact_damping_json(system);
  s["t_start"] = t_start;
  s["t_end"] = t_end;
  s["sample_step"] = step;
  s["initial_state"] = state_json(system, initial);
  s["final_state"] = {{"t", state.t},
                      {"mode", system.mode_name(state.mode)},
                      {"state", state_json(system, state.x)}};
  s["impacts"] = stats.impacts;
  s["events"] = trajectory.events().size();
  s["steps"] = run.health.report.steps;
  run.health.add_to(s);
  s["files"] = {(out / "timeseries.csv").string(), (out / "events.csv").string(),
                (out / "timeseries.png").string(), (out / "timeseries.gp").string(),
                (out / "phase.png").string(),      (out / "phase.gp").string(),
                (out / "simulate.json").string()};
  write_json_file(out / "simulate.json", s);

  std::ostringstream text;
  text << "vicont simulate\n";
  print_system(text, system);
  text << "time        " << number_text(t_start) << " to " << number_text(t_end) << ", sample step "
       << number_text(step) << '\n'
       << "impacts     " << stats.impacts << " (" << trajectory.events().size()
       << " events in all)\n"
       << "final state t = " << number_text(state.t) << ", " << state_text(system, state.x)
       << ", mode " << system.mode_name(state.mode) << '\n'
       << "flow status " << libcont::to_string(run.health.report.status)
       << (run.health.report.message.empty() ? "" : ": " + run.health.report.message) << '\n'
       << "files       " << out.string() << "/{timeseries.csv, events.csv, timeseries.png, "
       << "phase.png, *.gp, simulate.json}\n";
  run.text = text.str();
  return run;
}

std::unique_ptr<Command> make_simulate_command(CLI::App& vicont) {
  return std::make_unique<SimulateCommand>(vicont);
}

}  // namespace vicont
