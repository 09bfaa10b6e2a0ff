// The continuation engine (pseudo_arclength.hpp) on small zero problems whose
// branches and special points are known in closed form:
// - the circle u^2 + lambda^2 = 1: two folds (lambda = +-1, u = 0), the branch goes round;
// - the cubic u^3 - u + lambda = 0: folds at u = -+1/sqrt(3), lambda = -+2/(3 sqrt(3));
//   its middle part is reachable only through the turning points;
// - a problem with its own test functions (a sign change and an integer value change)
//   at known places.
// Natural-parameter continuation (ContinuationOptions::natural) must stop at a fold
// instead of passing it.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcont/input_error.hpp"
#include "libcont/pseudo_arclength.hpp"

using libcont::ConstVectorRef;
using libcont::ContinuationOptions;
using libcont::ContinuationResult;
using libcont::ContinuationStatus;
using libcont::Matrix;
using libcont::PseudoArclength;
using libcont::SpecialPoint;
using libcont::SpecialPointType;
using libcont::TestFunction;
using libcont::Vector;
using libcont::ZeroProblem;

namespace {

Vector scalar(double u) { return Vector::Constant(1, u); }

// The line u = lambda, evaluated wherever defined_at(lambda): the branch of the problems
// below that differ only in their test functions.
class IdentityLine : public ZeroProblem {
 public:
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    if (!defined_at(lambda)) return false;
    residual = scalar(u[0] - lambda);
    du = Matrix::Constant(1, 1, 1.0);
    dlambda = scalar(-1.0);
    return true;
  }

 protected:
  virtual bool defined_at(double /*lambda*/) const { return true; }
};

// u^2 + lambda^2 - 1 = 0.
class Circle : public ZeroProblem {
 public:
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    ++evaluations;
    residual = scalar(u[0] * u[0] + lambda * lambda - 1.0);
    du = Matrix::Constant(1, 1, 2.0 * u[0]);
    dlambda = scalar(2.0 * lambda);
    return true;
  }
  long evaluations = 0;
};

// u^3 - u + lambda = 0, i.e. lambda = u - u^3.
class Cubic : public ZeroProblem {
 public:
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    residual = scalar(u[0] * u[0] * u[0] - u[0] + lambda);
    du = Matrix::Constant(1, 1, 3.0 * u[0] * u[0] - 1.0);
    dlambda = scalar(1.0);
    return true;
  }
};

const double fold_u = 1.0 / std::sqrt(3.0);                 // |u| at the cubic's folds
const double fold_lambda = 2.0 / (3.0 * std::sqrt(3.0));    // |lambda| there

std::vector<const SpecialPoint*> of_type(const ContinuationResult& r, SpecialPointType type) {
  std::vector<const SpecialPoint*> out;
  for (const auto& s : r.special_points)
    if (s.type == type) out.push_back(&s);
  return out;
}

// A 2-dimensional problem along the straight line u = (lambda, 2 lambda) with two test
// functions of its own: a sign change at u_0 = 0.3 and an integer that steps at
// u_0 = 0.55 and at u_0 = 0.8; a third sign change at u_0 = 0.9 that classify() rejects.
class Line : public ZeroProblem {
 public:
  int dimension() const override { return 2; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    residual.resize(2);
    residual << u[0] - lambda, u[1] - 2.0 * lambda;
    du = Matrix::Identity(2, 2);
    dlambda.resize(2);
    dlambda << -1.0, -2.0;
    return true;
  }
  std::vector<TestFunction> test_functions() const override {
    return {{"crossing", TestFunction::Kind::SignChange},
            {"step", TestFunction::Kind::ValueChange},
            {"spurious", TestFunction::Kind::SignChange}};
  }
  Vector test_values(ConstVectorRef u, double) override {
    Vector v(3);
    v << u[0] - 0.3, (u[0] > 0.55) + (u[0] > 0.8), u[0] - 0.9;
    return v;
  }
  std::optional<SpecialPointType> classify(int i, ConstVectorRef, double) override {
    if (i == 2) return std::nullopt;
    return test_functions()[static_cast<size_t>(i)].type;
  }
};

}  // namespace

// The circle is a closed curve: the branch passes both folds and ends where it would locate
// the first again (ContinuationStatus::ClosedLoop), each row and fold once.
TEST_CASE("Circle: both folds located to locate_tolerance, the branch closes after one turn",
          "[continuation]") {
  for (const double tolerance : {1e-3, 1e-6, 1e-10}) {
    INFO("locate_tolerance " << tolerance);
    Circle circle;
    ContinuationOptions options;
    options.initial_step = 0.01;
    options.max_step = 0.05;
    options.locate_tolerance = tolerance;
    options.max_points = 400;  // circumference 2 pi at <= 0.05 per step: > 1.5 turns
    PseudoArclength engine(circle, options);
    const ContinuationResult result = engine.run(scalar(1.0), 0.0);
    REQUIRE(result.points.size() >= 100);
    INFO("stop: " << result.stop_reason << ", points " << result.points.size());
    CHECK(result.ok());
    CHECK(result.status == ContinuationStatus::ClosedLoop);
    CHECK(result.stop_reason.find("closed on itself: it reached its fold at lambda = ") !=
          std::string::npos);

    // Every point on the circle; the angle advances monotonically (turning points
    // passed, no reversal), once round: short of a full turn by less than a step beyond
    // the fold at lambda = 1 (the rows from the one before the fold's second visit on
    // would trace the circle again).
    double turned = 0.0;
    for (size_t i = 0; i < result.points.size(); ++i) {
      const auto& p = result.points[i];
      CHECK(std::abs(p.u[0] * p.u[0] + p.lambda * p.lambda - 1.0) <=
            options.corrector_tolerance * (1.0 + std::abs(p.u[0])));
      CHECK(std::abs(p.tangent.norm() - 1.0) <= 1e-12);
      if (i > 0) {
        const auto& q = result.points[i - 1];
        // Counter-clockwise in (lambda, u): from (0, 1) towards (1, 0).
        const double step = std::atan2(p.u[0] * q.lambda - p.lambda * q.u[0],
                                       p.lambda * q.lambda + p.u[0] * q.u[0]);
        CHECK(step < 0.0);
        CHECK(std::abs(step) <= options.max_step * 1.01);
        turned += std::abs(step);
      }
    }
    // From (0, 1) to the fold (1, 0) is a quarter turn; the last row lies before its
    // second visit, at most a step short of it.
    CHECK(turned > 2.5 * std::numbers::pi - options.max_step * 1.01);
    CHECK(turned < 2.5 * std::numbers::pi);

    // Folds at lambda = 1, then -1, each once, within the tolerance in arclength.
    const auto folds = of_type(result, SpecialPointType::Fold);
    REQUIRE(folds.size() == 2);
    CHECK(result.special_points.size() == 2);
    for (size_t k = 0; k < folds.size(); ++k) {
      const double expected = k % 2 == 0 ? 1.0 : -1.0;
      const double distance = std::hypot(folds[k]->u[0], folds[k]->lambda - expected);
      INFO("fold " << k << " at lambda = " << folds[k]->lambda << ", u = " << folds[k]->u[0]
                   << ", distance from the exact fold " << distance);
      CHECK(distance <= 2.0 * tolerance + 1e-9);
      // Reported between the right pair of branch points.
      const auto& before = result.points[static_cast<size_t>(folds[k]->after_point)];
      const auto& after = result.points[static_cast<size_t>(folds[k]->after_point) + 1];
      CHECK(before.tangent[1] * after.tangent[1] < 0.0);
    }
  }
}

