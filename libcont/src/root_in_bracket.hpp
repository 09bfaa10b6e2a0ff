#pragma once
// The event root search the exact path's scans share: a crossing bracketed by a scan
// (its ends' values and rates) solved by safeguarded Newton on the event function with
// its analytic rate, to rounding in time, ending on the crossed side as CVODE's root
// finding does.
#include <algorithm>
#include <cmath>

#include "hermite_crossing.hpp"
#include "libcont/hybrid_system.hpp"
#include "machine_epsilon.hpp"

namespace libcont::detail {

// A strict change of sign in the event's direction (a value exactly on the surface is not
// a side: drifting off it at rounding level, as a body released from sticking does, is a
// touch, not a crossing).
inline bool crosses(EventDirection direction, double before, double after) {
  switch (direction) {
    case EventDirection::Falling: return before > 0.0 && after < 0.0;
    case EventDirection::Rising: return before < 0.0 && after > 0.0;
    case EventDirection::Either:
      return (before > 0.0 && after < 0.0) || (before < 0.0 && after > 0.0);
  }
  return false;
}

// The crossing lies in (lo, hi] of the time since a scan point; `before`: h on its near
// side with its rate there, `after` and its rate at hi, as the scan found them.
struct RootBracket {
  double lo, hi, before;
  double before_rate, after, after_rate;
};

// Safeguarded Newton on h with the analytic rate, keeping the bracket (lo: not crossed,
// hi: crossed); evaluate(tau, h, rate). Starts at the zero of the bracket's cubic Hermite
// interpolant; Newton steps shorter than the time resolution (4 eps of |t0| + hi) step
// across the root by that resolution, which closes the bracket; bisection where Newton
// leaves the bracket or does not halve |h|. Returns the crossed end.
template <typename Evaluate>
double newton_in_bracket(EventDirection direction, double t0, const RootBracket& bracket,
                         Evaluate&& evaluate) {
  double lo = bracket.lo, hi = bracket.hi;
  const double tolerance = 4.0 * kEpsilon * (std::abs(t0) + hi);
  const double q = hermite_crossing(hi - lo, bracket.before, bracket.before_rate, bracket.after,
                                    bracket.after_rate);
  double x = q > 0.0 ? lo + q * (hi - lo) : hi;
  if (!(x > lo && x < hi)) x = hi;
  double hx = 0.0, rx = 0.0;
  evaluate(x, hx, rx);
  if (x < hi) (crosses(direction, bracket.before, hx) ? hi : lo) = x;
  bool bisect = false;
  for (int i = 0; i < 200 && hi - lo > tolerance; ++i) {
    double c = 0.5 * (lo + hi);
    if (!bisect && rx != 0.0) {
      const double newton = hx / rx;
      c = std::abs(newton) < tolerance ? x - std::copysign(tolerance, newton) : x - newton;
      if (!(c > lo && c < hi)) c = 0.5 * (lo + hi);
    }
    c = std::clamp(c, lo + 0.25 * tolerance, hi - 0.25 * tolerance);
    double h = 0.0, r = 0.0;
    evaluate(c, h, r);
    (crosses(direction, bracket.before, h) ? hi : lo) = c;
    bisect = std::abs(h) > 0.5 * std::abs(hx);
    x = c;
    hx = h;
    rx = r;
  }
  return hi;
}

}  // namespace libcont::detail
