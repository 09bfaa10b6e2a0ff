// Vibro-impact platform with a rubber stop (doc/models/platform.md). No published value of the
// platform is recorded here, so the model is tested against what is analytic: the Hertz
// constant, the static sag of the mould on the block, the steady state of the regimes
// that are linear (the mould never leaves the block: a 2-DOF system for the linear block,
// one rigid body for the newton block), the energy balance of the soft contacts at the
// source's forcing, the hand-written event gradients, and the saltation-corrected period
// map of the newton model against finite differences.
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <string>

#include "energy_balance_run.hpp"
#include "harmonic_response.hpp"
#include "libcont/flow.hpp"
#include "libcont/jacobians.hpp"
#include "period_map_check.hpp"
#include "systems/platform.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::EventRecord;
using libcont::Matrix;
using libcont::Vector;
using systems::VibroImpactPlatform;
using namespace test_support;

namespace {

constexpr double m1 = 7400, m2 = 15000, k0 = 3e8, k1 = 1.278e6, h = 0.0275, g = 9.81;
constexpr double xi0 = 0.02, xi1 = 0.02, xi2 = 0.03, omega = 157;

// Readings of doc/models/platform.md: c0 = 2 xi0 m2 w2, c1 = 2 xi1 m1 w1, c2 = 2 xi2 m2 w2 with
// w1 = sqrt(k1/m1), w2 = sqrt(k0/m2).
const double w1 = std::sqrt(k1 / m1), w2 = std::sqrt(k0 / m2);
const double c0 = 2 * xi0 * m2 * w2, c1 = 2 * xi1 * m1 * w1, c2 = 2 * xi2 * m2 * w2;

// Hertz constant with A = B = 1/(2R): K = (4/3) q / ((d1 + d2) sqrt(1/R)).
double hertz_constant(double e1, double mu1, double e2, double mu2, double radius) {
  const double d1 = (1 - mu1 * mu1) / (std::numbers::pi * e1);
  const double d2 = (1 - mu2 * mu2) / (std::numbers::pi * e2);
  return (4.0 / 3.0) * 0.318 / ((d1 + d2) * std::sqrt(1.0 / radius));
}

}  // namespace

TEST_CASE("Platform: Hertz constant from the rubber and the mould", "[platform]") {
  for (const auto& [radius, e1] : std::vector<std::pair<double, double>>{
           {5, 3e8}, {3.3, 3e8}, {50, 3e8}, {500, 3e8}, {5, 8e8}, {5, 12e8}}) {
    const auto platform = make_system<VibroImpactPlatform>(
        {{"contact", "hertz"}, {"R", std::to_string(radius)}, {"E1", std::to_string(e1)}});
    INFO("R = " << radius << ", E1 = " << e1 << ": K = " << platform.hertz_stiffness());
    CHECK(platform.hertz_stiffness() ==
          Approx(hertz_constant(e1, 0.4, 2e12, 0.3, radius)).epsilon(1e-14));
  }
  // R = 5, E1 = 3e8: K = 1.0636e9 N/m^1.5 (by hand: d1 = 0.84 / (pi 3e8)).
  CHECK(make_system<VibroImpactPlatform>({{"contact", "hertz"}}).hertz_stiffness() ==
        Approx(1.0636e9).epsilon(1e-4));
}

TEST_CASE("Platform: the loaded platform at rest stays at its static equilibrium",
          "[platform]") {
  // Static sag of the mould: k0 z = m2 g (linear), K z^1.5 = m2 g (hertz), none (rigid).
  const double k_hertz = hertz_constant(3e8, 0.4, 2e12, 0.3, 5);
  const std::vector<std::pair<std::string, double>> cases = {
      {"linear", m2 * g / k0}, {"hertz", std::pow(m2 * g / k_hertz, 2.0 / 3.0)}, {"newton", 0.0}};
  for (const auto& [contact, sag] : cases) {
    const auto platform = make_system<VibroImpactPlatform>({{"contact", contact}, {"F0", "0"}});
    const Vector x0 = platform.default_initial_state();
    INFO(contact << ": sag " << platform.static_compression());
    CHECK(platform.static_compression() == Approx(sag).epsilon(1e-13));
    CHECK(x0[1] == Approx(h - sag).epsilon(1e-15));
    CHECK(platform.mode_of(0.0, x0) == VibroImpactPlatform::Joined);
    libcont::Flow flow(platform);
    libcont::FlowState state = flow.initial_state(0.0, x0);
    Recorder events;
    REQUIRE(flow.advance(state, 2.0, &events).ok());
    CHECK(events.events.empty());
    CHECK((state.x - x0).norm() <= 1e-12 * h);
  }
}

