// Period doubling on the z = 1/2 branch of the moving-base oscillator, hard, r = 1
// (doc/reproduction.md): the branch continued in eta from the shot orbit at
// eta = 4 loses stability through a multiplier at -1 at both ends of the reference's
// period-2 window (3.35-4.60, each +-0.05, from a brute-force sweep). Checked against
// direct integration, which knows nothing of continuation: just below the upper point
// the settled motion has period 2, just above it period 4; and the period-4 branch that
// branch switching starts there is the orbit that direct integration settles on.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "libcont/floquet.hpp"
#include "libcont/impact_statistics.hpp"
#include "libcont/input_error.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::BranchPoint;
using libcont::ContinuationOptions;
using libcont::ContinuationResult;
using libcont::Matrix;
using libcont::PeriodicOrbitProblem;
using libcont::PseudoArclength;
using libcont::SpecialPoint;
using libcont::StroboscopicMap;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

constexpr double a = 0.0025;

MovingBaseOscillator hard_oscillator(double eta) {
  return make_system<MovingBaseOscillator>(
      {{"model", "hard"}, {"r", "1"}, {"omega", std::to_string(eta)}});
}

// Section phase of the continuation. Not t0 = 0: at eta = 3.974 the orbit's impact
// passes through t = 0 (mod T), where the section point jumps from the pre-impact to the
// post-impact state, so the fixed point of P^2 is discontinuous in eta there and the
// branch cannot be continued on that section (the engine stops with "step size below
// min_step"). Any phase the impacts avoid works; the period doublings must not depend
// on it.
constexpr double kPhase = 0.4;

// The z = 1/2 orbit at eta = 4 on the section t = phase (mod T).
Vector z_half_orbit(const MovingBaseOscillator& system, double phase) {
  const Vector guess = settle(system, phase, vec2(0.0, 0.0), 100).x;
  const auto orbit = libcont::Shooting(system, 2, {}, phase).solve(guess);
  REQUIRE(orbit.converged);
  REQUIRE(orbit.p == 1);
  return orbit.x;
}

struct Doubling {
  SpecialPoint point;
  ContinuationResult branch;  // the z = 1/2 branch it was found on
};

// Continues the z = 1/2 branch from eta = 4 in `direction` to eta = 3.2 or 4.8 and
// returns its period-doubling points.
std::vector<Doubling> doublings(MovingBaseOscillator& system, PeriodicOrbitProblem& problem,
                                double phase, int direction) {
  system.set_parameter("omega", 4.0);
  const Vector start = z_half_orbit(system, phase);
  ContinuationOptions options;
  options.direction = direction;
  options.lambda_min = 3.2;
  options.lambda_max = 4.8;
  options.max_step = 0.02;
  const ContinuationResult branch = PseudoArclength(problem, options).run(start, 4.0);
  INFO("phase " << phase << ", direction " << direction << ": stop: " << branch.stop_reason);
  REQUIRE(branch.ok());
  std::vector<Doubling> found;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::PeriodDoubling) found.push_back({s, branch});
  return found;
}

// Distance of the multiplier nearest to -1 from -1, at a point on its own section.
double flip_distance(PeriodicOrbitProblem& problem, const SpecialPoint& p) {
  Vector residual, dlambda;
  Matrix du;
  problem.set_phase(p.chart);
  REQUIRE(problem.evaluate(p.u, p.lambda, residual, du, dlambda));
  const auto mu = libcont::floquet_multipliers(problem.monodromy()).multipliers;
  double d = 1e300;
  for (Eigen::Index i = 0; i < mu.size(); ++i) d = std::min(d, std::abs(mu[i] + 1.0));
  return d;
}

// Period (in forcing periods) of the motion settled from x0 at t = phase, and the last
// Poincare sample.
struct Settled {
  int period = 0;
  Vector last;
};

Settled settled_motion(const MovingBaseOscillator& system, const Vector& x0, double phase,
                       int transient) {
  Vector x = settle(system, phase, x0, transient).x;
  std::vector<Vector> samples;
  for (int k = 0; k < 64; ++k) {
    samples.push_back(x);
    // From t = phase each time: the forcing is T-periodic, and event times stay accurate.
    x = flow_map(system, FlowOptions{}, phase, x, system.forcing_period(), false).x;
  }
  return {libcont::detect_period(samples, 16, 1e-6), samples.back()};
}

}  // namespace

