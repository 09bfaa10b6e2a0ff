// Time to trace the loading curve of the two-body Hertz system
// (doc/performance.md): periodic orbits from lambda = 0.1 to 3 by pseudo-arclength continuation,
// with every special point (folds, Neimark-Sacker, period doubling, grazing) located.
// Prints the wall and CPU time, the number of branch points, the work (evaluations with
// Jacobians, residuals alone, maps with and without the tangent flow, CVODE steps), each
// special point with A_max of the main body, and A_max at lambda = 1, 2, 3: the branch's
// orbits there, landed on inside the continuation (ContinuationOptions::user_values, as
// AUTO computes its UZR points inside its run), or with `--amplitudes shooting` by
// shooting from the nearest branch point after the run, with the continuation's own flow
// options, inside the timed run (what the bench did before user values existed).
//
// Not a test: it asserts nothing. bench/loading_curve_vs_auto.sh runs it beside AUTO-07p.
//
//   cmake --build build --target bench_loading_curve && build/bench_loading_curve
//   build/bench_loading_curve --max-step 0.05 --repeats 3
//   build/bench_loading_curve --rtol 1e-10   # integration tolerance (default 1e-11);
//       the corrector tolerance follows as max(1e-9, 100 rtol)
//   build/bench_loading_curve --chord 0      # full Newton at every corrector iteration
//   build/bench_loading_curve --broyden 0 --curvature 0 --turn 0   # without the
//       corrector's Broyden update, the curvature predictor and the step's turn limit
//   build/bench_loading_curve --method adams # CVODE's Adams for the Hertz contact
//       instead of the explicit Runge-Kutta pair (the default there)
//   build/bench_loading_curve --amplitudes shooting   # A_max at 1, 2, 3 by shooting
//   build/bench_loading_curve --dlambda difference   # dF/dlambda by a forward difference
//       of two maps instead of the flow's parameter column
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "systems/two_body.hpp"
#include "cpu_clock.hpp"

