// Saltation matrices (doc/theory.md, 2) against formulas derived by hand.
//
// Hard impact, state (x, v), surface h = x - b(t), reset x+ = b, v+ = b' - r (v- - b'),
// field f = (v, F(t, x, v)) on both sides with F = (k a sin(eta t) - c v - k x) / m (for a
// fixed wall under gravity b = 0, F = -g). With v_r = v- - b' and a_r = F(x-) - b'':
//   D_x g = [[0, 0], [0, -r]],  D_t g = (b', (1 + r) b''),  D_x h = (1, 0),  D_t h = -b'
//   f+ - D_x g f- - D_t g = (v+ - b', F+ + r F- - (1 + r) b'') = (-r v_r, (1 + r)(a_r + c v_r/m))
// (F+ - F- = -c (v+ - v-)/m = c (1 + r) v_r / m), and the crossing rate is v_r, so
//   S = [[-r, 0], [(1 + r)(a_r / v_r + c / m), -r]],   det S = r^2.
// Fixed wall under gravity (c = 0, a_r = -g): S = [[-r, 0], [-(1 + r) g / v-, -r]].
//
// Soft contact start (no jump, D_x g = I), f+ - f- = (0, -(k_s h + c_s v_r)/m) with h = 0 on
// the surface: S = I + (0, -c_s v_r/m)^T (1, 0) / v_r = [[1, 0], [-c_s/m, 1]]; contact end
// gives [[1, 0], [c_s/m, 1]]; with c_s = 0 the field is continuous and S = I.
#include <catch2/catch.hpp>
#include <cmath>

#include "libcont/saltation.hpp"
#include "systems/drop.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::Matrix;
using libcont::Vector;
using systems::DropTest;
using systems::MovingBaseOscillator;
using test_support::make_system;
using test_support::mat2;
using test_support::vec2;

namespace {

// Applies the event of `mode` at (t, x_minus) and returns its saltation matrix as the flow
// would compute it, together with the outcome.
struct AppliedEvent {
  libcont::EventOutcome outcome;
  Vector x_plus;
  Matrix saltation;
};

AppliedEvent apply(const libcont::HybridSystem& system, int mode, double t,
                   const Vector& x_minus) {
  AppliedEvent e;
  e.x_plus = x_minus;
  e.outcome = system.apply_event(mode, 0, t, e.x_plus);
  e.saltation = libcont::saltation_matrix(system, mode, 0, e.outcome, t, x_minus, e.x_plus);
  return e;
}

// Rounding-level agreement: every entry is a short formula of O(1)-scaled terms.
constexpr double kRounding = 1e-12;

}  // namespace

TEST_CASE("Generic saltation formula on a fixed wall under gravity", "[saltation]") {
  const double g = 9.81;
  for (double r : {1.0, 0.9, 0.5, 0.0}) {
    for (double v_minus : {-4.43, -0.1, -1e-3}) {
      INFO("r = " << r << ", v- = " << v_minus);
      const Matrix dg_dx = mat2(0, 0, 0, -r);
      const Vector dg_dt = Vector::Zero(2);
      const Vector f_minus = vec2(v_minus, -g);
      const Vector f_plus = vec2(-r * v_minus, -g);
      const Vector dh_dx = vec2(1, 0);
      const Matrix s = libcont::saltation_matrix(dg_dx, dg_dt, f_plus, f_minus, dh_dx, 0.0);
      const Matrix expected = mat2(-r, 0, -(1 + r) * g / v_minus, -r);
      CHECK((s - expected).norm() <= kRounding * expected.norm());
      CHECK(std::abs(s.determinant() - r * r) <= kRounding * (1 + expected.squaredNorm()));
      // The reset x+ = x- (instead of x+ = 0) on the surface x = 0 gives the same S.
      const Matrix s_keep = libcont::saltation_matrix(mat2(1, 0, 0, -r), dg_dt, f_plus,
                                                      f_minus, dh_dx, 0.0);
      CHECK((s_keep - expected).norm() <= kRounding * expected.norm());
    }
  }
}

TEST_CASE("Saltation matrix of the hard drop test", "[saltation]") {
  for (const char* r_text : {"0.9", "0.6"}) {
    const auto system = make_system<DropTest>({{"r", r_text}});
    const double r = std::stod(r_text);
    const double v_minus = -std::sqrt(2 * 9.81 * 1.0);
    const AppliedEvent e = apply(system, DropTest::Flight, 0.45, vec2(0.0, v_minus));
    REQUIRE(e.outcome.kind == EventKind::Impact);
    CHECK(e.x_plus[1] == Approx(-r * v_minus).epsilon(1e-15));
    const Matrix expected = mat2(-r, 0, -(1 + r) * 9.81 / v_minus, -r);
    CHECK((e.saltation - expected).norm() <= kRounding * expected.norm());
    CHECK(e.saltation.determinant() == Approx(r * r).epsilon(kRounding));
  }
}

