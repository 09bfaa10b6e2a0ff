// The event-free time of the exact path (libcont/src/event_free_bound.hpp): within the
// time it gives, no affine event function changes sign. Checked against the exact
// solution sampled densely (matrix exponentials of the lifted generator) from random
// states of the moving base's free flight and of a three-state mode with a real and a
// complex pair of eigenvalues; the bound must also be useful (a fair fraction of the true
// time to the first crossing), and absent where its construction does not hold (A
// defective, A in resonance with the forcing).
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "../libcont/src/event_free_bound.hpp"
#include "libcont/exact_linear_flow.hpp"
#include "libcont/flow.hpp"
#include "systems/moving_base.hpp"

using libcont::AffineMode;
using libcont::ExactLinearFlow;
using libcont::Matrix;
using libcont::Vector;
using libcont::detail::EventFreeBound;

namespace {

struct EventTimes : libcont::FlowObserver {
  std::vector<double> times;
  void on_event(const libcont::EventRecord& event) override { times.push_back(event.t); }
};

struct Run {
  std::vector<double> events;
  libcont::FlowState final_state;
  long steps = 0;
};

// The hard moving base (r = 1) from rest over `periods` forcing periods with the tangent
// on, on the general exact path, crossing event-free steps at once or looking at every one.
Run run_moving_base(double eta, double d, int periods, bool skip) {
  systems::MovingBaseOscillator system;
  system.set_parameter("omega", eta);
  system.set_parameter("d", d);
  libcont::FlowOptions options;
  options.tangent = true;
  options.skip_event_free_steps = skip;
  options.clear_impact_loop = false;  // the general path's scan, whose steps the bound skips
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, Vector::Zero(2));
  EventTimes observer;
  Run run;
  const double period = system.forcing_period();
  for (int k = 1; k <= periods; ++k) {
    const libcont::FlowReport report = flow.advance(state, k * period, &observer);
    REQUIRE(report.ok());
    run.steps += report.steps;
  }
  run.events = observer.times;
  run.final_state = state;
  return run;
}

}  // namespace

namespace {

struct Outcome {
  int violations = 0;     // sign changes inside the clear time
  double median_share = 0;  // clear time / true time to the first sign change
};

// Random lifted states at random phases; for each, the clear time against the sampled
// exact solution up to `horizon`.
Outcome check(ExactLinearFlow& flow, const Matrix& coefficients, double state_scale,
              double horizon, unsigned seed) {
  const int n = flow.dimension();
  const int events = static_cast<int>(coefficients.cols());
  EventFreeBound bound;
  REQUIRE(bound.prepare(flow.generator(), n, flow.forcing_scale(), coefficients, events));
  const Matrix rates = flow.generator().transpose() * coefficients;
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::array<Matrix, 3> work;
  Matrix transition;
  Outcome outcome;
  std::vector<double> shares;
  constexpr int kSamples = 400;
  for (int trial = 0; trial < 200; ++trial) {
    Vector x(n);
    for (int i = 0; i < n; ++i) x[i] = state_scale * unit(random);
    Matrix z(n + 3, 1);
    flow.lift(10.0 * unit(random), x, z.col(0));
    std::vector<double> values(static_cast<size_t>(events)), slopes(values.size());
    for (int j = 0; j < events; ++j) {
      values[static_cast<size_t>(j)] = coefficients.col(j).dot(z.col(0));
      slopes[static_cast<size_t>(j)] = rates.col(j).dot(z.col(0));
    }
    const double clear = bound.clear_time(z, values.data(), slopes.data(), horizon);
    REQUIRE(clear >= 0.0);
    REQUIRE(clear <= horizon);
    double first_change = horizon;
    for (int k = 1; k <= kSamples; ++k) {
      const double s = horizon * k / kSamples;
      libcont::matrix_exponential(flow.generator() * s, transition, work);
      const Vector later = transition * z.col(0);
      bool changed = false;
      for (int j = 0; j < events; ++j)
        changed = changed || coefficients.col(j).dot(later) * values[static_cast<size_t>(j)] <= 0.0;
      if (changed) {
        first_change = s;
        if (s < clear) ++outcome.violations;
        break;
      }
    }
    shares.push_back(clear / first_change);
  }
  std::nth_element(shares.begin(), shares.begin() + shares.size() / 2, shares.end());
  outcome.median_share = shares[shares.size() / 2];
  return outcome;
}

AffineMode three_state_mode() {
  AffineMode mode;
  mode.A.resize(3, 3);
  mode.A << -0.3, 1.0, 0.2,  //
      -2.0, -0.1, 0.5,       //
      0.1, 0.0, -0.8;        // a real eigenvalue and a damped complex pair
  mode.b0 = Vector::Constant(3, 0.05);
  mode.b_cos = (Vector(3) << 0.0, 0.3, 0.0).finished();
  mode.b_sin = (Vector(3) << 0.1, 0.0, -0.2).finished();
  mode.frequency = 2.5;
  return mode;
}

}  // namespace

