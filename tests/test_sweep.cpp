// Brute-force sweeps (doc/sweeps.md, libcont/sweep.hpp) on the moving-base oscillator, hard
// impacts, r = 1 (doc/reproduction.md): the published period-1 and period-2 windows in eta,
// the exponents -c/(2m) inside them, the exponent sum -c/m at every point; results
// bit-identical whatever the thread count or partition, and a stopped sweep resumed from
// its finished points equal to an uninterrupted one.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "libcont/sweep.hpp"
#include "systems/moving_base.hpp"
#include "moving_base_cases.hpp"
#include "sweep_point_compare.hpp"
#include "test_support.hpp"

using libcont::Sweep;
using libcont::SweepDirection;
using libcont::SweepOptions;
using libcont::SweepPass;
using libcont::SweepPoint;
using libcont::SweepResult;
using libcont::SweepStatus;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

constexpr double c_over_m = 0.23;

const Settings hard_r1 = {{"model", "hard"}, {"r", "1"}};

SweepOptions eta_sweep(double from, double to, int steps, int transient, int periods) {
  SweepOptions o;
  o.parameter = "omega";
  o.from = from;
  o.to = to;
  o.steps = steps;
  o.initial_states = {vec2(0.0, 0.0)};  // the reference's start: at rest on the base
  o.lyapunov.transient_periods = transient;
  o.lyapunov.periods = periods;
  o.kept_samples = 8;
  return o;
}

// The run of consecutive grid points around `inside` whose motion has period n (z = p/n
// with the given p), as [first, last] parameter values.
std::optional<std::pair<double, double>> window(const SweepResult& sweep, double inside, int p,
                                                int n) {
  const auto& points = sweep.points;
  size_t centre = 0;
  for (size_t i = 0; i < points.size(); ++i)
    if (std::abs(points[i].parameter - inside) < std::abs(points[centre].parameter - inside))
      centre = i;
  auto in_window = [&](size_t i) { return points[i].p == p && points[i].n == n; };
  if (!in_window(centre)) return std::nullopt;
  size_t first = centre, last = centre;
  while (first > 0 && in_window(first - 1)) --first;
  while (last + 1 < points.size() && in_window(last + 1)) ++last;
  return std::make_pair(points[first].parameter, points[last].parameter);
}

}  // namespace

TEST_CASE("sweep plan: chains when following, single points otherwise", "[sweep]") {
  SweepOptions o = eta_sweep(2.0, 3.0, 5, 1, 1);
  o.initial_states = {vec2(0.0, 0.0), vec2(0.001, 0.0)};
  o.follow_attractor = true;
  o.direction = SweepDirection::Both;
  const Sweep following(moving_base_factory(hard_r1), o);
  const auto chains = following.tasks();
  REQUIRE(chains.size() == 4);  // (up, down) x 2 initial conditions
  CHECK(chains[0].front().pass == SweepPass::Up);
  CHECK(chains[0].front().index == 0);
  CHECK(chains[0].back().index == 4);
  CHECK(chains[2].front().pass == SweepPass::Down);
  CHECK(chains[2].front().index == 4);
  CHECK(chains[3].front().initial_condition == 1);
  CHECK(following.plan().size() == 20);
  // The ends of the grid come out exactly.
  CHECK(following.parameter_value(0) == 2.0);
  CHECK(following.parameter_value(4) == 3.0);
  CHECK(following.parameter_value(2) == 2.5);

  o.follow_attractor = false;
  const Sweep fixed(moving_base_factory(hard_r1), o);
  const auto single = fixed.tasks();
  REQUIRE(single.size() == 10);  // every point a task, once whatever the direction
  for (const auto& task : single) CHECK(task.size() == 1);
  CHECK(single[0].front().pass == SweepPass::Fixed);
}

TEST_CASE("sweep rejects bad input naming the item", "[sweep]") {
  SweepOptions o = eta_sweep(2.0, 3.0, 3, 1, 1);
  o.parameter = "lambda";  // the moving base has none
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard_r1), o), Catch::Contains("lambda"));
  o = eta_sweep(-1.0, 3.0, 3, 1, 1);
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard_r1), o), Catch::Contains("omega"));
  o = eta_sweep(2.0, 3.0, 3, 1, 1);
  o.initial_states = {Vector::Zero(3)};
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard_r1), o), Catch::Contains("initial state 1"));
  o = eta_sweep(2.0, 3.0, 0, 1, 1);
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard_r1), o), Catch::Contains("steps"));
  o = eta_sweep(2.0, 3.0, 3, 1, 0);
  CHECK_THROWS_AS(Sweep(moving_base_factory(hard_r1), o), libcont::InputError);
}

TEST_CASE("sweep results are bit-identical with 1 and 2 threads and over partitions",
          "[sweep]") {
  for (bool follow : {true, false}) {
    INFO((follow ? "following the attractor" : "fixed initial conditions"));
    SweepOptions o = eta_sweep(2.4, 3.2, 5, 40, 40);
    o.initial_states = {vec2(0.0, 0.0), vec2(0.004, 0.0)};
    o.follow_attractor = follow;
    o.direction = SweepDirection::Both;
    o.threads = 1;
    const SweepResult serial = Sweep(moving_base_factory(hard_r1), o).run();
    CHECK(serial.complete);
    CHECK(serial.status == SweepStatus::Complete);
    CHECK(serial.message.empty());
    CHECK(serial.computed == static_cast<int>(serial.points.size()));
    o.threads = 2;
    require_identical(serial, Sweep(moving_base_factory(hard_r1), o).run());

    // Two partitions (as two MPI ranks would compute) together give the serial points.
    o.threads = 1;
    o.partition_size = 2;
    std::vector<SweepPoint> merged;
    for (int rank = 0; rank < 2; ++rank) {
      o.partition_rank = rank;
      const SweepResult part = Sweep(moving_base_factory(hard_r1), o).run();
      CHECK(part.complete);
      merged.insert(merged.end(), part.points.begin(), part.points.end());
    }
    SweepResult combined;
    const auto plan = Sweep(moving_base_factory(hard_r1), o).plan();
    for (const auto& key : plan)
      for (const auto& point : merged)
        if (point.key == key) combined.points.push_back(point);
    require_identical(serial, combined);
  }
}

