#pragma once
// The period-doubling (flip) curve of periodic orbits in two parameters: P^n(x) - x = 0 and
// the bordered test function of M + I (real_multiplier_curve_problem.hpp), continued in
// (p1, p2) by the pseudo-arclength engine. Codimension-two tests along it:
//   fold-flip      Re prod (mu_i - 1): another multiplier at +1;
//   resonance-1:2  w^T v / (|w| |v|): a second multiplier at -1, where a Neimark-Sacker
//                  curve ends on the period-doubling curve (null_vectors_overlap).
// A curve of a hard-impact orbit that runs into a grazing ends there (OrbitCurveProblem::
// pass_boundary): at a grazing the multipliers are not continuous, so the curve does not
// go on through it.
#include "libcont/real_multiplier_curve_problem.hpp"

namespace libcont {

class PeriodDoublingCurveProblem : public RealMultiplierCurveProblem {
 public:
  enum Test { FoldFlip = 0, Resonance12 = 1 };
  PeriodDoublingCurveProblem(HybridSystem& system, std::string first, std::string second,
                             int period, FlowOptions flow = {}, double phase = 0.0)
      : RealMultiplierCurveProblem(-1.0, system, std::move(first), std::move(second), period,
                                   flow, phase) {}

 protected:
  int resonance_test() const override { return Resonance12; }
  std::vector<TestFunction> own_tests() const override {
    return {{"fold-flip", TestFunction::Kind::SignChange, SpecialPointType::Custom},
            {"resonance-1:2", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
  }
  Vector own_test_values(ConstVectorRef, double) override {
    Vector values(2);
    values << multiplier_product(1.0), null_vectors_overlap();
    return values;
  }
};

}  // namespace libcont
