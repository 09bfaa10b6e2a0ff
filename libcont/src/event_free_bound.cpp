#include "event_free_bound.hpp"

#include "machine_epsilon.hpp"
#include "modal_tangent.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

namespace libcont::detail {

namespace {
// Larger modes pay more for the decomposition than skipped scan steps save, and their
// eigenvector matrices are more often ill-conditioned.
constexpr int kLargestDimension = 16;
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
  deviation_.resize(n);
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
  return n_ == 2 ? clear_time_sized<2>(z, values, rates, horizon)
                 : clear_time_sized<0>(z, values, rates, horizon);
}

template <int N>
double EventFreeBound::clear_time_sized(const Matrix& z, const double* values,
                                        const double* rates, double horizon) const {
  // Plain loops over the small sizes (n <= 16): this runs at every scan step that looks at
  // the events.
  const double* state = z.data();
  const double* pi = particular_.data();
  const int n = N > 0 ? N : n_;
  double* deviation = deviation_.data();
  for (int i = 0; i < n; ++i)
    deviation[i] = state[i] - (pi[i] * state[n] + pi[n + i] * state[n + 1] +
                               pi[2 * n + i] * state[n + 2]);
  const double* modal = to_modal_.data();
  double size2 = 0.0;
  for (int i = 0; i < n; ++i) {
    double u = 0.0;
    for (int j = 0; j < n; ++j) u += modal[j * n + i] * deviation[j];
    size2 += u * u;
  }
  const double growth = alpha_ > 0.0 ? std::exp(alpha_ * horizon) : 1.0;
  const double size = std::sqrt(size2) * growth;
  const int lifted = n + 3;
  double clear = horizon;
  for (size_t j = 0; j < curvature_.size(); ++j) {
    // Distance from the surface less what rounding in h could hide.
    const double* c = coefficients_.data() + j * static_cast<size_t>(lifted);
    double terms = 0.0;
    for (int i = 0; i < lifted; ++i) terms += std::abs(c[i] * state[i]);
    const double distance = std::abs(values[j]) - 64.0 * kEpsilon * terms;
    if (!(distance > 0.0)) return 0.0;
    const double away = values[j] > 0.0 ? rates[j] : -rates[j];
    // Curvature bound, widened by a rounding margin of its own.
    const double B = (curvature_[j] * size + harmonic_[j]) * (1.0 + 1e-9);
    // The positive root of distance + away s - B s^2 / 2, in the form without cancellation.
    const double root = std::sqrt(away * away + 2.0 * B * distance);
    double s = horizon;
    if (away < 0.0)
      s = 2.0 * distance / (root - away);
    else if (B > 0.0)
      s = (away + root) / B;
    if (!std::isfinite(s)) return 0.0;
    clear = std::min(clear, s);
  }
  return clear;
}

}  // namespace libcont::detail
