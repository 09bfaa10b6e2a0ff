#pragma once
// Collinear Hertz impact with positional friction (doc/models/hertz_friction.md): a mass M
// hits with speed v0; x is the penetration (x < 0: a gap), x' = v.
//   mode "approach"   (x' > 0): M x'' + c1 x^alpha = 0,
//   mode "separation" (x' < 0): M x'' + c2 x^alpha = 0,
// no force while x <= 0. The switch is the event x' = 0 (falling); the impact ends with
// the terminal event x = 0 (falling), at x' = -K_r v0, into mode "flight". Starting from a
// gap (x < 0) the mode is "flight" until the event "contact" (x rising through 0).
//
// Parameters: M, Kr, v0 and the contact, given in one of two ways (`geometry`):
//   geometry = stiffness (default): alpha and c directly (defaults: data set (a),
//     alpha = 3/2, c = 2.1873e6 N/m^1.5);
//   geometry = spheres | quartic | singular: the gap profile z = A r^n with n = 2, 4, 3/2
//     and the elastic constants E1, nu1, E2, nu2; alpha = 1 + 1/n and c follow
//     (surface_profile.hpp). A defaults to the source's value for quartic (1e4) and
//     singular (5); for spheres (A = 1/(2R)) to the radius R = 23.67 mm that data set
//     (a)'s c implies. Giving c, or an alpha other than the profile's, together with a
//     surface geometry is an error.
#include <memory>

#include "libcont/flow.hpp"
#include "libcont/hertz_friction_contact.hpp"
#include "libcont/impacting_structure.hpp"

namespace systems {

// Declared as a structure (libcont/impacting_structure.hpp): the mass M moving freely, the
// contact a unilateral contact on -x whose law is HertzFrictionContact, whose regimes
// (approach, separation, flight) are the modes. One impact is the run: the separation
// ends it.
class HertzFrictionImpactSystem : public libcont::ImpactingStructure {
 public:
  enum Mode { Approach = 0, Separation = 1, Flight = 2 };

  HertzFrictionImpactSystem();
  std::string name() const override { return "hertz-friction"; }
  void configure() override;
  // The law's outcome, terminal at the end of contact: the impact is over.
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override;
  libcont::Vector default_initial_state() const override;  // (0, v0)

  // The contact in force (c, alpha, K_r; c1, c2) and the closed form of this impact.
  const libcont::HertzFrictionContact& contact() const { return *contact_; }
  double mass() const { return structure().mass(0, 0); }
  double impact_velocity() const { return v0_; }
  libcont::HertzFrictionImpact closed_form() const;
  // "stiffness (given)" or e.g. "quartic: z = A r^4, c from A, E1, nu1, E2, nu2".
  std::string contact_origin() const;

 private:
  double v0_ = 1.0;
  std::shared_ptr<const libcont::HertzFrictionContact> contact_;  // set by configure()
};

// The impact integrated event-driven from (0, v0) to its end, its characteristics read
// off the two events: x_c and t_c at "maximal compression" (P_c = c1 x_c^alpha,
// P_c* = c2 x_c^alpha), t_y and the rebound velocity at "separation".
struct SimulatedImpact {
  libcont::HertzFrictionImpactCharacteristics characteristics;
  libcont::FlowReport report;
  // Empty when the integration ended at the separation event; else what went wrong.
  std::string failure;
  bool ok() const { return report.ok() && failure.empty(); }
};

// `observer` (optional) sees the run as well, with samples on `samples`.
SimulatedImpact simulate_impact(const HertzFrictionImpactSystem& system,
                                const libcont::FlowOptions& options = {},
                                libcont::FlowObserver* observer = nullptr,
                                libcont::SampleGrid samples = {});

}  // namespace systems
