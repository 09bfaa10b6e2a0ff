// Models declared as structures with unilateral contacts (libcont/impacting_structure.hpp):
// the two user models of examples/user_model against a closed form and against
// differences of their period maps, a structure with two contacts of different laws, and
// one whose contact laws have regimes and internal state.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <numbers>
#include <random>

#include "../examples/user_model/bouncing_ball.hpp"
#include "../libcont/src/single_column_product.hpp"
#include "../examples/user_model/pendulum.hpp"
#include "energy_balance_run.hpp"
#include "libcont/hertz_friction_contact.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/rheological_damper.hpp"
#include "libcont/shooting.hpp"
#include "period_map_check.hpp"
#include "systems/catalogue.hpp"
#include "systems/two_body.hpp"
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

// A state of n entries drawn uniformly from [-size, size], then a time from [-10, 10].
struct RandomInstant {
  Vector x;
  double t;
};
RandomInstant random_instant(std::mt19937& random, int n, double size = 1.0) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  RandomInstant instant{Vector(n), 0.0};
  for (int i = 0; i < n; ++i) instant.x[i] = size * uniform(random);
  instant.t = 10.0 * uniform(random);
  return instant;
}
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
  REQUIRE(system.energy_account());
  const BalanceRun run = balance_over(system, Vector::Zero(4), 20 * system.forcing_period());
  REQUIRE(run.report.ok());
  const double scale = std::max(run.balance.initial, run.balance.supplied);
  INFO("dissipated " << run.balance.dissipated << ", supplied " << run.balance.supplied
                     << ", residual " << run.balance.residual() << ", contacts " << run.contacts);
  CHECK(run.contacts >= 10);
  CHECK(std::abs(run.balance.residual()) <= 1e-6 * scale);
}

namespace {
// Two masses in a chain driven at the first. Mass 1 presses on an elastoplastic
// rheological damper (a law with regimes and an internal coordinate) whose base moves with
// the forcing; mass 2 hits a Hertz contact with positional friction (regimes, no internal
// coordinate) or, where the energy must account, a Kelvin-Voigt pad.
class DamperAndStop : public libcont::ImpactingStructure {
 public:
  explicit DamperAndStop(bool friction) : friction_(friction) { configure(); }
  std::string name() const override { return "damper-and-stop"; }
  void configure() override {
    libcont::LinearStructure s;
    s.mass = (Vector(2) << 1.0, 0.5).finished().asDiagonal();
    s.stiffness = (Matrix(2, 2) << 3.0, -1.0, -1.0, 1.0).finished();
    s.damping = 0.02 * Matrix::Identity(2, 2);
    s.cosine_force = (Vector(2) << 2.0, 0.0).finished();
    s.frequency = 1.3;
    libcont::UnilateralContact damper{"damper", (Vector(2) << 1.0, 0.0).finished(), {-0.4, 0.05}};
    damper.law = std::make_shared<const libcont::RheologicalDamper>(
        libcont::RheologicalLaw::Elastoplastic, libcont::RheologicalParameters{60.0, 30.0, 0.0, 3.0});
    libcont::UnilateralContact stop{"stop", (Vector(2) << 0.0, -1.0).finished(), {-0.5}};
    if (friction_)
      stop.law = std::make_shared<const libcont::HertzFrictionContact>(400.0, 1.5, 0.8);
    else
      stop.law = libcont::KelvinVoigtContact{300.0, 1.0};
    declare(s, {damper, stop});
  }

 private:
  bool friction_;
};

Vector state(double q1, double q2, double v1, double v2, double z) {
  return (Vector(5) << q1, q2, v1, v2, z).finished();
}
}  // namespace

