// The full source-style bifurcation diagram on libcont::Sweep: hard moving-base oscillator
// with r = 1, eta from 2 to 10 in 801 steps, 1000 transient and 1000 averaged
// periods per point, Lyapunov exponents on, every point from rest (0, 0) as the
// published brute-force sweep. Wall and process CPU time for each thread count, whether
// the runs agree to the bit, and the period-1 and period-2 windows found.
//
// Not a test: it asserts nothing about time (the machine is shared; CPU time is the
// robust figure, wall time shows the parallel speed-up).
//
//   cmake --build build --target bench_sweep && build/bench_sweep
//   build/bench_sweep --steps 161 --transient 300 --periods 300 --threads 1,2
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "libcont/sweep.hpp"
#include "systems/moving_base.hpp"
#include "cpu_clock.hpp"

namespace {

struct Settings {
  int steps = 801;
  int transient = 1000;
  int periods = 1000;
  std::vector<int> threads = {1, 2};
};

libcont::SweepOptions sweep_options(const Settings& settings, int threads) {
  libcont::SweepOptions o;
  o.parameter = "omega";
  o.from = 2.0;
  o.to = 10.0;
  o.steps = settings.steps;
  o.initial_states = {libcont::Vector::Zero(2)};
  o.lyapunov.transient_periods = settings.transient;
  o.lyapunov.periods = settings.periods;
  o.threads = threads;
  return o;
}

std::unique_ptr<libcont::HybridSystem> hard_r1() {
  auto system = std::make_unique<systems::MovingBaseOscillator>();
  system->set_parameter_text("model", "hard");
  system->set_parameter("r", 1.0);
  return system;
}

bool same_bits(const libcont::Vector& a, const libcont::Vector& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
}

// What the diagram shows, compared to the bit between runs.
bool same_points(const libcont::SweepResult& a, const libcont::SweepResult& b) {
  if (a.points.size() != b.points.size()) return false;
  for (size_t i = 0; i < a.points.size(); ++i) {
    const auto &p = a.points[i], &q = b.points[i];
    if (p.p != q.p || p.n != q.n || !same_bits(p.exponents, q.exponents) ||
        !same_bits(p.final_state, q.final_state) ||
        std::memcmp(&p.energy_per_period, &q.energy_per_period, sizeof(double)) != 0)
      return false;
  }
  return true;
}

// The run of consecutive points of type p/n around the value `inside`.
std::string window(const libcont::SweepResult& r, double inside, int p, int n) {
  size_t centre = 0;
  for (size_t i = 0; i < r.points.size(); ++i)
    if (std::abs(r.points[i].parameter - inside) < std::abs(r.points[centre].parameter - inside))
      centre = i;
  auto in = [&](size_t i) { return r.points[i].p == p && r.points[i].n == n; };
  if (!in(centre)) return "not found";
  size_t first = centre, last = centre;
  while (first > 0 && in(first - 1)) --first;
  while (last + 1 < r.points.size() && in(last + 1)) ++last;
  char text[64];
  std::snprintf(text, sizeof text, "%.3f - %.3f", r.points[first].parameter,
                r.points[last].parameter);
  return text;
}

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i], value = argv[i + 1];
    if (name == "--steps") {
      s.steps = std::atoi(value.c_str());
    } else if (name == "--transient") {
      s.transient = std::atoi(value.c_str());
    } else if (name == "--periods") {
      s.periods = std::atoi(value.c_str());
    } else if (name == "--threads") {
      s.threads.clear();
      std::istringstream list(value);
      for (std::string item; std::getline(list, item, ',');) s.threads.push_back(std::atoi(item.c_str()));
    } else {
      std::fprintf(stderr, "bench_sweep: unknown option %s\n", name.c_str());
      std::exit(2);
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse(argc, argv);
  std::printf("bench_sweep: hard moving-base, r = 1, eta 2 to 10 in %d steps, %d transient + %d "
              "averaged periods per point, exponents on, start (0, 0); %u hardware threads\n",
              settings.steps, settings.transient, settings.periods,
              std::thread::hardware_concurrency());
  std::printf("%8s %12s %12s %10s %14s  %s\n", "threads", "wall s", "CPU s", "speed-up",
              "ms/point wall", "identical to the first run");
  std::fflush(stdout);  // a run takes minutes: show the header now
  libcont::SweepResult first;
  double first_wall = 0.0;
  for (size_t k = 0; k < settings.threads.size(); ++k) {
    const int threads = settings.threads[k];
    const libcont::Sweep sweep(hard_r1, sweep_options(settings, threads));
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    libcont::SweepResult result = sweep.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds() - cpu0;
    if (k == 0) first_wall = wall;
    std::printf("%8d %12.1f %12.1f %10.2f %14.1f  %s\n", threads, wall, cpu, first_wall / wall,
                1e3 * wall / static_cast<double>(result.points.size()),
                k == 0 ? "-" : (same_points(first, result) ? "yes" : "NO"));
    std::fflush(stdout);
    if (k == 0) {
      int chaotic = 0;
      for (const auto& p : result.points) chaotic += p.chaotic() ? 1 : 0;
      std::printf("         windows: z = 1/1 on %s, z = 1/2 on %s; %d chaotic points, %d failed\n",
                  window(result, 2.3, 1, 1).c_str(), window(result, 4.0, 1, 2).c_str(), chaotic,
                  result.failed());
      first = std::move(result);
    }
  }
  return 0;
}
