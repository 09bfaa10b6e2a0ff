#pragma once
// cos(w t) and sin(w t) of a harmonic forcing at the stages of integration steps, by
// rotation: the argument x = w t is split exactly into k d + r (d = 1/16, k the nearest
// whole number to x / d, |r| <= d / 2), and
//   cos x = cos(k d) cos r - sin(k d) sin r,   sin x = sin(k d) cos r + cos(k d) sin r,
// with cos r and sin r from their Taylor polynomials (exact to rounding for |r| <= 1/32)
// and cos(k d), sin(k d) computed directly once per k and kept (per thread: models are
// shared between threads as const objects). The stages of many steps share one k (w = 6:
// k changes every 10 ms of time, a Hertz contact lasts 0.7 ms), so the forcing costs a
// few multiplications instead of a call of cos per stage, which was the largest single
// cost of a two-body loading curve (doc/performance.md).
//
// Accuracy: the split is exact (k d is a multiple of a power of two next to x), so the
// result is the rotation of a correctly rounded pair by the exact remainder of the same
// argument std::cos(w * t) sees: within a few ulps of it, at any t, and a function of t
// alone (no history: the same t gives the same bits whatever was evaluated before).
#include <cmath>

namespace libcont::detail {

struct HarmonicPhase {
  double cosine = 1.0, sine = 0.0;
};

// cos and sin of r for |r| <= 1/32, to rounding: Taylor to r^8 and r^9 (the next terms
// are below 1e-19 of the leading one).
inline HarmonicPhase small_rotation(double r) {
  const double r2 = r * r;
  const double c = 1.0 - r2 * (1.0 / 2 - r2 * (1.0 / 24 - r2 * (1.0 / 720 - r2 * (1.0 / 40320))));
  const double s =
      r * (1.0 - r2 * (1.0 / 6 - r2 * (1.0 / 120 - r2 * (1.0 / 5040 - r2 * (1.0 / 362880)))));
  return {c, s};
}

// x rounded to the nearest whole number, ties to even, as std::nearbyint in the default
// rounding, for |x| < 2^51 (beyond it a number as large, which harmonic_phase's range check
// turns away): x + 1.5 2^52 has no bits below 1, and taking 1.5 2^52 away again is exact.
// Inline, where nearbyint is a call into the maths library at every stage.
inline double nearest_whole(double x) {
  constexpr double kShift = 6755399441055744.0;  // 1.5 2^52
  return (x + kShift) - kShift;
}

// cos(w t) and sin(w t). The last result is kept too: a right-hand side with the tangent
// asks for the forcing at the same time twice (the field and its derivative in a
// parameter).
inline HarmonicPhase harmonic_phase(double w, double t) {
  constexpr double kStep = 1.0 / 16;  // d: a power of two, so k d is exact
  struct Last {
    double w = 0.0, t = 0.0;
    HarmonicPhase phase;
  };
  thread_local Last last;
  if (t == last.t && w == last.w) return last.phase;
  const double x = w * t;
  const double k = nearest_whole(x * (1.0 / kStep));
  if (!(std::abs(k) < 9007199254740992.0 * kStep))  // beyond 2^49 or not finite
    return {std::cos(x), std::sin(x)};
  const double r = x - k * kStep;  // exact: x and k d agree in their leading bits
  struct Base {
    double k = 0.0;
    HarmonicPhase phase;
  };
  thread_local Base base;
  if (base.k != k) base = {k, {std::cos(k * kStep), std::sin(k * kStep)}};
  const HarmonicPhase a = base.phase, b = small_rotation(r);
  last = {w, t, {a.cosine * b.cosine - a.sine * b.sine, a.sine * b.cosine + a.cosine * b.sine}};
  return last.phase;
}

}  // namespace libcont::detail
