// Hertz impact with positional friction (doc/models/hertz_friction.md): the closed form against
// doc/reproduction.md, against the event-driven integration of the two-stage ODE,
// the contact stiffness from surface geometry, bad input, and the law's regimes in a
// structure (bounces and turns in contact against the energy of each branch).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "libcont/hertz_friction_contact.hpp"
#include "libcont/input_error.hpp"
#include "libcont/surface_profile.hpp"
#include "systems/catalogue.hpp"
#include "systems/hertz_friction.hpp"
#include "test_support.hpp"

using libcont::ElasticBody;
using libcont::HertzFrictionContact;
using libcont::HertzFrictionImpact;
using libcont::HertzFrictionImpactCharacteristics;
using Catch::Matchers::Contains;
using systems::HertzFrictionImpactSystem;
using test_support::Settings;

namespace {

// Data set (a) of doc/models/hertz_friction.md: rubber ball on concrete.
constexpr double mass = 0.1, stiffness = 2.1873e6, alpha = 1.5, restitution = 0.73;

// The source's materials: rubber (E1, nu1) on concrete (E2, nu2).
const ElasticBody rubber{0.8e7, 0.5};
const ElasticBody concrete{2750e7, 0.15};
double compliance_sum() { return (1 - 0.5 * 0.5) / 0.8e7 + (1 - 0.15 * 0.15) / 2750e7; }

double relative_difference(double ours, double theirs) {
  return std::abs(ours - theirs) / std::abs(theirs);
}

HertzFrictionImpactSystem data_set_a(double v0) {
  return test_support::make_system<HertzFrictionImpactSystem>({{"v0", std::to_string(v0)}});
}

// Every characteristic of `ode` within `tolerance` (relative) of `exact`.
void check_characteristics(const HertzFrictionImpactCharacteristics& ode,
                           const HertzFrictionImpactCharacteristics& exact, double tolerance) {
  CHECK(relative_difference(ode.x_c, exact.x_c) < tolerance);
  CHECK(relative_difference(ode.P_c, exact.P_c) < tolerance);
  CHECK(relative_difference(ode.P_c_star, exact.P_c_star) < tolerance);
  CHECK(relative_difference(ode.t_c, exact.t_c) < tolerance);
  CHECK(relative_difference(ode.t_y, exact.t_y) < tolerance);
  CHECK(relative_difference(ode.rebound_velocity, exact.rebound_velocity) < tolerance);
}

}  // namespace

TEST_CASE("Positional friction: c1 and c2 of data set (a)", "[hertz-friction]") {
  const HertzFrictionContact contact(stiffness, alpha, restitution);
  // Published values (doc/reproduction.md), printed to 7 digits.
  CHECK(relative_difference(contact.approach_stiffness(), 2.853807e6) < 5e-7);
  CHECK(relative_difference(contact.separation_stiffness(), 1.520794e6) < 5e-7);
  CHECK(contact.separation_stiffness() / contact.approach_stiffness() ==
        Approx(restitution * restitution).epsilon(1e-15));
  // The force follows the direction of motion.
  CHECK(contact.force(1e-3, 1.0) == Approx(contact.approach_stiffness() * std::pow(1e-3, 1.5)));
  CHECK(contact.force(1e-3, -1.0) ==
        Approx(contact.separation_stiffness() * std::pow(1e-3, 1.5)));
  CHECK(contact.force(-1e-3, 1.0) == 0.0);
  // K_r = 1: no friction.
  CHECK(HertzFrictionContact(stiffness, alpha, 1.0).stiffness_increment() == 0.0);
}

