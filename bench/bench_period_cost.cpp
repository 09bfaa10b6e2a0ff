// Cost of one forcing period of the moving-base oscillator (SPEC 3.1) on libcont's flow:
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
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "libcont/flow.hpp"
#include "systems/moving_base.hpp"

namespace {

struct Settings {
  int transient_periods = 200;  // integrated once per case, tangent off, not timed
  int periods = 2000;           // timed, one Flow::advance per period
  int repeats = 5;              // best wall time of these
};

struct Measurement {
  bool ok = false;
  std::string message;
  double us_per_period = 0.0;  // best wall time per forcing period, microseconds
  double events_per_period = 0.0;
  double steps_per_period = 0.0;
};

struct Case {
  std::string name;
  std::string description;
  std::function<Measurement(const Settings&)> run;
};

// The model of every libcont row: defaults, eta = 4, r = 1; hard or soft (ks = 200000).
systems::MovingBaseOscillator make_oscillator(const std::string& model) {
  systems::MovingBaseOscillator system;
  system.set_parameter("eta", 4.0);
  system.set_parameter("r", 1.0);
  system.set_parameter_text("model", model);
  if (model == "soft") system.set_parameter("ks", 200000.0);
  return system;
}

// Advances period by period, as the stroboscopic map and the Lyapunov spectrum do (each
// call restarts the integrator at the period boundary).
Measurement run_libcont(const std::string& model, const libcont::FlowOptions& options,
                        bool per_period, const Settings& settings) {
  Measurement m;
  const auto system = make_oscillator(model);
  const double period = system.forcing_period();

  libcont::FlowOptions plain = options;
  plain.tangent = false;
  libcont::Flow transient(system, plain);
  libcont::FlowState start = transient.initial_state(0.0, system.default_initial_state());
  libcont::FlowReport report = transient.advance(start, settings.transient_periods * period);
  if (!report.ok()) {
    m.message = "transient: " + to_string(report.status) + " " + report.message;
    return m;
  }

  double best = INFINITY;
  for (int repeat = 0; repeat < settings.repeats; ++repeat) {
    libcont::Flow flow(system, options);
    libcont::FlowState state = start;
    if (options.tangent) state.tangent = libcont::Matrix::Identity(2, 2);
    const double t0 = state.t;
    long steps = 0, events = 0;
    const auto begin = std::chrono::steady_clock::now();
    const int calls = per_period ? settings.periods : 1;
    const int periods_per_call = per_period ? 1 : settings.periods;
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
    best = std::min(best, std::chrono::duration<double, std::micro>(end - begin).count());
    m.events_per_period = static_cast<double>(events) / settings.periods;
    m.steps_per_period = static_cast<double>(steps) / settings.periods;
  }
  m.ok = true;
  m.us_per_period = best / settings.periods;
  return m;
}

Case libcont_case(std::string name, std::string model, std::string description,
                  const std::function<void(libcont::FlowOptions&)>& tweak,
                  bool per_period = true) {
  libcont::FlowOptions options;
  options.tangent = true;
  tweak(options);
  return Case{std::move(name), std::move(description), [model, options, per_period](const Settings& s) {
                return run_libcont(model, options, per_period, s);
              }};
}

std::vector<Case> cases() {
  const auto rtol = [](double rtol) {
    return [rtol](libcont::FlowOptions& o) { o.relative_tolerance = rtol; };
  };
  std::vector<Case> table;
  for (const std::string model : {"hard", "soft"}) {
    table.push_back(libcont_case(model + "/default", model,
                                 "tangent on, default tolerances (rtol 1e-11)",
                                 [](libcont::FlowOptions&) {}));
    table.push_back(libcont_case(model + "/no-tangent", model,
                                 "tangent off, default tolerances",
                                 [](libcont::FlowOptions& o) { o.tangent = false; }));
    table.push_back(libcont_case(model + "/one-call", model,
                                 "tangent on, default tolerances, one advance for all periods",
                                 [](libcont::FlowOptions&) {}, false));
    table.push_back(libcont_case(model + "/rtol-1e-8", model, "tangent on, rtol 1e-8", rtol(1e-8)));
    table.push_back(
        libcont_case(model + "/rtol-1e-10", model, "tangent on, rtol 1e-10", rtol(1e-10)));
    table.push_back(
        libcont_case(model + "/rtol-1e-12", model, "tangent on, rtol 1e-12", rtol(1e-12)));
  }
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
  std::printf("%-18s %12s %12s %12s  %s\n", "case", "us/period", "events/per", "steps/per",
              "what");
  int failures = 0;
  for (const auto& c : cases()) {
    if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
    const Measurement m = c.run(settings);
    if (!m.ok) {
      std::printf("%-18s %12s %12s %12s  %s: FAILED %s\n", c.name.c_str(), "-", "-", "-",
                  c.description.c_str(), m.message.c_str());
      ++failures;
      continue;
    }
    std::printf("%-18s %12.2f %12.3f %12.2f  %s\n", c.name.c_str(), m.us_per_period,
                m.events_per_period, m.steps_per_period, c.description.c_str());
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
