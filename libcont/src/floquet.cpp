#include "libcont/floquet.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace libcont {

FloquetMultipliers floquet_multipliers(ConstMatrixRef monodromy) {
  FloquetMultipliers result;
  Eigen::EigenSolver<Matrix> solver(monodromy, false);
  Eigen::VectorXcd mu = solver.eigenvalues();
  std::vector<Eigen::Index> order(static_cast<size_t>(mu.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return std::abs(mu[a]) > std::abs(mu[b]); });
  result.multipliers.resize(mu.size());
  for (Eigen::Index i = 0; i < mu.size(); ++i) result.multipliers[i] = mu[order[static_cast<size_t>(i)]];
  result.spectral_radius = mu.size() ? std::abs(result.multipliers[0]) : 0.0;
  result.stable = result.spectral_radius < 1.0;
  return result;
}

Vector exponents_from_multipliers(const FloquetMultipliers& floquet, double orbit_time) {
  Vector exponents(floquet.multipliers.size());
  for (Eigen::Index i = 0; i < exponents.size(); ++i)
    exponents[i] = std::log(std::abs(floquet.multipliers[i])) / orbit_time;
  std::sort(exponents.begin(), exponents.end(), std::greater<double>());
  return exponents;
}

double floquet_lyapunov_discrepancy(const FloquetMultipliers& floquet, double orbit_time,
                                    ConstVectorRef lyapunov_exponents) {
  const Vector implied = exponents_from_multipliers(floquet, orbit_time);
  Vector given = lyapunov_exponents;
  std::sort(given.begin(), given.end(), std::greater<double>());
  if (implied.size() != given.size()) return std::numeric_limits<double>::infinity();
  return (implied - given).cwiseAbs().maxCoeff();
}

}  // namespace libcont