TEST_CASE("event-free time: the moving base's gap keeps its sign within it") {
  systems::MovingBaseOscillator system;
  system.set_parameter("omega", 4.0);
  system.set_parameter("d", -0.001);
  AffineMode mode;  // sized as the exact path sizes it
  mode.A = Matrix::Zero(2, 2);
  mode.b0 = mode.b_cos = mode.b_sin = Vector::Zero(2);
  REQUIRE(system.affine_modes()->affine_mode(0, mode));
  ExactLinearFlow flow;
  flow.set_mode(mode);
  Matrix coefficients(5, 1);
  REQUIRE(system.affine_modes()->affine_event(0, 0, coefficients.col(0)));
  coefficients.col(0).tail(3) /= flow.forcing_scale();
  const Outcome outcome = check(flow, coefficients, 0.01, 3.0, 7u);
  CHECK(outcome.violations == 0);
  // Useful: a fair share of the true time (the parabola's curvature bound is the price).
  CHECK(outcome.median_share > 0.25);
}

TEST_CASE("event-free time: a three-state mode with two event functions") {
  ExactLinearFlow flow;
  flow.set_mode(three_state_mode());
  Matrix coefficients(6, 2);
  coefficients.col(0) << 1.0, 0.0, 0.5, 0.02, 0.0, -0.01;
  coefficients.col(1) << 0.0, -1.0, 1.0, 0.3, 0.05, 0.0;
  coefficients.topRows(6).bottomRows(3) /= flow.forcing_scale();
  const Outcome outcome = check(flow, coefficients, 1.0, 2.0, 11u);
  CHECK(outcome.violations == 0);
  CHECK(outcome.median_share > 0.3);
}

TEST_CASE("event-free time: Pi from the eigen-decomposition equals the Sylvester solution") {
  // A sequence of preparations as along a loading curve (the forcing scaled, A kept), then
  // a new A: Pi must follow both, as the Sylvester equation solved anew gives it.
  std::mt19937 random(23);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int decomposed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + trial % 7;  // 2 to 8 states: 2 keeps the Sylvester path
    EventFreeBound bound;
    for (int dynamics = 0; dynamics < 2; ++dynamics) {
      AffineMode mode;
      mode.A.resize(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) mode.A(i, j) = unit(random);
      // Diagonally dominant with a negative diagonal: every eigenvalue in the left half-plane.
      mode.A.diagonal().array() -= mode.A.cwiseAbs().rowwise().sum().maxCoeff() + 0.1;
      mode.frequency = 0.5 + 2.0 * (unit(random) + 1.0);
      mode.b0.resize(n), mode.b_cos.resize(n), mode.b_sin.resize(n);
      for (int i = 0; i < n; ++i)
        mode.b0[i] = unit(random), mode.b_sin[i] = unit(random), mode.b_cos[i] = unit(random);
      libcont::EigenTransition eigen;
      for (const double load : {0.1, 0.5, 0.5, 2.0, 3.0}) {
        INFO("n = " << n << ", trial " << trial << ", A number " << dynamics << ", load " << load);
        AffineMode loaded = mode;
        loaded.b_cos *= load;
        ExactLinearFlow flow;
        flow.set_mode(loaded);
        Matrix coefficients = Matrix::Zero(n + 3, 1);
        coefficients(0, 0) = 1.0;
        REQUIRE(bound.prepare(flow.generator(), n, flow.forcing_scale(), coefficients, 1));
        Matrix reference;
        REQUIRE(libcont::detail::periodic_particular_solution(flow.generator(), n, reference));
        const double scale = reference.cwiseAbs().maxCoeff();
        CHECK((bound.particular() - reference).cwiseAbs().maxCoeff() <= 1e-12 * scale);
        // Where the decomposition serves, the bound takes Pi from it (the same numbers to
        // the bit), not from the Sylvester solve.
        if (eigen.set_dynamics(flow.generator().topLeftCorner(n, n)) &&
            eigen.set_forcing(flow.generator().block(0, n, n, 3),
                              flow.generator()(n + 2, n + 1))) {
          ++decomposed;
          CHECK(bound.particular() == eigen.particular());
        }
      }
    }
  }
  CHECK(decomposed > 200);  // most of the 3- to 8-state modes take the eigen path
}

