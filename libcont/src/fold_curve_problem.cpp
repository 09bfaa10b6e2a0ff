#include "libcont/fold_curve_problem.hpp"

#include <limits>

namespace libcont {

std::vector<TestFunction> FoldCurveProblem::own_tests() const {
  return {{"cusp", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"fold-flip", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
}

Vector FoldCurveProblem::own_test_values(ConstVectorRef u, double lambda) {
  Vector values(2);
  values << quadratic_coefficient(u, lambda), multiplier_product(-1.0);
  return values;
}

double FoldCurveProblem::quadratic_coefficient(ConstVectorRef u, double lambda) {
  const int n = state_dimension();
  // The null vectors of the last evaluation (at this point): V along the border (C^T V = 1).
  const Vector v = test_function().right().col(0).normalized();
  const Vector w = test_function().left().col(0);
  const double wv = w.dot(v);
  const double epsilon = quadratic_step * u.head(n).cwiseAbs().maxCoeff();
  MapEvaluation centre, plus, minus;
  Vector shifted = u;
  bool ok = map_at(u, lambda, false, centre);
  shifted.head(n) = u.head(n) + epsilon * v;
  ok = ok && map_at(shifted, lambda, false, plus);
  shifted.head(n) = u.head(n) - epsilon * v;
  ok = ok && map_at(shifted, lambda, false, minus);
  ok = set_point(u, lambda) && ok;
  if (!ok || !(epsilon > 0.0) || wv == 0.0) return std::numeric_limits<double>::quiet_NaN();
  return w.dot(plus.x + minus.x - 2.0 * centre.x) / (2.0 * epsilon * epsilon * wv);
}

}  // namespace libcont
