// Models declared as structures with unilateral contacts (libcont/impacting_structure.hpp):
// the two user models of examples/user_model against a closed form and against
// differences of their period maps, and a structure with two contacts of different laws.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "../examples/user_model/bouncing_ball.hpp"
#include "../examples/user_model/pendulum.hpp"
#include "energy_balance_run.hpp"
#include "libcont/shooting.hpp"
#include "period_map_check.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using libcont::Vector;
using namespace test_support;

TEST_CASE("Bouncing ball: the period-one orbit equals its closed form", "[structure]") {
  // One impact per table period T: the ball leaves with v+ = g T / 2 (it lands where it
  // took off), and v+ = s' - r (v- - s') with v- = v+ - g T gives the table's velocity at
  // the impact, s'(t*) = g T (1 - r) / (2 (1 + r)) = a w cos(w t*): two impact phases.
  BouncingBall ball;
  ball.set_parameter("r", 0.8);
  ball.set_parameter("a", 0.01);
  ball.set_parameter("omega", 35.0);
  const double g = 9.81, r = 0.8, a = 0.01, w = 35.0, period = 2.0 * std::numbers::pi / w;
  const double lift = g * period / 2.0;
  const double cosine = g * period * (1.0 - r) / (2.0 * (1.0 + r)) / (a * w);
  REQUIRE(std::abs(cosine) < 1.0);
  for (double sign : {1.0, -1.0}) {
    double impact = std::atan2(sign * std::sqrt(1.0 - cosine * cosine), cosine) / w;
    if (impact < 0.0) impact += period;
    // The state on the section t = 0, a time T - t* after the previous impact.
    const double since = period - impact;
    Vector expected(2);
    expected << a * std::sin(w * impact) + lift * since - 0.5 * g * since * since,
        lift - g * since;
    const Vector guess = expected + Vector::Constant(2, 1e-4);
    const auto orbit = libcont::Shooting(ball, 1).solve(guess);
    INFO("impact phase w t* = " << w * impact << ": " << orbit.reason);
    REQUIRE(orbit.converged);
    CHECK(orbit.p == 1);
    CHECK((orbit.x - expected).norm() <= 1e-9 * expected.norm());
    // Flights keep phase volume, each impact scales it by r: det of the monodromy is r^2.
    CHECK(orbit.monodromy.determinant() == Approx(r * r).epsilon(1e-9));
  }
}

TEST_CASE("Impact pendulum: period map Jacobian with saltation = differences", "[structure]") {
  // Nonlinear gravity (additional_force, integrated) and a wall hit once per period.
  const ImpactPendulum pendulum;
  const Vector x = settle(pendulum, 0.0, Vector::Zero(2), 150).x;
  Vector steps(2);
  steps << 1e-4, 1e-4;
  const PeriodMapCheck check = check_period_map(pendulum, x, pendulum.forcing_period(), steps);
  INFO("events " << check.events << ", error " << check.error << ", naive " << check.naive_error);
  REQUIRE(check.events >= 1);
  CHECK(check.error <= 1e-6);
  CHECK(check.naive_error >= 1e-4);
}

namespace {
// Two masses in a chain driven at the first; mass 1 may hit a stop at +0.3 (hard, or a
// Kelvin-Voigt pad), mass 2 a Kelvin-Voigt pad at -0.25 that moves with the forcing.
class TwoStops : public libcont::ImpactingStructure {
 public:
  explicit TwoStops(bool hard_stop) : hard_stop_(hard_stop) { configure(); }
  std::string name() const override { return "two-stops"; }
  void configure() override {
    libcont::LinearStructure s;
    s.mass = Vector::Constant(2, 1.0).asDiagonal();
    s.stiffness = (Matrix(2, 2) << 2.0, -1.0, -1.0, 1.0).finished();
    s.damping = 0.05 * Matrix::Identity(2, 2);
    s.cosine_force = (Vector(2) << 0.6, 0.0).finished();
    s.frequency = 0.9;
    libcont::UnilateralContact stop{"stop", (Vector(2) << -1.0, 0.0).finished(), {-0.3}};
    if (hard_stop_)
      stop.law = libcont::NewtonRestitution(0.7);
    else
      stop.law = libcont::KelvinVoigtContact{500.0, 2.0};
    libcont::UnilateralContact pad{"pad", (Vector(2) << 0.0, 1.0).finished(), {-0.25, 0.02}};
    pad.law = libcont::KelvinVoigtContact{800.0, 3.0};
    declare(s, {stop, pad});
  }

 private:
  bool hard_stop_;
};
}  // namespace

TEST_CASE("Two contacts of different laws: period map with saltation = differences",
          "[structure]") {
  for (bool hard : {true, false}) {
    const TwoStops system(hard);
    INFO((hard ? "hard stop" : "soft stop") << " and a soft pad");
    CHECK(system.mode_count() == 4);
    const Vector x = settle(system, 0.0, Vector::Zero(4), 150).x;
    Vector steps = Vector::Constant(4, 1e-5);
    const PeriodMapCheck check = check_period_map(system, x, system.forcing_period(), steps);
    INFO("events " << check.events << ", error " << check.error << ", naive " << check.naive_error);
    REQUIRE(check.events >= 4);
    CHECK(check.error <= 1e-6);
  }
}

TEST_CASE("Two soft contacts: the generated energy account closes", "[structure][energy]") {
  const TwoStops system(false);
  REQUIRE(system.accounts_energy());
  const BalanceRun run = balance_over(system, Vector::Zero(4), 20 * system.forcing_period());
  REQUIRE(run.report.ok());
  const double scale = std::max(run.balance.initial, run.balance.supplied);
  INFO("dissipated " << run.balance.dissipated << ", supplied " << run.balance.supplied
                     << ", residual " << run.balance.residual() << ", contacts " << run.contacts);
  CHECK(run.contacts >= 10);
  CHECK(std::abs(run.balance.residual()) <= 1e-6 * scale);
}
