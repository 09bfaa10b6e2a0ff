// ParameterSet and the parameter handling of the systems: every bad value is
// rejected with libcont::InputError whose message names the parameter, and a rejected
// value leaves the previous one in place.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/parameters.hpp"
#include "systems/catalogue.hpp"
#include "systems/drop.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using libcont::Constraint;
using libcont::InputError;
using libcont::ParameterSet;

namespace {

ParameterSet example_set() {
  ParameterSet p;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("k", 1.0, Constraint::Positive, "stiffness");
  p.add("c", 0.23, Constraint::NonNegative, "damping");
  p.add("r", 1.0, Constraint::UnitInterval, "restitution");
  p.add("omega", 4.0, Constraint::Positive, "frequency");
  p.add("d", 0.0, Constraint::Any, "offset");
  p.add_optional("cs", Constraint::NonNegative, "contact damping");
  p.add_choice("model", {"hard", "soft"}, "hard", "impact model");
  return p;
}

// The message of the InputError thrown by f; fails the test when nothing is thrown.
template <class F>
std::string input_error_message(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no libcont::InputError thrown");
  return {};
}

}  // namespace

TEST_CASE("ParameterSet rejects unknown names and names them", "[parameters]") {
  ParameterSet p = example_set();
  CHECK_THAT(input_error_message([&] { p.set("foo", 1.0); }), Contains("'foo'"));
  CHECK_THAT(input_error_message([&] { p.set_from_text("foo", "1"); }), Contains("'foo'"));
  CHECK_THAT(input_error_message([&] { (void)p["foo"]; }), Contains("'foo'"));
  CHECK_FALSE(p.contains("foo"));
  CHECK(p.contains("omega"));
}

