#include "systems/rheological.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::RheologicalLaw;

namespace systems {

RheologicalDamperDrop::RheologicalDamperDrop() {
  auto& p = parameters_;
  p.add("g", 9.81, Constraint::Positive, "gravitational acceleration (x points down)");
  p.add("m", 100.0, Constraint::Positive, "falling mass");
  p.add("k1", 3924.0, Constraint::Positive, "spring between the bumper top and the node z");
  p.add("k2", 1962.0, Constraint::Positive,
        "spring at the node (viscoelastic, elastoplastic; unused by viscoplastic)");
  p.add("c", 251.0, Constraint::Positive,
        "dashpot at the node (viscoelastic, viscoplastic; unused by elastoplastic)");
  p.add("T0", 2000.0, Constraint::Positive,
        "slider limit force (viscoplastic, elastoplastic; unused by viscoelastic)");
  p.add_choice("model", {"viscoelastic", "viscoplastic", "elastoplastic"}, "viscoelastic",
               "damper law: k1 + (k2 | c), k1 + (c | T0), k1 + (k2 | T0)");
  p.add("x0", -3.0, Constraint::Any, "initial position of the mass (default initial state)");
  p.add("v0", 5.0, Constraint::Any, "initial velocity, downward (default initial state)");
  p.add("z0", 0.0, Constraint::Any, "initial internal coordinate (default initial state)");
  set_units("m", "s");
  p.set_units({{"g", "m/s^2"}, {"m", "kg"}, {"k1", "N/m"}, {"k2", "N/m"}, {"c", "N s/m"},
               {"T0", "N"}, {"x0", "m"}, {"v0", "m/s"}, {"z0", "m"}});
  configure();
}

void RheologicalDamperDrop::configure() {
  const auto& p = parameters_;
  const std::string& model = p.choice("model");
  const RheologicalLaw law = model == "viscoelastic"   ? RheologicalLaw::Viscoelastic
                             : model == "viscoplastic" ? RheologicalLaw::ElasticViscoplastic
                                                       : RheologicalLaw::Elastoplastic;
  damper_ = std::make_shared<const libcont::RheologicalDamper>(
      law, libcont::RheologicalParameters{p["k1"], p["k2"], p["c"], p["T0"]});
  auto structure = libcont::LinearStructure::single(p["m"]);
  structure.constant_force = libcont::Vector::Constant(1, p["m"] * p["g"]);
  // The gap -x: the penetration into the bumper's unloaded surface is x.
  libcont::UnilateralContact bumper;
  bumper.name = "bumper";
  bumper.normal = libcont::Vector::Constant(1, -1.0);
  bumper.law = std::shared_ptr<const libcont::RegimeContactLaw>(damper_);
  declare(structure, {bumper});
  initial_ = libcont::Vector(3);
  initial_ << p["x0"], p["v0"], p["z0"];
}

libcont::Vector RheologicalDamperDrop::default_initial_state() const { return initial_; }

double RheologicalDamperDrop::reaction(int mode, ConstVectorRef x) const {
  return damper().reaction(regime(mode))(x[0], x[1], x[2]);
}

double RheologicalDamperDrop::bumper_position(int mode, ConstVectorRef x) const {
  return damper().bumper_position(regime(mode), x[0], x[2]);
}

void RheologicalDamperDrop::outputs(int mode, double, ConstVectorRef x,
                                    libcont::VectorRef values) const {
  values[0] = bumper_position(mode, x);
  values[1] = reaction(mode, x);
}

std::vector<libcont::CharacteristicCurve> RheologicalDamperDrop::characteristic_curves() const {
  return {{"hysteresis_R_y", "y", "R"}, {"hysteresis_R_z", "z", "R"}};
}

}  // namespace systems
