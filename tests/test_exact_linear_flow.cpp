// The exact-flow path for affine modes (exact_linear_flow.hpp, Flow with
// FlowOptions::exact_linear_modes): the propagator against closed forms (damped forced
// oscillator, resonance, singular A), and the whole path against the general CVODE path
// on the moving-base oscillator: states, event times, monodromy, Lyapunov
// exponents and Floquet multipliers (doc/reproduction.md), and a grazing double
// crossing inside one scan step that sampling alone would miss.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <thread>

#include "../libcont/src/exact_segment.hpp"
#include "../libcont/src/lifted_product.hpp"
#include "libcont/exact_linear_flow.hpp"
#include "libcont/harmonic_phase.hpp"
#include "libcont/flow.hpp"
#include "libcont/input_error.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "systems/moving_base.hpp"
#include "systems/two_body.hpp"
#include "moving_base_cases.hpp"
#include "test_support.hpp"

using libcont::AffineMode;
using libcont::ExactLinearFlow;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowState;
using libcont::FlowStatus;
using libcont::Matrix;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

AffineMode affine(double a00, double a01, double a10, double a11, double w) {
  AffineMode m;
  m.A.resize(2, 2);
  m.A << a00, a01, a10, a11;
  m.b0 = m.b_cos = m.b_sin = Vector::Zero(2);
  m.frequency = w;
  return m;
}

// The exact flow over tau from (t, x): lift, propagate, project.
Vector exact_state(ExactLinearFlow& flow, double t, const Vector& x, double tau) {
  Matrix block = Matrix::Zero(5, 1), out(5, 1);
  flow.lift(t, x, block.col(0));
  flow.propagate(tau, block, out);
  return out.col(0).head(2);
}

FlowOptions general_path(FlowOptions o = {}) {
  o.exact_linear_modes = false;
  return o;
}


}  // namespace

TEST_CASE("matrix_exponential matches closed forms", "[exact-flow]") {
  std::array<Matrix, 3> work;
  Matrix result;
  // Rotation: expm([[0, w], [-w, 0]] t) = [[cos, sin], [-sin, cos]] (w t = 37: squarings).
  Matrix rotation(2, 2);
  rotation << 0.0, 37.0, -37.0, 0.0;
  libcont::matrix_exponential(rotation, result, work);
  Matrix expected(2, 2);
  expected << std::cos(37.0), std::sin(37.0), -std::sin(37.0), std::cos(37.0);
  CHECK((result - expected).norm() <= 1e-13);
  // Nilpotent (defective) A: expm([[0, t], [0, 0]]) = [[1, t], [0, 1]].
  Matrix nilpotent(2, 2);
  nilpotent << 0.0, 3.5, 0.0, 0.0;
  libcont::matrix_exponential(nilpotent, result, work);
  expected << 1.0, 3.5, 0.0, 1.0;
  CHECK((result - expected).norm() <= 1e-15);
}

TEST_CASE("Exact flow of a damped forced oscillator matches its closed form", "[exact-flow]") {
  // x'' + c x' + k x = F sin(w t): particular solution P cos + Q sin with
  // (k - w^2) P + c w Q = 0, -c w P + (k - w^2) Q = F; homogeneous part decays at c/2.
  const double k = 1.0, c = 0.23, F = 0.7, w = 4.0;
  AffineMode mode = affine(0.0, 1.0, -k, -c, w);
  mode.b_sin[1] = F;
  ExactLinearFlow flow;
  flow.set_block_columns(1);
  flow.set_mode(mode);
  const double det = (k - w * w) * (k - w * w) + c * c * w * w;
  const double P = -c * w * F / det, Q = (k - w * w) * F / det;
  // Start on the particular solution plus a homogeneous part with known closed form.
  const double t0 = 0.3, mu = c / 2, nu = std::sqrt(k - mu * mu);
  const auto solution = [&](double t) {
    const double s = t - t0;
    const double e = std::exp(-mu * s);
    Vector x(2);
    x[0] = P * std::cos(w * t) + Q * std::sin(w * t) + e * std::cos(nu * s);
    x[1] = -w * P * std::sin(w * t) + w * Q * std::cos(w * t) -
           e * (mu * std::cos(nu * s) + nu * std::sin(nu * s));
    return x;
  };
  for (const double tau : {1e-3, 0.05, 0.125, 1.0, 7.3}) {
    INFO("tau = " << tau);
    CHECK((exact_state(flow, t0, solution(t0), tau) - solution(t0 + tau)).norm() <= 1e-14);
  }
  // Repeated steps (an event-free stretch crossed at once) carry state and tangent alike:
  // k steps of 0.125 against the closed form, and the tangent against the closed-form
  // transition matrix e^{-mu s} (cos(nu s) I + sin(nu s)/nu (A + mu I)).
  flow.set_block_columns(3);
  const double step = 0.125;
  for (const int steps : {1, 2, 7, 32}) {
    INFO("steps = " << steps);
    Matrix block = Matrix::Zero(5, 3), out(5, 3);
    flow.lift(t0, solution(t0), block.col(0));
    block.block(0, 1, 2, 2).setIdentity();
    flow.propagate_repeated(step, steps, block, out);
    const double s = steps * step, e = std::exp(-mu * s);
    Matrix transition(2, 2);
    transition << std::cos(nu * s) + mu * std::sin(nu * s) / nu, std::sin(nu * s) / nu,
        -k * std::sin(nu * s) / nu, std::cos(nu * s) - mu * std::sin(nu * s) / nu;
    transition *= e;
    CHECK((out.col(0).head(2) - solution(t0 + s)).norm() <= 1e-14);
    CHECK((out.block(0, 1, 2, 2) - transition).norm() <= 1e-14);
    CHECK(out.block(2, 1, 3, 2).norm() == 0.0);  // tangent columns stay (Phi, 0, 0, 0)
  }
  Matrix in = Matrix::Zero(5, 3), out(5, 3);
  CHECK_THROWS_AS(flow.propagate_repeated(step, 0, in, out), libcont::InputError);
  CHECK_THROWS_AS(flow.propagate_repeated(step, 33, in, out), libcont::InputError);
}

TEST_CASE("Exponentials shared by the flows of a thread are those computed afresh",
          "[exact-flow]") {
  // A recurring step's exponential (propagate's cache) comes from the thread's shared list
  // where another flow computed it for the same M and tau: it must be the one a flow
  // computes afresh (in a thread of its own, with an empty list), and no other M or tau
  // may take it; after more modes than the list keeps, the first is still the fresh one.
  const auto mode_with = [](double c) {
    AffineMode mode = affine(0.0, 1.0, -1.0, -c, 3.0);
    mode.b_sin[1] = 0.7;
    return mode;
  };
  // The step twice: a miss, then a step that recurs, propagated by its exponential.
  const auto recurring = [](const AffineMode& mode, double tau) {
    ExactLinearFlow flow;
    flow.set_block_columns(3);
    flow.set_mode(mode);
    CHECK(tau < flow.scan_step());  // below it the exponential is the shared one
    Matrix in = Matrix::Zero(5, 3), out(5, 3);
    flow.lift(0.4, vec2(0.3, -0.2), in.col(0));
    in.block(0, 1, 2, 2).setIdentity();
    flow.propagate(tau, in, out);
    flow.propagate(tau, in, out);
    return out;
  };
  const auto fresh = [&](const AffineMode& mode, double tau) {
    Matrix out;
    std::thread([&] { out = recurring(mode, tau); }).join();
    return out;
  };
  const auto same_bits = [](const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<size_t>(a.size())) == 0;
  };
  std::thread([&] {
    const Matrix first = recurring(mode_with(0.23), 0.1);
    CHECK(same_bits(recurring(mode_with(0.23), 0.1), first));
    const Matrix other_mode = recurring(mode_with(0.25), 0.1);
    CHECK(same_bits(other_mode, fresh(mode_with(0.25), 0.1)));
    CHECK_FALSE(same_bits(other_mode, first));
    const Matrix other_step = recurring(mode_with(0.23), 0.07);
    CHECK(same_bits(other_step, fresh(mode_with(0.23), 0.07)));
    CHECK_FALSE(same_bits(other_step, first));
    for (int k = 0; k < 40; ++k) recurring(mode_with(0.3 + 0.01 * k), 0.1);
    CHECK(same_bits(recurring(mode_with(0.23), 0.1), fresh(mode_with(0.23), 0.1)));
  }).join();
}

