#include "libcont/eigen_transition.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>

namespace libcont {

bool EigenTransition::set_dynamics(const Matrix& A) {
  decomposed_ = usable_ = false;
  n_ = static_cast<int>(A.rows());
  if (n_ < kMinDimension || n_ > kMaxDimension || A.cols() != n_ || !A.allFinite()) return false;
  const Eigen::EigenSolver<Matrix> solver(A, true);
  if (solver.info() != Eigen::Success) return false;
  const Eigen::MatrixXcd V = solver.eigenvectors();
  const Eigen::PartialPivLU<Eigen::MatrixXcd> lu(V);
  const Eigen::MatrixXcd inverse = lu.inverse();
  if (!inverse.allFinite()) return false;
  const double condition = V.cwiseAbs().colwise().sum().maxCoeff() *
                           inverse.cwiseAbs().colwise().sum().maxCoeff();
  if (!(condition <= kConditionLimit)) return false;
  const auto size = static_cast<size_t>(n_);
  values_.assign(solver.eigenvalues().data(), solver.eigenvalues().data() + size);
  vectors_.assign(V.data(), V.data() + size * size);
  inverse_.assign(inverse.data(), inverse.data() + size * size);
  scaled_.resize(size * size);
  decomposed_ = true;
  return true;
}

bool EigenTransition::set_forcing(const Matrix& G, double w) {
  usable_ = false;
  if (!decomposed_ || G.rows() != n_ || G.cols() != 3) return false;
  w_ = w;
  const auto n = static_cast<size_t>(n_);
  particular_.resize(n_, 3);
  // y = (L + mu)^-1 V^-1 g, then p = -V y, for mu = 0 (the constant column) and i w.
  std::vector<Complex> y(n);
  for (int column = 0; column < 2; ++column) {
    const Complex mu = column == 0 ? Complex(0.0) : Complex(0.0, w);
    for (size_t k = 0; k < n; ++k) {
      Complex sum = 0.0;
      for (size_t j = 0; j < n; ++j) {
        const Complex g = column == 0 ? Complex(G(static_cast<Eigen::Index>(j), 0))
                                      : Complex(G(static_cast<Eigen::Index>(j), 1),
                                                G(static_cast<Eigen::Index>(j), 2));
        sum += inverse_[k + j * n] * g;
      }
      const Complex d = values_[k] + mu;
      if (sum != 0.0 && d == 0.0) return false;
      y[k] = sum == 0.0 ? Complex(0.0) : sum / d;
    }
    for (size_t i = 0; i < n; ++i) {
      Complex p = 0.0;
      for (size_t k = 0; k < n; ++k) p -= vectors_[i + k * n] * y[k];
      const auto row = static_cast<Eigen::Index>(i);
      if (column == 0) {
        particular_(row, 0) = p.real();
      } else {
        particular_(row, 1) = p.real();
        particular_(row, 2) = p.imag();
      }
    }
  }
  usable_ = particular_.allFinite() && particular_.cwiseAbs().maxCoeff() <= kLargestParticular;
  return usable_;
}

void EigenTransition::transition(double s, Matrix& out) const {
  const auto n = static_cast<size_t>(n_);
  const int lifted = n_ + 3;
  out.resize(lifted, lifted);  // no allocation once it has that size
  // e^{L s} V^-1 row by row; a conjugate pair's second exponential is the conjugate.
  for (size_t k = 0; k < n; ++k) {
    Complex e;
    if (k > 0 && values_[k] == std::conj(values_[k - 1]) && values_[k].imag() != 0.0)
      e = std::conj(std::exp(values_[k - 1] * s));
    else
      e = std::exp(values_[k] * s);
    for (size_t j = 0; j < n; ++j) scaled_[k + j * n] = e * inverse_[k + j * n];
  }
  // E = Re(V e^{L s} V^-1) into the top-left block.
  double* o = out.data();
  const auto ld = static_cast<size_t>(lifted);
  for (size_t j = 0; j < n; ++j)
    for (size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (size_t k = 0; k < n; ++k) {
        const Complex v = vectors_[i + k * n], e = scaled_[k + j * n];
        sum += v.real() * e.real() - v.imag() * e.imag();
      }
      o[i + j * ld] = sum;
    }
  // R(s) and the zeros below E.
  const double c = std::cos(w_ * s), sn = std::sin(w_ * s);
  for (size_t j = 0; j < ld; ++j)
    for (size_t i = n; i < ld; ++i) o[i + j * ld] = 0.0;
  o[n + n * ld] = 1.0;
  o[(n + 1) + (n + 1) * ld] = c, o[(n + 2) + (n + 1) * ld] = sn;
  o[(n + 1) + (n + 2) * ld] = -sn, o[(n + 2) + (n + 2) * ld] = c;
  // Pi R - E Pi, R = [[1, 0, 0], [0, c, -s], [0, s, c]].
  const double* P = particular_.data();
  for (size_t i = 0; i < n; ++i) {
    const double p0 = P[i], p1 = P[i + n], p2 = P[i + 2 * n];
    double e0 = 0.0, e1 = 0.0, e2 = 0.0;
    for (size_t k = 0; k < n; ++k) {
      const double e = o[i + k * ld];
      e0 += e * P[k], e1 += e * P[k + n], e2 += e * P[k + 2 * n];
    }
    o[i + n * ld] = p0 - e0;
    o[i + (n + 1) * ld] = (p1 * c + p2 * sn) - e1;
    o[i + (n + 2) * ld] = (p2 * c - p1 * sn) - e2;
  }
}

}  // namespace libcont
