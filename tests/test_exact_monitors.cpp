// The flow's monitors (FlowOptions::extremum_coordinates, gap_minima) on the exact path
// of affine modes (exact_segment.cpp): closed forms (a damped free oscillator; two
// extrema inside one scan step), the general CVODE path on the moving-base oscillator and
// the two-body system (Hertz and Newton contact), the measures of stroboscopic maps and
// of periodic orbits on both paths, and the time order of everything an observer sees.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "libcont/affine_modes.hpp"
#include "libcont/flow.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "systems/two_body.hpp"
#include "moving_base_cases.hpp"
#include "test_support.hpp"

using libcont::AffineMode;
using libcont::ConstVectorRef;
using libcont::EventDirection;
using libcont::EventKind;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowReport;
using libcont::FlowState;
using libcont::FlowStatus;
using libcont::Matrix;
using libcont::Vector;
using namespace test_support;

namespace {

// Everything an observer is told, with a check that it comes in time order.
struct MonitorRecorder : libcont::FlowObserver {
  struct Root {
    bool extremum;  // else a gap minimum
    int index;      // coordinate or event
    double t;
    Vector x;
    double gap;
    int mode;
  };
  std::vector<Root> roots;
  int samples = 0, events = 0;
  double last_time = -INFINITY;
  bool in_order = true;

