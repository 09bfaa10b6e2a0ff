#pragma once
// The period-doubling (flip) curve of periodic orbits in two parameters: P^n(x) - x = 0 and
// the bordered test function of M + I (real_multiplier_curve_problem.hpp), continued in
// (p1, p2) by the pseudo-arclength engine. Codimension-two test along it:
//   fold-flip  Re prod (mu_i - 1): another multiplier at +1.
// A curve of a hard-impact orbit that runs into a grazing ends there (OrbitCurveProblem::
// pass_boundary): at a grazing the multipliers are not continuous, so the curve does not
// go on through it.
#include "libcont/real_multiplier_curve_problem.hpp"

namespace libcont {

class PeriodDoublingCurveProblem : public RealMultiplierCurveProblem {
 public:
  enum Test { FoldFlip = 0 };
  PeriodDoublingCurveProblem(HybridSystem& system, std::string first, std::string second,
                             int period, FlowOptions flow = {}, double phase = 0.0)
      : RealMultiplierCurveProblem(-1.0, system, std::move(first), std::move(second), period,
                                   flow, phase) {}

 protected:
  std::vector<TestFunction> own_tests() const override {
    return {{"fold-flip", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
  }
  Vector own_test_values(ConstVectorRef, double) override {
    return Vector::Constant(1, multiplier_product(1.0));
  }
};

}  // namespace libcont
