#pragma once
// Impacting oscillator on a moving base (doc/theory.md, 3): m x'' + c x' + k x = k a sin(omega t),
// base at a sin(omega t) + d, gap h = x - base >= 0, relative velocity v_r = x' - base'.
// model = hard: Newton restitution v_r+ = -r v_r-, chattering ends in sticking to the
//   base (mode "stick") until the contact force would turn tensile.
// model = soft: while h < 0 the contact force k_s h + c_s v_r acts (mode "contact");
//   c_s follows from r by the chosen energy relation (doc/theory.md, 9) unless given.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include "libcont/impacting_structure.hpp"

namespace systems {

class MovingBaseOscillator : public libcont::ImpactingStructure {
 public:
  enum Mode { Free = 0, Attached = 1 };  // Attached: "stick" (hard) or "contact" (soft)

  MovingBaseOscillator();
  std::string name() const override { return "moving-base"; }
  void configure() override;

  bool hard() const { return contacts().front().hard(); }
  double contact_damping() const { return contacts().front().damping(); }
  libcont::EnergyRelation energy_relation() const { return relation_; }
  // Base kinematics, and the force needed to hold the body on the base.
  double base_position(double t) const;
  double base_velocity(double t) const;
  double base_acceleration(double t) const;
  double holding_force(double t) const;

 private:
  libcont::EnergyRelation relation_ = libcont::EnergyRelation::Exact;
};

}  // namespace systems
