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

// The state column's image by a whose forcing rows are exactly zero under the state
// ([0, Z] below [X, Y]): the forcing rows from Z alone, the state's rows as in
// column_product. The zeros' terms only add zeros of either sign, so the sums are
// column_product's (but for the sign of a zero).
template <int N>
inline void separate_state_product(const double* m, const double* x, double* target) {
  constexpr int n = N - 3;
  double y[N];
  for (int i = 0; i < n; ++i) y[i] = m[i] * x[0];
  for (int j = 1; j < N; ++j)
    for (int i = 0; i < n; ++i) y[i] += m[j * N + i] * x[j];
  for (int i = n; i < N; ++i) y[i] = m[n * N + i] * x[n];
  for (int j = n + 1; j < N; ++j)
    for (int i = n; i < N; ++i) y[i] += m[j * N + i] * x[j];
  for (int i = 0; i < N; ++i) target[i] = y[i];
}

// Whether the forcing rows of the lifted square a (N x N) are exactly zero under the
// state: then separate_state_product may take its state column.
template <int N>
inline bool forcing_rows_separate(const double* a) {
  for (int j = 0; j < N - 3; ++j)
    for (int i = N - 3; i < N; ++i)
      if (a[j * N + i] != 0.0) return false;
  return true;
}

// out = a in for the first `columns` columns of a block: the state column, then the
// tangent columns. Separate: a's forcing rows are zero under the state
// (forcing_rows_separate).
template <int N, bool Separate = false>
inline void block_product(const double* a, const double* in, double* out, long columns) {
  if (columns > 0) {
    if constexpr (Separate)
      separate_state_product<N>(a, in, out);
    else
      column_product<N, N>(a, in, out);
  }
  for (long c = 1; c < columns; ++c) column_product<N, N - 3>(a, in + c * N, out + c * N);
}

}  // namespace libcont::detail