TEST_CASE("Laws with regimes: state, modes and events generated from the declaration",
          "[structure][regimes]") {
  const DamperAndStop system(true);
  // 4 damper regimes times 3 friction regimes, in a mixed radix (damper first).
  CHECK(system.mode_count() == 12);
  CHECK(system.state_names() == std::vector<std::string>{"q1", "q2", "v1", "v2", "damper:z"});
  CHECK(system.mode_name(0) == "damper:free+stop:approach");
  CHECK(system.mode_name(4 + 2) == "damper:slip+stop:separation");
  CHECK(system.event_count(0) == 2);      // contact; maximal compression
  // Damper stuck, stop unloading: separation, slip, slip-back; separation, reloading.
  CHECK(system.event_count(1 + 4) == 5);
  CHECK(system.event_spec(1 + 4, 1).name == "slip:damper");
  CHECK(system.event_spec(1 + 4, 4).name == "reloading:stop");
  // A state pressed into the damper beyond its yield force while loading, the stop
  // unloading: mode_of finds slip and separation.
  const double t = 0.0, s = -0.4 + 0.05 * std::sin(1.3 * t);
  const Vector x = state(s - 0.1, 0.52, -1.0, -0.3, 0.0);  // R = 60 * 0.1 = 6 > T0 = 3
  CHECK(system.mode_of(t, x) == 2 + 4);
  CHECK(system.energy_account() == nullptr);  // the friction law's energy jumps at its turn
  CHECK(DamperAndStop(false).energy_account() != nullptr);
}

TEST_CASE("Laws with regimes: Jacobians of the fields and the switching conditions = "
          "differences",
          "[structure][regimes]") {
  // Every mode at states inside both contacts (forces and rates not zero), the base
  // moving (the conditions depend on t through s(t), s'(t)). Central differences of the
  // vector field and of the event functions; the fields are smooth within a mode.
  const DamperAndStop system(true);
  const std::vector<Vector> states = {state(-0.55, 0.53, 0.7, -0.4, 0.08),
                                      state(-0.47, 0.6, -1.2, 0.9, 0.02)};
  for (int mode = 0; mode < system.mode_count(); ++mode)
    for (const Vector& x : states)
      for (const double t : {0.3, 2.1}) {
        INFO("mode " << system.mode_name(mode) << " t " << t << " x " << x.transpose());
        const auto field = [&](const Vector& y) {
          Vector f(5);
          system.vector_field(mode, t, y, f);
          return f;
        };
        const Matrix differences = central_differences(field, x, Vector::Constant(5, 1e-6));
        Matrix jacobian(5, 5);
        libcont::state_jacobian(system, mode, t, x, jacobian);
        CHECK((jacobian - differences).cwiseAbs().maxCoeff() <=
              1e-7 * (1.0 + differences.cwiseAbs().maxCoeff()));
        CHECK(system.divergence(mode, t, x).value() == Approx(differences.trace()).margin(1e-6));
        for (int e = 0; e < system.event_count(mode); ++e) {
          const auto h = [&](const Vector& y) {
            return (Vector(1) << system.event_function(mode, e, t, y)).finished();
          };
          Vector dh_dx(5);
          double dh_dt = 0.0;
          libcont::event_gradient(system, mode, e, t, x, dh_dx, dh_dt);
          const Matrix dx = central_differences(h, x, Vector::Constant(5, 1e-6));
          const double step = 1e-6;
          const double dt = (system.event_function(mode, e, t + step, x) -
                             system.event_function(mode, e, t - step, x)) / (2.0 * step);
          INFO("event " << system.event_spec(mode, e).name);
          CHECK((dh_dx.transpose() - dx).cwiseAbs().maxCoeff() <= 1e-6 * (1.0 + dx.cwiseAbs().maxCoeff()));
          CHECK(dh_dt == Approx(dt).margin(1e-6 * (1.0 + std::abs(dt))));
        }
      }
}

TEST_CASE("Laws with regimes: period map with saltation = differences", "[structure][regimes]") {
  // The damper's slips and sticks and the friction contact's turns change the vector
  // field without a jump; the saltation matrices come from the switches the law declares.
  const DamperAndStop system(true);
  const Vector x = settle(system, 0.0, Vector::Zero(5), 20).x;
  const PeriodMapCheck check =
      check_period_map(system, x, system.forcing_period(), Vector::Constant(5, 1e-5));
  INFO("events " << check.events << ", error " << check.error << ", naive " << check.naive_error);
  REQUIRE(check.events >= 4);
  CHECK(check.error <= 1e-6);
  CHECK(check.naive_error >= 1e-4);
}

TEST_CASE("Laws with regimes on a moving base: the generated energy account closes",
          "[structure][regimes][energy]") {
  // The damper's springs store, its slider dissipates; the base's motion supplies work
  // through the damper's force (and the harmonic force through v1).
  const DamperAndStop system(false);
  REQUIRE(system.energy_account());
  const BalanceRun run = balance_over(system, Vector::Zero(5), 20 * system.forcing_period());
  REQUIRE(run.report.ok());
  const double scale = std::max(run.balance.initial, run.balance.supplied);
  INFO("dissipated " << run.balance.dissipated << ", supplied " << run.balance.supplied
                     << ", residual " << run.balance.residual() << ", contacts " << run.contacts);
  CHECK(run.contacts >= 10);
  CHECK(run.balance.dissipated > 0.1 * scale);
  CHECK(std::abs(run.balance.residual()) <= 1e-6 * scale);
}

