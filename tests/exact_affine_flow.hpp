#pragma once
// An integrator-free reference for hybrid systems whose modes are all autonomous and
// affine, x' = A_i x + b_i (the rheological dampers: every regime is affine): inside a
// mode the flow is exact, x(t) = first n rows of exp(M_i t) (x, 1) with
// M_i = [[A_i, b_i], [0, 0]], and the events are found on that exact solution (scan with
// a fixed step, then bisection to rounding). The model's own events, directions and
// resets are used, so the reference shares the model but not the integrator: what CVODE
// gets wrong, this does not.
#include <cmath>
#include <stdexcept>
#include <vector>

#include <unsupported/Eigen/MatrixFunctions>

#include "libcont/hybrid_system.hpp"
#include "libcont/jacobians.hpp"

namespace test_support {

struct ExactEvent {
  double t = 0.0;
  int event = -1;
  int mode_before = 0;
  int mode_after = 0;
  libcont::EventKind kind = libcont::EventKind::ModeSwitch;
  libcont::Vector x;  // at the event (no jumps in these systems: x- = x+ up to the reset)
};

class ExactAffineFlow {
 public:
  // scan_step must be shorter than any excursion across an event surface and back.
  ExactAffineFlow(const libcont::HybridSystem& system, double scan_step)
      : system_(system), n_(system.dimension()), scan_step_(scan_step) {}

  // Integrates from (t, x, mode) to t_end, appending the events; updates t, x and mode.
  void advance(double& t, libcont::Vector& x, int& mode, double t_end,
               std::vector<ExactEvent>& events) const {
    int due_rounds = 0;
    while (t < t_end) {
      const libcont::Matrix generator = affine_generator(mode);
      const libcont::Matrix step_map = (generator * scan_step_).exp();
      // A surface the state sits on (it was just put there by a switch) counts as crossed
      // only if the motion goes through it in the event's direction: then it is due now.
      const int due = due_event(t, x, mode);
      if (due >= 0) {
        if (++due_rounds > 64) throw std::runtime_error("exact flow: event storm");
        fire(due, t, x, mode, events);
        continue;
      }
      due_rounds = 0;
      std::vector<double> before = start_values(t, x, mode);
      double tau = 0.0;  // time since the start of this mode
      const libcont::Vector start = x;
      libcont::Vector lifted = lift(x);
      int found = -1;
      while (found < 0 && t + tau < t_end) {
        const double step = std::min(scan_step_, t_end - (t + tau));
        const libcont::Vector next =
            step == scan_step_ ? libcont::Vector(step_map * lifted) : exact(generator, lifted, step);
        // Every event that crosses within this step is located; the earliest one fires
        // (two surfaces can be crossed within one scan step, e.g. the slider's yield
        // surface just before separation).
        // A crossing that goes and comes back within the step shows at the function's
        // turning point in between, so the crossing is looked for up to there.
        double earliest = tau + step;
        for (int j = 0; j < static_cast<int>(before.size()); ++j) {
          const double after = system_.event_function(mode, j, t + tau + step, next.head(n_));
          double end = tau + step;
          if (!crosses(system_.event_spec(mode, j).direction, before[j], after)) {
            end = turning_point(mode, j, t, start, generator, tau, tau + step,
                                lifted.head(n_), next.head(n_));
            const libcont::Vector xe = exact(generator, lift(start), end).head(n_);
            if (!crosses(system_.event_spec(mode, j).direction, before[j],
                         system_.event_function(mode, j, t + end, xe))) {
              before[j] = after;
              continue;
            }
          }
          const double at = locate(mode, j, t, start, generator, before[j], tau, end);
          if (found < 0 || at < earliest) {
            found = j;
            earliest = at;
          }
        }
        if (found < 0) {
          tau += step;
          lifted = next;
          continue;
        }
        tau = earliest;
        lifted = exact(generator, lift(start), tau);
      }
      t += tau;
      x = lifted.head(n_);
      if (found >= 0) fire(found, t, x, mode, events);
      if (found < 0) t = t_end;
    }
  }

