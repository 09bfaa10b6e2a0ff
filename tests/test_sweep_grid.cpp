// Two-parameter sweeps (grids, doc/sweeps.md "Grids", libcont/sweep.hpp) on the hard
// moving-base oscillator in (eta, r): the plan (one chain per row when following the
// attractor, every cell alone otherwise), bad input naming the item, results bit-identical
// whatever the thread count or partition, a cell equal to the one-parameter sweep's point
// at the same (eta, r), a stopped grid resumed equal to an uninterrupted one, and cells
// against the closed form: where it has a stable z = 1/1 orbit the grid finds 1/1, with
// the largest exponent ln|mu_1| / T of the closed form's multipliers.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "impact_oscillator_closed_form.hpp"
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
using libcont::SweepRegime;
using libcont::SweepResult;
using libcont::SweepStatus;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

const Settings hard = {{"model", "hard"}};

// eta from `from` to `to` x r from `r_from` to `r_to`, from rest on the base.
SweepOptions eta_r_grid(double from, double to, int steps, double r_from, double r_to,
                        int r_steps, int transient, int periods) {
  SweepOptions o;
  o.parameter = "omega";
  o.from = from;
  o.to = to;
  o.steps = steps;
  o.second_parameter = "r";
  o.second_from = r_from;
  o.second_to = r_to;
  o.second_steps = r_steps;
  o.initial_states = {vec2(0.0, 0.0)};
  o.lyapunov.transient_periods = transient;
  o.lyapunov.periods = periods;
  o.kept_samples = 4;
  return o;
}

// A value as text that reads back to the same double (a --set value, say).
std::string exact_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

TEST_CASE("grid plan: one chain per row when following, every cell alone otherwise",
          "[sweep][grid]") {
  SweepOptions o = eta_r_grid(2.0, 3.0, 5, 0.6, 1.0, 3, 1, 1);
  o.follow_attractor = true;
  o.direction = SweepDirection::Both;
  const Sweep following(moving_base_factory(hard), o);
  const auto chains = following.tasks();
  REQUIRE(chains.size() == 6);  // (up, down) x 3 rows
  for (size_t t = 0; t < chains.size(); ++t) {
    INFO("chain " << t);
    REQUIRE(chains[t].size() == 5);
    for (const auto& key : chains[t]) CHECK(key.second_index == static_cast<int>(t % 3));
  }
  CHECK(chains[1].front().pass == SweepPass::Up);
  CHECK(chains[1].front().index == 0);
  CHECK(chains[3].front().pass == SweepPass::Down);
  CHECK(chains[3].front().index == 4);
  CHECK(following.plan().size() == 30);
  // Both ends of both axes come out exactly.
  CHECK(following.second_parameter_value(0) == 0.6);
  CHECK(following.second_parameter_value(2) == 1.0);
  CHECK(following.second_parameter_value(1) == 0.8);

  o.follow_attractor = false;
  const Sweep fixed(moving_base_factory(hard), o);
  const auto cells = fixed.tasks();
  REQUIRE(cells.size() == 15);  // 5 x 3 cells, each a task
  for (const auto& task : cells) CHECK(task.size() == 1);
  // Rows follow each other, eta upwards within each.
  CHECK(cells[4].front().index == 4);
  CHECK(cells[5].front().index == 0);
  CHECK(cells[5].front().second_index == 1);

  // A one-parameter sweep's keys stay in row 0 and its points at second value 0.
  o.second_parameter.clear();
  const Sweep line(moving_base_factory(hard), o);
  CHECK(line.tasks().size() == 5);
  for (const auto& key : line.plan()) CHECK(key.second_index == 0);
  CHECK(line.second_parameter_value(0) == 0.0);
}

TEST_CASE("grid rejects bad input naming the item", "[sweep][grid]") {
  SweepOptions o = eta_r_grid(2.0, 3.0, 3, 0.6, 1.0, 3, 1, 1);
  o.second_parameter = "omega";
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard), o), Catch::Contains("second parameter") &&
                                                     Catch::Contains("omega"));
  o.second_parameter = "lambda";  // the moving base has none
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard), o), Catch::Contains("lambda"));
  o = eta_r_grid(2.0, 3.0, 3, 0.6, 1.5, 3, 1, 1);  // r is a restitution coefficient, <= 1
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard), o), Catch::Contains("r"));
  o = eta_r_grid(2.0, 3.0, 3, 0.6, 1.0, 0, 1, 1);
  CHECK_THROWS_WITH(Sweep(moving_base_factory(hard), o), Catch::Contains("second_steps"));
}

TEST_CASE("grid results are bit-identical with 1 and 2 threads and over partitions",
          "[sweep][grid]") {
  for (bool follow : {true, false}) {
    INFO((follow ? "following the attractor along eta" : "fixed initial conditions"));
    SweepOptions o = eta_r_grid(2.4, 3.2, 4, 0.8, 1.0, 3, 40, 40);
    o.follow_attractor = follow;
    o.direction = SweepDirection::Both;
    o.threads = 1;
    const SweepResult serial = Sweep(moving_base_factory(hard), o).run();
    CHECK(serial.complete);
    CHECK(serial.status == SweepStatus::Complete);
    CHECK(serial.points.size() == (follow ? 24u : 12u));
    o.threads = 2;
    require_identical(serial, Sweep(moving_base_factory(hard), o).run());

    // Three partitions (as three MPI ranks would compute) together give the serial points.
    o.threads = 1;
    o.partition_size = 3;
    std::vector<SweepPoint> merged;
    for (int rank = 0; rank < 3; ++rank) {
      o.partition_rank = rank;
      const SweepResult part = Sweep(moving_base_factory(hard), o).run();
      CHECK(part.complete);
      merged.insert(merged.end(), part.points.begin(), part.points.end());
    }
    SweepResult combined;
    for (const auto& key : Sweep(moving_base_factory(hard), o).plan())
      for (const auto& point : merged)
        if (point.key == key) combined.points.push_back(point);
    require_identical(serial, combined);
  }
}