  void see(double t) {
    in_order = in_order && t >= last_time;
    last_time = t;
  }
  void on_event(const libcont::EventRecord& e) override {
    see(e.t);
    ++events;
  }
  void on_sample(double t, ConstVectorRef, int) override {
    see(t);
    ++samples;
  }
  void on_extremum(int i, double t, ConstVectorRef x, int mode) override {
    see(t);
    roots.push_back({true, i, t, Vector(x), 0.0, mode});
  }
  void on_gap_minimum(int j, double t, double gap, ConstVectorRef x, int mode) override {
    see(t);
    roots.push_back({false, j, t, Vector(x), gap, mode});
  }
  std::vector<Root> of(bool extremum, int index) const {
    std::vector<Root> out;
    for (const Root& r : roots)
      if (r.extremum == extremum && r.index == index) out.push_back(r);
    return out;
  }
};

struct Monitored {
  MonitorRecorder recorder;
  FlowReport report;
  Vector x;
};

FlowOptions monitoring(FlowOptions o, std::vector<int> coordinates, bool exact) {
  o.extremum_coordinates = std::move(coordinates);
  o.gap_minima = true;
  o.exact_linear_modes = exact;
  return o;
}

Monitored run(const libcont::HybridSystem& system, const FlowOptions& options, double t0,
              const Vector& x0, double duration, double sample_step = 0.0) {
  Flow flow(system, options);
  FlowState state = flow.initial_state(t0, x0);
  Monitored m;
  m.report = flow.advance(state, t0 + duration, &m.recorder, {t0, sample_step});
  m.x = state.x;
  return m;
}

// Minimum gaps agree: both infinite (no minimum between impacts), or close.
bool same_gap(double a, double b, double tolerance) {
  return a == b || std::abs(a - b) <= tolerance;
}

// The largest differences between the monitors' roots of two runs, root by root.
struct RootDifferences {
  double time = 0.0, value = 0.0;  // value: x_i at an extremum, the gap at a gap minimum
};

RootDifferences compare_roots(const MonitorRecorder& a, const MonitorRecorder& b,
                              const std::vector<int>& coordinates, int events) {
  RootDifferences d;
  const auto compare = [&](bool extremum, int index) {
    const auto ra = a.of(extremum, index), rb = b.of(extremum, index);
    INFO((extremum ? "extrema of x_" : "gap minima of event ") << index);
    REQUIRE(ra.size() == rb.size());
    for (size_t k = 0; k < ra.size(); ++k) {
      d.time = std::max(d.time, std::abs(ra[k].t - rb[k].t));
      const double value = extremum ? ra[k].x[index] - rb[k].x[index] : ra[k].gap - rb[k].gap;
      d.value = std::max(d.value, std::abs(value));
    }
  };
  for (const int i : coordinates) compare(true, i);
  for (int j = 0; j < events; ++j) compare(false, j);
  return d;
}

// How far in time each root reported in an affine mode lies from the root of the exact
// solution through its state: |g / g'| for the monitor's function g (x_i' for an extremum,
// the gap's rate for a gap minimum), both from the mode's affine data.
double largest_time_residual(const libcont::HybridSystem& system, const MonitorRecorder& recorder) {
  const libcont::AffineModes* affine = system.affine_modes();
  REQUIRE(affine);
  double largest = 0.0;
  const int n = system.dimension();
  AffineMode data;
  data.A.resize(n, n);
  data.b0.resize(n);
  data.b_cos.resize(n);
  data.b_sin.resize(n);
  Vector c(n + 3);
  for (const auto& root : recorder.roots) {
    if (!affine->affine_mode(root.mode, data)) continue;
    const double w = data.frequency, cw = std::cos(w * root.t), sw = std::sin(w * root.t);
    const Vector f = data.A * root.x + data.b0 + data.b_cos * cw + data.b_sin * sw;
    const Vector df = data.A * f + w * (data.b_sin * cw - data.b_cos * sw);
    double g = 0.0, dg = 0.0;
    if (root.extremum) {
      g = f[root.index];
      dg = df[root.index];
    } else {
      REQUIRE(affine->affine_event(root.mode, root.index, c));  // h = c . (x, 1, cos, sin)
      g = c.head(n).dot(f) + w * (c[n + 2] * cw - c[n + 1] * sw);
      dg = c.head(n).dot(df) - w * w * (c[n + 1] * cw + c[n + 2] * sw);
    }
    largest = std::max(largest, std::abs(g / dg));
  }
  return largest;
}

// x'' + c x' + k x = 0 above a floor far below (a gap h = x - floor, an impact that never
// comes): the gap's minima are those of x. The gap may be declared affine or not.
class DampedOscillator : public libcont::HybridSystem,
                   public libcont::AffineModes,
                   public libcont::AnalyticJacobians {
 public:
  const libcont::AffineModes* affine_modes() const override { return this; }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  DampedOscillator(double k, double c, bool affine_gap) : k_(k), c_(c), affine_gap_(affine_gap) {}
  std::string name() const override { return "damped"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  void vector_field(int, double, ConstVectorRef x, libcont::VectorRef f) const override {
    f[0] = x[1];
    f[1] = -k_ * x[0] - c_ * x[1];
  }
  bool affine_mode(int, AffineMode& data) const override {
    data.A << 0.0, 1.0, -k_, -c_;
    data.b0.setZero();
    data.b_cos.setZero();
    data.b_sin.setZero();
    data.frequency = 0.0;
    return true;
  }
  int event_count(int) const override { return 1; }
  libcont::EventSpec event_spec(int, int) const override {
    return {"floor", EventDirection::Falling, EventKind::Impact};
  }
  double event_function(int, int, double, ConstVectorRef x) const override {
    return x[0] - kFloor;
  }
  bool affine_event(int, int, libcont::VectorRef coefficients) const override {
    if (!affine_gap_) return false;
    coefficients.setZero();
    coefficients[0] = 1.0;
    coefficients[2] = -kFloor;
    return true;
  }
  bool event_gradient(int, int, double, ConstVectorRef, libcont::VectorRef dh_dx,
                      double& dh_dt) const override {
    dh_dx << 1.0, 0.0;
    dh_dt = 0.0;
    return true;
  }
  static constexpr double kFloor = -10.0;

 private:
  double k_, c_;
  bool affine_gap_;
};

// x' = cos(t - t_m) - (1 - epsilon): x' dips through zero around t_m, at t_m -+ delta,
// delta = acos(1 - epsilon), a minimum and a maximum of x well inside one scan step (half
// a radian of the forcing). The same floor far below.
class DipSystem : public libcont::HybridSystem,
                   public libcont::AffineModes,
                   public libcont::AnalyticJacobians {
 public:
  const libcont::AffineModes* affine_modes() const override { return this; }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  DipSystem(double t_m, double epsilon) : t_m_(t_m), epsilon_(epsilon) {}
  std::string name() const override { return "dip"; }
  std::vector<std::string> state_names() const override { return {"x"}; }
  void vector_field(int, double t, ConstVectorRef, libcont::VectorRef f) const override {
    f[0] = std::cos(t - t_m_) - (1.0 - epsilon_);
  }
  bool affine_mode(int, AffineMode& data) const override {
    data.A.setZero();
    data.b0[0] = -(1.0 - epsilon_);
    data.b_cos[0] = std::cos(t_m_);
    data.b_sin[0] = std::sin(t_m_);
    data.frequency = 1.0;
    return true;
  }
  int event_count(int) const override { return 1; }
  libcont::EventSpec event_spec(int, int) const override {
    return {"floor", EventDirection::Falling, EventKind::Impact};
  }
  double event_function(int, int, double, ConstVectorRef x) const override {
    return x[0] - DampedOscillator::kFloor;
  }
  bool affine_event(int, int, libcont::VectorRef coefficients) const override {
    coefficients.setZero();
    coefficients[0] = 1.0;
    coefficients[1] = -DampedOscillator::kFloor;
    return true;
  }
  bool event_gradient(int, int, double, ConstVectorRef, libcont::VectorRef dh_dx,
                      double& dh_dt) const override {
    dh_dx << 1.0;
    dh_dt = 0.0;
    return true;
  }
  // The closed form from x(0) = 0.
  double position(double t) const {
    return std::sin(t - t_m_) + std::sin(t_m_) - (1.0 - epsilon_) * t;
  }

 private:
  double t_m_, epsilon_;
};


}  // namespace

TEST_CASE("Exact path monitors: a damped free oscillator's extrema at their closed-form times",
          "[exact-flow][monitors]") {
  // x = e^{-mu t} cos(nu t): x' = 0 where tan(nu t) = -mu / nu (minima for odd k),
  // v' = 0 where tan(nu t) = (nu^2 - mu^2) / (2 mu nu).
  const double k = 1.0, c = 0.3, mu = c / 2, nu = std::sqrt(k - mu * mu), duration = 20.0;
  const DampedOscillator system(k, c, true);
  const auto x_at = [&](double t) { return std::exp(-mu * t) * std::cos(nu * t); };
  const auto v_at = [&](double t) {
    return -std::exp(-mu * t) * (mu * std::cos(nu * t) + nu * std::sin(nu * t));
  };
  std::vector<double> x_extrema, v_extrema, minima;
  for (int j = 1; j < 10; ++j) {
    const double tx = (j * std::numbers::pi - std::atan(mu / nu)) / nu;
    if (tx < duration) x_extrema.push_back(tx);
    if (tx < duration && j % 2 == 1) minima.push_back(tx);
  }
  for (int j = 0; j < 10; ++j) {
    const double tv = (std::atan((nu * nu - mu * mu) / (2 * mu * nu)) + j * std::numbers::pi) / nu;
    if (tv < duration) v_extrema.push_back(tv);
  }
  const Monitored m =
      run(system, monitoring({}, {0, 1}, true), 0.0, vec2(1.0, -mu), duration, 0.37);
  REQUIRE(m.report.ok());
  CHECK(m.recorder.in_order);
  CHECK(m.report.steps == 40);  // the exact path: scan steps of 0.5 (|eigenvalues| = 1)
  const auto check = [&](const std::vector<MonitorRecorder::Root>& found,
                         const std::vector<double>& expected) {
    REQUIRE(found.size() == expected.size());
    for (size_t i = 0; i < found.size(); ++i) {
      INFO("root " << i << " at " << expected[i] << ": time error " << found[i].t - expected[i]
                    << ", state error " << found[i].x[0] - x_at(expected[i]) << ", "
                    << found[i].x[1] - v_at(expected[i]));
      CHECK(std::abs(found[i].t - expected[i]) <= 1e-14 * (1.0 + expected[i]));  // 4 eps t
      CHECK(std::abs(found[i].x[0] - x_at(expected[i])) <= 1e-14);  // measured 3e-15
      CHECK(std::abs(found[i].x[1] - v_at(expected[i])) <= 1e-14);
    }
  };
  check(m.recorder.of(true, 0), x_extrema);
  check(m.recorder.of(true, 1), v_extrema);
  const auto gaps = m.recorder.of(false, 0);
  check(gaps, minima);
  for (const auto& g : gaps) CHECK(g.gap == g.x[0] - DampedOscillator::kFloor);

  // A gap not declared affine: its rate is no linear function of the lifted state, so the
  // mode goes through CVODE when gap minima are asked for (the same roots to CVODE's
  // accuracy), and stays on the exact path when only extrema are.
  const DampedOscillator opaque(k, c, false);
  const Monitored general = run(opaque, monitoring({}, {0, 1}, true), 0.0, vec2(1.0, -mu), duration);
  REQUIRE(general.report.ok());
  CHECK(general.report.steps > 100);
  REQUIRE(general.recorder.of(false, 0).size() == minima.size());
  for (size_t i = 0; i < minima.size(); ++i)
    CHECK(std::abs(general.recorder.of(false, 0)[i].t - minima[i]) <= 1e-8);
  FlowOptions extrema_only = monitoring({}, {0, 1}, true);
  extrema_only.gap_minima = false;
  const Monitored exact = run(opaque, extrema_only, 0.0, vec2(1.0, -mu), duration);
  REQUIRE(exact.report.ok());
  CHECK(exact.report.steps == 40);
  CHECK(exact.recorder.of(true, 0).size() == x_extrema.size());
}

TEST_CASE("Exact path monitors: two extrema inside one scan step", "[exact-flow][monitors]") {
  const double t_m = 1.23;
  for (const double epsilon : {1e-6, 1e-10}) {
    INFO("epsilon = " << epsilon);
    const DipSystem system(t_m, epsilon);
    const double delta = std::acos(1.0 - epsilon);
    // Scan steps of 0.5 from t = 0: both roots lie in (1, 1.5].
    REQUIRE((t_m - delta > 1.0 && t_m + delta < 1.5));
    Vector x0(1);
    x0 << 0.0;
    const Monitored m = run(system, monitoring({}, {0}, true), 0.0, x0, 3.0, 0.01);
    REQUIRE(m.report.ok());
    CHECK(m.recorder.in_order);
    CHECK(m.report.steps == 6);
    const auto extrema = m.recorder.of(true, 0), minima = m.recorder.of(false, 0);
    REQUIRE(extrema.size() == 2);
    REQUIRE(minima.size() == 1);
    // The roots are ill-conditioned: x'' = -sin(delta) ~ sqrt(2 epsilon) there.
    const double time_tolerance = 1e-15 / std::sqrt(epsilon);
    CHECK(std::abs(extrema[0].t - (t_m - delta)) <= time_tolerance);
    CHECK(std::abs(extrema[1].t - (t_m + delta)) <= time_tolerance);
    CHECK(std::abs(minima[0].t - (t_m - delta)) <= time_tolerance);
    CHECK(std::abs(extrema[0].x[0] - system.position(t_m - delta)) <= 1e-14);
    CHECK(std::abs(extrema[1].x[0] - system.position(t_m + delta)) <= 1e-14);
    CHECK(std::abs(minima[0].gap - (system.position(t_m - delta) - DampedOscillator::kFloor)) <=
          1e-14);
  }
}

TEST_CASE("Exact path monitors agree with the general path on the moving-base oscillator",
          "[exact-flow][monitors]") {
  // From rest on the base, as the comparison of the whole paths (test_exact_linear_flow):
  // the general path at tight tolerances is the reference (and the tolerances of the
  // modes that stay on CVODE on the exact path, if any).
  for (const char* model : {"hard", "soft"}) {
    for (const auto& [eta, periods] : {std::pair{"4", 60}, std::pair{"7.1", 10}}) {
      INFO("model " << model << ", eta = " << eta);
      const auto system = stiff_moving_base(model, eta);
      const double duration = periods * system.forcing_period();
      const auto coordinates = system.displacement_coordinates();
      const Monitored exact = run(system, monitoring(tight_options(), coordinates, true), 0.0,
                                  vec2(0, 0), duration, 0.05);
      const Monitored general =
          run(system, monitoring(tight_options(), coordinates, false), 0.0, vec2(0, 0), duration,
              0.05);
      REQUIRE(exact.report.ok());
      REQUIRE(general.report.ok());
      CHECK(exact.recorder.in_order);
      CHECK(general.recorder.in_order);
      CHECK(exact.report.events == general.report.events);
      CHECK(exact.recorder.samples == general.recorder.samples);
      CHECK(!exact.recorder.of(true, 0).empty());
      // Located on the exact solution to rounding in time (4 eps t ~ 1e-14 here).
      CHECK(largest_time_residual(system, exact.recorder) <= 1e-13);
      const RootDifferences d = compare_roots(exact.recorder, general.recorder, coordinates, 1);
      // The general path at its default tolerances lies further away: it converges to the
      // exact one.
      const Monitored loose =
          run(system, monitoring({}, coordinates, false), 0.0, vec2(0, 0), duration, 0.05);
      REQUIRE(loose.report.ok());
      const RootDifferences to_loose =
          compare_roots(loose.recorder, general.recorder, coordinates, 1);
      INFO("largest differences: time " << d.time << ", value " << d.value
                                        << "; general path at default tolerances: time "
                                        << to_loose.time << ", value " << to_loose.value);
      CHECK(d.time <= to_loose.time);
      CHECK(d.value <= to_loose.value);
      // Measured: times up to 1e-10; values 3e-11 a (hard), 4e-9 a (soft: the reference's
      // own error in the stiff contact, on BDF; at default tolerances it is 2e-7 a).
      CHECK(d.time <= 1e-9);
      CHECK(d.value <= 1e-8 * 0.0025);  // relative to the base amplitude a
    }
  }
}

TEST_CASE("Exact path monitors agree with the general path on the two-body system",
          "[exact-flow][monitors]") {
  // Free flights on the exact path, the Hertz contact on CVODE (Newton: all modes exact).
  // lambda = 0.5: no contact, the gap's minima stay positive; lambda = 1: impacts from the
  // third period on.
  for (const char* contact : {"hertz", "newton"}) {
    for (const char* lambda : {"0.5", "1"}) {
      INFO("contact " << contact << ", lambda = " << lambda);
      const auto system =
          make_system<systems::TwoBodySystem>({{"contact", contact}, {"lambda", lambda}});
      const double duration = 10.0 * system.forcing_period();
      const auto coordinates = system.displacement_coordinates();
      const Vector start = system.default_initial_state();
      const Monitored exact =
          run(system, monitoring(tight_options(), coordinates, true), 0.0, start, duration, 0.05);
      const Monitored general =
          run(system, monitoring(tight_options(), coordinates, false), 0.0, start, duration, 0.05);
      REQUIRE(exact.report.ok());
      REQUIRE(general.report.ok());
      CHECK(exact.recorder.in_order);
      CHECK(general.recorder.in_order);
      CHECK(exact.report.events == general.report.events);
      CHECK(!exact.recorder.of(false, 0).empty());
      const double scale = general.x.head(2).cwiseAbs().maxCoeff() + 0.05;  // displacements, D
      CHECK(largest_time_residual(system, exact.recorder) <= 1e-13);
      const RootDifferences d = compare_roots(exact.recorder, general.recorder, coordinates, 1);
      INFO("largest differences: time " << d.time << ", value " << d.value);
      CHECK(d.time <= 1e-9);
      CHECK(d.value <= 1e-9 * scale);
    }
  }
}

TEST_CASE("Stroboscopic maps measure the same on the exact and the general path",
          "[exact-flow][monitors]") {
  // Returns whether the minimum gap was finite (a flight with a local minimum of the gap).
  const auto compare = [](const libcont::HybridSystem& system, const Vector& x, int periods) {
    bool finite_gap = false;
    libcont::StroboscopicMap exact(system);
    libcont::StroboscopicMap general(system, monitoring(tight_options(), {}, false));
    for (const bool jacobian : {false, true}) {
      INFO("with Jacobian " << jacobian);
      const auto a = exact.iterate(x, periods, jacobian), b = general.iterate(x, periods, jacobian);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      const double scale = b.x.cwiseAbs().maxCoeff();
      CHECK((a.x - b.x).cwiseAbs().maxCoeff() <= 1e-9 * scale);
      CHECK(a.impacts == b.impacts);
      CHECK(a.measures.impacts == b.measures.impacts);
      for (size_t k = 0; k < a.measures.coordinates.size(); ++k) {
        INFO("A_max " << a.measures.semi_amplitude(k) << " against " << b.measures.semi_amplitude(k));
        CHECK(std::abs(a.measures.maximum[k] - b.measures.maximum[k]) <= 1e-9 * scale);
        CHECK(std::abs(a.measures.minimum[k] - b.measures.minimum[k]) <= 1e-9 * scale);
      }
      INFO("minimum gap " << a.measures.minimum_gap << " against " << b.measures.minimum_gap);
      CHECK(same_gap(a.measures.minimum_gap, b.measures.minimum_gap, 1e-9 * scale));
      finite_gap = std::isfinite(b.measures.minimum_gap);
    }
    return finite_gap;
  };
  for (const char* contact : {"hertz", "newton"}) {
    for (const char* lambda : {"0.5", "1"}) {
      INFO("two-body, contact " << contact << ", lambda = " << lambda);
      const auto system =
          make_system<systems::TwoBodySystem>({{"contact", contact}, {"lambda", lambda}});
      const bool finite_gap =
          compare(system, settle(system, 0.0, system.default_initial_state(), 40).x, 2);
      // Without contact (lambda = 0.5) the gap has its minima in flight; the periodic
      // orbits with contact at lambda = 1 have none.
      CHECK(finite_gap == (std::string(lambda) == "0.5"));
    }
  }
  for (const char* model : {"hard", "soft"}) {
    INFO("moving base, " << model);
    const auto system = stiff_moving_base(model, "4");
    compare(system, settle(system, 0.0, vec2(0, 0), 100).x, 2);
  }
}

TEST_CASE("Measures of periodic orbits on the exact and the general path",
          "[exact-flow][monitors]") {
  // The orbit found by shooting on each path, then measured along one pass on each.
  const auto compare = [](const libcont::HybridSystem& system, const Vector& guess, int period) {
    libcont::ShootingOptions on_exact, on_general;
    on_general.flow = monitoring(tight_options(), {}, false);
    libcont::Shooting exact(system, period, on_exact), general(system, period, on_general);
    const auto a = exact.solve(guess), b = general.solve(guess);
    REQUIRE(a.converged);
    REQUIRE(b.converged);
    const double scale = b.x.cwiseAbs().maxCoeff();
    CHECK((a.x - b.x).cwiseAbs().maxCoeff() <= 1e-9 * scale);
    CHECK(a.p == b.p);
    const auto ma = exact.map().iterate(a.x, period, false).measures;
    const auto mb = general.map().iterate(b.x, period, false).measures;
    for (size_t k = 0; k < ma.coordinates.size(); ++k) {
      INFO("A_max " << ma.semi_amplitude(k) << " against " << mb.semi_amplitude(k));
      CHECK(std::abs(ma.semi_amplitude(k) - mb.semi_amplitude(k)) <= 1e-9 * scale);
    }
    INFO("minimum gap " << ma.minimum_gap << " against " << mb.minimum_gap);
    CHECK(same_gap(ma.minimum_gap, mb.minimum_gap, 1e-9 * scale));
    CHECK(ma.impacts == mb.impacts);
    return std::isfinite(mb.minimum_gap);
  };
  for (const char* lambda : {"0.5", "1"}) {
    INFO("two-body, Hertz contact, lambda = " << lambda << " (period 1)");
    const auto system =
        make_system<systems::TwoBodySystem>({{"contact", "hertz"}, {"lambda", lambda}});
    const bool finite_gap =
        compare(system, settle(system, 0.0, system.default_initial_state(), 60).x, 1);
    CHECK(finite_gap == (std::string(lambda) == "0.5"));
  }
  {
    INFO("moving base, hard impacts, eta = 4 (z = 1/2)");
    const auto system = stiff_moving_base("hard", "4");
    compare(system, settle(system, 0.0, vec2(0, 0), 200).x, 2);
  }
}
