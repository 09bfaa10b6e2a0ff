#include "systems/drop.hpp"

#include "systems/impact_model.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventKind;
using libcont::EventOutcome;

namespace systems {

DropTest::DropTest() {
  auto& p = parameters_;
  p.add("m", 1.0, Constraint::Positive, "mass");
  p.add("g", 9.81, Constraint::Positive, "gravitational acceleration");
  p.add("H0", 1.0, Constraint::NonNegative, "initial drop height (default initial state)");
  add_impact_model_parameters(p, 0.9, 20000.0, "comes to rest on the base");
  configure();
}

void DropTest::configure() {
  const auto& p = parameters_;
  m_ = p["m"];
  g_ = p["g"];
  h0_ = p["H0"];
  const ImpactModel impact = configure_impact_model(p, m_);
  hard_ = impact.hard;
  law_ = impact.law;
  contact_ = impact.contact;
}

std::string DropTest::mode_name(int mode) const {
  if (mode == Flight) return "flight";
  return hard_ ? "rest" : "contact";
}

libcont::EventSpec DropTest::event_spec(int mode, int /*event*/) const {
  return unilateral_contact_event(hard_, mode == Ground);  // no event while resting (hard)
}

double DropTest::event_function(int /*mode*/, int /*event*/, double /*t*/,
                                ConstVectorRef x) const {
  return x[0];
}

void DropTest::event_gradient(int, int, double, ConstVectorRef, libcont::VectorRef dh_dx,
                              double& dh_dt) const {
  dh_dx << 1.0, 0.0;
  dh_dt = 0.0;
}

EventOutcome DropTest::apply_event(int mode, int /*event*/, double /*t*/,
                                   libcont::VectorRef x) const {
  if (!hard_)
    return mode == Flight ? EventOutcome{Ground, EventKind::ContactStart, false}
                          : EventOutcome{Flight, EventKind::ContactEnd, false};
  // The base holds the body with force m g: a rebound slower than stick_velocity ends
  // the chattering sequence and the body rests.
  if (law_.sticks(std::abs(x[1]), g_)) {
    x << 0.0, 0.0;
    return EventOutcome{Ground, EventKind::StickStart, false};
  }
  // x+ exactly on the base (a rounding-level correction): the next, possibly tiny, flight
  // then starts on the right side of the event surface and cannot be stepped over.
  x[0] = 0.0;
  x[1] = law_.rebound_velocity(x[1], 0.0);
  return EventOutcome{Flight, EventKind::Impact, false};
}

void DropTest::reset_jacobian(int, int, const EventOutcome& outcome, double, ConstVectorRef,
                              libcont::MatrixRef dg_dx, libcont::VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  if (outcome.kind == EventKind::Impact) {  // x+ = 0, v+ = -r v-
    dg_dx(0, 0) = 0.0;
    dg_dx(1, 1) = -law_.r;
  }
  if (outcome.kind == EventKind::StickStart) dg_dx.setZero();
}

libcont::Vector DropTest::default_initial_state() const {
  libcont::Vector x(2);
  x << h0_, 0.0;
  return x;
}

int DropTest::mode_of(double /*t*/, ConstVectorRef x) const {
  if (x[0] < 0.0 && !hard_) return Ground;
  if (hard_ && x[0] == 0.0 && x[1] == 0.0) return Ground;
  return Flight;
}

double DropTest::kinetic_energy(double, ConstVectorRef x) const { return 0.5 * m_ * x[1] * x[1]; }

double DropTest::relative_velocity(int, int, double, ConstVectorRef x) const { return x[1]; }

double DropTest::mechanical_energy(int mode, double, ConstVectorRef x) const {
  double e = 0.5 * m_ * x[1] * x[1] + m_ * g_ * x[0];
  if (mode == Ground && !hard_) e += contact_.stored_energy(-x[0]);
  return e;
}

double DropTest::dissipated_power(int mode, double, ConstVectorRef x) const {
  return (mode == Ground && !hard_) ? contact_.dissipated_power(-x[0], -x[1]) : 0.0;
}

double DropTest::contact_force(int mode, double, ConstVectorRef x) const {
  return (mode == Ground && !hard_) ? contact_.force(-x[0], -x[1]) : 0.0;
}

double DropTest::penetration(int mode, double, ConstVectorRef x) const {
  return (mode == Ground && !hard_) ? -x[0] : 0.0;
}

}  // namespace systems
