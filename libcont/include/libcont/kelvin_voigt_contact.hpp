#pragma once
// Linear spring-damper (Kelvin-Voigt) contact and the energy equivalence of a
// hard impact with restitution r and such a contact (doc/theory.md, 9), both relations, named.
#include <string>

namespace libcont {

// Which hard/soft energy-equivalence relation produced a damping value.
enum class EnergyRelation {
  Exact,       // free mass: r = exp(-pi beta / lambda_s), exact
  Approximate  // r' = sqrt(1 - (1 + zeta^2)(1 - exp(-2 pi zeta))), zeta = beta / lambda_s
};
std::string to_string(EnergyRelation relation);

// Damping ratio xi of the contact (c_s = 2 xi sqrt(k_s m)) equivalent to restitution r.
double damping_ratio_for_restitution(double r, EnergyRelation relation);
// Contact damping c_s for stiffness k_s and mass m equivalent to restitution r.
double contact_damping_for_restitution(double r, double stiffness, double mass,
                                       EnergyRelation relation);
// Restitution equivalent to a contact (k_s, c_s) on mass m.
double restitution_for_contact(double stiffness, double damping, double mass,
                               EnergyRelation relation);

struct KelvinVoigtContact {
  double stiffness = 0.0;  // k_s
  double damping = 0.0;    // c_s
  bool clip_tension = false;  // clip the force to non-negative (compressive) values

  // Force on the body (positive pushes it out of contact) for penetration depth
  // `penetration` >= 0 and penetration rate `penetration_rate`.
  double force(double penetration, double penetration_rate) const {
    const double f = stiffness * penetration + damping * penetration_rate;
    return (clip_tension && f < 0.0) ? 0.0 : f;
  }
  // Energy in the contact spring (energy balances, energy_account.hpp).
  double stored_energy(double penetration) const {
    return 0.5 * stiffness * penetration * penetration;
  }
  // Power the contact takes from the motion minus what its spring stores:
  // (force - k_s delta) delta' = c_s delta'^2, or -k_s delta delta' >= 0 while a clipped
  // force is zero (the spring is then let go without giving its energy back).
  double dissipated_power(double penetration, double penetration_rate) const {
    return (force(penetration, penetration_rate) - stiffness * penetration) * penetration_rate;
  }
};

}  // namespace libcont
