#pragma once
// Exact Jacobians without writing them: a model derives from AutoDiffSystem<Model> and
// writes its vector field once as a template
//   template <class S> void field(int mode, double t, const Eigen::Matrix<S, -1, 1>& x,
//                                 Eigen::Matrix<S, -1, 1>& dxdt) const;
// D_x f then comes from Eigen's forward-mode AutoDiff, exact to rounding. Dynamic-size
// derivatives allocate, so hot models write their Jacobians by hand instead. The class is
// the model's AnalyticJacobians (jacobians.hpp): a model may add event_gradient and
// reset_jacobian to it (else they are differenced).
#include "libcont/hybrid_system.hpp"
#include "libcont/jacobians.hpp"
// After Eigen/Dense (through hybrid_system.hpp): the AutoDiff module needs Eigen/Core.
#include <unsupported/Eigen/AutoDiff>

namespace libcont {

template <class Model>
class AutoDiffSystem : public HybridSystem, public AnalyticJacobians {
 public:
  using Dual = Eigen::AutoDiffScalar<Eigen::VectorXd>;
  using DualVector = Eigen::Matrix<Dual, Eigen::Dynamic, 1>;

  void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const override {
    Vector in = x;
    Vector out(in.size());
    model().field(mode, t, in, out);
    dxdt = out;
  }

  const AnalyticJacobians* analytic_jacobians() const override { return this; }

  bool state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const override {
    const Eigen::Index n = x.size();
    DualVector in(n), out(n);
    for (Eigen::Index i = 0; i < n; ++i) in[i] = Dual(x[i], n, i);
    model().field(mode, t, in, out);
    for (Eigen::Index i = 0; i < n; ++i) {
      // A component that does not depend on x carries an empty derivative vector.
      if (out[i].derivatives().size() == n)
        jac.row(i) = out[i].derivatives().transpose();
      else
        jac.row(i).setZero();
    }
    return true;
  }

 private:
  const Model& model() const { return static_cast<const Model&>(*this); }
};

}  // namespace libcont