TEST_CASE("A body put down at rest on a soft contact starts in contact", "[structure]") {
  // The drop test, soft: from H0 = 0 the body rests on the spring at t = 0 (gap and gap
  // rate zero) and gravity presses it in: the contact must begin at once (an event at
  // t = 0) and the body settle on the spring as from H0 = 1e-6, where the contact begins
  // by a crossing; so too from H0 = 1e-12, within the flow's tolerance of the surface.
  const auto run = [](const char* height) {
    auto drop = systems::make_system("drop");
    drop->set_parameter_text("model", "soft");
    drop->set_parameter_text("H0", height);
    libcont::Flow flow(*drop);
    libcont::FlowState state = flow.initial_state(0.0, drop->default_initial_state());
    REQUIRE(flow.advance(state, 3.0).ok());
    return state;
  };
  const libcont::FlowState above = run("1e-6");
  CHECK(std::abs(above.x[0]) < 1e-3);  // on the spring
  for (const char* height : {"0", "1e-12"}) {
    INFO("H0 = " << height);
    const libcont::FlowState rest = run(height);
    CHECK(rest.mode == above.mode);
    CHECK((rest.x - above.x).norm() <= 1e-9);
  }
}

TEST_CASE("Event directions answered alone are those of the events' specifications",
          "[structure]") {
  // HybridSystem::event_direction (the flow asks at every event) against event_spec's
  // direction, for every mode and event: hard and soft contacts, open and closed, laws with
  // regimes, and every catalogue model. The events of contacts without regimes also
  // against their meaning: the gap falls to an impact or a contact, the holding force to
  // a release, and a closed soft contact's gap rises to its separation.
  using libcont::EventDirection;
  using libcont::EventKind;
  const auto check_all = [](const libcont::HybridSystem& system, bool plain_contacts) {
    for (int mode = 0; mode < system.mode_count(); ++mode)
      for (int event = 0; event < system.event_count(mode); ++event) {
        INFO(system.name() << " mode " << mode << " event " << event);
        const libcont::EventSpec spec = system.event_spec(mode, event);
        const EventDirection direction = system.event_direction(mode, event);
        CHECK(direction == spec.direction);
        if (!plain_contacts) continue;
        CHECK(direction == (spec.kind == EventKind::ContactEnd ? EventDirection::Rising
                                                               : EventDirection::Falling));
      }
  };
  for (bool hard : {true, false}) check_all(TwoStops(hard), true);
  check_all(DamperAndStop(true), false);
  for (const auto& entry : systems::catalogue()) check_all(*systems::make_system(entry.name), false);
}

TEST_CASE("An impact's numbers in one call are the impact measures' to the bit", "[structure]") {
  // ImpactingStructure::impact_change (the impact recorder's direct call) against
  // relative_velocity and kinetic_energy through the model's ImpactMeasures interface, on
  // random states and times for every mode and event: fixed and moving stops, hard and
  // soft contacts, a law with regimes, and every catalogue model declared as a structure.
  std::mt19937 random(29);
  std::normal_distribution<double> normal(0.0, 1.0);
  int compared = 0;
  const auto check_all = [&](const libcont::HybridSystem& system) {
    const auto* structure = dynamic_cast<const libcont::ImpactingStructure*>(&system);
    if (!structure) return;
    const libcont::ImpactMeasures& measures = *system.impact_measures();
    const int d = system.dimension();
    for (int mode = 0; mode < system.mode_count(); ++mode)
      for (int event = 0; event < system.event_count(mode); ++event)
        for (int trial = 0; trial < 20; ++trial) {
          Vector x_minus(d), x_plus(d);
          for (int i = 0; i < d; ++i) x_minus[i] = normal(random), x_plus[i] = normal(random);
          const double t = 3.0 * normal(random);
          const auto change = structure->impact_change(mode, event, t, x_minus, x_plus);
          const double velocity = measures.relative_velocity(mode, event, t, x_minus);
          const double energy =
              measures.kinetic_energy(t, x_plus) - measures.kinetic_energy(t, x_minus);
          INFO(system.name() << " mode " << mode << " event " << event);
          REQUIRE(std::memcmp(&change.velocity, &velocity, sizeof(double)) == 0);
          REQUIRE(std::memcmp(&change.energy_change, &energy, sizeof(double)) == 0);
          ++compared;
        }
  };
  for (bool hard : {true, false}) check_all(TwoStops(hard));
  check_all(DamperAndStop(true));
  for (const auto& entry : systems::catalogue()) check_all(*systems::make_system(entry.name));
  CHECK(compared >= 1000);
}