TEST_CASE("Exact flow at resonance and with a singular A", "[exact-flow]") {
  ExactLinearFlow flow;
  flow.set_block_columns(1);
  SECTION("undamped resonance: x'' + w^2 x = F sin(w t), secular growth") {
    const double w = 2.0, F = 0.5;
    AffineMode mode = affine(0.0, 1.0, -w * w, 0.0, w);
    mode.b_sin[1] = F;
    flow.set_mode(mode);
    // From x(0) = 0, x'(0) = F/(2w): x = -F t cos(w t)/(2 w) + F sin(w t)/(2 w^2).
    const auto x = [&](double t) {
      Vector s(2);
      s[0] = -F * t * std::cos(w * t) / (2 * w) + F * std::sin(w * t) / (2 * w * w);
      s[1] = F * t * std::sin(w * t) / 2;
      return s;
    };
    for (const double tau : {0.1, 3.0, 20.0})
      CHECK((exact_state(flow, 0.0, x(0.0), tau) - x(tau)).norm() <= 1e-13 * (1 + tau));
  }
  SECTION("singular (nilpotent) A with a constant and a harmonic force") {
    // x'' = g + B cos(w t): the stick mode's kind of field, polynomial plus harmonic.
    const double g = -9.81, B = 0.3, w = 3.0;
    AffineMode mode = affine(0.0, 1.0, 0.0, 0.0, w);
    mode.b0[1] = g;
    mode.b_cos[1] = B;
    flow.set_mode(mode);
    const double t0 = 0.7, x0 = 1.0, v0 = 2.0;
    const auto x = [&](double t) {
      const double s = t - t0;
      Vector out(2);
      out[0] = x0 + v0 * s + g * s * s / 2 - B / (w * w) * (std::cos(w * t) - std::cos(w * t0)) -
               B / w * std::sin(w * t0) * s;
      out[1] = v0 + g * s + B / w * (std::sin(w * t) - std::sin(w * t0));
      return out;
    };
    for (const double tau : {0.01, 0.4, 2.5})
      CHECK((exact_state(flow, t0, x(t0), tau) - x(t0 + tau)).norm() <= 1e-13);
  }
}

TEST_CASE("Exact and general paths agree on the moving-base oscillator", "[exact-flow]") {
  // From rest on the base: 60 forcing periods at eta = 4 (z = 1/2 after a transient), 10
  // in the chaotic window eta = 7.1 (differences grow there). The general path at tight
  // tolerances (rtol 1e-13, atol 1e-15) is the reference: its own error bounds the
  // difference, and at its default tolerances (rtol 1e-11) it lies further away (the
  // general path converges to the exact one).
  for (const char* model : {"hard", "soft"}) {
    for (const auto& [eta, periods] : {std::pair{"4", 60}, std::pair{"7.1", 10}}) {
      INFO("model " << model << ", eta = " << eta);
      const auto system = stiff_moving_base(model, eta);
      const double duration = periods * system.forcing_period();
      const MapResult exact = flow_map(system, FlowOptions{}, 0.0, vec2(0, 0), duration, false);
      const MapResult tight =
          flow_map(system, general_path(tight_options()), 0.0, vec2(0, 0), duration, false);
      const MapResult loose = flow_map(system, general_path(), 0.0, vec2(0, 0), duration, false);
      REQUIRE(exact.report.ok());
      REQUIRE(tight.report.ok());
      REQUIRE(loose.report.ok());
      CHECK(exact.report.events == tight.report.events);
      const double a = 0.0025;
      const double to_tight = (exact.x - tight.x).norm() / a,
                   to_loose = (exact.x - loose.x).norm() / a;
      INFO("|exact - general| / a: tight " << to_tight << ", default " << to_loose);
      // Measured 1e-11 (hard, eta = 4) to 3e-9 (soft, eta = 7.1; BDF in the stiff contact).
      CHECK(to_tight <= 1e-8);
      CHECK(to_tight <= to_loose);
      REQUIRE(exact.events.events.size() == tight.events.events.size());
      double worst = 0.0;
      for (size_t i = 0; i < exact.events.events.size(); ++i) {
        CHECK(exact.events.events[i].kind == tight.events.events[i].kind);
        CHECK(exact.events.events[i].event == tight.events.events[i].event);
        worst = std::max(worst, std::abs(exact.events.events[i].t - tight.events.events[i].t));
      }
      INFO("largest event time difference " << worst);
      CHECK(worst <= 1e-9);  // measured 2e-12 to 8e-11
    }
  }
}

TEST_CASE("Exact path: monodromy, Lyapunov exponents and Floquet multipliers at eta = 4",
          "[exact-flow]") {
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const auto system = stiff_moving_base(model);
    const double period = system.forcing_period();
    // The settled z = 1/2 orbit by iterating the exact twice-period map (contracting).
    Vector x = settle(system, 0.0, vec2(0, 0), 400).x;
    for (int i = 0; i < 40; ++i) x = flow_map(system, FlowOptions{}, 0.0, x, 2 * period, false).x;
    const MapResult exact = flow_map(system, FlowOptions{}, 0.0, x, 2 * period, true);
    const MapResult general = flow_map(system, general_path(), 0.0, x, 2 * period, true);
    REQUIRE(exact.report.ok());
    REQUIRE(general.report.ok());
    CHECK((exact.x - x).norm() <= 1e-12 * 0.0025);
    INFO("monodromy exact\n" << exact.jacobian << "\ngeneral\n" << general.jacobian);
    CHECK(relative_error(exact.jacobian, general.jacobian) <= 1e-8);

    // Floquet: a complex pair of modulus exp(-c/(2m) 2T): both exponents -0.115 to 1e-9
    // (doc/reproduction.md), product exp(-c/m 2T).
    const Eigen::EigenSolver<Matrix> solver(exact.jacobian);
    const auto multipliers = solver.eigenvalues();
    const Eigen::EigenSolver<Matrix> general_solver(general.jacobian);
    const double expected = std::exp(-0.23 * 2 * period);
    INFO("product - exp(-c/m 2T) = " << std::abs(multipliers[0] * multipliers[1] - expected));
    CHECK(std::abs(multipliers[0] * multipliers[1] - expected) <= 1e-12);
    for (int i = 0; i < 2; ++i) {
      CHECK(std::abs(std::log(std::abs(multipliers[i])) / (2 * period) + 0.115) <= 1e-9);
      // The general path's multiplier (the existing Floquet value) within its error.
      double nearest = 1e300;
      for (int j = 0; j < 2; ++j)
        nearest = std::min(nearest, std::abs(multipliers[i] - general_solver.eigenvalues()[j]));
      CHECK(nearest <= 1e-7);
    }

    // Lyapunov spectrum over 5000 averaged periods (reference: -0.115 within 1e-3), and
    // the exponent sum -c/m.
    libcont::LyapunovOptions options;
    options.transient_periods = 200;
    options.periods = 5000;
    const auto result = libcont::LyapunovSpectrum(system, options).compute(0.0, vec2(0, 0));
    REQUIRE(result.ok());
    INFO("exponents " << result.exponents.transpose());
    CHECK(std::abs(result.exponents[0] + 0.115) <= 1e-3);
    CHECK(std::abs(result.exponents[1] + 0.115) <= 1e-3);
    INFO("exponent sum + c/m = " << result.exponent_sum + 0.23);
    CHECK(std::abs(result.exponent_sum + 0.23) <= 1e-11);
    CHECK(result.n == 2);
    CHECK(result.p == 1);
  }
}

