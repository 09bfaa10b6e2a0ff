// Large systems: `vicont orbit --system chain` at N = 10, 30, 100, 300 masses (n = 2N
// states) against the least work such a run has to do, and its multipliers against the
// closed form (OscillatorChain::free_flight_multipliers; doc/performance.md, "Large
// systems: the oscillator chain").
//
// Per size: the CPU time of the vicont process (user + system) with its figures drawn
// (--format png, its gnuplot children included) and without them (the default), and its
// wall time without them; the reference, in this process: one transient as the orbit
// search integrates it (--transient periods in one run, then the 64 single periods of its
// period detection) plus one stroboscopic map with the full n x n tangent, from the
// system's construction on; the ratio of the two; whether the orbit converged without
// impacts; the largest relative deviation of the multipliers' moduli (sorted) from the
// closed form's, and of each multiplier from the nearest closed-form value.
//
// Not a test: it asserts nothing about time (the machine is shared).
//
//   cmake --build build --target vicont bench_chain && build/bench_chain
//   build/bench_chain --sizes 10,30 --repeats 3 --vicont build/vicont
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/poincare_map.hpp"
#include "systems/oscillator_chain.hpp"

namespace {

struct Settings {
  std::string vicont = LIBCONT_BENCH_VICONT;
  std::vector<int> sizes{10, 30, 100, 300};
  int repeats = 1;  // best of
  int transient = 300;
  // The stop: far enough that the settled motion never reaches it at every size (the
  // linear response of the last mass is 1.54 at N = 10, 0.75 at N = 30: at the default
  // d = 1 the 10-mass chain settles on an impacting motion of period 7).
  double stop = 3.0;
};

[[noreturn]] void usage(const char* what) {
  std::fprintf(stderr,
               "bench_chain: %s\nusage: bench_chain [--vicont PATH] [--sizes N,N,...] "
               "[--repeats K] [--transient P] [--stop D]\n",
               what);
  std::exit(2);
}

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) usage("an option without its value");
    const std::string option = argv[i], value = argv[i + 1];
    if (option == "--vicont") {
      s.vicont = value;
    } else if (option == "--sizes") {
      s.sizes.clear();
      for (size_t at = 0; at < value.size();) {
        const size_t comma = std::min(value.find(',', at), value.size());
        s.sizes.push_back(std::atoi(value.substr(at, comma - at).c_str()));
        if (s.sizes.back() < 1) usage("sizes must be positive whole numbers");
        at = comma + 1;
      }
    } else if (option == "--repeats") {
      s.repeats = std::max(1, std::atoi(value.c_str()));
    } else if (option == "--transient") {
      s.transient = std::max(0, std::atoi(value.c_str()));
    } else if (option == "--stop") {
      s.stop = std::atof(value.c_str());
    } else {
      usage(("unknown option " + option).c_str());
    }
  }
  return s;
}

double cpu_seconds() {  // of the calling thread
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; }

struct Run {
  double cpu = 0.0, wall = 0.0;
  int status = -1;
};

// The command as a child process, output discarded; CPU time from wait4 (the child and
// the descendants it waited for).
Run run_command(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const auto begin = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) usage("fork failed");
  if (child == 0) {
    if (std::freopen("/dev/null", "w", stdout) == nullptr) std::_Exit(126);
    execv(argv[0], argv.data());
    std::_Exit(127);
  }
  int status = 0;
  rusage usage_of_child{};
  wait4(child, &status, 0, &usage_of_child);
  Run run;
  run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  run.cpu = seconds(usage_of_child.ru_utime) + seconds(usage_of_child.ru_stime);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

struct Reference {
  double construction = 0.0, transient = 0.0, map = 0.0;  // CPU seconds
  double total() const { return construction + transient + map; }
};

// One transient as libcont::find_periodic_orbit integrates it, then one map with the
// full tangent, from the system's construction on.
Reference reference_run(int masses, const Settings& s) {
  Reference r;
  double begin = cpu_seconds();
  systems::OscillatorChain chain;
  chain.set_parameter("N", masses);
  chain.set_parameter("d", s.stop);
  const double period = chain.forcing_period();
  const libcont::FlowOptions options;  // vicont's defaults
  r.construction = cpu_seconds() - begin;
  begin = cpu_seconds();
  libcont::Flow flow(chain, options);
  libcont::FlowState state = flow.initial_state(0.0, chain.default_initial_state());
  bool ok = flow.advance(state, s.transient * period).ok();
  for (int k = 0; k < 64 && ok; ++k) ok = flow.advance(state, state.t + period).ok();
  r.transient = cpu_seconds() - begin;
  begin = cpu_seconds();
  libcont::StroboscopicMap map(chain, options);
  const libcont::MapEvaluation e = map.iterate(state.x, 1, true);
  r.map = cpu_seconds() - begin;
  if (!ok || !e.ok()) std::printf("  (reference: the flow failed)\n");
  return r;
}

