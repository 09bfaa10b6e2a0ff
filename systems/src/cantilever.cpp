#include "systems/cantilever.hpp"

#include <cmath>
#include <limits>

#include "libcont/input_error.hpp"
#include "systems/impact_model.hpp"

namespace systems {

namespace {

struct ParameterSetValues {
  double m1, m2, l2;
};
// The source's two parameter sets (doc/models/cantilever.md).
constexpr ParameterSetValues parameter_sets[] = {{0.92, 0.08, 0.34}, {0.28, 0.72, 0.31}};

// Stiffness matrix of a light cantilever (flexural rigidity EI, length l) at its free end
// and at l2 from the clamp: the inverse of the flexibility matrix of the two points.
libcont::Matrix beam_stiffness(double ei, double l, double l2) {
  const double w = 4.0 * l * l * l * l2 * l2 * l2 - std::pow(l2, 4) * std::pow(3.0 * l - l2, 2);
  const double coupling = -6.0 * ei * l2 * l2 * (3.0 * l - l2);
  libcont::Matrix k(2, 2);
  k << 12.0 * ei * l2 * l2 * l2, coupling, coupling, 12.0 * ei * l * l * l;
  return k / w;
}

}  // namespace

CantileverBeam::CantileverBeam() {
  auto& p = parameters_;
  p.add_choice("set", {"1", "2"}, "1",
               "the source's parameter set: 2DOF-1 (m1 = 0.92, m2 = 0.08, l2 = 0.34) or "
               "2DOF-2 (m1 = 0.28, m2 = 0.72, l2 = 0.31)");
  p.add_optional("m1", libcont::Constraint::Positive, "end mass (hits the base); from 'set' unless given");
  p.add_optional("m2", libcont::Constraint::Positive, "inner mass; from 'set' unless given");
  p.add_optional("l2", libcont::Constraint::Positive,
                 "distance of m2 from the clamp, 0 < l2 < l; from 'set' unless given");
  p.add("E", 0.3333, libcont::Constraint::Positive, "Young's modulus of the beam");
  p.add("I", 1.0, libcont::Constraint::Positive, "second moment of area of the beam");
  p.add("l", 1.0, libcont::Constraint::Positive, "beam length");
  p.add("nu", 0.23, libcont::Constraint::NonNegative, "mass-proportional damping: C = nu M");
  p.add("omega", 1.0, libcont::Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  p.add_required("e", libcont::Constraint::Any,
                 "forcing amplitude: force e omega^2 sin(omega t) on m1; the source does not give it");
  p.add("d", 0.0, libcont::Constraint::Any, "distance of the base below the equilibrium of m1");
  add_impact_model_parameters(p, 1.0, 200000.0, "is held on the base (the end mass m1)");
  // A nondimensional model: time, coordinates and every parameter without units.
  set_units("1", "1");
  p.set_remaining_units("1");
  configure();
}

void CantileverBeam::configure() {
  const auto& p = parameters_;
  const ParameterSetValues& set = parameter_sets[p.choice("set") == "1" ? 0 : 1];
  const double m1 = p.given("m1") ? p["m1"] : set.m1;
  const double m2 = p.given("m2") ? p["m2"] : set.m2;
  const double l2 = p.given("l2") ? p["l2"] : set.l2;
  if (!(l2 < p["l"]))
    throw libcont::InputError("parameter 'l2' must be shorter than the beam length l (got l2 = " +
                              std::to_string(l2) + ", l = " + std::to_string(p["l"]) + ")");
  libcont::LinearStructure structure;
  structure.coordinates = {"x1", "x2"};
  structure.velocities = {"v1", "v2"};
  structure.mass = Eigen::Vector2d(m1, m2).asDiagonal();
  structure.stiffness = beam_stiffness(p["E"] * p["I"], p["l"], l2);
  structure.damping = p["nu"] * structure.mass;
  structure.frequency = p["omega"];
  // Until e is set the model is listed but cannot run (Flow checks required parameters);
  // the NaN it leaves in the forcing is never integrated.
  const double e = p.given("e") ? p["e"] : std::numeric_limits<double>::quiet_NaN();
  structure.sine_force = Eigen::Vector2d(e * p["omega"] * p["omega"], 0.0);
  // The base d below m1: gap (1, 0) . x - (-d); c_s derived for the end mass.
  declare(structure, {impact_contact(configure_impact_model(p, m1), "base",
                                     Eigen::Vector2d(1.0, 0.0), {-p["d"], 0.0, 0.0})});
}

double CantileverBeam::force(double t) const {
  return structure().sine_force[0] * std::sin(structure().frequency * t);
}

}  // namespace systems
