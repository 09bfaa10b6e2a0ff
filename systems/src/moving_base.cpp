#include "systems/moving_base.hpp"

#include <cmath>
#include <numbers>

#include "systems/impact_model.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventKind;
using libcont::EventOutcome;

namespace systems {

MovingBaseOscillator::MovingBaseOscillator() {
  auto& p = parameters_;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("k", 1.0, Constraint::Positive, "spring stiffness");
  p.add("c", 0.23, Constraint::NonNegative, "viscous damping (0.23: log decrement ln 2)");
  p.add("a", 0.0025, Constraint::Any, "base amplitude");
  p.add("d", 0.0, Constraint::Any, "base offset (gap at rest)");
  p.add("eta", 4.0, Constraint::Positive, "forcing circular frequency");
  add_impact_model_parameters(p, 1.0, 200000.0, "sticks to the base");
  configure();
}

void MovingBaseOscillator::configure() {
  const auto& p = parameters_;
  m_ = p["m"];
  k_ = p["k"];
  c_ = p["c"];
  a_ = p["a"];
  d_ = p["d"];
  eta_ = p["eta"];
  const ImpactModel impact = configure_impact_model(p, m_);
  hard_ = impact.hard;
  law_ = impact.law;
  contact_ = impact.contact;
  relation_ = impact.relation;
}

std::string MovingBaseOscillator::mode_name(int mode) const {
  if (mode == Free) return "free";
  return hard_ ? "stick" : "contact";
}

bool MovingBaseOscillator::is_stiff(int mode) const {
  if (mode != Attached || hard_) return false;
  const double contact_frequency = std::sqrt(contact_.stiffness / m_);
  return contact_frequency > 50.0 * std::max(std::sqrt(k_ / m_), eta_);
}

double MovingBaseOscillator::forcing_period() const { return 2.0 * std::numbers::pi / eta_; }

double MovingBaseOscillator::base_position(double t) const { return a_ * std::sin(eta_ * t) + d_; }
double MovingBaseOscillator::base_velocity(double t) const {
  return a_ * eta_ * std::cos(eta_ * t);
}
double MovingBaseOscillator::base_acceleration(double t) const {
  return -a_ * eta_ * eta_ * std::sin(eta_ * t);
}
double MovingBaseOscillator::holding_force(double t) const {
  // m b'' = k a sin(eta t) - c b' - k b + N  for a body moving with the base.
  return m_ * base_acceleration(t) + c_ * base_velocity(t) + k_ * base_position(t) -
         k_ * a_ * std::sin(eta_ * t);
}

void MovingBaseOscillator::vector_field(int mode, double t, ConstVectorRef x,
                                        libcont::VectorRef dxdt) const {
  dxdt[0] = x[1];
  if (mode == Attached && hard_) {
    dxdt[1] = base_acceleration(t);
    return;
  }
  const double force = k_ * a_ * std::sin(eta_ * t) - c_ * x[1] - k_ * x[0];
  dxdt[1] = (force + contact_force(mode, t, x)) / m_;
}

void MovingBaseOscillator::state_jacobian(int mode, double /*t*/, ConstVectorRef /*x*/,
                                          libcont::MatrixRef jac) const {
  jac(0, 0) = 0.0;
  jac(0, 1) = 1.0;
  if (mode == Attached && hard_) {
    jac(1, 0) = jac(1, 1) = 0.0;
    return;
  }
  const bool contact = mode == Attached;
  jac(1, 0) = -(k_ + (contact ? contact_.stiffness : 0.0)) / m_;
  jac(1, 1) = -(c_ + (contact ? contact_.damping : 0.0)) / m_;
}

bool MovingBaseOscillator::affine_mode(int mode, libcont::AffineMode& data) const {
  const bool contact = mode == Attached && !hard_;
  if (contact && contact_.clip_tension) return false;
  data.A.resize(2, 2);
  data.b0.resize(2);
  data.b_cos.resize(2);
  data.b_sin.resize(2);
  data.frequency = eta_;
  data.b0.setZero();
  data.b_cos.setZero();
  data.b_sin.setZero();
  if (mode == Attached && hard_) {
    // x'' = b''(t) = -a eta^2 sin(eta t)
    data.A << 0.0, 1.0, 0.0, 0.0;
    data.b_sin[1] = -a_ * eta_ * eta_;
    return true;
  }
  // m v' = k a sin - c v - k x [+ k_s (a sin + d - x) + c_s (a eta cos - v) in contact]
  const double ks = contact ? contact_.stiffness : 0.0, cs = contact ? contact_.damping : 0.0;
  data.A << 0.0, 1.0, -(k_ + ks) / m_, -(c_ + cs) / m_;
  data.b0[1] = ks * d_ / m_;
  data.b_cos[1] = cs * a_ * eta_ / m_;
  data.b_sin[1] = (k_ + ks) * a_ / m_;
  return true;
}

bool MovingBaseOscillator::affine_event(int mode, int /*event*/,
                                        libcont::VectorRef coefficients) const {
  coefficients.setZero();
  if (hard_ && mode == Attached) {
    // holding force = m b'' + c b' + k b - k a sin = -m a eta^2 sin + c a eta cos + k d
    coefficients[3] = c_ * a_ * eta_;
    coefficients[4] = -m_ * a_ * eta_ * eta_;
    coefficients[2] = k_ * d_;
    return true;
  }
  coefficients[0] = 1.0;  // gap x - a sin(eta t) - d
  coefficients[2] = -d_;
  coefficients[4] = -a_;
  return true;
}

libcont::EventSpec MovingBaseOscillator::event_spec(int mode, int /*event*/) const {
  return unilateral_contact_event(hard_, mode == Attached);
}

double MovingBaseOscillator::event_function(int mode, int /*event*/, double t,
                                            ConstVectorRef x) const {
  if (hard_ && mode == Attached) return holding_force(t);
  return x[0] - base_position(t);
}

void MovingBaseOscillator::event_gradient(int mode, int /*event*/, double t,
                                          ConstVectorRef /*x*/, libcont::VectorRef dh_dx,
                                          double& dh_dt) const {
  if (hard_ && mode == Attached) {
    dh_dx.setZero();
    const double w = eta_;
    dh_dt = -m_ * a_ * w * w * w * std::cos(w * t) + c_ * base_acceleration(t) +
            k_ * base_velocity(t) - k_ * a_ * w * std::cos(w * t);
    return;
  }
  dh_dx[0] = 1.0;
  dh_dx[1] = 0.0;
  dh_dt = -base_velocity(t);
}

EventOutcome MovingBaseOscillator::apply_event(int mode, int /*event*/, double t,
                                               libcont::VectorRef x) const {
  if (!hard_) {
    return mode == Free ? EventOutcome{Attached, EventKind::ContactStart, false}
                        : EventOutcome{Free, EventKind::ContactEnd, false};
  }
  if (mode == Attached) {
    // Leave exactly on the base with its velocity: the gap and its rate are then exactly
    // zero, so the released body is not mistaken for one that hits the base again.
    x[0] = base_position(t);
    x[1] = base_velocity(t);
    return EventOutcome{Free, EventKind::StickEnd, false};
  }
  const double vb = base_velocity(t);
  if (law_.sticks(std::abs(x[1] - vb), holding_force(t) / m_)) {
    x[0] = base_position(t);
    x[1] = vb;
    return EventOutcome{Attached, EventKind::StickStart, false};
  }
  // The impact happens on the base: placing x+ exactly there (a correction at rounding
  // level) keeps the next free flight on the right side of h = 0, so a very short flight
  // of a chattering sequence cannot hide inside one integrator step.
  x[0] = base_position(t);
  x[1] = law_.rebound_velocity(x[1], vb);
  return EventOutcome{Free, EventKind::Impact, false};
}

void MovingBaseOscillator::reset_jacobian(int /*mode*/, int /*event*/,
                                          const EventOutcome& outcome, double t,
                                          ConstVectorRef /*x_minus*/, libcont::MatrixRef dg_dx,
                                          libcont::VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  if (outcome.kind == EventKind::Impact) {
    // x+ = b(t), v+ = (1 + r) b'(t) - r v-
    dg_dx(0, 0) = 0.0;
    dg_dx(1, 1) = -law_.r;
    dg_dt[0] = base_velocity(t);
    dg_dt[1] = (1.0 + law_.r) * base_acceleration(t);
  } else if (outcome.kind == EventKind::StickStart || outcome.kind == EventKind::StickEnd) {
    // x+ = (b(t), b'(t)) whatever x-: perturbations are absorbed by the base.
    dg_dx.setZero();
    dg_dt[0] = base_velocity(t);
    dg_dt[1] = base_acceleration(t);
  }
}

int MovingBaseOscillator::mode_of(double t, ConstVectorRef x) const {
  return (!hard_ && x[0] - base_position(t) < 0.0) ? Attached : Free;
}

double MovingBaseOscillator::kinetic_energy(double /*t*/, ConstVectorRef x) const {
  return 0.5 * m_ * x[1] * x[1];
}

double MovingBaseOscillator::relative_velocity(int /*mode*/, int /*event*/, double t,
                                               ConstVectorRef x) const {
  return x[1] - base_velocity(t);
}

double MovingBaseOscillator::penetration(int mode, double t, ConstVectorRef x) const {
  return (mode == Attached && !hard_) ? base_position(t) - x[0] : 0.0;
}

double MovingBaseOscillator::contact_force(int mode, double t, ConstVectorRef x) const {
  if (mode != Attached || hard_) return 0.0;
  return contact_.force(penetration(mode, t, x), base_velocity(t) - x[1]);
}

double MovingBaseOscillator::mechanical_energy(int mode, double t, ConstVectorRef x) const {
  return 0.5 * m_ * x[1] * x[1] + 0.5 * k_ * x[0] * x[0] +
         contact_.stored_energy(penetration(mode, t, x));
}

double MovingBaseOscillator::dissipated_power(int mode, double t, ConstVectorRef x) const {
  double power = c_ * x[1] * x[1];
  if (mode == Attached && !hard_)
    power += contact_.dissipated_power(penetration(mode, t, x), base_velocity(t) - x[1]);
  return power;
}

double MovingBaseOscillator::supplied_power(int mode, double t, ConstVectorRef x) const {
  // The forcing works on the body; the base works on the contact, pushing with the
  // contact force at its own velocity.
  return k_ * a_ * std::sin(eta_ * t) * x[1] + contact_force(mode, t, x) * base_velocity(t);
}

double MovingBaseOscillator::divergence(int mode, double /*t*/, ConstVectorRef /*x*/) const {
  if (mode == Attached) return hard_ ? 0.0 : -(c_ + contact_.damping) / m_;
  return -c_ / m_;
}

}  // namespace systems