namespace {

// x'' = -x (period 2 pi) with a terminal event when x rises through 1 - epsilon: the
// motion x = cos(t - t_max) stays above that level for only 2 sqrt(2 epsilon), far less
// than a scan step (1/2): a crossing and a return between two scan points.
class GrazingOscillator : public libcont::HybridSystem,
                          public libcont::AffineModes,
                          public libcont::AnalyticJacobians {
 public:
  explicit GrazingOscillator(double epsilon) : level_(1.0 - epsilon) {}
  std::string name() const override { return "grazing"; }
  const libcont::AffineModes* affine_modes() const override { return this; }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  void vector_field(int, double, libcont::ConstVectorRef x, libcont::VectorRef f) const override {
    f[0] = x[1];
    f[1] = -x[0];
  }
  bool affine_mode(int, AffineMode& data) const override {
    data.A << 0.0, 1.0, -1.0, 0.0;
    data.b0.setZero();
    data.b_cos.setZero();
    data.b_sin.setZero();
    data.frequency = 0.0;
    return true;
  }
  int event_count(int) const override { return 1; }
  libcont::EventSpec event_spec(int, int) const override {
    return {"level", libcont::EventDirection::Rising, libcont::EventKind::Terminal};
  }
  double event_function(int, int, double, libcont::ConstVectorRef x) const override {
    return x[0] - level_;
  }
  bool event_gradient(int, int, double, libcont::ConstVectorRef, libcont::VectorRef dh_dx,
                      double& dh_dt) const override {
    dh_dx << 1.0, 0.0;
    dh_dt = 0.0;
    return true;
  }

 private:
  double level_;
};

}  // namespace

TEST_CASE("Exact path finds a grazing double crossing inside one scan step", "[exact-flow]") {
  for (const double epsilon : {1e-6, 1e-10}) {
    INFO("epsilon = " << epsilon);
    const GrazingOscillator system(epsilon);
    Flow flow(system);
    // Maximum of x at t = 1.23 (inside the third scan step from t = 0).
    const double t_max = 1.23;
    FlowState state = flow.initial_state(0.0, vec2(std::cos(t_max), std::sin(t_max)));
    const auto report = flow.advance(state, 3.0);
    REQUIRE(report.status == FlowStatus::TerminalEvent);
    const double expected = t_max - std::acos(1.0 - epsilon);
    // acos near 1 is ill-conditioned in epsilon; the crossing time is known to ~1e-16 / sqrt(eps).
    CHECK(std::abs(state.t - expected) <= 1e-15 / std::sqrt(epsilon));
    CHECK(report.steps <= 4);
  }
  // Without a crossing (the maximum 1 stays below a level above it) nothing fires.
  const GrazingOscillator above(-1e-12);
  Flow flow(above);
  FlowState state = flow.initial_state(0.0, vec2(std::cos(1.23), std::sin(1.23)));
  CHECK(flow.advance(state, 3.0).status == FlowStatus::Success);
}

TEST_CASE("An inconsistent affine mode is an input error", "[exact-flow]") {
  ExactLinearFlow flow;
  AffineMode mode = affine(0.0, 1.0, -1.0, 0.0, 1.0);
  mode.b0 = Vector::Zero(3);
  CHECK_THROWS_AS(flow.set_mode(mode), libcont::InputError);
  mode = affine(0.0, 1.0, -1.0, 0.0, -1.0);
  CHECK_THROWS_AS(flow.set_mode(mode), libcont::InputError);
}

TEST_CASE("Exact path: with d = 0 the motion scales with a, to any magnitude", "[exact-flow]") {
  // With d = 0, x / a does not depend on a (linear in both). The exact path is
  // scale-free (the lifted forcing and the exponential are balanced by powers of two), so
  // x / a agrees to rounding from millimetres to 1e300 (the general path's absolute
  // tolerances make CVODE give up there).
  const auto scaled = [](const char* a) {
    const auto system = make_system<MovingBaseOscillator>({{"a", a}, {"omega", "4"}});
    const MapResult m =
        flow_map(system, FlowOptions{}, 0.0, vec2(0, 0), 20 * system.forcing_period(), true);
    REQUIRE(m.report.ok());
    return std::pair{Vector(m.x / std::stod(a)), Matrix(m.jacobian)};
  };
  const auto [reference, reference_jacobian] = scaled("0.0025");
  for (const char* a : {"1", "1e300"}) {
    INFO("a = " << a);
    const auto [x, jacobian] = scaled(a);
    INFO("relative differences: state " << (x - reference).norm() / reference.norm()
                                        << ", Jacobian "
                                        << relative_error(jacobian, reference_jacobian));
    // Measured 9e-15 (state) and 2e-13 (Jacobian): rounding, amplified over 20 periods.
    CHECK((x - reference).norm() <= 1e-12 * reference.norm());
    CHECK(relative_error(jacobian, reference_jacobian) <= 1e-11);
  }
}

namespace {

// The soft moving base with only its free mode declared affine: the contact mode goes
// through CVODE, so one trajectory alternates between the two paths.
class FreeModeExactOnly : public MovingBaseOscillator {
 public:
  bool affine_mode(int mode, AffineMode& data) const override {
    return mode == Free && MovingBaseOscillator::affine_mode(mode, data);
  }
};

}  // namespace

TEST_CASE("A trajectory may alternate between the exact and the general path", "[exact-flow]") {
  FreeModeExactOnly mixed;
  for (const auto& [name, value] : Settings{{"model", "soft"}, {"ks", "200000"}, {"omega", "4"}})
    mixed.set_parameter_text(name, value);
  const auto all_exact = stiff_moving_base("soft");
  const double duration = 30 * mixed.forcing_period();
  const MapResult both = flow_map(mixed, tight_options(), 0.0, vec2(0, 0), duration, true);
  const MapResult exact = flow_map(all_exact, FlowOptions{}, 0.0, vec2(0, 0), duration, true);
  REQUIRE(both.report.ok());
  REQUIRE(exact.report.ok());
  CHECK(both.report.events == exact.report.events);
  CHECK(both.report.events >= 20);
  INFO("mixed " << both.x.transpose() << ", exact " << exact.x.transpose());
  // The CVODE contact phases at rtol 1e-13 bound the difference (as in the comparison of
  // the whole paths above).
  CHECK((both.x - exact.x).norm() <= 1e-8 * 0.0025);
  CHECK(relative_error(both.jacobian, exact.jacobian) <= 1e-7);
}

