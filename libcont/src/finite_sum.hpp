#pragma once
// Whether every one of `size` numbers is finite: x - x is 0 for a finite x and NaN
// otherwise, so one sum without a branch per entry (Eigen's allFinite tests them one by
// one). For the checks that run at every step of an integration (the exact path's scan,
// the explicit Runge-Kutta pair). The order of the sum does not matter, a NaN survives
// any: with the size fixed at compile time (Size > 0) Eigen sums in packets.
#include <Eigen/Core>

namespace libcont::detail {

template <int Size = 0>
inline bool sum_is_finite(const double* entry, Eigen::Index size) {
  if constexpr (Size > 0) {
    const Eigen::Map<const Eigen::Array<double, Size, 1>> a(entry);
    return (a - a).sum() == 0.0;
  } else {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < size; ++i) sum += entry[i] - entry[i];
    return sum == 0.0;
  }
}

}  // namespace libcont::detail
