#pragma once
// Bit-for-bit comparison of sweep points (libcont::SweepPoint): what "identical files"
// rests on when a sweep or grid is run on other thread counts, partitions or resumed.
#include <catch2/catch.hpp>
#include <cstring>

#include "libcont/sweep.hpp"

namespace test_support {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool same_bits(const libcont::Vector& a, const libcont::Vector& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

// Every number of the settled motion, to the bit (not the key or the parameter values: a
// grid cell and the point of a one-parameter sweep at the same values have other keys).
inline bool same_motion(const libcont::SweepPoint& a, const libcont::SweepPoint& b) {
  bool same = a.status == b.status && a.message == b.message &&
              same_bits(a.exponents, b.exponents) && same_bits(a.exponent_sum, b.exponent_sum) &&
              a.p == b.p && a.n == b.n && same_bits(a.impacts_per_period, b.impacts_per_period) &&
              same_bits(a.energy_per_period, b.energy_per_period) &&
              a.velocities.count == b.velocities.count &&
              same_bits(a.velocities.mean, b.velocities.mean) &&
              same_bits(a.velocities.rms, b.velocities.rms) &&
              same_bits(a.velocities.min, b.velocities.min) &&
              same_bits(a.velocities.max, b.velocities.max) &&
              same_bits(a.velocities.slowest, b.velocities.slowest) &&
              a.averaged_periods == b.averaged_periods && a.samples.size() == b.samples.size() &&
              a.impact_velocities.size() == b.impact_velocities.size() &&
              same_bits(a.final_state, b.final_state);
  for (size_t i = 0; same && i < a.samples.size(); ++i) same = same_bits(a.samples[i], b.samples[i]);
  for (size_t i = 0; same && i < a.impact_velocities.size(); ++i)
    same = same_bits(a.impact_velocities[i], b.impact_velocities[i]);
  return same;
}

// The two results hold the same points in the same order, every field to the bit.
inline void require_identical(const libcont::SweepResult& a, const libcont::SweepResult& b) {
  REQUIRE(a.points.size() == b.points.size());
  for (size_t i = 0; i < a.points.size(); ++i) {
    const libcont::SweepPoint& p = a.points[i];
    INFO("point " << i << ": " << to_string(p.key.pass) << ", parameter " << p.parameter
                  << ", second parameter " << p.second_parameter);
    CHECK(p.key == b.points[i].key);
    CHECK(same_bits(p.parameter, b.points[i].parameter));
    CHECK(same_bits(p.second_parameter, b.points[i].second_parameter));
    CHECK(same_motion(p, b.points[i]));
  }
}

}  // namespace test_support
