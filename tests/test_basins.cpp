// Basins of attraction (libcont/basins.hpp) of the hard moving-base oscillator, r = 1, at
// eta = 2.6, where the period-1 orbit (stable up to its period doubling near 2.65) coexists
// with a z = 3/3 orbit that the start at rest (0, 0) reaches.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "libcont/basins.hpp"
#include "libcont/floquet.hpp"
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