TEST_CASE("Moving base, hard, r = 1: period doublings of the z = 1/2 branch in eta",
          "[continuation][period-doubling]") {
  MovingBaseOscillator system = hard_oscillator(4.0);
  PeriodicOrbitProblem problem(system, "omega", 2, {}, kPhase);
  PeriodicOrbitProblem other_section(system, "omega", 2, {}, 1.2);
  // Reference window of period 2 (brute force): 3.35-4.60, each end +-0.05.
  struct Case {
    int direction;
    double low, high;
  };
  for (const Case c : {Case{+1, 4.55, 4.65}, Case{-1, 3.30, 3.40}}) {
    INFO("direction " << c.direction);
    const auto found = doublings(system, problem, kPhase, c.direction);
    REQUIRE(found.size() == 1);
    const SpecialPoint& pd = found[0].point;
    INFO("period doubling at eta = " << pd.lambda);  // measured: 4.62916, 3.30467
    CHECK(pd.lambda >= c.low);
    CHECK(pd.lambda <= c.high);
    // A multiplier at -1 there (located to 1e-9 in arclength).
    const double distance = flip_distance(problem, pd);
    INFO("|mu + 1| = " << distance);
    CHECK(distance <= 1e-6);
    // Stable between eta = 4 and the doubling, unstable beyond it.
    for (const auto& p : found[0].branch.points) {
      Vector residual, dlambda;
      Matrix du;
      problem.set_phase(p.chart);
      REQUIRE(problem.evaluate(p.u, p.lambda, residual, du, dlambda));
      const auto floquet = libcont::floquet_multipliers(problem.monodromy());
      const bool inside = c.direction * (p.lambda - pd.lambda) < 0.0;
      if (std::abs(p.lambda - pd.lambda) > 1e-6) {
        INFO("eta = " << p.lambda << ", spectral radius " << floquet.spectral_radius);
        CHECK(floquet.stable == inside);
      }
      CHECK(problem.impacts() == 1);
    }
    // The same point on another section.
    const auto again = doublings(system, other_section, 1.2, c.direction);
    REQUIRE(again.size() == 1);
    INFO("on the section t0 = 1.2: " << again[0].point.lambda);
    CHECK(std::abs(again[0].point.lambda - pd.lambda) <= 1e-6);
  }
}

TEST_CASE("Moving base, hard, r = 1: direct integration sees the period doublings",
          "[continuation][period-doubling]") {
  MovingBaseOscillator system = hard_oscillator(4.0);
  PeriodicOrbitProblem problem(system, "omega", 2, {}, kPhase);
  for (const int direction : {+1, -1}) {
    const auto found = doublings(system, problem, kPhase, direction);
    REQUIRE(found.size() == 1);
    const SpecialPoint& pd = found[0].point;
    // 0.02 inside and outside the period-2 window.
    for (const double offset : {-0.02, 0.02}) {
      const double eta = pd.lambda + direction * offset;
      const int expected = offset < 0 ? 2 : 4;
      system.set_parameter("omega", eta);
      // From the z = 1/2 orbit at eta (stable or not), slightly perturbed: the local
      // dynamics near the orbit.
      const auto orbit = libcont::Shooting(system, 2, {}, pd.chart).solve(pd.u);
      REQUIRE(orbit.converged);
      const Settled near = settled_motion(system, orbit.x + vec2(1e-3 * a, 0.0), pd.chart, 1000);
      INFO("eta = " << eta << ", PD at " << pd.lambda);
      CHECK(near.period == expected);
      // From rest, as in the reference's brute-force sweep: only at the upper doubling.
      // Below the lower one the motion from rest goes elsewhere (coexisting attractors;
      // measured: not periodic up to n = 16 at eta = 3.2847, z = 3/4 at 3.29, z = 6/8 at
      // 3.27), which the reference's +-0.05 window edges allow.
      if (direction > 0) {
        const Settled rest = settled_motion(system, vec2(0.0, 0.0), 0.0, 1000);
        CHECK(rest.period == expected);
      }
    }
  }
}

