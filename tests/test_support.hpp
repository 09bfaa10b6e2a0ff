#pragma once
// Shared helpers of the libcont test suite: building configured systems, recording what a
// trajectory does, stroboscopic (period) maps and their finite-difference Jacobians.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <functional>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/integrator_hints.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/saltation.hpp"
#include "libcont/types.hpp"

namespace test_support {

using libcont::EventKind;
using libcont::EventRecord;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowReport;
using libcont::FlowState;
using libcont::HybridSystem;
using libcont::Matrix;
using libcont::Vector;

// Parameter assignments as text, exactly as a user would give them (--set name=value).
using Settings = std::vector<std::pair<std::string, std::string>>;

// A model of type System with its defaults overridden by `settings`.
template <class System>
System make_system(const Settings& settings) {
  System system;
  for (const auto& [name, value] : settings) system.set_parameter_text(name, value);
  return system;
}

inline Vector vec2(double a, double b) {
  Vector v(2);
  v << a, b;
  return v;
}

inline Matrix mat2(double a, double b, double c, double d) {
  Matrix m(2, 2);
  m << a, b, c, d;
  return m;
}

// CPU time of the process, for the costs some tests print (never asserted).
inline double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// A branch's special points as " type@lambda ...", for the messages of failed checks.
template <class Branch>
std::string special_points_text(const Branch& branch) {
  std::ostringstream out;
  out << std::setprecision(10);
  for (const auto& s : branch.special_points) out << ' ' << s.type_name() << '@' << s.lambda;
  return out.str();
}

// Integration tolerances for derivative checks of period maps. Finite differences with a
// step h amplify the integration error e of the map to e / h. BDF in the stiff soft
// contact (k_s = 2e5) leaves e ~ 3e-13 m at rtol 1e-12 (measured: the soft r = 0.8 case
// then scatters by ~1e-6 for h = 2.5e-7 m); rtol 1e-13 brings e to ~1e-14 m. (atol 1e-16
// is too tight: CVODE's error test then fails at contact starts.)
inline FlowOptions tight_options() {
  FlowOptions o;
  o.relative_tolerance = 1e-13;
  o.absolute_tolerance = 1e-15;
  o.tangent_absolute_tolerance = 1e-12;
  return o;
}

// Records every event and every sample of a trajectory.
struct Recorder : libcont::FlowObserver {
  struct Sample {
    double t;
    Vector x;
    int mode;
  };
  std::vector<EventRecord> events;
  std::vector<Sample> samples;
  void on_event(const EventRecord& e) override { events.push_back(e); }
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
    samples.push_back({t, Vector(x), mode});
  }
  long count(EventKind kind) const {
    long n = 0;
    for (const auto& e : events) n += e.kind == kind;
    return n;
  }
  std::vector<const EventRecord*> of_kind(EventKind kind) const {
    std::vector<const EventRecord*> out;
    for (const auto& e : events)
      if (e.kind == kind) out.push_back(&e);
    return out;
  }
};

// The state at t0 + periods * T after starting from x0 at t0, integrated without tangent.
inline FlowState settle(const HybridSystem& system, double t0, const Vector& x0, int periods,
                        const FlowOptions& options = {}) {
  FlowOptions plain = options;
  plain.tangent = false;
  Flow flow(system, plain);
  FlowState state = flow.initial_state(t0, x0);
  const FlowReport report = flow.advance(state, t0 + periods * system.forcing_period());
  if (!report.ok()) throw std::runtime_error("settle: " + report.message);
  return state;
}

// The map x(t0) -> x(t0 + duration), optionally with its saltation-corrected Jacobian and
// the events on the way. The mode at t0 is the one consistent with x (mode_of), as for a
// Poincare section that lies in free flight.
struct MapResult {
  Vector x;
  Matrix jacobian;  // empty unless asked for
  Recorder events;
  FlowReport report;
};

inline MapResult flow_map(const HybridSystem& system, const FlowOptions& options, double t0,
                          const Vector& x0, double duration, bool with_jacobian) {
  FlowOptions o = options;
  o.tangent = with_jacobian;
  Flow flow(system, o);
  FlowState state = flow.initial_state(t0, x0);
  MapResult result;
  result.report = flow.advance(state, t0 + duration, &result.events);
  result.x = state.x;
  if (with_jacobian) result.jacobian = state.tangent;
  return result;
}

// Central finite differences of a map R^n -> R^m (m from the map's values), step steps[j]
// in column j.
inline Matrix central_differences(const std::function<Vector(const Vector&)>& map,
                                  const Vector& x, const Vector& steps) {
  const Eigen::Index n = x.size();
  Matrix jac;
  for (Eigen::Index j = 0; j < n; ++j) {
    Vector up = x, down = x;
    up[j] += steps[j];
    down[j] -= steps[j];
    const Vector column = (map(up) - map(down)) / (2.0 * steps[j]);
    if (j == 0) jac.resize(column.size(), n);
    jac.col(j) = column;
  }
  return jac;
}