TEST_CASE("Cubic: the S-shaped branch is traced through both turning points",
          "[continuation]") {
  Cubic cubic;
  ContinuationOptions options;
  options.direction = -1;
  options.lambda_min = -2.0;
  options.lambda_max = 2.5;
  options.max_step = 0.05;
  options.locate_tolerance = 1e-8;
  PseudoArclength engine(cubic, options);
  // Start from a rough guess: corrected at fixed lambda = 2 first (root u = -1.5214).
  const ContinuationResult result = engine.run(scalar(-1.4), 2.0);
  INFO("stop: " << result.stop_reason << ", points " << result.points.size());
  REQUIRE(result.ok());
  CHECK(result.status == ContinuationStatus::ReachedBound);
  CHECK(result.stop_reason == "reached the parameter bound");
  REQUIRE(result.points.size() > 20);
  const auto& first = result.points.front();
  const auto& last = result.points.back();
  CHECK(first.lambda == 2.0);
  CHECK(std::abs(first.u[0] * first.u[0] * first.u[0] - first.u[0] + 2.0) <= 1e-9);
  CHECK(first.u[0] < -1.0);
  // Landed exactly on the bound, on the right-hand part of the S.
  CHECK(last.lambda == Approx(-2.0).margin(1e-12));
  CHECK(last.u[0] > 1.0);

  bool visited_middle = false;
  for (const auto& p : result.points) {
    CHECK(std::abs(p.u[0] * p.u[0] * p.u[0] - p.u[0] + p.lambda) <=
          options.corrector_tolerance * (1.0 + std::abs(p.u[0])));
    visited_middle = visited_middle || std::abs(p.u[0]) < 0.5 * fold_u;
  }
  CHECK(visited_middle);

  const auto folds = of_type(result, SpecialPointType::Fold);
  REQUIRE(folds.size() == 2);
  // First the lower fold (u = -1/sqrt 3), then the upper one.
  const double expected_u[2] = {-fold_u, fold_u};
  const double expected_lambda[2] = {-fold_lambda, fold_lambda};
  for (int k = 0; k < 2; ++k) {
    INFO("fold " << k << ": lambda = " << folds[k]->lambda << ", u = " << folds[k]->u[0]);
    CHECK(std::hypot(folds[k]->u[0] - expected_u[k], folds[k]->lambda - expected_lambda[k]) <=
          2.0 * options.locate_tolerance + 1e-9);
  }
  CHECK(folds[0]->after_point < folds[1]->after_point);
}

TEST_CASE("Natural-parameter continuation steps in lambda and stops at a fold",
          "[continuation]") {
  Cubic cubic;
  ContinuationOptions options;
  options.natural = true;
  options.direction = -1;
  options.lambda_min = -2.0;
  options.max_step = 0.05;
  options.min_step = 1e-6;
  PseudoArclength engine(cubic, options);
  const ContinuationResult result = engine.run(scalar(-1.5), 2.0);
  INFO("stop: " << result.stop_reason << ", points " << result.points.size());
  REQUIRE(result.points.size() > 20);
  for (size_t i = 0; i < result.points.size(); ++i) {
    const auto& p = result.points[i];
    CHECK(std::abs(p.u[0] * p.u[0] * p.u[0] - p.u[0] + p.lambda) <=
          options.corrector_tolerance * (1.0 + std::abs(p.u[0])));
    // Never on the middle part of the S: that needs a turning point.
    CHECK(std::abs(p.u[0]) >= fold_u - 1e-6);
    if (i > 0) {
      // Monotone in lambda, steps in lambda of at most max_step.
      const double dl = p.lambda - result.points[i - 1].lambda;
      CHECK(dl < 0.0);
      CHECK(-dl <= options.max_step * (1.0 + 1e-12));
    }
  }
  // The left part of the S ends at the fold: natural continuation cannot pass it. It
  // either stops there (step below min_step) or, if it jumps, lands on the right part
  // beyond lambda = -2 / (3 sqrt 3); it must not report a fold (it has no fold test).
  CHECK(of_type(result, SpecialPointType::Fold).empty());
  const auto& last = result.points.back();
  if (last.u[0] < 0.0) {
    CHECK_FALSE(result.ok());
    CHECK(result.status == ContinuationStatus::StepTooSmall);
    CHECK(last.lambda == Approx(-fold_lambda).margin(1e-3));
  } else {
    WARN("natural continuation jumped over the fold onto the other part of the branch");
  }
}