TEST_CASE("Closed-form impact of data set (a) matches the reference table", "[hertz-friction]") {
  struct Row {
    double v0, x_c_milli, P_c, P_c_star, t_c_milli, t_y_milli;
  };
  const std::vector<Row> table = {
      {1, 1.13918, 109.728, 58.474, 1.67647, 3.97300},
      {3, 2.74341, 410.073, 218.528, 1.34577, 3.18929},
      {5, 4.12829, 756.972, 403.390, 1.21507, 2.87955},
  };
  const HertzFrictionContact contact(stiffness, alpha, restitution);
  for (const Row& row : table) {
    INFO("v0 = " << row.v0);
    const auto r = HertzFrictionImpact(contact, mass, row.v0).characteristics();
    // Printed to 6 digits: the 1e-5 relative tolerance of the reference.
    CHECK(relative_difference(1e3 * r.x_c, row.x_c_milli) < 1e-5);
    CHECK(relative_difference(r.P_c, row.P_c) < 1e-5);
    CHECK(relative_difference(r.P_c_star, row.P_c_star) < 1e-5);
    CHECK(relative_difference(1e3 * r.t_c, row.t_c_milli) < 1e-5);
    CHECK(relative_difference(1e3 * r.t_y, row.t_y_milli) < 1e-5);
    // The rebound speed is K_r v0, exactly.
    CHECK(r.rebound_velocity == Approx(-restitution * row.v0).epsilon(1e-15));
  }
}

TEST_CASE("Closed form agrees with the event-driven integration of the two-stage ODE",
          "[hertz-friction]") {
  for (double v0 : {1.0, 2.0, 3.0, 4.0, 5.0}) {
    INFO("v0 = " << v0);
    const HertzFrictionImpactSystem system = data_set_a(v0);
    const auto exact = system.closed_form().characteristics();
    const systems::SimulatedImpact ode = systems::simulate_impact(system);
    REQUIRE(ode.ok());
    check_characteristics(ode.characteristics, exact, 1e-7);
    // The rebound speed of the integration is K_r v0 too.
    CHECK(relative_difference(-ode.characteristics.rebound_velocity, restitution * v0) < 1e-7);
  }
}

TEST_CASE("Closed-form x(t), x'(t) and P(t) follow the integrated motion", "[hertz-friction]") {
  const HertzFrictionImpactSystem system = data_set_a(3.0);
  const HertzFrictionImpact exact = system.closed_form();
  const auto& r = exact.characteristics();
  test_support::Recorder recorder;
  const auto ode = systems::simulate_impact(system, {}, &recorder, {0.0, r.t_y / 400.0});
  REQUIRE(ode.ok());
  REQUIRE(recorder.samples.size() > 300);
  double worst_x = 0.0, worst_v = 0.0, worst_force = 0.0;
  for (const auto& s : recorder.samples) {
    worst_x = std::max(worst_x, std::abs(s.x[0] - exact.penetration(s.t)) / r.x_c);
    worst_v = std::max(worst_v, std::abs(s.x[1] - exact.velocity(s.t)) / system.impact_velocity());
    const double force = system.contact().force(s.x[0], s.mode == 0 ? 1.0 : -1.0);
    worst_force = std::max(worst_force, std::abs(force - exact.force(s.t)) / r.P_c);
  }
  INFO("largest differences relative to x_c, v0, P_c: " << worst_x << ", " << worst_v << ", "
                                                          << worst_force);
  CHECK(worst_x < 1e-7);
  CHECK(worst_v < 1e-7);
  CHECK(worst_force < 1e-7);
  // The stages meet where they should.
  CHECK(exact.penetration(r.t_c) == Approx(r.x_c).epsilon(1e-15));
  CHECK(exact.velocity(r.t_c) == Approx(0.0).margin(1e-15));
  CHECK(exact.penetration(r.t_y) == Approx(0.0).margin(1e-15 * r.x_c));
  CHECK(exact.velocity(r.t_y) == Approx(r.rebound_velocity).epsilon(1e-14));
  CHECK(exact.force(r.t_c) == Approx(r.P_c).epsilon(1e-15));
  CHECK(exact.force(std::nextafter(r.t_c, 1.0)) == Approx(r.P_c_star).epsilon(1e-12));
  // Free flight outside the impact.
  CHECK(exact.penetration(-1e-3) == Approx(-3e-3));
  CHECK(exact.penetration(r.t_y + 1e-3) == Approx(-0.73 * 3.0 * 1e-3));
  CHECK(exact.force(r.t_y + 1e-3) == 0.0);
}

