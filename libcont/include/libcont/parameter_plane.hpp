#pragma once
// A parameter-plane map (doc/theory.md, 6.5): in a box of two parameters (p1, p2), the
// periodic orbits z = p/n up to a given n are found, their branches in p1 traced, and the
// two-parameter curves of the codimension-one points on those branches (folds, period
// doublings, Neimark-Sacker points, grazings of every kind) traced across the
// box (orbit_curve.hpp). These curves bound the regions where each orbit exists and is
// stable; the codimension-two points met on them (cusps, fold-flips, resonances, resonant
// grazings, turning points) are located on the way.
//
// How the orbits are found: on `seed_lines` horizontal lines p2 = const inside the box, at
// `seeds_per_line` values of p1 on each, a transient from each initial state settles onto
// an attractor whose orbit is shot for (periodic_orbit_search.hpp). An orbit that no branch
// of its line already holds starts a branch, traced both ways to the ends of p1's range;
// the branch passes folds and grazings, so the unstable and coexisting orbits it reaches are
// on the map too. Every special point of a branch of the kinds above starts a curve, traced
// both ways to the ends of p2's range, unless a curve of its kind and n traced before
// already passes through it. Orbits no transient settles onto from the given initial
// states, on no branch through an attractor, are missed: more lines, seeds or initial
// states find more.
//
// Example (tests/test_parameter_plane.cpp):
//   libcont::ParameterPlaneOptions o;
//   o.first = "omega"; o.first_min = 1.5; o.first_max = 3.0;
//   o.second = "d"; o.second_min = -0.004; o.second_max = 0.0;
//   const libcont::ParameterPlaneMap map = libcont::map_parameter_plane(system, o);
//   for (const auto& c : map.curves) ... c.curve.kind, c.curve.rows ...
#include <functional>
#include <string>
#include <vector>

#include "libcont/orbit_curve.hpp"

namespace libcont {

// How far a map has come, for ParameterPlaneOptions::progress.
struct ParameterPlaneProgress {
  int lines_done = 0, lines = 0;  // seed lines finished, in all
  int branches = 0;               // one-parameter branches traced so far
  int curves = 0;                 // curve pieces traced so far
};

struct ParameterPlaneOptions {
  std::string first, second;  // p1 (branches are traced in it), p2
  double first_min = 0.0, first_max = 0.0;    // the box
  double second_min = 0.0, second_max = 0.0;
  int max_period = 5;      // orbits z = p/n with n up to this are mapped
  // Orbits with more impacts than this (chattering, a mass riding on its stop) are noted,
  // not continued: each of their maps costs thousands of impacts.
  int max_impacts = 20;
  int seed_lines = 3;      // lines p2 = const, at the centres of equal slices of p2's range
  int seeds_per_line = 12; // orbit searches on each, at the centres of equal slices of p1's
  int transient_periods = 300;      // of each search
  std::vector<Vector> initial_states;  // the searches' starts; empty: the system's default
  int branch_max_points = 2000;     // rows of each branch piece
  int curve_max_points = 500;       // rows of each curve piece
  FlowOptions flow;
  // Called after each branch and curve; returning false stops the map (what is traced so
  // far is kept, ParameterPlaneMap::stopped set). None by default.
  std::function<bool(const ParameterPlaneProgress&)> progress;

  // Throws InputError naming the first field out of its range (equal parameter names, an
  // empty or inverted box, counts below 1, the flow's).
  void validate() const;
};

// A branch traced on a seed line, from the orbit found at `seed` towards one end of p1.
struct PlaneBranch {
  double second = 0.0;  // p2 of its line
  double seed = 0.0;    // p1 of the orbit it started from
  OrbitBranch branch;
};

// A curve piece: from a special point of a branch towards one end of p2's range.
struct PlaneCurve {
  int branch = 0;         // index in ParameterPlaneMap::branches of the branch it starts on
  int special_point = 0;  // index of its start in that branch's special points
  int direction = +1;     // +1 towards second_max, -1 towards second_min
  OrbitCurve curve;
};

struct ParameterPlaneMap {
  std::string first, second;
  std::vector<PlaneBranch> branches;
  std::vector<PlaneCurve> curves;
  // What was not mapped, in words: searches that found no orbit or one of n above
  // max_period (counted), special points no curve starts from (an impact-signature or
  // branch point), curves that failed to start or stopped short.
  std::vector<std::string> notes;
  int searches = 0, orbits_found = 0;  // orbit searches run, and those that found an orbit
  bool stopped = false;                // the progress callback stopped it
};

// The map of the box at the system's other parameters as they are; the system's p1 and p2
// are left where the last map was evaluated. Throws InputError for bad options or
// parameters the system does not have.
ParameterPlaneMap map_parameter_plane(HybridSystem& system, const ParameterPlaneOptions& options);

}  // namespace libcont
