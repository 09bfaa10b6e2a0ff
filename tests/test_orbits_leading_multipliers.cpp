// Leading Floquet multipliers of a large system, matrix-free (leading_multipliers.hpp:
// Arnoldi on v -> D P^n v, one tangent column per product), against all multipliers of
// the full saltation-corrected monodromy matrix from Eigen (doc/theory.md section
// 6). System: the chain of N oscillators whose last mass hits a stop ("chain"). Forcing
// chosen so that the settled motion is T-periodic and impacts (measured: N = 10 and 30
// with F0 = 2, omega = 0.3, two and one impacts per period; N = 100 with F0 = 4,
// omega = 0.3, d = 0.2, one impact per period, while with F0 = 2, d = 1 its last mass
// never reaches the stop; the defaults F0 = 1, omega = 0.5 give period 7 at N = 10).
// N = 100 (n = 200: 6 s of shooting, 20 s of Arnoldi with ~460 products) is [long].
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "libcont/floquet.hpp"
#include "libcont/input_error.hpp"
#include "libcont/leading_multipliers.hpp"
#include "libcont/shooting.hpp"
#include "systems/oscillator_chain.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using libcont::StroboscopicMap;
using libcont::Vector;
using systems::OscillatorChain;
using namespace test_support;

namespace {

double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

struct Comparison {
  int count = 0;          // leading multipliers compared
  double worst = 0.0;     // largest relative difference
  int products = 0;       // tangent-flow products Arnoldi used
  double full_seconds = 0.0, leading_seconds = 0.0;
};

// The T-periodic orbit of the chain with `masses` masses; its full spectrum against the
// leading multipliers, as many as wanted but no more than up to a clear gap in modulus.
Comparison compare(int masses, int count_wanted, Settings settings) {
  settings.push_back({"N", std::to_string(masses)});
  auto system = make_system<OscillatorChain>(settings);
  const int n = system.dimension();
  const Vector settled = settle(system, 0.0, Vector::Zero(n), 400).x;
  auto begin = std::chrono::steady_clock::now();
  const auto orbit = libcont::Shooting(system, 1).solve(settled);
  Comparison c;
  c.full_seconds = seconds_since(begin);
  INFO("N = " << masses << ": " << orbit.reason);
  REQUIRE(orbit.converged);
  CHECK(orbit.p >= 1);  // the orbit impacts: its monodromy has saltation matrices in it

  const auto full = libcont::floquet_multipliers(orbit.monodromy);
  const Eigen::VectorXcd& all = full.multipliers;  // by decreasing modulus
  REQUIRE(all.size() == n);
  // The set of the `count` largest must be well defined: not splitting a conjugate pair
  // or a cluster (with damping c on every mass, all modes the impact hardly touches
  // have multipliers of modulus exp(-c T / 2m)), and separated enough for Arnoldi.
  const auto gap = [&](int k) { return 1.0 - std::abs(all[k]) / std::abs(all[k - 1]); };
  int count = std::min(count_wanted, n - 2);
  while (count > 1 && gap(count) <= 1e-3) --count;
  INFO("moduli " << all.head(std::min<Eigen::Index>(n, 12)).cwiseAbs().transpose());
  REQUIRE(gap(count) > 1e-3);
  c.count = count;

  StroboscopicMap map(system);
  begin = std::chrono::steady_clock::now();
  const auto leading = libcont::leading_multipliers(map, orbit.x, 1, count);
  c.leading_seconds = seconds_since(begin);
  c.products = leading.products;
  INFO(leading.message);
  REQUIRE(leading.converged);
  REQUIRE(leading.multipliers.size() == count);
  INFO("full, leading " << count << ": " << all.head(count).transpose() << "\nmatrix-free: "
                        << leading.multipliers.transpose());
  for (int i = 0; i < count; ++i) {
    // Sorted by modulus, the moduli agree one by one.
    const double modulus = std::abs(all[i]);
    CHECK(std::abs(std::abs(leading.multipliers[i]) - modulus) <= 1e-6 * modulus);
    // Complex values: the nearest of the full set (the order within a conjugate pair of
    // equal moduli is arbitrary).
    double nearest = 1e300;
    for (int j = 0; j < n; ++j) nearest = std::min(nearest, std::abs(leading.multipliers[i] - all[j]));
    CHECK(nearest <= 1e-6 * modulus);
    c.worst = std::max(c.worst, nearest / modulus);
  }
  return c;
}

}  // namespace

TEST_CASE("Leading multipliers matrix-free equal the full monodromy's, chain N = 10",
          "[orbits][leading-multipliers]") {
  const Comparison c = compare(10, 6, {{"F0", "2"}, {"omega", "0.3"}});
  INFO(c.count << " compared, worst " << c.worst << ", " << c.products << " products; shooting "
                 << c.full_seconds << " s, Arnoldi " << c.leading_seconds << " s");
  CHECK(c.count >= 2);  // measured: worst 2.5e-8, 21 products
}

TEST_CASE("Leading multipliers matrix-free equal the full monodromy's, chain N = 30",
          "[orbits][leading-multipliers]") {
  // n = 60 > the Krylov subspace of 20: a restarted Arnoldi iteration (for N = 10 the
  // subspace is the whole space).
  const Comparison c = compare(30, 6, {{"F0", "2"}, {"omega", "0.3"}});
  INFO(c.count << " compared, worst " << c.worst << ", " << c.products << " products; shooting "
                 << c.full_seconds << " s, Arnoldi " << c.leading_seconds << " s");
  CHECK(c.count >= 2);  // measured: worst 1.5e-8, 316 products, 4.5 s
}

TEST_CASE("Leading multipliers: the count is validated", "[orbits][leading-multipliers]") {
  auto system = make_system<OscillatorChain>({{"N", "3"}});
  StroboscopicMap map(system);
  const Vector x = Vector::Zero(6);
  CHECK_THROWS_AS(libcont::leading_multipliers(map, x, 1, 0), libcont::InputError);
  CHECK_THROWS_AS(libcont::leading_multipliers(map, x, 1, 5), libcont::InputError);
}

TEST_CASE("Leading multipliers matrix-free equal the full monodromy's, chain N = 100",
          "[orbits][leading-multipliers][long]") {
  const Comparison c = compare(100, 6, {{"F0", "4"}, {"omega", "0.3"}, {"d", "0.2"}});
  INFO(c.count << " compared, worst " << c.worst << ", " << c.products << " products; shooting "
                 << c.full_seconds << " s, Arnoldi " << c.leading_seconds << " s");
  CHECK(c.count >= 2);  // measured: worst 8e-9, 461 products
}
