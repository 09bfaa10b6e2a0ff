#pragma once
// A forced pendulum hitting a wall: theta'' + c theta' + w0^2 sin(theta) = A cos(omega t)
// while theta < theta_w, theta'+ = -r theta'- at the wall.
#include <cmath>
#include <libcont/impacting_structure.hpp>
class ImpactPendulum : public libcont::ImpactingStructure {
 public:
  ImpactPendulum() {
    parameters_.add("c", 0.1, libcont::Constraint::NonNegative, "damping");
    parameters_.add("w0", 1.0, libcont::Constraint::Positive, "small-swing frequency sqrt(g/l)");
    parameters_.add("A", 0.5, libcont::Constraint::Any, "forcing amplitude");
    parameters_.add("omega", 1.2, libcont::Constraint::Positive, "forcing frequency");
    parameters_.add("wall", 0.3, libcont::Constraint::Any, "wall angle theta_w");
    parameters_.add("r", 0.7, libcont::Constraint::UnitInterval, "restitution coefficient");
    configure();
  }
  std::string name() const override { return "impact-pendulum"; }
  void configure() override {
    auto pendulum = libcont::LinearStructure::single(1.0, 0.0, parameters_["c"]);
    pendulum.cosine_force = libcont::Vector::Constant(1, parameters_["A"]);
    pendulum.frequency = parameters_["omega"];
    const libcont::Vector normal = -libcont::Vector::Ones(1);  // gap theta_w - theta
    declare(pendulum, {{"wall", normal, {-parameters_["wall"]}, libcont::NewtonRestitution(parameters_["r"])}});
  }
  bool has_additional_force() const override { return true; }
  void additional_force(double, libcont::ConstVectorRef q, libcont::ConstVectorRef,
                        libcont::VectorRef f) const override {
    f[0] = -parameters_["w0"] * parameters_["w0"] * std::sin(q[0]);
  }
};
