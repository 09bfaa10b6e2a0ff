#include "systems/oscillator_chain.hpp"

#include <cmath>
#include <numbers>

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventDirection;
using libcont::EventKind;
using libcont::EventOutcome;

namespace systems {

OscillatorChain::OscillatorChain() {
  auto& p = parameters_;
  p.add("N", 100.0, Constraint::Positive, "number of masses (integer)");
  p.add("m", 1.0, Constraint::Positive, "mass of each oscillator");
  p.add("k", 1.0, Constraint::Positive, "coupling stiffness");
  p.add("c", 0.05, Constraint::NonNegative, "damping of each mass");
  p.add("F0", 1.0, Constraint::Any, "force amplitude on the first mass");
  p.add("omega", 0.5, Constraint::Positive, "forcing circular frequency");
  p.add("d", 1.0, Constraint::Any, "distance of the stop from the last mass at rest");
  p.add("r", 0.8, Constraint::UnitInterval, "restitution coefficient at the stop");
  p.add("stick_velocity", 1e-9, Constraint::NonNegative,
        "rebound speed below which the last mass is held at the stop");
  configure();
}

void OscillatorChain::configure() {
  const auto& p = parameters_;
  const double n = p["N"];
  if (n != std::floor(n) || n < 1.0 || n > 100000.0)
    throw libcont::InputError("parameter 'N' must be a whole number of masses in [1, 100000]");
  count_ = static_cast<int>(n);
  m_ = p["m"];
  k_ = p["k"];
  c_ = p["c"];
  f0_ = p["F0"];
  omega_ = p["omega"];
  d_ = p["d"];
  law_ = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
}

std::vector<std::string> OscillatorChain::state_names() const {
  std::vector<std::string> names;
  for (int i = 1; i <= count_; ++i) names.push_back("x" + std::to_string(i));
  for (int i = 1; i <= count_; ++i) names.push_back("v" + std::to_string(i));
  return names;
}

double OscillatorChain::forcing_period() const { return 2.0 * std::numbers::pi / omega_; }

double OscillatorChain::force(int i, double t, ConstVectorRef x) const {
  const double left = i > 0 ? x[i - 1] : 0.0;  // the first mass is tied to the wall
  double f = -k_ * (x[i] - left) - c_ * x[count_ + i];
  if (i + 1 < count_) f -= k_ * (x[i] - x[i + 1]);
  if (i == 0) f += f0_ * std::cos(omega_ * t);
  return f;
}

void OscillatorChain::vector_field(int mode, double t, ConstVectorRef x,
                                   libcont::VectorRef dxdt) const {
  const int n = count_;
  for (int i = 0; i < n; ++i) {
    dxdt[i] = x[n + i];
    dxdt[n + i] = force(i, t, x) / m_;
  }
  if (mode == Held) dxdt[n - 1] = dxdt[2 * n - 1] = 0.0;
}

void OscillatorChain::state_jacobian(int mode, double, ConstVectorRef, libcont::MatrixRef jac) const {
  const int n = count_;
  jac.setZero();
  for (int i = 0; i < n; ++i) {
    jac(i, n + i) = 1.0;
    const double springs = (i + 1 < n) ? 2.0 : 1.0;
    jac(n + i, i) = -springs * k_ / m_;
    if (i > 0) jac(n + i, i - 1) = k_ / m_;
    if (i + 1 < n) jac(n + i, i + 1) = k_ / m_;
    jac(n + i, n + i) = -c_ / m_;
  }
  if (mode == Held) {
    jac.row(n - 1).setZero();
    jac.row(2 * n - 1).setZero();
  }
}

libcont::EventSpec OscillatorChain::event_spec(int mode, int) const {
  return mode == Free ? libcont::EventSpec{"impact", EventDirection::Falling, EventKind::Impact}
                      : libcont::EventSpec{"release", EventDirection::Falling, EventKind::StickEnd};
}

double OscillatorChain::event_function(int mode, int, double t, ConstVectorRef x) const {
  if (mode == Held) return force(count_ - 1, t, x);  // pushes into the stop while > 0
  return d_ - x[count_ - 1];
}

void OscillatorChain::event_gradient(int mode, int, double t, ConstVectorRef, libcont::VectorRef dh_dx,
                                     double& dh_dt) const {
  const int n = count_;
  dh_dx.setZero();
  dh_dt = 0.0;
  if (mode == Free) {
    dh_dx[n - 1] = -1.0;
    return;
  }
  dh_dx[n - 1] = -k_;
  if (n > 1) dh_dx[n - 2] = k_;
  dh_dx[2 * n - 1] = -c_;
  if (n == 1) dh_dt = -f0_ * omega_ * std::sin(omega_ * t);
}

EventOutcome OscillatorChain::apply_event(int mode, int, double t, libcont::VectorRef x) const {
  const int n = count_;
  if (mode == Held) return EventOutcome{Free, EventKind::StickEnd, false};
  x[n - 1] = d_;  // exactly at the stop (a rounding-level correction)
  if (law_.sticks(std::abs(x[2 * n - 1]), force(n - 1, t, x) / m_)) {
    x[2 * n - 1] = 0.0;
    return EventOutcome{Held, EventKind::StickStart, false};
  }
  x[2 * n - 1] = law_.rebound_velocity(x[2 * n - 1], 0.0);
  return EventOutcome{Free, EventKind::Impact, false};
}

void OscillatorChain::reset_jacobian(int, int, const EventOutcome& outcome, double, ConstVectorRef,
                                     libcont::MatrixRef dg_dx, libcont::VectorRef dg_dt) const {
  const int n = count_;
  dg_dx.setIdentity();
  dg_dt.setZero();
  if (outcome.kind == EventKind::StickEnd) return;
  dg_dx(n - 1, n - 1) = 0.0;  // x_N+ = d
  dg_dx(2 * n - 1, 2 * n - 1) = outcome.kind == EventKind::Impact ? -law_.r : 0.0;
}

double OscillatorChain::kinetic_energy(double, ConstVectorRef x) const {
  return 0.5 * m_ * x[2 * count_ - 1] * x[2 * count_ - 1];
}

double OscillatorChain::relative_velocity(int, int, double, ConstVectorRef x) const {
  return -x[2 * count_ - 1];  // rate of the gap d - x_N
}

}  // namespace systems
