#pragma once
// Pseudo-arclength continuation of a zero problem: tangent predictor,
// bordered Newton corrector, adaptive step length within limits, turning points passed;
// natural-parameter continuation as an option. Along the branch it monitors the fold
// (sign change of the parameter component of the tangent) and the problem's own test
// functions, and locates each special point by bisection/secant on the step length.
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcont/branch_point.hpp"
#include "libcont/zero_problem.hpp"

namespace libcont {

struct ContinuationResult;

struct ContinuationOptions {
  // The continued parameter's name, for messages ("... at omega = 4.2"); the engine calls
  // it lambda.
  std::string parameter_name = "lambda";
  double lambda_min = -1e300, lambda_max = 1e300;  // the branch stops at these
  int direction = +1;           // initial direction of lambda (+1 or -1)
  double initial_step = 1e-2;   // arclength
  double min_step = 1e-7;
  double max_step = 0.1;
  int max_points = 2000;
  int max_corrector_iterations = 8;
  // Chord iterations first: the Jacobian of the last converged point is kept and each
  // iterate needs F alone (ZeroProblem::residual, for shooting a map without the tangent
  // flow); the Jacobians are evaluated once, where the iterates converged. When they do
  // not contract (each residual at most chord_contraction of the one before) within
  // chord_iterations, the corrector starts again from the prediction by full Newton.
  // 0: full Newton only.
  int chord_iterations = 6;
  double chord_contraction = 0.5;
  // Broyden's rank-one update of the kept Jacobian after each chord iterate (the F rows
  // of the bordered matrix; the constraint row is linear and exact): the iterates then
  // converge superlinearly where plain chord iterates contract by a fixed rate, which
  // past a fold is as slow as 0.25 to 0.3 a map. Still F alone per iterate.
  bool broyden_update = true;
  // Tangent predictor plus half the step squared times the branch's curvature, the change
  // of the unit tangent over the last step (second order), where the last step was on one
  // smooth piece of the branch in one set of coordinates.
  bool curvature_predictor = true;
  // Corrector converged when |F| <= tolerance * (1 + |u|). For shooting problems this
  // must stay above the flow's global error (about 1e-9 relative for stiff Hertz contact
  // at the default rtol 1e-11), or the corrector chases integration noise.
  double corrector_tolerance = 1e-9;
  int fast_iterations = 3;      // converged in at most this many: grow the step
  // The same for chord iterations (each costs F alone, so more of them are cheap); a
  // step whose chord iterations converge is never shortened.
  int fast_chord_iterations = 5;
  double step_growth = 1.5;
  double step_shrink = 0.5;
  // A step whose tangent turned by more than this is not lengthened: the next one is
  // shortened in proportion (by step_shrink at most); a corner (a contact appeared or
  // vanished) does not count. Where the branch bends, special points crowd (the two-body
  // loading curve from lambda = 1 down meets a Neimark-Sacker point, the collision of its
  // pair on the real axis and a fold within 1.5e-3 of lambda), and a step over all of them
  // shows no sign change of the Neimark-Sacker test. The corrector's iteration count
  // alone lets such steps grow where the corrector converges easily (Broyden's iterates).
  // Two thirds of max_turn_degrees, which refuses a step: the next step of a branch that
  // keeps bending so is not refused. 0: no limit.
  double target_turn_degrees = 20.0;
  double locate_tolerance = 1e-9;  // bisection stops when the arclength bracket is this small
  // Parameter values at which the branch's point is wanted (AUTO's user points, UZR): each
  // value the branch crosses after its first point is landed on exactly, by a corrector
  // at fixed lambda from the cubic through the step's ends, and reported as a special
  // point of type UserValue (its orbit, tests and data as any branch point's). A value
  // the branch crosses again (past a fold) is reported again.
  std::vector<double> user_values;
  int max_locate_iterations = 60;
  bool natural = false;         // natural-parameter continuation (no turning points)
  // Guards against jumping to another branch: a corrected point farther than
  // max_distance_factor * step from the last one, or whose tangent turned by more than
  // max_turn_degrees, is refused and the step shortened. At min_step only the distance
  // counts: a corner of a nonsmooth branch, where the tangent turns, must be passed.
  double max_distance_factor = 2.0;
  double max_turn_degrees = 30.0;
  // At a branch point whose distance to a nonsmooth boundary (TestFunction::Kind::Boundary)
  // fell below this, coming closer, the problem's passage takes over: near a grazing the
  // arclength steps would crawl (the map's Jacobian grows without bound) and a step could
  // cross onto the other family.
  double boundary_threshold = 0.5;
  // There the problem's passage (ZeroProblem::pass_boundary) locates the boundary point to
  // boundary_tolerance in lambda and, unless stop_at_boundary, goes on beyond it.
  double boundary_tolerance = 1e-10;
  bool stop_at_boundary = false;
  // A branch whose last stall_points steps were on average shorter than stall_fraction *
  // max_step has stalled: it creeps towards a point where its Jacobian is singular that no
  // test function watches (the grazing of a soft contact, where the monodromy's
  // derivatives grow without bound), and would spend max_points getting nowhere. The run
  // ends there (StepTooSmall, with all points kept). Steps that grew a thousandfold within
  // the window are no stall: the branch leaves a hard spot it passed. 0: never.
  int stall_points = 50;
  double stall_fraction = 1e-4;
  // Weight of lambda against u in the arclength norm; u of size 1e-3 next to lambda
  // of size 1 wants a small weight so that the branch is resolved in u too.
  double parameter_weight = 1.0;
  // Called with the result so far whenever points were added to it (a step, a passage
  // through a boundary); none by default. For progress reports: it must not keep
  // references into the result.
  std::function<void(const ContinuationResult&)> progress;

