#include "exact_parameter_column.hpp"

namespace libcont::detail {

namespace {

void size_affine(AffineMode& mode, int n) {
  mode.A = Matrix::Zero(n, n);
  mode.b0 = mode.b_cos = mode.b_sin = Vector::Zero(n);
}

}  // namespace

ExactParameterColumn::ExactParameterColumn(const HybridSystem& system, int parameter)
    : affine_(system.affine_modes()), derivatives_(*system.parameter_derivatives()),
      parameter_(parameter), n_(system.dimension()),
      flows_(static_cast<size_t>(system.mode_count())) {
  size_affine(data_, n_);
  size_affine(derivative_, n_);
  for (ExactLinearFlow& flow : flows_) flow.set_block_columns(1);
}

bool ExactParameterColumn::covers(int mode) {
  if (!affine_ || !affine_->affine_mode(mode, data_) ||
      !derivatives_.affine_parameter_derivative(parameter_, mode, derivative_))
    return false;
  paired_ = !derivative_.A.isZero(0.0);
  const int n = n_, size = paired_ ? 2 * n : n;
  if (column_mode_.A.rows() != size) size_affine(column_mode_, size);
  column_mode_.frequency = data_.frequency;
  if (!paired_) {
    column_mode_.A = data_.A;
    column_mode_.b0 = derivative_.b0;
    column_mode_.b_cos = derivative_.b_cos;
    column_mode_.b_sin = derivative_.b_sin;
  } else {
    column_mode_.A.topLeftCorner(n, n) = data_.A;
    column_mode_.A.topRightCorner(n, n).setZero();
    column_mode_.A.bottomLeftCorner(n, n) = derivative_.A;
    column_mode_.A.bottomRightCorner(n, n) = data_.A;
    column_mode_.b0 << data_.b0, derivative_.b0;
    column_mode_.b_cos << data_.b_cos, derivative_.b_cos;
    column_mode_.b_sin << data_.b_sin, derivative_.b_sin;
  }
  flows_[static_cast<size_t>(mode)].set_mode(column_mode_);
  mode_ = mode;
  return true;
}

void ExactParameterColumn::advance(double t0, ConstVectorRef x0, double t1, VectorRef s) {
  if (t1 == t0) return;
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode_)];
  const int size = paired_ ? 2 * n_ : n_;
  lifted_x_.resize(size);
  if (paired_)
    lifted_x_ << x0, s;
  else
    lifted_x_ = s;
  in_.resize(flow.lifted_dimension(), 1);
  flow.lift(t0, lifted_x_, in_.col(0));
  out_.resize(in_.rows(), 1);
  flow.propagate(t1 - t0, in_, out_);
  s = out_.col(0).segment(size - n_, n_);
}

}  // namespace libcont::detail