TEST_CASE("a sweep stopped after half its points and resumed equals an uninterrupted one",
          "[sweep]") {
  for (bool follow : {true, false}) {
    INFO((follow ? "following the attractor" : "fixed initial conditions"));
    SweepOptions o = eta_sweep(2.4, 3.2, 6, 40, 40);
    o.follow_attractor = follow;
    o.direction = SweepDirection::Both;
    o.threads = 2;
    const Sweep sweep(moving_base_factory(hard_r1), o);
    const SweepResult whole = sweep.run();
    const int total = static_cast<int>(sweep.plan().size());

    int reported = 0;
    std::vector<SweepPoint> checkpoint;  // what a checkpoint directory would hold
    const SweepResult stopped = sweep.run({}, [&](const SweepPoint& point) {
      checkpoint.push_back(point);
      return ++reported < total / 2;
    });
    CHECK_FALSE(stopped.complete);
    CHECK(stopped.status == SweepStatus::Stopped);
    CHECK(stopped.message == "the sweep stopped before all points were computed");
    CHECK(stopped.computed < total);
    CHECK(stopped.computed >= total / 2);

    int recomputed = 0;
    const SweepResult resumed = sweep.run(checkpoint, [&](const SweepPoint&) {
      ++recomputed;
      return true;
    });
    CHECK(resumed.complete);
    CHECK(resumed.status == SweepStatus::Complete);
    CHECK(resumed.reused == static_cast<int>(checkpoint.size()));
    CHECK(recomputed == total - static_cast<int>(checkpoint.size()));
    require_identical(whole, resumed);
  }
}

TEST_CASE("a sweep whose points fail says so: its status, and the first failure in words",
          "[sweep]") {
  SweepOptions o = eta_sweep(2.4, 3.2, 3, 5, 5);
  // CVODE (not the exact flow of the affine modes) with far fewer steps than one forcing
  // period takes: every point fails in its transient.
  o.lyapunov.flow.exact_linear_modes = false;
  o.lyapunov.flow.max_steps = 10;
  const SweepResult result = Sweep(moving_base_factory(hard_r1), o).run();
  CHECK(result.complete);
  REQUIRE(result.failed() == 3);
  CHECK(result.status == SweepStatus::PointsFailed);
  CHECK(to_string(result.status) == "points failed");
  const std::string first = "3 of 3 points failed (first at omega = 2.4: " +
                            libcont::to_string(result.points.front().status);
  CHECK(result.message.substr(0, first.size()) == first);
}

TEST_CASE("hard r = 1, eta 2 to 10: period-1 and period-2 windows, exponent sum -c/m",
          "[sweep][long]") {
  // Fixed initial condition (0, 0) at every point, as in the reference's brute-force
  // sweep; grid step 0.05, so a window edge is known to one step, the reference's
  // tolerance. 500 transient periods settle the motion also near the window edges.
  SweepOptions o = eta_sweep(2.0, 10.0, 161, 500, 100);
  o.threads = 2;
  const SweepResult sweep = Sweep(moving_base_factory(hard_r1), o).run();
  REQUIRE(sweep.complete);
  REQUIRE(sweep.failed() == 0);
  for (const auto& point : sweep.points) {
    INFO("eta = " << point.parameter << ", exponents " << point.exponents.transpose());
    REQUIRE(point.exponents.size() == 2);
    CHECK(std::abs(point.exponent_sum + c_over_m) <= 1e-9);
  }
  const auto period1 = window(sweep, 2.3, 1, 1);
  const auto period2 = window(sweep, 4.0, 1, 2);
  REQUIRE(period1);
  REQUIRE(period2);
  WARN("period-1 window " << period1->first << " - " << period1->second << ", period-2 window "
                          << period2->first << " - " << period2->second);
  CHECK(period1->first == 2.0);
  CHECK(std::abs(period1->second - 2.55) <= 0.05);
  CHECK(std::abs(period2->first - 3.35) <= 0.05);
  CHECK(std::abs(period2->second - 4.60) <= 0.05);
}

TEST_CASE("hard r = 1: inside the period-1 and period-2 windows both exponents are -0.115",
          "[sweep][long]") {
  // Reference tolerance: 1e-3 from Benettin over >= 5000 periods.
  const auto check_window = [](double from, double to, int steps, int n) {
    SweepOptions o = eta_sweep(from, to, steps, 300, 5000);
    o.threads = 2;
    const SweepResult sweep = Sweep(moving_base_factory(hard_r1), o).run();
    REQUIRE(sweep.complete);
    for (const auto& point : sweep.points) {
      INFO("eta = " << point.parameter << ", exponents " << point.exponents.transpose());
      REQUIRE(point.ok());
      CHECK(point.n == n);
      CHECK(point.p == 1);
      CHECK(std::abs(point.exponents[0] + 0.115) <= 1e-3);
      CHECK(std::abs(point.exponents[1] + 0.115) <= 1e-3);
      CHECK(std::abs(point.exponent_sum + c_over_m) <= 1e-9);
    }
  };
  check_window(2.0, 2.5, 6, 1);
  check_window(3.4, 4.6, 7, 2);
}
