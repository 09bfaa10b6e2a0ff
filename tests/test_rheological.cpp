// Mass falling onto rheological dampers (doc/models/rheological.md, doc/reproduction.md): every
// published value within its tolerance, the energy balance of all three laws, convergence
// to an integrator-free reference (exact flow of the affine regimes) in proportion to the
// tolerance, saltation-corrected Jacobians across the regime switches, brief (grazing)
// slips found, and the damper building block's own power balance.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "exact_affine_flow.hpp"
#include "libcont/energy_balance.hpp"
#include "libcont/flow.hpp"
#include "libcont/rheological_damper.hpp"
#include "systems/rheological.hpp"
#include "test_support.hpp"

using libcont::DamperRegime;
using libcont::EnergyAccountingSystem;
using libcont::EnergyBalance;
using libcont::EventKind;
using libcont::EventRecord;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowState;
using libcont::RheologicalDamper;
using libcont::RheologicalLaw;
using libcont::Vector;
using systems::RheologicalDamperDrop;
using test_support::Recorder;

namespace {

// The source's values, the model's defaults (doc/models/rheological.md).
constexpr double g = 9.81, m = 100.0, k1 = 3924.0, k2 = 1962.0, T0 = 2000.0;
constexpr double x0 = -3.0, v0 = 5.0;
const std::vector<std::string> laws = {"viscoelastic", "viscoplastic", "elastoplastic"};

RheologicalDamperDrop make(const std::string& law) {
  return test_support::make_system<RheologicalDamperDrop>({{"model", law}});
}

double initial_energy(const RheologicalDamperDrop& system) {
  const Vector x = system.default_initial_state();
  return system.mechanical_energy(system.mode_of(0.0, x), 0.0, x);
}

// One run from the default initial state with the energy accounts carried along.
struct Run {
  Recorder events;
  FlowState end;  // the state of the accounted system: (x, v, z, dissipated, supplied)
  EnergyBalance balance;
  libcont::FlowReport report;
};

Run simulate(const RheologicalDamperDrop& system, double t_end, const FlowOptions& options = {},
             libcont::SampleGrid samples = {}) {
  const EnergyAccountingSystem accounted(system);
  Flow flow(accounted, options);
  const Vector x0_state = system.default_initial_state();
  Run run;
  run.end = flow.initial_state(0.0, accounted.extend(x0_state));
  const int mode0 = run.end.mode;
  run.report = flow.advance(run.end, t_end, &run.events, samples);
  run.balance = accounted.balance(0.0, x0_state, mode0, run.end);
  return run;
}

std::string event_name(const RheologicalDamperDrop& system, const EventRecord& e) {
  return system.event_spec(e.mode_before, e.event).name;
}

}  // namespace

namespace {

// A state (s, s', z) the damper can be in, in a given regime: detached above the bumper;
// in contact with R >= 0 and the slider force within its limit; slipping on the limit
// (viscoplastic: beyond it, where the dashpot takes the excess) in the slip's direction.
struct DamperState {
  double s, rate, z;
};
DamperState admissible_state(const RheologicalDamper& damper, DamperRegime regime,
                             std::mt19937& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto between = [&](double lo, double hi) { return lo + (hi - lo) * unit(random); };
  const bool elastoplastic = damper.law() == RheologicalLaw::Elastoplastic;
  double z = between(0.2, 1.5);
  double rate = between(-5.0, 5.0);
  double reaction = 0.0;
  switch (regime) {
    case DamperRegime::Detached: return {z - between(0.01, 0.5), rate, z};
    case DamperRegime::Stuck:
      if (damper.law() == RheologicalLaw::Viscoelastic) reaction = between(0.0, 2.0 * T0);
      else if (!elastoplastic) reaction = between(0.0, T0);
      else reaction = between(std::max(0.0, k2 * z - T0), k2 * z + T0);
      break;
    case DamperRegime::Slipping:
      reaction = elastoplastic ? k2 * z + T0 : between(T0, 2.0 * T0);
      if (elastoplastic) rate = std::abs(rate);
      break;
    case DamperRegime::SlippingBack:
      z = between(T0 / k2, 2.0);  // R = k2 z - T0 >= 0
      reaction = k2 * z - T0;
      rate = -std::abs(rate);
      break;
  }
  return {z + reaction / k1, rate, z};
}

}  // namespace