TEST_CASE("ParameterSet rejects non-numbers, NaN and infinities", "[parameters]") {
  ParameterSet p = example_set();
  for (const char* text : {"abc", "4x", "", " ", "nan", "NaN", "inf", "-inf", "1e999"}) {
    INFO("text '" << text << "'");
    CHECK_THAT(input_error_message([&] { p.set_from_text("omega", text); }), Contains("'omega'"));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THAT(input_error_message([&] { p.set("omega", nan); }), Contains("'omega'"));
  CHECK_THAT(input_error_message([&] { p.set("d", inf); }), Contains("'d'"));
  CHECK_THAT(input_error_message([&] { p.set("d", -inf); }), Contains("'d'"));
  // A rejected value leaves the previous one in place.
  CHECK(p["omega"] == 4.0);
  // Well-formed numbers are accepted, surrounding blanks ignored.
  p.set_from_text("omega", " 7.1 ");
  CHECK(p["omega"] == 7.1);
  p.set_from_text("d", "-2.5e-3");
  CHECK(p["d"] == -2.5e-3);
}

TEST_CASE("ParameterSet enforces positivity and the unit interval", "[parameters]") {
  ParameterSet p = example_set();
  CHECK_THAT(input_error_message([&] { p.set("m", 0.0); }), Contains("'m'"));
  CHECK_THAT(input_error_message([&] { p.set("m", -1.0); }), Contains("'m'"));
  CHECK_THAT(input_error_message([&] { p.set("k", 0.0); }), Contains("'k'"));
  CHECK_THAT(input_error_message([&] { p.set("c", -0.1); }), Contains("'c'"));
  CHECK_THAT(input_error_message([&] { p.set("r", 1.5); }), Contains("'r'"));
  CHECK_THAT(input_error_message([&] { p.set("r", -0.1); }), Contains("'r'"));
  CHECK_THAT(input_error_message([&] { p.set_from_text("r", "1.0000001"); }), Contains("'r'"));
  // The offending value as given, not rounded to six decimals.
  CHECK_THAT(input_error_message([&] { p.set_from_text("r", "1.0000001"); }),
             Contains("(got 1.0000001)"));
  CHECK_THAT(input_error_message([&] { p.set("c", -1e-9); }), Contains("(got -1e-09)"));
  CHECK(p["m"] == 1.0);
  CHECK(p["r"] == 1.0);
  // The ends of [0, 1] are valid restitution coefficients; c = 0 is valid damping.
  p.set("r", 0.0);
  CHECK(p["r"] == 0.0);
  p.set("r", 1.0);
  CHECK(p["r"] == 1.0);
  p.set("c", 0.0);
  CHECK(p["c"] == 0.0);
  // Constraint::Any takes any finite number, negative included.
  p.set("d", -1.0);
  CHECK(p["d"] == -1.0);
}

TEST_CASE("ParameterSet choices", "[parameters]") {
  ParameterSet p = example_set();
  CHECK(p.choice("model") == "hard");
  p.set_from_text("model", "soft");
  CHECK(p.choice("model") == "soft");
  CHECK_THAT(input_error_message([&] { p.set_from_text("model", "squishy"); }),
             Contains("'model'"));
  CHECK(p.choice("model") == "soft");
  // A choice is not a number and a number is not a choice.
  CHECK_THAT(input_error_message([&] { p.set("model", 1.0); }), Contains("'model'"));
  CHECK_THAT(input_error_message([&] { (void)p.choice("omega"); }), Contains("'omega'"));
  CHECK_THROWS_AS(p.add_choice("relation", {"exact", "approximate"}, "nosuch", "relation"),
                  InputError);
}

TEST_CASE("ParameterSet optional parameters", "[parameters]") {
  ParameterSet p = example_set();
  CHECK_FALSE(p.given("cs"));
  CHECK_THAT(input_error_message([&] { (void)p["cs"]; }), Contains("'cs'"));
  p.set("cs", 9.48);
  CHECK(p.given("cs"));
  CHECK(p["cs"] == 9.48);
  CHECK_THAT(input_error_message([&] { p.set("cs", -1.0); }), Contains("'cs'"));
  CHECK(p["cs"] == 9.48);
  p.unset("cs");
  CHECK_FALSE(p.given("cs"));
  // Only optional parameters can be unset.
  CHECK_THAT(input_error_message([&] { p.unset("m"); }), Contains("'m'"));
  CHECK(p.given("m"));
}

TEST_CASE("Systems validate parameters and derive the optional contact damping",
          "[parameters]") {
  using systems::MovingBaseOscillator;
  MovingBaseOscillator system;
  CHECK_THAT(input_error_message([&] { system.set_parameter_text("m", "0"); }),
             Contains("'m'"));
  CHECK_THAT(input_error_message([&] { system.set_parameter_text("r", "1.5"); }),
             Contains("'r'"));
  CHECK_THAT(input_error_message([&] { system.set_parameter_text("omega", "abc"); }),
             Contains("'omega'"));
  CHECK_THAT(input_error_message([&] { system.set_parameter_text("foo", "1"); }),
             Contains("'foo'"));
  CHECK(system.parameters()["m"] == 1.0);
  CHECK(system.parameters()["r"] == 1.0);

  // Soft model: c_s follows from r by the energy relation (doc/theory.md, 9) unless given.
  system.set_parameter_text("model", "soft");
  system.set_parameter_text("r", "0.8");
  CHECK_FALSE(system.parameters().given("cs"));
  const double derived = libcont::contact_damping_for_restitution(
      0.8, 200000.0, 1.0, libcont::EnergyRelation::Exact);
  CHECK(system.contact_damping() == Approx(derived).epsilon(1e-15));
  CHECK(derived > 0.0);
  system.set_parameter_text("relation", "approximate");
  CHECK(system.contact_damping() ==
        Approx(libcont::contact_damping_for_restitution(0.8, 200000.0, 1.0,
                                                        libcont::EnergyRelation::Approximate))
            .epsilon(1e-15));
  system.set_parameter_text("cs", "5");
  CHECK(system.contact_damping() == 5.0);

  // Hard model: no contact damping at all.
  auto drop = test_support::make_system<systems::DropTest>({{"model", "hard"}});
  CHECK(drop.contact_damping() == 0.0);
  auto soft_drop =
      test_support::make_system<systems::DropTest>({{"model", "soft"}, {"cs", "9.48"}});
  CHECK(soft_drop.contact_damping() == 9.48);
}

TEST_CASE("Parameters set together are checked on the final set, in any order; a refused "
          "change leaves the system as it was",
          "[parameters]") {
  // cantilever-2dof requires l2 < l (l = 1 by default).
  using Assignments = std::vector<libcont::HybridSystem::ParameterAssignment>;
  auto beam = systems::make_system("cantilever-2dof");
  CHECK_NOTHROW(beam->set_parameters(Assignments{{"l", "0.3", ""}, {"l2", "0.2", ""}}));
  CHECK(beam->parameters()["l"] == 0.3);
  CHECK(beam->parameters()["l2"] == 0.2);
  auto other = systems::make_system("cantilever-2dof");
  CHECK_NOTHROW(other->set_parameters(Assignments{{"l2", "0.2", ""}, {"l", "0.3", ""}}));
  CHECK(other->parameters()["l"] == 0.3);
  // A final set that breaks the rule is refused, and both keep their values.
  CHECK_THAT(input_error_message([&] {
               beam->set_parameters(Assignments{{"l", "0.4", ""}, {"l2", "0.5", ""}});
             }),
             Contains("l2"));
  CHECK(beam->parameters()["l"] == 0.3);
  CHECK(beam->parameters()["l2"] == 0.2);
  // A value bad on its own is named with its origin; nothing changes.
  CHECK_THAT(input_error_message([&] {
               beam->set_parameters(Assignments{{"l", "0.5", ""}, {"l2", "abc", "run.ini:3"}});
             }),
             Contains("run.ini:3: parameter 'l2'"));
  CHECK(beam->parameters()["l"] == 0.3);
  // One parameter the rules refuse keeps its old value too.
  CHECK_THROWS_AS(beam->set_parameter("l2", 0.6), InputError);
  CHECK(beam->parameters()["l2"] == 0.2);

  // A forcing frequency so small that the period overflows is refused, naming it.
  auto oscillator = systems::make_system("moving-base");
  CHECK_THAT(input_error_message([&] { oscillator->set_parameter_text("omega", "1e-308"); }),
             Contains("omega = 1e-308 gives the forcing period inf"));
  CHECK(std::isfinite(oscillator->forcing_period()));
}

TEST_CASE("A parameter that makes derived quantities bad is named, with where it was set",
          "[parameters]") {
  using Assignments = std::vector<libcont::HybridSystem::ParameterAssignment>;
  // A subnormal mass: M^-1 K overflows in the equations of motion, which the exact flow
  // would refuse later with nothing to name.
  auto two_body = systems::make_system("two-body");
  const double m1 = two_body->parameters()["m1"];
  CHECK_THAT(input_error_message([&] { two_body->set_parameter_text("m1", "1e-308"); }),
             Contains("m1 = 1e-308 makes the equations of motion of mode"));
  CHECK(two_body->parameters()["m1"] == m1);
  CHECK_THAT(input_error_message([&] {
               two_body->set_parameters(Assignments{{"m2", "4.9e-324", "run.ini:4"}});
             }),
             Contains("run.ini:4: m2 = 4.94065645841e-324 makes"));
  // A rule the contact law checks names the model's parameter, not "the first body".
  auto platform = systems::make_system("platform");
  CHECK_THAT(input_error_message([&] {
               platform->set_parameters(Assignments{{"m1", "3", ""}, {"mu2", "2", ""}});
             }),
             Contains("parameter 'mu2' (Poisson ratio of the second body) must lie in [0, 0.5)"));
  CHECK(platform->parameters()["m1"] != 3.0);
  // A rule that knows no name gets the values just set put before it.
  auto friction = systems::make_system("hertz-friction");
  CHECK_THAT(input_error_message([&] {
               friction->set_parameters(
                   Assignments{{"geometry", "spheres", ""}, {"E1", "4.9e-324", ""}});
             }),
             Contains("E1 = 4.94065645841e-324"));
}

TEST_CASE("The catalogue names an unknown system", "[parameters]") {
  CHECK_THAT(input_error_message([] { (void)systems::make_system("nosuch"); }),
             Contains("nosuch"));
  for (const auto& entry : systems::catalogue()) {
    auto system = systems::make_system(entry.name);
    REQUIRE(system);
    CHECK(system->name() == entry.name);
  }
}

TEST_CASE("Units: declared per parameter, the rest at once; choices have none", "[parameters]") {
  ParameterSet p = example_set();
  p.set_units({{"m", "kg"}, {"k", "N/m"}});
  CHECK(p.all()[0].unit == "kg");
  CHECK(p.all()[1].unit == "N/m");
  CHECK(p.all()[2].unit.empty());  // not declared: no unit
  p.set_remaining_units("1");
  CHECK(p.all()[0].unit == "kg");  // kept
  CHECK(p.all()[2].unit == "1");
  for (const auto& parameter : p.all())
    CHECK(parameter.unit.empty() == !parameter.choices.empty());
  CHECK_THAT(input_error_message([&] { p.set_units({{"nosuch", "m"}}); }), Contains("nosuch"));
}

TEST_CASE("Every catalogue model declares the units of its time, states and parameters",
          "[parameters]") {
  CHECK(libcont::unit_quotient("m", "s") == "m/s");
  CHECK(libcont::unit_quotient("1", "s") == "1/s");
  CHECK(libcont::unit_quotient("1", "1") == "1");
  CHECK(libcont::unit_quotient("m", "").empty());
  for (const auto& entry : systems::catalogue()) {
    INFO(entry.name);
    auto system = systems::make_system(entry.name);
    CHECK(!system->time_unit().empty());
    const auto units = system->state_units();
    REQUIRE(units.size() == system->state_names().size());
    for (const auto& unit : units) CHECK(!unit.empty());
    for (const auto& parameter : system->parameters().all())
      if (parameter.choices.empty()) CHECK(!parameter.unit.empty());
  }
  // The moving base is nondimensional; the two-body system is in SI units, its velocities
  // in m/s.
  auto base = systems::make_system("moving-base");
  CHECK(base->time_unit() == "1");
  CHECK(base->state_units() == std::vector<std::string>{"1", "1"});
  auto two_body = systems::make_system("two-body");
  CHECK(two_body->time_unit() == "s");
  CHECK(two_body->state_units() == std::vector<std::string>{"m", "m", "m/s", "m/s"});
  CHECK(two_body->parameters().all()[0].unit == "kg");
}

TEST_CASE("ParameterSet aliases: an old name reaches the parameter, messages use its own",
          "[parameters]") {
  ParameterSet p;
  p.add("omega", 4.0, Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");
  CHECK(p.contains("eta"));
  CHECK(p.is_alias("eta"));
  CHECK_FALSE(p.is_alias("omega"));
  CHECK(p.canonical("eta") == "omega");
  CHECK(p.canonical("m") == "m");
  CHECK(p.aliases_of("omega") == std::vector<std::string>{"eta"});
  p.set_from_text("eta", "5.5");
  CHECK(p["omega"] == 5.5);
  CHECK(p["eta"] == 5.5);
  CHECK(p.all().size() == 1);  // no parameter of its own
  CHECK_THROWS_WITH(p.set("eta", -1.0), Contains("'omega'") && Contains("positive"));
  CHECK(p["omega"] == 5.5);
  CHECK_THROWS_AS(p.add_alias("omega", "omega"), std::logic_error);
  CHECK_THROWS_AS(p.add_alias("zeta", "nosuch"), InputError);
}

TEST_CASE("every forced system of the catalogue calls its forcing frequency omega",
          "[parameters]") {
  for (const auto& entry : systems::catalogue()) {
    auto system = systems::make_system(entry.name);
    if (system->forcing_period() == 0.0 || !system->parameters().contains("omega")) continue;
    INFO(entry.name);
    CHECK(system->parameters().is_alias("eta"));
    system->set_parameter("eta", 2.5);
    CHECK(system->parameters()["omega"] == 2.5);
  }
  for (const char* name : {"moving-base", "cantilever-2dof", "duffing", "two-body", "platform",
                           "chain"}) {
    INFO(name);
    CHECK(systems::make_system(name)->parameters().canonical("eta") == "omega");
  }
}

TEST_CASE("Every change of a parameter set takes a new revision; a copy carries it",
          "[parameters]") {
  ParameterSet set;
  set.add("k", 1.0, Constraint::Positive, "stiffness");
  set.add_optional("c", Constraint::NonNegative, "damping");
  set.add_choice("law", {"hard", "soft"}, "hard", "contact law");
  std::vector<std::uint64_t> seen{set.revision()};
  const auto changed = [&] {
    const bool is_new = std::find(seen.begin(), seen.end(), set.revision()) == seen.end();
    seen.push_back(set.revision());
    return is_new;
  };
  const ParameterSet::Saved saved = set.save("k");
  set.set("k", 2.0);
  CHECK(changed());
  set.set_from_text("k", "3");
  CHECK(changed());
  set.set_from_text("law", "soft");
  CHECK(changed());
  set.set("c", 0.5);
  CHECK(changed());
  set.unset("c");
  CHECK(changed());
  set.restore(saved);
  CHECK(changed());
  set.add("m", 1.0, Constraint::Positive, "mass");
  CHECK(changed());
  ParameterSet copy = set;
  CHECK(copy.revision() == set.revision());
  copy.set("m", 2.0);
  CHECK(copy.revision() != set.revision());
  CHECK(std::find(seen.begin(), seen.end(), copy.revision()) == seen.end());
  set.mark_changed();
  CHECK(changed());
}

TEST_CASE("A model's revision changes with every route that changes it, and only then",
          "[parameters]") {
  systems::MovingBaseOscillator model;
  std::uint64_t last = model.revision();
  const auto changed = [&] {
    const bool is_new = model.revision() != last;
    last = model.revision();
    return is_new;
  };
  model.set_parameter("omega", model.parameters()["omega"]);  // the value it has
  CHECK_FALSE(changed());
  model.set_parameter("omega", 3.0);
  CHECK(changed());
  model.set_parameter_text("r", "0.5");
  CHECK(changed());
  model.set_parameters({{"a", "0.003", ""}, {"model", "soft", ""}});
  CHECK(changed());
  CHECK_THROWS_AS(model.set_parameter("m", 1e-320), InputError);  // refused, put back
  CHECK(changed());
  systems::MovingBaseOscillator other;
  model = other;
  CHECK(model.revision() == other.revision());
  CHECK(changed());
}
