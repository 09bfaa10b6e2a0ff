#include "libcont/bordered_test_function.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>

namespace libcont {

BorderedTestFunction::BorderedTestFunction(int size, int nullity)
    : b_(Matrix::Zero(size, nullity)), c_(Matrix::Zero(size, nullity)) {
  for (int j = 0; j < nullity; ++j) b_(size - nullity + j, j) = c_(size - nullity + j, j) = 1.0;
}

void BorderedTestFunction::set_borders(ConstMatrixRef a) {
  const Eigen::JacobiSVD<Matrix> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::Index k = b_.cols();
  // Singular values come in decreasing order: the last k columns belong to the smallest.
  const Matrix b = svd.matrixU().rightCols(k), c = svd.matrixV().rightCols(k);
  // Each column turned to the side of the one it replaces: V is normalised by C^T V = I, so
  // the null vectors keep their orientation along a curve, and so do test functions odd
  // in them (a fold's quadratic coefficient).
  for (Eigen::Index j = 0; j < k; ++j) {
    b_.col(j) = b.col(j).dot(b_.col(j)) < 0.0 ? Vector(-b.col(j)) : Vector(b.col(j));
    c_.col(j) = c.col(j).dot(c_.col(j)) < 0.0 ? Vector(-c.col(j)) : Vector(c.col(j));
  }
}

bool BorderedTestFunction::evaluate(ConstMatrixRef a) {
  const Eigen::Index m = a.rows(), k = b_.cols();
  Matrix bordered = Matrix::Zero(m + k, m + k);
  bordered.topLeftCorner(m, m) = a;
  bordered.topRightCorner(m, k) = b_;
  bordered.bottomLeftCorner(k, m) = c_.transpose();
  const Eigen::FullPivLU<Matrix> lu(bordered);
  if (!lu.isInvertible()) return false;
  Matrix rhs = Matrix::Zero(m + k, k);
  rhs.bottomRows(k) = Matrix::Identity(k, k);
  const Matrix right = lu.solve(rhs);
  const Matrix left = bordered.transpose().fullPivLu().solve(rhs);
  if (!right.allFinite() || !left.allFinite()) return false;
  v_ = right.topRows(m);
  g_ = right.bottomRows(k);
  w_ = left.topRows(m);
  return true;
}

Matrix BorderedTestFunction::derivative(ConstMatrixRef da) const {
  return -w_.transpose() * da * v_;
}

double BorderedTestFunction::fit() const {
  double fit = 1.0;
  for (Eigen::Index j = 0; j < v_.cols(); ++j)
    fit = std::min({fit, 1.0 / v_.col(j).norm(), 1.0 / w_.col(j).norm()});
  return fit;
}

}  // namespace libcont