TEST_CASE("Natural-parameter continuation reaches the bound on a monotone branch",
          "[continuation]") {
  Cubic cubic;
  ContinuationOptions options;
  options.natural = true;
  options.direction = -1;
  options.lambda_min = 1.0;  // left part of the S only: u from -1.52 to -1.32
  options.initial_step = 0.01;
  options.max_step = 0.01;
  PseudoArclength engine(cubic, options);
  const ContinuationResult result = engine.run(scalar(-1.5), 2.0);
  INFO("stop: " << result.stop_reason);
  REQUIRE(result.ok());
  CHECK(result.status == ContinuationStatus::ReachedBound);
  // Equal steps of max_step in lambda from 2 to the bound 1: 100 steps, 101 points.
  CHECK(result.points.size() == 101);
  for (size_t i = 0; i < result.points.size(); ++i)
    CHECK(result.points[i].lambda == Approx(2.0 - 0.01 * static_cast<double>(i)).margin(1e-9));
  CHECK(result.points.back().lambda == Approx(1.0).margin(1e-12));
}

TEST_CASE("A problem's own test functions: sign and value changes located, rejected ones "
          "dropped",
          "[continuation]") {
  Line line;
  ContinuationOptions options;
  options.lambda_min = -1.0;
  options.lambda_max = 1.0;
  options.initial_step = 0.07;
  options.max_step = 0.07;
  options.locate_tolerance = 1e-9;
  PseudoArclength engine(line, options);
  const ContinuationResult result = engine.run(Vector::Zero(2), 0.0);
  INFO("stop: " << result.stop_reason);
  REQUIRE(result.ok());
  CHECK(result.points.back().lambda == Approx(1.0).margin(1e-12));
  // crossing at lambda = 0.3, steps at 0.55 and 0.8, nothing at 0.9, no fold. The
  // problem's own points are Custom, named by their test functions.
  REQUIRE(result.special_points.size() == 3);
  const auto& sp = result.special_points;
  for (const auto& s : sp) CHECK(s.type == SpecialPointType::Custom);
  CHECK(sp[0].custom_name == "crossing");
  CHECK(sp[1].custom_name == "step");
  CHECK(sp[2].type_name() == "step");
  // Arclength along the line is sqrt(5) * lambda: the bracket bounds lambda to tol.
  CHECK(sp[0].lambda == Approx(0.3).margin(1e-9));
  CHECK(sp[1].lambda == Approx(0.55).margin(1e-9));
  CHECK(sp[2].lambda == Approx(0.8).margin(1e-9));
  // The located point of a value change lies on the far side of the change.
  CHECK(sp[1].tests[1] == 1.0);
  CHECK(sp[2].tests[1] == 2.0);
  for (const auto& s : sp) {
    CHECK(s.u[0] == Approx(s.lambda).margin(1e-12));
    CHECK(s.u[1] == Approx(2.0 * s.lambda).margin(1e-12));
  }
}

namespace {

// The line u = lambda with three sign-change tests: a pole 1 / (u - 0.4), a jump from
// 0.26 to -0.14 at u = 0.6 (as a null vector's normalisation flips its sign), and a zero
// at u = 0.7.
class Jumps : public IdentityLine {
 public:
  std::vector<TestFunction> test_functions() const override {
    return {{"pole", TestFunction::Kind::SignChange},
            {"flip", TestFunction::Kind::SignChange},
            {"zero", TestFunction::Kind::SignChange}};
  }
  Vector test_values(ConstVectorRef u, double) override {
    Vector v(3);
    v << 1.0 / (u[0] - 0.4), (u[0] < 0.6 ? 0.2 : -0.2) + 0.1 * u[0], u[0] - 0.7;
    return v;
  }
};

}  // namespace

TEST_CASE("sign changes by a jump (a pole, a flip) are not reported, zeros are", "[continuation]") {
  Jumps jumps;
  ContinuationOptions options;
  options.lambda_min = 0.0;
  options.lambda_max = 1.0;
  options.initial_step = options.max_step = 0.07;
  options.locate_tolerance = 1e-9;
  const ContinuationResult result = PseudoArclength(jumps, options).run(Vector::Constant(1, 0.05), 0.05);
  INFO("stop: " << result.stop_reason);
  REQUIRE(result.ok());
  REQUIRE(result.special_points.size() == 1);
  CHECK(result.special_points[0].custom_name == "zero");
  CHECK(result.special_points[0].lambda == Approx(0.7).margin(1e-9));
}

TEST_CASE("Continuation options are validated", "[continuation]") {
  Circle circle;
  ContinuationOptions bad_steps;
  bad_steps.min_step = 0.2;  // above initial_step
  CHECK_THROWS_AS(PseudoArclength(circle, bad_steps), libcont::InputError);
  ContinuationOptions bad_direction;
  bad_direction.direction = 0;
  CHECK_THROWS_AS(PseudoArclength(circle, bad_direction), libcont::InputError);
  ContinuationOptions bad_bounds;
  bad_bounds.lambda_min = 1.0;
  bad_bounds.lambda_max = 0.0;
  CHECK_THROWS_AS(PseudoArclength(circle, bad_bounds), libcont::InputError);
  // validate() names the field.
  CHECK_THROWS_WITH(bad_steps.validate(), Catch::Contains("min_step"));
  CHECK_THROWS_WITH(bad_direction.validate(), Catch::Contains("direction"));
  CHECK_THROWS_WITH(bad_bounds.validate(), Catch::Contains("lambda_min"));
  ContinuationOptions bad_shrink;
  bad_shrink.step_shrink = 1.5;
  CHECK_THROWS_WITH(bad_shrink.validate(), Catch::Contains("step_shrink"));
  ContinuationOptions bad_user_value;
  bad_user_value.user_values = {0.5, std::nan("")};
  CHECK_THROWS_WITH(bad_user_value.validate(), Catch::Contains("user_values"));
  CHECK_NOTHROW(ContinuationOptions{}.validate());
  PseudoArclength engine(circle, ContinuationOptions{});
  CHECK_THROWS_AS(engine.run(Vector::Zero(2), 0.0), libcont::InputError);
}

namespace {

// u = sin(lambda / width) / 100: a branch that turns every `width` in lambda, so that its
// steps stay near `width` (ContinuationOptions::max_turn_degrees); with width far below
// max_step it advances as a curve creeping towards a singular point does (the grazing of a
// soft contact, which no test function sees).
class Ripple : public ZeroProblem {
 public:
  explicit Ripple(double width) : width_(width) {}
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    residual = scalar(u[0] - 0.01 * std::sin(lambda / width_));
    du = Matrix::Constant(1, 1, 1.0);
    dlambda = scalar(-0.01 * std::cos(lambda / width_) / width_);
    return true;
  }