TEST_CASE("rheological damper: each regime's power balance, R s' = d(stored)/dt + dissipated",
          "[rheological]") {
  // The damper alone: the power the body puts in, R s', is stored in its springs or
  // dissipated. The stored energy is quadratic, so its central difference along the
  // regime's motion (s', z') is exact up to rounding.
  std::mt19937 random(7);
  for (RheologicalLaw law : {RheologicalLaw::Viscoelastic, RheologicalLaw::ElasticViscoplastic,
                             RheologicalLaw::Elastoplastic}) {
    const RheologicalDamper damper(law, {k1, k2, 251.0, T0});
    for (int r = 0; r < damper.regime_count(); ++r) {
      const auto regime = static_cast<DamperRegime>(r);
      for (int trial = 0; trial < 20; ++trial) {
        const auto [s, rate, z] = admissible_state(damper, regime, random);
        const double z_rate = damper.internal_rate(regime)(s, rate, z);
        const double h = 1e-4;
        const double stored_rate = (damper.stored_energy(regime, s + rate * h, z + z_rate * h) -
                                    damper.stored_energy(regime, s - rate * h, z - z_rate * h)) /
                                   (2.0 * h);
        const double input = damper.reaction(regime)(s, rate, z) * rate;
        const double dissipated = damper.dissipated_power(regime, s, rate, z);
        INFO(to_string(law) << " regime " << damper.regime_name(regime) << " s " << s << " z " << z);
        CHECK(input == Approx(stored_rate + dissipated).margin(1e-7 * (std::abs(input) + 1.0)));
        // Slipping, the elastoplastic slider stays on its yield surface: (R - k2 z)' = 0.
        if (law == RheologicalLaw::Elastoplastic && r >= 2)
          CHECK(k1 * (rate - z_rate) - k2 * z_rate == Approx(0.0).margin(1e-10));
        // Dissipation never creates energy; a state inside a regime is classified as such.
        CHECK(dissipated >= 0.0);
        if (regime == DamperRegime::Detached || law != RheologicalLaw::Elastoplastic)
          CHECK(damper.regime_of(s, rate, z) == regime);
      }
    }
  }
}

TEST_CASE("rheological damper: bad parameters are refused by name", "[rheological]") {
  CHECK_THROWS_WITH(RheologicalDamper(RheologicalLaw::Viscoelastic, {0.0, k2, 251.0, T0}),
                    Catch::Contains("k1"));
  CHECK_THROWS_WITH(RheologicalDamper(RheologicalLaw::ElasticViscoplastic, {k1, k2, 251.0, -1.0}),
                    Catch::Contains("T0"));
  CHECK_THROWS_WITH(RheologicalDamper(RheologicalLaw::Viscoelastic, {k1, k2, NAN, T0}),
                    Catch::Contains("c"));
  // Laws ignore what they do not use: the elastoplastic law has no dashpot.
  CHECK_NOTHROW(RheologicalDamper(RheologicalLaw::Elastoplastic, {k1, k2, 0.0, T0}));
  RheologicalDamperDrop system;
  CHECK_THROWS_WITH(system.set_parameter("c", -251.0), Catch::Contains("c"));
  CHECK_THROWS_WITH(system.set_parameter_text("model", "plastic"), Catch::Contains("model"));
}

TEST_CASE("rheological: first contact at 0.423803 s with impact speed 9.157511 m/s, all laws",
          "[rheological]") {
  // Free fall from x0 with v0 onto the unloaded surface x = 0.
  const double speed = std::sqrt(v0 * v0 - 2.0 * g * x0);
  const double time = (speed - v0) / g;
  for (const auto& law : laws) {
    const RheologicalDamperDrop system = make(law);
    const Run run = simulate(system, 1.0);
    REQUIRE(run.report.ok());
    const auto contacts = run.events.of_kind(EventKind::ContactStart);
    REQUIRE(!contacts.empty());
    INFO(law);
    CHECK(std::abs(contacts[0]->t - 0.423803) <= 1e-5);
    CHECK(std::abs(contacts[0]->x_minus[1] - 9.157511) <= 1e-6 * 9.157511);
    CHECK(system.relative_velocity(contacts[0]->mode_before, 0, contacts[0]->t,
                                   contacts[0]->x_minus) == Approx(speed).epsilon(1e-10));
    CHECK(contacts[0]->t == Approx(time).epsilon(1e-10));
  }
}

