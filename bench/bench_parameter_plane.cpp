// The parameter-plane map of the hard moving-base oscillator (r = 1) in the box
// eta in [0.5, 10], d in [-0.01, 0.005]: every fold, period-doubling and grazing curve of the
// orbits z = p/n with n <= 5 that libcont::map_parameter_plane finds, its process CPU time
// on one core, and how its curve pieces ended; then the brute-force map of the same box
// (libcont::Sweep over both parameters) on a grid, with its wall and CPU time on the given
// threads and the share of cells periodic with n <= 5.
//
// Not a test: it asserts nothing about time (the machine is shared).
//
//   cmake --build build --target bench_parameter_plane && build/bench_parameter_plane
//   build/bench_parameter_plane --grid 200 --transient 300 --periods 300 --threads 2
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>

#include "libcont/parameter_plane.hpp"
#include "libcont/sweep.hpp"
#include "systems/moving_base.hpp"
#include "cpu_clock.hpp"

namespace {

struct Settings {
  int grid = 200;  // cells along each parameter; 0: no grid
  int transient = 300;
  int periods = 300;
  int threads = 2;
  int lines = 3;
  int seeds = 12;
};

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const int value = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--grid")) s.grid = value;
    else if (!std::strcmp(argv[i], "--transient")) s.transient = value;
    else if (!std::strcmp(argv[i], "--periods")) s.periods = value;
    else if (!std::strcmp(argv[i], "--threads")) s.threads = value;
    else if (!std::strcmp(argv[i], "--lines")) s.lines = value;
    else if (!std::strcmp(argv[i], "--seeds")) s.seeds = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse(argc, argv);
  systems::MovingBaseOscillator system;
  libcont::ParameterPlaneOptions o;
  o.first = "omega";
  o.first_min = 0.5;
  o.first_max = 10.0;
  o.second = "d";
  o.second_min = -0.01;
  o.second_max = 0.005;
  o.max_period = 5;
  o.seed_lines = settings.lines;
  o.seeds_per_line = settings.seeds;

  const double begin = cpu_seconds();
  const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(system, o);
  const double seconds = cpu_seconds() - begin;
  std::map<std::string, int> pieces, rows;
  int crawled = 0, stopped_short = 0;
  for (const libcont::PlaneCurve& c : map.curves) {
    const std::string kind = to_string(c.curve.kind) + " n=" + std::to_string(c.curve.period);
    ++pieces[kind];
    rows[kind] += static_cast<int>(c.curve.rows.size());
    if (c.curve.status == libcont::ContinuationStatus::ReachedMaxPoints) ++crawled;
    else if (!c.curve.ok()) ++stopped_short;
  }
  std::printf("map of (eta, d) in [0.5, 10] x [-0.01, 0.005], n <= 5, %d lines x %d seeds\n",
              settings.lines, settings.seeds);
  std::printf("  %d searches, %d orbits found, %zu branch pieces, %zu curve pieces\n",
              map.searches, map.orbits_found, map.branches.size(), map.curves.size());
  for (const auto& [kind, count] : pieces)
    std::printf("  %-22s %3d pieces %6d rows\n", kind.c_str(), count, rows[kind]);
  std::printf("  pieces at max_points (crawling): %d; stopped short otherwise: %d; notes: %zu\n",
              crawled, stopped_short, map.notes.size());
  std::printf("  CPU time of the map: %.2f s\n", seconds);

  if (settings.grid <= 0) return 0;
  libcont::SweepOptions g;
  g.parameter = "omega";
  g.from = o.first_min;
  g.to = o.first_max;
  g.steps = settings.grid;
  g.second_parameter = "d";
  g.second_from = o.second_min;
  g.second_to = o.second_max;
  g.second_steps = settings.grid;
  g.initial_states = {libcont::Vector::Zero(2)};
  g.lyapunov.transient_periods = settings.transient;
  g.lyapunov.periods = settings.periods;
  g.kept_samples = 1;
  g.threads = settings.threads;
  const libcont::Sweep sweep([] { return std::make_unique<systems::MovingBaseOscillator>(); }, g);
  const double grid_cpu = cpu_seconds();
  const auto wall = std::chrono::steady_clock::now();
  const libcont::SweepResult result = sweep.run();
  const double grid_wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  int periodic = 0, failed = 0;
  for (const libcont::SweepPoint& p : result.points) {
    if (!p.ok()) ++failed;
    else if (p.n > 0 && p.n <= 5) ++periodic;
  }
  std::printf("brute-force grid %d x %d, %d + %d periods per cell, %d threads: %s\n",
              settings.grid, settings.grid, settings.transient, settings.periods,
              settings.threads, to_string(result.status).c_str());
  std::printf("  %zu cells, %d periodic with n <= 5, %d failed\n", result.points.size(),
              periodic, failed);
  std::printf("  wall %.1f s, CPU %.1f s\n", grid_wall, cpu_seconds() - grid_cpu);
  return 0;
}
