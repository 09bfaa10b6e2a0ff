#include "libcont/pseudo_arclength.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

double sign_of(double v) { return (v > 0.0) - (v < 0.0); }

}  // namespace

void ContinuationOptions::validate() const {
  const auto bad = [](const std::string& field, const std::string& rule) {
    throw InputError("continuation option " + field + " " + rule);
  };
  if (!(min_step > 0.0)) bad("min_step", "must be positive, not " + number_text(min_step));
  if (!(min_step <= initial_step))
    bad("min_step", number_text(min_step) + " must not exceed initial_step " +
                        number_text(initial_step) +
                        " (steps: 0 < min_step <= initial_step <= max_step)");
  if (!(initial_step <= max_step))
    bad("initial_step", number_text(initial_step) + " must not exceed max_step " +
                            number_text(max_step) +
                            " (steps: 0 < min_step <= initial_step <= max_step)");
  if (direction != 1 && direction != -1)
    bad("direction", "must be +1 or -1, not " + std::to_string(direction));
  if (!(lambda_min < lambda_max))
    bad("lambda_min", number_text(lambda_min) + " must be below lambda_max " +
                          number_text(lambda_max));
  if (max_points < 1) bad("max_points", "must be at least 1, not " + std::to_string(max_points));
  if (max_corrector_iterations < 1)
    bad("max_corrector_iterations", "must be at least 1");
  if (chord_iterations < 0) bad("chord_iterations", "must not be negative");
  if (!(chord_contraction > 0.0)) bad("chord_contraction", "must be positive");
  if (!(corrector_tolerance > 0.0)) bad("corrector_tolerance", "must be positive");
  if (!(step_growth >= 1.0)) bad("step_growth", "must be at least 1");
  if (!(step_shrink > 0.0 && step_shrink < 1.0)) bad("step_shrink", "must lie in (0, 1)");
  if (!(locate_tolerance > 0.0)) bad("locate_tolerance", "must be positive");
  if (max_locate_iterations < 0) bad("max_locate_iterations", "must not be negative");
  for (const double value : user_values)
    if (!std::isfinite(value)) bad("user_values", "must be finite numbers, not " + number_text(value));
  if (!(max_distance_factor > 0.0)) bad("max_distance_factor", "must be positive");
  if (!(max_turn_degrees > 0.0)) bad("max_turn_degrees", "must be positive");
  if (!(target_turn_degrees >= 0.0))
    bad("target_turn_degrees", "must not be negative (0: no limit)");
  if (!(boundary_threshold >= 0.0)) bad("boundary_threshold", "must not be negative");
  if (!(boundary_tolerance > 0.0)) bad("boundary_tolerance", "must be positive");
  if (!(parameter_weight > 0.0)) bad("parameter_weight", "must be positive");
  if (stall_points < 0) bad("stall_points", "must not be negative");
  if (!(stall_fraction > 0.0)) bad("stall_fraction", "must be positive");
}

std::string to_string(ContinuationStatus status) {
  switch (status) {
    case ContinuationStatus::ReachedBound: return "reached bound";
    case ContinuationStatus::ReachedValidRangeEnd: return "reached valid range end";
    case ContinuationStatus::ReachedMaxPoints: return "reached max points";
    case ContinuationStatus::EndedAtBoundary: return "ended at boundary";
    case ContinuationStatus::UnpassableBoundary: return "unpassable boundary";
    case ContinuationStatus::NonsmoothFold: return "nonsmooth fold";
    case ContinuationStatus::LeftFamily: return "left family";
    case ContinuationStatus::StepTooSmall: return "step too small";
    case ContinuationStatus::StartFailed: return "start failed";
    case ContinuationStatus::PassageFailed: return "passage failed";
    case ContinuationStatus::ClosedLoop: return "closed loop";
  }
  return "unknown";
}

bool ContinuationResult::ok() const {
  switch (status) {
    case ContinuationStatus::ReachedBound:
    case ContinuationStatus::ReachedValidRangeEnd:
    case ContinuationStatus::ReachedMaxPoints:
    case ContinuationStatus::EndedAtBoundary:
    case ContinuationStatus::UnpassableBoundary:
    case ContinuationStatus::NonsmoothFold:
    case ContinuationStatus::LeftFamily:
    case ContinuationStatus::ClosedLoop:
      return true;
    case ContinuationStatus::StepTooSmall:
    case ContinuationStatus::StartFailed:
    case ContinuationStatus::PassageFailed:
      return false;
  }
  return false;
}

PseudoArclength::PseudoArclength(ZeroProblem& problem, ContinuationOptions options)
    : problem_(problem), options_(std::move(options)) {
  options_.validate();
}

void PseudoArclength::report_progress(const ContinuationResult& result) const {
  if (options_.progress) options_.progress(result);
}

double PseudoArclength::weighted_norm(ConstVectorRef y) const {
  const Eigen::Index m = y.size() - 1;
  const double w = options_.parameter_weight;
  return std::sqrt(y.head(m).squaredNorm() + w * w * y[m] * y[m]);
}

double PseudoArclength::weighted_dot(ConstVectorRef a, ConstVectorRef b) const {
  const Eigen::Index m = a.size() - 1;
  const double w = options_.parameter_weight;
  return a.head(m).dot(b.head(m)) + w * w * a[m] * b[m];
}

double PseudoArclength::turn_degrees(const BranchPoint& from, const BranchPoint& to) const {
  const double cosine = std::clamp(weighted_dot(from.tangent, to.tangent), -1.0, 1.0);
  return std::acos(cosine) * 180.0 / std::numbers::pi;
}

bool PseudoArclength::plausible_successor(const BranchPoint& from, const BranchPoint& to,
                                          double step, bool at_min_step) const {
  const Eigen::Index m = from.u.size();
  Vector difference(m + 1);
  difference << to.u - from.u, to.lambda - from.lambda;
  const double distance = weighted_norm(difference);
  const double reach = options_.natural ? std::abs(step / from.tangent[m]) : step;
  const bool near = distance <= options_.max_distance_factor * reach;
  // At min_step a corner of a nonsmooth branch must be passed, where the tangent turns
  // sharply and the Jacobian's sign may change: only the distance counts. A point farther
  // than the step allows is another part of the branch that the arclength's hyperplane
  // cuts as well (next to a stiff contact's grazing, tens of steps aside): taking it
  // walked the branch back and forth there, crossing one special point again and again.
  if (at_min_step) return near;
  // det(dF/du) changes sign at a fold, where the tangent's lambda component does too; if
  // only the determinant did, the step passed a fold onto another branch (or a branch
  // point, which the shortest step then passes).
  const bool fold_crossed = sign_of(from.tangent[m]) != sign_of(to.tangent[m]);
  const bool jacobian_flipped = from.jacobian_sign * to.jacobian_sign < 0;
  // The state on its own scale: in the weighted norm a state of size 1e-3 beside a
  // parameter of size 1 could jump to a coexisting orbit within the step's allowance. The
  // corrector's move away from the predicted state is bounded by what the step predicts
  // for the state plus a tenth of the state's size.
  const double along = options_.natural ? options_.direction * step / from.tangent[m] : step;
  const Vector off_prediction = to.u - from.u - along * from.tangent.head(m);
  const double state_scale = std::max(from.u.norm(), to.u.norm());
  const bool state_continues =
      off_prediction.norm() <= options_.max_distance_factor * std::abs(along) *
                                       from.tangent.head(m).norm() +
                                   0.1 * state_scale;
  return near && turn_degrees(from, to) <= options_.max_turn_degrees &&
         (fold_crossed || !jacobian_flipped) && state_continues &&
         tangents_match_chord(from, to, difference);
}

