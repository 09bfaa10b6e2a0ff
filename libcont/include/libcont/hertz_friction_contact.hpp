#pragma once
// Hertz power-law contact with positional (dry) friction and its closed-form
// collinear impact (doc/models/hertz_friction.md).
//
// The contact force is c1 x^alpha while the bodies approach (x' > 0) and c2 x^alpha while
// they separate, c1 = c + dc, c2 = c - dc, with dc chosen so that a free impact rebounds
// with the given restitution coefficient K_r:
//   dc = c (1 - K_r^2) / (1 + K_r^2),  so c2 / c1 = K_r^2.
// (Each stage conserves its own energy: M v0^2 / 2 = c1 x_c^(alpha+1) / (alpha+1) on the
// way in, c2 x_c^(alpha+1) / (alpha+1) = M v^2 / 2 on the way out, hence v = K_r v0.)
//
// A mass M hitting with speed v0 (M x'' + c_i x^alpha = 0, x(0) = 0, x'(0) = v0) then
// moves by Ateb functions (ateb.hpp), with phi = (1+alpha)/2 * (speed) * (time) / x_c:
//   approach,   0 <= t <= t_c:   x = x_c Sa(alpha, 1; (1+alpha)/2 v0 t / x_c),
//   separation, t_c <= t <= t_y: x = x_c Ca(alpha, 1; (1+alpha)/2 K_r v0 (t - t_c) / x_c),
// and the impact characteristics are
//   x_c = (M v0^2 (alpha+1) / (2 c1))^(1/(alpha+1)),  P_c = c1 x_c^alpha,  P_c* = c2 x_c^alpha,
//   t_c = I x_c / v0,  t_y = (1 + 1/K_r) I x_c / v0,   I = I(alpha) of ateb.hpp.
//
// As a contact law of a structure (RegimeContactLaw, unilateral_contact.hpp), with x the
// penetration delta, the branch is the law's regime rather than the sign of x': switching
// on an event keeps the force smooth within a mode (the integrator's error control holds)
// and makes the switch a located event:
//   "approach"    (loading, c1 x^alpha): "maximal compression" when x' falls through 0,
//                 to "separation";
//   "separation"  (unloading, c2 x^alpha): "separation" when x falls through 0, to
//                 "flight" (the contact ends), and "reloading" when x' rises through 0,
//                 back to "approach";
//   "flight"      (no force): "contact" when x rises through 0, to "approach".
// The stored energy jumps at the turn (c1 -> c2): the law does not account for its energy;
// its loss per impact is the closed form's.
// Not modelled: a contact under a static load that, at a turn, lies between the two
// branches' forces (c2 x^alpha < load < c1 x^alpha) would be held there by the friction;
// the law has no stuck regime, and the turns then follow each other at one instant (the
// flow stops with an event storm).
#include "libcont/ateb.hpp"
#include "libcont/regime_contact_law.hpp"

namespace libcont {

class HertzFrictionContact : public RegimeContactLaw {
 public:
  enum Regime { Approach = 0, Separation = 1, Flight = 2 };

  // c > 0 (N/m^alpha), alpha > 0, K_r in (0, 1]; InputError naming the bad one otherwise.
  HertzFrictionContact(double stiffness, double exponent, double restitution);

  double stiffness() const { return stiffness_; }    // c
  double exponent() const { return exponent_; }      // alpha
  double restitution() const { return restitution_; }  // K_r
  double stiffness_increment() const;                // dc
  double approach_stiffness() const;                 // c1 = c + dc
  double separation_stiffness() const;               // c2 = c - dc

  // Contact force for a penetration x and its rate x': c1 x^alpha while x' > 0, else
  // c2 x^alpha; zero without penetration.
  double force(double penetration, double penetration_rate) const;
  // d force / d penetration at fixed rate (0 without penetration).
  double force_slope(double penetration, double penetration_rate) const;

  // The law of a contact: regimes Approach, Separation, Flight.
  int regime_count() const override { return 3; }
  std::string regime_name(int regime) const override;
  // In contact (x > 0, or x = 0 moving in): Approach while x' > 0, else Separation.
  int regime_of(const ContactInputs& in) const override;
  double force(int regime, const ContactInputs& in) const override;
  void force_gradient(int regime, const ContactInputs& in, double* gradient) const override;
  int switch_count(int regime) const override { return regime == Separation ? 2 : 1; }
  RegimeSwitchSpec switch_spec(int regime, int k) const override;
  double switch_function(int regime, int k, const ContactInputs& in) const override;
  void switch_gradient(int regime, int k, const ContactInputs& in, double* gradient) const override;

 private:
  double stiffness_;
  double exponent_;
  // Whether switch k of a regime watches x (contact, separation) rather than x'.
  static bool on_penetration(int regime, int k) {
    return regime == Flight || (regime == Separation && k == 0);
  }

  double restitution_;
  double approach_stiffness_ = 0.0, separation_stiffness_ = 0.0;  // c1, c2
};

// The published characteristics of one impact, in the source's names.
struct HertzFrictionImpactCharacteristics {
  double x_c = 0.0;               // maximal penetration (m)
  double P_c = 0.0;               // force at the end of approach, c1 x_c^alpha (N)
  double P_c_star = 0.0;          // force at the start of separation, c2 x_c^alpha (N)
  double t_c = 0.0;               // duration of approach (s)
  double t_y = 0.0;               // duration of the impact (s)
  double rebound_velocity = 0.0;  // x' at t_y: -K_r v0 (m/s)
};

// The closed-form impact of a mass on the contact. Before t = 0 and after t_y the bodies
// fly freely (x = v0 t < 0, and x = -K_r v0 (t - t_y) < 0: negative x is a gap).
class HertzFrictionImpact {
 public:
  // M > 0 and v0 > 0 (finite); InputError naming the bad one otherwise.
  HertzFrictionImpact(const HertzFrictionContact& contact, double mass, double impact_velocity);

  const HertzFrictionContact& contact() const { return contact_; }
  double mass() const { return mass_; }
  double impact_velocity() const { return impact_velocity_; }
  const HertzFrictionImpactCharacteristics& characteristics() const { return result_; }
  const AtebFunctions& ateb() const { return ateb_; }

  double penetration(double t) const;  // x(t)
  double velocity(double t) const;     // x'(t)
  // P(t): the contact force, c1 x^alpha up to and including t_c, c2 x^alpha after it.
  double force(double t) const;

 private:
  // The stage at time t and its Ateb phase.
  enum class Stage { Before, Approach, Separation, After };
  Stage stage(double t) const;
  double approach_phase(double t) const;
  double separation_phase(double t) const;

  HertzFrictionContact contact_;
  AtebFunctions ateb_;
  double mass_;
  double impact_velocity_;
  HertzFrictionImpactCharacteristics result_;
};

}  // namespace libcont
