#include "systems/drop.hpp"

#include "systems/impact_model.hpp"

using libcont::Constraint;

namespace systems {

DropTest::DropTest() {
  auto& p = parameters_;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("g", 9.81, Constraint::Positive, "gravitational acceleration");
  p.add("H0", 1.0, Constraint::NonNegative, "initial drop height (default initial state)");
  add_impact_model_parameters(p, 0.9, 20000.0, "comes to rest on the base");
  set_units("m", "s");
  p.set_units({{"m", "kg"}, {"g", "m/s^2"}, {"H0", "m"}, {"r", "1"}, {"ks", "N/m"}, {"cs", "N s/m"}, {"stick_velocity", "m/s"}});
  configure();
}

void DropTest::configure() {
  const auto& p = parameters_;
  auto structure = libcont::LinearStructure::single(p["m"]);
  structure.constant_force = libcont::Vector::Constant(1, -p["m"] * p["g"]);
  auto contact = impact_contact(configure_impact_model(p, p["m"]), "base",
                                libcont::Vector::Ones(1), {});
  contact.open_name = "flight";
  if (contact.hard()) contact.closed_name = "rest";
  declare(structure, {contact});
}

libcont::Vector DropTest::default_initial_state() const {
  return (libcont::Vector(2) << parameters_["H0"], 0.0).finished();
}

}  // namespace systems