// On one smooth arc from `from` to `to` the chord is the mean of the end tangents times its
// length to third order (the trapezoid rule), while the tangent predictor's own error, half
// the tangents' difference times the length, is of second order. A corrected point on
// another family beside this one (coexisting orbits a thousandth apart in the state) has
// end tangents that do not add up to its chord: there the third-order part is as large as
// the second-order one. Accepted while it is below half of it, or within what the points'
// accuracy and the tangents' allow: a thousand times the corrector's tolerance (an
// ill-conditioned Jacobian near a grazing magnifies it in the state) and a hundredth of the
// length (a tangent from a differenced column is off by 1e-4 near a soft contact).
bool PseudoArclength::tangents_match_chord(const BranchPoint& from, const BranchPoint& to,
                                           ConstVectorRef difference) const {
  const double length = weighted_norm(difference);
  const Vector trapezoid_error = difference - (0.5 * length) * (from.tangent + to.tangent);
  const double predictor_error = 0.5 * length * weighted_norm(to.tangent - from.tangent);
  const double accuracy = 1e3 * options_.corrector_tolerance * (1.0 + from.u.norm()) + 1e-2 * length;
  return weighted_norm(trapezoid_error) <= 0.5 * predictor_error + accuracy;
}

// Test index -1 is the fold: the parameter component of the tangent.
double PseudoArclength::test_value(const BranchPoint& p, int test) const {
  return test < 0 ? p.tangent[p.tangent.size() - 1] : p.tests[test];
}

PseudoArclength::Constraint PseudoArclength::arclength_constraint(const BranchPoint& from,
                                                                  double step) const {
  Constraint c;
  const Eigen::Index m = from.u.size();
  if (options_.natural) {
    c.row = Vector::Zero(m + 1);
    c.row[m] = 1.0;
    c.value = options_.direction * step;
  } else {
    c.row = from.tangent;
    c.row[m] *= options_.parameter_weight * options_.parameter_weight;
    c.value = step;
  }
  return c;
}

// Whether y solves F = 0 and the constraint, with F = residual_ at y.
bool PseudoArclength::converged(const BranchPoint& from, const Constraint& constraint,
                                ConstVectorRef y, double& constraint_error) const {
  const Eigen::Index m = from.u.size();
  Vector from_y(m + 1);
  from_y << from.u, from.lambda;
  constraint_error = constraint.row.dot(y - from_y) - constraint.value;
  return residual_.norm() <= options_.corrector_tolerance * (1.0 + y.head(m).norm()) &&
         std::abs(constraint_error) <= options_.corrector_tolerance * (1.0 + std::abs(y[m]));
}

void PseudoArclength::keep_chord() {
  chord_du_ = du_;
  chord_dlambda_ = dlambda_;
  chord_ready_ = true;
}

// Broyden's ("good") update of the bordered matrix B after the iterate moved by `update`
// (B update = -(F, c) before it) to where F is residual_: B += F update^T / |update|^2
// in the F rows, so that B update = F_new - F_old, the secant condition; the constraint
// row is linear and stays exact.
void PseudoArclength::broyden(Matrix& bordered, Eigen::PartialPivLU<Matrix>& lu,
                              ConstVectorRef update) const {
  const double length = update.squaredNorm();
  if (!(length > 0.0)) return;
  const Eigen::Index m = residual_.size();
  bordered.topRows(m).noalias() += residual_ * (update.transpose() / length);
  lu.compute(bordered);
}

// Chord Newton on F(u, lambda) = 0 and the constraint row, with the Jacobians of the
// last converged point; the full evaluation (Jacobians, and what test_values() reads)
// happens once, at the point the iterates converged to.
bool PseudoArclength::correct_by_chord(const BranchPoint& from, const Constraint& constraint,
                                       Vector y, BranchPoint& to) {
  const Eigen::Index m = from.u.size();
  if (!chord_ready_ || chord_du_.rows() != m) return false;
  Matrix bordered(m + 1, m + 1);
  bordered.topLeftCorner(m, m) = chord_du_;
  bordered.topRightCorner(m, 1) = chord_dlambda_;
  bordered.bottomRows(1) = constraint.row.transpose();
  Eigen::PartialPivLU<Matrix> lu(bordered);
  Vector rhs(m + 1), update;
  double previous = std::numeric_limits<double>::infinity();
  double fastest = 1.0;  // the smallest ratio of successive residuals so far
  for (int it = 0; it <= options_.chord_iterations; ++it) {
    if (!problem_.residual(y.head(m), y[m], residual_)) return false;
    double constraint_error = 0.0;
    if (converged(from, constraint, y, constraint_error)) {
      // One more update, as full Newton's last one, which leaves the error far below the
      // tolerance where chord iterates would stop just under it.
      if (options_.broyden_update && it > 0) broyden(bordered, lu, update);
      rhs << -residual_, -constraint_error;
      update = lu.solve(rhs);
      if (update.allFinite()) y += update;
      if (!problem_.evaluate(y.head(m), y[m], residual_, du_, dlambda_)) return false;
      // The update is checked, not trusted: a stale Jacobian may have made it worse.
      if (!converged(from, constraint, y, constraint_error)) return false;
      keep_chord();
      to.u = y.head(m);
      to.lambda = y[m];
      to.corrector_iterations = it;
      to.by_chord = true;
      return true;
    }
    const double size = std::hypot(residual_.norm(), constraint_error);
    if (it == options_.chord_iterations || !(size <= options_.chord_contraction * previous))
      return false;
    // Contracting, but so slowly that even at its fastest contraction so far the iterations
    // left would end ten times above the tolerance: full Newton now rather than after them.
    // (Past the folds of the two-body loading curve, where the last point's Jacobian goes
    // stale within a step, iterates contracted by 0.25 to 0.3 each, all seven plain maps
    // were spent, and full Newton started again from the prediction.) The factor ten
    // spares the sequences whose contraction speeds up and that converge in their last
    // iteration.
    // Broyden's iterates speed up as the update learns the Jacobian's change, so the rate
    // so far says nothing of the iterations left.
    if (it > 0 && !options_.broyden_update) {
      fastest = std::min(fastest, size / previous);
      const double left = options_.chord_iterations - it;
      if (size * std::pow(fastest, left) >
          10.0 * options_.corrector_tolerance * (1.0 + y.head(m).norm()))
        return false;
    }
    if (options_.broyden_update && it > 0) broyden(bordered, lu, update);
    previous = size;
    rhs << -residual_, -constraint_error;
    update = lu.solve(rhs);
    if (!update.allFinite()) return false;
    y += update;
  }
  return false;
}

