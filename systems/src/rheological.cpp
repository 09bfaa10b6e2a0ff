#include "systems/rheological.hpp"

#include <cmath>

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::DamperRegime;
using libcont::EventOutcome;
using libcont::RheologicalLaw;

namespace systems {

RheologicalDamperDrop::RheologicalDamperDrop() {
  auto& p = parameters_;
  p.add("g", 9.81, Constraint::Positive, "gravitational acceleration (x points down)");
  p.add("m", 100.0, Constraint::Positive, "falling mass");
  p.add("k1", 3924.0, Constraint::Positive, "spring between the bumper top and the node z");
  p.add("k2", 1962.0, Constraint::Positive,
        "spring at the node (viscoelastic, elastoplastic; unused by viscoplastic)");
  p.add("c", 251.0, Constraint::Positive,
        "dashpot at the node (viscoelastic, viscoplastic; unused by elastoplastic)");
  p.add("T0", 2000.0, Constraint::Positive,
        "slider limit force (viscoplastic, elastoplastic; unused by viscoelastic)");
  p.add_choice("model", {"viscoelastic", "viscoplastic", "elastoplastic"}, "viscoelastic",
               "damper law: k1 + (k2 | c), k1 + (c | T0), k1 + (k2 | T0)");
  p.add("x0", -3.0, Constraint::Any, "initial position of the mass (default initial state)");
  p.add("v0", 5.0, Constraint::Any, "initial velocity, downward (default initial state)");
  p.add("z0", 0.0, Constraint::Any, "initial internal coordinate (default initial state)");
  configure();
}

void RheologicalDamperDrop::configure() {
  const auto& p = parameters_;
  g_ = p["g"];
  m_ = p["m"];
  const std::string& model = p.choice("model");
  const RheologicalLaw law = model == "viscoelastic"   ? RheologicalLaw::Viscoelastic
                             : model == "viscoplastic" ? RheologicalLaw::ElasticViscoplastic
                                                       : RheologicalLaw::Elastoplastic;
  damper_.emplace(law, libcont::RheologicalParameters{p["k1"], p["k2"], p["c"], p["T0"]});
  initial_ = libcont::Vector(3);
  initial_ << p["x0"], p["v0"], p["z0"];
}

bool RheologicalDamperDrop::is_stiff(int mode) const {
  // Stiff when the node relaxes much faster than the mass oscillates on k1.
  const double node_rate = std::abs(damper().internal_rate(regime(mode)).z);
  return node_rate > 50.0 * std::sqrt(damper().parameters().k1 / m_);
}

double RheologicalDamperDrop::reaction(int mode, ConstVectorRef x) const {
  return damper().reaction(regime(mode))(x[0], x[1], x[2]);
}

double RheologicalDamperDrop::bumper_position(int mode, ConstVectorRef x) const {
  return damper().bumper_position(regime(mode), x[0], x[2]);
}

void RheologicalDamperDrop::vector_field(int mode, double /*t*/, ConstVectorRef x,
                                         libcont::VectorRef dxdt) const {
  dxdt[0] = x[1];
  dxdt[1] = g_ - reaction(mode, x) / m_;
  dxdt[2] = damper().internal_rate(regime(mode))(x[0], x[1], x[2]);
}

void RheologicalDamperDrop::state_jacobian(int mode, double /*t*/, ConstVectorRef /*x*/,
                                           libcont::MatrixRef jac) const {
  const libcont::AffineForm& r = damper().reaction(regime(mode));
  const libcont::AffineForm& zr = damper().internal_rate(regime(mode));
  jac << 0.0, 1.0, 0.0,                          //
      -r.s / m_, -r.rate / m_, -r.z / m_,        //
      zr.s, zr.rate, zr.z;
}

int RheologicalDamperDrop::event_count(int mode) const {
  return static_cast<int>(damper().switches(regime(mode)).size());
}

libcont::EventSpec RheologicalDamperDrop::event_spec(int mode, int event) const {
  const libcont::RegimeSwitch& s = damper().switches(regime(mode))[static_cast<size_t>(event)];
  // Every switch can be grazed: as the bounces lose energy, the slider's yield force is
  // reached by ever smaller margins (measured: a slip of 0.9 ms, 1e-5 m, that a step
  // of CVODE jumps over), so the flow also watches the turning points of each condition.
  return {s.name, s.direction, s.kind, true};
}

double RheologicalDamperDrop::event_function(int mode, int event, double /*t*/,
                                             ConstVectorRef x) const {
  return damper().switches(regime(mode))[static_cast<size_t>(event)].condition(x[0], x[1], x[2]);
}

void RheologicalDamperDrop::event_gradient(int mode, int event, double /*t*/,
                                           ConstVectorRef /*x*/, libcont::VectorRef dh_dx,
                                           double& dh_dt) const {
  const libcont::AffineForm& h =
      damper().switches(regime(mode))[static_cast<size_t>(event)].condition;
  dh_dx << h.s, h.rate, h.z;
  dh_dt = 0.0;
}

EventOutcome RheologicalDamperDrop::apply_event(int mode, int event, double /*t*/,
                                                libcont::VectorRef /*x*/) const {
  const libcont::RegimeSwitch& s = damper().switches(regime(mode))[static_cast<size_t>(event)];
  return {static_cast<int>(s.next), s.kind, false};
}

void RheologicalDamperDrop::reset_jacobian(int, int, const EventOutcome&, double, ConstVectorRef,
                                           libcont::MatrixRef dg_dx,
                                           libcont::VectorRef dg_dt) const {
  // Every switch changes the regime only: the saltation matrix comes from the jump in the
  // vector field alone.
  dg_dx.setIdentity();
  dg_dt.setZero();
}

libcont::Vector RheologicalDamperDrop::default_initial_state() const { return initial_; }

int RheologicalDamperDrop::mode_of(double /*t*/, ConstVectorRef x) const {
  return static_cast<int>(damper().regime_of(x[0], x[1], x[2]));
}

double RheologicalDamperDrop::kinetic_energy(double, ConstVectorRef x) const {
  return 0.5 * m_ * x[1] * x[1];
}

double RheologicalDamperDrop::relative_velocity(int mode, int /*event*/, double /*t*/,
                                                ConstVectorRef x) const {
  // Out of contact the bumper top moves with the node (y = z); in contact with the mass.
  if (regime(mode) != DamperRegime::Detached) return 0.0;
  return x[1] - damper().internal_rate(DamperRegime::Detached)(x[0], x[1], x[2]);
}

double RheologicalDamperDrop::mechanical_energy(int mode, double, ConstVectorRef x) const {
  return 0.5 * m_ * x[1] * x[1] - m_ * g_ * x[0] +
         damper().stored_energy(regime(mode), x[0], x[2]);
}

double RheologicalDamperDrop::dissipated_power(int mode, double, ConstVectorRef x) const {
  return damper().dissipated_power(regime(mode), x[0], x[1], x[2]);
}

double RheologicalDamperDrop::contact_force(int mode, double, ConstVectorRef x) const {
  return reaction(mode, x);
}

double RheologicalDamperDrop::penetration(int mode, double, ConstVectorRef x) const {
  return regime(mode) == DamperRegime::Detached ? 0.0 : bumper_position(mode, x);
}

void RheologicalDamperDrop::outputs(int mode, double, ConstVectorRef x,
                                    libcont::VectorRef values) const {
  values[0] = bumper_position(mode, x);
  values[1] = reaction(mode, x);
}

std::vector<libcont::HybridSystem::CharacteristicCurve>
RheologicalDamperDrop::characteristic_curves() const {
  return {{"hysteresis_R_y", "y", "R"}, {"hysteresis_R_z", "z", "R"}};
}

}  // namespace systems