TEST_CASE("Energy: each stage conserves its own, the rebound keeps K_r^2 of it",
          "[hertz-friction]") {
  const HertzFrictionContact contact(stiffness, alpha, restitution);
  const HertzFrictionImpact impact(contact, mass, 2.0);
  const auto& r = impact.characteristics();
  const double energy_in = 0.5 * mass * 2.0 * 2.0;
  CHECK(contact.approach_stiffness() * std::pow(r.x_c, alpha + 1.0) / (alpha + 1.0) ==
        Approx(energy_in).epsilon(1e-14));
  const double energy_out = 0.5 * mass * r.rebound_velocity * r.rebound_velocity;
  CHECK(energy_out / energy_in == Approx(restitution * restitution).epsilon(1e-14));
  for (double t = 0.0; t <= r.t_y; t += r.t_y / 97.0) {
    const double x = impact.penetration(t), v = impact.velocity(t);
    const double c = t <= r.t_c ? contact.approach_stiffness() : contact.separation_stiffness();
    const double stage_energy =
        0.5 * mass * v * v + c * std::pow(std::max(x, 0.0), alpha + 1.0) / (alpha + 1.0);
    CHECK(stage_energy == Approx(t <= r.t_c ? energy_in : energy_out).epsilon(1e-13));
  }
}

TEST_CASE("Contact stiffness from surface geometry, data sets (b) and (c)", "[hertz-friction]") {
  const double q = compliance_sum();
  // (b) quartic surfaces z = A r^4: the formula of doc/models/hertz_friction.md (4), exactly.
  const double c_b = libcont::profile_contact_stiffness({4.0, 1e4}, rubber, concrete);
  CHECK(c_b == Approx(8.0 / (5.0 * q) * std::pow(3.0 / (8.0 * 1e4), 0.25)).epsilon(1e-14));
  CHECK(libcont::profile_force_exponent({4.0, 1e4}) == 1.25);
  // (c) singular point z = A r^(3/2): the source prints the constant to 5 digits.
  const double c_c = libcont::profile_contact_stiffness({1.5, 5.0}, rubber, concrete);
  CHECK(relative_difference(c_c, 0.81180 / (std::pow(5.0, 2.0 / 3.0) * q)) < 1e-5);
  CHECK(libcont::profile_force_exponent({1.5, 5.0}) == Approx(5.0 / 3.0).epsilon(1e-15));
  // Spheres: Hertz, c = (4/3) sqrt(R) / (Q1 + Q2) with A = 1/(2R); and the same as
  // hertz_stiffness of contact law 3 when its tabulated q is the exact 1/pi.
  const double radius = 0.02;
  const double c_a = libcont::profile_contact_stiffness({2.0, 0.5 / radius}, rubber, concrete);
  CHECK(c_a == Approx(4.0 / 3.0 * std::sqrt(radius) / q).epsilon(1e-14));
  const ElasticBody steel{2.1e11, 0.3};
  CHECK(libcont::profile_contact_stiffness({2.0, 0.25}, steel, steel) ==
        Approx(libcont::hertz_stiffness(steel, steel, 0.25, 0.25, 1.0 / std::numbers::pi))
            .epsilon(1e-14));
}

