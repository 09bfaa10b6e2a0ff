#pragma once
// The curve of periodic orbits with a real Floquet multiplier at mu0 = +1 (a fold) or -1 (a
// period doubling) in two parameters (orbit_curve_problem.hpp): one condition, the
// minimally augmented test function g of A = M - mu0 I (bordered_test_function.hpp), with
// its derivative -w^T dM v. fold_curve_problem.hpp and period_doubling_curve_problem.hpp
// are this with their own codimension-two tests.
#include <optional>

#include "libcont/bordered_test_function.hpp"
#include "libcont/orbit_curve_problem.hpp"

namespace libcont {

class RealMultiplierCurveProblem : public OrbitCurveProblem {
 public:
  RealMultiplierCurveProblem(double multiplier, HybridSystem& system, std::string first,
                             std::string second, int period, FlowOptions flow = {},
                             double phase = 0.0);
  double multiplier() const { return multiplier_; }
  // Of the last evaluation: the bordered solution (g, its null vectors v and w).
  const BorderedTestFunction& test_function() const { return test_; }

 protected:
  bool conditions(const Matrix& m, ConstVectorRef auxiliary, VectorRef values) override;
  void condition_change(const Matrix& m, const Matrix& dm, ConstVectorRef auxiliary,
                        VectorRef change) const override;
  void refit(const Matrix& m, ConstVectorRef auxiliary) override;
  double fit() const override { return test_.fit(); }
  // Re prod (mu_i - target) over the Floquet multipliers of the last evaluation: zero where
  // another multiplier reaches `target` (a fold-flip point: -1 on a fold curve, +1 on a
  // period-doubling curve).
  double multiplier_product(double target) const;
  // w^T v / (|w| |v|) of the null vectors of the last evaluation: zero where a second
  // multiplier reaches mu0 (a 1:1 resonance on a fold curve, 1:2 on a period-doubling
  // curve): the eigenvalue mu0 of M becomes double with a Jordan block, and its left and
  // right eigenvectors turn orthogonal. Each null vector keeps its side of its border along
  // the curve, so the sign changes there and only there.
  double null_vectors_overlap() const;
  // The index of the test that is null_vectors_overlap (the resonance's), or -1.
  virtual int resonance_test() const { return -1; }
  // A located zero of the resonance's test is one only where a second multiplier lies next
  // to mu0 on the point after it; elsewhere the overlap changed sign by a jump (a null
  // vector's normalisation along its border passed infinity inside a step).
  std::optional<SpecialPointType> classify(int test, const RecordedPoint& before,
                                           const RecordedPoint& after) override;

 private:
  double multiplier_;
  BorderedTestFunction test_;
};

}  // namespace libcont
