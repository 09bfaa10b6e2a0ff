#pragma once
// How close a periodic orbit is to grazing a hard-impact surface, measured on one pass of
// it (OrbitMeasures::approaches). A grazing orbit touches the surface with zero normal
// velocity. Seen from the family of orbits that impacts there, the grazing impact's speed
// |v_r| goes to zero; seen from the family that does not, the gap's minimum in flight does.
// With hard impacts the impact map has Nordmark's square-root singularity at grazing: the
// impacting family's Jacobian grows like 1/|v_r| while its points stay smooth functions of
// |v_r|, and the other family's points are smooth functions of the gap. So each family is
// approached, and left, in its own grazing coordinate (grazing_passage.hpp), never in the
// multipliers. Both coordinates are made dimensionless by the orbit's own scales.
#include <optional>
#include <string>
#include <vector>

#include "libcont/grazing_kind.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/orbit_measures.hpp"

namespace libcont {

// The orbit's size (the largest range of a displacement coordinate) and speed (that size per
// forcing period): the units of gaps and impact speeds.
struct GrazingScales {
  double length = 1.0;
  double speed = 1.0;
};
GrazingScales grazing_scales(const OrbitMeasures& measures, double forcing_period);

// An approach in units of the scales: |v_r| / speed or gap / length.
double grazing_distance(const ContactApproach& approach, const GrazingScales& scales);

// The second time derivative of event function `event` along the flow of `mode` at (t, x):
// a central difference of its rate D_x h f + D_t h along the vector field.
double gap_acceleration(const HybridSystem& system, int mode, int event, double t, ConstVectorRef x);

// The approach's squared normal speed, signed: v_r^2 for an impact, -2 h'' g for a gap
// minimum g (the speed an impact would have had with the gap's depth on the other side).
// For a flight h = g + h'' (t - t0)^2 / 2 both are -2 h'' g, whichever the sign of g: a
// smooth function across grazing, where the speed and the gap each are one-sided.
double signed_squared_speed(const ContactApproach& approach);

// How a grazing passage (grazing_passage.hpp) goes: how close to the grazing its approach
// comes and how far out its departure goes, in grazing coordinates.
struct GrazingPassageOptions {
  double smallest_distance = 2e-4;  // the departure's first orbit is 5 times this away
  // Contacts shallower than this (in the model's length unit) are not resolved by the
  // flow: its events count a state within about 100 times its absolute tolerance (1e-13
  // by default) as on the surface. The approach stops there.
  double smallest_depth = 1e-10;
  double ratio = 0.5;               // of successive grazing coordinates
  double leave_distance = 0.1;      // the departure hands over to arclength here
};

// The approach nearest to grazing (smallest grazing_distance); none if the orbit has none.
std::optional<ContactApproach> nearest_grazing(const OrbitMeasures& measures,
                                               const GrazingScales& scales);

// The approach nearest in time to t, counted cyclically over the orbit's period `span`
// (n forcing periods), of either type: near grazing an impact turns into a gap minimum at
// about the same time. None if there is none within `window` of t.
std::optional<ContactApproach> approach_near(const OrbitMeasures& measures, double t, double span,
                                             double window);

// Neville's polynomial through (s_i, y_i), evaluated at s = 0: a grazing point from orbits
// that approach it in their grazing coordinate s, in which they are smooth
// (grazing_passage.hpp, orbit_curve_problem.hpp).
Vector extrapolate_to_zero(const std::vector<double>& s, const std::vector<Vector>& y);

}  // namespace libcont