TEST_CASE("The exact path follows every change of the model it runs on", "[exact-flow]") {
  // A Flow keeps what it derived from the model's modes while the model's revision
  // stands. After a change by each route, its next run must equal a fresh model's run in
  // a fresh Flow from the same state (to the rounding by which cached and new
  // exponentials differ); a stale preparation would run the old model.
  MovingBaseOscillator system = stiff_moving_base("hard");
  FlowOptions with_tangent;
  with_tangent.tangent = true;
  Flow flow(system, with_tangent);
  const auto check_run = [&](const char* route) {
    INFO("changed by " << route);
    FlowState state = flow.initial_state(0.0, vec2(0.001, 0.0));
    MovingBaseOscillator fresh_model = stiff_moving_base("hard");
    for (const libcont::Parameter& p : system.parameters().all())
      if (p.given) fresh_model.set_parameter_text(p.name, system.parameters().value_text(p));
    Flow fresh(fresh_model, with_tangent);
    FlowState expected = fresh.initial_state(0.0, vec2(0.001, 0.0));
    const double end = 12 * system.forcing_period();
    REQUIRE(flow.advance(state, end).ok());
    REQUIRE(fresh.advance(expected, end).ok());
    CHECK(state.mode == expected.mode);
    CHECK((state.x - expected.x).norm() <= 1e-12 * (1.0 + expected.x.norm()));
    CHECK(relative_error(state.tangent, expected.tangent) <= 1e-10);
  };
  check_run("nothing");
  system.set_parameter("omega", 6.0);
  check_run("set_parameter");
  system.set_parameter_text("a", "0.004");
  check_run("set_parameter_text");
  system.set_parameters({{"d", "0.001", ""}, {"r", "0.8", ""}});
  check_run("set_parameters");
  CHECK_THROWS_AS(system.set_parameter_text("m", "1e-320"), libcont::InputError);
  check_run("a refused value");
  system.set_parameter_text("model", "soft");
  check_run("a choice (other modes)");
  system = stiff_moving_base("hard", "8");
  check_run("assigning another model");
}

TEST_CASE("Two-body: the affine modes and events agree with the model, both paths agree",
          "[exact-flow]") {
  // Under harmonic loading the free mode (and the stuck mode of the Newton contact) are
  // declared affine: their data must reproduce vector_field and event_function exactly at
  // any state and time; a trajectory through the Hertz contact (general path) and its free
  // flights (exact path) must agree with the general path throughout.
  for (const char* contact : {"newton", "hertz"}) {
    INFO("contact " << contact);
    const auto system = make_system<systems::TwoBodySystem>({{"contact", contact}, {"lambda", "1"}});
    const int n = 4;
    for (int mode = 0; mode < system.mode_count(); ++mode) {
      AffineMode data;
      data.A.resize(n, n);
      data.b0.resize(n);
      data.b_cos.resize(n);
      data.b_sin.resize(n);
      const bool affine = system.affine_mode(mode, data);
      CHECK(affine == (mode == 0 || std::string(contact) == "newton"));
      if (!affine) continue;
      Vector coefficients(n + 3);
      REQUIRE(system.affine_event(mode, 0, coefficients));
      for (int k = 0; k < 5; ++k) {
        const Vector x = Vector::Random(n) * 0.1;
        const double t = 0.37 * k + 0.1, w = data.frequency;
        Vector f(n);
        system.vector_field(mode, t, x, f);
        const Vector affine_f = data.A * x + data.b0 + data.b_cos * std::cos(w * t) +
                                data.b_sin * std::sin(w * t);
        CHECK((f - affine_f).norm() <= 1e-12 * (1.0 + f.norm()));
        const double h = system.event_function(mode, 0, t, x);
        const double affine_h = coefficients.head(n).dot(x) + coefficients[n] +
                                coefficients[n + 1] * std::cos(w * t) +
                                coefficients[n + 2] * std::sin(w * t);
        CHECK(std::abs(h - affine_h) <= 1e-12 * (1.0 + std::abs(h)));
      }
    }
    // Ten forcing periods from rest (impacts from the third period on at lambda = 1),
    // with the monodromy: the general path at tight tolerances is the reference.
    const double duration = 10.0 * system.forcing_period();
    const Vector start = Vector::Zero(n);
    const MapResult mixed = flow_map(system, tight_options(), 0.0, start, duration, true);
    const MapResult general =
        flow_map(system, general_path(tight_options()), 0.0, start, duration, true);
    REQUIRE(mixed.report.ok());
    REQUIRE(general.report.ok());
    CHECK(mixed.report.events == general.report.events);
    CHECK(mixed.report.events >= 6);
    const double scale = general.x.norm();
    INFO("state difference " << (mixed.x - general.x).norm() / scale << ", monodromy difference "
                             << (mixed.jacobian - general.jacobian).norm() / general.jacobian.norm());
    CHECK((mixed.x - general.x).norm() <= 1e-8 * scale);
    CHECK((mixed.jacobian - general.jacobian).norm() <= 1e-6 * general.jacobian.norm());
  }
}

TEST_CASE("Closed-form exponential of a two-state mode matches the series", "[exact-flow]") {
  // Random A: complex pairs, real distinct pairs, and near-defective ones (b -> 0 from both
  // sides, and b = 0), with random forcing; expm(M s) in closed form against
  // matrix_exponential of M s over a scan step, and a linear function of the lifted state
  // in its own closed form (ClosedFormFunction) against the product with that series.
  std::mt19937 random(17), function_random(29);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::array<Matrix, 3> work;
  Matrix series, closed(5, 5);
  int compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    // Real parts of the eigenvalues |a| >= 0.5: A away from singular and from resonance.
    const double u = uniform(random);
    const double a = std::copysign(0.5 + std::abs(u), u), p = 0.1 + std::abs(uniform(random)) * 10.0;
    // A = [[a + e, p], [q, a - e]]: b^2 = e^2 + p q.
    const double e = uniform(random);
    double b2 = 0.0;
    switch (trial % 5) {
      case 0: b2 = -std::pow(10.0, 3.0 * uniform(random)); break;  // complex pair
      case 1: b2 = std::pow(10.0, 3.0 * uniform(random)); break;   // real pair
      case 2: b2 = -1e-12 * std::abs(uniform(random)); break;      // near-defective
      case 3: b2 = 1e-14 * std::abs(uniform(random)); break;
      default: b2 = 0.0; break;                                     // defective
    }
    AffineMode mode = affine(a + e, p, (b2 - e * e) / p, a - e, 0.5 + std::abs(uniform(random)) * 5);
    for (int i = 0; i < 2; ++i) {
      mode.b0[i] = uniform(random);
      mode.b_cos[i] = uniform(random);
      mode.b_sin[i] = uniform(random);
    }
    ExactLinearFlow flow;
    flow.set_mode(mode);
    if (!flow.has_closed_form()) continue;  // resonant or singular: no particular solution
    ++compared;
    // A function linear in the lifted state, c . z, from a random start z0, in its own
    // closed form: against c . expm(M s) z0, its rate against c . M z at that point.
    Vector c(5), z0(5);
    for (int i = 0; i < 5; ++i) c[i] = uniform(function_random), z0[i] = uniform(function_random);
    flow.lift(uniform(function_random), z0.head(2), z0);
    // The points in the order of a root search: large steps evaluated directly, those
    // within 1/32 radian by rotation from the previous one.
    ExactLinearFlow::ClosedFormFunction form = flow.closed_form_function(c.data(), z0.data());
    for (double fraction : {0.0, 1e-9, 0.03, 0.4, 1.0, 0.97, 0.955, 0.96, 0.9600001}) {
      const double s = fraction * flow.scan_step();
      flow.closed_form_transition(s, closed);
      libcont::matrix_exponential(flow.generator() * s, series, work);
      INFO("trial " << trial << " s " << s << " b^2 " << b2);
      CHECK((closed - series).cwiseAbs().maxCoeff() <= 1e-14 * series.cwiseAbs().maxCoeff());
      const Vector z = series * z0, rate = flow.generator() * z;
      double g = 0.0, g1 = 0.0;
      form.evaluate(s, g, g1);
      // Rounding scales: |c| . |M|^k |z| (Pi and the products cancel at that level).
      const Matrix magnitude = flow.generator().cwiseAbs();
      const Vector size0 = z.cwiseAbs(), size1 = magnitude * size0;
      const Vector weights = c.cwiseAbs();
      CHECK(std::abs(g - c.dot(z)) <= 1e-14 * weights.dot(size0));
      CHECK(std::abs(g1 - c.dot(rate)) <= 1e-14 * weights.dot(size1));
    }
  }
  CHECK(compared > 50);  // 93 of the 400 with this seed
}

