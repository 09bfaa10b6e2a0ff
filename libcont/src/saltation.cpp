#include "libcont/saltation.hpp"

namespace libcont {

Matrix saltation_matrix(ConstMatrixRef dg_dx, ConstVectorRef dg_dt, ConstVectorRef f_plus,
                        ConstVectorRef f_minus, ConstVectorRef dh_dx, double dh_dt) {
  // The denominator is the rate at which the trajectory crosses the event surface; it
  // vanishes at grazing, where the caller must not ask for S.
  const double crossing_rate = dh_dx.dot(f_minus) + dh_dt;
  const Vector jump = f_plus - dg_dx * f_minus - dg_dt;
  return dg_dx + jump * dh_dx.transpose() / crossing_rate;
}

Matrix saltation_matrix(const HybridSystem& system, int mode, int event,
                        const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                        ConstVectorRef x_plus) {
  const Eigen::Index n = x_minus.size();
  Matrix dg_dx(n, n);
  Vector dg_dt(n), f_minus(n), f_plus(n), dh_dx(n);
  double dh_dt = 0.0;
  system.reset_jacobian(mode, event, outcome, t, x_minus, dg_dx, dg_dt);
  system.vector_field(mode, t, x_minus, f_minus);
  system.vector_field(outcome.next_mode, t, x_plus, f_plus);
  system.event_gradient(mode, event, t, x_minus, dh_dx, dh_dt);
  return saltation_matrix(dg_dx, dg_dt, f_plus, f_minus, dh_dx, dh_dt);
}

}  // namespace libcont
