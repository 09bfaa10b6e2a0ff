#pragma once
// expm(M s) of a lifted affine mode (exact_linear_flow.hpp) of a few states from the
// eigen-decomposition of A, for the long flights between events, where the series needs
// many squarings of the (n + 3)-square (over steps of at least a scan step, where
// R(s) - I and E(s) - I are of order one and Pi R - E Pi cancels no more than the series):
//   expm(M s) = [[E(s), Pi R(s) - E(s) Pi], [0, R(s)]],   E(s) = V e^{L s} V^-1,
// A = V L V^-1 (complex, L diagonal), R(s) = expm(W s) the forcing's rotation, and Pi
// (n x 3) the periodic particular solution, A Pi - Pi W = -G with G the forcing columns of
// M: x - Pi q then obeys x' = A x. From the same decomposition,
//   p0 = -V L^-1 V^-1 g0,   p1 + i p2 = -V (L + i w)^-1 V^-1 (g1 + i g2).
// The decomposition depends on A alone and is kept while only the forcing changes (a
// loading curve's load); Pi costs two products with V and V^-1.
#include <complex>
#include <vector>

#include "libcont/types.hpp"

namespace libcont {

class EigenTransition {
 public:
  // The states of the modes served: two-state modes have their own closed form
  // (ExactLinearFlow::closed_form_transition); the products grow as n^3 in complex
  // arithmetic, and larger modes keep the series (and ModalTangent for their tangent).
  static constexpr int kMinDimension = 3, kMaxDimension = 8;
  // The largest condition number of V (1-norm) taken: rounding of order eps cond(V).
  static constexpr double kConditionLimit = 30.0;
  // The largest entry of Pi taken (balanced lifting, G of the size of A): beyond, A is so
  // near singular or resonance with w that Pi R - E Pi would lose digits to cancellation
  // even over the long steps the closed form serves (ExactLinearFlow::exponential).
  static constexpr double kLargestParticular = 1e4;

  // Decomposes A; false (and not usable) where it has no well-conditioned eigenbasis or
  // its size is outside the range served.
  bool set_dynamics(const Matrix& A);
  // Pi for the forcing columns G (n x 3) and the frequency w; false (and not usable)
  // where A is singular or in resonance with w (Pi too large), or no decomposition.
  bool set_forcing(const Matrix& G, double w);
  bool usable() const { return usable_; }
  const Matrix& particular() const { return particular_; }
  // expm(M s) into out, (n + 3) square. Only where usable().
  void transition(double s, Matrix& out) const;

 private:
  using Complex = std::complex<double>;
  int n_ = 0;
  bool decomposed_ = false, usable_ = false;
  double w_ = 0.0;
  std::vector<Complex> values_;   // L
  std::vector<Complex> vectors_;  // V, column-major n x n
  std::vector<Complex> inverse_;  // V^-1, column-major n x n
  Matrix particular_;             // Pi
  mutable std::vector<Complex> scaled_;  // e^{L s} V^-1, scratch
};

}  // namespace libcont
