// A user-written model, the one shown in doc/library.md (keep the two in step): a ball
// bouncing on a sinusoidally vibrating table, with chattering ending in sticking.
//
//   y'' = -g                    in flight (mode 0), table at s(t) = A sin(omega t)
//   v+ = s' - r (v- - s')       when the gap y - s(t) falls through zero
//   y = s(t)                    while stuck on the table (mode 1), released when the
//                               table's downward acceleration exceeds g
//
//   cmake --build build --target example_user_model && build/example_user_model
#include <cmath>
#include <cstdio>
#include <numbers>

#include "libcont/autodiff_system.hpp"
#include "libcont/impact_measures.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "libcont/newton_restitution.hpp"

using namespace libcont;

// AutoDiffSystem gives D_x f and is the model's AnalyticJacobians (the event gradient and
// reset Jacobian below join it); ImpactMeasures feed the impact statistics.
class BouncingBall : public AutoDiffSystem<BouncingBall>, public ImpactMeasures {
 public:
  enum Mode { Flight = 0, Stuck = 1 };

  BouncingBall() {
    parameters_.add("g", 9.81, Constraint::Positive, "gravitational acceleration");
    parameters_.add("A", 0.01, Constraint::NonNegative, "table amplitude");
    parameters_.add("omega", 2.0 * std::numbers::pi * 5.0, Constraint::Positive,
                    "table circular frequency");
    parameters_.add("r", 0.5, Constraint::UnitInterval, "restitution coefficient");
    parameters_.add("stick_velocity", 1e-6, Constraint::NonNegative,
                    "relative rebound speed below which the ball sticks");
    configure();
  }
  void configure() override {
    g_ = parameters_["g"];
    a_ = parameters_["A"];
    w_ = parameters_["omega"];
    law_ = NewtonRestitution(parameters_["r"], parameters_["stick_velocity"]);  // validates
  }

  std::string name() const override { return "bouncing-ball"; }
  std::vector<std::string> state_names() const override { return {"y", "v"}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override { return mode == Flight ? "flight" : "stuck"; }
  double forcing_period() const override { return 2.0 * std::numbers::pi / w_; }

  // The vector field, written once for double and for AutoDiff scalars.
  template <class S>
  void field(int mode, double t, const Eigen::Matrix<S, -1, 1>& x,
             Eigen::Matrix<S, -1, 1>& dxdt) const {
    dxdt[0] = x[1];
    dxdt[1] = S(mode == Flight ? -g_ : table_acceleration(t));
  }

  // One event per mode: the impact in flight, the release when stuck.
  int event_count(int /*mode*/) const override { return 1; }
  EventSpec event_spec(int mode, int /*event*/) const override {
    if (mode == Flight) return {"impact", EventDirection::Falling, EventKind::Impact};
    return {"release", EventDirection::Falling, EventKind::StickEnd};
  }
  double event_function(int mode, int /*event*/, double t, ConstVectorRef x) const override {
    if (mode == Flight) return x[0] - table_position(t);  // gap
    return g_ + table_acceleration(t);                    // holding force per unit mass
  }
  bool event_gradient(int mode, int /*event*/, double t, ConstVectorRef /*x*/,
                      VectorRef dh_dx, double& dh_dt) const override {
    if (mode == Flight) {
      dh_dx << 1.0, 0.0;
      dh_dt = -table_velocity(t);
    } else {
      dh_dx << 0.0, 0.0;
      dh_dt = -a_ * w_ * w_ * w_ * std::cos(w_ * t);
    }
    return true;
  }

  EventOutcome apply_event(int mode, int /*event*/, double t, VectorRef x) const override {
    const double vb = table_velocity(t);
    x[0] = table_position(t);  // on the table, exactly
    if (mode == Stuck) {
      x[1] = vb;
      return {Flight, EventKind::StickEnd, false};
    }
    if (law_.sticks(std::abs(x[1] - vb), g_ + table_acceleration(t))) {
      x[1] = vb;  // end of a chattering sequence
      return {Stuck, EventKind::StickStart, false};
    }
    x[1] = law_.rebound_velocity(x[1], vb);
    return {Flight, EventKind::Impact, false};
  }
  bool reset_jacobian(int /*mode*/, int /*event*/, const EventOutcome& outcome, double t,
                      ConstVectorRef /*x_minus*/, MatrixRef dg_dx,
                      VectorRef dg_dt) const override {
    // Every reset puts y+ = s(t); the impact sets v+ = (1 + r) s'(t) - r v-, the others
    // v+ = s'(t).
    dg_dx.setZero();
    dg_dt << table_velocity(t), table_acceleration(t);
    if (outcome.kind == EventKind::Impact) {
      dg_dx(1, 1) = -law_.r;
      dg_dt[1] *= 1.0 + law_.r;
    }
    return true;
  }

  Vector default_initial_state() const override {
    Vector x(2);
    x << 0.05, 0.0;  // dropped from 5 cm
    return x;
  }
  const ImpactMeasures* impact_measures() const override { return this; }
  double kinetic_energy(double /*t*/, ConstVectorRef x) const override {
    return 0.5 * x[1] * x[1];  // per unit mass
  }
  double relative_velocity(int /*mode*/, int /*event*/, double t,
                           ConstVectorRef x) const override {
    return x[1] - table_velocity(t);
  }

 private:
  double table_position(double t) const { return a_ * std::sin(w_ * t); }
  double table_velocity(double t) const { return a_ * w_ * std::cos(w_ * t); }
  double table_acceleration(double t) const { return -a_ * w_ * w_ * std::sin(w_ * t); }

  double g_ = 9.81, a_ = 0.01, w_ = 10.0 * std::numbers::pi;
  NewtonRestitution law_{0.5};
};

int main() {
  BouncingBall ball;
  ball.set_parameter("A", 0.012);  // Gamma = A omega^2 / g = 1.21
  const double g = 9.81, r = 0.5, omega = ball.parameters()["omega"];
  const double period = ball.forcing_period();

  // Two starts, two attractors: a launch onto the one-bounce-per-period orbit (table
  // velocity at impact g T (1 - r) / (2 (1 + r)), launch speed g T / 2), and a drop from
  // 5 cm that ends in chattering and sticking once per period.
  const double phase = std::acos(g * period * (1.0 - r) / (2.0 * (1.0 + r)) /
                                 (ball.parameters()["A"] * omega));
  Vector launch(2);
  launch << ball.parameters()["A"] * std::sin(phase) + 1e-12, g * period / 2.0;
  struct Start {
    const char* name;
    double t0;
    Vector x0;
  };
  for (const Start& start : {Start{"launch", phase / omega, launch},
                             Start{"drop", 0.0, ball.default_initial_state()}}) {
    LyapunovOptions options;
    options.transient_periods = 500;
    options.periods = 2000;
    const LyapunovResult result = LyapunovSpectrum(ball, options).compute(start.t0, start.x0);
    if (!result.ok()) {
      std::printf("%s: %s %s\n", start.name, to_string(result.report.status).c_str(),
                  result.report.message.c_str());
      continue;
    }
    // No damping in flight: each impact multiplies phase volume by det S = r^2, so the
    // exponent sum is 2 ln r times the impact rate (-inf once the ball has stuck).
    const double rate = result.impacts.impacts / result.averaging_time;
    std::printf("%-6s z = %d/%d  a_i = %.3f  exponents %.9f %.9f  sum %.12f  "
                "2 ln(r) impacts/time %.12f\n",
                start.name, result.p, result.n, result.impacts_per_period, result.exponents[0],
                result.exponents[1], result.exponent_sum, 2.0 * std::log(r) * rate);
  }
}
