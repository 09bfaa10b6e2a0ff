#pragma once
// A unilateral contact of a mechanical structure (impacting_structure.hpp), declared rather
// than coded: a gap affine in the coordinates q minus a prescribed surface motion,
//   g(t, q) = w . q - s(t),   s(t) = offset + sine sin(w_f t) + cosine cos(w_f t),
// (w_f the structure's forcing frequency: a moving base, a shaken table), open while g > 0,
// and a contact law chosen from the library:
//   - NewtonRestitution: a hard impact, relative normal velocity w . v - s' reversed and
//     scaled by -r through an impulse along M^-1 w; a chattering sequence ends in
//     sticking (the contact then holds with the force that keeps g = 0) until that force
//     would turn tensile;
//   - KelvinVoigtContact: while g < 0 the force k_s delta + c_s delta' along w
//     (delta = -g), its damping derived from r by the hard/soft energy relations
//     (kelvin_voigt_contact.hpp) where a model wants it;
//   - HertzContact: K delta^alpha (+ its damping c delta') along w;
//   - a law with regimes and internal state (regime_contact_law.hpp), shared: Hertz with
//     positional friction (HertzFrictionContact: loading and unloading stiffness), the
//     rheological dampers (RheologicalDamper: free, stuck, slipping, with the damper's
//     internal node as a state coordinate).
// From this declaration the structure generates events, resets, their Jacobians, affine
// event data, the relative velocity, contact measures and the energy account.
#include <cmath>
#include <memory>
#include <string>
#include <variant>

#include "libcont/harmonic_phase.hpp"
#include "libcont/hertz_contact.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/newton_restitution.hpp"
#include "libcont/regime_contact_law.hpp"
#include "libcont/types.hpp"

namespace libcont {

// Position of a contact surface along the contact normal, harmonic at the structure's
// forcing frequency w_f (or fixed: sine = cosine = 0).
struct SurfaceMotion {
  double offset = 0.0;
  double sine = 0.0;
  double cosine = 0.0;

  // Inline: evaluated at every right-hand side of a contact mode. The phase is the
  // forcing's own (harmonic_phase.hpp), to the bit: where the surface's motion and the
  // forced field must cancel (a body held on the base, whose saltation matrix is zero),
  // they do exactly.
  double position(double w, double t) const {
    if (!moves()) return offset;
    const detail::HarmonicPhase p = detail::harmonic_phase(w, t);
    return offset + sine * p.sine + cosine * p.cosine;
  }
  double velocity(double w, double t) const {
    if (!moves()) return 0.0;
    const detail::HarmonicPhase p = detail::harmonic_phase(w, t);
    return w * (sine * p.cosine - cosine * p.sine);
  }
  double acceleration(double w, double t) const {
    if (!moves()) return 0.0;
    const detail::HarmonicPhase p = detail::harmonic_phase(w, t);
    return -w * w * (sine * p.sine + cosine * p.cosine);
  }

  bool moves() const { return sine != 0.0 || cosine != 0.0; }
};

using ContactLaw = std::variant<KelvinVoigtContact, HertzContact, NewtonRestitution,
                                std::shared_ptr<const RegimeContactLaw>>;

// How the flow integrates the structure while a soft contact is closed (flow.hpp picks the
// integrator from it): Automatic: a Kelvin-Voigt contact much faster than the structure
// goes to the stiff (BDF) solver, a Hertz contact, entered every period and smooth only to
// low order, to the explicit Runge-Kutta pair.
enum class ContactIntegration { Automatic, StiffSolver, ExplicitPair, Nonstiff };

struct UnilateralContact {
  std::string name = "contact";
  Vector normal;          // w: the gap's coefficients of the coordinates q
  SurfaceMotion surface;  // s(t)
  ContactLaw law;
  // Names of the modes for reports: closed ("stick" for a hard contact, "contact" for a
  // soft one when empty) and, for a structure with this one contact, open ("free").
  std::string closed_name;
  std::string open_name;
  ContactIntegration integration = ContactIntegration::Automatic;

  bool hard() const { return std::holds_alternative<NewtonRestitution>(law); }
  // The law with regimes, or null for the open/closed laws.
  const RegimeContactLaw* regimes() const {
    const auto* p = std::get_if<std::shared_ptr<const RegimeContactLaw>>(&law);
    return p ? p->get() : nullptr;
  }
  // The soft law's viscous coefficient c_s (0 for a hard contact).
  double damping() const;
  // Force along w (> 0 pushes the surfaces apart) of a closed soft contact at penetration
  // delta = -g and its rate; 0 for a hard contact (and for a law with regimes, whose force
  // depends on its regime: RegimeContactLaw::force). Inline: on the integrators' hot path.
  double force(double penetration, double penetration_rate) const {
    if (const auto* h = std::get_if<HertzContact>(&law)) return h->force(penetration, penetration_rate);
    if (const auto* kv = std::get_if<KelvinVoigtContact>(&law)) return kv->force(penetration, penetration_rate);
    return 0.0;
  }
  // d(force)/d(delta) and d(force)/d(delta') (inline, as force).
  double force_slope(double penetration, double penetration_rate) const {
    if (const auto* h = std::get_if<HertzContact>(&law)) return h->force_slope(penetration);
    if (const auto* kv = std::get_if<KelvinVoigtContact>(&law))
      return (kv->clip_tension && kv->force(penetration, penetration_rate) <= 0.0) ? 0.0
                                                                                   : kv->stiffness;
    return 0.0;
  }
  double damping_slope(double penetration, double penetration_rate) const {
    if (const auto* h = std::get_if<HertzContact>(&law)) return h->damping;
    if (const auto* kv = std::get_if<KelvinVoigtContact>(&law))
      return (kv->clip_tension && kv->force(penetration, penetration_rate) <= 0.0) ? 0.0
                                                                                   : kv->damping;
    return 0.0;
  }
  // Whether the closed contact's force is affine in (delta, delta'): an unclipped
  // Kelvin-Voigt contact (the structure's modes then stay affine).
  bool affine() const;
  double stored_energy(double penetration) const;
  double dissipated_power(double penetration, double penetration_rate) const;
};

}  // namespace libcont
