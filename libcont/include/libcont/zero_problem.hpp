#pragma once
// A zero problem F(u, lambda) = 0, u in R^m, with one free parameter lambda: what the
// continuation engine works on. Periodic orbits by shooting are one such
// problem (periodic_orbit_problem.hpp); any user problem with Jacobians is another.
#include <optional>
#include <string>
#include <vector>

#include "libcont/branch_point.hpp"
#include "libcont/types.hpp"

namespace libcont {

// A scalar monitored along a branch. SignChange: a special point where it changes sign
// (fold, period doubling, ...). ValueChange: where its (integer) value changes (impact
// signature p). Boundary: the distance to a nonsmooth boundary of the branch's family,
// positive on it (a grazing, where the problem's F is not differentiable); the engine does
// not step across it but stops before it (ContinuationResult::boundary_test), where a
// passage made for that boundary takes over (grazing_passage.hpp). Approach: a smooth
// distance, positive, to a nonsmooth point ahead that the engine steps across without a
// passage (a soft contact's grazing, where the map's derivatives grow without bound):
// where it falls from one point to the next, the engine shortens the steps so as to
// come close to its zero from the side the branch is on, instead of trying long steps
// across it whose corrections fail.
struct TestFunction {
  enum class Kind { SignChange, ValueChange, Boundary, Approach };
  std::string name;
  Kind kind = Kind::SignChange;
  // What a located zero (or change) is, unless classify() tells otherwise. Custom: a
  // special point of the problem's own, named by `name` (SpecialPoint::custom_name).
  SpecialPointType type = SpecialPointType::Custom;
};

// A converged point as the engine recorded it: where it is, and its point_data().
struct RecordedPoint {
  ConstVectorRef u;
  double lambda;
  ConstVectorRef data;
};

class ZeroProblem {
 public:
  virtual ~ZeroProblem() = default;
  virtual int dimension() const = 0;
  // F and its Jacobians at (u, lambda); false when F cannot be evaluated there (the
  // continuation then shortens its step). The problem keeps what it needs of the last
  // evaluation for test_values().
  virtual bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                        Vector& dlambda) = 0;
  // F alone, for chord iterations of the corrector that reuse an earlier Jacobian; a
  // problem whose Jacobians are costly (shooting: the tangent flow) computes it cheaper.
  // May leave what test_values() reads in any state: the engine calls evaluate() at a
  // point before asking for its tests. By default, evaluate() without the Jacobians.
  virtual bool residual(ConstVectorRef u, double lambda, Vector& residual) {
    Matrix du;
    Vector dlambda;
    return evaluate(u, lambda, residual, du, dlambda);
  }
  // Whether F can be evaluated at this lambda at all: false outside the parameter's valid
  // range (a restitution coefficient above 1, a negative damping, any rule of a model).
  // The engine ends a branch exactly on the edge of that range.
  virtual bool valid_parameter(double /*lambda*/) { return true; }
  // Test functions beyond the fold (which the engine detects from the tangent).
  virtual std::vector<TestFunction> test_functions() const { return {}; }
  // Their values at a converged point (u, lambda), right after evaluate() there.
  virtual Vector test_values(ConstVectorRef /*u*/, double /*lambda*/) { return Vector(); }
  // What the problem records of a converged point besides u and lambda, right after
  // test_values() there: e.g. a periodic orbit's amplitudes and Floquet multipliers, so
  // that a branch is described without evaluating its points again.
  virtual std::vector<std::string> point_data_names() const { return {}; }
  virtual Vector point_data(ConstVectorRef /*u*/, double /*lambda*/) { return Vector(); }
  // Coordinates that follow the branch. After each branch point, once its special points
  // are located, the engine lets the problem move to coordinates that suit the point
  // better: a periodic orbit's section away from an event that drifted onto it, where the
  // fixed point would move fast and the corrector crawl. A problem that moves maps u and
  // the u-part of the tangent (u, lambda) into its new coordinates (the tangent to first
  // order; the engine normalises it) and returns true; `data` is the point's
  // point_data(). By default the coordinates never change.
  virtual bool recenter(Vector& /*u*/, double /*lambda*/, ConstVectorRef /*data*/,
                        Vector& /*tangent*/) {
    return false;
  }
  // Which coordinates u is in now (a periodic orbit: its section's phase t0), recorded
  // with every branch point; set_chart goes back to those of a recorded point.
  virtual double chart() const { return 0.0; }
  virtual void set_chart(double /*chart*/) {}
  // Whether point_data()'s entry `column` depends on the chart (a periodic orbit's
  // section clearance): points on different charts are compared without it.
  virtual bool chart_dependent(Eigen::Index /*column*/) const { return false; }
  // Classifies a located zero of test function i (e.g. a neutral saddle is not a
  // Neimark-Sacker point); none: not a special point after all. By default the test
  // function's type.
  virtual std::optional<SpecialPointType> classify(int i, ConstVectorRef /*u*/, double /*lambda*/) {
    return test_functions()[static_cast<size_t>(i)].type;
  }
  // The same from the located bracket: the last point before the zero and the first
  // after it, with the data recorded there. Where quantities vary fast (near a grazing,
  // multipliers move by O(1) over 1e-8 in lambda) a criterion at one point is
  // unreliable; comparing the two sides is not, and the recorded data are those the
  // test values came from (evaluating again need not reproduce them to the last digits
  // the bracket resolves). By default, the one-point form at the point after.
  virtual std::optional<SpecialPointType> classify(int i, const RecordedPoint& /*before*/,
                                                   const RecordedPoint& after) {
    return classify(i, after.u, after.lambda);
  }
  // Through the boundary of Boundary test i that the branch stopped short of at `last`
  // (e.g. a grazing: grazing_passage.hpp): locate it, and go on along the family beyond
  // it. By default there is none (handled = false) and the branch ends there.
  virtual BoundaryPassage pass_boundary(int /*i*/, const BranchPoint& /*last*/,
                                        const BoundarySettings& /*settings*/) {
    return {};
  }
  // Whether (u, lambda), a converged point or a step's prediction, lies beyond the region
  // the branch is traced in, apart from lambda's bounds (ContinuationOptions): a curve's
  // range of its second parameter. A step that converges beyond, or whose corrector fails
  // with its prediction beyond (the parameter's own valid range may end at the region's
  // edge, r = 1), ends the run (ContinuationStatus::LeftFamily, the reason in `why`, the
  // point or prediction kept as ContinuationResult::beyond) for the caller to land on the
  // edge. By default there is no such region.
  virtual bool beyond_range(ConstVectorRef /*u*/, double /*lambda*/, std::string& /*why*/) {
    return false;
  }
  // Whether the converged point `to`, one step on from `from`, still belongs to the
  // branch's family. A family can run into another through a branch point that no test
  // function sees: z = 2p/2n orbits born at a period doubling meet there the z = p/n orbit
  // traversed twice, where a multiplier touches +1 without crossing it, and a step may go
  // on along that orbit. False, with the reason in `why`, ends the run before `to`
  // (ContinuationStatus::LeftFamily; `to` is kept as ContinuationResult::beyond so that
  // the caller can locate the meeting). By default a family is never left.
  virtual bool same_family(const BranchPoint& /*from*/, const BranchPoint& /*to*/,
                           std::string& /*why*/) {
    return true;
  }
  // What kind of special point the zero of test i is, `point` classified already: its
  // kind's fields (SpecialPoint::grazing_kind, detail) where the problem tells; by default
  // it tells nothing.
  virtual void describe(int /*i*/, const RecordedPoint& /*before*/, const RecordedPoint& /*after*/,
                        SpecialPoint& /*point*/) {}
};

}  // namespace libcont