TEST_CASE("The exact path's lifted event values and rates are the model's", "[exact-flow]") {
  // Where a run of the exact path ends (a crossing, its end time) and where a reset
  // applied there leaves the motion, Flow's surface checks take an affine event's value
  // and rate from the lifted state (ExactSegment::lifted_event) instead of the model. They
  // must be the model's event function and crossing rate to rounding of their terms (and
  // the event's direction the model's), in every mode the trajectory meets (impacts,
  // sticking, soft contacts, two bodies); a state other than the one held, or a changed
  // model, gets no lifted answer.
  const auto check_model = [](libcont::HybridSystem& system, const Vector& start) {
    const int n = system.dimension();
    libcont::detail::ExactSegment segment(system, FlowOptions{}, 0);
    libcont::ModelJacobians jacobians(system);
    Vector dh_dx(n), field(n);
    FlowState state;
    state.t = 0.1;
    state.x = start;
    state.mode = system.mode_of(state.t, state.x);
    const auto check_held = [&](const FlowState& at) {
      int affine = 0;
      for (int j = 0; j < system.event_count(at.mode); ++j) {
        libcont::detail::ExactSegment::LiftedEvent lifted;
        Vector coefficients(n + 3);
        const bool declared = system.affine_modes()->affine_event(at.mode, j, coefficients);
        const bool held = segment.lifted_event(at.mode, j, at.t, at.x, lifted);
        CHECK(held == declared);
        if (!held) continue;
        ++affine;
        const double h = system.event_function(at.mode, j, at.t, at.x);
        double dh_dt = 0.0;
        jacobians.event_gradient(at.mode, j, at.t, at.x, dh_dx, dh_dt);
        system.vector_field(at.mode, at.t, at.x, field);
        const double rate = dh_dx.dot(field) + dh_dt;
        INFO("mode " << at.mode << ", event " << j << ", t = " << at.t);
        CHECK(std::abs(lifted.value - h) <= 1e-12 * lifted.value_terms);
        CHECK(std::abs(lifted.rate - rate) <= 1e-12 * lifted.rate_terms);
        CHECK(lifted.value_terms >= std::abs(lifted.value));
        CHECK(lifted.rate_terms >= std::abs(lifted.rate));
        CHECK(lifted.direction == system.event_direction(at.mode, j));
        // One ulp away in x or t is not the state held.
        Vector moved = at.x;
        moved[0] = std::nextafter(moved[0], 1.0);
        CHECK_FALSE(segment.lifted_event(at.mode, j, at.t, moved, lifted));
        CHECK_FALSE(segment.lifted_event(at.mode, j, std::nextafter(at.t, 1e9), at.x, lifted));
      }
      return affine;
    };
    int checked = 0, resets = 0;
    const double end = state.t + 20.0 * system.forcing_period();
    for (int segment_count = 0; segment_count < 400 && state.t < end; ++segment_count) {
      if (!segment.covers(state.mode)) break;
      libcont::FlowReport report;
      const int event = segment.run(state, end, false, nullptr, libcont::SampleGrid{}, report);
      REQUIRE(event != libcont::detail::ExactSegment::kFailed);
      checked += check_held(state);
      if (event == libcont::detail::ExactSegment::kReachedEnd) break;
      const Vector x_minus = state.x;
      Vector x_plus = state.x;
      const libcont::EventOutcome outcome = system.apply_event(state.mode, event, state.t, x_plus);
      segment.lift_reset(state.mode, state.t, x_minus, outcome.next_mode, x_plus);
      state.x = x_plus;
      state.mode = outcome.next_mode;
      if (segment.covers(state.mode) && check_held(state) > 0) ++resets;
    }
    CHECK(checked >= 10);
    CHECK(resets >= 5);
    // A change of the model: nothing held any more.
    libcont::detail::ExactSegment::LiftedEvent lifted;
    system.set_parameter("omega", system.parameters()["omega"] * 1.01);
    for (int j = 0; j < system.event_count(state.mode); ++j)
      CHECK_FALSE(segment.lifted_event(state.mode, j, state.t, state.x, lifted));
  };
  for (const char* model : {"hard", "soft"}) {
    INFO("moving base, " << model);
    MovingBaseOscillator system = stiff_moving_base(model, "3");
    check_model(system, vec2(0.001, 0.0));
  }
  {
    INFO("two-body, newton");
    auto system =
        make_system<systems::TwoBodySystem>({{"contact", "newton"}, {"lambda", "1"}});
    check_model(system, Vector::Zero(4));
  }
}

TEST_CASE("A run of the exact path from the state it holds is the run from the lifted state",
          "[exact-flow]") {
  // A run that starts where the last one ended (a forcing period's end) goes on from the
  // lifted state the segment holds there instead of lifting x again: its forcing values
  // are the ones the run carried, turned back by the run's phase lead to the clock's
  // time. Runs period by period, as a Lyapunov spectrum's, with impacts, sticking,
  // chatter and two bodies, each from the same state by a segment that starts from the
  // held state and one that lifts every start: the same event, at the same time to
  // rounding of the crossing's condition (|t| and the event's value terms over its
  // rate), the same state and tangent at a period's end to rounding; after a reset both
  // lift (the runs then agree to the bit). A lead left in the held state would grow by an
  // ulp of t per step over the hundreds of periods.
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const auto check_model = [](libcont::HybridSystem& system, const Vector& start,
                              int periods) {
    const int n = system.dimension();
    libcont::detail::ExactSegment segment(system, FlowOptions{}, n),
        lifting(system, FlowOptions{}, n);
    lifting.start_from_held(false);
    FlowState state;
    state.t = 0.1;
    state.x = start;
    state.mode = system.mode_of(state.t, state.x);
    state.tangent = Matrix::Identity(n, n);
    const double period = system.forcing_period();
    int runs = 0, crossings = 0;
    double worst_time = 0.0, worst_state = 0.0;  // in units of their rounding
    double worst_after_reset = 0.0;
    for (int k = 1; k <= periods; ++k) {
      const double end = 0.1 + k * period;
      for (int count = 0; count < 1000; ++count) {
        REQUIRE(segment.covers(state.mode));
        REQUIRE(lifting.covers(state.mode));
        FlowState lifted = state;
        libcont::FlowReport report, lifted_report;
        const int event = segment.run(state, end, false, nullptr, libcont::SampleGrid{}, report);
        const int lifted_event =
            lifting.run(lifted, end, false, nullptr, libcont::SampleGrid{}, lifted_report);
        ++runs;
        REQUIRE(event != libcont::detail::ExactSegment::kFailed);
        REQUIRE(event == lifted_event);
        const double difference =
            std::max((state.x - lifted.x).cwiseAbs().maxCoeff(),
                     (state.tangent - lifted.tangent).cwiseAbs().maxCoeff());
        if (count > 0)
          worst_after_reset =
              std::max({worst_after_reset, difference, std::abs(state.t - lifted.t)});
        if (event == libcont::detail::ExactSegment::kReachedEnd) {
          const double scale = state.x.cwiseAbs().maxCoeff() + state.tangent.cwiseAbs().maxCoeff();
          worst_state = std::max(worst_state, difference / (eps * scale));
          break;
        }
        libcont::detail::ExactSegment::LiftedEvent at;
        REQUIRE(lifting.lifted_event(lifted.mode, event, lifted.t, lifted.x, at));
        const double condition = std::abs(state.t) + at.value_terms / std::abs(at.rate);
        worst_time = std::max(worst_time, std::abs(state.t - lifted.t) / (eps * condition));
        ++crossings;
        const Vector x_minus = state.x;
        Vector x_plus = state.x;
        const libcont::EventOutcome outcome = system.apply_event(state.mode, event, state.t, x_plus);
        segment.lift_reset(state.mode, state.t, x_minus, outcome.next_mode, x_plus);
        lifting.lift_reset(lifted.mode, lifted.t, lifted.x, outcome.next_mode, x_plus);
        state.x = x_plus;
        state.mode = outcome.next_mode;
      }
      // The next period goes on from the state the flow left, in the tangent's scale a
      // spectrum's orthonormalization leaves (the tangent is not part of what is held).
      state.tangent /= state.tangent.cwiseAbs().maxCoeff();
    }
    INFO("runs " << runs << ", crossings " << crossings << ", worst time " << worst_time
                 << ", worst state " << worst_state << ", after a reset " << worst_after_reset);
    CHECK(crossings >= periods / 2);
    CHECK(worst_time <= 16.0);
    CHECK(worst_state <= 64.0);
    CHECK(worst_after_reset == 0.0);
  };
  for (const char* omega : {"2", "3"}) {
    for (const char* r : {"1", "0.3"}) {
      INFO("moving base, hard, omega = " << omega << ", r = " << r);
      MovingBaseOscillator system = stiff_moving_base("hard", omega);
      system.set_parameter("r", std::atof(r));
      check_model(system, vec2(0.001, 0.0), 300);
    }
  }
  {
    INFO("two-body, newton");
    auto system =
        make_system<systems::TwoBodySystem>({{"contact", "newton"}, {"lambda", "1"}});
    check_model(system, Vector::Zero(4), 100);
  }
}