// Bordered Newton: F(u, lambda) = 0 together with the constraint row; chord iterations
// first when a Jacobian is at hand.
bool PseudoArclength::correct(const BranchPoint& from, const Constraint& constraint,
                              Vector y, BranchPoint& to) {
  if (options_.chord_iterations > 0 && correct_by_chord(from, constraint, y, to)) return true;
  const Eigen::Index m = from.u.size();
  Matrix bordered(m + 1, m + 1);
  Vector rhs(m + 1);
  double first = 0.0, one_back = 0.0, two_back = 0.0;  // residual sizes of the iterates
  for (int it = 0; it <= options_.max_corrector_iterations; ++it) {
    if (!problem_.evaluate(y.head(m), y[m], residual_, du_, dlambda_)) return false;
    double constraint_error = 0.0;
    const bool done = converged(from, constraint, y, constraint_error);
    if (it > 0 && done) {
      keep_chord();
      to.u = y.head(m);
      to.lambda = y[m];
      to.corrector_iterations = it;
      to.by_chord = false;
      return true;
    }
    if (it == options_.max_corrector_iterations) break;
    // Past the first iteration (which may overshoot), Newton converging on a smooth
    // branch does not leave the residual far above that of the prediction; iterates that
    // do run off (typically across a grazing, where F is not smooth), and a shorter step
    // is cheaper than the remaining iterations.
    const double size = std::hypot(residual_.norm(), constraint_error);
    if (it == 0) first = size;
    if (it >= 2 && size > 2.0 * first) break;
    // Nor does it leave the residual where it was two iterations before: iterates that do
    // cycle (across a grazing they bounce between the sides, to the same residuals in
    // period 2 or 3) and would spend every remaining iteration, each a map with the tangent.
    if (it >= 2 && size >= two_back) break;
    two_back = one_back;
    one_back = size;
    bordered.topLeftCorner(m, m) = du_;
    bordered.topRightCorner(m, 1) = dlambda_;
    bordered.bottomRows(1) = constraint.row.transpose();
    rhs << -residual_, -constraint_error;
    const Eigen::PartialPivLU<Matrix> lu(bordered);
    const Vector update = lu.solve(rhs);
    if (!update.allFinite()) return false;
    y += update;
  }
  return false;
}

// Right after the evaluation at `point`: what the problem can tell of it.
void PseudoArclength::record_tests(BranchPoint& point) {
  point.tests = problem_.test_values(point.u, point.lambda);
  point.data = problem_.point_data(point.u, point.lambda);
  point.chart = problem_.chart();
}

// The problem may move to coordinates that suit the point better (ZeroProblem::recenter);
// the Jacobians kept for chord iterations belong to the old ones.
bool PseudoArclength::recenter(BranchPoint& point) {
  if (!problem_.recenter(point.u, point.lambda, point.data, point.tangent)) return false;
  point.tangent /= weighted_norm(point.tangent);
  point.chart = problem_.chart();
  chord_ready_ = false;
  // The point carried by the flow is a fixed point on the new section only to the flow's
  // accuracy and the corrector's tolerance compounded: corrected again there at its lambda
  // (its tests and tangent then from the new section's Jacobians), so that every recorded
  // point meets the corrector's criterion.
  BranchPoint corrected;
  if (land_at(point, point.lambda, point, corrected)) {
    corrected.chart = point.chart;
    point = std::move(corrected);
  }
  return true;
}

Vector PseudoArclength::predict(const BranchPoint& from, double step) const {
  const Eigen::Index m = from.u.size();
  Vector prediction(m + 1);
  prediction << from.u, from.lambda;
  if (options_.natural)
    prediction += (options_.direction * step / from.tangent[m]) * from.tangent;
  else
    prediction += step * from.tangent;
  if (options_.curvature_predictor && !options_.natural && curvature_.belongs_to(from))
    prediction += (0.5 * step * step) * curvature_.vector;
  return prediction;
}

bool PseudoArclength::correct_along(const BranchPoint& from, double step, BranchPoint& to) {
  return correct_from(from, arclength_constraint(from, step), predict(from, step), to);
}

bool PseudoArclength::correct_from(const BranchPoint& from, const Constraint& constraint,
                                   Vector prediction, BranchPoint& to) {
  if (!correct(from, constraint, std::move(prediction), to)) return false;
  record_tests(to);
  return tangent_at(to, from.tangent);
}

// Inside a bracket of two corrected points the branch is known at both ends with its
// tangents: the cubic through them (Hermite's, in the arclength along from's tangent that
// the constraint fixes) predicts the point at `sigma` to fourth order in the bracket's
// width, where the tangent predictor from `from` is off by the curvature times sigma
// squared. Each narrowing of the bracket then needs about one chord iterate. The
// interpolant meets the constraint exactly (a cubic reproduces the linear arclength), so
// only the branch's own bending is left to correct.
Vector PseudoArclength::predict_within(const BranchPoint& from, const BranchPoint& before,
                                       const BranchPoint& after, double sigma) const {
  const Eigen::Index m = from.u.size();
  // A boundary passage's points may come without tangents of their own.
  if (options_.natural || before.tangent.size() != m + 1 || after.tangent.size() != m + 1)
    return predict(from, sigma);
  const double s0 = arclength_of(before, from), s1 = arclength_of(after, from);
  const double rate0 = weighted_dot(from.tangent, before.tangent),
               rate1 = weighted_dot(from.tangent, after.tangent);
  const double h = s1 - s0;
  if (!(h > 0.0) || !(rate0 > 0.0) || !(rate1 > 0.0)) return predict(from, sigma);
  Vector y0(m + 1), y1(m + 1);
  y0 << before.u, before.lambda;
  y1 << after.u, after.lambda;
  const double x = (sigma - s0) / h, x2 = x * x, x3 = x2 * x;
  return (2 * x3 - 3 * x2 + 1) * y0 + (x3 - 2 * x2 + x) * (h / rate0) * before.tangent +
         (-2 * x3 + 3 * x2) * y1 + (x3 - x2) * (h / rate1) * after.tangent;
}

double PseudoArclength::arclength_of(const BranchPoint& point, const BranchPoint& from) const {
  if (options_.natural) return options_.direction * (point.lambda - from.lambda);
  Vector difference(from.u.size() + 1);
  difference << point.u - from.u, point.lambda - from.lambda;
  return weighted_dot(from.tangent, difference);
}

// The curvature of the branch at `to` for the next predictor, from the change of the unit
// tangent over the step from `from` (arclength `step`), where both lie on one smooth piece
// in the same coordinates (`one_piece`: no contact appeared or vanished between them and
// `to` was not recentered, which moves its tangent to new coordinates and not `from`'s).
// Otherwise none.
void PseudoArclength::keep_curvature(const BranchPoint& from, const BranchPoint& to,
                                     double step, bool one_piece) {
  if (!one_piece) {
    curvature_.vector.resize(0);
    return;
  }
  curvature_.vector = (to.tangent - from.tangent) / step;
  curvature_.u = to.u;
  curvature_.lambda = to.lambda;
  curvature_.chart = to.chart;
}

bool PseudoArclength::Curvature::belongs_to(const BranchPoint& point) const {
  return vector.size() == point.u.size() + 1 && point.lambda == lambda &&
         point.chart == chart && point.u == u;
}

// Unit tangent from the Jacobian of the last evaluation (at `point`), oriented like
// `orientation` so that the branch goes on through turning points.
bool PseudoArclength::tangent_at(BranchPoint& point, ConstVectorRef orientation) {
  const Eigen::Index m = point.u.size();
  Matrix bordered(m + 1, m + 1);
  bordered.topLeftCorner(m, m) = du_;
  bordered.topRightCorner(m, 1) = dlambda_;
  bordered.bottomRows(1) = orientation.transpose();
  Vector rhs = Vector::Zero(m + 1);
  rhs[m] = 1.0;
  Vector z = Eigen::PartialPivLU<Matrix>(bordered).solve(rhs);
  if (!z.allFinite()) return false;
  z /= weighted_norm(z);
  if (z.dot(orientation) < 0.0) z = -z;
  point.tangent = z;
  point.jacobian_sign = static_cast<int>(sign_of(Eigen::PartialPivLU<Matrix>(du_).determinant()));
  return true;
}

