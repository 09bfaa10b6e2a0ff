// Derivatives of the models: AutoDiff (a drop written as AutoDiffSystem) against the
// hand-derived Jacobians, and the library's central differences (jacobians.hpp) against
// the analytic derivatives of MovingBaseOscillator and DuffingOscillator.
//
// Tolerance of the difference checks: the differences use steps h = eps^(1/3) (1 + |value|)
// ~ 6e-6, whose truncation error h^2 f'''/6 and rounding error eps |f| / h are both about
// 1e-11 relative for these smooth (at most trigonometric) functions; 1e-7 leaves a wide
// margin while still catching any wrong term (they are O(1) relative).
#include <catch2/catch.hpp>
#include <cmath>

#include "libcont/autodiff_system.hpp"
#include "libcont/jacobians.hpp"
#include "systems/drop.hpp"
#include "systems/duffing.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::HybridSystem;
using libcont::Matrix;
using libcont::Vector;
using systems::DropTest;
using systems::MovingBaseOscillator;
using test_support::make_system;
using test_support::mat2;
using test_support::vec2;

namespace {

constexpr double kDifferenceTolerance = 1e-7;


Matrix analytic_jacobian(const HybridSystem& s, int mode, double t, const Vector& x) {
  Matrix j(2, 2);
  const libcont::AnalyticJacobians* analytic = s.analytic_jacobians();
  REQUIRE(analytic);
  REQUIRE(analytic->state_jacobian(mode, t, x, j));
  return j;
}

Matrix difference_jacobian(const HybridSystem& s, int mode, double t, const Vector& x) {
  Matrix j(2, 2);
  libcont::difference_state_jacobian(s, mode, t, x, j);
  return j;
}

// |a - b| relative to max(|b|, floor) (entries that vanish analytically are compared on
// the scale of the others).
double relative_difference(const Matrix& a, const Matrix& b) {
  return (a - b).norm() / std::max(b.norm(), 1e-300);
}

}  // namespace

// The soft drop written once as a template: AutoDiffSystem derives its Jacobian.
class AutoDiffDrop : public libcont::AutoDiffSystem<AutoDiffDrop> {
 public:
  std::string name() const override { return "autodiff-drop"; }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  int mode_count() const override { return 2; }
  template <class S>
  void field(int mode, double /*t*/, const Eigen::Matrix<S, -1, 1>& x,
             Eigen::Matrix<S, -1, 1>& dxdt) const {
    dxdt[0] = x[1];
    dxdt[1] = S(-9.81);
    if (mode == 1) dxdt[1] = dxdt[1] - (20000.0 * x[0] + 9.48 * x[1]) / 2.0;
  }
};

TEST_CASE("AutoDiff and generated Jacobians of the drop test equal the hand-derived one",
          "[jacobian]") {
  const Vector x = vec2(-0.012, -2.5);
  // Flight: x' = v, v' = -g; contact: v' = -g - (k_s x + c_s v)/m.
  const Matrix flight = mat2(0, 1, 0, 0), contact = mat2(0, 1, -20000.0 / 2, -9.48 / 2);
  SECTION("AutoDiff, exact up to one rounding") {
    const AutoDiffDrop system;
    CHECK(analytic_jacobian(system, 0, 0.3, x) == flight);
    CHECK(relative_difference(analytic_jacobian(system, 1, 0.3, x), contact) <= 1e-15);
  }
  SECTION("soft model declared as a structure: flight and contact") {
    const auto system =
        make_system<DropTest>({{"model", "soft"}, {"ks", "20000"}, {"cs", "9.48"}, {"m", "2"}});
    CHECK(analytic_jacobian(system, DropTest::Flight, 0.3, x) == flight);
    CHECK(relative_difference(analytic_jacobian(system, DropTest::Ground, 0.3, x), contact) <=
          1e-15);
    // The central differences agree as well.
    CHECK(relative_difference(difference_jacobian(system, DropTest::Ground, 0.3, x), contact) <=
          kDifferenceTolerance);
  }
  SECTION("hard model: flight and rest") {
    const auto system = make_system<DropTest>({{"model", "hard"}});
    CHECK(analytic_jacobian(system, DropTest::Flight, 0.3, x) == flight);
    // At rest the base holds the acceleration at zero: x' = v, v' = 0.
    CHECK(analytic_jacobian(system, DropTest::Ground, 0.3, vec2(0, 0)) == mat2(0, 1, 0, 0));
  }
}

