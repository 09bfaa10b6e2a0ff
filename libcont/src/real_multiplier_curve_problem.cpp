#include "libcont/real_multiplier_curve_problem.hpp"

#include <complex>

#include "libcont/floquet.hpp"

namespace libcont {

RealMultiplierCurveProblem::RealMultiplierCurveProblem(double multiplier, HybridSystem& system,
                                                       std::string first, std::string second,
                                                       int period, FlowOptions flow, double phase)
    : OrbitCurveProblem(system, std::move(first), std::move(second), period, flow, phase),
      multiplier_(multiplier), test_(system.dimension(), 1) {}

bool RealMultiplierCurveProblem::conditions(const Matrix& m, ConstVectorRef, VectorRef values) {
  const Matrix a = m - multiplier_ * Matrix::Identity(m.rows(), m.cols());
  if (!test_.evaluate(a)) return false;
  values[0] = test_.value()(0, 0);
  return true;
}

void RealMultiplierCurveProblem::condition_change(const Matrix&, const Matrix& dm, ConstVectorRef,
                                                  VectorRef change) const {
  change[0] = test_.derivative(dm)(0, 0);  // dA = dM
}

void RealMultiplierCurveProblem::refit(const Matrix& m, ConstVectorRef) {
  test_.set_borders(m - multiplier_ * Matrix::Identity(m.rows(), m.cols()));
}

double RealMultiplierCurveProblem::multiplier_product(double target) const {
  std::complex<double> product = 1.0;
  for (const auto& mu : floquet_multipliers(monodromy()).multipliers) product *= mu - target;
  return product.real();
}

}  // namespace libcont
