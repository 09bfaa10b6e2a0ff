// The section that follows the branch (section_placement.hpp, PeriodicOrbitProblem::
// recenter): where it goes, that a move maps the point and the tangent exactly as the
// problem on the new section sees them, and that continuation through an event crossing
// the old section goes on where it used to stall.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "libcont/floquet.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/section_placement.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using libcont::PeriodicOrbitProblem;
using libcont::Vector;
using namespace test_support;

namespace {

// The unit null vector of [du | dlambda] (the branch tangent), sign as `like`.
Vector null_vector(const Matrix& du, const Vector& dlambda, const Vector& like) {
  Matrix j(du.rows(), du.cols() + 1);
  j << du, dlambda;
  Vector k = Eigen::FullPivLU<Matrix>(j).kernel().col(0);
  k.normalize();
  return k.dot(like) < 0.0 ? Vector(-k) : k;
}

struct Moved {
  Vector u, tangent;  // after the move, the tangent normalised
  Vector fresh;       // the tangent from the Jacobians on the new section
  double residual = 0.0;
  double phase = 0.0;
  libcont::FloquetMultipliers before, after;
};

// Moves the section of `problem` at its fixed point u (forced: any clearance counts as
// too small) and evaluates the problem on the new section.
Moved forced_move(PeriodicOrbitProblem& problem, Vector u, double lambda) {
  Vector residual, dlambda;
  Matrix du;
  REQUIRE(problem.evaluate(u, lambda, residual, du, dlambda));
  Moved m;
  m.before = libcont::floquet_multipliers(problem.monodromy());
  Vector tangent = null_vector(du, dlambda, Vector::Unit(u.size() + 1, u.size()));
  const Vector data = problem.point_data(u, lambda);
  problem.recenter_clearance = 1.0;
  REQUIRE(problem.recenter(u, lambda, data, tangent));
  m.phase = problem.phase();
  REQUIRE(problem.evaluate(u, lambda, residual, du, dlambda));
  m.after = libcont::floquet_multipliers(problem.monodromy());
  m.u = u;
  m.tangent = tangent.normalized();
  m.fresh = null_vector(du, dlambda, m.tangent);
  m.residual = residual.norm();
  return m;
}

void check_move(const Moved& m, double old_phase, double tangent_tolerance,
                double multiplier_tolerance) {
  INFO("moved from " << old_phase << " to " << m.phase << ", residual " << m.residual
                     << ", mapped tangent " << m.tangent.transpose() << ", fresh "
                     << m.fresh.transpose());
  CHECK(m.phase > old_phase);
  // A fixed point on the new section (shooting tolerance 1e-10 relative, scaled).
  CHECK(m.residual <= 1e-8 * (1.0 + m.u.norm()));
  // The tangent: the flow's Phi and a forward difference in lambda, against the null
  // vector of the Jacobians on the new section.
  CHECK((m.tangent - m.fresh).norm() <= tangent_tolerance);
  // Floquet multipliers do not depend on the section.
  REQUIRE(m.before.multipliers.size() == m.after.multipliers.size());
  for (Eigen::Index i = 0; i < m.before.multipliers.size(); ++i)
    CHECK(std::abs(m.before.multipliers[i] - m.after.multipliers[i]) <= multiplier_tolerance);
}

}  // namespace

TEST_CASE("Section placement: the middle of the longest event-free stretch", "[section]") {
  // Events at 0.1, 0.2, 0.9 (mod 1): stretches 0.1, 0.7, 0.2 long.
  const std::vector<double> events = {0.1, 2.2, -0.1};  // the same times mod 1
  const auto quiet = libcont::quietest_section(events, 1.0);
  CHECK(quiet.phase == Approx(0.55).margin(1e-15));
  CHECK(quiet.clearance == Approx(0.35).margin(1e-15));
  CHECK(libcont::section_clearance(events, 0.95, 1.0) == Approx(0.05).margin(1e-15));
  CHECK(libcont::section_clearance(events, 3.55, 1.0) == Approx(0.35).margin(1e-14));
  // The stretch that wraps around t = 0 is the longest here: events at 0.4, 0.5.
  const auto wrapped = libcont::quietest_section({0.4, 0.5}, 2.0);
  CHECK(wrapped.phase == Approx(1.45).margin(1e-15));
  CHECK(wrapped.clearance == Approx(0.95).margin(1e-15));
  // Forward to the next t = to (mod period): never backwards, zero when already there.
  CHECK(libcont::forward_shift(0.9, 0.1, 1.0) == Approx(0.2).margin(1e-15));
  CHECK(libcont::forward_shift(3.25, 0.5, 1.0) == Approx(0.25).margin(1e-15));
  CHECK(libcont::forward_shift(1.5, 0.5, 1.0) == 0.0);
  // No events: half a period from t = 0, as quiet as a section can be.
  CHECK(libcont::quietest_section({}, 2.0).phase == 1.0);
  CHECK(libcont::section_clearance({}, 0.3, 2.0) == 1.0);
}

