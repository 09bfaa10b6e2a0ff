// Mass dropped on a base (doc/reproduction.md, "Drop test"): hard impacts with
// analytic rebound heights and impact times, chattering that ends at rest at the analytic
// accumulation time, and the soft contact's duration, depth and energy balance.
#include <catch2/catch.hpp>
#include <cmath>

#include "libcont/flow.hpp"
#include "systems/drop.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::EventRecord;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowState;
using libcont::FlowStatus;
using systems::DropTest;
using test_support::make_system;
using test_support::Recorder;

namespace {

constexpr double g = 9.81;
constexpr double H0 = 1.0;

// Runs the drop from rest at H0 until t_end and records the events.
struct DropRun {
  Recorder events;
  libcont::FlowReport report;
  FlowState final_state;
};

DropRun drop(const DropTest& system, double t_end, const FlowOptions& options = {}) {
  Flow flow(system, options);
  DropRun run;
  run.final_state = flow.initial_state(0.0, system.default_initial_state());
  run.report = flow.advance(run.final_state, t_end, &run.events);
  return run;
}

}  // namespace

TEST_CASE("Hard drop, r = 0.9: rebound heights and impact times are analytic", "[drop]") {
  const double r = 0.9;
  const auto system = make_system<DropTest>({{"model", "hard"}, {"r", "0.9"}});
  const DropRun run = drop(system, 3.0);
  REQUIRE(run.report.ok());
  const auto impacts = run.events.of_kind(EventKind::Impact);
  REQUIRE(impacts.size() >= 3);

  // H_i = r^2 H_{i-1}: 0.81, 0.6561, 0.531441 (reference: 1e-9 relative). The height
  // follows from the post-impact speed, H = v+^2 / (2 g).
  const double expected_heights[] = {0.81, 0.6561, 0.531441};
  // t_1 = sqrt(2 H0 / g), t_{k+1} = t_k + 2 v_k / g with v_k = r^k sqrt(2 g H0). Impact times
  // are located by CVODE's root finding to ~100 eps |t|; 1e-9 is the reference tolerance.
  double t_expected = std::sqrt(2 * H0 / g);
  double v = std::sqrt(2 * g * H0);
  for (int i = 0; i < 3; ++i) {
    INFO("impact " << i + 1);
    const EventRecord& impact = *impacts[static_cast<size_t>(i)];
    const double height = impact.x_plus[1] * impact.x_plus[1] / (2 * g);
    CHECK(height == Approx(expected_heights[i]).epsilon(1e-9));
    CHECK(std::abs(impact.t - t_expected) <= 1e-9);
    CHECK(impact.x_plus[1] == Approx(-r * impact.x_minus[1]).epsilon(1e-14));
    v *= r;
    t_expected += 2 * v / g;
  }
}

TEST_CASE("Hard drop, r = 0.5: chattering ends at rest at the analytic time", "[drop]") {
  // Impacts accumulate at t_inf = t_1 + (2 v0 / g) r / (1 - r) (geometric series of flight
  // times). The flow must pass it (sticking through the model's rest mode), not crawl.
  const double r = 0.5;
  const double v0 = std::sqrt(2 * g * H0);
  const double t1 = std::sqrt(2 * H0 / g);
  const double t_inf = t1 + (2 * v0 / g) * r / (1 - r);

  // Default tolerances (atol 1e-13) cannot resolve the last flights before sticking, whose apex heights
  // v^2 / (2 g) fall below the absolute position tolerance: those impact times carry
  // errors of the order of the flight times themselves. The resting time therefore
  // deviates from t_inf by more than the early impact times do: measured 1.5e-8 at the
  // defaults (the brief's author measured ~5e-8) and 4.6e-9 at rtol 1e-12, atol 1e-14.
  // Early impacts are asserted to 1e-9, the rest time to 1e-7.
  FlowOptions tight;
  tight.relative_tolerance = 1e-12;
  tight.absolute_tolerance = 1e-14;
  for (const FlowOptions& options : {FlowOptions{}, tight}) {
    INFO("rtol = " << options.relative_tolerance << ", atol = " << options.absolute_tolerance);
    const auto system = make_system<DropTest>({{"model", "hard"}, {"r", "0.5"}});
    const DropRun run = drop(system, 10.0, options);
    // Finishes normally and quickly: ~log(v0 / stick_velocity) / log(1 / r) = 32 impacts.
    CHECK(run.report.status == FlowStatus::Success);
    CHECK(run.report.events < 100);
    CHECK(run.report.steps < 10000);
    CHECK(run.final_state.t == 10.0);
    // At rest on the base.
    CHECK(run.final_state.mode == DropTest::Ground);
    CHECK(run.final_state.x[0] == 0.0);
    CHECK(run.final_state.x[1] == 0.0);

    const auto impacts = run.events.of_kind(EventKind::Impact);
    REQUIRE(impacts.size() >= 3);
    double t_expected = t1;
    double v = v0;
    for (int i = 0; i < 3; ++i) {
      CHECK(std::abs(impacts[static_cast<size_t>(i)]->t - t_expected) <= 1e-9);
      v *= r;
      t_expected += 2 * v / g;
    }
    const auto rests = run.events.of_kind(EventKind::StickStart);
    REQUIRE(rests.size() == 1);
    // The law sticks once the rebound apex falls below stick_height (flights lower than
    // that are below the position tolerance): the flights it skips last
    // 2 v_rebound / (g (1 - r)) in all, computed from the recorded approach speed. Rest
    // time plus that tail is the accumulation point.
    const EventRecord& rest = *rests.front();
    const double skipped_tail = 2 * r * std::abs(rest.x_minus[1]) / (g * (1 - r));
    CHECK(skipped_tail < 2e-6);  // apex 1e-12 m: rebound below sqrt(2 g 1e-12)
    CHECK(std::abs(rest.t + skipped_tail - t_inf) <= 1e-7);
    // Nothing happens after coming to rest.
    CHECK(&run.events.events.back() == rests.front());
  }
}

