#pragma once
// x += sign b v for a single contact's gain b (one column of n entries) and one number v,
// with sign = +1 or -1: the bits of Eigen's `x.noalias() += B * c` and
// `x.noalias() -= B * c` for a dynamic B of one column and c of one entry, in a plain loop
// (Eigen's dispatch costs more than the n products). Eigen takes one row (n = 1) as an
// inner product, x + sign (b v); from two rows on its matrix-vector kernel sums each row's
// products from zero, x + sign (0 + b v), which turns a product of -0 into +0 and so
// changes x = -0 into +0. Both are kept here.
namespace libcont::detail {

inline void add_single_column(int n, const double* b, double v, double sign, double* x) {
  if (n == 1) {
    x[0] += sign * (b[0] * v);
    return;
  }
  for (int i = 0; i < n; ++i) x[i] += sign * (0.0 + b[i] * v);
}

}  // namespace libcont::detail
