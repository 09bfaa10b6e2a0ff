#pragma once
// Rheological dampers with an internal coordinate z (doc/models/rheological.md): a massless
// structure under a unilateral bumper. A spring k1 joins the bumper top y to an internal
// node z; one of three elements holds the node to the ground:
//   viscoelastic           spring k2 parallel to a dashpot c:  c z' + k2 z = R
//   elastic-viscoplastic   dashpot c parallel to a slider T0:  c z' + T = R,  |T| <= T0
//   elastoplastic          spring k2 parallel to a slider T0:  k2 z + T = R,  |T| <= T0
// with the reaction R = k1 (y - z). A body whose contact point is at depth s (measured
// like y and z: into the damper, from its unloaded surface) touches the bumper
// unilaterally: u = y - s >= 0, R >= 0, R u = 0.
//
// The contact and the slider make the law piecewise. It is written here as REGIMES, each
// with an affine law, and affine switching conditions between them, to be integrated as
// the modes and events of a hybrid system (never as a smoothed sign function, never by
// fixed steps across a discontinuous right-hand side):
//   Detached      u >= 0, R = 0, y = z:   z' = -k2 z / c (viscoelastic: relaxes), else 0
//   Stuck         u = 0, y = s, R = k1 (s - z); slider locked:
//                 z' = (R - k2 z) / c (viscoelastic), else 0
//   Slipping      viscoplastic:  slider at +T0, z' = (R - T0) / c
//                 elastoplastic: on the yield surface R - k2 z = +T0, z' = k1 s' / (k1 + k2)
//   SlippingBack  elastoplastic: on R - k2 z = -T0, z' = k1 s' / (k1 + k2)
// The viscoelastic law has no slider: its Stuck regime is simply "in contact".
//
// Switching conditions (each an affine function of (s, s', z) crossing zero):
//   Detached -> Stuck          the gap closes: s - z rises through 0
//   Stuck -> Detached          R = k1 (s - z) falls through 0
//   Stuck -> Slipping          the slider force reaches +T0: R - T0 (viscoplastic) or
//                              R - k2 z - T0 (elastoplastic) rises through 0
//   Stuck -> SlippingBack      elastoplastic: R - k2 z + T0 falls through 0
//   Slipping -> Stuck          viscoplastic: R - T0 falls through 0 (the dashpot unloads);
//                              elastoplastic: s' falls through 0 (loading stops)
//   SlippingBack -> Stuck      s' rises through 0
//   SlippingBack -> Detached   R falls through 0 (which happens at z = T0 / k2)
// The viscoplastic reaction cannot reach -T0 (R >= 0), so it has no SlippingBack.
//
// As a contact law of a structure (RegimeContactLaw, unilateral_contact.hpp) the damper's
// inputs are the structure's penetration s = delta and its rate, z is its one internal
// coordinate, and its regimes are the contact's: a structure declares the bumper as a
// UnilateralContact with this law and gets the modes, switches, Jacobians and energy
// account from it.
#include <array>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/regime_contact_law.hpp"

namespace libcont {

enum class RheologicalLaw { Viscoelastic, ElasticViscoplastic, Elastoplastic };
std::string to_string(RheologicalLaw law);

// The regimes in this order; a law uses the first regime_count() of them, so a system
// with one damper can use the regime's value as its mode index.
enum class DamperRegime { Detached = 0, Stuck = 1, Slipping = 2, SlippingBack = 3 };

// a_s s + a_rate s' + a_z z + a_0: the reaction, the internal rate and every switching
// condition are affine in the damper's inputs, so their gradients are the coefficients.
struct AffineForm {
  double s = 0.0;
  double rate = 0.0;
  double z = 0.0;
  double constant = 0.0;
  double operator()(double s_value, double rate_value, double z_value) const {
    return s * s_value + rate * rate_value + z * z_value + constant;
  }
};

struct RegimeSwitch {
  std::string name;  // "contact", "separation", "slip", "stick", "slip-back"
  AffineForm condition;
  EventDirection direction = EventDirection::Rising;
  DamperRegime next = DamperRegime::Detached;
  EventKind kind = EventKind::ModeSwitch;  // ContactStart, ContactEnd or ModeSwitch
};

struct RheologicalParameters {
  double k1 = 0.0;  // series spring between the bumper top and the internal node
  double k2 = 0.0;  // spring at the node (viscoelastic, elastoplastic)
  double c = 0.0;   // dashpot at the node (viscoelastic, elastic-viscoplastic)
  double T0 = 0.0;  // slider limit force (elastic-viscoplastic, elastoplastic)
};

class RheologicalDamper : public RegimeContactLaw {
 public:
  // Throws InputError naming a parameter the law needs that is not positive and finite
  // (k1 always; c for the viscous laws; T0 for the slider laws; k2 >= 0 where used).
  RheologicalDamper(RheologicalLaw law, const RheologicalParameters& parameters);

