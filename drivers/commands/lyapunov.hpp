#pragma once
// vicont lyapunov: the Lyapunov spectrum of the settled motion (libcont::LyapunovSpectrum,
// doc/theory.md, 5) with the sweep quantities z = p/n, a_i, a_e and the impact
// relative velocities. The main job reuses run_lyapunov for each of its runs.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "commands/command.hpp"
#include "integrator_choice.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "run_options.hpp"
#include "saved_series.hpp"

namespace vicont {

struct LyapunovSettings {
  int transient = 1000;  // forcing periods (time units if autonomous) before averaging
  int periods = 1000;    // forcing periods averaged over
  int max_period = 16;   // largest n tried for z = p/n
  int batches = 20;      // batches of the averaging for the standard errors
  // Not among add_options: the main job declares one --integrator for both its runs.
  IntegratorChoice integrator;
  // poincare.csv (a row per averaged period) and impacts.csv (a row per impact): --save.
  // Not among add_options: the main job declares one --save for both its runs.
  SavedSeries series{{"poincare", "impacts"}};
  void add_options(RunOptions& options);
};

struct LyapunovRun {
  RunHealth health;
  libcont::LyapunovResult result;
  nlohmann::ordered_json summary;  // also written as lyapunov.json
  std::string text;                // the human summary
};

// Computes and writes lyapunov.json, settled.csv and settled_phase.{png,gp} into `out`
// (which must exist), and poincare.csv and impacts.csv as settings.series says.
LyapunovRun run_lyapunov(const libcont::HybridSystem& system, const LyapunovSettings& settings,
                         const std::filesystem::path& out);

}  // namespace vicont
