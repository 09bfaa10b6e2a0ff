// expm(M s) of a lifted affine mode from A's eigen-decomposition (eigen_transition.hpp)
// against the series exponential (matrix_exponential) and against the derivative
// d/ds expm(M s) = M expm(M s) by central differences; its particular solution against
// its defining equation; the modes it must refuse (a rigid-body mode, resonance); and the
// two-body model's free mode, as the loading curve's flights use it.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "libcont/affine_modes.hpp"
#include "libcont/eigen_transition.hpp"
#include "libcont/exact_linear_flow.hpp"
#include "systems/two_body.hpp"

using libcont::AffineMode;
using libcont::EigenTransition;
using libcont::ExactLinearFlow;
using libcont::Matrix;

namespace {

// The lifted generator M of `mode` as ExactLinearFlow builds it, and its transition.
struct Lifted {
  ExactLinearFlow flow;
  EigenTransition eigen;
  bool usable = false;
  explicit Lifted(const AffineMode& mode) {
    flow.set_mode(mode);
    const int n = flow.dimension();
    usable = eigen.set_dynamics(mode.A) &&
             eigen.set_forcing(flow.generator().block(0, n, n, 3), mode.frequency);
  }
};

// max |a - b| / max |b|
double relative_difference(const Matrix& a, const Matrix& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

// A damped chain of `n / 2` masses (distinct eigenvalues, a well-conditioned basis) with
// random masses, springs, dampers and forcing.
AffineMode random_chain(int n, std::mt19937& random) {
  std::uniform_real_distribution<double> uniform(0.5, 2.0);
  const int m = n / 2;
  Matrix K = Matrix::Zero(m, m), C = Matrix::Zero(m, m), Minv = Matrix::Zero(m, m);
  for (int i = 0; i < m; ++i) {
    Minv(i, i) = 1.0 / uniform(random);
    const double k = 10.0 * uniform(random), c = 0.1 * uniform(random);
    K(i, i) += k, C(i, i) += c;
    if (i + 1 < m) K(i, i) += k, K(i + 1, i + 1) += k, K(i, i + 1) -= k, K(i + 1, i) -= k;
  }
  AffineMode mode;
  mode.A = Matrix::Zero(n, n);
  mode.A.topRightCorner(m, m).setIdentity();
  mode.A.bottomLeftCorner(m, m) = -Minv * K;
  mode.A.bottomRightCorner(m, m) = -Minv * C;
  mode.b0 = libcont::Vector::Zero(n);
  mode.b_cos = libcont::Vector::Zero(n);
  mode.b_sin = libcont::Vector::Zero(n);
  for (int i = m; i < n; ++i) {
    mode.b0[i] = uniform(random) - 1.0;
    mode.b_cos[i] = 100.0 * uniform(random);
    mode.b_sin[i] = uniform(random) - 1.0;
  }
  mode.frequency = 0.7 * uniform(random);
  return mode;
}

}  // namespace

TEST_CASE("Eigen transition of an affine mode matches the series and its derivative",
          "[exact-flow]") {
  std::mt19937 random(41);
  std::array<Matrix, 3> work;
  Matrix closed, series, ahead, behind;
  int compared = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 * (2 + trial % 3);  // 4, 6, 8 states
    const AffineMode mode = random_chain(n, random);
    Lifted lifted(mode);
    if (!lifted.usable) continue;
    ++compared;
    const Matrix& M = lifted.flow.generator();
    // The particular solution: A Pi - Pi W = -G.
    Matrix W = Matrix::Zero(3, 3);
    W(1, 2) = -mode.frequency, W(2, 1) = mode.frequency;
    const Matrix G = M.block(0, n, n, 3);
    const Matrix& Pi = lifted.eigen.particular();
    CHECK((mode.A * Pi - Pi * W + G).cwiseAbs().maxCoeff() <= 1e-13 * (1.0 + Pi.cwiseAbs().maxCoeff()) * mode.A.cwiseAbs().maxCoeff());
    for (const double s : {1e-3, 0.1, 0.9, 2.5, 7.0}) {
      INFO("trial " << trial << " n " << n << " s " << s);
      lifted.eigen.transition(s, closed);
      libcont::matrix_exponential(M * s, series, work);
      const double difference = relative_difference(closed, series);
      // The series' own rounding grows with its squarings (up to 1.8e-13 here).
      CHECK(difference <= 5e-13);
      // The semigroup property, expm(2 M s) = expm(M s)^2, to rounding of the closed form.
      lifted.eigen.transition(2.0 * s, ahead);
      CHECK(relative_difference(closed * closed, ahead) <= 1e-14 * n);
      // Central difference of the transition itself: d/ds = M expm(M s).
      const double h = 1e-5;
      lifted.eigen.transition(s + h, ahead);
      lifted.eigen.transition(s - h, behind);
      const Matrix rate = (ahead - behind) / (2.0 * h);
      CHECK(relative_difference(rate, M * closed) <= 1e-8);
    }
  }
  CHECK(compared >= 20);
}

TEST_CASE("Eigen transition refuses rigid-body and resonant modes", "[exact-flow]") {
  // Two uncoupled bodies, x1 held by a damped spring (stiffness k, damping c) and x2 free
  // (a rigid-body mode: A defective and singular), the load on x1.
  const auto bodies = [](double k, double c, double free_damping, double w) {
    AffineMode mode;
    mode.A = Matrix::Zero(4, 4);
    mode.A(0, 2) = mode.A(1, 3) = 1.0;
    mode.A(2, 0) = -k, mode.A(2, 2) = -c, mode.A(3, 3) = -free_damping;
    mode.b0 = libcont::Vector::Zero(4);
    mode.b_cos = (libcont::Vector(4) << 0.0, 0.0, 1.0, 0.0).finished();
    mode.b_sin = libcont::Vector::Zero(4);
    mode.frequency = w;
    return mode;
  };
  CHECK_FALSE(Lifted(bodies(4.0, 0.5, 0.0, 1.0)).usable);
  // x2 damped (no longer defective, still singular: the load has no constant part, so
  // the particular solution exists) but x1 undamped and forced at its own frequency.
  CHECK_FALSE(Lifted(bodies(4.0, 0.0, 0.3, 2.0)).usable);
  // Off resonance: usable.
  CHECK(Lifted(bodies(4.0, 0.5, 0.3, 2.0)).usable);
}

TEST_CASE("Eigen transition of the two-body free mode matches the series", "[exact-flow]") {
  systems::TwoBodySystem system;
  for (const double lambda : {0.1, 0.567, 3.0}) {
    system.set_parameter("lambda", lambda);
    AffineMode mode;
    mode.A.resize(4, 4);
    mode.b0.resize(4), mode.b_cos.resize(4), mode.b_sin.resize(4);
    REQUIRE(system.affine_mode(systems::TwoBodySystem::Free, mode));
    Lifted lifted(mode);
    REQUIRE(lifted.usable);
    std::array<Matrix, 3> work;
    Matrix closed, series;
    const double period = system.forcing_period();
    for (const double fraction : {0.05, 0.5, 0.93, 1.0, 3.0}) {
      const double s = fraction * period;
      lifted.eigen.transition(s, closed);
      libcont::matrix_exponential(lifted.flow.generator() * s, series, work);
      const double difference = relative_difference(closed, series);
      INFO("lambda " << lambda << " s " << s);
      CHECK(difference <= 1e-13);  // 5.0e-14 at most
    }
  }
}