 private:
  double width_;
};

}  // namespace

TEST_CASE("a branch whose steps stay far below max_step stalls instead of spending its points",
          "[engine]") {
  // Steps of about 1e-6 against max_step 0.1: with stall detection off the run spends its
  // whole budget (2000 points for lambda < 0.01); on, it ends after stall_points such steps,
  // every point kept and on the branch, with StepTooSmall and a reason saying so. The
  // corrector resolves the ripple's crests (radius of curvature 1e-10) to 1e-13, so that
  // no step at min_step lands farther than the step allows.
  ContinuationOptions o;
  o.initial_step = 1e-3;
  o.max_step = 0.1;
  o.min_step = 1e-12;
  o.corrector_tolerance = 1e-13;
  o.lambda_max = 10.0;
  o.max_points = 2000;
  Ripple problem(1e-6);
  o.stall_points = 0;
  const ContinuationResult creeping = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  o.stall_points = 50;
  const ContinuationResult stalled = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  INFO(creeping.stop_reason << " (" << creeping.points.size() << " points); "
                            << stalled.stop_reason << " (" << stalled.points.size() << " points)");
  CHECK(creeping.status == ContinuationStatus::ReachedMaxPoints);
  CHECK(stalled.status == ContinuationStatus::StepTooSmall);
  CHECK(stalled.stop_reason.starts_with("the branch stalls"));
  CHECK(stalled.stop_reason.find(", at lambda = ") != std::string::npos);
  CHECK(stalled.points.size() < 200);
  // The reason names the continued parameter by its name when the caller gives it.
  o.parameter_name = "omega";
  const ContinuationResult named = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  CHECK(named.stop_reason.find(", at omega = ") != std::string::npos);
  CHECK(named.stop_reason.find("lambda") == std::string::npos);
  for (const auto& p : stalled.points)
    CHECK(std::abs(p.u[0] - 0.01 * std::sin(p.lambda / 1e-6)) <= 1e-8);
  o.stall_points = -1;
  CHECK_THROWS_AS(o.validate(), libcont::InputError);
}

TEST_CASE("a branch that creeps to max_points says how its steps went", "[engine]") {
  // Steps that never grow (no corrector counts as fast) stay at their first size, 1e-4 of
  // max_step, above the stall limit: the run ends at max_points, and the reason gives the
  // last steps' size against max_step and what keeps a step from growing. A branch whose
  // steps grew gets no such words.
  ContinuationOptions o;
  o.initial_step = 1e-4;
  o.max_step = 1.0;
  o.lambda_max = 0.9;
  o.max_points = 60;
  o.chord_iterations = 0;
  o.fast_iterations = 0;
  Circle circle;
  const ContinuationResult creeping = PseudoArclength(circle, o).run(scalar(1.0), 0.0);
  INFO(creeping.stop_reason);
  CHECK(creeping.status == ContinuationStatus::ReachedMaxPoints);
  CHECK(creeping.stop_reason.starts_with("reached max_points; its last 50 steps averaged 1e-04 "
                                         "(1e-04 max_step) at lambda = "));
  CHECK(creeping.stop_reason.find("Newton within 0 iterations") != std::string::npos);
  CHECK(creeping.stop_reason.find("a larger one may let the steps grow") != std::string::npos);
  o.fast_iterations = 3;
  o.max_points = 8;
  const ContinuationResult growing = PseudoArclength(circle, o).run(scalar(1.0), 0.0);
  CHECK(growing.status == ContinuationStatus::ReachedMaxPoints);
  CHECK(growing.stop_reason == "reached max_points");
}

TEST_CASE("a point at min_step farther than the step allows is refused", "[engine]") {
  // The ripple's crests (radius of curvature 1e-10) with the corrector at 1e-9: there its
  // points land up to a thousand min_steps aside on the arclength's hyperplane. Taken,
  // they walked the branch by jumps (it then stalled 50 points later); refused, the branch
  // ends at the first crest, below min_step, every point on it.
  ContinuationOptions o;
  o.initial_step = 1e-3;
  o.max_step = 0.1;
  o.min_step = 1e-12;
  o.lambda_max = 10.0;
  Ripple ripple(1e-6);
  const ContinuationResult r = PseudoArclength(ripple, o).run(scalar(0.0), 0.0);
  INFO(r.stop_reason << " (" << r.points.size() << " points)");
  CHECK(r.status == ContinuationStatus::StepTooSmall);
  CHECK(r.stop_reason.starts_with("step size below min_step"));
  CHECK(r.points.back().lambda < 2e-6);  // the first crest is at pi / 2 * 1e-6
  for (const auto& p : r.points)
    CHECK(std::abs(p.u[0] - 0.01 * std::sin(p.lambda / 1e-6)) <= 1e-8);
}

TEST_CASE("steps that grow from near min_step leave a hard spot and do not stall", "[engine]") {
  // From a step of 1e-14 growing by 1.5 a step, the first 50 steps sum to about 2e-5,
  // below the stall window's 50 * 1e-4 * 0.1: without the growth rule the run would end
  // there, 2e-5 along the line (as after a fold passed beside a soft grazing).
  ContinuationOptions o;
  o.initial_step = 1e-14;
  o.min_step = 1e-14;
  o.max_step = 0.1;
  o.lambda_max = 1.0;
  o.max_points = 2000;
  IdentityLine line;
  const ContinuationResult r = PseudoArclength(line, o).run(scalar(0.0), 0.0);
  INFO(r.stop_reason << " (" << r.points.size() << " points)");
  CHECK(r.status == ContinuationStatus::ReachedBound);
  CHECK(r.points.back().lambda == 1.0);
  // Steps that do not grow still stall: the ripple above, whatever its first step.
  Ripple ripple(1e-6);
  o.lambda_max = 10.0;
  o.min_step = 1e-12;
  o.initial_step = 1e-3;
  o.corrector_tolerance = 1e-13;
  CHECK(PseudoArclength(ripple, o).run(scalar(0.0), 0.0).stop_reason.starts_with(
      "the branch stalls"));
}