// A sign change narrowed to the locate tolerance where the test keeps, on both sides, far
// more than its average rate over the step (`step` long, the test `size` at its ends) could
// change it across the bracket is no zero: the test jumped there (through a pole, or a
// normalisation whose reference turned orthogonal inside the step, which reverses a null
// vector), and the point is not reported. The factor leaves room for tests that steepen
// towards a nonsmooth point (a Neimark-Sacker test 4.5e-8 past a soft grazing changes by
// 5 % of its size over 1e-9 of a step of 1e-8).
bool PseudoArclength::jumped(const Bracket& bracket, int test, double step, double size) const {
  constexpr double kSteepening = 1000.0;
  const double width = bracket.s_after - bracket.s_before;
  if (width > options_.locate_tolerance) return false;
  return std::min(std::abs(test_value(bracket.before, test)),
                  std::abs(test_value(bracket.after, test))) >
         kSteepening * size * width / std::abs(step);
}

PseudoArclength::Bracket PseudoArclength::locate(const BranchPoint& from, double step,
                                                 const BranchPoint& to, int test,
                                                 std::vector<SpecialPoint>& found) {
  const bool value_change =
      test >= 0 && problem_.test_functions()[static_cast<size_t>(test)].kind ==
                       TestFunction::Kind::ValueChange;
  Bracket bracket{from, to, 0.0, step};
  double f_lo = test_value(from, test), f_hi = test_value(to, test);
  // Brent's zeroin for sign changes (inverse quadratic or secant interpolation through the
  // last iterates, bisection when they do not shrink the bracket fast enough, and steps of
  // half the tolerance next to a converged estimate, which close the bracket from its
  // other side); bisection for value changes. Interpolating between the bracket's ends
  // instead kept one end far behind on a curved test function (a Neimark-Sacker test:
  // 13 corrections where 6 do). b: the best estimate, c: the other end of the bracket,
  // a: the previous estimate; d, e: the last two steps.
  const double half_tolerance = 0.5 * options_.locate_tolerance;
  double a = 0.0, fa = f_lo, b = step, fb = f_hi, c = a, fc = fa, d = b - a, e = d;
  for (int it = 0; it < options_.max_locate_iterations &&
                   bracket.s_after - bracket.s_before > options_.locate_tolerance;
       ++it) {
    double sigma = 0.5 * (bracket.s_before + bracket.s_after);
    if (!value_change) {
      if (sign_of(fb) == sign_of(fc)) {
        c = a;
        fc = fa;
        d = e = b - a;
      }
      if (std::abs(fc) < std::abs(fb)) {
        a = b;
        b = c;
        c = a;
        fa = fb;
        fb = fc;
        fc = fa;
      }
      const double half_width = 0.5 * (c - b);
      if (std::abs(e) >= half_tolerance && std::abs(fa) > std::abs(fb)) {
        double p = 0.0, q = 0.0;
        const double ratio_ba = fb / fa;
        if (a == c) {  // secant
          p = 2.0 * half_width * ratio_ba;
          q = 1.0 - ratio_ba;
        } else {  // inverse quadratic
          const double ratio_ac = fa / fc, ratio_bc = fb / fc;
          p = ratio_ba * (2.0 * half_width * ratio_ac * (ratio_ac - ratio_bc) -
                          (b - a) * (ratio_bc - 1.0));
          q = (ratio_ac - 1.0) * (ratio_bc - 1.0) * (ratio_ba - 1.0);
        }
        if (p > 0.0)
          q = -q;
        else
          p = -p;
        if (2.0 * p < std::min(3.0 * half_width * q - std::abs(half_tolerance * q),
                               std::abs(e * q))) {
          e = d;
          d = p / q;
        } else {
          d = e = half_width;
        }
      } else {
        d = e = half_width;
      }
      a = b;
      fa = fb;
      b += std::abs(d) > half_tolerance ? d : std::copysign(half_tolerance, half_width);
      sigma = b;
    }
    BranchPoint mid;
    // A correction that lands farther away than its step allows has left this stretch of
    // the branch (or gone far astray, where a step of the bracket crosses a chattering
    // orbit's sticking): it is no end of the bracket, which then keeps its width.
    if (!correct_from(from, arclength_constraint(from, sigma),
                      predict_within(from, bracket.before, bracket.after, sigma), mid) ||
        !plausible_successor(from, mid, sigma, true))
      break;
    const double f_mid = test_value(mid, test);
    fb = f_mid;
    const bool same_as_lo = value_change ? f_mid == test_value(from, test)
                                         : sign_of(f_mid) == sign_of(f_lo);
    if (same_as_lo) {
      bracket.before = std::move(mid);
      bracket.s_before = sigma;
    } else {
      bracket.after = std::move(mid);
      bracket.s_after = sigma;
    }
  }
  const BranchPoint& best = bracket.after;
  if (!value_change && test >= 0 &&
      jumped(bracket, test, step, std::max(std::abs(f_lo), std::abs(f_hi))))
    return bracket;
  const std::optional<SpecialPointType> type =
      test < 0 ? SpecialPointType::Fold
               : problem_.classify(test,
                                   {bracket.before.u, bracket.before.lambda, bracket.before.data},
                                   {best.u, best.lambda, best.data});
  if (!type) return bracket;
  SpecialPoint special;
  special.type = *type;
  if (*type == SpecialPointType::Custom)
    special.custom_name = problem_.test_functions()[static_cast<size_t>(test)].name;
  if (test >= 0)
    problem_.describe(test, {bracket.before.u, bracket.before.lambda, bracket.before.data},
                      {best.u, best.lambda, best.data}, special);
  // A bracket that could not be narrowed (a correction inside it failed, as next to the
  // grazing of a soft contact) gives the point only to within its width: said, not hidden.
  if (special.detail.empty() && bracket.s_after - bracket.s_before > options_.locate_tolerance)
    special.detail = "unlocated";
  special.take_point(best);
  found.push_back(std::move(special));
  return bracket;
}

// Special points of the smooth stretch from `from` to `to` (arclength `step` along
// from's tangent): the fold and every sign-change test, in branch order.
void PseudoArclength::locate_smooth(const BranchPoint& from, double step, const BranchPoint& to,
                                    std::vector<std::pair<double, SpecialPoint>>& found,
                                    double offset, bool folds) {
  const int tests = static_cast<int>(problem_.test_functions().size());
  for (int i = options_.natural || !folds ? 0 : -1; i < tests; ++i) {
    if (i >= 0 &&
        problem_.test_functions()[static_cast<size_t>(i)].kind != TestFunction::Kind::SignChange)
      continue;
    if (sign_of(test_value(from, i)) * sign_of(test_value(to, i)) >= 0) continue;
    std::vector<SpecialPoint> one;
    const Bracket b = locate(from, step, to, i, one);
    for (auto& p : one) found.emplace_back(offset + b.s_after, std::move(p));
  }
  locate_user_values(from, to, found, offset);
}