TEST_CASE("A reset applied to the exact path's lifted state is the model's", "[exact-flow]") {
  // At a crossing a run ended at, the flow applies the reset to the lifted state where the
  // model decides the outcome from the lifted rate (ExactSegment::reset_lifted): the same
  // outcome as apply_event's, x+ the model's to rounding of the phase (ulps of w t times the
  // base's motion), the rate the model's gap rate to that rounding; the next run starts
  // from the state held after it and finds the same event as a run from a lift of the
  // model's x+ (the general path), at the same time to rounding of the crossing's
  // condition. At r = 0.3 the slow rebounds of a chatter go to the model (sticking needs
  // the stuck state's holding force).
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const auto check_model = [](MovingBaseOscillator& system, int least_lifted,
                              bool expect_model_resets) {
    libcont::detail::ExactSegment segment(system, FlowOptions{}, 2),
        general(system, FlowOptions{}, 2);
    general.start_from_held(false);
    FlowState state;
    state.t = 0.1;
    state.x = vec2(0.001, 0.0);
    state.mode = system.mode_of(state.t, state.x);
    state.tangent = Matrix::Identity(2, 2);
    FlowState other = state;
    int lifted_resets = 0, model_resets = 0;
    double worst_state = 0.0, worst_rate = 0.0, worst_time = 0.0;
    const double w = system.parameters()["omega"];
    const double end = state.t + 60.0 * system.forcing_period();
    for (int count = 0; count < 4000 && state.t < end; ++count) {
      REQUIRE(segment.covers(state.mode));
      REQUIRE(general.covers(other.mode));
      libcont::FlowReport report, other_report;
      const int event = segment.run(state, end, false, nullptr, libcont::SampleGrid{}, report);
      const int other_event =
          general.run(other, end, false, nullptr, libcont::SampleGrid{}, other_report);
      REQUIRE(event != libcont::detail::ExactSegment::kFailed);
      REQUIRE(event == other_event);
      libcont::detail::ExactSegment::LiftedEvent at;
      if (event >= 0 && general.lifted_event(other.mode, event, other.t, other.x, at)) {
        const double condition = std::abs(other.t) + at.value_terms / std::abs(at.rate);
        worst_time = std::max(worst_time, std::abs(state.t - other.t) / (eps * condition));
      }
      if (event == libcont::detail::ExactSegment::kReachedEnd) break;
      const Vector x_minus = state.x;
      Vector model_plus = x_minus;
      const libcont::EventOutcome expected =
          system.apply_event(state.mode, event, state.t, model_plus);
      Vector lifted_plus;
      libcont::EventOutcome outcome;
      double rate = 0.0;
      if (segment.reset_lifted(state.mode, event, state.t, x_minus, lifted_plus, outcome, rate)) {
        ++lifted_resets;
        CHECK(outcome.next_mode == expected.next_mode);
        CHECK(outcome.kind == expected.kind);
        CHECK(outcome.terminal == expected.terminal);
        // The phase's rounding, |w t| ulps, times the base's velocity and the state's size.
        const double scale = eps * (1.0 + w * std::abs(state.t)) *
                             (1.0 + w) * (1.0 + x_minus.cwiseAbs().maxCoeff());
        worst_state = std::max(worst_state, (lifted_plus - model_plus).cwiseAbs().maxCoeff() / scale);
        worst_rate = std::max(worst_rate, std::abs(rate - system.gap_rate(0, state.t, x_minus)) / scale);
        // The state held has moved on: a second call at the same crossing gets nothing.
        Vector again;
        CHECK_FALSE(segment.reset_lifted(state.mode, event, state.t, x_minus, again, outcome, rate));
        state.x = lifted_plus;
      } else {
        ++model_resets;
        segment.lift_reset(state.mode, state.t, x_minus, expected.next_mode, model_plus);
        state.x = model_plus;
      }
      state.mode = expected.next_mode;
      // The general path from the model's x+ at the same crossing (it lifts x+).
      other.t = state.t;
      other.x = model_plus;
      other.mode = expected.next_mode;
      state.tangent = other.tangent = Matrix::Identity(2, 2);
    }
    INFO("lifted resets " << lifted_resets << ", model resets " << model_resets
                          << ", worst state " << worst_state << ", worst rate " << worst_rate
                          << ", worst time " << worst_time);
    CHECK(lifted_resets >= least_lifted);
    CHECK((model_resets > 0) == expect_model_resets);
    CHECK(worst_state <= 1.0);
    CHECK(worst_rate <= 1.0);
    CHECK(worst_time <= 64.0);
  };
  for (const char* omega : {"2", "3"}) {
    for (const char* r : {"1", "0.3"}) {
      INFO("moving base, hard, omega = " << omega << ", r = " << r);
      MovingBaseOscillator system = stiff_moving_base("hard", omega);
      system.set_parameter("r", std::atof(r));
      check_model(system, 20, std::string(r) == "0.3" && std::string(omega) == "3");
    }
  }
}

namespace {

// Whether a and b hold the same numbers: the same bits, but for the sign of a zero.
bool same_but_zero_signs(const double* a, const double* b, int size) {
  for (int i = 0; i < size; ++i)
    if (!(a[i] == b[i]) || (a[i] != 0.0 && std::memcmp(a + i, b + i, sizeof(double)) != 0))
      return false;
  return true;
}

// Varied random products of a lifted square with zero forcing rows under the state
// (zeros of either sign) and a block [z | Phi]: the separate state column's product
// against the general one, and the structure's check on the square and on one with a
// single entry under the state made nonzero.
template <int N>
void compare_separate_products(std::mt19937_64& random) {
  constexpr int n = N - 3, columns = 1 + n;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto number = [&] {
    switch (random() % 8) {
      case 0: return 0.0;
      case 1: return -0.0;
      default: return std::ldexp(unit(random), static_cast<int>(random() % 60) - 30);
    }
  };
  for (int trial = 0; trial < 20000; ++trial) {
    double a[N * N], in[N * columns], general[N * columns], separate[N * columns];
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i)
        a[j * N + i] = i >= n && j < n ? (random() % 2 ? 0.0 : -0.0) : number();
    for (int c = 0; c < columns; ++c)
      for (int i = 0; i < N; ++i) in[c * N + i] = c > 0 && i >= n ? 0.0 : number();
    REQUIRE(libcont::detail::forcing_rows_separate<N>(a));
    libcont::detail::block_product<N>(a, in, general, columns);
    libcont::detail::block_product<N, true>(a, in, separate, columns);
    REQUIRE(same_but_zero_signs(general, separate, N * columns));
    const int row = n + static_cast<int>(random() % 3), column = static_cast<int>(random() % n);
    a[column * N + row] = std::ldexp(1.0, -1074);  // the smallest number that is not zero
    REQUIRE_FALSE(libcont::detail::forcing_rows_separate<N>(a));
  }
}

}  // namespace