TEST_CASE("Platform, linear block, mould never lifting off: analytic 2-DOF steady state",
          "[platform]") {
  // F0 = 2e4 (a twelfth of the source's): the dynamic block force stays far below the
  // mould's weight, so the block is always in contact and the model is the linear system
  //   M q'' + C q' + K q = (F0 cos(omega t), 0) about the static equilibrium,
  //   K = [[k1 + k0, -k0], [-k0, k0]], C = [[c1 + c0, -c0], [-c0, c0 + c2]].
  // Starting on the analytic steady state, the integrated motion must stay on it.
  const double f0 = 2e4;
  const auto platform = make_system<VibroImpactPlatform>({{"F0", "2e4"}});
  Eigen::MatrixXd mass(2, 2), damping(2, 2), stiffness(2, 2);
  mass << m1, 0, 0, m2;
  damping << c1 + c0, -c0, -c0, c0 + c2;
  stiffness << k1 + k0, -k0, -k0, k0;
  Eigen::VectorXcd force(2);
  force << f0, 0.0;
  const HarmonicResponse steady = harmonic_response(mass, damping, stiffness, force, omega);
  Vector offset = Vector::Zero(4);
  offset[1] = h - m2 * g / k0;
  const double t_end = 20 * platform.forcing_period();
  // Tight tolerances: at the defaults the integration error relative to the offset
  // y2 ~ h (rtol 1e-11 x 0.0275 m, times the contact mode's ~250 rad/s in velocity) is
  // ~1e-8 of the small dynamic amplitudes; at rtol 1e-13 it is ~1e-10.
  libcont::Flow flow(platform, tight_options());
  libcont::FlowState state = flow.initial_state(0.0, offset + steady.state(0.0));
  Recorder events;
  REQUIRE(flow.advance(state, t_end, &events).ok());
  const Vector expected = offset + steady.state(t_end);
  INFO(std::setprecision(17) << "state " << state.x.transpose() << ", analytic "
                              << expected.transpose() << ", difference "
                              << (state.x - expected).transpose());
  CHECK(events.events.empty());
  CHECK((state.x - expected).head(2).norm() <= 1e-8 * steady.position(t_end).norm());
  CHECK((state.x - expected).tail(2).norm() <= 1e-8 * steady.velocity(t_end).norm());
}

TEST_CASE("Platform, newton block, mould resting: one rigid body, analytic", "[platform]") {
  // With the mould held on the rigid block the two move as one body:
  //   (m1 + m2) y'' + (c1 + c2) y' + k1 y = F0 cos(omega t),  y2 = y1 + h.
  const auto platform = make_system<VibroImpactPlatform>({{"contact", "newton"}, {"F0", "2e4"}});
  Eigen::MatrixXd mass(1, 1), damping(1, 1), stiffness(1, 1);
  mass << m1 + m2;
  damping << c1 + c2;
  stiffness << k1;
  Eigen::VectorXcd force(1);
  force << 2e4;
  const HarmonicResponse steady = harmonic_response(mass, damping, stiffness, force, omega);
  const auto joined_state = [&](double t) {
    Vector x(4);
    x << steady.position(t)[0], steady.position(t)[0] + h, steady.velocity(t)[0],
        steady.velocity(t)[0];
    return x;
  };
  const double t_end = 20 * platform.forcing_period();
  libcont::Flow flow(platform);
  libcont::FlowState state = flow.initial_state(0.0, joined_state(0.0));
  REQUIRE(state.mode == VibroImpactPlatform::Joined);
  Recorder events;
  REQUIRE(flow.advance(state, t_end, &events).ok());
  CHECK(events.events.empty());
  const Vector expected = joined_state(t_end);
  INFO("state " << state.x.transpose() << ", analytic " << expected.transpose());
  CHECK(std::abs(state.x[0] - expected[0]) <= 1e-8 * std::abs(steady.amplitude[0]));
  CHECK(std::abs(state.x[1] - expected[1]) <= 1e-8 * std::abs(steady.amplitude[0]));
}

TEST_CASE("Platform, soft contacts at the source's forcing: the energy balance closes",
          "[platform][energy]") {
  // From the static equilibrium the mould is thrown off and lands again several times in
  // 30 forcing periods; the residual is measured against the energy that passed through
  // the system (the supplied work, much larger than the initial energy).
  for (const char* contact : {"linear", "hertz"}) {
    const auto platform = make_system<VibroImpactPlatform>({{"contact", contact}});
    REQUIRE(platform.energy_account());
    const BalanceRun run =
        balance_over(platform, platform.default_initial_state(), 30 * platform.forcing_period());
    REQUIRE(run.report.ok());
    const double scale = std::max(std::abs(run.balance.initial), std::abs(run.balance.supplied));
    INFO(contact << ": E0 " << run.balance.initial << ", dissipated " << run.balance.dissipated
                 << ", supplied " << run.balance.supplied << ", residual "
                 << run.balance.residual() << ", contacts " << run.contacts);
    CHECK(run.contacts >= 3);
    CHECK(std::abs(run.balance.residual()) <= 1e-6 * scale);
  }
}