  RheologicalLaw law() const { return law_; }
  const RheologicalParameters& parameters() const { return parameters_; }
  int regime_count() const override;
  std::string regime_name(DamperRegime regime) const;

  // The regime consistent with (s, s', z), for a start anywhere: detached while s <= z,
  // slipping where the slider force would exceed its limit, else stuck. A state exactly
  // on a switching surface gets the regime it is in before the switch (the flow then
  // fires the switch if the motion goes through).
  DamperRegime regime_of(double s, double rate, double z) const;

  const AffineForm& reaction(DamperRegime regime) const;       // R
  const AffineForm& internal_rate(DamperRegime regime) const;  // z'
  const std::vector<RegimeSwitch>& switches(DamperRegime regime) const;

  // Bumper top: y = s in contact, y = z when detached.
  double bumper_position(DamperRegime regime, double s, double z) const;
  // Energy in the springs: k1 (y - z)^2 / 2 + k2 z^2 / 2 (k2 where the law has it).
  double stored_energy(DamperRegime regime, double s, double z) const;
  // Power turned into heat: c z'^2 (viscoelastic), (c z' + T0) z' = R z' while slipping
  // (viscoplastic), T0 |z'| while slipping (elastoplastic); 0 otherwise.
  double dissipated_power(DamperRegime regime, double s, double rate, double z) const;

  // The law of a contact: inputs (s, s', z), regimes by index.
  std::string regime_name(int regime) const override { return regime_name(static_cast<DamperRegime>(regime)); }
  std::vector<std::string> internal_names() const override { return {"z"}; }
  int regime_of(const ContactInputs& in) const override;
  double force(int regime, const ContactInputs& in) const override;
  void force_gradient(int regime, const ContactInputs& in, double* gradient) const override;
  void internal_rates(int regime, const ContactInputs& in, double* rates) const override;
  void internal_jacobian(int regime, const ContactInputs& in, double* jacobian) const override;
  int switch_count(int regime) const override;
  // Every switch can be grazed (guard_turning_points): as the bounces lose energy, the
  // slider's yield force is reached by ever smaller margins (measured: a slip of 0.9 ms,
  // 1e-5 m, that a step of CVODE jumps over).
  RegimeSwitchSpec switch_spec(int regime, int k) const override;
  double switch_function(int regime, int k, const ContactInputs& in) const override;
  void switch_gradient(int regime, int k, const ContactInputs& in, double* gradient) const override;
  // Stiff when the node relaxes much faster than the body oscillates on k1 (or than the
  // structure's own frequency).
  bool stiff(int regime, double frequency, double mobility) const override;
  bool accounts_energy() const override { return true; }
  double stored_energy(int regime, const ContactInputs& in) const override;
  double dissipated_power(int regime, const ContactInputs& in) const override;
  // Penetration: the bumper top y = s while in contact, 0 when detached. Approach velocity:
  // s' - y' when detached (the top moves with the node), 0 in contact.
  double penetration(int regime, const ContactInputs& in) const override;
  double approach_velocity(int regime, const ContactInputs& in) const override;

 private:
  static size_t index(DamperRegime regime) { return static_cast<size_t>(regime); }
  bool has_spring_k2() const { return law_ != RheologicalLaw::ElasticViscoplastic; }

  RheologicalLaw law_;
  RheologicalParameters parameters_;
  std::array<AffineForm, 4> reaction_{};
  std::array<AffineForm, 4> internal_rate_{};
  std::array<std::vector<RegimeSwitch>, 4> switches_{};
};

}  // namespace libcont