TEST_CASE("Moving the section maps the fixed point and the tangent as the new section sees them",
          "[section][continuation]") {
  SECTION("hard moving base, z = 1/2 at eta = 4") {
    auto system = make_system<systems::MovingBaseOscillator>(
        {{"model", "hard"}, {"r", "1"}, {"omega", "4"}});
    const Vector settled = settle(system, 0.0, vec2(0.0, 0.0), 300).x;
    const auto orbit = libcont::Shooting(system, 2).solve(settled);
    REQUIRE(orbit.converged);
    PeriodicOrbitProblem problem(system, "omega", 2);
    // Exact flow between impacts; dF/deta by a forward difference (measured: tangents
    // 9.8e-7 apart, multipliers 1e-10).
    check_move(forced_move(problem, orbit.x, 4.0), 0.0, 1e-5, 1e-9);
  }
  SECTION("two-body Hertz at lambda = 2, the soft contact's orbit") {
    auto system = make_system<systems::TwoBodySystem>({{"contact", "hertz"}, {"lambda", "2"}});
    const Vector settled = settle(system, 0.0, system.default_initial_state(), 300).x;
    const auto orbit = libcont::Shooting(system, 1).solve(settled);
    REQUIRE(orbit.converged);
    PeriodicOrbitProblem problem(system, "lambda", 1);
    // Both tangents take dF/dlambda from a forward difference (step 3e-6) of maps whose
    // global error through the Hertz contact is near 1e-10, not cancelled between the two
    // (CVODE's steps differ): 1e-4 in the tangent, measured 3.3e-4 at the default
    // tolerances and 1.5e-5 at rtol 1e-13, no trend in between. A wrong map (no Phi, no
    // lambda part) is off by O(0.1). The multipliers carry the tangent flow's error
    // through the contact (measured 6.5e-7).
    check_move(forced_move(problem, orbit.x, 2.0), 0.0, 1e-3, 5e-6);
  }
}

TEST_CASE("Two-body Newton, r = 1, section t = 0: the branch goes on where an impact crosses "
          "the section",
          "[section][continuation]") {
  // On the fixed section t = 0 the impact passes through the section at lambda = 0.570086:
  // the fixed point jumps from the pre- to the post-impact state there and the branch
  // stalled ("step size below min_step") 3e-3 short of grazing (test_continuation_two_body
  // uses t = T/2 for that reason). The moving section gets there from t = 0.
  auto system = make_system<systems::TwoBodySystem>({{"contact", "newton"}, {"r", "1"}});
  const Vector settled = settle(system, 0.0, system.default_initial_state(), 100).x;
  const auto orbit = libcont::Shooting(system, 1).solve(settled);
  REQUIRE(orbit.converged);
  PeriodicOrbitProblem problem(system, "lambda", 1);
  libcont::ContinuationOptions options;
  options.direction = -1;
  options.lambda_min = 0.1;
  options.lambda_max = 1.5;
  const auto result = libcont::PseudoArclength(problem, options).run(orbit.x, 1.0);
  INFO(result.points.size() << " points, stop: " << result.stop_reason);
  REQUIRE(result.points.size() > 2);
  std::set<double> charts;
  double lowest = 1e300;
  for (const auto& p : result.points) {
    charts.insert(p.chart);
    lowest = std::min(lowest, p.lambda);
    // Every point a fixed point of P on its own section.
    system.set_parameter("lambda", p.lambda);
    libcont::StroboscopicMap map(system, {}, p.chart);
    const auto image = map.iterate(p.u, 1, false);
    REQUIRE(image.ok());
    INFO("lambda = " << p.lambda << " on the section t = " << p.chart);
    CHECK((image.x - p.u).norm() <= options.corrector_tolerance * (1.0 + p.u.norm()));
  }
  INFO("sections used: " << charts.size() << ", lowest lambda " << lowest);
  CHECK(charts.size() >= 2);
  // Down to grazing (lambda_g = 0.5670, reference +- 5e-4), not stalled 3e-3 above it.
  CHECK(lowest <= 0.5675);
}
