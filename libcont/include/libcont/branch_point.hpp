#pragma once
// What a continuation records: branch points (a converged point with its tangent, test
// values and the problem's data), special points located between them, and what a
// problem's passage through a nonsmooth boundary of its branch adds (zero_problem.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcont/grazing_kind.hpp"
#include "libcont/types.hpp"

namespace libcont {

struct BranchPoint {
  Vector u;
  double lambda = 0.0;
  Vector tangent;  // unit tangent (u, lambda) in the weighted norm
  Vector tests;    // values of the problem's test functions
  Vector data;     // the problem's point_data() (names: point_data_names())
  double chart = 0.0;  // the problem's coordinates of u (ZeroProblem::chart: a section phase)
  // Sign of det(dF/du): it changes at a fold together with the tangent's lambda component;
  // alone, it means a branch point or a step across a fold onto another branch. 0: unknown.
  int jacobian_sign = 0;
  int corrector_iterations = 0;
  bool by_chord = false;  // converged by chord iterations (corrector_iterations counts them)
};

// What a located special point is. The engine finds folds itself; the others are what a
// problem's test functions classify them as (ZeroProblem::classify): PeriodicOrbitProblem's
// period doubling, Neimark-Sacker point, grazing and other changes of the impact count. A
// problem's test function of its own gives Custom points, named by the test function.
enum class SpecialPointType {
  Fold,             // the tangent's parameter component changes sign: a turning point
  PeriodDoubling,   // a real Floquet multiplier through -1
  NeimarkSacker,    // a complex pair of multipliers through the unit circle
  Grazing,          // an impact appears or vanishes with zero normal speed or zero gap
  ImpactSignature,  // the impact count changes otherwise
  Custom,           // a zero problem's own test function (SpecialPoint::custom_name)
  UserValue,        // the parameter at a value asked for (ContinuationOptions::user_values)
};

// "fold", "period-doubling", "neimark-sacker", "grazing", "impact-signature", "custom",
// "user-value": the names of the files and reports.
std::string to_string(SpecialPointType type);
// The type of such a name (not "custom"); none for any other text.
std::optional<SpecialPointType> special_point_type(std::string_view name);

struct SpecialPoint {
  SpecialPointType type = SpecialPointType::Custom;
  // A Custom point's name: the name of the problem's test function that located it.
  std::string custom_name;
  // A grazing's kind, where the problem tells (set_grazing_kind); none otherwise.
  std::optional<GrazingKind> grazing_kind;
  // What kind of that type, in words for files and reports, where the problem tells (a
  // grazing: to_string(grazing_kind); "merge": orbit_merge.hpp); "unlocated" for a point
  // whose bracket could not be narrowed to the locate tolerance (an evaluation inside it
  // failed: the point lies somewhere between the branch's rows around it, at the row
  // after it here); empty otherwise. Code decides by grazing_kind.
  std::string detail;
  int after_point = 0;  // index of the branch point before it
  Vector u;
  double lambda = 0.0;
  Vector tests;
  Vector data;  // the problem's point_data() at the located point
  double chart = 0.0;  // the problem's coordinates of u (ZeroProblem::chart)
  // to_string(type), or custom_name for a Custom point.
  std::string type_name() const;
  // A grazing of this kind: grazing_kind, and detail its name.
  void set_grazing_kind(GrazingKind kind);
  // The branch point it lies at: its u, lambda, tests, data and chart.
  void take_point(const BranchPoint& point);
};

// Where a problem's passage through a boundary (ZeroProblem::pass_boundary) may go.
struct BoundarySettings {
  double lambda_min = -1e300, lambda_max = 1e300;  // the branch's range
  double tolerance = 1e-10;         // the boundary point's lambda to this
  double locate_tolerance = 1e-10;  // special points on the way, in lambda
  double parameter_weight = 1.0;    // the engine's norm, for unit tangents
  double max_step = 1e300;          // the engine's largest step, in that norm
  bool cross = true;                // false: end at the boundary point
};

// What the passage did: the points from the branch's last point on (branch order), the
// special points on the way (the boundary point among them; after_point counts the
// passage's points, -1: between the branch's last point and the first of them).
struct BoundaryPassage {
  bool handled = false;        // false: the problem has no passage for this boundary
  // The boundary is not ahead of the branch (or not within reach): the branch goes on
  // from its last point (the passage's points, if any, are kept).
  bool declined = false;
  bool located = false;        // the boundary point was found
  bool crossed = false;        // the last point starts the branch beyond the boundary
  bool reached_bound = false;  // the last point lies on lambda_min or lambda_max
  // The located boundary orbit closes after fewer forcing periods than the branch's: the
  // branch ends on that orbit (ContinuationStatus::LeftFamily), `message` says which.
  bool met_shorter_period = false;
  double error_estimate = 0.0; // of the boundary point's lambda
  std::vector<BranchPoint> points;
  std::vector<SpecialPoint> special_points;
  std::string message;         // what happened, for the branch's stop reason
  // Whether the passage located the sign changes of the problem's tests between its points
  // itself (a branch's, grazing_passage.hpp); if not, the engine does (on `start` and the
  // points).
  bool tests_located = false;
  // The branch's last point as the passage saw it where it first moved its section (its
  // state on the new one, its tests there), so that special points between it and the
  // first of `points` can be located on one chart; none if the section stayed.
  std::optional<BranchPoint> start;
};

}  // namespace libcont