TEST_CASE("Moving base: analytic state Jacobian equals central differences", "[jacobian]") {
  for (const char* model : {"hard", "soft"}) {
    const auto system =
        make_system<MovingBaseOscillator>({{"model", model}, {"r", "0.8"}, {"omega", "4"}});
    for (int mode : {MovingBaseOscillator::Free, MovingBaseOscillator::Attached}) {
      for (double t : {0.0, 0.7, 2.2}) {
        // A state in the mode's region: in contact slightly below the base.
        const double gap = mode == MovingBaseOscillator::Attached ? -1e-5 : 1e-3;
        const Vector x = vec2(system.base_position(t) + gap, 0.013);
        INFO(model << " mode " << mode << " t = " << t);
        const Matrix analytic = analytic_jacobian(system, mode, t, x);
        CHECK(relative_difference(difference_jacobian(system, mode, t, x), analytic) <=
              kDifferenceTolerance);
        // divergence() is the trace (doc/theory.md, 5: the exponent sum is its time average).
        CHECK(system.divergence(mode, t, x).value() == Approx(analytic.trace()).epsilon(1e-15));
      }
    }
  }
}

TEST_CASE("Duffing: analytic state Jacobian and derivative in a equal central differences",
          "[jacobian]") {
  // The cubic spring is the structure's additional force, its Jacobian written by the
  // model; a is a declared forcing parameter. Hardening, softening and linear (k3 = 0: the
  // affine mode, no additional force).
  for (const char* k3 : {"1.5", "-0.7", "0"}) {
    const auto system = make_system<systems::DuffingOscillator>(
        {{"k3", k3}, {"c", "0.03"}, {"a", "0.2"}, {"omega", "1.3"}});
    for (double t : {0.0, 0.7, 2.2}) {
      for (const Vector& x : {vec2(0.4, -0.2), vec2(-1.3, 0.9)}) {
        INFO("k3 = " << k3 << ", t = " << t << ", x = " << x.transpose());
        const Matrix analytic = analytic_jacobian(system, 0, t, x);
        CHECK(relative_difference(difference_jacobian(system, 0, t, x), analytic) <=
              kDifferenceTolerance);
        CHECK(system.divergence(0, t, x).value() == Approx(analytic.trace()).epsilon(1e-15));
        // D_a f = (0, cos(eta t) / m): against a central difference in a.
        const libcont::ParameterDerivatives* derivatives = system.parameter_derivatives();
        REQUIRE(derivatives);
        const int id = derivatives->derivative_parameter("a");
        REQUIRE(id >= 0);
        Vector column(2), up(2), down(2);
        derivatives->field_parameter_derivative(id, 0, t, x, column);
        auto shifted = system;
        const double h = libcont::difference_step(0.2);
        shifted.set_parameter("a", 0.2 + h);
        shifted.vector_field(0, t, x, up);
        shifted.set_parameter("a", 0.2 - h);
        shifted.vector_field(0, t, x, down);
        CHECK(((up - down) / (2.0 * h) - column).norm() <= kDifferenceTolerance);
      }
    }
  }
}

