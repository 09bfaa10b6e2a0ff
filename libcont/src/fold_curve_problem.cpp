#include "libcont/fold_curve_problem.hpp"

#include <limits>

namespace libcont {

std::vector<TestFunction> FoldCurveProblem::own_tests() const {
  return {{"cusp", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"fold-flip", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"resonance-1:1", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
}

Vector FoldCurveProblem::own_test_values(ConstVectorRef u, double lambda) {
  Vector values(3);
  values << quadratic_coefficient(u, lambda), multiplier_product(-1.0), null_vectors_overlap();
  return values;
}

double FoldCurveProblem::quadratic_coefficient(ConstVectorRef u, double lambda) {
  const int n = state_dimension();
  // The null vectors of the last evaluation (at this point), each kept on its side of its
  // border along the curve; unit long, so that neither the value nor its sign depends on
  // w^T v, which vanishes at a 1:1 resonance (where a normalised by w^T v = 1 has a pole
  // and changes sign without vanishing).
  const Vector v = test_function().right().col(0).normalized();
  const Vector w = test_function().left().col(0).normalized();
  const double epsilon = quadratic_step * u.head(n).cwiseAbs().maxCoeff();
  // D^2 P^n (v, v) as the central difference of the monodromy's action on v,
  // (D P^n (x + eps v) - D P^n (x - eps v)) v / (2 eps): the integrator's error of the maps
  // is divided by eps once. A second difference of P^n divides it by eps^2: on an integrated
  // flow that error changes by jumps (another step sequence from a nearby start), and the
  // cusp test jumped by 0.4 % of its range between points 1e-10 apart in arclength
  // (the Duffing oscillator at zeta = 0.005, CVODE at rtol 1e-11), so the sign change was
  // located where it jumped, not where the coefficient vanishes.
  MapEvaluation plus, minus;
  Vector shifted = u;
  shifted.head(n) = u.head(n) + epsilon * v;
  bool ok = map_at(shifted, lambda, true, plus);
  shifted.head(n) = u.head(n) - epsilon * v;
  ok = ok && map_at(shifted, lambda, true, minus);
  ok = set_point(u, lambda) && ok;
  if (!ok || !(epsilon > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return w.dot((plus.jacobian - minus.jacobian) * v) / (4.0 * epsilon);
}

}  // namespace libcont
