// dx/dp carried by the flow (FlowOptions::parameter_column) against central differences
// of the stroboscopic map in p, on every path: the exact flow of affine modes (p in the
// forcing, in A, in an event function, in a reset), the integrators (Adams, the
// Runge-Kutta pair, BDF) through a Hertz contact, and the two-body model's own
// derivatives in lambda, including the stick mode whose end depends on the load.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "libcont/affine_modes.hpp"
#include "libcont/input_error.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::AffineMode;
using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventDirection;
using libcont::EventKind;
using libcont::EventOutcome;
using libcont::EventSpec;
using libcont::FlowOptions;
using libcont::IntegratorMethod;
using libcont::Matrix;
using libcont::MatrixRef;
using libcont::StroboscopicMap;
using libcont::Vector;
using libcont::VectorRef;

namespace {

// A forced oscillator x'' + c x' + k x = a cos(w t) under a stop at x = d with
// restitution r: every parameter but w enters one ingredient the column must carry
// (k and c: A; a: the forcing; d: the event function; r: the reset).
class StopOscillator : public libcont::HybridSystem,
                       public libcont::AnalyticJacobians,
                       public libcont::AffineModes,
                       public libcont::ParameterDerivatives {
 public:
  StopOscillator() {
    parameters_.add("k", 1.0, Constraint::Positive, "stiffness");
    parameters_.add("c", 0.1, Constraint::NonNegative, "damping");
    parameters_.add("a", 1.0, Constraint::Any, "forcing amplitude");
    parameters_.add("d", 0.6, Constraint::Any, "stop position");
    parameters_.add("r", 0.8, Constraint::UnitInterval, "restitution");
    parameters_.add("w", 1.3, Constraint::Positive, "forcing frequency");
    configure();
  }
  void configure() override {
    k_ = parameters_["k"];
    c_ = parameters_["c"];
    a_ = parameters_["a"];
    d_ = parameters_["d"];
    r_ = parameters_["r"];
    w_ = parameters_["w"];
  }
  std::string name() const override { return "stop oscillator"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  double forcing_period() const override { return 2.0 * std::numbers::pi / w_; }
  void vector_field(int, double t, ConstVectorRef x, VectorRef f) const override {
    f << x[1], -k_ * x[0] - c_ * x[1] + a_ * std::cos(w_ * t);
  }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  const libcont::AffineModes* affine_modes() const override { return this; }
  const libcont::ParameterDerivatives* parameter_derivatives() const override { return this; }
  bool state_jacobian(int, double, ConstVectorRef, MatrixRef jac) const override {
    jac << 0.0, 1.0, -k_, -c_;
    return true;
  }
  bool affine_mode(int, AffineMode& data) const override {
    data.A << 0.0, 1.0, -k_, -c_;
    data.b0.setZero();
    data.b_cos << 0.0, a_;
    data.b_sin.setZero();
    data.frequency = w_;
    return true;
  }
  int event_count(int) const override { return 1; }
  EventSpec event_spec(int, int) const override {
    return {"stop", EventDirection::Falling, EventKind::Impact};
  }
  double event_function(int, int, double, ConstVectorRef x) const override { return d_ - x[0]; }
  bool event_gradient(int, int, double, ConstVectorRef, VectorRef dh_dx, double& dh_dt) const override {
    dh_dx << -1.0, 0.0;
    dh_dt = 0.0;
    return true;
  }
  EventOutcome apply_event(int, int, double, VectorRef x) const override {
    x[1] = -r_ * x[1];
    return {0, EventKind::Impact, false};
  }
  bool reset_jacobian(int, int, const EventOutcome&, double, ConstVectorRef, MatrixRef dg_dx,
                      VectorRef dg_dt) const override {
    dg_dx << 1.0, 0.0, 0.0, -r_;
    dg_dt.setZero();
    return true;
  }

  enum Id { K, C, A, D, R };
  int derivative_parameter(std::string_view name) const override {
    const std::string_view names[] = {"k", "c", "a", "d", "r"};
    for (int id = 0; id < 5; ++id)
      if (name == names[id]) return id;
    return -1;
  }
  void field_parameter_derivative(int p, int, double t, ConstVectorRef x,
                                  VectorRef df) const override {
    df.setZero();
    if (p == K) df[1] = -x[0];
    if (p == C) df[1] = -x[1];
    if (p == A) df[1] = std::cos(w_ * t);
  }
  double event_parameter_derivative(int p, int, int, double, ConstVectorRef) const override {
    return p == D ? 1.0 : 0.0;
  }
  void reset_parameter_derivative(int p, int, int, const EventOutcome&, double,
                                  ConstVectorRef x_minus, VectorRef dg) const override {
    dg.setZero();
    if (p == R) dg[1] = -x_minus[1];
  }
  bool affine_parameter_derivative(int p, int, AffineMode& d) const override {
    d.A.setZero();
    d.b0.setZero();
    d.b_cos.setZero();
    d.b_sin.setZero();
    if (p == K) d.A(1, 0) = -1.0;
    if (p == C) d.A(1, 1) = -1.0;
    if (p == A) d.b_cos[1] = 1.0;
    return true;
  }

 private:
  double k_ = 1, c_ = 0.1, a_ = 1, d_ = 0.6, r_ = 0.8, w_ = 1.3;
};

// D_p P^n(x) by central differences of the map without the tangent. The maps are those of
// the Runge-Kutta pair at rtol 1e-13, whatever the column was integrated with: Adams'
// integration error through a Hertz contact changes with its step pattern, which p +- h
// do not share, and its differences scatter by 1e-8 absolute at any step h (measured over
// h = 1e-3 .. 1e-7); the pair's agree with each other to 1e-10 at h = 1e-4. Richardson's
// extrapolation from h and h / 2 removes the truncation error h^2 F_ppp / 6 (1e-6 at
// h = 2e-4 for the oscillator's stiffness).
Vector map_difference(libcont::HybridSystem& system, const std::string& parameter,
                      FlowOptions options, ConstVectorRef x, int n, double phase) {
  options.method = IntegratorMethod::RungeKutta;
  const double p = system.parameters()[parameter], h = 1e-4 * (1.0 + std::abs(p));
  const auto central = [&](double step) {
    Vector images[2];
    for (int side = 0; side < 2; ++side) {
      system.set_parameter(parameter, side == 0 ? p + step : p - step);
      StroboscopicMap map(system, options, phase);
      const auto e = map.iterate(x, n, false);
      REQUIRE(e.ok());
      images[side] = e.x;
    }
    system.set_parameter(parameter, p);
    return Vector((images[0] - images[1]) / (2.0 * step));
  };
  return (4.0 * central(0.5 * h) - central(h)) / 3.0;
}

struct ColumnCheck {
  Vector column, difference;
  test_support::Recorder recorded;  // the events along the map
};

ColumnCheck check_column(libcont::HybridSystem& system, const std::string& parameter,
                         FlowOptions options, ConstVectorRef x, int n, double phase = 0.0) {
  ColumnCheck check;
  check.difference = map_difference(system, parameter, options, x, n, phase);
  options.parameter_column = parameter;
  StroboscopicMap map(system, options, phase);
  const auto e = map.iterate(x, n, true);
  REQUIRE(e.ok());
  REQUIRE(e.jacobian.cols() == x.size());
  check.column = e.parameter_derivative;
  options.parameter_column.clear();
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(phase, x);
  REQUIRE(flow.advance(state, phase + n * system.forcing_period(), &check.recorded).ok());
  return check;
}

FlowOptions tight(IntegratorMethod method, bool exact) {
  FlowOptions o = test_support::tight_options();
  o.method = method;
  o.exact_linear_modes = exact;
  return o;
}

}  // namespace

TEST_CASE("Parameter column: every ingredient of an affine impact oscillator, exact and integrated",
          "[parameter-column]") {
  StopOscillator system;
  Vector x0(2);
  x0 << 0.2, 0.9;
  for (const std::string parameter : {"k", "c", "a", "d", "r"}) {
    for (const bool exact : {true, false}) {
      const ColumnCheck c = check_column(system, parameter, tight(IntegratorMethod::Auto, exact), x0, 3);
      INFO("parameter " << parameter << (exact ? ", exact path" : ", Adams") << ": column "
                        << c.column.transpose() << ", differences " << c.difference.transpose());
      CHECK(c.recorded.count(EventKind::Impact) >= 2);  // the event terms count
      CHECK((c.column - c.difference).norm() <= 1e-8 * (1.0 + c.difference.norm()));
    }
  }
}

TEST_CASE("Parameter column: the two-body loading in lambda, Hertz contact and sticking",
          "[parameter-column]") {
  struct Case {
    const char* contact;
    const char* r;
    double lambda;
    IntegratorMethod method;
  };
  // Hertz: the contact mode by Adams, the Runge-Kutta pair and BDF; newton with r = 0:
  // every impact sticks, and the stick ends where the load-dependent joining force does.
  for (const Case& k : {Case{"hertz", "1", 1.5, IntegratorMethod::Auto},
                        Case{"hertz", "1", 1.5, IntegratorMethod::RungeKutta},
                        Case{"hertz", "1", 0.6, IntegratorMethod::BDF},
                        Case{"newton", "0", 5.0, IntegratorMethod::Auto}}) {
    auto system = test_support::make_system<systems::TwoBodySystem>(
        {{"contact", k.contact}, {"r", k.r}, {"lambda", std::to_string(k.lambda)}});
    // A state on the settled motion: the contact is met within the map.
    libcont::Flow flow(system);
    libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
    REQUIRE(flow.advance(state, 60 * system.forcing_period()).ok());
    const ColumnCheck c = check_column(system, "lambda", tight(k.method, true), state.x, 2,
                                       60 * system.forcing_period());
    INFO("contact " << k.contact << ", lambda " << k.lambda << ", method "
                    << static_cast<int>(k.method) << ": column " << c.column.transpose()
                    << ", differences " << c.difference.transpose());
    if (std::string(k.contact) == "hertz") CHECK(c.recorded.count(EventKind::ContactEnd) >= 1);
    else CHECK(c.recorded.count(EventKind::StickEnd) >= 1);  // D_lambda h of the joining force
    CHECK((c.column - c.difference).norm() <= 1e-7 * c.difference.norm());
  }
}

TEST_CASE("Parameter column: model derivatives of the two-body system against differences",
          "[parameter-column]") {
  for (const char* contact : {"hertz", "newton"}) {
    auto system = test_support::make_system<systems::TwoBodySystem>(
        {{"contact", contact}, {"lambda", "1.7"}});
    const int id = system.derivative_parameter("lambda");
    REQUIRE(id >= 0);
    CHECK(system.derivative_parameter("omega") < 0);  // changes the period: not given
    Vector x(4);
    x << 0.03, 0.01, -0.2, 0.1;
    const double t = 0.37, h = 1e-6;
    for (int mode = 0; mode < system.mode_count(); ++mode) {
      Vector up(4), down(4), analytic(4);
      system.set_parameter("lambda", 1.7 + h);
      system.vector_field(mode, t, x, up);
      const double h_up = system.event_function(mode, 0, t, x);
      AffineMode affine_up{Matrix::Zero(4, 4), Vector::Zero(4), Vector::Zero(4), Vector::Zero(4)};
      const bool affine = system.affine_mode(mode, affine_up);
      system.set_parameter("lambda", 1.7 - h);
      system.vector_field(mode, t, x, down);
      const double h_down = system.event_function(mode, 0, t, x);
      AffineMode affine_down = affine_up;
      system.affine_mode(mode, affine_down);
      system.set_parameter("lambda", 1.7);
      system.field_parameter_derivative(id, mode, t, x, analytic);
      INFO(contact << " mode " << mode);
      // Differences of f lose eps |f| / h to rounding (|f| ~ 1e5 in a Hertz contact).
      CHECK((analytic - (up - down) / (2 * h)).norm() <= 1e-8 * (1.0 + up.norm()));
      CHECK(system.event_parameter_derivative(id, mode, 0, t, x) ==
            Approx((h_up - h_down) / (2 * h)).margin(1e-8));
      AffineMode derivative = affine_up;
      REQUIRE(system.affine_parameter_derivative(id, mode, derivative) == affine);
      if (!affine) continue;
      CHECK(derivative.A.isZero());
      CHECK((derivative.b_cos - (affine_up.b_cos - affine_down.b_cos) / (2 * h)).norm() <= 1e-8);
      CHECK((derivative.b0 - (affine_up.b0 - affine_down.b0) / (2 * h)).norm() <= 1e-8);
    }
  }
}

TEST_CASE("Parameter column: a model without derivatives in p is refused by name",
          "[parameter-column]") {
  systems::TwoBodySystem system;
  FlowOptions o;
  o.tangent = true;
  o.parameter_column = "omega";
  CHECK_THROWS_WITH(libcont::Flow(system, o),
                    Catch::Contains("omega") && Catch::Contains("no derivatives"));
  o.tangent = false;  // only carried with the tangent
  CHECK_NOTHROW(libcont::Flow(system, o));
}

TEST_CASE("Parameter column: continuation locates the same fold as with differences of maps",
          "[parameter-column]") {
  // The two-body Hertz branch across its lower fold (lambda = 0.56473, doc/reproduction.md)
  // once with dF/dlambda from the column and once by the forward difference.
  double folds[2] = {0.0, 0.0};
  for (const bool by_column : {true, false}) {
    auto system = test_support::make_system<systems::TwoBodySystem>({{"lambda", "0.55"}});
    libcont::Flow flow(system);
    libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
    REQUIRE(flow.advance(state, 300 * system.forcing_period()).ok());
    libcont::PeriodicOrbitProblem problem(system, "lambda", 1);
    REQUIRE(problem.column_available());
    problem.dlambda_by_column = by_column;
    libcont::ContinuationOptions options;
    options.lambda_min = 0.5;
    options.lambda_max = 0.6;
    options.max_step = 0.005;
    options.initial_step = 0.002;
    options.locate_tolerance = 1e-10;
    options.max_points = 400;
    const auto branch = libcont::PseudoArclength(problem, options).run(state.x, 0.55);
    for (const auto& p : branch.special_points)
      if (p.type == libcont::SpecialPointType::Fold && p.lambda < 0.566) folds[by_column ? 0 : 1] = p.lambda;
    const auto& w = problem.statistics();
    INFO((by_column ? "column" : "difference") << ": " << w.evaluations << " evaluations, "
                                               << w.plain_maps << " plain maps");
    CHECK(folds[by_column ? 0 : 1] != 0.0);
    if (by_column) CHECK(w.plain_maps <= w.residuals + 1);  // no maps for differences
  }
  CHECK(folds[0] == Approx(folds[1]).margin(1e-8));
  CHECK(folds[0] == Approx(0.5647304).margin(1e-6));
}
