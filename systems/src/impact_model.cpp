#include "systems/impact_model.hpp"

namespace systems {

void add_impact_model_parameters(libcont::ParameterSet& p, double restitution,
                                 double contact_stiffness, const std::string& resting) {
  using libcont::Constraint;
  p.add("r", restitution, Constraint::UnitInterval, "restitution coefficient");
  p.add("ks", contact_stiffness, Constraint::Positive, "contact stiffness (soft model)");
  p.add_optional("cs", Constraint::NonNegative,
                 "contact damping (soft model); derived from r by 'relation' unless given");
  p.add_choice("model", {"hard", "soft"}, "hard", "impact model");
  p.add_choice("relation", {"exact", "approximate"}, "exact",
               "energy relation giving cs from r");
  p.add("stick_velocity", 1e-9, Constraint::NonNegative,
        "rebound speed below which a chattering body " + resting);
}

ImpactModel configure_impact_model(const libcont::ParameterSet& p, double mass) {
  ImpactModel model;
  model.hard = p.choice("model") == "hard";
  model.law = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
  model.relation = p.choice("relation") == "exact" ? libcont::EnergyRelation::Exact
                                                   : libcont::EnergyRelation::Approximate;
  model.contact.stiffness = p["ks"];
  model.contact.damping = p.given("cs") ? p["cs"]
                          : model.hard  ? 0.0
                                        : libcont::contact_damping_for_restitution(
                                              p["r"], model.contact.stiffness, mass,
                                              model.relation);
  return model;
}

libcont::UnilateralContact impact_contact(const ImpactModel& model, const std::string& name,
                                          const libcont::Vector& normal,
                                          const libcont::SurfaceMotion& surface) {
  libcont::UnilateralContact contact;
  contact.name = name;
  contact.normal = normal;
  contact.surface = surface;
  if (model.hard)
    contact.law = model.law;
  else
    contact.law = model.contact;
  return contact;
}

}  // namespace systems
