#pragma once
// dx/dp along the exact path of an affine mode (exact_segment.hpp), p a parameter whose
// derivatives the model gives (parameter_derivatives.hpp). In a mode
//   x' = A x + b(t),  b(t) = b0 + b_cos cos(w t) + b_sin sin(w t),
// s = dx/dp obeys s' = A s + D_p A x + D_p b(t), which is affine again: where D_p A = 0
// (p a load) it is a mode of its own of dimension n with the forcing D_p b; otherwise the
// pair (x, s) is one of dimension 2n, [[A, 0], [D_p A, A]] with the forcing (b, D_p b).
// Its exact flow (exact_linear_flow.hpp) carries s across a whole stretch of the exact
// path in one step, so the exact path needs no change of its own for it.
#include <vector>

#include "libcont/exact_linear_flow.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/parameter_derivatives.hpp"

namespace libcont::detail {

class ExactParameterColumn {
 public:
  ExactParameterColumn(const HybridSystem& system, int parameter);

  // Whether the model gives D_p of `mode`'s affine data; prepares that mode. The model
  // must give parameter derivatives (the id comes from them).
  bool covers(int mode);
  // s = dx/dp at (t0, x0) in, at t1 out, along the mode covers() last accepted.
  void advance(double t0, ConstVectorRef x0, double t1, VectorRef s);

 private:
  // The model's capabilities, looked up once; affine_ may be null.
  const AffineModes* affine_;
  const ParameterDerivatives& derivatives_;
  int parameter_;
  int n_;
  int mode_ = -1;
  bool paired_ = false;  // the pair (x, s) is integrated: D_p A != 0
  AffineMode data_, derivative_, column_mode_;
  std::vector<ExactLinearFlow> flows_;  // per mode
  Vector lifted_x_;
  Matrix in_, out_;
};

}  // namespace libcont::detail