TEST_CASE("rheological viscoelastic: settles at x = y = 0.75, z = 0.5, R = 981", "[rheological]") {
  const RheologicalDamperDrop system = make("viscoelastic");
  const double x_inf = (k1 + k2) * m * g / (k1 * k2), z_inf = m * g / k2, r_inf = m * g;
  for (const double t_end : {40.0, 60.0}) {
    const Run run = simulate(system, t_end);
    REQUIRE(run.report.ok());
    const Vector x = run.end.x.head(3);
    INFO("t = " << t_end);
    REQUIRE(run.end.mode == static_cast<int>(DamperRegime::Stuck));  // in contact
    CHECK(std::abs(x[0] - 0.75) <= 1e-6);
    CHECK(std::abs(system.bumper_position(run.end.mode, x) - 0.75) <= 1e-6);
    CHECK(std::abs(x[2] - 0.5) <= 1e-6);
    CHECK(std::abs(system.reaction(run.end.mode, x) - 981.0) <= 1e-3);
    CHECK(x_inf == Approx(0.75).epsilon(1e-15));  // the published closed forms
    CHECK(z_inf == Approx(0.5).epsilon(1e-15));
    CHECK(r_inf == Approx(981.0).epsilon(1e-15));
  }
}

TEST_CASE("rheological elastoplastic: z = T0/k2 = 1.019368 at every separation after the "
          "first loading",
          "[rheological]") {
  const RheologicalDamperDrop system = make("elastoplastic");
  const Run run = simulate(system, 40.0);
  REQUIRE(run.report.ok());
  bool loaded = false;
  int separations = 0;
  for (const auto& e : run.events.events) {
    if (event_name(system, e) == "slip") loaded = true;
    if (e.kind != EventKind::ContactEnd || !loaded) continue;
    ++separations;
    INFO("separation at t = " << e.t);
    CHECK(std::abs(e.x_plus[2] - 1.019368) <= 1e-5);
    CHECK(e.x_plus[2] == Approx(T0 / k2).epsilon(1e-9));
  }
  CHECK(separations >= 20);
}

TEST_CASE("rheological: energy balance closes to 1e-6 of the initial energy, all laws",
          "[rheological]") {
  for (const auto& law : laws) {
    const RheologicalDamperDrop system = make(law);
    const Run run = simulate(system, 40.0);
    REQUIRE(run.report.ok());
    const double e0 = initial_energy(system);
    INFO(law << ": E0 " << run.balance.initial << ", E " << run.balance.current << ", dissipated "
             << run.balance.dissipated << ", residual " << run.balance.residual());
    CHECK(run.balance.initial == Approx(0.5 * m * v0 * v0 - m * g * x0).epsilon(1e-15));
    CHECK(run.balance.dissipated > 0.2 * e0);  // a real loss, not a vacuous balance
    CHECK(run.balance.supplied == 0.0);
    CHECK(std::abs(run.balance.residual()) <= 1e-6 * e0);
  }
}