TEST_CASE("hertz-friction system: geometry and parameters", "[hertz-friction]") {
  SECTION("defaults are data set (a)") {
    HertzFrictionImpactSystem system;
    CHECK(system.contact().stiffness() == stiffness);
    CHECK(system.contact().exponent() == alpha);
    CHECK(system.contact().restitution() == restitution);
    CHECK(system.mass() == mass);
    CHECK(systems::make_system("hertz-friction")->name() == "hertz-friction");
  }
  SECTION("geometry = quartic: alpha 5/4 and c from A, E1, nu1, E2, nu2") {
    const auto system =
        test_support::make_system<HertzFrictionImpactSystem>({{"geometry", "quartic"}});
    CHECK(system.contact().exponent() == 1.25);
    CHECK(system.contact().stiffness() ==
          libcont::profile_contact_stiffness({4.0, 1e4}, rubber, concrete));
    const auto ode = systems::simulate_impact(system);
    REQUIRE(ode.ok());
    check_characteristics(ode.characteristics, system.closed_form().characteristics(), 1e-7);
  }
  SECTION("geometry = singular with its default A = 5, alpha given consistently") {
    const auto system = test_support::make_system<HertzFrictionImpactSystem>(
        {{"alpha", "1.6666666666666667"}, {"geometry", "singular"}, {"v0", "5"}});
    CHECK(system.contact().exponent() == Approx(5.0 / 3.0).epsilon(1e-15));
    const auto ode = systems::simulate_impact(system);
    REQUIRE(ode.ok());
    check_characteristics(ode.characteristics, system.closed_form().characteristics(), 1e-7);
  }
  SECTION("geometry = spheres: Hertz; its default radius is the one data set (a) implies") {
    const auto spheres =
        test_support::make_system<HertzFrictionImpactSystem>({{"geometry", "spheres"}});
    CHECK(spheres.contact().exponent() == 1.5);
    CHECK(spheres.contact().stiffness() == Approx(stiffness).epsilon(1e-14));
    // A after the geometry, as a user may well write it: the order does not matter.
    const auto given = test_support::make_system<HertzFrictionImpactSystem>(
        {{"geometry", "spheres"}, {"A", "25"}});
    CHECK(given.contact().stiffness() ==
          Approx(4.0 / 3.0 * std::sqrt(0.02) / compliance_sum()).epsilon(1e-14));
  }
}

TEST_CASE("Hertz friction: bad input is rejected, naming the item",
          "[hertz-friction][bad-input]") {
  // The library.
  CHECK_THROWS_WITH(HertzFrictionContact(stiffness, 0.0, restitution), Contains("alpha"));
  CHECK_THROWS_WITH(HertzFrictionContact(stiffness, -1.5, restitution), Contains("alpha"));
  CHECK_THROWS_WITH(HertzFrictionContact(stiffness, std::numeric_limits<double>::quiet_NaN(), restitution),
                    Contains("alpha"));
  CHECK_THROWS_WITH(HertzFrictionContact(0.0, alpha, restitution), Contains("stiffness c"));
  for (double kr : {0.0, -0.5, 1.0000001, 2.0, std::numeric_limits<double>::quiet_NaN()})
    CHECK_THROWS_WITH(HertzFrictionContact(stiffness, alpha, kr), Contains("Kr"));
  const HertzFrictionContact contact(stiffness, alpha, restitution);
  CHECK_THROWS_WITH(HertzFrictionImpact(contact, 0.0, 1.0), Contains("mass M"));
  CHECK_THROWS_WITH(HertzFrictionImpact(contact, mass, 0.0), Contains("v0"));
  CHECK_THROWS_WITH(HertzFrictionImpact(contact, mass, std::numeric_limits<double>::infinity()), Contains("v0"));
  CHECK_THROWS_WITH(libcont::profile_contact_stiffness({0.0, 1.0}, rubber, concrete),
                    Contains("exponent n"));
  CHECK_THROWS_WITH(libcont::profile_contact_stiffness({2.0, -1.0}, rubber, concrete),
                    Contains("coefficient A"));
  CHECK_THROWS_WITH(libcont::profile_contact_stiffness({2.0, 1.0}, {0.8e7, 0.6}, concrete),
                    Contains("Poisson ratio of the first body"));

  // The system, as a user sets it (--set name=value).
  const std::vector<std::pair<Settings, std::string>> cases = {
      {{{"alpha", "0"}}, "alpha"},
      {{{"alpha", "-1"}}, "alpha"},
      {{{"Kr", "0"}}, "Kr"},
      {{{"Kr", "1.5"}}, "Kr"},
      {{{"Kr", "-0.2"}}, "Kr"},
      {{{"M", "0"}}, "M"},
      {{{"v0", "-1"}}, "v0"},
      {{{"c", "0"}}, "c"},
      {{{"geometry", "cubic"}}, "geometry"},
      {{{"c", "1e6"}, {"geometry", "quartic"}}, "'c'"},
      {{{"geometry", "quartic"}, {"alpha", "1.5"}}, "'alpha'"},
      {{{"geometry", "quartic"}, {"nu1", "0.7"}}, "nu1"},
      {{{"geometry", "quartic"}, {"E2", "0"}}, "E2"},
      {{{"foo", "1"}}, "foo"},
  };
  for (const auto& [settings, item] : cases) {
    INFO("expecting an error naming " << item);
    CHECK_THROWS_WITH(test_support::make_system<HertzFrictionImpactSystem>(settings),
                      Contains(item));
  }
}

