#pragma once
// The fold (saddle-node) curve of periodic orbits in two parameters: P^n(x) - x = 0 and the
// bordered test function of M - I (real_multiplier_curve_problem.hpp), continued in
// (p1, p2) by the pseudo-arclength engine. Codimension-two tests along it:
//   cusp           the fold's quadratic coefficient a = w^T D^2 P^n (v, v) / (2 w^T v) (v, w
//                  the right and left null vectors of M - I) vanishes; the test is its
//                  numerator w^T D^2 P^n (v, v) / 2 with |v| = |w| = 1, each oriented along
//                  its border, which stays finite where w^T v passes zero; D^2 P^n (v, v)
//                  from a central difference of the monodromy's action on v,
//                  (D P^n (x + e v) - D P^n (x - e v)) v / (2 e);
//   fold-flip      Re prod (mu_i + 1): another multiplier at -1;
//   resonance-1:1  w^T v / (|w| |v|): a second multiplier at +1, where a Neimark-Sacker
//                  curve ends on the fold curve (null_vectors_overlap).
// Example (doc/library.md, section 10):
//   libcont::FoldCurveProblem problem(system, "omega", "d", 1, {}, phase);
//   problem.refit_borders(u0, eta0);   // u0 = (x, d) of a fold of a branch in eta
//   auto curve = libcont::PseudoArclength(problem, options).run(u0, eta0);
#include "libcont/real_multiplier_curve_problem.hpp"

namespace libcont {

class FoldCurveProblem : public RealMultiplierCurveProblem {
 public:
  enum Test { Cusp = 0, FoldFlip = 1, Resonance11 = 2 };
  FoldCurveProblem(HybridSystem& system, std::string first, std::string second, int period,
                   FlowOptions flow = {}, double phase = 0.0)
      : RealMultiplierCurveProblem(1.0, system, std::move(first), std::move(second), period,
                                   flow, phase) {}
  // Relative to the state's largest component, the step e of that difference: its truncation
  // error goes with its square, the maps' error (~1e-14 relative on the exact flow, ~1e-11
  // on CVODE's at its default tolerances) with its inverse.
  double quadratic_step = 1e-3;

 protected:
  int resonance_test() const override { return Resonance11; }
  std::vector<TestFunction> own_tests() const override;
  Vector own_test_values(ConstVectorRef u, double lambda) override;

 private:
  double quadratic_coefficient(ConstVectorRef u, double lambda);
};

}  // namespace libcont