TEST_CASE("rheological: CVODE converges to the exact affine flow in proportion to its tolerance",
          "[rheological]") {
  // The reference solves each regime exactly (matrix exponential) and finds the switches
  // on the exact solution; it shares nothing with CVODE. An adaptive integrator's global
  // error follows its tolerance (order 1 in the tolerance, whatever order CVODE uses
  // internally); a switch handled wrongly would leave an error floor or first-order
  // convergence in the step instead. Ten seconds hold 3 (viscoelastic) to 38 switches.
  const double t_end = 10.0;
  for (const auto& law : laws) {
    const RheologicalDamperDrop system = make(law);
    test_support::ExactAffineFlow exact(system, 1e-3);
    double t = 0.0;
    Vector reference = system.default_initial_state();
    int mode = system.mode_of(0.0, reference);
    std::vector<test_support::ExactEvent> exact_events;
    exact.advance(t, reference, mode, t_end, exact_events);

    std::vector<double> errors;
    std::vector<Vector> states;
    const std::vector<double> tolerances = {1e-7, 1e-9, 1e-11};
    for (const double tolerance : tolerances) {
      FlowOptions options;
      options.relative_tolerance = tolerance;
      options.absolute_tolerance = 1e-2 * tolerance;
      const Run run = simulate(system, t_end, options);
      REQUIRE(run.report.ok());
      // Same switches, in the same order, at the same times.
      REQUIRE(run.events.events.size() == exact_events.size());
      double event_time_error = 0.0;
      for (size_t i = 0; i < exact_events.size(); ++i) {
        CHECK(run.events.events[i].event == exact_events[i].event);
        CHECK(run.events.events[i].mode_after == exact_events[i].mode_after);
        event_time_error = std::max(event_time_error, std::abs(run.events.events[i].t - exact_events[i].t));
      }
      states.push_back(run.end.x.head(3));
      errors.push_back((states.back() - reference).cwiseAbs().maxCoeff());
      INFO(law << " rtol " << tolerance << ": state error " << errors.back()
               << ", event time error " << event_time_error);
      CHECK(event_time_error <= 1e4 * tolerance);
      CHECK(errors.back() <= 1e4 * tolerance);
    }
    // Order in the tolerance: error ratio over four decades of tolerance.
    const double order = std::log10(errors[0] / errors[2]) / 4.0;
    INFO(law << ": errors " << errors[0] << ", " << errors[1] << ", " << errors[2]
             << "; order in the tolerance " << order);
    CHECK(order > 0.75);
    CHECK(order < 1.5);
    // Two tolerances agree within the looser one's error bound.
    CHECK((states[1] - states[2]).cwiseAbs().maxCoeff() <= 1e4 * tolerances[1]);
  }
}