// A value is crossed where lambda - value changes sign from `from` to `to`, or becomes zero
// at `to` (so that a value on a branch point is reported once, with the step that reached
// it). Its arclength is guessed linearly in lambda between the ends; the cubic through them
// predicts the point there, and the corrector at fixed lambda lands on it. The chord
// Jacobian is that of the step's end, a step away at most. Where the landing fails, the
// value is reported at `to` as "unlocated", as special points whose bracket could not be
// narrowed are.
void PseudoArclength::locate_user_values(const BranchPoint& from, const BranchPoint& to,
                                         std::vector<std::pair<double, SpecialPoint>>& found,
                                         double offset) {
  const double s_to = arclength_of(to, from);
  for (const double value : options_.user_values) {
    const double a = from.lambda - value, b = to.lambda - value;
    if (!(b == 0.0 ? a != 0.0 : a * b < 0.0)) continue;
    const bool on_row = b == 0.0;
    BranchPoint landed;
    const bool located =
        on_row || land_from(from, value, predict_within(from, from, to, s_to * a / (a - b)), landed);
    const BranchPoint& at = located && !on_row ? landed : to;
    SpecialPoint point;
    point.type = SpecialPointType::UserValue;
    if (!located) point.detail = "unlocated";
    point.take_point(at);
    found.emplace_back(offset + arclength_of(at, from), std::move(point));
  }
}

// Special points between two consecutive branch points. Value-change tests (the impact
// signature) mark nonsmooth points such as grazing, where the Floquet multipliers and
// the tangent jump: a sign-change test compared across such a point can miss a
// bifurcation just beside it (two sign changes, or one hidden by the jump). So these are
// located first and split the step; the fold and the sign-change tests are then checked
// on each smooth piece separately, never across a jump.
void PseudoArclength::locate_special_points(const BranchPoint& from, double step,
                                            const BranchPoint& to, ContinuationResult& result) {
  std::vector<std::pair<double, SpecialPoint>> found;  // arclength from `from`, point
  const int tests = static_cast<int>(problem_.test_functions().size());
  std::vector<Bracket> jumps;
  for (int i = 0; i < tests; ++i) {
    if (problem_.test_functions()[static_cast<size_t>(i)].kind != TestFunction::Kind::ValueChange)
      continue;
    if (test_value(from, i) == test_value(to, i)) continue;
    std::vector<SpecialPoint> one;
    Bracket b = locate(from, step, to, i, one);
    for (auto& p : one) found.emplace_back(b.s_after, std::move(p));
    jumps.push_back(std::move(b));
  }
  std::sort(jumps.begin(), jumps.end(),
            [](const Bracket& a, const Bracket& b) { return a.s_before < b.s_before; });
  // Smooth pieces: from -> first jump, between jumps, last jump -> to.
  const BranchPoint* piece_start = &from;
  double piece_offset = 0.0;
  for (const Bracket& jump : jumps) {
    if (jump.s_before > piece_offset)
      locate_smooth(*piece_start, jump.s_before - piece_offset, jump.before, found, piece_offset);
    piece_start = &jump.after;
    piece_offset = jump.s_after;
  }
  if (step > piece_offset) locate_smooth(*piece_start, step - piece_offset, to, found, piece_offset);
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [position, point] : found) {
    point.after_point = static_cast<int>(result.points.size()) - 1;
    result.special_points.push_back(std::move(point));
  }
}

ContinuationResult PseudoArclength::run(ConstVectorRef u0, double lambda0) {
  ContinuationResult result;
  const Eigen::Index m = problem_.dimension();
  if (u0.size() != m) throw InputError("initial point has the wrong dimension");

  // The first point: corrected at fixed lambda0, oriented in the requested direction.
  BranchPoint start;
  start.u = u0;
  start.lambda = lambda0;
  start.tangent = Vector::Zero(m + 1);
  start.tangent[m] = options_.direction;
  {
    const bool natural = options_.natural;
    options_.natural = true;  // fixed-lambda correction: the constraint lambda = lambda0
    BranchPoint corrected;
    Constraint fixed = arclength_constraint(start, 0.0);
    Vector y(m + 1);
    y << u0, lambda0;
    const bool converged = correct(start, fixed, y, corrected);
    options_.natural = natural;
    if (!converged) {
      result.status = ContinuationStatus::StartFailed;
      result.stop_reason = "no convergence at the initial point";
      return result;
    }
    record_tests(corrected);
    if (!tangent_at(corrected, start.tangent)) {
      result.status = ContinuationStatus::StartFailed;
      result.stop_reason = "singular Jacobian at the initial point";
      return result;
    }
    // Not recentered: the first point stays on the caller's coordinates, where u0 was
    // given, and the first step leaves from there as the caller chose.
    result.points.push_back(std::move(corrected));
    report_progress(result);
  }
  trace(result);
  return result;
}

ContinuationResult PseudoArclength::run_from(const BranchPoint& start) {
  ContinuationResult result;
  const Eigen::Index m = problem_.dimension();
  if (start.u.size() != m || start.tangent.size() != m + 1)
    throw InputError("branch start has the wrong dimension");
  BranchPoint first = start;
  first.tangent /= weighted_norm(first.tangent);
  problem_.set_chart(first.chart);
  Vector residual, dlambda;
  Matrix du;
  if (!problem_.evaluate(first.u, first.lambda, residual, du, dlambda)) {
    result.status = ContinuationStatus::StartFailed;
    result.stop_reason = "the problem cannot be evaluated at the branch start";
    return result;
  }
  record_tests(first);
  result.points.push_back(std::move(first));
  report_progress(result);
  trace(result);
  return result;
}

int PseudoArclength::crossed_boundary(const BranchPoint& from, const BranchPoint& to) const {
  if (!signature_changed(from, to)) return -1;
  const auto tests = problem_.test_functions();
  int boundary = -1;
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    // A boundary in sight on the side left (a finite distance): the change is its
    // crossing. Far from it, the step jumped to another family instead.
    if (tests[i].kind == TestFunction::Kind::Boundary && std::isfinite(from.tests[k]))
      boundary = static_cast<int>(i);
  }
  return boundary;
}

int PseudoArclength::approached_boundary(const BranchPoint& from, const BranchPoint& to) const {
  const auto tests = problem_.test_functions();
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    // Closer by more than rounding (a family that does not move, such as an orbit without
    // impacts continued in the restitution coefficient, is not approaching anything).
    if (tests[i].kind != TestFunction::Kind::Boundary ||
        !(to.tests[k] < from.tests[k] * (1.0 - 1e-8)))
      continue;
    if (declined_distance_ > 0.0 && to.tests[k] > 0.5 * declined_distance_)
      continue;  // a passage declined near here
    // Within the threshold and coming closer (the passage declines if the boundary turns
    // out not to be on the way).
    if (to.tests[k] < options_.boundary_threshold) return static_cast<int>(i);
  }
  return -1;
}

bool PseudoArclength::receded_from_boundary(const BranchPoint& from, const BranchPoint& to) const {
  const auto tests = problem_.test_functions();
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    if (tests[i].kind == TestFunction::Kind::Boundary && to.tests[k] > from.tests[k]) return true;
  }
  return false;
}