namespace {

// u = lambda, with a test lambda - 1/2 and no evaluation possible for lambda in (0.45, 0.6):
// steps can cross that strip, but no correction inside it converges, so the test's zero
// cannot be narrowed down (as next to the grazing of a soft contact).
class Unreachable : public IdentityLine {
 public:
  std::vector<TestFunction> test_functions() const override {
    return {{"half", TestFunction::Kind::SignChange}};
  }
  Vector test_values(ConstVectorRef, double lambda) override { return scalar(lambda - 0.5); }

 protected:
  bool defined_at(double lambda) const override { return !(lambda > 0.45 && lambda < 0.6); }
};

}  // namespace

TEST_CASE("a special point that cannot be narrowed down is marked unlocated", "[engine]") {
  // Steps of 0.3 in arclength (0.212 in lambda): the rows 0.424 and 0.636 bracket the zero
  // at 0.5, and every correction between them fails. The point is kept, at the bracket's
  // end, with the detail "unlocated"; where the bracket can be narrowed it is not marked.
  ContinuationOptions o;
  o.initial_step = o.max_step = o.min_step = 0.3;
  o.lambda_max = 1.0;
  Unreachable problem;
  const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  INFO(result.stop_reason);
  REQUIRE(result.special_points.size() == 1);
  const SpecialPoint& p = result.special_points.front();
  CHECK(p.detail == "unlocated");
  CHECK(p.lambda > 0.6);
  Circle circle;
  ContinuationOptions round;
  round.lambda_min = -2.0;
  round.lambda_max = 2.0;
  round.max_points = 400;
  const ContinuationResult folds = PseudoArclength(circle, round).run(scalar(-1.0), 0.0);
  for (const auto& s : folds.special_points) CHECK(s.detail.empty());
}

namespace {

// u = lambda^2, written for lambda >= 1/2 as the signed square root of z = u - lambda^2
// (a map beside a grazing: F ~ sqrt of the distance), linear in z below. Newton on a
// signed square root sends z to -z: the iterates bounce across the branch forever.
class SquareRootBranch : public ZeroProblem {
 public:
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    ++evaluations;
    const double z = u[0] - lambda * lambda;
    double slope = 1.0;
    if (lambda < 0.5) {
      residual = scalar(z);
    } else {
      if (z == 0.0) return false;
      residual = scalar(std::copysign(std::sqrt(std::abs(z)), z));
      slope = 0.5 / std::sqrt(std::abs(z));
    }
    du = Matrix::Constant(1, 1, slope);
    dlambda = scalar(-2.0 * lambda * slope);
    return true;
  }
  long evaluations = 0;
};

}  // namespace

TEST_CASE("full Newton gives up on iterates that cycle instead of spending its iterations",
          "[engine]") {
  // Past lambda = 1/2 no correction converges: every step is halved down to min_step.
  // Each full Newton attempt there stops once its residual is back where it was two
  // iterations before, instead of running all max_corrector_iterations (measured: 87
  // evaluations for the run, 134 when every attempt ran all its iterations), and the
  // branch ends at the same point.
  ContinuationOptions o;
  o.initial_step = o.max_step = 0.1;
  o.min_step = 0.1 / 64;
  o.lambda_max = 1.0;
  o.chord_iterations = 0;  // full Newton from the prediction
  SquareRootBranch problem;
  const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  INFO(result.stop_reason << ", " << problem.evaluations << " evaluations, last lambda "
                          << result.points.back().lambda);
  CHECK(result.points.back().lambda < 0.5);
  CHECK(result.points.back().lambda > 0.45);
  CHECK(problem.evaluations <= 100);
}

namespace {

// The straight line u = lambda with a test function curved across its zero at
// lambda = 0.3: e^(8 (u - 0.3)) - 1, which the secant between a bracket's ends
// approaches from one side only, the far end staying where it was.
class CurvedCrossing : public ZeroProblem {
 public:
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    residual = scalar(u[0] - lambda);
    du = Matrix::Identity(1, 1);
    dlambda = scalar(-1.0);
    return true;
  }
  std::vector<TestFunction> test_functions() const override {
    return {{"crossing", TestFunction::Kind::SignChange}};
  }
  Vector test_values(ConstVectorRef u, double) override {
    ++test_evaluations;
    return scalar(std::expm1(8.0 * (u[0] - 0.3)));
  }
  long test_evaluations = 0;
};

}  // namespace

TEST_CASE("a curved test function's zero is located by Brent's method in few corrections",
          "[engine]") {
  // The first step of 0.6 brackets the zero; Brent's interpolation through the last
  // iterates narrows the bracket to 1e-10 with 13 test evaluations for the whole run, the
  // branch's points included (measured; 20 with the secant between the bracket's ends and
  // bisection, which this engine used before).
  ContinuationOptions o;
  o.initial_step = o.max_step = 0.6;
  o.lambda_max = 1.0;
  o.locate_tolerance = 1e-10;
  CurvedCrossing problem;
  const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  REQUIRE(result.ok());
  REQUIRE(result.special_points.size() == 1);
  const SpecialPoint& p = result.special_points[0];
  INFO(problem.test_evaluations << " test evaluations, lambda " << p.lambda);
  CHECK(p.detail.empty());
  CHECK(p.lambda == Approx(0.3).margin(1e-10));
  CHECK(p.tests[0] >= 0.0);  // the bracket's far side
  CHECK(problem.test_evaluations <= 15);
}