TEST_CASE("rheological: saltation-corrected Jacobian across the switches matches finite "
          "differences",
          "[rheological]") {
  // Over [0, 1.5] s the mass lands, the slider slips and sticks (and slips back for the
  // elastoplastic law, whose vector field jumps on the yield surface), and it separates.
  // The map is affine between switches, so a difference step of 1e-4 has no truncation
  // error to speak of and keeps the integration noise (~1e-11) amplified to ~1e-7.
  for (const auto& law : laws) {
    const RheologicalDamperDrop system = make(law);
    const FlowOptions options = test_support::tight_options();
    const Vector x = system.default_initial_state();
    const auto map = [&](const Vector& start) {
      return test_support::flow_map(system, options, 0.0, start, 1.5, false).x;
    };
    const auto with_tangent = test_support::flow_map(system, options, 0.0, x, 1.5, true);
    REQUIRE(with_tangent.report.ok());
    REQUIRE(with_tangent.events.events.size() >= 2);
    const libcont::Matrix differences =
        test_support::central_differences(map, x, Vector::Constant(3, 1e-4));
    INFO(law << "\nsaltation-corrected:\n" << with_tangent.jacobian << "\nfinite differences:\n"
             << differences);
    CHECK((with_tangent.jacobian - differences).cwiseAbs().maxCoeff() <=
          1e-6 * (1.0 + differences.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("rheological: a slip lasting 0.1 ms, 1e-8 m beyond the yield surface, is found",
          "[rheological]") {
  // A fresh elastoplastic damper in contact (z = 0) oscillating on k1 about x = m g / k1:
  // the slider yields at x = T0 / k1. An amplitude 1e-8 m beyond that keeps the slider
  // force above T0 for ~9e-5 s only, far shorter than CVODE's steps here: root finding on
  // the signs at step ends alone would miss it. The flow watches the turning points.
  RheologicalDamperDrop system = make("elastoplastic");
  const double omega = std::sqrt(k1 / m), rest = m * g / k1, overshoot = 1e-8;
  const double amplitude = T0 / k1 + overshoot - rest;
  system.set_parameter("x0", rest);
  system.set_parameter("v0", omega * amplitude);
  system.set_parameter("z0", 0.0);
  // The slip's size follows the overshoot, which carries the position's integration error
  // (relative tolerance times 0.5 m): tight tolerances let the check below be sharp.
  const Run run = simulate(system, 0.5, test_support::tight_options());
  REQUIRE(run.report.ok());
  REQUIRE(run.events.events.size() == 2);
  CHECK(event_name(system, run.events.events[0]) == "slip");
  CHECK(event_name(system, run.events.events[1]) == "stick");
  // On the yield surface the mass moves on the series stiffness k1 k2 / (k1 + k2) and
  // stops after a displacement equal to the overshoot (to first order: the speed at the
  // yield point is sqrt(2 omega^2 A overshoot), the deceleration there omega^2 A); z moves
  // by k1 / (k1 + k2) of it.
  const double dz = run.end.x[2];
  CHECK(dz == Approx(k1 / (k1 + k2) * overshoot).epsilon(1e-3));
  test_support::ExactAffineFlow exact(system, 1e-3);
  double t = 0.0;
  Vector x = system.default_initial_state();
  int mode = system.mode_of(0.0, x);
  std::vector<test_support::ExactEvent> exact_events;
  exact.advance(t, x, mode, 0.5, exact_events);
  REQUIRE(exact_events.size() == 2);
  CHECK(run.events.events[0].t == Approx(exact_events[0].t).margin(1e-8));
  INFO("dz " << dz << " exact " << x[2]);
  CHECK(dz == Approx(x[2]).margin(1e-12));
}

TEST_CASE("rheological: the declared structure's fields, Jacobians and switches are the "
          "damper's equations",
          "[rheological]") {
  // The model is a structure whose contact law is the damper: its generated field must be
  // m x'' = m g - R, z' = the law's rate, with x the penetration, in every regime, and its
  // events the law's switches with their conditions in (x, x', z).
  std::mt19937 random(11);
  for (const auto& law : laws) {
    RheologicalDamperDrop system = make(law);
    const RheologicalDamper& damper = system.damper();
    REQUIRE(system.mode_count() == damper.regime_count());
    for (int r = 0; r < damper.regime_count(); ++r) {
      const auto regime = static_cast<DamperRegime>(r);
      const libcont::AffineForm& reaction = damper.reaction(regime);
      const libcont::AffineForm& rate = damper.internal_rate(regime);
      for (int trial = 0; trial < 5; ++trial) {
        const auto [s, v, z] = admissible_state(damper, regime, random);
        const Vector x = (Vector(3) << s, v, z).finished();
        INFO(law << " regime " << system.mode_name(r) << " x " << x.transpose());
        Vector f(3);
        system.vector_field(r, 0.0, x, f);
        CHECK(f[0] == v);
        CHECK(f[1] == Approx(g - reaction(s, v, z) / m).epsilon(1e-14).margin(1e-13));
        CHECK(f[2] == Approx(rate(s, v, z)).epsilon(1e-14).margin(1e-13));
        libcont::Matrix jac(3, 3), expected(3, 3);
        system.state_jacobian(r, 0.0, x, jac);
        expected << 0.0, 1.0, 0.0, -reaction.s / m, -reaction.rate / m, -reaction.z / m, rate.s,
            rate.rate, rate.z;
        CHECK((jac - expected).cwiseAbs().maxCoeff() <= 1e-14 * (1.0 + expected.cwiseAbs().maxCoeff()));
        const auto& switches = damper.switches(regime);
        REQUIRE(system.event_count(r) == static_cast<int>(switches.size()));
        for (int e = 0; e < system.event_count(r); ++e) {
          const auto spec = system.event_spec(r, e);
          CHECK(spec.name == switches[e].name);
          CHECK(spec.direction == switches[e].direction);
          CHECK(spec.kind == switches[e].kind);
          CHECK(spec.guard_turning_points);
          CHECK(system.event_function(r, e, 0.0, x) ==
                Approx(switches[e].condition(s, v, z)).epsilon(1e-14).margin(1e-12));
          Vector y = x;
          const auto outcome = system.apply_event(r, e, 0.0, y);
          CHECK(outcome.next_mode == static_cast<int>(switches[e].next));
          CHECK(y == x);  // no switch changes the state
        }
      }
    }
  }
}