bool PseudoArclength::land_at(const BranchPoint& from, double value, const BranchPoint& guess,
                              BranchPoint& to) {
  const Eigen::Index m = from.u.size();
  Vector prediction(m + 1);
  const double fraction =
      guess.lambda == from.lambda ? 1.0 : (value - from.lambda) / (guess.lambda - from.lambda);
  prediction << from.u + fraction * (guess.u - from.u), value;
  return land_from(from, value, std::move(prediction), to);
}

bool PseudoArclength::land_from(const BranchPoint& from, double value, Vector prediction,
                                BranchPoint& to) {
  const Eigen::Index m = from.u.size();
  Constraint fixed;
  fixed.row = Vector::Zero(m + 1);
  fixed.row[m] = 1.0;
  fixed.value = value - from.lambda;
  prediction[m] = value;
  return correct_from(from, fixed, std::move(prediction), to);
}

bool PseudoArclength::end_on_valid_range(const BranchPoint& from, double step,
                                         ContinuationResult& result) {
  const Eigen::Index m = from.u.size();
  const double reach = options_.natural ? options_.direction * step : step * from.tangent[m];
  // The corrector's iterates may go past the prediction: look twice as far.
  double valid = from.lambda, invalid = from.lambda + 2.0 * reach;
  if (problem_.valid_parameter(invalid)) return false;
  // The branch's own bound comes first when it is valid and on the way (r = 1 asked for).
  const double bound = reach > 0.0 ? options_.lambda_max : options_.lambda_min;
  const bool bound_first = (bound - valid) * (invalid - bound) >= 0.0 && problem_.valid_parameter(bound);
  if (bound_first) {
    valid = bound;
  } else {
    // The edge of the valid range, to rounding: a bisection on validity alone (no orbit).
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (valid + invalid);
      if (mid == valid || mid == invalid) break;
      (problem_.valid_parameter(mid) ? valid : invalid) = mid;
    }
    // A closed end at zero (c >= 0) is zero itself, not the last double the bisection saw.
    if (std::abs(valid) <= 1e-12 * std::abs(from.lambda) && problem_.valid_parameter(0.0)) valid = 0.0;
  }
  BranchPoint guess = from;
  guess.u = from.u + (step * (valid - from.lambda) / reach) * from.tangent.head(m);
  guess.lambda = valid;
  BranchPoint edge;
  if (!land_at(from, valid, guess, edge)) return false;
  locate_special_points(from, step * (valid - from.lambda) / reach, edge, result);
  result.points.push_back(std::move(edge));
  report_progress(result);
  result.status =
      bound_first ? ContinuationStatus::ReachedBound : ContinuationStatus::ReachedValidRangeEnd;
  result.stop_reason =
      bound_first ? "reached the parameter bound" : "reached the end of the parameter's valid range";
  return true;
}

// Growth of the step across the stall window that shows the branch leaving a hard spot.
constexpr double kLeavingGrowth = 1e3;

bool PseudoArclength::stalled(double step, ContinuationResult& result) {
  if (options_.stall_points == 0) return false;
  recent_steps_.push_back(step);
  recent_length_ += step;
  if (static_cast<int>(recent_steps_.size()) > options_.stall_points) {
    recent_length_ -= recent_steps_.front();
    recent_steps_.pop_front();
  }
  const double limit = options_.stall_points * options_.stall_fraction * options_.max_step;
  if (static_cast<int>(recent_steps_.size()) < options_.stall_points || recent_length_ >= limit)
    return false;
  // Steps that grew a thousandfold within the window leave a hard spot behind (a fold
  // beside a grazing, passed with steps near a small min_step): they do not creep.
  if (recent_steps_.back() >= kLeavingGrowth * recent_steps_.front()) return false;
  result.status = ContinuationStatus::StepTooSmall;
  result.stop_reason = "the branch stalls: its last " + std::to_string(options_.stall_points) +
                       " steps were on average shorter than " +
                       number_text(options_.stall_fraction) + " max_step, at " +
                       options_.parameter_name + " = " +
                       number_text(result.points.back().lambda);
  return true;
}

bool PseudoArclength::left_range(const BranchPoint& from, double step, ContinuationResult& result) {
  const Eigen::Index m = from.u.size();
  BranchPoint prediction = from;
  const double along = options_.natural ? options_.direction * step / from.tangent[m] : step;
  prediction.u += along * from.tangent.head(m);
  prediction.lambda += along * from.tangent[m];
  std::string why;
  if (!problem_.beyond_range(prediction.u, prediction.lambda, why)) return false;
  result.status = ContinuationStatus::LeftFamily;
  result.stop_reason = std::move(why);
  result.beyond = std::move(prediction);
  return true;
}

void PseudoArclength::append_passage(BoundaryPassage& passage, ContinuationResult& result) {
  const int offset = static_cast<int>(result.points.size());
  for (auto& p : passage.points) result.points.push_back(std::move(p));
  for (auto& p : passage.special_points) {
    p.after_point += offset;
    result.special_points.push_back(std::move(p));
  }
  if (!passage.points.empty() || !passage.special_points.empty()) report_progress(result);
}

void PseudoArclength::locate_along_passage(size_t first, const std::optional<BranchPoint>& start,
                                           ContinuationResult& result) {
  if (first == 0) return;
  std::vector<SpecialPoint> found;
  for (size_t k = first - 1; k + 1 < result.points.size(); ++k) {
    // The last point before the passage on the passage's own chart, where it has one.
    BranchPoint from = k + 1 == first && start ? *start : result.points[k];
    const BranchPoint& to = result.points[k + 1];
    if (from.chart != to.chart || from.tests.size() != to.tests.size()) continue;
    // Not across the boundary itself (a passage through a grazing): there the impact
    // signature changes and the tests jump.
    if (signature_changed(from, to)) continue;
    Vector chord(from.u.size() + 1);
    chord << to.u - from.u, to.lambda - from.lambda;
    const double length = weighted_norm(chord);
    if (!(length > 0.0)) continue;
    from.tangent = chord / length;
    problem_.set_chart(from.chart);
    // Not the fold: the walk's points carry no tangents of their own.
    std::vector<std::pair<double, SpecialPoint>> on_chord;
    locate_smooth(from, length, to, on_chord, 0.0, false);
    for (auto& [position, p] : on_chord) {
      p.after_point = static_cast<int>(k);
      found.push_back(std::move(p));
    }
  }
  if (found.empty()) return;
  for (SpecialPoint& p : found) result.special_points.push_back(std::move(p));
  std::stable_sort(result.special_points.begin(), result.special_points.end(),
                   [](const SpecialPoint& a, const SpecialPoint& b) {
                     return a.after_point < b.after_point;
                   });
  problem_.set_chart(result.points.back().chart);
}