TEST_CASE("Moving base: analytic event gradients equal central differences", "[jacobian]") {
  for (const char* model : {"hard", "soft"}) {
    const auto system =
        make_system<MovingBaseOscillator>({{"model", model}, {"r", "0.8"}, {"omega", "4"}});
    for (int mode : {MovingBaseOscillator::Free, MovingBaseOscillator::Attached}) {
      for (double t : {0.0, 0.7, 2.2}) {
        INFO(model << " mode " << mode << " t = " << t);
        const Vector x = vec2(system.base_position(t) + 1e-6, 0.013);
        Vector analytic(2), differences(2);
        double analytic_t = 0.0, differences_t = 0.0;
        REQUIRE(system.event_gradient(mode, 0, t, x, analytic, analytic_t));
        libcont::difference_event_gradient(system, mode, 0, t, x, differences, differences_t);
        const double scale = std::max(analytic.norm(), std::abs(analytic_t));
        REQUIRE(scale > 0.0);
        CHECK((analytic - differences).norm() <= kDifferenceTolerance * scale);
        CHECK(std::abs(analytic_t - differences_t) <= kDifferenceTolerance * scale);
      }
    }
  }
}

TEST_CASE("Moving base: analytic reset Jacobian equals central differences", "[jacobian]") {
  for (const char* r : {"1", "0.8", "0.3"}) {
    const auto system = make_system<MovingBaseOscillator>({{"r", r}, {"omega", "4"}});
    for (double t : {0.0, 0.7, 2.2}) {
      INFO("r = " << r << " t = " << t);
      // An impact fast enough that every perturbed state still rebounds (no sticking).
      const Vector x_minus = vec2(system.base_position(t), system.base_velocity(t) - 0.01);
      Vector x_plus = x_minus;
      const auto outcome = system.apply_event(MovingBaseOscillator::Free, 0, t, x_plus);
      REQUIRE(outcome.kind == EventKind::Impact);
      Matrix dg_dx(2, 2), dg_dx_differences(2, 2);
      Vector dg_dt(2), dg_dt_differences(2);
      REQUIRE(system.reset_jacobian(MovingBaseOscillator::Free, 0, outcome, t, x_minus, dg_dx,
                                    dg_dt));
      libcont::difference_reset_jacobian(system, MovingBaseOscillator::Free, 0, t, x_minus,
                                         dg_dx_differences, dg_dt_differences);
      const double scale = std::max(dg_dx.norm(), dg_dt.norm());
      CHECK((dg_dx - dg_dx_differences).norm() <= kDifferenceTolerance * scale);
      CHECK((dg_dt - dg_dt_differences).norm() <= kDifferenceTolerance * scale);
    }
  }
}

TEST_CASE("Drop test: event gradient and reset Jacobian against central differences",
          "[jacobian]") {
  const auto system = make_system<DropTest>({{"r", "0.9"}});
  const Vector x_minus = vec2(0.0, -3.0);
  Vector dh(2), dh_differences(2);
  double dh_dt = 0.0, dh_dt_differences = 0.0;
  REQUIRE(system.event_gradient(DropTest::Flight, 0, 0.5, x_minus, dh, dh_dt));
  libcont::difference_event_gradient(system, DropTest::Flight, 0, 0.5, x_minus, dh_differences,
                                     dh_dt_differences);
  CHECK((dh - dh_differences).norm() <= kDifferenceTolerance);
  CHECK(std::abs(dh_dt - dh_dt_differences) <= kDifferenceTolerance);

  Vector x_plus = x_minus;
  const auto outcome = system.apply_event(DropTest::Flight, 0, 0.5, x_plus);
  REQUIRE(outcome.kind == EventKind::Impact);
  Matrix dg(2, 2), dg_differences(2, 2);
  Vector dg_dt(2), dg_dt_differences(2);
  REQUIRE(system.reset_jacobian(DropTest::Flight, 0, outcome, 0.5, x_minus, dg, dg_dt));
  libcont::difference_reset_jacobian(system, DropTest::Flight, 0, 0.5, x_minus, dg_differences,
                                     dg_dt_differences);
  // x+ is placed on the base (x+ = 0 whatever x-), v+ = -r v-.
  CHECK(dg == mat2(0, 0, 0, -0.9));
  CHECK((dg - dg_differences).norm() <= kDifferenceTolerance);
  CHECK(dg_dt.norm() == 0.0);
  CHECK(dg_dt_differences.norm() <= kDifferenceTolerance);
}
