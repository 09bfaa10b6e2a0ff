#pragma once
// Switching at a codimension-two point of a two-parameter curve (orbit_curve.hpp) onto a
// curve of another kind that issues from it, in the same parameters (p1, p2):
//   point (type)                  on curve          switch to
//   fold-flip                     fold              period-doubling
//   fold-flip                     period-doubling   fold
//   resonance-1:1                 neimark-sacker    fold (the double multiplier +1)
//   resonance-1:2                 neimark-sacker    period-doubling (the double -1)
//   grazing (where it ends)       fold, period-     grazing: the tangency of the orbit
//                                 doubling          flown without the touching contact
//                                                   (grazing_curve_problem.hpp)
//   resonant-grazing-fold         grazing           fold of the impacting orbit
//   resonant-grazing-flip         grazing           period-doubling of the impacting orbit
// Other pairs are refused (InputError naming the point's type and the kind).
//
// The smooth switches start at the point itself: its orbit, corrected first at the point's
// p1 with p2 free by the new kind's extended problem (trace_orbit_curve's second overload).
// There the other condition holds as well, and the new curve crosses p1 = const
// transversally.
//
// A resonant grazing is nonsmooth: the impacting orbit's map is singular at its grazing
// (its monodromy grows like 1 / v_r), and the fold or period-doubling curve leaves the
// point tangent to the grazing curve (doc/theory.md 6.4), on one side of it in p1. The
// start is therefore made a little into the impacting side:
//   1. along the grazing curve to p1 = p1* + side * offset (p1_max - p1_min), offset =
//      `resonant_offset` (1e-3 by default): the touching orbit corrected there at fixed p1;
//   2. across it: the branch of orbits in p2 at that p1, from the orbit without the impact
//      (at a distance of 2 % of |to - from| from the grazing) through the grazing onto
//      the impacting family (orbit_branch.hpp passes grazings), whose first fold (or period
//      doubling) beyond the grazing is the impacting orbit there with a small impact speed
//      (of the order of the offset);
//   3. that point corrected at fixed p1 by the fold (period-doubling) problem, and traced.
// Both sides are tried; the side whose point lies nearest the grazing in p2 is taken (the
// curve exists on one side only). The switched curve's first row is thus some offset *
// (p1_max - p1_min) from the point in p1 and of the order of its square from the grazing
// curve in p2 (measured on the moving-base oscillator: tests/test_curve_switch.cpp).
//
// Direction: the new curve leaves its start towards options.to, as trace_orbit_curve; p2's
// range (options.from, options.to) must hold the point's p2, and is widened to hold the
// start where that lies just beyond it. options.second must be the curve's p2. The system's
// other parameters are the caller's (the curve's); p1 and p2 are set from the point.
//
// Example (tests/test_curve_switch.cpp): the period-doubling curve of the moving-base
// oscillator from a resonant grazing point of its grazing curve,
//   const libcont::OrbitCurve grazing = libcont::trace_orbit_curve(system, branch, gr, options);
//   for (const libcont::CurvePoint& p : grazing.points)
//     if (p.type == "resonant-grazing-flip")
//       auto flip = libcont::switch_orbit_curve(system, grazing, p,
//                                               libcont::CurveKind::PeriodDoubling,
//                                               {"d", p.second, -0.005, 0.8, 1.2});
#include <vector>

#include "libcont/orbit_curve.hpp"

namespace libcont {

// The kinds of curve a switch at `point` of `curve` leads to (the table above); empty
// where there is none. A grazing end is offered only where its orbit has at most one
// impact per period (the row before it).
std::vector<CurveKind> curve_switches(const OrbitCurve& curve, const CurvePoint& point);

// The curve of `kind` from `point` of `curve`. Throws InputError for a pair not in the
// table, options.second other than curve.second, a range of p2 without the point's p2 and
// bad options. A start that cannot be made (no fold or period doubling found
// on either side of a resonant grazing) is a curve with status StartFailed and the reason.
OrbitCurve switch_orbit_curve(HybridSystem& system, const OrbitCurve& curve,
                              const CurvePoint& point, CurveKind kind,
                              const OrbitCurveOptions& options, double resonant_offset = 1e-3);

}  // namespace libcont
