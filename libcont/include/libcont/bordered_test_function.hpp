#pragma once
// The minimally augmented test function of a matrix A that is singular along a curve of
// codimension-one points (Govaerts, "Numerical methods for bifurcations of dynamical
// equilibria", 2000, chapter 4; Kuznetsov, "Elements of applied bifurcation theory",
// chapter 10). With borders B and C (m x k, orthonormal columns) the bordered matrix
//
//     K = [[A, B], [C^T, 0]]
//
// is regular near a point where A has a k-dimensional null space that C is not orthogonal
// to and a range that B completes. Its solutions K [V; G] = [0; I_k] and
// K^T [W; H] = [0; I_k] give the k x k block G (H = G^T), which vanishes exactly where A
// loses rank k: A V = -B G, so G = 0 makes the columns of V null vectors of A. G is as
// smooth as A, and its derivative along a change dA of A is
//
//     dG = -W^T dA V,
//
// so that a curve of singular A is a regular zero set of k^2 scalars of size m + k instead
// of a determinant or an eigenvalue, and no second derivative enters beyond dA itself.
// The borders are refitted from the singular vectors of A at a point (set_borders) when the
// null vectors have drifted away from them (fit() below about 0.9): the zero set of G does
// not depend on them.
#include "libcont/types.hpp"

namespace libcont {

class BorderedTestFunction {
 public:
  // A of size m x m with a null space of dimension k (k = 1 for a fold or a period
  // doubling, 2 for a Neimark-Sacker point); borders start as the last k unit vectors.
  BorderedTestFunction(int size, int nullity);

  // B and C from the singular vectors of A's k smallest singular values: the left and
  // right null vectors where A is singular, their best approximations near it.
  void set_borders(ConstMatrixRef a);
  // Solves both bordered systems at A; false if K is singular (the borders no longer fit).
  bool evaluate(ConstMatrixRef a);
  // Of the last evaluate(): G (k x k), V and W (m x k).
  const Matrix& value() const { return g_; }
  const Matrix& right() const { return v_; }
  const Matrix& left() const { return w_; }
  // dG along dA at the last evaluate(): -W^T dA V.
  Matrix derivative(ConstMatrixRef da) const;
  // How well the borders fit the last evaluate(): 1 when the columns of V and W lie along
  // C and B (C^T V = B^T W = I makes each column at least unit long), towards 0 as they
  // turn away; the smallest over the columns of 1 / |V_j| and 1 / |W_j|.
  double fit() const;
  const Matrix& left_border() const { return b_; }
  const Matrix& right_border() const { return c_; }
  int nullity() const { return static_cast<int>(b_.cols()); }

 private:
  Matrix b_, c_;  // m x k
  Matrix g_, v_, w_;
};

}  // namespace libcont