  // Throws InputError naming the first field out of its range: the steps must satisfy
  // 0 < min_step <= initial_step <= max_step, direction be +1 or -1, lambda_min <
  // lambda_max, max_points >= 1, the tolerances and factors positive.
  void validate() const;
};

// Why a run ended. The first seven are normal ends (ContinuationResult::ok), the rest
// failures; the stop reason says more in words.
enum class ContinuationStatus {
  ReachedBound,          // on lambda_min or lambda_max
  ReachedValidRangeEnd,  // on the edge of the parameter's valid range (valid_parameter)
  ReachedMaxPoints,      // max_points recorded
  EndedAtBoundary,       // stop_at_boundary: on the located boundary point (a grazing)
  UnpassableBoundary,    // short of a boundary the problem has no passage for (boundary_test)
  NonsmoothFold,         // natural-parameter continuation where the branch turns back at a
                         // boundary (a grazing that is a nonsmooth fold)
  LeftFamily,            // the next point belongs to another family (ZeroProblem::same_family):
                         // a branch of doubled orbits ran into the orbit it was born from
  StepTooSmall,          // no step down to min_step continues the branch
  StartFailed,           // the first point could not be corrected, or evaluated, or has a
                         // singular Jacobian (orbit_branch.hpp: or there was none)
  PassageFailed,         // the passage through a boundary could not go on
  ClosedLoop,            // the branch located a special point it had located before: it
                         // is a closed curve (an isola), traced once
};

// "reached bound", ..., "step too small", ...: the status's short name (the stop reason
// says more).
std::string to_string(ContinuationStatus status);

struct ContinuationResult {
  std::vector<BranchPoint> points;
  std::vector<SpecialPoint> special_points;
  ContinuationStatus status = ContinuationStatus::StartFailed;
  std::string stop_reason;  // the status in words, with where and why
  // The Boundary test function whose boundary ended the run at the last point, when the
  // problem has no passage through it; -1: none.
  int boundary_test = -1;
  // LeftFamily: the converged point of the last step, which belongs to another family or
  // lies beyond the problem's region, or the failed step's prediction beyond that region.
  std::optional<BranchPoint> beyond;
  // Ended normally: on a bound or edge of the range, at the point budget, at a boundary.
  bool ok() const;
};

class PseudoArclength {
 public:
  PseudoArclength(ZeroProblem& problem, ContinuationOptions options = {});
  // From a guess u0 at lambda0 (corrected at fixed lambda0 first).
  ContinuationResult run(ConstVectorRef u0, double lambda0);
  // From a point with a given unit tangent, e.g. onto a bifurcating branch (the point
  // itself may be singular for the problem); the first step follows that tangent. The
  // problem is put into the point's chart first.
  ContinuationResult run_from(const BranchPoint& start);