TEST_CASE("Affine resets agree with the model's reset and its Jacobian", "[structure]") {
  // AffineModes::affine_reset (the exact path forms the saltation matrix from it) against
  // apply_event on random states and times, and against reset_jacobian: for every affine
  // mode and event of the declared models with hard and soft contacts (impacts, sticking
  // and its end, a soft contact's start and end; fixed stops and a moving table) and of
  // every catalogue model.
  using libcont::EventKind;
  std::mt19937 random(17);
  int compared = 0;
  const auto check_all = [&](const libcont::HybridSystem& system) {
    const libcont::AffineModes* affine = system.affine_modes();
    if (!affine) return;
    const int n = system.dimension();
    for (int mode = 0; mode < system.mode_count(); ++mode) {
      libcont::AffineMode data;
      data.A.resize(n, n);
      data.b0.resize(n);
      data.b_cos.resize(n);
      data.b_sin.resize(n);
      if (!affine->affine_mode(mode, data)) continue;
      const double w = data.frequency;
      for (int event = 0; event < system.event_count(mode); ++event) {
        for (int trial = 0; trial < 20; ++trial) {
          INFO(system.name() << " mode " << mode << " event " << event << " trial " << trial);
          const auto [x, t] = random_instant(random, n);
          Vector after = x;
          const libcont::EventOutcome outcome = system.apply_event(mode, event, t, after);
          Matrix reset(n, n + 3);
          if (!affine->affine_reset(mode, event, outcome.kind, reset)) continue;
          ++compared;
          // x+ = R_x x + r_0 + r_cos cos w t + r_sin sin w t.
          const Vector lifted = reset.leftCols(n) * x + reset.col(n) +
                                reset.col(n + 1) * std::cos(w * t) +
                                reset.col(n + 2) * std::sin(w * t);
          const double scale = 1.0 + x.cwiseAbs().maxCoeff() + reset.cwiseAbs().maxCoeff();
          CHECK((lifted - after).cwiseAbs().maxCoeff() <= 1e-14 * scale);
          // D_x g = R_x and D_t g = w (r_sin cos w t - r_cos sin w t).
          Matrix dg_dx(n, n);
          Vector dg_dt(n);
          libcont::ModelJacobians(system).reset_jacobian(mode, event, outcome, t, x, dg_dx, dg_dt);
          CHECK((dg_dx - reset.leftCols(n)).cwiseAbs().maxCoeff() <= 1e-14 * scale);
          const Vector rate =
              w * (reset.col(n + 2) * std::cos(w * t) - reset.col(n + 1) * std::sin(w * t));
          CHECK((dg_dt - rate).cwiseAbs().maxCoeff() <= 1e-13 * scale * (1.0 + w));
        }
      }
    }
  };
  for (bool hard : {true, false}) check_all(TwoStops(hard));
  check_all(BouncingBall());  // a moving surface: the reset's forcing columns
  check_all(ImpactPendulum());
  for (const auto& entry : systems::catalogue()) check_all(*systems::make_system(entry.name));
  INFO("events compared " << compared);
  CHECK(compared > 100);
}

