#include "modal_tangent.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "libcont/exact_linear_flow.hpp"
#include "libcont/input_error.hpp"

namespace libcont::detail {

ModalTangent::ModalTangent(const HybridSystem& system)
    : system_(system),
      affine_(system.affine_modes()),
      modes_(static_cast<size_t>(std::max(system.mode_count(), 0))) {
  const int n = system.dimension();
  data_.A = Matrix::Zero(n, n);
  data_.b0 = data_.b_cos = data_.b_sin = Vector::Zero(n);
}

std::shared_ptr<const ModalTangent::Decomposition> ModalTangent::decompose(const Matrix& A) {
  // A few recent decompositions per thread, the most recent first.
  thread_local std::deque<std::shared_ptr<const Decomposition>> recent;
  for (const auto& d : recent)
    if (d->A.rows() == A.rows() && d->A == A) return d;
  auto d = std::make_shared<Decomposition>();
  d->A = A;
  const Eigen::EigenSolver<Matrix> solver(A, true);
  if (solver.info() == Eigen::Success) {
    d->T = solver.pseudoEigenvectors();
    d->D = solver.pseudoEigenvalueMatrix();
    const Eigen::PartialPivLU<Matrix> lu(d->T);
    d->T_inverse = lu.inverse();
    const auto norm1 = [](const Matrix& m) { return m.cwiseAbs().colwise().sum().maxCoeff(); };
    const double condition = norm1(d->T) * norm1(d->T_inverse);
    // The decomposition must reproduce A to rounding: a defective A gives nearly parallel
    // eigenvectors (a huge condition) or a residual far above it.
    const double residual = norm1(A * d->T - d->T * d->D);
    d->condition = condition;
    d->exact = d->T_inverse.allFinite() && std::isfinite(condition) &&
               residual <= 1e3 * std::numeric_limits<double>::epsilon() * norm1(A) * norm1(d->T);
    d->ok = d->exact && condition <= kConditionLimit;
  }
  recent.push_front(d);
  if (recent.size() > 4) recent.pop_back();
  return d;
}

std::shared_ptr<const ModalTangent::Decomposition> ModalTangent::refresh(int mode) {
  auto& d = modes_.at(static_cast<size_t>(mode));
  if (!affine_ || !affine_->affine_mode(mode, data_))
    throw InputError("modal tangent: mode " + std::to_string(mode) + " is not affine");
  if (!d || d->A != data_.A) d = decompose(data_.A);
  return d;
}

void ModalTangent::advance(int mode, double tau, MatrixRef tangent) {
  if (tau == 0.0 || tangent.cols() == 0) return;
  const Decomposition& d = *refresh(mode);
  if (!d.ok) {
    matrix_exponential(d.A * tau, exponential_, work_);
    modal_.noalias() = exponential_ * tangent;
    tangent = modal_;
    return;
  }
  modal_.noalias() = d.T_inverse * tangent;
  // expm(D tau) block by block: e^{a tau} for a real eigenvalue, e^{a tau} times the
  // rotation by b tau for a block [[a, b], [-b, a]].
  const Eigen::Index n = d.D.rows();
  for (Eigen::Index i = 0; i < n;) {
    const double growth = std::exp(d.D(i, i) * tau);
    if (i + 1 < n && d.D(i, i + 1) != 0.0) {
      const double angle = d.D(i, i + 1) * tau;
      const double c = growth * std::cos(angle), s = growth * std::sin(angle);
      for (Eigen::Index k = 0; k < modal_.cols(); ++k) {
        const double u = modal_(i, k), w = modal_(i + 1, k);
        modal_(i, k) = c * u + s * w;
        modal_(i + 1, k) = -s * u + c * w;
      }
      i += 2;
    } else {
      modal_.row(i) *= growth;
      i += 1;
    }
  }
  tangent.noalias() = d.T * modal_;
}

}  // namespace libcont::detail
