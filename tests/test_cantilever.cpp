// Two-degree-of-freedom cantilever beam with impacts (doc/models/cantilever.md,
// doc/reproduction.md): eigenfrequencies against the reference and against
// the closed-form roots of the 2x2 characteristic polynomial, the contact-free steady state
// against the analytic harmonic solution, the required forcing amplitude e, the
// saltation-corrected period map of an impacting motion against finite differences, and
// the energy balance of the soft contact.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "energy_balance_run.hpp"
#include "harmonic_response.hpp"
#include "libcont/flow.hpp"
#include "libcont/jacobians.hpp"
#include "period_map_check.hpp"
#include "systems/cantilever.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::Matrix;
using libcont::Vector;
using systems::CantileverBeam;
using namespace test_support;

namespace {

// Roots of det(KB - w^2 M) = 0 for diagonal M, a second method beside Eigen's generalized
// eigensolver: m1 m2 w^4 - (K11 m2 + K22 m1) w^2 + det KB = 0.
Eigen::Vector2d characteristic_roots(const CantileverBeam& beam) {
  const Eigen::Matrix2d& k = beam.stiffness_matrix();
  const double m1 = beam.mass_matrix()(0, 0), m2 = beam.mass_matrix()(1, 1);
  const double a = m1 * m2, b = -(k(0, 0) * m2 + k(1, 1) * m1), c = k.determinant();
  const double root = std::sqrt(b * b - 4 * a * c);
  // The smaller root by Vieta's formula: no cancellation.
  const double large = (-b + root) / (2 * a);
  return {std::sqrt(c / (a * large)), std::sqrt(large)};
}

// The forced, damped beam without the base: M x'' + nu M x' + KB x = (e eta^2, 0) sin.
HarmonicResponse contact_free_response(const CantileverBeam& beam, double e, double eta,
                                       double nu) {
  Eigen::VectorXcd force(2);
  // sin(eta t) = Re(-i e^{i eta t})
  force << std::complex<double>(0.0, -e * eta * eta), 0.0;
  return harmonic_response(beam.mass_matrix(), nu * beam.mass_matrix(), beam.stiffness_matrix(),
                           force, eta);
}

}  // namespace

TEST_CASE("Cantilever 2DOF-1: eigenfrequencies 1.041 and 28.28", "[cantilever]") {
  const auto beam = make_system<CantileverBeam>({{"set", "1"}});
  const Eigen::Vector2d w = beam.natural_frequencies();
  INFO("alpha_1 = " << w[0] << ", alpha_2 = " << w[1]);
  // Published values (doc/reproduction.md): 2e-3 relative.
  CHECK(std::abs(w[0] / 1.041 - 1.0) <= 2e-3);
  CHECK(std::abs(w[1] / 28.28 - 1.0) <= 2e-3);
  // The closed-form roots agree to rounding.
  const Eigen::Vector2d roots = characteristic_roots(beam);
  CHECK(std::abs(w[0] / roots[0] - 1.0) <= 1e-12);
  CHECK(std::abs(w[1] / roots[1] - 1.0) <= 1e-12);
}

TEST_CASE("Cantilever: the undamped free vector field oscillates at the eigenfrequencies",
          "[cantilever]") {
  // The model's own Jacobian (what the flow integrates) has eigenvalues +-i w_k when
  // nu = 0, for both parameter sets.
  for (const char* set : {"1", "2"}) {
    const auto beam = make_system<CantileverBeam>({{"set", set}, {"nu", "0"}, {"e", "0"}});
    Matrix jac(4, 4);
    beam.state_jacobian(CantileverBeam::Free, 0.0, Vector::Zero(4), jac);
    const Eigen::VectorXcd lambda = jac.eigenvalues();
    std::vector<double> frequencies;
    for (const auto& l : lambda) {
      CHECK(std::abs(l.real()) <= 1e-12 * std::abs(l));
      if (l.imag() > 0) frequencies.push_back(l.imag());
    }
    REQUIRE(frequencies.size() == 2);
    std::sort(frequencies.begin(), frequencies.end());
    const Eigen::Vector2d roots = characteristic_roots(beam);
    INFO("set " << set << ": " << frequencies[0] << ", " << frequencies[1]);
    CHECK(frequencies[0] == Approx(roots[0]).epsilon(1e-12));
    CHECK(frequencies[1] == Approx(roots[1]).epsilon(1e-12));
  }
}

TEST_CASE("Cantilever 2DOF-2: the set's masses and l2 are in force", "[cantilever]") {
  const auto beam = make_system<CantileverBeam>({{"set", "2"}});
  CHECK(beam.mass_matrix()(0, 0) == 0.28);
  CHECK(beam.mass_matrix()(1, 1) == 0.72);
  // KB_22 = 12 E I l^3 / W with W = 4 l^3 l2^3 - l2^4 (3 l - l2)^2, l2 = 0.31.
  const double l2 = 0.31, w = 4 * std::pow(l2, 3) - std::pow(l2, 4) * std::pow(3 - l2, 2);
  CHECK(beam.stiffness_matrix()(1, 1) == Approx(12 * 0.3333 / w).epsilon(1e-14));
  // Explicit values override the set.
  const auto custom = make_system<CantileverBeam>({{"set", "2"}, {"m1", "0.5"}});
  CHECK(custom.mass_matrix()(0, 0) == 0.5);
  CHECK(custom.mass_matrix()(1, 1) == 0.72);
}

