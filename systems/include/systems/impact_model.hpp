#pragma once
// The hard-or-soft impact of a body on a base, as moving-base, drop, cantilever-2dof offer it:
// model = hard (Newton restitution r, sticking after chattering) or soft (Kelvin-Voigt
// contact k_s, c_s), with c_s derived from r and the impacting mass by the chosen energy
// relation (doc/theory.md, 9) unless given. One set of parameters and one derivation for every
// such model, so that they read and report alike.
#include <string>

#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"
#include "libcont/parameters.hpp"
#include "libcont/unilateral_contact.hpp"

namespace systems {

struct ImpactModel {
  bool hard = true;
  libcont::NewtonRestitution law{1.0};
  libcont::KelvinVoigtContact contact;  // damping 0 for the hard model unless cs is given
  libcont::EnergyRelation relation = libcont::EnergyRelation::Exact;
};

// Adds r, ks, cs, model, relation and stick_velocity (in this order) with the model's
// defaults; `resting` says what sticking means for it ("sticks to the base").
void add_impact_model_parameters(libcont::ParameterSet& parameters, double restitution,
                                 double contact_stiffness, const std::string& resting);

// Reads them back; `mass` is the impacting mass that c_s is derived for.
ImpactModel configure_impact_model(const libcont::ParameterSet& parameters, double mass);

// The unilateral contact of such a model: gap normal . q - surface(t), with the Newton law
// (hard) or the Kelvin-Voigt contact (soft).
libcont::UnilateralContact impact_contact(const ImpactModel& model, const std::string& name,
                                          const libcont::Vector& normal,
                                          const libcont::SurfaceMotion& surface);

}  // namespace systems