namespace {

struct Settings {
  double from = 0.1, to = 3.0;
  double max_step = 0.145;  // |to - from| / 20, as vicont continue by default
  int repeats = 1;
  int chord_iterations = libcont::ContinuationOptions{}.chord_iterations;
  double rtol = libcont::FlowOptions{}.relative_tolerance;
  libcont::IntegratorMethod method = libcont::FlowOptions{}.method;
  double tangent_atol = libcont::FlowOptions{}.tangent_absolute_tolerance;
  bool dlambda_by_column = true;
  bool broyden = libcont::ContinuationOptions{}.broyden_update;
  bool curvature = libcont::ContinuationOptions{}.curvature_predictor;
  double turn = libcont::ContinuationOptions{}.target_turn_degrees;
  bool amplitudes_by_shooting = false;
};

constexpr double kAmplitudeValues[] = {1.0, 2.0, 3.0};

struct Trace {
  libcont::ContinuationResult branch;
  double wall = 0.0, cpu = 0.0;
  std::vector<std::string> data_names;
  libcont::PeriodicOrbitProblem::Statistics work;
  std::vector<std::pair<double, double>> amplitudes;  // (lambda, A_max(x1))
};

systems::TwoBodySystem hertz_system(double lambda) {
  systems::TwoBodySystem system;
  system.set_parameter_text("contact", "hertz");
  system.set_parameter("lambda", lambda);
  return system;
}

// The orbit at lambda = from: the non-impacting orbit, reached from rest by a transient.
libcont::Vector start_orbit(systems::TwoBodySystem& system) {
  libcont::Flow flow(system);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  flow.advance(state, 300 * system.forcing_period());
  libcont::Shooting shooting(system, 1);
  const auto orbit = shooting.solve(state.x);
  if (!orbit.converged) {
    std::fprintf(stderr, "no start orbit: %s\n", orbit.reason.c_str());
    std::exit(1);
  }
  return orbit.x;
}

// A_max of the main body at `lambda` by shooting from a branch point's state on its
// section (the point's chart), with the continuation's flow options (as AUTO reports it at
// its UZR points, inside its run).
double amplitude_at(double lambda, const libcont::BranchPoint& guess,
                    const libcont::FlowOptions& flow, double tolerance) {
  auto system = hertz_system(lambda);
  libcont::ShootingOptions options;
  options.flow = flow;
  options.relative_tolerance = tolerance;
  libcont::Shooting shooting(system, 1, options, guess.chart);
  const auto orbit = shooting.solve(guess.u);
  if (!orbit.converged) return NAN;
  libcont::StroboscopicMap map(system, flow, guess.chart);
  return map.iterate(orbit.x, 1, false).measures.semi_amplitude(0);
}

Trace trace(const Settings& s) {
  Trace t;
  const auto wall0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  auto system = hertz_system(s.from);
  const libcont::Vector x0 = start_orbit(system);
  libcont::FlowOptions flow;
  flow.relative_tolerance = s.rtol;
  flow.method = s.method;
  flow.tangent_absolute_tolerance = s.tangent_atol;
  libcont::PeriodicOrbitProblem problem(system, "lambda", 1, flow);
  problem.dlambda_by_column = s.dlambda_by_column;
  libcont::ContinuationOptions options;
  options.lambda_min = std::min(s.from, s.to);
  options.lambda_max = std::max(s.from, s.to);
  options.direction = s.to > s.from ? 1 : -1;
  const double span = std::abs(s.to - s.from);
  options.max_step = s.max_step;
  options.initial_step = std::min(span / 100.0, s.max_step);
  options.min_step = span * 1e-8;
  options.locate_tolerance = span * 1e-9;
  options.chord_iterations = s.chord_iterations;
  options.broyden_update = s.broyden;
  options.curvature_predictor = s.curvature;
  options.target_turn_degrees = s.turn;
  // The corrector must not chase the flow's integration error (ContinuationOptions).
  options.corrector_tolerance = std::max(options.corrector_tolerance, 100.0 * s.rtol);
  if (!s.amplitudes_by_shooting)
    options.user_values.assign(std::begin(kAmplitudeValues), std::end(kAmplitudeValues));
  t.branch = libcont::PseudoArclength(problem, options).run(x0, s.from);
  for (const auto& p : t.branch.special_points)
    if (p.type == libcont::SpecialPointType::UserValue)
      t.amplitudes.emplace_back(p.lambda, p.detail.empty() ? p.data[0] : NAN);
  // Or A_max at lambda = 1, 2, 3 from the branch point nearest each value as a guess.
  const auto& points = t.branch.points;
  for (const double lambda : kAmplitudeValues) {
    if (points.empty() || !s.amplitudes_by_shooting) break;  // none, or from user values
    size_t nearest = 0;
    for (size_t i = 0; i < points.size(); ++i)
      if (std::abs(points[i].lambda - lambda) < std::abs(points[nearest].lambda - lambda))
        nearest = i;
    t.amplitudes.emplace_back(lambda, amplitude_at(lambda, points[nearest], flow,
                                                   options.corrector_tolerance));
  }
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  t.cpu = cpu_seconds() - cpu0;
  t.data_names = problem.point_data_names();
  t.work = problem.statistics();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--max-step")) s.max_step = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeats")) s.repeats = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--chord")) s.chord_iterations = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rtol")) s.rtol = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--broyden")) s.broyden = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--curvature")) s.curvature = std::atoi(argv[i + 1]) != 0;
    else if (!std::strcmp(argv[i], "--turn")) s.turn = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--tangent-atol")) s.tangent_atol = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--method") && !std::strcmp(argv[i + 1], "adams"))
      s.method = libcont::IntegratorMethod::Adams;
    else if (!std::strcmp(argv[i], "--method") && !std::strcmp(argv[i + 1], "bdf"))
      s.method = libcont::IntegratorMethod::BDF;
    else if (!std::strcmp(argv[i], "--method") && !std::strcmp(argv[i + 1], "rk"))
      s.method = libcont::IntegratorMethod::RungeKutta;
    else if (!std::strcmp(argv[i], "--dlambda") && !std::strcmp(argv[i + 1], "column"))
      s.dlambda_by_column = true;
    else if (!std::strcmp(argv[i], "--dlambda") && !std::strcmp(argv[i + 1], "difference"))
      s.dlambda_by_column = false;
    else if (!std::strcmp(argv[i], "--amplitudes") && !std::strcmp(argv[i + 1], "shooting"))
      s.amplitudes_by_shooting = true;
    else if (!std::strcmp(argv[i], "--amplitudes") && !std::strcmp(argv[i + 1], "branch"))
      s.amplitudes_by_shooting = false;
    else {
      std::fprintf(stderr, "usage: bench_loading_curve [--max-step S] [--repeats N] [--rtol R] "
                           "[--chord N] [--method adams|bdf|rk] [--tangent-atol A] "
                           "[--broyden 0|1] [--curvature 0|1] [--turn DEGREES] "
                           "[--dlambda column|difference] [--amplitudes branch|shooting]\n");
      return 2;
    }
  }
  Trace best;
  for (int r = 0; r < s.repeats; ++r) {
    Trace t = trace(s);
    if (r == 0 || t.wall < best.wall) best = std::move(t);
  }
  const auto& b = best.branch;
  std::printf("two-body Hertz loading curve, lambda %.3g -> %.3g, max step %.4g\n", s.from, s.to,
              s.max_step);
  // The user values' points are no bifurcations: listed as A_max below, not counted here.
  const auto bifurcation = [](const libcont::SpecialPoint& p) {
    return p.type != libcont::SpecialPointType::UserValue;
  };
  std::printf("libcont: %.3f s wall, %.3f s CPU (best of %d), %zu branch points, %zu special "
              "points, %s\n",
              best.wall, best.cpu, s.repeats, b.points.size(),
              static_cast<size_t>(std::count_if(b.special_points.begin(), b.special_points.end(),
                                                bifurcation)),
              b.stop_reason.c_str());
  const auto& w = best.work;
  std::printf("work: %ld evaluations (F with Jacobians), %ld residuals (F alone), %ld maps "
              "with tangent, %ld plain maps, %ld CVODE steps\n",
              w.evaluations, w.residuals, w.jacobian_maps, w.plain_maps, w.steps);
  for (const auto& p : b.special_points)
    if (bifurcation(p))
      std::printf("  %-16s lambda = %.10f  A_max(x1) = %.8f\n", p.type_name().c_str(), p.lambda,
                  p.data.size() ? p.data[0] : NAN);
  for (const auto& [lambda, amplitude] : best.amplitudes)
    std::printf("  A_max(x1) at lambda = %.0f: %.8f\n", lambda, amplitude);
  // The whole process, start-up and the transient to the first orbit included (the
  // figure compared with AUTO's, whose run includes its start and its output files).
  std::printf("process: %.4f s CPU\n", cpu_seconds());
  return b.ok() ? 0 : 1;
}
