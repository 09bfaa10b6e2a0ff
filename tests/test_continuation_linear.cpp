// Branches of periodic orbits of a forced linear oscillator without contact, against the
// closed-form frequency response:
//   m x'' + c x' + k x = lambda cos(eta t),
// steady state x = Re(X e^{i eta t}), X = lambda / (k - m eta^2 + i c eta), so on the
// section t = 0: x = Re X, x' = -eta Im X, and the semi-amplitude is |X|. The monodromy
// matrix is exp(A T) with A = [0 1; -k/m -c/m], T = 2 pi / eta: the Floquet multipliers
// are exp(mu T) for the eigenvalues mu of A. Linear, so the orbit is found in one Newton
// step: the errors measured are the flow's (rtol 1e-11), not the corrector's.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <numbers>

#include <unsupported/Eigen/MatrixFunctions>

#include "libcont/floquet.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"

using libcont::ConstVectorRef;
using libcont::ContinuationOptions;
using libcont::ContinuationResult;
using libcont::Matrix;
using libcont::MatrixRef;
using libcont::PeriodicOrbitProblem;
using libcont::PseudoArclength;
using libcont::Vector;
using libcont::VectorRef;

namespace {

// A model with no events at all, written as a user would (doc/library.md).
class ForcedLinearOscillator : public libcont::HybridSystem, public libcont::AnalyticJacobians {
 public:
  ForcedLinearOscillator() {
    using libcont::Constraint;
    parameters_.add("m", 1.0, Constraint::Positive, "mass");
    parameters_.add("k", 1.0, Constraint::Positive, "stiffness");
    parameters_.add("c", 0.2, Constraint::NonNegative, "damping");
    parameters_.add("lambda", 1.0, Constraint::Any, "forcing amplitude");
    parameters_.add("omega", 0.5, Constraint::Positive, "forcing circular frequency");
    configure();
  }
  void configure() override {
    m_ = parameters_["m"];
    k_ = parameters_["k"];
    c_ = parameters_["c"];
    lambda_ = parameters_["lambda"];
    eta_ = parameters_["omega"];
  }
  std::string name() const override { return "forced-linear-oscillator"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  double forcing_period() const override { return 2.0 * std::numbers::pi / eta_; }
  void vector_field(int, double t, ConstVectorRef x, VectorRef dxdt) const override {
    dxdt[0] = x[1];
    dxdt[1] = (lambda_ * std::cos(eta_ * t) - c_ * x[1] - k_ * x[0]) / m_;
  }
  const libcont::AnalyticJacobians* analytic_jacobians() const override { return this; }
  bool state_jacobian(int, double, ConstVectorRef, MatrixRef jac) const override {
    jac = system_matrix();
    return true;
  }

  Matrix system_matrix() const {
    Matrix a(2, 2);
    a << 0.0, 1.0, -k_ / m_, -c_ / m_;
    return a;
  }
  std::complex<double> complex_amplitude() const {
    return lambda_ / std::complex<double>(k_ - m_ * eta_ * eta_, c_ * eta_);
  }
  Vector exact_section_point() const {
    const auto X = complex_amplitude();
    Vector x(2);
    x << X.real(), -eta_ * X.imag();
    return x;
  }

 private:
  double m_ = 1, k_ = 1, c_ = 0.2, lambda_ = 1, eta_ = 0.5;
};

// The pair exp(mu T), mu = -c/2m +- i sqrt(k/m - (c/2m)^2), the one with positive
// imaginary part first (underdamped).
Eigen::VectorXcd exact_multipliers(const ForcedLinearOscillator& s) {
  const auto& p = s.parameters();
  const double beta = p["c"] / (2.0 * p["m"]);
  const double omega_d = std::sqrt(p["k"] / p["m"] - beta * beta);
  const double period = s.forcing_period();
  Eigen::VectorXcd mu(2);
  mu[0] = std::exp(std::complex<double>(-beta, omega_d) * period);
  mu[1] = std::conj(mu[0]);
  return mu;
}

// Largest relative error of the computed multipliers (any order) against the exact pair.
double multiplier_error(const Eigen::VectorXcd& computed, const Eigen::VectorXcd& exact) {
  REQUIRE(computed.size() == 2);
  const double scale = std::abs(exact[0]);
  const double direct = std::max(std::abs(computed[0] - exact[0]), std::abs(computed[1] - exact[1]));
  const double swapped =
      std::max(std::abs(computed[0] - exact[1]), std::abs(computed[1] - exact[0]));
  return std::min(direct, swapped) / scale;
}

// Worst errors measured (rtol 1e-11): lambda branch (158 points) state 6e-11, amplitude
// 3e-11, multipliers 7e-10; eta branch (321 points) state 2.6e-9 and amplitude 2.0e-9
// near the resonance (the corrector stops at |F| <= 1e-9 (1 + |u|) with |u| ~ 5),
// multipliers 5e-9.
struct BranchErrors {
  double state = 0.0;       // |u - exact| / |X|
  double amplitude = 0.0;   // |A_max - |X|| / |X|, A_max from the orbit's measured extrema
  double multipliers = 0.0;
  double monodromy = 0.0;   // |Phi(T) - exp(A T)| / |exp(A T)|
};

// Checks every point of a branch against the closed forms; returns the worst errors.
BranchErrors check_branch(ForcedLinearOscillator& system, PeriodicOrbitProblem& problem,
                          const ContinuationResult& result) {
  BranchErrors worst;
  for (const auto& point : result.points) {
    system.set_parameter(problem.parameter(), point.lambda);
    Vector residual, dlambda;
    Matrix du;
    REQUIRE(problem.evaluate(point.u, point.lambda, residual, du, dlambda));
    const double amplitude = std::abs(system.complex_amplitude());
    const double state = (point.u - system.exact_section_point()).norm() / amplitude;
    REQUIRE(problem.measures().coordinates.size() == 1);
    const double measured = problem.measures().semi_amplitude(0);
    const double amplitude_error = std::abs(measured - amplitude) / amplitude;
    const auto floquet = libcont::floquet_multipliers(problem.monodromy());
    const double mu = multiplier_error(floquet.multipliers, exact_multipliers(system));
    const Matrix exact_monodromy = (system.system_matrix() * system.forcing_period()).exp();
    const double phi =
        (problem.monodromy() - exact_monodromy).norm() / exact_monodromy.norm();
    INFO(problem.parameter() << " = " << point.lambda << ": state error " << state
                             << ", amplitude error " << amplitude_error
                             << ", multiplier error " << mu << ", monodromy error " << phi);
    CHECK(state <= 1e-8);
    CHECK(amplitude_error <= 1e-8);
    CHECK(mu <= 1e-8);
    CHECK(phi <= 1e-8);
    CHECK(floquet.stable);
    CHECK(problem.impacts() == 0);
    worst.state = std::max(worst.state, state);
    worst.amplitude = std::max(worst.amplitude, amplitude_error);
    worst.multipliers = std::max(worst.multipliers, mu);
    worst.monodromy = std::max(worst.monodromy, phi);
  }
  return worst;
}

}  // namespace

TEST_CASE("Linear oscillator: one shooting step finds the exact orbit", "[orbits]") {
  ForcedLinearOscillator system;
  libcont::Shooting shooting(system, 1);
  const auto result = shooting.solve(Vector::Zero(2));
  INFO(result.reason);
  REQUIRE(result.converged);
  CHECK(result.iterations == 1);  // F is affine in x: Newton is exact in one step
  CHECK(result.p == 0);
  const double amplitude = std::abs(system.complex_amplitude());
  CHECK((result.x - system.exact_section_point()).norm() <= 1e-9 * amplitude);
}

TEST_CASE("Linear oscillator: loading curve in lambda matches the frequency response",
          "[continuation]") {
  ForcedLinearOscillator system;
  system.set_parameter("omega", 0.8);
  PeriodicOrbitProblem problem(system, "lambda", 1);
  ContinuationOptions options;
  options.lambda_min = 0.1;
  options.lambda_max = 3.0;
  options.initial_step = 0.01;
  options.max_step = 0.05;
  PseudoArclength engine(problem, options);
  system.set_parameter("lambda", 0.1);
  const ContinuationResult result = engine.run(Vector::Zero(2), 0.1);
  INFO("stop: " << result.stop_reason << ", points " << result.points.size());
  REQUIRE(result.ok());
  CHECK(result.points.back().lambda == Approx(3.0).margin(1e-12));
  CHECK(result.points.size() >= 50);
  CHECK(result.special_points.empty());
  check_branch(system, problem, result);
}

TEST_CASE("Linear oscillator: frequency-response curve in eta across the resonance",
          "[continuation]") {
  ForcedLinearOscillator system;
  PeriodicOrbitProblem problem(system, "omega", 1);
  ContinuationOptions options;
  options.lambda_min = 0.3;
  options.lambda_max = 3.0;
  options.initial_step = 0.01;
  options.max_step = 0.05;
  PseudoArclength engine(problem, options);
  system.set_parameter("omega", 0.3);
  const ContinuationResult result = engine.run(Vector::Zero(2), 0.3);
  INFO("stop: " << result.stop_reason << ", points " << result.points.size());
  REQUIRE(result.ok());
  CHECK(result.points.back().lambda == Approx(3.0).margin(1e-12));
  CHECK(result.points.size() >= 50);
  // No fold (a linear response curve is single-valued), no flip, no torus.
  CHECK(result.special_points.empty());
  // The resonance is resolved: the largest amplitude on the branch is within 1 % of the
  // peak lambda / (c sqrt(k/m - c^2 / 4 m^2)) = 5.025 (at eta = sqrt(k/m - c^2/2m^2)).
  double largest = 0.0;
  for (const auto& p : result.points) largest = std::max(largest, std::hypot(p.u[0], p.u[1] / p.lambda));
  const double peak = 1.0 / (0.2 * std::sqrt(1.0 - 0.01));
  CHECK(largest == Approx(peak).epsilon(1e-2));
  check_branch(system, problem, result);
}