TEST_CASE("a grid cell equals the one-parameter sweep's point at the same (eta, r)",
          "[sweep][grid]") {
  // Independent of the grid's bookkeeping: the one-parameter sweep gets r from the
  // system's own settings, as `vicont sweep --set r=...` would.
  for (bool follow : {true, false}) {
    INFO((follow ? "following the attractor along eta" : "fixed initial conditions"));
    SweepOptions o = eta_r_grid(2.2, 3.4, 5, 0.7, 0.9, 3, 60, 60);
    o.follow_attractor = follow;
    o.direction = SweepDirection::Down;
    o.threads = 2;
    const SweepResult grid = Sweep(moving_base_factory(hard), o).run();
    REQUIRE(grid.points.size() == 15);
    for (int row = 0; row < 3; ++row) {
      const double r = Sweep(moving_base_factory(hard), o).second_parameter_value(row);
      SweepOptions line = o;
      line.second_parameter.clear();
      const SweepResult one =
          Sweep(moving_base_factory({{"model", "hard"}, {"r", exact_text(r)}}), line).run();
      REQUIRE(one.points.size() == 5);
      for (const auto& point : one.points) {
        INFO("eta = " << point.parameter << ", r = " << r);
        int found = 0;
        for (const auto& cell : grid.points) {
          if (cell.key.second_index != row || cell.key.index != point.key.index) continue;
          ++found;
          CHECK(cell.key.pass == point.key.pass);
          CHECK(same_bits(cell.parameter, point.parameter));
          CHECK(same_bits(cell.second_parameter, r));
          CHECK(same_motion(cell, point));
        }
        CHECK(found == 1);
      }
    }
  }
}

TEST_CASE("a grid stopped after half its cells and resumed equals an uninterrupted one",
          "[sweep][grid]") {
  for (bool follow : {true, false}) {
    INFO((follow ? "following the attractor along eta" : "fixed initial conditions"));
    SweepOptions o = eta_r_grid(2.4, 3.2, 4, 0.8, 1.0, 3, 40, 40);
    o.follow_attractor = follow;
    o.threads = 2;
    const Sweep sweep(moving_base_factory(hard), o);
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

    int recomputed = 0;
    const SweepResult resumed = sweep.run(checkpoint, [&](const SweepPoint&) {
      ++recomputed;
      return true;
    });
    CHECK(resumed.complete);
    CHECK(resumed.reused == static_cast<int>(checkpoint.size()));
    CHECK(recomputed == total - static_cast<int>(checkpoint.size()));
    require_identical(whole, resumed);
  }
}

TEST_CASE("grid cells where the closed form has a stable z = 1/1 orbit: 1/1, lambda_1 = ln|mu_1|/T",
          "[sweep][grid]") {
  // eta in the period-1 window from rest (2.00-2.55 at r = 1, doc/sweeps.md), r from 0.8
  // to 1. The closed form (tests/impact_oscillator_closed_form.hpp) knows nothing of the
  // sweep: its orbit, admissibility and multipliers come from the exact flight and the
  // impact's saltation matrix.
  SweepOptions o = eta_r_grid(2.05, 2.45, 3, 0.8, 1.0, 3, 300, 2000);
  o.threads = 2;
  const SweepResult grid = Sweep(moving_base_factory(hard), o).run();
  REQUIRE(grid.points.size() == 9);
  int checked = 0;
  for (const auto& cell : grid.points) {
    ImpactOscillatorParameters p;
    p.eta = cell.parameter;
    p.r = cell.second_parameter;
    const ImpactOscillatorClosedForm closed_form(p);
    const ImpactingOrbit* stable = nullptr;
    const auto orbits = closed_form.impacting_orbits(1);
    for (const auto& orbit : orbits)
      if (std::abs(orbit.multipliers[0]) < 1.0) stable = &orbit;
    if (!stable) continue;
    const double expected = std::log(std::abs(stable->multipliers[0])) / closed_form.period();
    INFO("eta = " << cell.parameter << ", r = " << cell.second_parameter << ": lambda_1 = "
                  << cell.largest_exponent() << ", closed form " << expected);
    CHECK(cell.regime() == SweepRegime::Periodic);
    CHECK(cell.p == 1);
    CHECK(cell.n == 1);
    CHECK(cell.largest_exponent() < 0.0);
    // Measured within 1.8e-4 (2000 averaged periods; the average converges as 1/periods).
    CHECK(std::abs(cell.largest_exponent() - expected) < 5e-4);
    ++checked;
  }
  CHECK(checked == 9);  // every cell of this box has the stable 1/1 orbit
}