TEST_CASE("Platform: hand-written event gradients equal differences", "[platform]") {
  Vector x(4);
  x << 0.001, h - 0.0002, 0.1, -0.05;
  for (const char* contact : {"linear", "hertz", "newton"}) {
    const auto platform = make_system<VibroImpactPlatform>({{"contact", contact}});
    for (int mode : {VibroImpactPlatform::Free, VibroImpactPlatform::Joined}) {
      INFO(contact << ", mode " << mode);
      Vector analytic(4), numeric(4);
      double dt_analytic = 0, dt_numeric = 0;
      libcont::event_gradient(platform, mode, 0, 0.013, x, analytic, dt_analytic);
      libcont::difference_event_gradient(platform, mode, 0, 0.013, x, numeric, dt_numeric);
      CHECK((analytic - numeric).norm() <= 1e-6 * (1.0 + analytic.norm()));
      CHECK(dt_analytic == Approx(dt_numeric).epsilon(1e-6).margin(1e-6));
    }
  }
}

TEST_CASE("Platform, newton block: flow map Jacobian with saltation = differences",
          "[platform]") {
  // In the settled motion the mould is released, flies, lands with a chattering sequence
  // that ends in sticking (r = 0.5), and rests until the next release. The number of
  // chattering impacts changes under perturbation, so the map is checked from mid-flight
  // (after a release) to the middle of the flight after the first impact: one two-body
  // impact with its saltation matrix.
  const auto platform = make_system<VibroImpactPlatform>({{"contact", "newton"}});
  const double period = platform.forcing_period();
  const libcont::FlowState settled = settle(platform, 0.0, platform.default_initial_state(), 40);
  const MapResult next = flow_map(platform, FlowOptions{}, settled.t, settled.x, period, false);
  const auto releases = next.events.of_kind(EventKind::StickEnd);
  REQUIRE_FALSE(releases.empty());
  const double release = releases.front()->t;
  const EventRecord* first = nullptr;
  const EventRecord* second = nullptr;
  for (const auto& e : next.events.events)
    if (e.t > release && e.kind == EventKind::Impact) {
      if (!first) first = &e;
      else if (!second) { second = &e; break; }
    }
  REQUIRE(first);
  REQUIRE(second);
  const double t_start = 0.5 * (release + first->t);
  const double t_end = 0.5 * (first->t + second->t);
  const Vector x = flow_map(platform, tight_options(), settled.t, settled.x, t_start - settled.t,
                            false).x;
  Vector steps(4);
  steps << 1e-7, 1e-7, 1e-7 * omega, 1e-7 * omega;
  const PeriodMapCheck check = check_period_map(platform, x, t_end - t_start, steps, t_start);
  INFO("t " << t_start << " to " << t_end << ", events " << check.events << ", error "
            << check.error << ", naive " << check.naive_error);
  REQUIRE(check.events == 1);
  CHECK(check.error <= 1e-6);
  CHECK(check.naive_error >= 1e-4);
}

TEST_CASE("Platform, damped Hertz block: period map Jacobian with saltation = differences",
          "[platform]") {
  // The block's force K delta^1.5 + c0 delta' jumps by c0 delta' where the mould lands and
  // lifts off (the elastic part is continuous): the saltation matrices at entry and exit
  // carry that jump, the closed mode's field taken as its limit from inside on the surface.
  // With the viscous term cut at delta = 0 the entry saw no jump and the exit all of it:
  // the map's Jacobian was 190 % off its differences, worse than none at all (8 %).
  // Without the damper (xi0 = 0) the field is continuous and both agree.
  for (const char* xi0 : {"0.02", "0"}) {
    const auto platform =
        make_system<VibroImpactPlatform>({{"contact", "hertz"}, {"xi0", xi0}, {"omega", "100"}});
    const Vector x = settle(platform, 0.0, platform.default_initial_state(), 200).x;
    Vector steps(4);
    steps << 1e-7, 1e-7, 1e-5, 1e-5;
    const PeriodMapCheck check = check_period_map(platform, x, platform.forcing_period(), steps);
    INFO("xi0 " << xi0 << ": events " << check.events << ", error " << check.error
                << ", naive " << check.naive_error);
    REQUIRE(check.events == 2);
    CHECK(check.error <= 1e-6);
    if (std::string(xi0) != "0") CHECK(check.naive_error >= 1e-2);
  }
}