TEST_CASE("event-free time: no bound where its construction fails") {
  Matrix coefficients(5, 1);
  coefficients.col(0) << 1.0, 0.0, 0.0, 0.0, 0.0;
  // x' = A x + (0, sin(w t)) with A = [[a00, a01], [a10, a11]].
  const auto prepared = [&](double a00, double a01, double a10, double a11, double w) {
    AffineMode mode;
    mode.A.resize(2, 2);
    mode.A << a00, a01, a10, a11;
    mode.b0 = mode.b_cos = mode.b_sin = Vector::Zero(2);
    mode.b_sin[1] = 1.0;
    mode.frequency = w;
    ExactLinearFlow flow;
    flow.set_mode(mode);
    EventFreeBound bound;
    return bound.prepare(flow.generator(), 2, flow.forcing_scale(), coefficients, 1);
  };
  CHECK(prepared(0.0, 1.0, -4.0, -0.1, 2.0));  // the control: damped, off resonance
  // Defective A: a double eigenvalue -1 with one eigenvector.
  CHECK_FALSE(prepared(-1.0, 1.0, 0.0, -1.0, 1.5));
  // Singular A (the stick mode: no periodic particular solution).
  CHECK_FALSE(prepared(0.0, 1.0, 0.0, 0.0, 1.5));
  // An undamped oscillator forced at its natural frequency.
  CHECK_FALSE(prepared(0.0, 1.0, -4.0, 0.0, 2.0));
  EventFreeBound unprepared;
  double value = 1.0, rate = 0.0;
  const Matrix z = Matrix::Zero(5, 1);
  CHECK(unprepared.clear_time(z, &value, &rate, 1.0) == 0.0);
}

TEST_CASE("crossing event-free steps at once changes no crossing") {
  // Periodic motions (z = 1/1, 1/2, 1/4) over 300 periods, and a chaotic one (eta = 3,
  // lambda_1 = 0.17: rounding differences reach 1e-9 after about 40 periods) over 30,
  // whose impacts come at every phase and speed, grazing ones among them. The same
  // impacts at the same times (to rounding grown by the motion), the same state and
  // tangent, in fewer looks at the events.
  struct Case {
    double eta, d;
    int periods;
    double tolerance;
  };
  for (const Case c : {Case{2.0, 0.0, 300, 1e-12}, Case{4.0, 0.0, 300, 1e-12},
                       Case{8.0, 0.0, 300, 1e-12}, Case{4.0, -0.002, 300, 1e-12},
                       Case{3.0, 0.0, 30, 1e-9}}) {
    INFO("eta = " << c.eta << ", d = " << c.d);
    const Run skipping = run_moving_base(c.eta, c.d, c.periods, true);
    const Run looking = run_moving_base(c.eta, c.d, c.periods, false);
    REQUIRE(skipping.events.size() == looking.events.size());
    CHECK(!skipping.events.empty());
    double worst = 0.0;
    for (size_t i = 0; i < skipping.events.size(); ++i)
      worst = std::max(worst, std::abs(skipping.events[i] - looking.events[i]) /
                                  std::max(1.0, std::abs(looking.events[i])));
    CHECK(worst <= c.tolerance);
    const double scale = looking.final_state.x.cwiseAbs().maxCoeff();
    CHECK((skipping.final_state.x - looking.final_state.x).cwiseAbs().maxCoeff() <=
          1e3 * c.tolerance * scale);
    const Matrix& phi = looking.final_state.tangent;
    CHECK((skipping.final_state.tangent - phi).cwiseAbs().maxCoeff() <=
          1e3 * c.tolerance * phi.cwiseAbs().maxCoeff());
    CHECK(skipping.steps == looking.steps);  // the same scan grid: crossed steps count
  }
}