namespace {
// A ball of mass 1 under gravity 10 (x down, the penetration) bouncing on a Hertz contact
// with positional friction: the law with all its regimes and switches in one run.
class BouncingOnFriction : public libcont::ImpactingStructure {
 public:
  BouncingOnFriction() {
    auto ball = libcont::LinearStructure::single(1.0);
    ball.constant_force = libcont::Vector::Constant(1, 10.0);
    libcont::UnilateralContact contact;
    contact.normal = libcont::Vector::Constant(1, -1.0);  // the gap is -x
    contact.law = std::shared_ptr<const libcont::RegimeContactLaw>(
        std::make_shared<const HertzFrictionContact>(1e4, 1.5, 0.9));
    declare(ball, {contact});
  }
  std::string name() const override { return "bouncing-on-friction"; }
};
}  // namespace

TEST_CASE("Hertz friction law: bounces and in-contact turns conserve each branch's energy",
          "[hertz_friction]") {
  // Within a regime the force is conservative: E_i = v^2 / 2 - g x + c_i x^(alpha + 1) /
  // (alpha + 1) (c_i = c1 approach, c2 separation, 0 in flight) is constant from one event
  // to the next. At the turns v = 0, at contact and separation x = 0, and a flight is
  // ballistic: it lasts 2 v / g and lands at the speed it left with. Four bounces, then
  // turns inside the contact (reloading) until, at t = 1.4636, the load g lies between the
  // two branches' forces: dry friction would hold the ball there, which the law (without a
  // stuck regime) cannot; the run stops before.
  const BouncingOnFriction system;
  const HertzFrictionContact law(1e4, 1.5, 0.9);
  const double g = 10.0, a = 1.5;
  const auto branch_energy = [&](int mode, const libcont::Vector& x) {
    const double c = mode == HertzFrictionContact::Approach     ? law.approach_stiffness()
                     : mode == HertzFrictionContact::Separation ? law.separation_stiffness()
                                                                : 0.0;
    const double depth = std::max(x[0], 0.0);
    return 0.5 * x[1] * x[1] - g * x[0] + c * std::pow(depth, a + 1.0) / (a + 1.0);
  };
  libcont::Flow flow(system, test_support::tight_options());
  libcont::Vector start(2);
  start << 0.0, 0.9;
  libcont::FlowState state = flow.initial_state(0.0, start);
  REQUIRE(state.mode == HertzFrictionContact::Approach);
  test_support::Recorder events;
  REQUIRE(flow.advance(state, 1.42, &events).ok());
  std::map<std::string, int> seen;
  double t = 0.0;
  libcont::Vector x = start;
  for (const auto& e : events.events) {
    const std::string name = system.event_spec(e.mode_before, e.event).name;
    ++seen[name];
    INFO(name << " at t = " << e.t);
    CHECK(branch_energy(e.mode_before, e.x_minus) ==
          Approx(branch_energy(e.mode_before, x)).margin(1e-9));
    if (name == "maximal compression" || name == "reloading") CHECK(std::abs(e.x_minus[1]) <= 1e-9);
    if (name == "contact" || name == "separation") CHECK(std::abs(e.x_minus[0]) <= 1e-12);
    if (name == "contact") {  // ballistic flight since the separation
      CHECK(e.x_minus[1] == Approx(-x[1]).epsilon(1e-9));
      CHECK(e.t - t == Approx(2.0 * -x[1] / g).epsilon(1e-9));
    }
    t = e.t;
    x = e.x_plus;
  }
  CHECK(seen["contact"] == 4);
  CHECK(seen["separation"] == 4);
  CHECK(seen["maximal compression"] == 8);
  CHECK(seen["reloading"] == 3);
}