TEST_CASE("A lifted product with the forcing rows' zeros left out is the general one",
          "[exact-flow]") {
  // lifted_product.hpp: the state column's forcing rows from the forcing block alone, where
  // the square's forcing rows are exactly zero under the state (the lifted generator, its
  // exponentials where checked), for two and four states.
  std::mt19937_64 random(20261201);
  compare_separate_products<5>(random);
  compare_separate_products<7>(random);
}

TEST_CASE("A recurring step of two states by its checked exponential is the general step",
          "[exact-flow]") {
  // The two-state products (propagate_cached, the scan's step by cached_transition) take
  // the forcing rows of the cached exponential and of the generator from their forcing
  // blocks: against propagate, whose products are the general ones, for steps at and near
  // the cached one (the second-order correction by the generator), on varied modes and
  // blocks.
  std::mt19937_64 random(20261202);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    AffineMode mode = affine(0.0, 1.0, -1.0 - std::abs(unit(random)), -0.5 * std::abs(unit(random)),
                             0.5 + 10.0 * std::abs(unit(random)));
    mode.b0[1] = unit(random);
    mode.b_cos[1] = unit(random);
    mode.b_sin[1] = unit(random);
    ExactLinearFlow flow;
    flow.set_block_columns(3);
    flow.set_mode(mode);
    const double step = flow.scan_step() * (0.2 + 0.8 * std::abs(unit(random)));
    Matrix in = Matrix::Zero(5, 3), general(5, 3), sized(5, 3);
    flow.lift(10.0 * unit(random), vec2(unit(random), unit(random)), in.col(0));
    in.block(0, 1, 2, 2) << unit(random), unit(random), unit(random), unit(random);
    flow.propagate(step, in, general);
    flow.propagate(step, in, general);  // a step that recurs: now cached
    bool separate = false;
    const Matrix* cached = flow.cached_transition(step, separate);
    REQUIRE(cached != nullptr);
    REQUIRE(separate);
    REQUIRE(libcont::detail::forcing_rows_separate<5>(cached->data()));
    for (const double tau : {step, step * (1.0 + 1e-12 * unit(random)), std::nextafter(step, 0.0)}) {
      flow.propagate(tau, in, general);
      REQUIRE(flow.propagate_cached<5, 3>(tau, in, sized));
      REQUIRE(same_but_zero_signs(general.data(), sized.data(), 15));
    }
  }
}

TEST_CASE("A run clock with no step taken has no lead: its forcing values stand as held",
          "[exact-flow]") {
  // ExactSegment::turn_back_held keeps the held forcing values without the turn where the
  // clock is at its own start (a lifted reset's): the turn by -w times a zero lead gives
  // them to the bit. Varied times, steps, frequencies and forcing values; and clocks that
  // took a step, or started elsewhere, are not at their start.
  using Clock = libcont::detail::ExactSegment::RunClock;
  std::mt19937_64 random(20261130);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 20000; ++trial) {
    const double t = std::ldexp(unit(random), static_cast<int>(random() % 40) - 10);
    const double step = std::ldexp(1.0 + std::abs(unit(random)), -static_cast<int>(random() % 8));
    const double w = 0.1 + 20.0 * std::abs(unit(random));
    const double c = unit(random), s = unit(random);
    const Clock clock{t, t, step, 0.0};
    REQUIRE(clock.at_own_start(t));
    REQUIRE(clock.lead(t) == 0.0);
    const libcont::detail::HarmonicPhase turn{1.0, -w * clock.lead(t)};
    const double turned_c = c * turn.cosine - s * turn.sine;
    const double turned_s = s * turn.cosine + c * turn.sine;
    REQUIRE(std::memcmp(&turned_c, &c, sizeof c) == 0);
    REQUIRE(std::memcmp(&turned_s, &s, sizeof s) == 0);
    const double tau = step * std::abs(unit(random));
    if (tau > 0.0) REQUIRE_FALSE((Clock{t, t, step, tau}.at_own_start(t + tau)));
    const double earlier = t - step;
    if (earlier != t) REQUIRE_FALSE((Clock{earlier, t, step, 0.0}.at_own_start(t)));
  }
}

TEST_CASE("The exact path's crossing saltation is the model's", "[exact-flow]") {
  // At a crossing a run of the exact path ended at, the flow takes the saltation matrix
  // from the lifted state and the event's affine reset (ExactSegment::crossing_saltation):
  // it must be the one saltation_matrix forms from the model's Jacobians, to rounding, at
  // impacts (the mode kept) and where the motion sticks or leaves (the mode changes), for
  // two and four states; a
  // state one ulp away, or a second call for the same crossing, gets none.
  const auto check_model = [](libcont::HybridSystem& system, const Vector& start,
                              int least_changes) {
    const int n = system.dimension();
    libcont::detail::ExactSegment segment(system, FlowOptions{}, n);
    FlowState state;
    state.t = 0.1;
    state.x = start;
    state.mode = system.mode_of(state.t, state.x);
    state.tangent = Matrix::Identity(n, n);
    libcont::SaltationWorkspace work;
    int kept = 0, changed = 0;
    const double end = state.t + 40.0 * system.forcing_period();
    for (int segment_count = 0; segment_count < 2000 && state.t < end; ++segment_count) {
      if (!segment.covers(state.mode)) break;
      libcont::FlowReport report;
      const int event = segment.run(state, end, false, nullptr, libcont::SampleGrid{}, report);
      REQUIRE(event != libcont::detail::ExactSegment::kFailed);
      if (event == libcont::detail::ExactSegment::kReachedEnd) break;
      const Vector x_minus = state.x;
      Vector x_plus = state.x;
      const libcont::EventOutcome outcome = system.apply_event(state.mode, event, state.t, x_plus);
      const Matrix model = libcont::saltation_matrix(system, state.mode, event, outcome, state.t,
                                                     x_minus, x_plus);
      if (segment_count % 5 == 0) {  // one ulp away: not the crossing (and it is used up)
        Vector moved = x_minus;
        moved[n - 1] = std::nextafter(moved[n - 1], 1.0);
        CHECK_FALSE(segment.crossing_saltation(state.mode, event, outcome, state.t, moved,
                                               x_plus, work));
      } else if (segment.crossing_saltation(state.mode, event, outcome, state.t, x_minus,
                                            x_plus, work)) {
        INFO("mode " << state.mode << " -> " << outcome.next_mode << ", t = " << state.t);
        CHECK((work.result - model).cwiseAbs().maxCoeff() <=
              1e-9 * (1.0 + model.cwiseAbs().maxCoeff()));
        (outcome.next_mode == state.mode ? kept : changed) += 1;
        CHECK_FALSE(segment.crossing_saltation(state.mode, event, outcome, state.t, x_minus,
                                               x_plus, work));
      }
      segment.lift_reset(state.mode, state.t, x_minus, outcome.next_mode, x_plus);
      state.x = x_plus;
      state.mode = outcome.next_mode;
    }
    CHECK(kept >= 10);
    CHECK(changed >= least_changes);
  };
  for (const char* r : {"1", "0.3"}) {
    INFO("moving base, hard, r = " << r);
    MovingBaseOscillator system = stiff_moving_base("hard", "3");
    system.set_parameter("r", std::atof(r));
    check_model(system, vec2(0.001, 0.0), r[0] == '1' ? 0 : 2);
  }
  {
    INFO("two-body, newton");
    auto system =
        make_system<systems::TwoBodySystem>({{"contact", "newton"}, {"lambda", "1"}});
    check_model(system, Vector::Zero(4), 0);
  }
}