namespace {

// e^(k lambda) (u - lambda^2) = 0: the branch u = lambda^2, with a Jacobian that grows by
// e^(k step) over a step, so that chord iterations with the last point's Jacobian contract
// only by about 1 - e^(-k step) each.
class SteepBranch : public ZeroProblem {
 public:
  explicit SteepBranch(double k) : k_(k) {}
  int dimension() const override { return 1; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override {
    ++evaluations;
    const double scale = std::exp(k_ * lambda), z = u[0] - lambda * lambda;
    residual = scalar(scale * z);
    du = Matrix::Constant(1, 1, scale);
    dlambda = scalar(scale * (k_ * z - 2.0 * lambda));
    return true;
  }
  bool residual(ConstVectorRef u, double lambda, Vector& residual) override {
    ++residuals;
    residual = scalar(std::exp(k_ * lambda) * (u[0] - lambda * lambda));
    return true;
  }
  long evaluations = 0, residuals = 0;

 private:
  double k_;
};

}  // namespace

TEST_CASE("chord iterations that cannot reach the tolerance give way to full Newton at once",
          "[engine]") {
  // With k = 6 the chord iterations of many steps contract by 0.2 to 0.3: at that rate
  // their six iterations cannot reach the tolerance, and full Newton takes over at once
  // instead of after all of them. Measured: 177 residuals (327 when the chord iterations
  // ran out first), the same 61 points and 155 evaluations with the Jacobian.
  ContinuationOptions o;
  o.initial_step = o.max_step = 0.05;
  o.lambda_max = 1.0;
  o.broyden_update = false;  // plain chord iterates (Broyden's speed up: the test below)
  SteepBranch problem(6.0);
  const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
  REQUIRE(result.ok());
  double worst = 0.0;
  for (const auto& p : result.points)
    worst = std::max(worst, std::abs(p.u[0] - p.lambda * p.lambda));
  INFO(result.points.size() << " points, " << problem.residuals << " residuals, "
                            << problem.evaluations << " evaluations, worst |u - lambda^2| "
                            << worst);
  CHECK(result.points.back().lambda == Approx(1.0));
  CHECK(worst <= 1e-9);
  CHECK(problem.residuals <= 220);
}

namespace {

// The line u = lambda with a distance to a nonsmooth point at lambda = 1 (a soft contact's
// grazing, as a loading curve meets it): 1 - lambda before it, infinite past it (in
// contact, no flight turns back short of the surface). Declared as an Approach, or as a
// sign change that never happens (the engine then does not know it). The contact count
// steps at contact_at: at the grazing, or before it where the gap's trend is not straight
// (as at a fold next to a soft grazing) or a step jumps.
class LineToGrazing : public IdentityLine {
 public:
  explicit LineToGrazing(TestFunction::Kind kind, double contact_at = 1.0)
      : kind_(kind), contact_at_(contact_at) {}
  std::vector<TestFunction> test_functions() const override {
    return {{"gap", kind_}, {"contacts", TestFunction::Kind::ValueChange}};
  }
  Vector test_values(ConstVectorRef, double lambda) override {
    Vector v(2);
    v << (lambda < 1.0 ? 1.0 - lambda : std::numeric_limits<double>::infinity()),
        lambda > contact_at_ ? 1.0 : 0.0;
    return v;
  }

