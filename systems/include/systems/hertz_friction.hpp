#pragma once
// Collinear Hertz impact with positional friction (doc/models/hertz_friction.md): a mass M
// hits with speed v0; x is the penetration (x < 0: a gap), x' = v.
//   mode "approach"   (x' > 0): M x'' + c1 x^alpha = 0,
//   mode "separation" (x' < 0): M x'' + c2 x^alpha = 0,
// no force while x <= 0. The switch is the event x' = 0 (falling); the impact ends with
// the terminal event x = 0 (falling), at x' = -K_r v0. Starting from a gap (x < 0, v > 0)
// the approach mode is free flight until contact.
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
#include "libcont/flow.hpp"
#include "libcont/hertz_friction_contact.hpp"
#include "libcont/hybrid_system.hpp"

namespace systems {

class HertzFrictionImpactSystem : public libcont::HybridSystem {
 public:
  enum Mode { Approach = 0, Separation = 1 };

  HertzFrictionImpactSystem();
  std::string name() const override { return "hertz-friction"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  int event_count(int /*mode*/) const override { return 1; }
  libcont::EventSpec event_spec(int mode, int event) const override;
  double event_function(int mode, int event, double t, libcont::ConstVectorRef x) const override;
  void event_gradient(int mode, int event, double t, libcont::ConstVectorRef x,
                      libcont::VectorRef dh_dx, double& dh_dt) const override;
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override;

  libcont::Vector default_initial_state() const override;  // (0, v0)
  int mode_of(double t, libcont::ConstVectorRef x) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;

  // The contact in force (c, alpha, K_r; c1, c2) and the closed form of this impact.
  const libcont::HertzFrictionContact& contact() const { return contact_; }
  double mass() const { return m_; }
  double impact_velocity() const { return v0_; }
  libcont::HertzFrictionImpact closed_form() const;
  // "stiffness (given)" or e.g. "quartic: z = A r^4, c from A, E1, nu1, E2, nu2".
  std::string contact_origin() const;

 private:
  // Stiffness of the mode: c1 while approaching, c2 while separating.
  double mode_stiffness(int mode) const;

  double m_ = 0.1, v0_ = 1.0;
  libcont::HertzFrictionContact contact_{2.1873e6, 1.5, 0.73};
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