PseudoArclength::Passage PseudoArclength::pass_boundary(int boundary, ContinuationResult& result) {
  BoundarySettings settings;
  settings.lambda_min = options_.lambda_min;
  settings.lambda_max = options_.lambda_max;
  settings.tolerance = options_.boundary_tolerance;
  settings.locate_tolerance = options_.locate_tolerance;
  settings.parameter_weight = options_.parameter_weight;
  settings.max_step = options_.max_step;
  settings.cross = !options_.stop_at_boundary;
  const double start_distance = result.points.back().tests[boundary];
  BoundaryPassage passage = problem_.pass_boundary(boundary, result.points.back(), settings);
  if (passage.declined) {
    const bool moved = !passage.points.empty();
    append_passage(passage, result);
    problem_.set_chart(result.points.back().chart);
    chord_ready_ = false;
    // Not again until the branch comes twice as close. Where it came so during the
    // passage, another of the orbit's approaches neared the surface while the passage
    // followed the one nearest at its start (which stopped short of grazing): a passage
    // from its last point follows the nearest one now.
    declined_distance_ = result.points.back().tests[boundary];
    if (moved && declined_distance_ < 0.5 * start_distance) return pass_boundary(boundary, result);
    return Passage::Declined;
  }
  if (!passage.handled) {
    result.status = ContinuationStatus::UnpassableBoundary;
    result.boundary_test = boundary;
    result.stop_reason = "reached a nonsmooth boundary (" +
                         problem_.test_functions()[static_cast<size_t>(boundary)].name + ")";
    return Passage::Ended;
  }
  const size_t before_passage = result.points.size();
  std::optional<BranchPoint> passage_start = std::move(passage.start);
  append_passage(passage, result);
  if (!passage.tests_located) locate_along_passage(before_passage, passage_start, result);
  chord_ready_ = false;  // the passage evaluated elsewhere
  if (passage.reached_bound) {
    result.status = ContinuationStatus::ReachedBound;
    result.stop_reason = passage.message.empty() ? "reached the parameter bound" : passage.message;
    return Passage::Ended;
  }
  if (!passage.crossed) {
    // Not beyond it: located and ended there as asked, or the passage failed.
    result.status = passage.located && options_.stop_at_boundary
                        ? ContinuationStatus::EndedAtBoundary
                    : passage.met_shorter_period ? ContinuationStatus::LeftFamily
                                                 : ContinuationStatus::PassageFailed;
    result.stop_reason = passage.message;
    return Passage::Ended;
  }
  if (static_cast<int>(result.points.size()) >= options_.max_points) {
    end_at_max_points(result);
    return Passage::Ended;
  }
  const Eigen::Index m = result.points.back().u.size();
  if (options_.natural && result.points.back().tangent[m] * options_.direction < 0.0) {
    result.status = ContinuationStatus::NonsmoothFold;
    result.stop_reason =
        "the branch turns back at the grazing (a nonsmooth fold), where natural-parameter "
        "continuation stops";
    return Passage::Ended;
  }
  // The next step leaves from the passage's last point, on its chart, along the tangent of
  // the problem's own Jacobian there (the passage's is that of its grazing coordinate,
  // from differences), oriented as the passage left: along the secant of its last two
  // orbits where the passage's own tangent points the other way. That tangent comes from
  // the grazing coordinate's gradient by differences, which near the grazing of a large
  // system can have the wrong sign in lambda (the 50-mass chain's branch went back the
  // way it came, through the same grazing).
  BranchPoint& last = result.points.back();
  problem_.set_chart(last.chart);
  Vector orientation = last.tangent;
  if (result.points.size() >= before_passage + 2) {
    const BranchPoint& previous = result.points[result.points.size() - 2];
    Vector secant(m + 1);
    secant << last.u - previous.u, last.lambda - previous.lambda;
    if (secant.dot(orientation) < 0.0) orientation = -orientation;
  }
  if (!problem_.evaluate(last.u, last.lambda, residual_, du_, dlambda_) ||
      !tangent_at(last, orientation)) {
    result.status = ContinuationStatus::PassageFailed;
    result.stop_reason = "the branch cannot be continued beyond the grazing";
    return Passage::Ended;
  }
  return Passage::Through;
}

double PseudoArclength::approach_distance(const ContinuationResult& result) const {
  double distance = std::numeric_limits<double>::infinity();
  if (!last_step_ || last_step_->reached + 1 != result.points.size()) return distance;
  const auto tests = problem_.test_functions();
  const Vector& now = result.points.back().tests;
  const Vector& then = result.points[last_step_->reached - 1].tests;
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    if (tests[i].kind != TestFunction::Kind::Approach || k >= now.size() || k >= then.size())
      continue;
    const double before = then[k], after = now[k];
    // Coming closer by more than rounding, as a straight line in the arclength.
    if (!(std::isfinite(before) && after > 0.0 && after < before * (1.0 - 1e-8))) continue;
    distance = std::min(distance, last_step_->length * after / (before - after));
  }
  return distance;
}

// Of the distance to an Approach test's zero, the part a step may cover while that
// distance is larger than min_step: a step that lands close to the zero converges (the
// map is smooth on this side), and the next one, a tenth as long, again.
constexpr double kApproachFraction = 0.9;

double PseudoArclength::approach_limited(double step, double distance) const {
  if (!std::isfinite(distance)) return step;
  const double limit = distance > options_.min_step ? kApproachFraction * distance
                                                    : distance + options_.min_step;
  return std::min(step, std::max(limit, options_.min_step));
}

bool PseudoArclength::signature_changed(const BranchPoint& from, const BranchPoint& to) const {
  const auto tests = problem_.test_functions();
  for (size_t i = 0; i < tests.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    if (tests[i].kind == TestFunction::Kind::ValueChange && from.tests[k] != to.tests[k])
      return true;
  }
  return false;
}

