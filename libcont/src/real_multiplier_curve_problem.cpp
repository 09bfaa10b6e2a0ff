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

std::optional<SpecialPointType> RealMultiplierCurveProblem::classify(int test,
                                                                    const RecordedPoint& before,
                                                                    const RecordedPoint& after) {
  if (test != resonance_test()) return OrbitCurveProblem::classify(test, before, after);
  // A double multiplier with a Jordan block splits by the square root of a perturbation:
  // next to the resonance (the bracket's width, the map's error) the two lie some 1e-5
  // from mu0; at a jump of the overlap the second multiplier is far from it.
  constexpr double kNear = 0.05;
  int near = 0;
  for (const auto& mu : multipliers_in(after.data)) near += std::abs(mu - multiplier_) <= kNear;
  if (near < 2) return std::nullopt;
  return test_functions()[static_cast<size_t>(test)].type;
}

double RealMultiplierCurveProblem::null_vectors_overlap() const {
  const Vector v = test_.right().col(0), w = test_.left().col(0);
  return w.dot(v) / (w.norm() * v.norm());
}

}  // namespace libcont
