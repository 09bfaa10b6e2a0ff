#pragma once
// vicont simulate: one trajectory from the system's default initial state, written as a
// time series, an event list, plots of the time series and of the phase portrait, and a
// summary. The main job reuses run_simulation for each of its runs.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "commands/command.hpp"
#include "integrator_choice.hpp"
#include "libcont/hybrid_system.hpp"
#include "run_options.hpp"
#include "saved_series.hpp"

namespace vicont {

struct SimulationSettings {
  std::optional<double> t_end;        // default: default_end_time(system)
  std::optional<double> sample_step;  // default: default_sample_step(system, t_end)
  // Events recorded (each a row of events.csv and timeseries.csv): a chattering run stops
  // there with a numerical failure instead of writing gigabytes.
  int max_events = 200'000;
  // Not among add_options: the main job declares one --integrator for both its runs.
  IntegratorChoice integrator;
  // timeseries.csv (a row per sample) and events.csv (a row per event): --save. Not among
  // add_options either: the main job declares one --save for both its runs.
  SavedSeries series{{"timeseries", "events"}};
  // The parameters the run set, as "eta = 1e9": named where a derived quantity (the
  // default sample step) is refused.
  std::string parameters_set = "its default parameters";
  void add_options(RunOptions& options);
};

// 20 forcing periods, or 3 time units (s) for an autonomous system such as the drop test.
double default_end_time(const libcont::HybridSystem& system);
// 200 samples per forcing period, or 1000 per time unit for an autonomous system.
double default_sample_step(const libcont::HybridSystem& system);

struct SimulationRun {
  RunHealth health;
  nlohmann::ordered_json summary;  // also written as simulate.json
  std::string text;                // the human summary
};

// Integrates and writes simulate.json into `out` (which must exist), and timeseries.csv,
// events.csv as settings.series says, with the plots timeseries.{png,gp}, phase.{png,gp}
// when the time series is written. Throws InputError for settings that
// make no sense, OutputError when data files cannot be written.
SimulationRun run_simulation(const libcont::HybridSystem& system,
                             const SimulationSettings& settings, const std::filesystem::path& out);

}  // namespace vicont
