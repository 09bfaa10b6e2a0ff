#pragma once
// Vector and matrix types shared by all of libcont.
#include <Eigen/Dense>

namespace libcont {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
// Ref types let callers pass Eigen maps over solver memory without copies.
using VectorRef = Eigen::Ref<Vector>;
using ConstVectorRef = Eigen::Ref<const Vector>;
using MatrixRef = Eigen::Ref<Matrix>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;

}  // namespace libcont