TEST_CASE("Cantilever: e is required, bad geometry is refused", "[cantilever]") {
  const auto beam = make_system<CantileverBeam>({});
  for (const auto& p : beam.parameters().all())
    if (p.name == "e") CHECK(beam.parameters().value_text(p) == "required");
  try {
    libcont::Flow flow(beam);
    FAIL("a flow of the beam without e was built");
  } catch (const libcont::InputError& error) {
    CHECK(std::string(error.what()).find("'e'") != std::string::npos);
  }
  CHECK_THROWS_AS(make_system<CantileverBeam>({{"l2", "1.2"}}), libcont::InputError);
  CHECK_NOTHROW(libcont::Flow(make_system<CantileverBeam>({{"e", "0.01"}})));
}

TEST_CASE("Cantilever far from the base: steady state = analytic harmonic solution",
          "[cantilever]") {
  // With the base 10 units away (amplitudes ~1e-2) there is no contact: the motion is the
  // linear forced response. Both modes decay as exp(-nu t / 2) (C = nu M), so after
  // t = 320 the transient from rest is below exp(-36.8) ~ 1e-16 of its start.
  for (const char* eta : {"0.7", "3", "30"}) {
    const double e = 0.01, w = std::stod(eta);
    const auto beam = make_system<CantileverBeam>({{"e", "0.01"}, {"omega", eta}, {"d", "10"}});
    const HarmonicResponse steady = contact_free_response(beam, e, w, 0.23);
    const double periods = std::ceil(320.0 / beam.forcing_period());
    const double t_end = periods * beam.forcing_period();
    const libcont::FlowState end = settle(beam, 0.0, Vector::Zero(4), static_cast<int>(periods));
    const Vector expected = steady.state(t_end);
    INFO("eta = " << eta << ": state " << end.x.transpose() << ", analytic " << expected.transpose());
    CHECK((end.x - expected).norm() <= 1e-8 * expected.norm());
  }
}

TEST_CASE("Cantilever, impacting motion: period map Jacobian with saltation = differences",
          "[cantilever]") {
  // Near the first resonance the end mass hits the base at d = 0 once per period. The
  // section point is settled (150 periods, transient ~exp(-108)); the map is evaluated
  // from t0 = 0 (the same section), fourth-order differences with steps of 1e-4 of the
  // motion's scale, at tight tolerances (as in test_period_map.cpp).
  const std::vector<Settings> cases = {
      {{"e", "0.05"}, {"omega", "1.2"}, {"model", "hard"}, {"r", "0.8"}},
      {{"e", "0.05"}, {"omega", "1.2"}, {"model", "soft"}, {"ks", "2000"}, {"r", "0.8"}},
  };
  for (const Settings& settings : cases) {
    const auto beam = make_system<CantileverBeam>(settings);
    INFO("model " << beam.parameters().choice("model"));
    const double period = beam.forcing_period();
    const Vector x = settle(beam, 0.0, Vector::Zero(4), 150).x;
    const double scale = x.head(2).norm(), eta = beam.parameters()["omega"];
    Vector steps(4);
    steps << 1e-4 * scale, 1e-4 * scale, 1e-4 * scale * eta, 1e-4 * scale * eta;
    const PeriodMapCheck check = check_period_map(beam, x, period, steps);
    INFO("events " << check.events << ", error " << check.error << ", naive "
                   << check.naive_error);
    REQUIRE(check.events >= 1);
    CHECK(check.error <= 1e-6);
    CHECK(check.naive_error >= 1e-4);
  }
}

TEST_CASE("Cantilever, soft contact: energy balance closes", "[cantilever][energy]") {
  const auto beam = make_system<CantileverBeam>(
      {{"e", "0.05"}, {"omega", "1.2"}, {"model", "soft"}, {"ks", "200000"}, {"r", "0.6"}});
  REQUIRE(beam.energy_account());
  REQUIRE(beam.contact_damping() > 0.0);
  Vector x0(4);
  x0 << 0.05, 0.01, 0.0, 0.0;  // released 0.05 above the base
  const BalanceRun run = balance_over(beam, x0, 20 * beam.forcing_period());
  REQUIRE(run.report.ok());
  const double scale = std::max(run.balance.initial, run.balance.supplied);
  INFO("E0 " << run.balance.initial << ", dissipated " << run.balance.dissipated << ", supplied "
             << run.balance.supplied << ", residual " << run.balance.residual() << ", contacts "
             << run.contacts);
  CHECK(run.contacts >= 10);
  CHECK(std::abs(run.balance.residual()) <= 1e-6 * scale);
}

TEST_CASE("Cantilever: hand-written event gradients equal differences", "[cantilever]") {
  // The release condition of a held end mass (hard) and the gap: D_x h and D_t h.
  const auto beam = make_system<CantileverBeam>({{"e", "0.05"}, {"omega", "1.2"}, {"d", "0.01"}});
  Vector x(4);
  x << -0.01, 0.003, 0.0, 0.02;
  for (int mode : {CantileverBeam::Free, CantileverBeam::Attached}) {
    Vector analytic(4), numeric(4);
    double dt_analytic = 0, dt_numeric = 0;
    libcont::event_gradient(beam, mode, 0, 0.7, x, analytic, dt_analytic);
    libcont::difference_event_gradient(beam, mode, 0, 0.7, x, numeric, dt_numeric);
    CHECK((analytic - numeric).norm() <= 1e-7 * (1.0 + analytic.norm()));
    CHECK(dt_analytic == Approx(dt_numeric).margin(1e-7));
  }
}