TEST_CASE("The holding force's bound holds at the stuck states", "[structure]") {
  // ImpactingStructure::holding_bound (an impact skips the sticking check's projection
  // and holding force where the rebound is too fast and too high for it) against the
  // holding force itself at the stuck state of random states (their projection by a
  // stuck mode's release, onto the same constraints), for every stuck contact of the
  // declared models and the catalogue's.
  using libcont::EventKind;
  std::mt19937 random(29);
  int compared = 0;
  const auto check_all = [&](const libcont::HybridSystem& system) {
    const auto* structure = dynamic_cast<const libcont::ImpactingStructure*>(&system);
    if (!structure) return;
    const int n = system.dimension();
    for (int stuck = 0; stuck < system.mode_count(); ++stuck)
      for (int event = 0; event < system.event_count(stuck); ++event) {
        if (system.event_spec(stuck, event).kind != EventKind::StickEnd) continue;
        for (int trial = 0; trial < 20; ++trial) {
          const auto [x, t] = random_instant(random, n);
          Vector on_surface = x;
          system.apply_event(stuck, event, t, on_surface);
          for (int j = 0; j < static_cast<int>(structure->contacts().size()); ++j) {
            const double holding = structure->holding_force(stuck, j, t, on_surface);
            if (!std::isfinite(holding)) continue;
            INFO(system.name() << " stuck mode " << stuck << " contact " << j);
            ++compared;
            CHECK(std::abs(holding) <= structure->holding_bound(stuck, j, x));
          }
        }
      }
  };
  for (bool hard : {true, false}) check_all(TwoStops(hard));
  check_all(BouncingBall());
  check_all(ImpactPendulum());
  for (const auto& entry : systems::catalogue()) check_all(*systems::make_system(entry.name));
  INFO("holding forces compared " << compared);
  CHECK(compared > 50);
}

namespace {

// Everything the flow and the continuation ask of a model, compared exactly between two
// models at random states and times: fields and their Jacobians, events, resets, the affine
// data of modes, events and resets, the parameter derivatives, the holding bounds, energies.
void check_same_model(const libcont::ImpactingStructure& a, const libcont::ImpactingStructure& b,
                      std::mt19937& random) {
  using libcont::AffineMode;
  const int n = a.dimension();
  REQUIRE(b.dimension() == n);
  REQUIRE(a.mode_count() == b.mode_count());
  CHECK(a.forcing_period() == b.forcing_period());
  const auto* da = a.parameter_derivatives();
  const auto* db = b.parameter_derivatives();
  REQUIRE((da == nullptr) == (db == nullptr));
  for (int mode = 0; mode < a.mode_count(); ++mode) {
    INFO("mode " << a.mode_name(mode));
    AffineMode affine_a{Matrix::Zero(n, n), Vector::Zero(n), Vector::Zero(n), Vector::Zero(n)};
    AffineMode affine_b = affine_a;
    REQUIRE(a.affine_mode(mode, affine_a) == b.affine_mode(mode, affine_b));
    CHECK(affine_a.A == affine_b.A);
    CHECK(affine_a.b0 == affine_b.b0);
    CHECK(affine_a.b_cos == affine_b.b_cos);
    CHECK(affine_a.b_sin == affine_b.b_sin);
    CHECK(affine_a.frequency == affine_b.frequency);
    REQUIRE(a.event_count(mode) == b.event_count(mode));
    for (int event = 0; event < a.event_count(mode); ++event) {
      Vector ca = Vector::Zero(n + 3), cb = Vector::Zero(n + 3);
      CHECK(a.affine_event(mode, event, ca) == b.affine_event(mode, event, cb));
      CHECK(ca == cb);
    }
    for (int trial = 0; trial < 10; ++trial) {
      const auto [x, t] = random_instant(random, n, 0.1);
      Vector fa(n), fb(n);
      a.vector_field(mode, t, x, fa);
      b.vector_field(mode, t, x, fb);
      CHECK(fa == fb);
      Matrix ja(n, n), jb(n, n);
      CHECK(a.state_jacobian(mode, t, x, ja) == b.state_jacobian(mode, t, x, jb));
      CHECK(ja == jb);
      CHECK(a.mechanical_energy(mode, t, x) == b.mechanical_energy(mode, t, x));
      CHECK(a.supplied_power(mode, t, x) == b.supplied_power(mode, t, x));
      for (int j = 0; j < static_cast<int>(a.contacts().size()); ++j)
        CHECK(a.holding_bound(mode, j, x) == b.holding_bound(mode, j, x));
      for (int event = 0; event < a.event_count(mode); ++event) {
        CHECK(a.event_function(mode, event, t, x) == b.event_function(mode, event, t, x));
        Vector xa = x, xb = x;
        const auto oa = a.apply_event(mode, event, t, xa);
        const auto ob = b.apply_event(mode, event, t, xb);
        CHECK(oa.next_mode == ob.next_mode);
        CHECK(oa.kind == ob.kind);
        CHECK(xa == xb);
        Matrix ga(n, n), gb(n, n);
        Vector gta(n), gtb(n);
        CHECK(a.reset_jacobian(mode, event, oa, t, x, ga, gta) ==
              b.reset_jacobian(mode, event, ob, t, x, gb, gtb));
        CHECK(ga == gb);
        CHECK(gta == gtb);
        if (!a.affine_mode(mode, affine_a)) continue;
        Matrix ra = Matrix::Zero(n, n + 3), rb = Matrix::Zero(n, n + 3);
        CHECK(a.affine_reset(mode, event, oa.kind, ra) == b.affine_reset(mode, event, ob.kind, rb));
        CHECK(ra == rb);
      }
      if (!da) continue;
      const int p = da->derivative_parameter("lambda");
      REQUIRE(p == db->derivative_parameter("lambda"));
      da->field_parameter_derivative(p, mode, t, x, fa);
      db->field_parameter_derivative(p, mode, t, x, fb);
      CHECK(fa == fb);
    }
  }
}

}  // namespace

