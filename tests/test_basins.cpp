// Basins of attraction (libcont/basins.hpp) of the hard moving-base oscillator, r = 1, at
// eta = 2.6, where the period-1 orbit (stable up to its period doubling near 2.65) coexists
// with a z = 3/3 orbit that the start at rest (0, 0) reaches.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

#include "libcont/basins.hpp"
#include "libcont/floquet.hpp"
#include "libcont/flow.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::BasinCell;
using libcont::BasinOptions;
using libcont::BasinResult;
using libcont::Basins;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

const Settings eta_2_6 = {{"model", "hard"}, {"r", "1"}, {"omega", "2.6"}};

libcont::SystemFactory factory() {
  return [] {
    return std::make_unique<MovingBaseOscillator>(make_system<MovingBaseOscillator>(eta_2_6));
  };
}

BasinOptions grid(int threads) {
  BasinOptions o;
  o.x = {0, -0.01, 0.01, 7};  // x
  o.y = {1, -0.03, 0.03, 7};  // v
  o.transient_periods = 200;
  o.max_period = 8;
  o.threads = threads;
  return o;
}

}  // namespace

TEST_CASE("basins at eta = 2.6: the period-1 orbit and the 3/3 orbit from rest", "[basins]") {
  const BasinResult one = Basins(factory(), grid(1)).compute();
  REQUIRE(one.cells.size() == 49);
  CHECK(one.failed == 0);
  int period1 = -1, period3 = -1;
  for (size_t a = 0; a < one.attractors.size(); ++a) {
    const auto& attractor = one.attractors[a];
    INFO("attractor " << a << ": z = " << attractor.p << "/" << attractor.n << ", "
                      << attractor.cells << " cells");
    CHECK(attractor.points.size() == static_cast<size_t>(attractor.n));
    if (attractor.p == 1 && attractor.n == 1) period1 = static_cast<int>(a);
    if (attractor.p == 3 && attractor.n == 3) period3 = static_cast<int>(a);
  }
  REQUIRE(period1 >= 0);
  REQUIRE(period3 >= 0);
  // Each z appears once: the 3/3 orbit reached at its three phases is one attractor.
  CHECK(one.attractors.size() == 2 + static_cast<size_t>(std::count_if(
                                         one.attractors.begin(), one.attractors.end(),
                                         [](const auto& a) { return a.n != 1 && a.n != 3; })));

  // The cell at rest reaches the 3/3 orbit, as the sweep from (0, 0) does.
  const BasinCell& centre = one.cells[3 * 7 + 3];
  CHECK(std::abs(centre.x) < 1e-15);
  CHECK(std::abs(centre.y) < 1e-15);
  CHECK(centre.attractor == period3);

  // The period-1 attractor is the stable orbit that shooting finds.
  auto system = make_system<MovingBaseOscillator>(eta_2_6);
  libcont::Shooting shooting(system, 1);
  const auto orbit = shooting.solve(one.attractors[static_cast<size_t>(period1)].points[0]);
  REQUIRE(orbit.converged);
  CHECK(libcont::floquet_multipliers(orbit.monodromy).stable);
  CHECK((orbit.x - one.attractors[static_cast<size_t>(period1)].points[0]).norm() <= 1e-9);

  // Labels, attractors and final states do not depend on the thread count.
  const BasinResult two = Basins(factory(), grid(2)).compute();
  REQUIRE(two.cells.size() == one.cells.size());
  REQUIRE(two.attractors.size() == one.attractors.size());
  for (size_t k = 0; k < one.cells.size(); ++k) {
    CHECK(two.cells[k].attractor == one.cells[k].attractor);
    CHECK((two.cells[k].final_state.array() == one.cells[k].final_state.array()).all());
  }
}

