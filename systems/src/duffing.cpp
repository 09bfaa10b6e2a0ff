#include "systems/duffing.hpp"

using libcont::Constraint;

namespace systems {

DuffingOscillator::DuffingOscillator() {
  auto& p = parameters_;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("k", 1.0, Constraint::Positive, "linear spring stiffness");
  p.add("c", 0.05, Constraint::NonNegative,
        "viscous damping (damping ratio c / (2 sqrt(k m)), 0.025 at the defaults)");
  p.add("k3", 1.0, Constraint::Any,
        "cubic spring stiffness (> 0 hardening, < 0 softening: escape beyond sqrt(-k/k3))");
  p.add("a", 0.1, Constraint::Any, "force amplitude");
  p.add("omega", 1.2, Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  // A nondimensional model: time, coordinates and every parameter without units.
  set_units("1", "1");
  p.set_remaining_units("1");
  configure();
}

void DuffingOscillator::configure() {
  const auto& p = parameters_;
  auto structure = libcont::LinearStructure::single(p["m"], p["k"], p["c"]);
  structure.cosine_force = libcont::Vector::Constant(1, p["a"]);
  structure.frequency = p["omega"];
  cubic_ = p["k3"];
  // With k3 = 0 the mode is affine (the exact flow); a enters the cosine force alone.
  declare(structure, {},
          {libcont::ForcingParameter{"a", libcont::ForcingDerivative{{}, libcont::Vector::Ones(1), {}}}});
}

void DuffingOscillator::additional_force(double, libcont::ConstVectorRef q, libcont::ConstVectorRef,
                                         libcont::VectorRef force) const {
  force[0] = -cubic_ * q[0] * q[0] * q[0];
}

void DuffingOscillator::additional_force_jacobian(double, libcont::ConstVectorRef q,
                                                  libcont::ConstVectorRef, libcont::MatrixRef d_dq,
                                                  libcont::MatrixRef d_dv) const {
  d_dq(0, 0) = -3.0 * cubic_ * q[0] * q[0];
  d_dv(0, 0) = 0.0;
}

}  // namespace systems
