// detect_period (doc/theory.md, 7) on synthetic stroboscopic sequences.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "libcont/impact_statistics.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using libcont::Vector;
using test_support::vec2;

namespace {

// `count` samples repeating `cycle`, preceded by a decaying transient, plus a
// deterministic perturbation of relative size `noise`, all scaled by `scale`.
std::vector<Vector> periodic_sequence(const std::vector<Vector>& cycle, int count,
                                      double noise = 0.0, double scale = 1.0) {
  std::vector<Vector> samples;
  for (int k = 0; k < count; ++k) {
    const Vector& base = cycle[static_cast<size_t>(k) % cycle.size()];
    const double transient = std::exp(-0.5 * k);
    const double wiggle = noise * std::sin(1.7 * k + 0.3);
    samples.push_back(scale * (base + Vector::Constant(2, transient + wiggle)));
  }
  return samples;
}

}  // namespace

TEST_CASE("detect_period finds periods 1, 2 and 3", "[period]") {
  const std::vector<Vector> one = {vec2(0.3, -0.1)};
  const std::vector<Vector> two = {vec2(0.3, -0.1), vec2(-0.2, 0.4)};
  const std::vector<Vector> three = {vec2(0.3, -0.1), vec2(-0.2, 0.4), vec2(0.1, 0.1)};
  CHECK(libcont::detect_period(periodic_sequence(one, 200), 16, 1e-6) == 1);
  CHECK(libcont::detect_period(periodic_sequence(two, 200), 16, 1e-6) == 2);
  CHECK(libcont::detect_period(periodic_sequence(three, 200), 16, 1e-6) == 3);
  // The smallest period is reported, not a multiple of it.
  CHECK(libcont::detect_period(periodic_sequence(two, 200), 4, 1e-6) == 2);
  // A period above max_period is not periodic.
  CHECK(libcont::detect_period(periodic_sequence(three, 200), 2, 1e-6) == 0);
}

TEST_CASE("detect_period tolerance is relative to the size of the motion", "[period]") {
  const std::vector<Vector> two = {vec2(0.3, -0.1), vec2(-0.2, 0.4)};
  // Millimetre-sized motion (the moving base has a = 0.0025): same answer as unit size.
  CHECK(libcont::detect_period(periodic_sequence(two, 200, 0.0, 1e-3), 16, 1e-6) == 2);
  // Scatter below the tolerance is accepted, scatter above it is not.
  CHECK(libcont::detect_period(periodic_sequence(two, 200, 1e-8, 1e-3), 16, 1e-6) == 2);
  CHECK(libcont::detect_period(periodic_sequence(two, 200, 1e-4, 1e-3), 16, 1e-6) == 0);
}

TEST_CASE("detect_period reports a non-periodic sequence as 0", "[period]") {
  // Quasi-periodic: an irrational rotation never repeats.
  std::vector<Vector> quasi;
  for (int k = 0; k < 300; ++k) {
    const double phase = k * std::numbers::sqrt2 * std::numbers::pi;
    quasi.push_back(vec2(std::cos(phase), std::sin(phase)));
  }
  CHECK(libcont::detect_period(quasi, 16, 1e-6) == 0);
  // Chaotic: the logistic map at parameter 4.
  std::vector<Vector> chaotic;
  double u = 0.123;
  for (int k = 0; k < 300; ++k) {
    u = 4 * u * (1 - u);
    chaotic.push_back(vec2(u, 1 - u));
  }
  CHECK(libcont::detect_period(chaotic, 16, 1e-6) == 0);
  // Too few samples to decide.
  CHECK(libcont::detect_period({}, 16, 1e-6) == 0);
  CHECK(libcont::detect_period({vec2(1, 1)}, 16, 1e-6) == 0);
}

TEST_CASE("detect_period_in_columns answers as detect_period on the same samples", "[period]") {
  const std::vector<Vector> two = {vec2(0.3, -0.1), vec2(-0.2, 0.4)};
  const std::vector<Vector> three = {vec2(0.3, -0.1), vec2(-0.2, 0.4), vec2(0.1, 0.1)};
  std::vector<std::vector<Vector>> sequences = {
      periodic_sequence(two, 200),           periodic_sequence(three, 200),
      periodic_sequence(two, 200, 1e-8, 1e-3), periodic_sequence(two, 200, 1e-4, 1e-3),
      periodic_sequence(three, 7),           {vec2(1, 1)},
      {}};
  std::vector<Vector> chaotic;
  double u = 0.123;
  for (int k = 0; k < 300; ++k) {
    u = 4 * u * (1 - u);
    chaotic.push_back(vec2(u, 1 - u));
  }
  sequences.push_back(chaotic);
  int periodic = 0;
  for (const auto& samples : sequences) {
    Matrix columns(2, static_cast<Eigen::Index>(samples.size()));
    for (size_t k = 0; k < samples.size(); ++k)
      columns.col(static_cast<Eigen::Index>(k)) = samples[k];
    for (const int max_period : {2, 16}) {
      const int expected = libcont::detect_period(samples, max_period, 1e-6);
      CHECK(libcont::detect_period_in_columns(columns, max_period, 1e-6) == expected);
      if (expected > 0) ++periodic;
    }
  }
  CHECK(periodic >= 4);  // the comparison covers periodic and non-periodic answers
}
