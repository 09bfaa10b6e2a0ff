#pragma once
// A ball bouncing on a table shaken at a sin(omega t): x'' = -g in flight, v_r+ = -r v_r-.
#include <libcont/impacting_structure.hpp>

class BouncingBall : public libcont::ImpactingStructure {
 public:
  BouncingBall() {
    parameters_.add("g", 9.81, libcont::Constraint::Positive, "gravitational acceleration");
    parameters_.add("r", 0.8, libcont::Constraint::UnitInterval, "restitution coefficient");
    parameters_.add("a", 0.02, libcont::Constraint::Any, "table amplitude");
    parameters_.add("omega", 20.0, libcont::Constraint::Positive, "table circular frequency");
    configure();
  }
  std::string name() const override { return "bouncing-ball"; }
  void configure() override {
    auto ball = libcont::LinearStructure::single(1.0);
    ball.constant_force = libcont::Vector::Constant(1, -parameters_["g"]);
    ball.frequency = parameters_["omega"];
    libcont::UnilateralContact table;
    table.normal = libcont::Vector::Ones(1);
    table.surface.sine = parameters_["a"];
    table.law = libcont::NewtonRestitution(parameters_["r"]);
    declare(ball, {table});
  }
  libcont::Vector default_initial_state() const override {  // thrown down onto the table
    return (libcont::Vector(2) << 0.09, -1.0).finished();    // (dropped, it ends riding it)
  }
};
