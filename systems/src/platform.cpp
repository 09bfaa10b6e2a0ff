#include "systems/platform.hpp"

#include <cmath>

namespace systems {

VibroImpactPlatform::VibroImpactPlatform() {
  auto& p = parameters_;
  p.add("m1", 7400.0, libcont::Constraint::Positive, "table mass (kg)");
  p.add("m2", 15000.0, libcont::Constraint::Positive, "mould with concrete (kg)");
  p.add("k1", 1.278e6, libcont::Constraint::Positive, "vibro-isolation spring stiffness (N/m)");
  p.add("k0", 3e8, libcont::Constraint::Positive,
        "rubber block stiffness (N/m): the linear contact, and w2 = sqrt(k0/m2) of the dampers");
  p.add("h", 0.0275, libcont::Constraint::Positive, "rubber block thickness (m)");
  p.add("xi0", 0.02, libcont::Constraint::NonNegative, "damping ratio of the block, only in contact");
  p.add("xi1", 0.02, libcont::Constraint::NonNegative, "damping ratio of the table's spring");
  p.add("xi2", 0.03, libcont::Constraint::NonNegative, "damping ratio of the concrete mix (the mould)");
  p.add("F0", 2.44e5, libcont::Constraint::Any, "force amplitude on the table (N)");
  p.add("omega", 157.0, libcont::Constraint::Positive, "forcing circular frequency (rad/s)");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  p.add("g", 9.81, libcont::Constraint::NonNegative, "gravitational acceleration");
  p.add_choice("contact", {"linear", "hertz", "newton"}, "linear",
               "block contact: k0 z, Hertz K z^1.5 (both with damper c0), or rigid with restitution r");
  p.add("r", 0.5, libcont::Constraint::UnitInterval, "restitution coefficient (newton)");
  p.add("E1", 3e8, libcont::Constraint::Positive, "Young's modulus of the rubber (Pa; hertz)");
  p.add("mu1", 0.4, libcont::Constraint::NonNegative, "Poisson ratio of the rubber (hertz)");
  p.add("E2", 2e12, libcont::Constraint::Positive, "Young's modulus of the mould (Pa; hertz)");
  p.add("mu2", 0.3, libcont::Constraint::NonNegative, "Poisson ratio of the mould (hertz)");
  p.add("R", 5.0, libcont::Constraint::Positive, "radius of curvature: A = B = 1/(2R) (m; hertz)");
  p.add("q", 0.318, libcont::Constraint::Positive, "Hertz coefficient q(A/B)");
  p.add_optional("K", libcont::Constraint::Positive,
                 "Hertz stiffness (N/m^1.5); derived from E1, mu1, E2, mu2, R, q unless given");
  p.add("stick_velocity", 1e-9, libcont::Constraint::NonNegative,
        "relative rebound speed below which the mould comes to rest on the block (newton)");
  set_units("m", "s");
  p.set_units({{"m1", "kg"}, {"m2", "kg"}, {"k1", "N/m"}, {"k0", "N/m"}, {"h", "m"},
               {"xi0", "1"}, {"xi1", "1"}, {"xi2", "1"}, {"F0", "N"}, {"omega", "rad/s"},
               {"g", "m/s^2"}, {"r", "1"}, {"E1", "Pa"}, {"mu1", "1"}, {"E2", "Pa"},
               {"mu2", "1"}, {"R", "m"}, {"q", "1"}, {"K", "N/m^1.5"}, {"stick_velocity", "m/s"}});
  configure();
}

void VibroImpactPlatform::configure() {
  const auto& p = parameters_;
  const double m1 = p["m1"], m2 = p["m2"], k1 = p["k1"], k0 = p["k0"], weight = m2 * p["g"];
  const double w1 = std::sqrt(k1 / m1), w2 = std::sqrt(k0 / m2);
  const double c0 = 2.0 * p["xi0"] * m2 * w2;
  libcont::LinearStructure s;
  s.coordinates = {"y1", "y2"};
  s.velocities = {"v1", "v2"};
  s.mass = Eigen::Vector2d(m1, m2).asDiagonal();
  s.stiffness = Eigen::Vector2d(k1, 0.0).asDiagonal();
  s.damping = Eigen::Vector2d(2.0 * p["xi1"] * m1 * w1, 2.0 * p["xi2"] * m2 * w2).asDiagonal();
  // The spring's preload (m1 + m2) g less the table's weight, and the mould's weight.
  s.constant_force = Eigen::Vector2d(weight, -weight);
  s.cosine_force = Eigen::Vector2d(p["F0"], 0.0);
  s.frequency = p["omega"];
  const double curvature = 0.5 / p["R"];
  hertz_stiffness_ = p.given("K") ? p["K"]
                                  : libcont::hertz_stiffness({p["E1"], p["mu1"], "E1", "mu1"},
                                                             {p["E2"], p["mu2"], "E2", "mu2"}, curvature,
                                                             curvature, p["q"]);
  libcont::UnilateralContact block;  // gap y2 - y1 - h = -z
  block.name = "block";
  block.normal = Eigen::Vector2d(-1.0, 1.0);
  block.surface.offset = p["h"];
  const std::string& contact = p.choice("contact");
  if (contact == "newton") {
    block.law = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
  } else {
    // The soft block closes the gap fast against the structure: the stiff solver.
    block.integration = libcont::ContactIntegration::StiffSolver;
    if (contact == "hertz")
      block.law = libcont::HertzContact{hertz_stiffness_, 1.5, c0};
    else
      block.law = libcont::KelvinVoigtContact{k0, c0};
  }
  declare(s, {block});
}

double VibroImpactPlatform::static_compression() const {
  const double weight = -structure().constant_force[1];
  const auto& law = contacts().front().law;
  if (const auto* kv = std::get_if<libcont::KelvinVoigtContact>(&law)) return weight / kv->stiffness;
  if (const auto* h = std::get_if<libcont::HertzContact>(&law))
    return std::pow(weight / h->stiffness, 1.0 / h->exponent);
  return 0.0;  // the rigid block
}

libcont::Vector VibroImpactPlatform::default_initial_state() const {
  const double h = contacts().front().surface.offset;
  return (libcont::Vector(4) << 0.0, h - static_compression(), 0.0, 0.0).finished();
}

double VibroImpactPlatform::kinetic_energy(double /*t*/, libcont::ConstVectorRef x) const {
  return 0.5 * structure().mass(1, 1) * x[3] * x[3];
}

}  // namespace systems