TEST_CASE("The exact path's scan with fixed sizes is the general scan to the bit",
          "[exact-flow]") {
  // ExactSegment::run takes a scan with its sizes fixed for two-state modes (with two
  // tangent columns or none), and without an observer the two-state scan in locals
  // (scan_two_states); the general scan must give the same segments to the bit: the same
  // events, times, states, tangents, steps and observed samples and extrema, along
  // trajectories with impacts, chaos, sticking and soft contacts, in runs to a far end
  // and in runs period by period (as a Lyapunov spectrum's: a last step at each period's
  // end), with the scan step and with a shorter maximum step. Where the two-state scan
  // stops at a step to examine, it hands on its end's event values and rates: the general
  // scan forms them itself.
  struct Recorder : libcont::FlowObserver {
    std::vector<double> seen;
    void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
      seen.insert(seen.end(), {t, x[0], x[1], static_cast<double>(mode)});
    }
    void on_extremum(int coordinate, double t, libcont::ConstVectorRef x, int mode) override {
      seen.insert(seen.end(), {-1.0, static_cast<double>(coordinate), t, x[0], x[1],
                               static_cast<double>(mode)});
    }
  };
  const auto same_bits = [](const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::equal(a.data(), a.data() + a.size(), b.data(),
                      [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; });
  };
  int segments = 0, events = 0;
  for (const auto& settings : std::vector<Settings>{
           {{"model", "hard"}, {"r", "1"}, {"omega", "3"}},
           {{"model", "hard"}, {"r", "1"}, {"omega", "6"}},
           {{"model", "hard"}, {"r", "0.3"}, {"omega", "2.5"}},
           {{"model", "soft"}, {"r", "0.8"}, {"omega", "4"}}}) {
    for (const int columns : {2, 0}) {
      for (const int variant : {0, 1, 2, 3}) {
        const bool observed = variant == 1;
        const bool periodwise = variant >= 2;
        auto system = make_system<MovingBaseOscillator>(settings);
        FlowOptions options;
        if (observed) options.extremum_coordinates = {0};
        if (variant == 3) options.max_step = 0.3;
        libcont::detail::ExactSegment sized(system, options, columns);
        libcont::detail::ExactSegment general(system, options, columns);
        general.use_sized_kernels(false);
        const libcont::SampleGrid grid{0.0, observed ? 0.37 : 0.0};
        FlowState state;
        state.t = 0.0;
        state.x = vec2(0.001, 0.0);
        state.tangent = Matrix::Identity(2, columns);
        state.mode = system.mode_of(state.t, state.x);
        const double period = system.forcing_period();
        const double end = 150.0 * period;
        bool after_touch = false;
        for (int k = 0; k < 6000 && state.t < end; ++k) {
          INFO(settings.begin()->second << " columns " << columns << " variant " << variant
                                        << " segment " << k);
          const double stop =
              periodwise ? std::min(end, (std::floor(state.t / period + 1e-9) + 1.0) * period)
                         : end;
          REQUIRE(sized.covers(state.mode));
          REQUIRE(general.covers(state.mode));
          FlowState a = state, b = state;
          libcont::FlowReport report_a, report_b;
          Recorder seen_a, seen_b;
          const int event_a =
              sized.run(a, stop, after_touch, observed ? &seen_a : nullptr, grid, report_a);
          const int event_b =
              general.run(b, stop, after_touch, observed ? &seen_b : nullptr, grid, report_b);
          ++segments;
          REQUIRE(event_a == event_b);
          REQUIRE(event_a != libcont::detail::ExactSegment::kFailed);
          CHECK(std::memcmp(&a.t, &b.t, sizeof a.t) == 0);
          CHECK(same_bits(a.x, b.x));
          CHECK(same_bits(a.tangent, b.tangent));
          CHECK(report_a.steps == report_b.steps);
          CHECK(seen_a.seen == seen_b.seen);
          if (event_a == libcont::detail::ExactSegment::kReachedEnd) {
            state = a;
            continue;
          }
          ++events;
          const libcont::EventOutcome outcome = system.apply_event(a.mode, event_a, a.t, a.x);
          a.mode = outcome.next_mode;
          after_touch = false;
          state = a;
        }
      }
    }
  }
  CHECK(segments > 1500);
  CHECK(events > 1500);

  // Starts just off the base, approaching it so slowly that the gap dips a little
  // through zero and back within a fraction of a scan step: the grazing double crossings
  // inside one step, which only the turning test finds (the two-state scan must hand such
  // steps on). Both sides: the relative acceleration x'' - b'' has the sign of sin(w t)
  // near the base.
  auto system = make_system<MovingBaseOscillator>({{"model", "hard"}, {"r", "0.8"}, {"omega", "3"}});
  const double period = system.forcing_period();
  const auto& p = system.parameters();
  std::mt19937 random(41);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int grazing_events = 0;
  // Kept from start to start: the scan step's transition is cached after its first steps.
  libcont::detail::ExactSegment sized(system, FlowOptions{}, 2);
  libcont::detail::ExactSegment general(system, FlowOptions{}, 2);
  general.use_sized_kernels(false);
  for (int start = 0; start < 400; ++start) {
    INFO("grazing start " << start);
    FlowState state;
    const double side = start % 2 == 0 ? 1.0 : -1.0;
    const double t0 = period * (0.1 + 0.3 * unit(random) + (side > 0.0 ? 0.0 : 0.5));
    const double off = 1e-7 * std::pow(10.0, unit(random));  // |gap| at the start
    const double through = off * (0.05 + unit(random));      // how far the dip goes through
    const double x0 = system.base_position(t0) + side * off;
    const double w = p["omega"];
    double v = system.base_velocity(t0);
    for (int i = 0; i < 3; ++i) {  // the relative velocity of that dip
      const double acceleration =
          (-p["k"] * x0 - p["c"] * v + p["k"] * p["a"] * std::sin(w * t0)) / p["m"] -
          system.base_acceleration(t0);
      v = system.base_velocity(t0) -
          side * std::sqrt(2.0 * std::max(side * acceleration, 0.0) * (off + through));
    }
    state.t = t0;
    state.x = vec2(x0, v);
    state.tangent = Matrix::Identity(2, 2);
    state.mode = system.mode_of(state.t, state.x);
    if (!sized.covers(state.mode)) continue;
    REQUIRE(general.covers(state.mode));
    FlowState a = state, b = state;
    libcont::FlowReport report_a, report_b;
    const double end = state.t + 2.0 * period;
    const int event_a = sized.run(a, end, false, nullptr, libcont::SampleGrid{}, report_a);
    const int event_b = general.run(b, end, false, nullptr, libcont::SampleGrid{}, report_b);
    REQUIRE(event_a == event_b);
    CHECK(std::memcmp(&a.t, &b.t, sizeof a.t) == 0);
    CHECK(same_bits(a.x, b.x));
    CHECK(same_bits(a.tangent, b.tangent));
    CHECK(report_a.steps == report_b.steps);
    if (event_a >= 0) ++grazing_events;
  }
  CHECK(grazing_events > 100);
}