 private:
  // Bisection on the exact solution from the mode's start (no accumulated steps): the
  // first time after which event j's function has crossed, to rounding.
  double locate(int mode, int j, double t0, const libcont::Vector& start,
                const libcont::Matrix& generator, double h_before, double lo, double hi) const {
    const auto direction = system_.event_spec(mode, j).direction;
    for (int i = 0; i < 200 && hi - lo > 2e-16 * (t0 + hi); ++i) {
      const double mid = 0.5 * (lo + hi);
      const libcont::Vector xm = exact(generator, lift(start), mid).head(n_);
      (crosses(direction, h_before, system_.event_function(mode, j, t0 + mid, xm)) ? hi : lo) = mid;
    }
    return hi;
  }
  // The time of a turning point of event j's function towards its surface (a maximum
  // before a rising crossing, a minimum before a falling one) within (lo, hi), or hi.
  // x_lo and x_hi are the states at lo and hi.
  double turning_point(int mode, int j, double t0, const libcont::Vector& start,
                       const libcont::Matrix& generator, double lo, double hi,
                       const libcont::Vector& x_lo, const libcont::Vector& x_hi) const {
    const double toward = static_cast<double>(system_.event_spec(mode, j).direction);
    if (!(toward * rate(mode, j, t0 + lo, x_lo) > 0.0 && toward * rate(mode, j, t0 + hi, x_hi) < 0.0))
      return hi;
    const auto rate_at = [&](double tau) {
      return toward * rate(mode, j, t0 + tau, exact(generator, lift(start), tau).head(n_));
    };
    for (int i = 0; i < 200 && hi - lo > 2e-16 * (t0 + hi); ++i) {
      const double mid = 0.5 * (lo + hi);
      (rate_at(mid) > 0.0 ? lo : hi) = mid;
    }
    return hi;
  }
  libcont::Matrix affine_generator(int mode) const {
    libcont::Matrix m = libcont::Matrix::Zero(n_ + 1, n_ + 1);
    const libcont::Vector zero = libcont::Vector::Zero(n_);
    libcont::Vector offset(n_);
    system_.vector_field(mode, 0.0, zero, offset);
    libcont::Matrix a(n_, n_);
    libcont::state_jacobian(system_, mode, 0.0, zero, a);
    m.topLeftCorner(n_, n_) = a;
    m.topRightCorner(n_, 1) = offset;
    return m;
  }
  libcont::Vector lift(const libcont::Vector& x) const {
    libcont::Vector y(n_ + 1);
    y << x, 1.0;
    return y;
  }
  static libcont::Vector exact(const libcont::Matrix& generator, const libcont::Vector& lifted,
                               double time) {
    return (generator * time).exp() * lifted;
  }
  static bool crosses(libcont::EventDirection direction, double before, double after) {
    switch (direction) {
      case libcont::EventDirection::Falling: return before > 0.0 && after <= 0.0;
      case libcont::EventDirection::Rising: return before < 0.0 && after >= 0.0;
      case libcont::EventDirection::Either: return (before > 0.0) != (after > 0.0);
    }
    return false;
  }
  double rate(int mode, int j, double t, const libcont::Vector& x) const {
    libcont::Vector f(n_), gradient(n_);
    double dh_dt = 0.0;
    system_.vector_field(mode, t, x, f);
    libcont::event_gradient(system_, mode, j, t, x, gradient, dh_dt);
    return gradient.dot(f) + dh_dt;
  }
  // On an event surface to rounding: |h| small against the terms h is made of.
  bool on_surface(int mode, int j, double t, const libcont::Vector& x) const {
    libcont::Vector gradient(n_);
    double dh_dt = 0.0;
    libcont::event_gradient(system_, mode, j, t, x, gradient, dh_dt);
    const double scale = gradient.cwiseProduct(x).cwiseAbs().sum() + 1.0;
    return std::abs(system_.event_function(mode, j, t, x)) < 1e-12 * scale;
  }
  int due_event(double t, const libcont::Vector& x, int mode) const {
    for (int j = 0; j < system_.event_count(mode); ++j) {
      if (!on_surface(mode, j, t, x)) continue;
      const double r = rate(mode, j, t, x);
      const auto direction = system_.event_spec(mode, j).direction;
      if ((direction == libcont::EventDirection::Falling && r < 0.0) ||
          (direction == libcont::EventDirection::Rising && r > 0.0))
        return j;
    }
    return -1;
  }
  // Event values at a mode's start; a value on the surface takes the side the motion
  // leaves it to (so that only a later return counts as a crossing).
  std::vector<double> start_values(double t, const libcont::Vector& x, int mode) const {
    std::vector<double> values;
    for (int j = 0; j < system_.event_count(mode); ++j) {
      const double h = system_.event_function(mode, j, t, x);
      values.push_back(on_surface(mode, j, t, x) ? std::copysign(1e-300, rate(mode, j, t, x)) : h);
    }
    return values;
  }
  void fire(int j, double t, libcont::Vector& x, int& mode, std::vector<ExactEvent>& events) const {
    const libcont::EventOutcome outcome = system_.apply_event(mode, j, t, x);
    events.push_back({t, j, mode, outcome.next_mode, outcome.kind, x});
    mode = outcome.next_mode;
  }

  const libcont::HybridSystem& system_;
  int n_;
  double scan_step_;
};

}  // namespace test_support
