#pragma once
// Where the cubic Hermite interpolant of a function over an interval crosses zero, from
// the function's values and rates at the interval's two ends (what a scan for a change of
// sign has already computed). For a smooth function over a step of half a radian of its
// fastest rate the interpolant is within (w L)^4 / 384 of the function's scale, so its
// zero is a start a Newton iteration refines in one or two steps, where a start at an end
// of the interval needs three or four more.
#include <algorithm>
#include <cmath>

namespace libcont::detail {

// The fraction q in (0, 1) of the interval [0, length] where the interpolant of
// (h0, r0) at 0 and (h1, r1) at length is zero, given h0 and h1 of opposite signs; -1
// where the data do not give one (not finite, no change of sign). Bisection guarded
// Newton on the cubic, to a relative 1e-12 of the interval (no closer: the function
// differs from the interpolant by far more).
inline double hermite_crossing(double length, double h0, double r0, double h1, double r1) {
  if (!(h0 * h1 < 0.0) || !std::isfinite(length * (r0 + r1))) return -1.0;
  // p(q) = h0 + q (m0 + q (c2 + q c3)) with the ends' slopes in q.
  const double m0 = length * r0, m1 = length * r1;
  const double c2 = 3.0 * (h1 - h0) - 2.0 * m0 - m1;
  const double c3 = 2.0 * (h0 - h1) + m0 + m1;
  const double side = h0 < 0.0 ? -1.0 : 1.0;  // p(lo) has the sign of h0
  double lo = 0.0, hi = 1.0;
  double q = h0 / (h0 - h1);  // the chord's zero
  for (int i = 0; i < 40 && hi - lo > 1e-12; ++i) {
    const double p = h0 + q * (m0 + q * (c2 + q * c3));
    if (p == 0.0) return q;
    const double dp = m0 + q * (2.0 * c2 + q * 3.0 * c3);
    (side * p > 0.0 ? lo : hi) = q;
    double next = dp != 0.0 ? q - p / dp : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - q) <= 1e-12) return next;
    q = next;
  }
  return q;
}

// Whether the cubic Hermite interpolant of d over [0, length], from d0 > 0 with rate p0 at
// 0 and d1 > 0 with rate p1 at length, keeps well clear of zero (its lowest of 15 inner
// points above a tenth of the data's scale): for a step of half a radian of the fastest
// rate it is within (w L)^4 / 384 < 2e-4 of that scale of d, so d keeps its sign there.
inline bool hermite_keeps_clear(double length, double d0, double p0, double d1, double p1) {
  double lowest = std::min(d0, d1);
  for (int i = 1; i < 16; ++i) {
    const double s = i / 16.0, s2 = s * s, s3 = s2 * s;
    const double d = (2 * s3 - 3 * s2 + 1) * d0 + (s3 - 2 * s2 + s) * length * p0 +
                     (-2 * s3 + 3 * s2) * d1 + (s3 - s2) * length * p1;
    lowest = std::min(lowest, d);
  }
  return lowest > 0.1 * (d0 + d1 + length * (std::abs(p0) + std::abs(p1)));
}

}  // namespace libcont::detail