TEST_CASE("Soft drop, k_s = 20000, c_s = 9.48: contact duration, depth, energy balance",
          "[drop]") {
  const auto system =
      make_system<DropTest>({{"model", "soft"}, {"ks", "20000"}, {"cs", "9.48"}});
  const double cs = 9.48;
  Flow flow(system);
  FlowState state = flow.initial_state(0.0, system.default_initial_state());
  // Free fall first (contact at t = 0.4515), then a fine sample grid over the contact.
  REQUIRE(flow.advance(state, 0.44).ok());
  Recorder run;
  const double step = 1e-6;
  REQUIRE(flow.advance(state, 0.5, &run, {0.0, step}).ok());
  REQUIRE(run.events.size() >= 2);
  const EventRecord& start = run.events[0];
  const EventRecord& end = run.events[1];
  REQUIRE(start.kind == EventKind::ContactStart);
  REQUIRE(end.kind == EventKind::ContactEnd);

  // Reference values (1e-3 relative): duration 0.022461, depth 0.030210. The depth is the
  // smallest x sampled every 1e-6 s; at the turning point x'' ~ k_s x ~ 600 m/s^2, so the
  // sampling error is at most 600 (5e-7)^2 / 2 ~ 1e-10 m.
  CHECK(end.t - start.t == Approx(0.022461).epsilon(1e-3));
  double depth = 0.0;
  for (const auto& s : run.samples)
    if (s.t > start.t && s.t < end.t) depth = std::max(depth, -s.x[0]);
  CHECK(depth == Approx(0.030210).epsilon(1e-3));

  // Energy balance: mechanical energy before contact minus after separation equals the
  // work of the damper, integral of c_s v^2 over the contact (trapezoid rule on the 1e-6
  // grid plus the partial intervals at both ends; its error ~ step^2 / 12 * max|(c_s v^2)''|
  // * duration ~ 1e-8, far below the tolerance of 1e-6 E0).
  const double e0 = system.mechanical_energy(DropTest::Flight, 0.0, system.default_initial_state());
  const double before = system.mechanical_energy(start.mode_before, start.t, start.x_minus);
  const double after = system.mechanical_energy(end.mode_after, end.t, end.x_plus);
  CHECK(std::abs(before - e0) <= 1e-9 * e0);  // free fall conserves energy
  double dissipated = 0.0;
  double t_prev = start.t;
  double power_prev = cs * start.x_plus[1] * start.x_plus[1];
  for (const auto& s : run.samples) {
    if (s.t <= start.t || s.t >= end.t) continue;
    const double power = cs * s.x[1] * s.x[1];
    dissipated += 0.5 * (power + power_prev) * (s.t - t_prev);
    t_prev = s.t;
    power_prev = power;
  }
  dissipated += 0.5 * (power_prev + cs * end.x_minus[1] * end.x_minus[1]) * (end.t - t_prev);
  CHECK(dissipated > 0.1 * e0);  // a real loss (r ~ 0.9 loses ~19 %)
  CHECK(std::abs((before - after) - dissipated) <= 1e-6 * e0);
}
