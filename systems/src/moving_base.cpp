#include "systems/moving_base.hpp"

#include "systems/impact_model.hpp"

using libcont::Constraint;

namespace systems {

MovingBaseOscillator::MovingBaseOscillator() {
  auto& p = parameters_;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("k", 1.0, Constraint::Positive, "spring stiffness");
  p.add("c", 0.23, Constraint::NonNegative, "viscous damping (0.23: log decrement ln 2)");
  p.add("a", 0.0025, Constraint::Any, "base amplitude");
  p.add("d", 0.0, Constraint::Any, "base offset: the base is at a sin(omega t) + d, so the gap at rest is -d");
  p.add("omega", 4.0, Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  add_impact_model_parameters(p, 1.0, 200000.0, "sticks to the base");
  // A nondimensional model: time, coordinates and every parameter without units.
  set_units("1", "1");
  p.set_remaining_units("1");
  configure();
}

void MovingBaseOscillator::configure() {
  const auto& p = parameters_;
  auto structure = libcont::LinearStructure::single(p["m"], p["k"], p["c"]);
  structure.sine_force = libcont::Vector::Constant(1, p["k"] * p["a"]);
  structure.frequency = p["omega"];
  const ImpactModel impact = configure_impact_model(p, p["m"]);
  relation_ = impact.relation;
  declare(structure, {impact_contact(impact, "base", libcont::Vector::Ones(1),
                                     {p["d"], p["a"], 0.0})});
}

double MovingBaseOscillator::base_position(double t) const {
  return contacts().front().surface.position(structure().frequency, t);
}

double MovingBaseOscillator::base_velocity(double t) const {
  return contacts().front().surface.velocity(structure().frequency, t);
}

double MovingBaseOscillator::base_acceleration(double t) const {
  return contacts().front().surface.acceleration(structure().frequency, t);
}

double MovingBaseOscillator::holding_force(double t) const {
  const libcont::Vector on_base = (libcont::Vector(2) << base_position(t), base_velocity(t)).finished();
  return ImpactingStructure::holding_force(hard() ? Attached : Free, 0, t, on_base);
}

}  // namespace systems