// Fourth-order central differences (-f(2h) + 8 f(h) - 8 f(-h) + f(-2h)) / (12 h), step h
// per column: truncation O(h^4) lets h stay large enough that the integration error e of
// the map, amplified to e / h, stays small.
inline Matrix fourth_order_differences(const std::function<Vector(const Vector&)>& map,
                                       const Vector& x, const Vector& steps) {
  const Eigen::Index n = x.size();
  Matrix jac(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const auto at = [&](double offset) {
      Vector y = x;
      y[j] += offset;
      return map(y);
    };
    const double h = steps[j];
    jac.col(j) = (8.0 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12.0 * h);
  }
  return jac;
}

inline double relative_error(const Matrix& value, const Matrix& reference) {
  return (value - reference).norm() / reference.norm();
}

// Forwards everything to a wrapped system but removes the event-time correction from its
// saltation matrices, to show that the correction matters. Every event is still located,
// classified and applied exactly as by the wrapped system; only the reset derivative is
// altered: D_t g is replaced by f+ - D_x g f-, which makes the correction term
// (f+ - D_x g f- - D_t g) (D_x h)^T / (D_x h f- + D_t h) vanish, so S = D_x g (the naive
// "differentiate the reset only" monodromy). With identity_reset also D_x g = I: S = I.
class WithoutSaltation : public HybridSystem, public libcont::AnalyticJacobians {
 public:
  WithoutSaltation(const HybridSystem& inner, bool identity_reset)
      : inner_(inner), jacobians_(inner), identity_reset_(identity_reset) {}
  std::string name() const override { return inner_.name(); }
  std::vector<std::string> state_names() const override { return inner_.state_names(); }
  int mode_count() const override { return inner_.mode_count(); }
  std::string mode_name(int mode) const override { return inner_.mode_name(mode); }
  const libcont::IntegratorHints* integrator_hints() const override {
    return inner_.integrator_hints();
  }
  double forcing_period() const override { return inner_.forcing_period(); }
  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override {
    inner_.vector_field(mode, t, x, dxdt);
  }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  bool state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override {
    jacobians_.state_jacobian(mode, t, x, jac);
    return true;
  }
  int event_count(int mode) const override { return inner_.event_count(mode); }
  libcont::EventSpec event_spec(int mode, int event) const override {
    return inner_.event_spec(mode, event);
  }
  double event_function(int mode, int event, double t,
                        libcont::ConstVectorRef x) const override {
    return inner_.event_function(mode, event, t, x);
  }
  bool event_gradient(int mode, int event, double t, libcont::ConstVectorRef x,
                      libcont::VectorRef dh_dx, double& dh_dt) const override {
    jacobians_.event_gradient(mode, event, t, x, dh_dx, dh_dt);
    return true;
  }
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override {
    return inner_.apply_event(mode, event, t, x);
  }
  bool reset_jacobian(int mode, int event, const libcont::EventOutcome& outcome, double t,
                      libcont::ConstVectorRef x_minus, libcont::MatrixRef dg_dx,
                      libcont::VectorRef dg_dt) const override {
    jacobians_.reset_jacobian(mode, event, outcome, t, x_minus, dg_dx, dg_dt);
    if (identity_reset_) dg_dx.setIdentity();
    Vector x_plus = x_minus;
    inner_.apply_event(mode, event, t, x_plus);
    Vector f_minus(x_minus.size()), f_plus(x_minus.size());
    inner_.vector_field(mode, t, x_minus, f_minus);
    inner_.vector_field(outcome.next_mode, t, x_plus, f_plus);
    dg_dt = f_plus - dg_dx * f_minus;
    return true;
  }
  int mode_of(double t, libcont::ConstVectorRef x) const override { return inner_.mode_of(t, x); }

 private:
  const HybridSystem& inner_;
  libcont::ModelJacobians jacobians_;
  bool identity_reset_;
};

// The polynomial through the `count` points (x_i, y_i) nearest to `at` in x, evaluated at
// `at` (Neville's scheme); NaN where `at` lies outside the points' span or there are fewer
// than `count`. For reading a traced curve between its rows.
inline double interpolate_nearest(const std::vector<double>& x, const std::vector<double>& y,
                                  double at, size_t count) {
  if (x.size() != y.size() || x.size() < count || count == 0) return NAN;
  const auto [lowest, highest] = std::minmax_element(x.begin(), x.end());
  if (!(at >= *lowest && at <= *highest)) return NAN;
  std::vector<size_t> order(x.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(count), order.end(),
                    [&](size_t i, size_t j) { return std::abs(x[i] - at) < std::abs(x[j] - at); });
  std::vector<double> xs, p;
  for (size_t k = 0; k < count; ++k) {
    xs.push_back(x[order[k]]);
    p.push_back(y[order[k]]);
  }
  // p[i] becomes the polynomial through points i .. i + level, at `at`.
  for (size_t level = 1; level < count; ++level)
    for (size_t i = 0; i + level < count; ++i)
      p[i] = ((at - xs[i + level]) * p[i] + (xs[i] - at) * p[i + 1]) / (xs[i] - xs[i + level]);
  return p[0];
}

}  // namespace test_support
