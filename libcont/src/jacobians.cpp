#include "libcont/jacobians.hpp"

#include <cmath>
#include <limits>

namespace libcont {

double difference_step(double value) {
  static const double base = std::cbrt(std::numeric_limits<double>::epsilon());
  return base * (1.0 + std::abs(value));
}

void difference_state_jacobian(const HybridSystem& system, int mode, double t, ConstVectorRef x,
                               MatrixRef jac) {
  const Eigen::Index n = x.size();
  Vector xp = x, fp(n), fm(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = difference_step(x[j]);
    xp[j] = x[j] + h;
    system.vector_field(mode, t, xp, fp);
    xp[j] = x[j] - h;
    system.vector_field(mode, t, xp, fm);
    xp[j] = x[j];
    jac.col(j) = (fp - fm) / (2.0 * h);
  }
}

void difference_event_gradient(const HybridSystem& system, int mode, int event, double t,
                               ConstVectorRef x, VectorRef dh_dx, double& dh_dt) {
  Vector xp = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double h = difference_step(x[j]);
    xp[j] = x[j] + h;
    const double up = system.event_function(mode, event, t, xp);
    xp[j] = x[j] - h;
    const double down = system.event_function(mode, event, t, xp);
    xp[j] = x[j];
    dh_dx[j] = (up - down) / (2.0 * h);
  }
  const double ht = difference_step(t);
  dh_dt = (system.event_function(mode, event, t + ht, x) -
           system.event_function(mode, event, t - ht, x)) /
          (2.0 * ht);
}

void difference_reset_jacobian(const HybridSystem& system, int mode, int event, double t,
                               ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt) {
  const Eigen::Index n = x_minus.size();
  Vector up(n), down(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = difference_step(x_minus[j]);
    up = x_minus;
    up[j] += h;
    down = x_minus;
    down[j] -= h;
    system.apply_event(mode, event, t, up);
    system.apply_event(mode, event, t, down);
    dg_dx.col(j) = (up - down) / (2.0 * h);
  }
  const double ht = difference_step(t);
  up = x_minus;
  down = x_minus;
  system.apply_event(mode, event, t + ht, up);
  system.apply_event(mode, event, t - ht, down);
  dg_dt = (up - down) / (2.0 * ht);
}

double ModelJacobians::divergence(int mode, double t, ConstVectorRef x) const {
  if (analytic_)
    if (const auto given = analytic_->divergence(mode, t, x)) return *given;
  Matrix jac(x.size(), x.size());
  state_jacobian(mode, t, x, jac);
  return jac.trace();
}

}  // namespace libcont
