#pragma once
// Products of a lifted transition (an (N x N) square, column-major: M, its exponentials and
// their powers, block upper triangular [[X, Y], [0, Z]] with X the state's n x n) with
// blocks [z | Phi] of lifted columns (exact_linear_flow.hpp), with the sizes fixed. In a
// block the columns after the first are tangent columns (Phi, 0, 0, 0), whose image is
// (X Phi, 0, 0, 0): only X acts on them. Written out: Eigen's product of a fixed square by
// a block of dynamic width dispatches at run time, which costs more than these 25 to 64
// products. The general flow (exact_linear_flow.cpp) and the two-state scan of the exact
// path (exact_segment.cpp) share them, so that both compute the same sums in the same
// order.
namespace libcont::detail {

// One column, y = a x over the leading `Inner` rows and columns of a (the rest of y zero).
template <int N, int Inner>
inline void column_product(const double* m, const double* x, double* target) {
  double y[N];
  for (int i = 0; i < Inner; ++i) y[i] = m[i] * x[0];
  for (int j = 1; j < Inner; ++j)
    for (int i = 0; i < Inner; ++i) y[i] += m[j * N + i] * x[j];
  for (int i = 0; i < Inner; ++i) target[i] = y[i];
  for (int i = Inner; i < N; ++i) target[i] = 0.0;
}

// out = a in for the first `columns` columns of a block: the state column, then the
// tangent columns.
template <int N>
inline void block_product(const double* a, const double* in, double* out, long columns) {
  if (columns > 0) column_product<N, N>(a, in, out);
  for (long c = 1; c < columns; ++c) column_product<N, N - 3>(a, in + c * N, out + c * N);
}

}  // namespace libcont::detail