struct Check {
  bool converged = false;
  int impacts = -1;
  int count = 0;              // multipliers given
  double modulus_error = -1;  // largest relative deviation of the sorted moduli
  double value_error = -1;    // largest distance to the nearest closed-form value, relative
};

Check check_orbit(const std::filesystem::path& json_file, int masses, const Settings& s) {
  Check c;
  std::ifstream in(json_file);
  if (!in) return c;
  const nlohmann::json orbit = nlohmann::json::parse(in, nullptr, false);
  if (orbit.is_discarded()) return c;
  c.converged = orbit.value("converged", false);
  c.impacts = orbit.value("p", -1);
  std::vector<std::complex<double>> computed;
  for (const auto& z : orbit["multipliers"]) computed.emplace_back(z[0].get<double>(), z[1].get<double>());
  c.count = static_cast<int>(computed.size());
  systems::OscillatorChain chain;
  chain.set_parameter("N", masses);
  chain.set_parameter("d", s.stop);
  const Eigen::VectorXcd exact = chain.free_flight_multipliers();
  if (c.count != exact.size()) return c;
  std::vector<double> a, b;
  for (const auto& z : computed) a.push_back(std::abs(z));
  for (const auto& z : exact) b.push_back(std::abs(z));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  c.modulus_error = c.value_error = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    c.modulus_error = std::max(c.modulus_error, std::abs(a[i] - b[i]) / b[i]);
  for (const auto& z : computed) {
    double nearest = 1e300;
    for (const auto& w : exact) nearest = std::min(nearest, std::abs(z - w) / std::abs(w));
    c.value_error = std::max(c.value_error, nearest);
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings s = parse(argc, argv);
  const auto directory = std::filesystem::temp_directory_path() /
                         ("bench_chain." + std::to_string(static_cast<long>(getpid())));
  std::printf("vicont orbit --system chain --set N=... --set d=%g (%d transient periods), "
              "best of %d; CPU seconds\n"
              "vicont: the whole process with its figures (--format png) and gnuplot children; "
              "no figures: the whole process by default; plots: the difference; reference: "
              "construction + transient + one full-tangent map\n",
              s.stop, s.transient, s.repeats);
  std::printf("%5s %8s %8s %10s %8s %10s %9s %10s %8s %7s %9s %7s %10s %10s\n", "N", "vicont",
              "plots", "no figures", "wall", "reference", "transient", "tangent map", "ratio",
              "(total)", "converged", "impacts", "|mu| dev", "mu dev");
  std::fflush(stdout);  // the children inherit the buffer
  for (const int masses : s.sizes) {
    const std::filesystem::path out = directory / std::to_string(masses);
    const std::vector<std::string> command{
        s.vicont, "orbit", "--system", "chain", "--set", "N=" + std::to_string(masses), "--set",
        "d=" + std::to_string(s.stop), "--transient", std::to_string(s.transient), "--out",
        out.string()};
    std::vector<std::string> with_figures = command;
    with_figures.insert(with_figures.end(), {"--format", "png"});
    Run best;
    Run best_with_figures;
    Reference reference;
    for (int r = 0; r < s.repeats; ++r) {
      const Run run = run_command(command);
      if (r == 0 || run.cpu < best.cpu) best = run;
      const Run drawn = run_command(with_figures);
      if (r == 0 || drawn.cpu < best_with_figures.cpu) best_with_figures = drawn;
      // On a thread of its own: a fresh process's caches (the modal tangent keeps its
      // decompositions per thread), as vicont has.
      Reference again;
      std::thread([&] { again = reference_run(masses, s); }).join();
      if (r == 0 || again.total() < reference.total()) reference = again;
    }
    const Check c = check_orbit(out / "orbit.json", masses, s);
    const double computing = best.cpu;
    const double plots = best_with_figures.cpu - best.cpu;
    std::printf("%5d %8.3f %8.3f %10.3f %8.3f %10.3f %9.3f %10.3f %8.2f %7.2f %9s %7d %10.2e "
                "%10.2e\n",
                masses, best_with_figures.cpu, plots, computing, best.wall, reference.total(),
                reference.transient, reference.map, computing / reference.total(),
                best_with_figures.cpu / reference.total(), c.converged ? "yes" : "NO", c.impacts,
                c.modulus_error, c.value_error);
    for (const Run& run : {best, best_with_figures})
      if (run.status != 0) std::printf("      vicont exited with status %d\n", run.status);
    if (c.count != 2 * masses)
      std::printf("      %d multipliers in orbit.json, %d states\n", c.count, 2 * masses);
    std::fflush(stdout);
  }
  std::filesystem::remove_all(directory);
  return 0;
}