TEST_CASE("Moving base, hard, r = 1: branch switching at the upper period doubling",
          "[continuation][period-doubling]") {
  MovingBaseOscillator system = hard_oscillator(4.0);
  PeriodicOrbitProblem problem(system, "omega", 2, {}, kPhase);
  const auto found = doublings(system, problem, kPhase, +1);
  REQUIRE(found.size() == 1);
  const SpecialPoint& pd = found[0].point;

  // Not a period-doubling point: refused.
  SpecialPoint regular = pd;
  regular.u = found[0].branch.points.front().u;
  regular.lambda = found[0].branch.points.front().lambda;  // eta = 4, multipliers |mu| = 0.7
  CHECK_THROWS_AS(libcont::doubled_branch_start(problem, regular), libcont::InputError);

  const BranchPoint start = libcont::doubled_branch_start(problem, pd);
  CHECK(start.lambda == pd.lambda);
  REQUIRE(start.tangent.size() == 3);
  CHECK(start.tangent[2] == 0.0);  // the parameter is stationary at the pitchfork

  PeriodicOrbitProblem doubled(system, "omega", 4);
  ContinuationOptions options;
  options.lambda_min = pd.lambda - 0.05;
  options.lambda_max = pd.lambda + 0.02;
  options.initial_step = 1e-4;
  options.max_step = 1e-3;
  options.max_points = 400;
  const ContinuationResult branch = PseudoArclength(doubled, options).run_from(start);
  INFO("stop: " << branch.stop_reason << ", points " << branch.points.size());
  REQUIRE(branch.ok());
  REQUIRE(branch.points.size() > 3);
  const auto& end = branch.points.back();
  // Supercritical: the doubled branch leaves to the side where the z = 1/2 orbit is
  // unstable, and reaches the bound there.
  CHECK(end.lambda == Approx(pd.lambda + 0.02).margin(1e-12));

  // Every point after the start: a genuine z = 2/4 orbit (not the z = 1/2 one counted
  // twice), stable.
  for (size_t i = 1; i < branch.points.size(); ++i) {
    const auto& p = branch.points[i];
    StroboscopicMap map(system, FlowOptions{}, p.chart);
    system.set_parameter("omega", p.lambda);
    const auto twice = map.iterate(p.u, 2, false);
    const auto four = map.iterate(p.u, 4, true);
    REQUIRE(four.ok());
    INFO("eta = " << p.lambda << ": |P^2(u) - u| = " << (twice.x - p.u).norm()
                  << ", |P^4(u) - u| = " << (four.x - p.u).norm());
    // The corrector's promise (the same map, evaluated again).
    CHECK((four.x - p.u).norm() <= options.corrector_tolerance * (1.0 + p.u.norm()));
    if (p.lambda > pd.lambda + 1e-3) CHECK((twice.x - p.u).norm() > 1e-3 * a);
    CHECK(four.impacts == 2);
    CHECK(libcont::floquet_multipliers(four.jacobian).stable);
  }

  // Direct integration from rest at the end's eta settles on that orbit.
  system.set_parameter("omega", end.lambda);
  const Settled rest = settled_motion(system, vec2(0.0, 0.0), kPhase, 1000);
  CHECK(rest.period == 4);
  // The orbit's point on the section t = kPhase (mod T), from its own section.
  const double period = system.forcing_period();
  const double shift = std::fmod(std::fmod(kPhase - end.chart, period) + period, period);
  Vector x = flow_map(system, FlowOptions{}, end.chart, end.u, shift, false).x;
  StroboscopicMap map(system, FlowOptions{}, kPhase);
  double nearest = 1e300;
  for (int k = 0; k < 4; ++k) {
    nearest = std::min(nearest, (rest.last - x).norm());
    x = map.iterate(x, 1, false).x;
  }
  INFO("distance of the settled motion from the continued z = 2/4 orbit " << nearest);
  CHECK(nearest <= 1e-6 * a);  // measured: 6e-12 m
}

