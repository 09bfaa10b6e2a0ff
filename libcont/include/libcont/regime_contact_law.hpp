#pragma once
// A contact law with regimes and internal state, for a unilateral contact
// (unilateral_contact.hpp) whose law is more than open or closed: a Hertz contact with
// positional friction is stiffer while loading than while unloading; a rheological damper
// under a bumper is free, stuck, slipping (or slipping back) and carries the position of
// its internal node. Such a law states, as functions of its inputs
//   delta = -g (penetration), delta' (its rate), z (its internal coordinates, 0 or more):
//   - its regimes, by index and name; the structure's modes are the combinations of the
//     regimes of its contacts (regime 0 is the one it starts from without contact);
//   - per regime the force along the contact normal (> 0 pushes the surfaces apart) and the
//     rates z' of its internal coordinates, with their derivatives;
//   - per regime its switches: a condition h(delta, delta', z) whose crossing in a stated
//     direction moves the law to another regime. No switch changes the state: the state
//     is continuous, the saltation matrices come from the jumps of the vector field;
//   - the energy stored in its springs and the power it dissipates, when it accounts;
//   - what reports measure: penetration and approach velocity.
// ImpactingStructure (impacting_structure.hpp) makes of it the events, their gradients,
// the Jacobians and the energy account of the structure; the internal coordinates become
// state coordinates after the structure's q and v. A law is immutable once built and is
// shared between copies of a structure.
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace libcont {

// At most this many internal coordinates per law (gradients live on the stack).
constexpr int max_internal_coordinates = 6;

// The inputs of a law at one instant.
struct ContactInputs {
  double penetration = 0.0;          // delta = -g
  double rate = 0.0;                 // delta'
  const double* internal = nullptr;  // z, internal_names().size() values
};

// A switch of a regime. Gradients of its condition, like those of the force and rates
// below, are arrays over (delta, delta', z_1, .., z_m).
struct RegimeSwitchSpec {
  std::string name;
  EventDirection direction = EventDirection::Rising;
  int next = 0;                            // the regime after the switch
  EventKind kind = EventKind::ModeSwitch;  // ContactStart, ContactEnd or ModeSwitch
  // The condition may cross and come back within a step (EventSpec::guard_turning_points).
  bool guard_turning_points = false;
};

class RegimeContactLaw {
 public:
  virtual ~RegimeContactLaw() = default;

  virtual int regime_count() const = 0;
  virtual std::string regime_name(int regime) const = 0;
  // Names of the internal coordinates (none by default).
  virtual std::vector<std::string> internal_names() const { return {}; }
  // The regime consistent with the inputs, for a start anywhere.
  virtual int regime_of(const ContactInputs& in) const = 0;

  // Force along the normal and its gradient (size 2 + m).
  virtual double force(int regime, const ContactInputs& in) const = 0;
  virtual void force_gradient(int regime, const ContactInputs& in, double* gradient) const = 0;
  // z' (size m) and its Jacobian (m rows of 2 + m, row after row). Default: no internal
  // coordinates.
  virtual void internal_rates(int /*regime*/, const ContactInputs& /*in*/, double* /*rates*/) const {}
  virtual void internal_jacobian(int /*regime*/, const ContactInputs& /*in*/,
                                 double* /*jacobian*/) const {}

  virtual int switch_count(int regime) const = 0;
  virtual RegimeSwitchSpec switch_spec(int regime, int k) const = 0;
  virtual double switch_function(int regime, int k, const ContactInputs& in) const = 0;
  virtual void switch_gradient(int regime, int k, const ContactInputs& in,
                               double* gradient) const = 0;

  // Whether the regime needs the stiff (BDF) integrator: an internal relaxation much faster
  // than `frequency`, the structure's fastest natural frequency (or its forcing's), given
  // the mobility w M^-1 w of the contact (1 / the mass it moves). Default: no.
  virtual bool stiff(int /*regime*/, double /*frequency*/, double /*mobility*/) const {
    return false;
  }

  // Energy: whether the law's stored energy is continuous at its switches and, with the
  // dissipated power, closes its power balance: force delta' = d(stored)/dt + dissipated.
  virtual bool accounts_energy() const { return false; }
  virtual double stored_energy(int /*regime*/, const ContactInputs& /*in*/) const { return 0.0; }
  virtual double dissipated_power(int /*regime*/, const ContactInputs& /*in*/) const {
    return 0.0;
  }

  // Reports: the depth reported as penetration (default delta where positive, else 0) and
  // the approach velocity of an event (default delta').
  virtual double penetration(int /*regime*/, const ContactInputs& in) const {
    return in.penetration > 0.0 ? in.penetration : 0.0;
  }
  virtual double approach_velocity(int /*regime*/, const ContactInputs& in) const { return in.rate; }
};

}  // namespace libcont