void PseudoArclength::trace(ContinuationResult& result) {
  double step = options_.initial_step;
  recent_steps_.clear();
  recent_length_ = 0.0;
  last_step_.reset();
  // The special points not yet compared with those before them (closed_on_itself): those
  // of the last step and of a passage through a boundary before it.
  size_t unchecked_special = result.special_points.size();
  while (static_cast<int>(result.points.size()) < options_.max_points) {
    const BranchPoint& from = result.points.back();
    BranchPoint next;
    const double approach = approach_distance(result);
    step = approach_limited(step, approach);
    const bool at_min_step = step <= options_.min_step * (1.0 + 1e-12);
    bool corrected = correct_along(from, step, next);
    if (!corrected &&
        (end_on_valid_range(from, step, result) || left_range(from, step, result)))
      return;
    if (corrected && !plausible_successor(from, next, step, at_min_step)) corrected = false;
    // A contact appeared or vanished inside a step that should have ended short of every
    // Approach test's zero: the trend was not straight (a fold next to a soft grazing) or
    // the step jumped to another part of the branch. A shorter one.
    if (corrected && !at_min_step && std::isfinite(approach) && approach > step &&
        signature_changed(from, next))
      corrected = false;
    if (corrected) {
      const int boundary = crossed_boundary(from, next);
      const auto b = static_cast<Eigen::Index>(boundary);
      if (boundary >= 0 && from.tests[b] > options_.boundary_threshold) {
        // A change of family far from the boundary is a jump, not a crossing.
        corrected = false;
      } else if (boundary >= 0) {
        // The step left the family across a grazing: through it from before it. If the
        // grazing is not ahead, the step jumped: a shorter one.
        const Passage passage = pass_boundary(boundary, result);
        if (passage == Passage::Ended) return;
        if (passage == Passage::Through) {
          step = options_.initial_step;
          continue;
        }
        corrected = false;
      }
    }
    if (!corrected) {
      if (at_min_step) {
        result.status = ContinuationStatus::StepTooSmall;
        // What lies closer than min_step (a fold a few 1e-8 beside a grazing) is often
        // resolved by a smaller one; a fold that turns within the corrector's tolerance
        // (absolute for orbits much smaller than 1) needs a smaller tolerance too: the
        // reason names both values.
        result.stop_reason = "step size below min_step (" + number_text(options_.min_step) +
                             "): the branch cannot be continued at " + options_.parameter_name +
                             " = " + number_text(from.lambda) +
                             "; a smaller min_step may resolve what lies there, with a smaller "
                             "corrector tolerance (now " +
                             number_text(options_.corrector_tolerance) +
                             ") where the branch turns within it";
        return;  // the points found so far are kept
      }
      step = std::max(step * options_.step_shrink, options_.min_step);
      continue;
    }
    std::string other_family;
    if (problem_.beyond_range(next.u, next.lambda, other_family) ||
        !problem_.same_family(from, next, other_family)) {
      result.status = ContinuationStatus::LeftFamily;
      result.stop_reason = std::move(other_family);
      result.beyond = std::move(next);
      return;
    }
    const bool beyond = next.lambda > options_.lambda_max || next.lambda < options_.lambda_min;
    if (beyond) {
      // Land exactly on the bound with a fixed-lambda corrector.
      const double bound =
          next.lambda > options_.lambda_max ? options_.lambda_max : options_.lambda_min;
      BranchPoint last;
      if (land_at(from, bound, next, last)) next = std::move(last);
    }
    const int boundary = beyond ? -1 : approached_boundary(from, next);
    if (receded_from_boundary(from, next)) declined_distance_ = 0.0;
    locate_special_points(from, step, next, result);
    const double turn = turn_degrees(from, next);
    const bool recentered = !beyond && recenter(next);
    const int iterations = next.corrector_iterations;
    const bool by_chord = next.by_chord;
    const bool contacts_changed = signature_changed(from, next);
    last_step_ = TakenStep{step, result.points.size()};
    keep_curvature(from, next, step, !contacts_changed && !recentered);
    result.points.push_back(std::move(next));
    report_progress(result);
    // Past a nonsmooth point (a contact appeared or vanished) the short steps that closed
    // in on it are no stall, nor those growing again beyond it: the window starts anew.
    if (contacts_changed) {
      recent_steps_.clear();
      recent_length_ = 0.0;
    }
    if (stalled(step, result) || closed_on_itself(unchecked_special, result)) return;
    unchecked_special = result.special_points.size();
    if (beyond) {
      result.status = ContinuationStatus::ReachedBound;
      result.stop_reason = "reached the parameter bound";
      return;
    }
    if (boundary >= 0) {
      const Passage passage = pass_boundary(boundary, result);
      if (passage == Passage::Ended) return;
      if (passage == Passage::Through) step = options_.initial_step;
    }
    // A corner (a contact appeared or vanished) is no bend: its turn says nothing of the
    // steps beyond it.
    if (options_.target_turn_degrees > 0.0 && !contacts_changed &&
        turn > options_.target_turn_degrees)
      step = std::max(step * std::max(options_.step_shrink, options_.target_turn_degrees / turn),
                      options_.min_step);
    else if (iterations <= (by_chord ? options_.fast_chord_iterations : options_.fast_iterations))
      step = std::min(step * options_.step_growth, options_.max_step);
    else if (!by_chord && iterations > options_.fast_iterations + 2)
      step = std::max(step * options_.step_shrink, options_.min_step);
  }
  end_at_max_points(result);
}

namespace {

// The same point to the precision special points are located to (`agreement`, relative):
// its parameter, and its state on the same chart or, where the charts differ (a section
// that moved), the problem's data of the point (an orbit's amplitudes and multipliers)
// without those that depend on the chart.
bool same_located_point(const SpecialPoint& a, const SpecialPoint& b, double agreement,
                        const ZeroProblem& problem) {
  const bool same_chart = a.chart == b.chart;
  // Entries that are not finite (an orbit's min_gap without a near approach is inf) match
  // only themselves; the others agree relative to the largest finite one.
  const auto close = [&](const Vector& x, const Vector& y) {
    if (x.size() == 0 || x.size() != y.size()) return false;
    double largest = 0.0, difference = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      if (!same_chart && problem.chart_dependent(i)) continue;
      if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
        if (!(x[i] == y[i])) return false;
        continue;
      }
      largest = std::max(largest, std::abs(x[i]));
      difference = std::max(difference, std::abs(x[i] - y[i]));
    }
    return difference <= agreement * (1.0 + largest);
  };
  if (a.type != b.type || a.custom_name != b.custom_name || a.detail != b.detail) return false;
  if (std::abs(a.lambda - b.lambda) > agreement * (1.0 + std::abs(a.lambda))) return false;
  return same_chart ? close(a.u, b.u) : close(a.data, b.data);
}

}  // namespace

bool PseudoArclength::closed_on_itself(size_t first, ContinuationResult& result) {
  // A closed curve turns in the parameter on its way back: a fold between the two visits
  // (two points of one kind located at one place without one are a degenerate point, such
  // as a grazing of the gap and of the impact velocity at once).
  const auto fold_between = [&](size_t j, size_t k) {
    for (size_t i = j + 1; i < k; ++i)
      if (result.special_points[i].type == SpecialPointType::Fold) return true;
    return false;
  };
  // Two locatings of one point agree to a few times the locating's tolerance (at the
  // defaults, 1e-9 of the range, two orders below the floor).
  const double agreement = std::max(1e-7, 4.0 * options_.locate_tolerance);
  for (size_t k = first; k < result.special_points.size(); ++k)
    for (size_t j = 0; j < k; ++j) {
      const SpecialPoint& again = result.special_points[k];
      if (!same_located_point(again, result.special_points[j], agreement, problem_) ||
          !fold_between(j, k))
        continue;
      result.status = ContinuationStatus::ClosedLoop;
      result.stop_reason = "the branch closed on itself: it reached its " + again.type_name() +
                           " at " + options_.parameter_name + " = " + number_text(again.lambda) +
                           " again (a closed curve, traced once)";
      // Each special point and row once: the loop ends at the row before the repeated
      // point (the rows after it trace the loop again).
      const auto last_row = static_cast<size_t>(std::max(again.after_point, 0)) + 1;
      if (last_row < result.points.size()) result.points.resize(last_row);
      result.special_points.resize(k);
      return true;
    }
  return false;
}

void PseudoArclength::end_at_max_points(ContinuationResult& result) const {
  result.status = ContinuationStatus::ReachedMaxPoints;
  result.stop_reason = "reached max_points";
  const auto window = static_cast<double>(recent_steps_.size());
  if (options_.stall_points == 0 || static_cast<int>(recent_steps_.size()) < options_.stall_points ||
      recent_length_ >= 1e-2 * window * options_.max_step)
    return;
  // Steps that neither fail nor grow: each corrector needs a few iterations more than a
  // fast one, as where the maps' error is near the tolerance or their Jacobian is off.
  const double mean = recent_length_ / window;
  result.stop_reason += "; its last " + std::to_string(options_.stall_points) +
                        " steps averaged " + number_text(mean) + " (" +
                        number_text(mean / options_.max_step) + " max_step) at " +
                        options_.parameter_name + " = " +
                        number_text(result.points.back().lambda) +
                        ": a step grows only when its corrector converges fast (Newton within " +
                        std::to_string(options_.fast_iterations) + " iterations, the chord within " +
                        std::to_string(options_.fast_chord_iterations) +
                        "); slower correctors keep it as it is: the maps' error near the "
                        "corrector tolerance (now " + number_text(options_.corrector_tolerance) +
                        "; a larger one may let the steps grow), or a Jacobian that is not the "
                        "maps' derivative";
}

}  // namespace libcont