TEST_CASE("Saltation matrix of a hard impact on the moving base", "[saltation]") {
  for (const char* r_text : {"1", "0.8", "0.6"}) {
    for (const char* c_text : {"0.23", "0"}) {
      const auto system =
          make_system<MovingBaseOscillator>({{"r", r_text}, {"c", c_text}, {"omega", "4"}});
      const double r = std::stod(r_text), c = std::stod(c_text), m = 1, k = 1, a = 0.0025;
      const double eta = 4;
      for (double t : {0.0, 0.3, 1.1, 2.5}) {
        for (double v_r : {-0.02, -0.005}) {
          INFO("r = " << r << ", c = " << c << ", t = " << t << ", v_r = " << v_r);
          const double x = system.base_position(t);
          const double v = system.base_velocity(t) + v_r;
          const AppliedEvent e = apply(system, MovingBaseOscillator::Free, t, vec2(x, v));
          REQUIRE(e.outcome.kind == EventKind::Impact);
          const double force = (k * a * std::sin(eta * t) - c * v - k * x) / m;
          const double a_r = force - system.base_acceleration(t);
          const Matrix expected = mat2(-r, 0, (1 + r) * (a_r / v_r + c / m), -r);
          CHECK((e.saltation - expected).norm() <= kRounding * expected.norm());
          CHECK(e.saltation.determinant() == Approx(r * r).epsilon(1e-10));
        }
      }
    }
  }
}

TEST_CASE("Saltation matrices of sticking and release vanish", "[saltation]") {
  // StickStart: x+ = (b(t), b'(t)) whatever x-, so D_x g = 0 and the jump
  // f+ - D_t g = (b', b'') - (b', b'') vanishes: S = 0, perturbations are absorbed.
  // StickEnd (release): the body leaves exactly on the base, x+ = (b(t), b'(t)), so again
  // D_x g = 0, and at N = 0 the free field equals the base's motion, f+ = D_t g: S = 0. (Either way the
  // tangent is already 0 after a StickStart; nothing of it survives a sticking phase.)
  const auto system = make_system<MovingBaseOscillator>({{"r", "0.5"}, {"omega", "3"}});
  // A time at which the base pushes the body (holding force > 0).
  double t = 0.0;
  while (system.holding_force(t) <= 0.01) t += 0.01;
  const double v_r = -1e-12;  // rebound r |v_r| below stick_velocity = 1e-9
  const AppliedEvent stick = apply(system, MovingBaseOscillator::Free, t,
                                   vec2(system.base_position(t), system.base_velocity(t) + v_r));
  REQUIRE(stick.outcome.kind == EventKind::StickStart);
  CHECK(stick.saltation.norm() <= kRounding);

  // The release comes where the holding force falls through zero: found by bisection.
  double lo = t, hi = t;
  while (system.holding_force(hi) > 0.0) hi += 0.01;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i)
    (system.holding_force(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
  const double t_release = hi;
  const Vector on_base = vec2(system.base_position(t_release), system.base_velocity(t_release));
  const AppliedEvent release =
      apply(system, MovingBaseOscillator::Attached, t_release, on_base);
  REQUIRE(release.outcome.kind == EventKind::StickEnd);
  CHECK(release.saltation.norm() <= kRounding);
}

TEST_CASE("Soft contact switches: S = I for a continuous field, shear with damping",
          "[saltation]") {
  SECTION("moving base, c_s = 0 (r = 1): the field is continuous at h = 0, S = I") {
    const auto system = make_system<MovingBaseOscillator>({{"model", "soft"}, {"r", "1"}});
    REQUIRE(system.contact_damping() == 0.0);
    for (double t : {0.2, 1.3}) {
      const double x = system.base_position(t), vb = system.base_velocity(t);
      const AppliedEvent start = apply(system, MovingBaseOscillator::Free, t, vec2(x, vb - 0.01));
      REQUIRE(start.outcome.kind == EventKind::ContactStart);
      CHECK((start.saltation - Matrix::Identity(2, 2)).norm() <= kRounding);
      const AppliedEvent end = apply(system, MovingBaseOscillator::Attached, t, vec2(x, vb + 0.01));
      REQUIRE(end.outcome.kind == EventKind::ContactEnd);
      CHECK((end.saltation - Matrix::Identity(2, 2)).norm() <= kRounding);
    }
  }
  SECTION("moving base, c_s > 0 derived from r = 0.8") {
    const auto system = make_system<MovingBaseOscillator>({{"model", "soft"}, {"r", "0.8"}});
    const double cs = system.contact_damping();
    REQUIRE(cs > 0.0);
    for (double t : {0.2, 1.3}) {
      for (double speed : {0.01, 1e-4}) {
        const double x = system.base_position(t), vb = system.base_velocity(t);
        const AppliedEvent start =
            apply(system, MovingBaseOscillator::Free, t, vec2(x, vb - speed));
        const Matrix expected_start = mat2(1, 0, -cs, 1);  // m = 1
        CHECK((start.saltation - expected_start).norm() <= kRounding * expected_start.norm());
        const AppliedEvent end =
            apply(system, MovingBaseOscillator::Attached, t, vec2(x, vb + speed));
        const Matrix expected_end = mat2(1, 0, cs, 1);
        CHECK((end.saltation - expected_end).norm() <= kRounding * expected_end.norm());
        CHECK(start.saltation.determinant() == Approx(1.0).epsilon(kRounding));
      }
    }
  }
  SECTION("drop test, soft contact with and without damping") {
    for (const char* cs_text : {"0", "9.48"}) {
      const auto system =
          make_system<DropTest>({{"model", "soft"}, {"ks", "20000"}, {"cs", cs_text}});
      const double cs = std::stod(cs_text);
      const AppliedEvent start = apply(system, DropTest::Flight, 0.45, vec2(0.0, -4.43));
      REQUIRE(start.outcome.kind == EventKind::ContactStart);
      const Matrix expected = mat2(1, 0, -cs, 1);
      CHECK((start.saltation - expected).norm() <= kRounding * expected.norm());
    }
  }
}