TEST_CASE("Two-body: a change of the load alone leaves the model a new declaration gives",
          "[structure]") {
  // TwoBodySystem sets only the forces (ImpactingStructure::set_forces) when lambda alone
  // changes. The reference declares anew: lambda set together with F0, first moved away.
  using systems::TwoBodySystem;
  std::mt19937 random(31);
  const auto declared = [](const test_support::Settings& settings, const std::string& lambda) {
    auto system = make_system<TwoBodySystem>(settings);
    system.set_parameter("F0", 1.0);
    system.set_parameters({{"lambda", lambda, ""}, {"F0", "400", ""}});
    return system;
  };
  for (const test_support::Settings settings :
       {test_support::Settings{}, test_support::Settings{{"contact", "newton"}, {"r", "0.8"}},
        test_support::Settings{{"loading", "random"}, {"n", "20"}}}) {
    INFO("settings " << (settings.empty() ? "default" : settings.front().second));
    auto system = make_system<TwoBodySystem>(settings);
    for (const std::string lambda : {"0.5", "2.25", "-1", "1"}) {
      INFO("lambda = " << lambda);
      const auto before = system.revision();
      system.set_parameter_text("lambda", lambda);
      CHECK(system.revision() != before);
      check_same_model(system, declared(settings, lambda), random);
    }
    // Another parameter changed, then lambda alone: the new declaration stands.
    system.set_parameter("D", 0.06);
    system.set_parameter("lambda", 1.5);
    auto reference = declared(settings, "1.5");
    reference.set_parameter("D", 0.06);
    check_same_model(system, reference, random);
  }
}

TEST_CASE("A single contact's gain product in plain loops has the bits of Eigen's", "[structure]") {
  // x += B c and x -= B c for B of one column (n = 1 .. 6) and c of one entry, over random
  // numbers of mixed signs and magnitudes with many exact zeros of both signs (where the
  // sign of a zero sum depends on the order Eigen takes), infinities and NaN left out.
  std::mt19937 rng(20261129);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> pick(0, 9), exponent(-30, 30);
  const auto number = [&] {
    switch (pick(rng)) {
      case 0: return 0.0;
      case 1: return -0.0;
      case 2: return std::ldexp(mantissa(rng), -1060);  // subnormal
      default: return std::ldexp(mantissa(rng), exponent(rng));
    }
  };
  const auto same_bits = [](const Vector& a, const Vector& b) {
    for (Eigen::Index i = 0; i < a.size(); ++i)
      if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
    return true;
  };
  int signed_zeros = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 1 + trial % 6;
    Matrix gain(n, 1);
    Vector x(n), c(1);
    for (int i = 0; i < n; ++i) gain(i, 0) = number(), x[i] = number();
    c[0] = number();
    for (double sign : {1.0, -1.0}) {
      Vector eigen = x, loops = x;
      if (sign > 0.0) eigen.noalias() += gain * c;
      else eigen.noalias() -= gain * c;
      libcont::detail::add_single_column(n, gain.data(), c[0], sign, loops.data());
      INFO("n = " << n << ", sign " << sign);
      REQUIRE(same_bits(eigen, loops));
      for (int i = 0; i < n; ++i) signed_zeros += eigen[i] == 0.0 && std::signbit(eigen[i]);
    }
  }
  CHECK(signed_zeros > 100);  // the case that tells the two orders apart was reached
}