 private:
  // The bordered system's extra row: constraint . ((u, lambda) - from) = value.
  struct Constraint {
    Vector row;
    double value = 0.0;
  };
  Constraint arclength_constraint(const BranchPoint& from, double step) const;
  bool correct(const BranchPoint& from, const Constraint& constraint, Vector prediction,
               BranchPoint& to);
  bool correct_by_chord(const BranchPoint& from, const Constraint& constraint, Vector y,
                        BranchPoint& to);
  bool converged(const BranchPoint& from, const Constraint& constraint, ConstVectorRef y,
                 double& constraint_error) const;
  void keep_chord();
  void broyden(Matrix& bordered, Eigen::PartialPivLU<Matrix>& lu, ConstVectorRef update) const;
  // The predictor: along from's tangent (a step of `step` in arclength, or in lambda for
  // natural continuation), with the branch's curvature where it is known at `from`.
  Vector predict(const BranchPoint& from, double step) const;
  bool correct_along(const BranchPoint& from, double step, BranchPoint& to);
  // The correction from a given prediction on `constraint`, then the point's tests and
  // tangent.
  bool correct_from(const BranchPoint& from, const Constraint& constraint, Vector prediction,
                    BranchPoint& to);
  bool tangent_at(BranchPoint& point, ConstVectorRef orientation);
  double weighted_norm(ConstVectorRef y) const;
  double weighted_dot(ConstVectorRef a, ConstVectorRef b) const;
  // The angle between the points' unit tangents, in degrees.
  double turn_degrees(const BranchPoint& from, const BranchPoint& to) const;
  // at_min_step: the distance alone (a corner must be passed there).
  bool plausible_successor(const BranchPoint& from, const BranchPoint& to, double step,
                           bool at_min_step) const;
  // Whether the end tangents of a step (unit, along the direction of travel) add up to its
  // chord `difference` (to - from) as on one smooth arc.
  bool tangents_match_chord(const BranchPoint& from, const BranchPoint& to,
                            ConstVectorRef difference) const;
  // The Boundary test the step from -> to crossed (the impact signature changed) or came
  // close to (boundary_threshold); -1: none.
  int crossed_boundary(const BranchPoint& from, const BranchPoint& to) const;
  int approached_boundary(const BranchPoint& from, const BranchPoint& to) const;
  bool receded_from_boundary(const BranchPoint& from, const BranchPoint& to) const;
  // At the last point, short of the boundary of test `boundary`: the problem's passage.
  enum class Passage { Through, Declined, Ended };
  Passage pass_boundary(int boundary, ContinuationResult& result);
  void append_passage(BoundaryPassage& passage, ContinuationResult& result);
  // After a failed step from `from`: if the parameter's valid range ends within the step,
  // the branch is brought onto that end and the run ends there (true).
  bool end_on_valid_range(const BranchPoint& from, double step, ContinuationResult& result);
  // The sign changes of the problem's tests between the points a passage added (from
  // result.points[first - 1] on, or `start`, that point on the passage's chart; its walk
  // locates only the boundary): each located along the chord between two points of one
  // chart and one impact signature (not across the boundary), as a step's are along its
  // tangent.
  void locate_along_passage(size_t first, const std::optional<BranchPoint>& start,
                            ContinuationResult& result);
  // After a point recorded by a step of `step`: whether the branch has stalled
  // (ContinuationOptions::stall_points), ending the run if so.
  bool stalled(double step, ContinuationResult& result);
  // After the special points from index `first` on were recorded: whether one of them is
  // one the branch located before it (its type, parameter and point), ending the run there
  // if so: the branch closed on itself and would trace its loop again.
  bool closed_on_itself(size_t first, ContinuationResult& result);
  // Ends the run at max_points; where its last steps crept (a hundredth of max_step and
  // less), the stop reason says so and why steps may not have grown.
  void end_at_max_points(ContinuationResult& result) const;
  // After a failed step from `from`: if its prediction lies beyond the problem's region
  // (ZeroProblem::beyond_range), the run ends there (true), the prediction kept as
  // `beyond` for the caller to land on the region's edge.
  bool left_range(const BranchPoint& from, double step, ContinuationResult& result);
  // Corrects at fixed lambda = value, from `from` towards the guess, and records the point.
  bool land_at(const BranchPoint& from, double value, const BranchPoint& guess, BranchPoint& to);
  // The same from a prediction (u, value).
  bool land_from(const BranchPoint& from, double value, Vector prediction, BranchPoint& to);
  // A located special point's bracket: the last point before it and the first after it,
  // with their arclengths along the locating step.
  struct Bracket {
    BranchPoint before, after;
    double s_before = 0.0, s_after = 0.0;
  };
  // The branch's point at arclength `sigma` along from's tangent, between the corrected
  // points `before` and `after` (the ends of a bracket or a step), by the cubic through
  // them and their tangents.
  Vector predict_within(const BranchPoint& from, const BranchPoint& before,
                        const BranchPoint& after, double sigma) const;
  // The arclength of `point` along from's tangent (the constraint's measure; for natural
  // continuation its parameter's distance in the direction of travel), in the units of a
  // step from `from`.
  double arclength_of(const BranchPoint& point, const BranchPoint& from) const;
  // The user values (ContinuationOptions::user_values) crossed from `from` to `to`, each
  // landed on and added to `found` at its arclength plus `offset`.
  void locate_user_values(const BranchPoint& from, const BranchPoint& to,
                          std::vector<std::pair<double, SpecialPoint>>& found, double offset);
  Bracket locate(const BranchPoint& from, double step, const BranchPoint& to, int test,
                 std::vector<SpecialPoint>& found);
  // Whether sign-change test `test` jumped across the narrowed `bracket` of a step `step`
  // long instead of passing zero (`size`: its size at the step's ends).
  bool jumped(const Bracket& bracket, int test, double step, double size) const;
  // The sign-change tests' zeros between `from` and `to` (step along from's tangent), and
  // the fold's where `folds` (from's and to's tangents both the branch's).
  void locate_smooth(const BranchPoint& from, double step, const BranchPoint& to,
                     std::vector<std::pair<double, SpecialPoint>>& found, double offset,
                     bool folds = true);
  void locate_special_points(const BranchPoint& from, double step, const BranchPoint& to,
                             ContinuationResult& result);
  double test_value(const BranchPoint& p, int test) const;
  void record_tests(BranchPoint& point);
  // Whether the problem moved the point to new coordinates.
  bool recenter(BranchPoint& point);
  void trace(ContinuationResult& result);
  // The arclength from the last point to the nearest zero of an Approach test,
  // extrapolated along the last step; infinite where none comes closer.
  double approach_distance(const ContinuationResult& result) const;
  // The step, shortened so as not to reach past that zero.
  double approach_limited(double step, double distance) const;
  // Whether a ValueChange test (the impact signature) differs between the points.
  bool signature_changed(const BranchPoint& from, const BranchPoint& to) const;
  void report_progress(const ContinuationResult& result) const;

  ZeroProblem& problem_;
  ContinuationOptions options_;
  Vector residual_, dlambda_;
  Matrix du_;
  // The Jacobians of the last converged point, for chord iterations.
  bool chord_ready_ = false;
  // The boundary distance at which the last passage declined; 0: none.
  double declined_distance_ = 0.0;
  // The last steps of trace() (at most stall_points) and their sum.
  std::deque<double> recent_steps_;
  double recent_length_ = 0.0;
  // The last step trace() took: its length and the index of the point it reached (it
  // started at the point before).
  struct TakenStep {
    double length = 0.0;
    size_t reached = 0;
  };
  std::optional<TakenStep> last_step_;
  Matrix chord_du_;
  Vector chord_dlambda_;
  // The predictor's curvature (ContinuationOptions::curvature_predictor) at the last point
  // of the branch, and what identifies that point; vector empty: none.
  struct Curvature {
    Vector vector, u;
    double lambda = 0.0, chart = 0.0;
    bool belongs_to(const BranchPoint& point) const;
  };
  Curvature curvature_;
  void keep_curvature(const BranchPoint& from, const BranchPoint& to, double step,
                      bool one_piece);
};

}  // namespace libcont