TEST_CASE("basins reject bad axes naming them", "[basins]") {
  BasinOptions o = grid(1);
  o.y.coordinate = 0;
  CHECK_THROWS_WITH(Basins(factory(), o), Catch::Contains("both axes"));
  o = grid(1);
  o.x.coordinate = 5;
  CHECK_THROWS_WITH(Basins(factory(), o), Catch::Contains("x axis"));
  o = grid(1);
  o.y.steps = 0;
  CHECK_THROWS_WITH(Basins(factory(), o), Catch::Contains("y axis steps"));
  o = grid(1);
  o.settle_periods = -1;
  CHECK_THROWS_WITH(Basins(factory(), o), Catch::Contains("settle periods"));
  o = grid(1);
  o.nearly_periodic = std::nan("");
  CHECK_THROWS_WITH(Basins(factory(), o), Catch::Contains("nearly_periodic"));
}

TEST_CASE("basins progress: every cell counted once, from any thread", "[basins]") {
  BasinOptions o = grid(2);
  o.x.steps = 3;
  o.y.steps = 3;
  o.transient_periods = 20;
  std::vector<int> seen;
  o.progress = [&](int done, int total) {
    CHECK(total == 9);
    seen.push_back(done);  // calls never overlap, so no lock here
  };
  Basins(factory(), o).compute();
  REQUIRE(seen.size() == 9);
  for (size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == static_cast<int>(i) + 1);
}

TEST_CASE("basins: a cell still settling onto a weakly stable orbit is integrated further",
          "[basins]") {
  // At omega = 3.3, r = 0.9 the z = 1/2 orbit has a multiplier near -1 (lambda_1 = -0.006):
  // after 200 transient periods its cells are not periodic to 1e-6, and while they converge
  // they repeat after four periods sooner than after two. Settled further, they are the
  // z = 1/2 orbit that a long direct integration from the same state reaches.
  const Settings weak = {{"model", "hard"}, {"r", "0.9"}, {"omega", "3.3"}};
  const libcont::SystemFactory make = [&] {
    return std::make_unique<MovingBaseOscillator>(make_system<MovingBaseOscillator>(weak));
  };
  BasinOptions o;
  o.x = {0, 0.014, 0.016, 3};
  o.y = {1, -0.001, 0.001, 3};
  o.transient_periods = 200;
  const BasinResult settled = Basins(make, o).compute();
  const auto& middle = settled.cells[4];  // (0.015, 0)
  REQUIRE((middle.i == 1 && middle.j == 1));
  REQUIRE(middle.attractor >= 0);
  const auto& half = settled.attractors[static_cast<size_t>(middle.attractor)];
  CHECK(half.p == 1);
  CHECK(half.n == 2);
  CHECK(settled.settling == 0);
  CHECK(settled.non_periodic == 0);
  for (const auto& cell : settled.cells)
    if (cell.attractor == middle.attractor) CHECK(cell.settled_after > 0);
  // The long integration (5000 periods) from the middle cell's state: z = 1/2, and its
  // section points are the attractor's.
  auto system = make();
  const double period = system->forcing_period();
  libcont::Flow flow(*system);
  libcont::FlowState state = flow.initial_state(0.0, vec2(0.015, 0.0));
  REQUIRE(flow.advance(state, 5000 * period).ok());
  const libcont::Vector x0 = state.x;
  REQUIRE(flow.advance(state, 5001 * period).ok());
  const libcont::Vector x1 = state.x;
  REQUIRE(flow.advance(state, 5002 * period).ok());
  CHECK((state.x - x0).norm() <= 1e-8 * x0.norm());
  CHECK((x1 - x0).norm() > 1e-3 * x0.norm());
  for (const auto& x : {x0, x1}) {
    double nearest = 1e300;
    for (const auto& p : half.points) nearest = std::min(nearest, (p - x).norm());
    CHECK(nearest <= 1e-5 * x.norm());
  }
  // Without settling the same cells are non-periodic, and said to be still settling.
  o.settle_periods = 0;
  const BasinResult unsettled = Basins(make, o).compute();
  CHECK(unsettled.cells[4].attractor == BasinCell::non_periodic);
  CHECK(unsettled.cells[4].settling);
  CHECK(unsettled.settling == half.cells);
}
