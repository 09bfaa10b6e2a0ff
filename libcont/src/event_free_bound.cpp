#include "event_free_bound.hpp"

#include "machine_epsilon.hpp"
#include "modal_tangent.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

namespace libcont::detail {

namespace {
// T's condition number above which the bound would be too loose to skip anything (and
// its rounding would matter).
constexpr double kWorstCondition = 1e8;
}  // namespace

bool periodic_particular_solution(const Matrix& generator, int n, Matrix& particular) {
  const Matrix A = generator.topLeftCorner(n, n);
  const Matrix G = generator.block(0, n, n, 3);
  const Matrix W = generator.bottomRightCorner(3, 3);
  // Pi W - A Pi = G, vectorised (column-major): (W^T kron I - I kron A) vec(Pi) = vec(G).
  // Singular when A has an eigenvalue 0 or +-iw.
  Matrix K = Matrix::Zero(3 * n, 3 * n);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (W(j, i) != 0.0) K.block(i * n, j * n, n, n).diagonal().setConstant(W(j, i));
      if (i == j) K.block(i * n, j * n, n, n) -= A;
    }
  const Eigen::FullPivLU<Matrix> sylvester(K);
  if (!sylvester.isInvertible() || sylvester.rcond() < 1e-10) return false;
  const Vector g = Eigen::Map<const Vector>(G.data(), 3 * n);
  const Vector pi = sylvester.solve(g);
  particular = Eigen::Map<const Matrix>(pi.data(), n, 3);
  return particular.allFinite();
}

bool EventFreeBound::prepare(const Matrix& generator, int n, double forcing_scale,
                             const Matrix& coefficients, int events) {
  if (n == n_ && forcing_scale == forcing_scale_ && events == coefficients_.cols() &&
      generator.rows() == generator_.rows() && generator == generator_ &&
      coefficients.leftCols(events) == coefficients_)
    return available_;
  available_ = false;
  n_ = n;
  generator_ = generator;
  forcing_scale_ = forcing_scale;
  coefficients_ = coefficients.leftCols(events);
  if (n < 1 || n > kLargestDimension || events < 1) return false;
  if (!find_particular(generator, n)) return false;

  // Real block-diagonal form A = T D T^-1 (the one the modal tangent uses, shared).
  const Matrix A = generator.topLeftCorner(n, n);
  const auto modal = ModalTangent::decompose(A);
  if (!modal->exact || !(modal->condition < kWorstCondition)) return false;
  const Matrix& T = modal->T;
  const Matrix& D = modal->D;
  to_modal_ = modal->T_inverse;
  alpha_ = D.diagonal().maxCoeff();  // the largest real part

  const double w = generator(n + 2, n + 1);
  const Matrix D2t = (D * D).transpose();
  curvature_.assign(static_cast<size_t>(events), 0.0);
  harmonic_.assign(static_cast<size_t>(events), 0.0);
  for (int j = 0; j < events; ++j) {
    const Vector c_x = coefficients.col(j).head(n);
    const Vector e = T.transpose() * c_x;
    const Vector k = particular_.transpose() * c_x + coefficients.col(j).tail(3);
    curvature_[static_cast<size_t>(j)] = (D2t * e).norm();
    harmonic_[static_cast<size_t>(j)] = w * w * forcing_scale * std::hypot(k[1], k[2]);
  }
  available_ = true;
  return true;
}

bool EventFreeBound::find_particular(const Matrix& generator, int n) {
  const auto A = generator.topLeftCorner(n, n);
  if (decomposed_.rows() != n || decomposed_ != A) {
    decomposed_ = A;
    eigen_.set_dynamics(decomposed_);
  }
  if (eigen_.set_forcing(generator.block(0, n, n, 3), generator(n + 2, n + 1))) {
    particular_ = eigen_.particular();
    return true;
  }
  return periodic_particular_solution(generator, n, particular_);
}

double EventFreeBound::clear_time(const Matrix& z, const double* values, const double* rates,
                                  double horizon) const {
  if (!available_) return 0.0;
  // A one-degree-of-freedom oscillator with its size fixed (loops unrolled: a third of the
  // instructions).
  return n_ == 2 ? clear_time_sized<2>(z.data(), values, rates, horizon)
                 : clear_time_sized<0>(z.data(), values, rates, horizon);
}

}  // namespace libcont::detail