 private:
  TestFunction::Kind kind_;
  double contact_at_;
};

// From lambda = 0.5 towards 1.5, steps of 0.05 to 0.2.
ContinuationOptions line_options(double min_step) {
  ContinuationOptions o;
  o.initial_step = 0.05;
  o.max_step = 0.2;
  o.min_step = min_step;
  o.lambda_max = 1.5;
  o.max_points = 400;
  return o;
}

// The first point of the branch beyond lambda = value.
double first_past(const ContinuationResult& r, double value) {
  for (const auto& p : r.points)
    if (p.lambda > value) return p.lambda;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

TEST_CASE("steps close in on an Approach test's zero and cross it by at most min_step",
          "[engine]") {
  ContinuationOptions o = line_options(1e-8);
  const auto run = [&](TestFunction::Kind kind, int direction) {
    LineToGrazing problem(kind);
    o.direction = direction;
    return PseudoArclength(problem, o).run(scalar(0.5), 0.5);
  };
  const ContinuationResult approached = run(TestFunction::Kind::Approach, +1);
  const ContinuationResult unknown = run(TestFunction::Kind::SignChange, +1);
  INFO(approached.stop_reason << ", " << approached.points.size() << " points");
  REQUIRE(approached.status == ContinuationStatus::ReachedBound);
  REQUIRE(unknown.status == ContinuationStatus::ReachedBound);
  // Each step before the zero covers at most 0.9 of the distance left (the distance is
  // exact here, a straight line), or min_step, so the points come within min_step of it
  // in a few steps, and the first one past it lies at most min_step (in arclength) beyond.
  const double beyond = first_past(approached, 1.0) - 1.0;
  CHECK(beyond > 0.0);
  CHECK(beyond <= o.min_step);
  int before = 0;
  for (size_t i = 1; i < approached.points.size(); ++i) {
    const double from = approached.points[i - 1].lambda, to = approached.points[i].lambda;
    if (to >= 1.0) break;
    ++before;
    CHECK(to - from <= std::max(0.9 * (1.0 - from), o.min_step) * (1.0 + 1e-9));
  }
  CHECK(before <= 16);  // 13: geometrically close, no crawl by halved steps
  // Unknown to the engine, the zero is crossed by a plain step.
  CHECK(first_past(unknown, 1.0) - 1.0 > 1e-3);
  // Away from the zero the distance grows: no step is shortened, as without it.
  const ContinuationResult receding = run(TestFunction::Kind::Approach, -1);
  const ContinuationResult receding_unknown = run(TestFunction::Kind::SignChange, -1);
  REQUIRE(receding.points.size() == receding_unknown.points.size());
  for (size_t i = 0; i < receding.points.size(); ++i)
    CHECK(receding.points[i].lambda == receding_unknown.points[i].lambda);
}

TEST_CASE("a contact change inside a step that should end short of an Approach zero shortens "
          "the step",
          "[engine]") {
  const ContinuationOptions o = line_options(1e-8);
  LineToGrazing approached(TestFunction::Kind::Approach, 0.8);
  const ContinuationResult careful = PseudoArclength(approached, o).run(scalar(0.5), 0.5);
  LineToGrazing unknown(TestFunction::Kind::SignChange, 0.8);
  const ContinuationResult plain = PseudoArclength(unknown, o).run(scalar(0.5), 0.5);
  INFO(careful.stop_reason << ", " << careful.points.size() << " points");
  REQUIRE(careful.status == ContinuationStatus::ReachedBound);
  REQUIRE(plain.status == ContinuationStatus::ReachedBound);
  // Steps across lambda = 0.8 are refused down to min_step, which then crosses.
  CHECK(first_past(careful, 0.8) - 0.8 <= o.min_step);
  CHECK(first_past(plain, 0.8) - 0.8 > 1e-3);
}

TEST_CASE("the steps around a crossed Approach zero are no stall", "[engine]") {
  // Closing in from 0.5 to within min_step = 1e-12 of lambda = 1 takes about a dozen steps,
  // and growing again beyond it by 1.5 a step about 40 more below stall_fraction *
  // max_step: together more than stall_points (50) short steps. Past the contact change
  // the stall window starts anew, so the branch goes on to its bound.
  const ContinuationOptions o = line_options(1e-12);
  LineToGrazing problem(TestFunction::Kind::Approach);
  const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.5), 0.5);
  INFO(result.stop_reason << ", " << result.points.size() << " points");
  CHECK(result.status == ContinuationStatus::ReachedBound);
}

TEST_CASE("Broyden's update of the chord Jacobian spares evaluations, on the same branch",
          "[engine]") {
  // The steep branch of the test above, whose plain chord iterates contract by 0.2 to 0.3
  // a step: with the rank-one update after each iterate they converge superlinearly.
  const auto trace = [](bool broyden) {
    ContinuationOptions o;
    o.initial_step = o.max_step = 0.05;
    o.lambda_max = 1.0;
    o.broyden_update = broyden;
    SteepBranch problem(6.0);
    const ContinuationResult result = PseudoArclength(problem, o).run(scalar(0.0), 0.0);
    double worst = 0.0;
    for (const auto& p : result.points)
      worst = std::max(worst, std::abs(p.u[0] - p.lambda * p.lambda));
    INFO("Broyden " << broyden << ": " << result.points.size() << " points, "
                    << problem.residuals << " residuals, " << problem.evaluations
                    << " evaluations, worst |u - lambda^2| " << worst);
    CHECK(result.ok());
    CHECK(result.points.back().lambda == Approx(1.0));
    CHECK(worst <= 1e-9);
    return std::pair{problem.residuals, problem.evaluations};
  };
  const auto [plain_residuals, plain_evaluations] = trace(false);
  const auto [residuals, evaluations] = trace(true);
  INFO("residuals " << residuals << " against " << plain_residuals << ", evaluations "
                    << evaluations << " against " << plain_evaluations);
  // The updated iterates spare the full Newton restarts (evaluations with the Jacobian)
  // for a few more residuals. Weighted as for shooting, where an evaluation maps the
  // tangent flow too (3.4 plain maps on the two-body system), the work falls by a fifth.
  // Measured: 241 residuals and 82 evaluations against 177 and 155.
  CHECK(evaluations < 0.6 * plain_evaluations);
  CHECK(residuals + 3 * evaluations < 0.85 * (plain_residuals + 3 * plain_evaluations));
}

TEST_CASE("the curvature predictor lands closer: fewer corrections, the same circle", "[engine]") {
  // On the unit circle the tangent predictor misses by step^2 / 2, the curvature predictor
  // by O(step^3): at steps of 0.2 the corrector needs fewer evaluations.
  const auto trace = [](bool curvature) {
    Circle circle;
    ContinuationOptions o;
    o.initial_step = o.max_step = 0.2;  // 11.5 degrees a step, under target_turn_degrees
    o.max_points = 200;
    o.curvature_predictor = curvature;
    o.chord_iterations = 0;  // full Newton: every iterate is an evaluation
    const ContinuationResult result = PseudoArclength(circle, o).run(scalar(1.0), 0.0);
    CHECK(result.status == ContinuationStatus::ClosedLoop);
    for (const auto& p : result.points)
      CHECK(std::abs(p.u[0] * p.u[0] + p.lambda * p.lambda - 1.0) <= 1e-9 * (1.0 + std::abs(p.u[0])));
    INFO("curvature " << curvature << ": " << result.points.size() << " points, "
                      << circle.evaluations << " evaluations");
    CHECK(of_type(result, SpecialPointType::Fold).size() == 2);
    return std::pair{result.points.size(), circle.evaluations};
  };
  const auto [plain_points, plain_evaluations] = trace(false);
  const auto [points, evaluations] = trace(true);
  INFO("evaluations " << evaluations << " against " << plain_evaluations);
  CHECK(points == plain_points);
  CHECK(evaluations < 0.85 * plain_evaluations);
}

TEST_CASE("a step that turned the tangent by more than target_turn_degrees shortens the next",
          "[engine]") {
  // On the unit circle a step of arclength h turns the tangent by h radians. Steps grow by
  // step_growth from 0.05 towards max_step 1; once one turned by more than 20 degrees the
  // next is scaled by 20 / turn and turns by 20 degrees (the chord's length is the step's
  // to second order). Without the rule the steps grow until max_turn_degrees refuses them.
  for (const double target : {20.0, 90.0}) {
    Circle circle;
    ContinuationOptions o;
    o.initial_step = 0.05;
    o.max_step = 1.0;
    o.max_points = 200;
    o.target_turn_degrees = target;
    const ContinuationResult result = PseudoArclength(circle, o).run(scalar(1.0), 0.0);
    CHECK(result.status == ContinuationStatus::ClosedLoop);
    std::vector<double> turns;  // degrees, per step
    for (size_t i = 1; i < result.points.size(); ++i) {
      const auto& p = result.points[i];
      const auto& q = result.points[i - 1];
      turns.push_back(std::abs(std::atan2(p.u[0] * q.lambda - p.lambda * q.u[0],
                                          p.lambda * q.lambda + p.u[0] * q.u[0])) *
                      180.0 / std::numbers::pi);
    }
    int above = 0, over_after = 0;
    for (size_t k = 0; k + 1 < turns.size(); ++k) {
      if (turns[k] <= 20.0) continue;
      ++above;
      if (turns[k + 1] > 20.0 * 1.01) ++over_after;
    }
    INFO("target " << target << ": " << turns.size() << " steps, " << above
                   << " turned by more than 20 degrees, " << over_after
                   << " of them followed by another");
    CHECK(above >= 1);
    for (const double turn : turns) CHECK(turn <= o.max_turn_degrees);
    if (target == 20.0)
      CHECK(over_after == 0);
    else
      CHECK(over_after >= 1);
  }
}

TEST_CASE("inside a bracket the cubic through its ends predicts: a fold in few evaluations",
          "[engine]") {
  // Steps of 0.6 from (lambda, u) = (0.8, 0.6): the second passes the circle's fold at
  // lambda = 1. Each narrowing of the bracket is predicted by the cubic through its ends
  // and their tangents (to fourth order in its width), so that the chord corrector lands
  // in about one iterate: 18 evaluations for the whole run (measured; 23 with the tangent
  // predictor from the step's start, whose error stays the step's curvature term however
  // narrow the bracket).
  Circle circle;
  ContinuationOptions o;
  o.initial_step = o.max_step = 0.6;
  o.max_points = 3;
  o.target_turn_degrees = 0.0;
  o.max_turn_degrees = 60.0;
  o.locate_tolerance = 1e-10;
  const ContinuationResult result = PseudoArclength(circle, o).run(scalar(0.6), 0.8);
  const auto folds = of_type(result, SpecialPointType::Fold);
  REQUIRE(folds.size() == 1);
  INFO(circle.evaluations << " evaluations; fold at lambda = " << folds[0]->lambda
                          << ", u = " << folds[0]->u[0]);
  CHECK(std::hypot(folds[0]->u[0], folds[0]->lambda - 1.0) <= 2e-10);
  CHECK(circle.evaluations <= 20);
}

TEST_CASE("user values: the branch's point exactly at each value, at every crossing, in order",
          "[engine]") {
  // The circle from (lambda, u) = (0, 1) crosses lambda = 0.5 on its way to the fold at
  // 1 and again after it, and -0.25 twice around the fold at -1: four user points, each
  // on the circle at exactly its value, listed in branch order among the folds.
  Circle circle;
  ContinuationOptions o;
  o.initial_step = 0.01;
  o.max_step = 0.05;
  o.max_points = 400;
  o.user_values = {0.5, -0.25};
  const ContinuationResult result = PseudoArclength(circle, o).run(scalar(1.0), 0.0);
  CHECK(result.status == ContinuationStatus::ClosedLoop);
  for (const auto& p : result.special_points) {
    if (p.type != SpecialPointType::UserValue) continue;
    INFO("user point at lambda = " << p.lambda << ", u = " << p.u[0]);
    CHECK(p.detail.empty());
    CHECK(std::abs(p.u[0] * p.u[0] + p.lambda * p.lambda - 1.0) <= 1e-12);
    // Between the rows it is reported after, by lambda.
    const auto& before = result.points[static_cast<size_t>(p.after_point)];
    const auto& after = result.points[static_cast<size_t>(p.after_point) + 1];
    CHECK((before.lambda - p.lambda) * (after.lambda - p.lambda) <= 0.0);
  }
  // In branch order: type, lambda (a user value's exactly, a fold's within 1e-9) and, for
  // a user point, the side of the circle (the sign of u; a fold lies at u = 0).
  struct Expected {
    SpecialPointType type;
    double lambda, u_sign;
  };
  const Expected expected[] = {{SpecialPointType::UserValue, 0.5, 1.0},
                               {SpecialPointType::Fold, 1.0, 0.0},
                               {SpecialPointType::UserValue, 0.5, -1.0},
                               {SpecialPointType::UserValue, -0.25, -1.0},
                               {SpecialPointType::Fold, -1.0, 0.0},
                               {SpecialPointType::UserValue, -0.25, 1.0}};
  REQUIRE(result.special_points.size() >= std::size(expected));
  for (size_t k = 0; k < std::size(expected); ++k) {
    const SpecialPoint& p = result.special_points[k];
    INFO("special point " << k << ": " << p.type_name() << " at lambda = " << p.lambda
                          << ", u = " << p.u[0]);
    CHECK(p.type == expected[k].type);
    if (expected[k].type == SpecialPointType::UserValue) {
      CHECK(p.lambda == expected[k].lambda);
      CHECK(p.u[0] * expected[k].u_sign > 0.0);
    } else {
      CHECK(std::abs(p.lambda - expected[k].lambda) <= 1e-9);
    }
  }
}

TEST_CASE("a user value that a branch point lands on exactly is reported once, there",
          "[engine]") {
  // The line u = lambda in steps of 0.25 (exact in binary) has rows at 0.25, 0.5, ...
  // The value 0.5 is reported with the step that reached it, not again with the next.
  IdentityLine line;
  ContinuationOptions o;
  o.natural = true;
  o.initial_step = o.max_step = 0.25;
  o.step_growth = 1.0;
  o.lambda_max = 1.0;
  o.user_values = {0.5, 0.8};
  const ContinuationResult result = PseudoArclength(line, o).run(scalar(0.0), 0.0);
  REQUIRE(result.ok());
  const auto users = of_type(result, SpecialPointType::UserValue);
  REQUIRE(users.size() == 2);
  CHECK(users[0]->lambda == 0.5);
  CHECK(users[0]->u[0] == Approx(0.5).margin(1e-12));
  CHECK(result.points[static_cast<size_t>(users[0]->after_point) + 1].lambda == 0.5);
  CHECK(users[1]->lambda == 0.8);
  CHECK(users[1]->u[0] == Approx(0.8).margin(1e-12));

  // The same downwards (direction -1): the natural predictor steps towards the value.
  Circle circle;
  o.direction = -1;
  o.lambda_min = 0.0;
  o.lambda_max = 0.95;
  o.initial_step = o.max_step = 0.2;
  o.user_values = {0.3};
  const ContinuationResult down = PseudoArclength(circle, o).run(scalar(std::sqrt(1.0 - 0.81)), 0.9);
  REQUIRE(down.ok());
  const auto at = of_type(down, SpecialPointType::UserValue);
  REQUIRE(at.size() == 1);
  CHECK(at[0]->lambda == 0.3);
  CHECK(at[0]->u[0] == Approx(std::sqrt(1.0 - 0.09)).margin(1e-10));
}
