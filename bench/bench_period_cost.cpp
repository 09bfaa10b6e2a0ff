// Cost of one forcing period of the moving-base oscillator on libcont's flow:
// wall time, events and CVODE steps per period after a transient, best of a few repeats.
//
// Not a test: it asserts nothing about time. Each row of the table is a named case with
// its own run function, so peers (scipy solve_ivp, AUTO-07p) or an exact-flow path can be
// added as further rows that report the same Measurement.
//
//   cmake --build build --target bench_period_cost && build/bench_period_cost
//   build/bench_period_cost --periods 500 --repeats 3 --filter soft
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "libcont/flow.hpp"
#include "systems/moving_base.hpp"
#include "cpu_clock.hpp"

namespace {

struct Settings {
  int transient_periods = 200;  // integrated once per case, tangent off, not timed
  int periods = 2000;           // timed, one Flow::advance per period
  int repeats = 5;              // best wall time of these
};

struct Measurement {
  bool ok = false;
  std::string message;
  double us_per_period = 0.0;      // best wall time per forcing period, microseconds
  double cpu_us_per_period = 0.0;  // best process CPU time per period (robust to load)
  double events_per_period = 0.0;
  double steps_per_period = 0.0;
};

struct Case {
  std::string name;
  std::string description;
  std::function<Measurement(const Settings&)> run;
};

// A libcont row: the moving-base oscillator with defaults, eta = 4, r = 1, hard or soft
// (ks = 200000), plus any parameter overrides; flow options; how the periods are advanced.
struct LibcontSetup {
  std::string model = "hard";
  std::vector<std::pair<std::string, double>> parameters;
  libcont::FlowOptions options;
  // true: one Flow::advance per period, as the stroboscopic map and the Lyapunov spectrum
  // do (each call restarts the integrator); false: one advance over all periods.
  bool per_period = true;
};

systems::MovingBaseOscillator make_oscillator(const LibcontSetup& setup) {
  systems::MovingBaseOscillator system;
  system.set_parameter("omega", 4.0);
  system.set_parameter("r", 1.0);
  system.set_parameter_text("model", setup.model);
  system.set_parameter("ks", 200000.0);
  for (const auto& [name, value] : setup.parameters) system.set_parameter(name, value);
  return system;
}

Measurement run_libcont(const LibcontSetup& setup, const Settings& settings) {
  Measurement m;
  const auto system = make_oscillator(setup);
  const double period = system.forcing_period();
  const libcont::FlowOptions& options = setup.options;

  libcont::FlowOptions plain = options;
  plain.tangent = false;
  libcont::Flow transient(system, plain);
  libcont::FlowState start = transient.initial_state(0.0, system.default_initial_state());
  libcont::FlowReport report = transient.advance(start, settings.transient_periods * period);
  if (!report.ok()) {
    m.message = "transient: " + to_string(report.status) + " " + report.message;
    return m;
  }

  double best = INFINITY, best_cpu = INFINITY;
  for (int repeat = 0; repeat < settings.repeats; ++repeat) {
    libcont::Flow flow(system, options);
    libcont::FlowState state = start;
    if (options.tangent) state.tangent = libcont::Matrix::Identity(2, 2);
    const double t0 = state.t;
    long steps = 0, events = 0;
    const auto begin = std::chrono::steady_clock::now();
    const double cpu_begin = cpu_seconds();
    const int calls = setup.per_period ? settings.periods : 1;
    const int periods_per_call = setup.per_period ? 1 : settings.periods;
    for (int k = 1; k <= calls; ++k) {
      report = flow.advance(state, t0 + k * periods_per_call * period);
      steps += report.steps;
      events += report.events;
      if (!report.ok()) {
        m.message = to_string(report.status) + " " + report.message;
        return m;
      }
      // Keep the tangent bounded as Benettin's QR step would; the cost of a 2x2 QR is
      // negligible next to a period of integration.
      if (options.tangent) state.tangent = state.tangent.householderQr().householderQ();
    }
    const auto end = std::chrono::steady_clock::now();
    best_cpu = std::min(best_cpu, 1e6 * (cpu_seconds() - cpu_begin));
    best = std::min(best, std::chrono::duration<double, std::micro>(end - begin).count());
    m.events_per_period = static_cast<double>(events) / settings.periods;
    m.steps_per_period = static_cast<double>(steps) / settings.periods;
  }
  m.ok = true;
  m.us_per_period = best / settings.periods;
  m.cpu_us_per_period = best_cpu / settings.periods;
  return m;
}

// A libcont row with the tangent on and the default tolerances, changed by `tweak`.
Case libcont_case(std::string name, std::string description,
                  const std::function<void(LibcontSetup&)>& tweak) {
  LibcontSetup setup;
  setup.options.tangent = true;
  // The rows measure the general (CVODE) path; the exact path for this model's affine
  // modes has its own rows (and bench_exact_flow).
  setup.options.exact_linear_modes = false;
  tweak(setup);
  return Case{std::move(name), std::move(description),
              [setup](const Settings& s) { return run_libcont(setup, s); }};
}

std::vector<Case> cases() {
  std::vector<Case> table;
  for (const std::string model : {"hard", "soft"}) {
    const auto row = [&](const std::string& suffix, const std::string& description,
                         const std::function<void(LibcontSetup&)>& tweak) {
      table.push_back(libcont_case(model + "/" + suffix, description, [&](LibcontSetup& s) {
        s.model = model;
        tweak(s);
      }));
    };
    row("default", "tangent on, default tolerances (rtol 1e-11)", [](LibcontSetup&) {});
    row("no-tangent", "tangent off", [](LibcontSetup& s) { s.options.tangent = false; });
    row("exact", "tangent on, exact path for the affine modes",
        [](LibcontSetup& s) { s.options.exact_linear_modes = true; });
    row("one-call", "tangent on, one advance over all periods",
        [](LibcontSetup& s) { s.per_period = false; });
    for (const std::string rtol : {"1e-8", "1e-10", "1e-12"})
      row("rtol-" + rtol, "tangent on, rtol " + rtol,
          [rtol](LibcontSetup& s) { s.options.relative_tolerance = std::stod(rtol); });
  }
  // Baseline without impacts (base far below, d = -1): the smooth linear oscillator, the
  // pure cost of integration and of restarting at period boundaries.
  for (const bool per_period : {true, false})
    table.push_back(libcont_case(per_period ? "smooth/default" : "smooth/one-call",
                                 per_period ? "no impacts (d = -1), tangent on"
                                            : "no impacts, one advance over all periods",
                                 [per_period](LibcontSetup& s) {
                                   s.parameters = {{"d", -1.0}};
                                   s.per_period = per_period;
                                 }));
  // Further rows (scipy solve_ivp, AUTO-07p, an exact-flow path) go here: any callable
  // that fills a Measurement for the same model and the same number of periods.
  return table;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

int usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--periods N] [--transient N] [--repeats N] [--filter TEXT]\n"
               "Cost per forcing period of the moving-base oscillator (eta = 4, r = 1).\n",
               program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Settings settings;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage(argv[0]);
      return 0;
    }
    if (i + 1 >= argc) return usage(argv[0]);
    const std::string value = argv[++i];
    char* end = nullptr;
    const long number = std::strtol(value.c_str(), &end, 10);
    const bool numeric = *end == '\0' && number > 0;
    if (arg == "--periods" && numeric) settings.periods = static_cast<int>(number);
    else if (arg == "--transient" && numeric) settings.transient_periods = static_cast<int>(number);
    else if (arg == "--repeats" && numeric) settings.repeats = static_cast<int>(number);
    else if (arg == "--filter") filter = value;
    else return usage(argv[0]);
  }

  std::printf("# bench_period_cost: moving-base oscillator, eta = 4, r = 1, defaults otherwise\n");
  std::printf("# machine: %u hardware threads, %s\n", std::thread::hardware_concurrency(),
              cpu_model().c_str());
  std::printf("# %d transient periods, then %d periods timed, best of %d\n",
              settings.transient_periods, settings.periods, settings.repeats);
  std::printf("%-18s %10s %10s %10s %10s  %s\n", "case", "wall us", "cpu us", "events",
              "steps", "what (per forcing period)");
  int failures = 0;
  for (const auto& c : cases()) {
    if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
    const Measurement m = c.run(settings);
    if (!m.ok) {
      std::printf("%-18s %10s %10s %10s %10s  %s: FAILED %s\n", c.name.c_str(), "-", "-", "-",
                  "-", c.description.c_str(), m.message.c_str());
      ++failures;
      continue;
    }
    std::printf("%-18s %10.1f %10.1f %10.3f %10.2f  %s\n", c.name.c_str(), m.us_per_period,
                m.cpu_us_per_period, m.events_per_period, m.steps_per_period,
                c.description.c_str());
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
