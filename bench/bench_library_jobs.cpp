// The Python module's benchmark jobs called from C++: the peer of bench/python_overhead.py,
// which times the same jobs through `libcont` and reports the Python overhead as a ratio
// (doc/performance.md). The library calls and options are those the module makes with its
// defaults (the defaults of vicont continue and vicont sweep):
//   loading-curve: the two-body Hertz system's orbit found at lambda = 1 (300 transient
//     periods) and its branch traced to lambda = 0.1, every special point located;
//   lyapunov-diagram: the moving-base oscillator swept over eta from 2 to 10 in 9 points,
//     1000 transient and 1000 averaged periods, 100 kept samples, one thread.
// Prints one line per job: its name, the best process CPU time of `repeats` runs, and a
// checksum of the result (the branch's special points, the exponents) that the Python side
// compares, so that both sides are seen to do the same work.
//
//   build/bench_library_jobs [repeats]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <limits>
#include <memory>

#include "libcont/orbit_branch.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "libcont/sweep.hpp"
#include "systems/catalogue.hpp"
#include "cpu_clock.hpp"

namespace {

// Sum of the special points' parameter values: equal on both sides when the same points
// were located.
double loading_curve() {
  auto system = systems::make_system("two-body");
  system->set_parameter_text("contact", "hertz");
  system->set_parameter("lambda", 1.0);
  libcont::OrbitSearchOptions search;
  search.transient_periods = 300;
  const libcont::OrbitBranchOptions options("lambda", 1.0, 0.1);
  const libcont::OrbitSearchResult found = libcont::find_periodic_orbit(*system, search);
  const libcont::OrbitBranch branch =
      found.found() ? libcont::trace_orbit_branch(*system, found.period, found.phase, found.shooting.x, options)
                    : libcont::trace_orbit_branch(*system, found, options);
  double sum = 0.0;
  for (const auto& p : branch.special_points) sum += p.lambda;
  return sum;
}

// Sum of all exponents of all points.
double lyapunov_diagram() {
  libcont::SweepOptions o;
  o.parameter = "omega";
  o.from = 2.0;
  o.to = 10.0;
  o.steps = 9;
  o.lyapunov.transient_periods = 1000;
  o.lyapunov.periods = 1000;
  o.kept_samples = 100;
  const libcont::Sweep sweep([] { return systems::make_system("moving-base"); }, o);
  const libcont::SweepResult result = sweep.run({}, [](const libcont::SweepPoint&) { return true; });
  double sum = 0.0;
  for (const auto& point : result.points) sum += point.exponents.sum();
  return sum;
}

void time_job(const char* name, const std::function<double()>& job, int repeats) {
  double best = std::numeric_limits<double>::infinity(), checksum = 0.0;
  for (int k = 0; k < repeats; ++k) {
    const double start = cpu_seconds();
    checksum = job();
    best = std::min(best, cpu_seconds() - start);
  }
  std::printf("%s %.6f %.17g\n", name, best, checksum);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  if (repeats < 1) {
    std::fprintf(stderr, "bench_library_jobs: repeats must be a positive whole number\n");
    return 2;
  }
  time_job("loading-curve", loading_curve, repeats);
  time_job("lyapunov-diagram", lyapunov_diagram, repeats);
  return 0;
}
