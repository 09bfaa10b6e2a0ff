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
  SaltationWorkspace work;
  return saltation_matrix(ModelJacobians(system), mode, event, outcome, t, x_minus, x_plus, work);
}

const Matrix& saltation_matrix(const ModelJacobians& jacobians, int mode, int event,
                               const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                               ConstVectorRef x_plus, SaltationWorkspace& work) {
  const HybridSystem& system = jacobians.system();
  const Eigen::Index n = x_minus.size();
  work.dg_dx.resize(n, n);
  work.result.resize(n, n);
  work.dg_dt.resize(n);
  work.f_minus.resize(n);
  work.jump.resize(n);
  work.dh_dx.resize(n);
  double dh_dt = 0.0;
  jacobians.reset_jacobian(mode, event, outcome, t, x_minus, work.dg_dx, work.dg_dt);
  system.vector_field(mode, t, x_minus, work.f_minus);
  system.vector_field(outcome.next_mode, t, x_plus, work.jump);  // f+, made the jump below
  jacobians.event_gradient(mode, event, t, x_minus, work.dh_dx, dh_dt);
  work.crossing_rate = work.dh_dx.dot(work.f_minus) + dh_dt;
  work.jump.noalias() -= work.dg_dx * work.f_minus;
  work.jump -= work.dg_dt;
  work.result = work.dg_dx;
  work.result.noalias() += (work.jump / work.crossing_rate) * work.dh_dx.transpose();
  return work.result;
}

void parameter_jump(const ParameterDerivatives& derivatives, int parameter, int mode,
                    int event, const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                    const SaltationWorkspace& work, Vector& scratch, VectorRef column) {
  scratch.resize(x_minus.size());
  derivatives.reset_parameter_derivative(parameter, mode, event, outcome, t, x_minus, scratch);
  column += scratch;
  const double dh_dp = derivatives.event_parameter_derivative(parameter, mode, event, t, x_minus);
  if (dh_dp != 0.0) column += (dh_dp / work.crossing_rate) * work.jump;
}

}  // namespace libcont
