// Benchmark 1's compute side by side with its hand-written peer (doc/performance.md): the
// Lyapunov spectrum of the hard moving-base oscillator (r = 1, from rest at t = 0) at eta
// = 2, 3, ..., 10, by libcont's LyapunovSpectrum (what `vicont sweep` runs per point) and
// by closed_form_peer.c, a plain-C closed-form loop of the same algorithm (closed-form
// flight, scan for the impact, Newton root solve, tangent with the saltation matrix,
// Gram-Schmidt per period). CPU time per forcing period for each point, best of
// --repeats, and the ratio libcont / peer, per point and over the whole range; the
// exponents of both side by side (they agree to the accuracy of a Benettin average, not
// to the bit: the two codes locate impacts to rounding in different ways, and a chaotic
// point amplifies that).
//
// Not a test: it prints, and asserts nothing about time.
//
//   cmake --build build --target bench_lyapunov_peer && build/bench_lyapunov_peer
//   build/bench_lyapunov_peer --transient 1000 --periods 5000 --repeats 5
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "closed_form_peer.h"
#include "libcont/lyapunov_spectrum.hpp"
#include "systems/moving_base.hpp"
#include "cpu_clock.hpp"

namespace {

struct Settings {
  int transient = 1000;
  int periods = 5000;
  int repeats = 5;
  double from = 2.0, to = 10.0;
  int steps = 9;
};

Settings parse(int argc, char** argv) {
  Settings s;
  for (int i = 1; i < argc; i += 2) {
    const std::string name = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "bench_lyapunov_peer: %s needs a value\n", name.c_str());
      std::exit(2);
    }
    const char* value = argv[i + 1];
    if (name == "--transient") s.transient = std::atoi(value);
    else if (name == "--periods") s.periods = std::atoi(value);
    else if (name == "--repeats") s.repeats = std::atoi(value);
    else if (name == "--from") s.from = std::atof(value);
    else if (name == "--to") s.to = std::atof(value);
    else if (name == "--steps") s.steps = std::atoi(value);
    else {
      std::fprintf(stderr, "bench_lyapunov_peer: unknown option %s\n", name.c_str());
      std::exit(2);
    }
  }
  if (s.transient < 0 || s.periods < 1 || s.repeats < 1 || s.steps < 1) {
    std::fprintf(stderr, "bench_lyapunov_peer: counts must be positive\n");
    std::exit(2);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse(argc, argv);
  std::printf("# hard moving-base, r = 1, start (0, 0) at t = 0, %d transient + %d averaged "
              "periods per point, best of %d; CPU microseconds per forcing period\n",
              settings.transient, settings.periods, settings.repeats);
  std::printf("%6s %10s %10s %7s  %12s %12s  %12s %12s  %7s %7s\n", "omega", "libcont", "peer",
              "ratio", "lambda1 lib", "lambda1 peer", "lambda2 lib", "lambda2 peer", "a_i lib",
              "a_i peer");
  double total_lib = 0.0, total_peer = 0.0;
  int failures = 0;
  for (int i = 0; i < settings.steps; ++i) {
    const double eta = settings.steps == 1 ? settings.from
                                           : settings.from + (settings.to - settings.from) * i /
                                                                 (settings.steps - 1);
    systems::MovingBaseOscillator system;
    system.set_parameter_text("model", "hard");
    system.set_parameter("r", 1.0);
    system.set_parameter("omega", eta);
    libcont::LyapunovOptions options;
    options.transient_periods = settings.transient;
    options.periods = settings.periods;
    const libcont::LyapunovSpectrum spectrum(system, options);
    const libcont::Vector start = libcont::Vector::Zero(2);

    double lib_best = INFINITY, peer_best = INFINITY;
    libcont::LyapunovResult lib;
    ClosedFormPeerResult peer{};
    int peer_status = 0;
    const auto& p = system.parameters();
    const ClosedFormPeerParameters peer_parameters{
        p["m"], p["k"], p["c"], p["a"], p["d"], eta, 1.0, 0.0, 0.0, 0.0,
        settings.transient, settings.periods};
    for (int repeat = 0; repeat < settings.repeats; ++repeat) {
      double cpu = cpu_seconds();
      lib = spectrum.compute(0.0, start);
      lib_best = std::min(lib_best, cpu_seconds() - cpu);
      cpu = cpu_seconds();
      peer_status = closed_form_peer_lyapunov(&peer_parameters, &peer);
      peer_best = std::min(peer_best, cpu_seconds() - cpu);
    }
    const double per = 1e6 / (settings.transient + settings.periods);
    total_lib += lib_best;
    total_peer += peer_best;
    if (!lib.ok() || peer_status != 0) {
      std::printf("%6.2f failed: libcont '%s', peer status %d\n", eta, lib.report.message.c_str(),
                  peer_status);
      ++failures;
      continue;
    }
    std::printf("%6.2f %10.3f %10.3f %7.2f  %12.6f %12.6f  %12.6f %12.6f  %7.4f %7.4f\n", eta,
                lib_best * per, peer_best * per, lib_best / peer_best, lib.exponents[0],
                peer.exponents[0], lib.exponents[1], peer.exponents[1], lib.impacts_per_period,
                peer.impacts_per_period);
  }
  std::printf("whole range: libcont %.4f s, peer %.4f s CPU; libcont / peer = %.2f "
              "(target <= 1.0)\n",
              total_lib, total_peer, total_lib / total_peer);
  return failures == 0 ? 0 : 1;
}
