#pragma once
// Jacobians of a model: D_x f of a mode's vector field, D_x h and D_t h of an event
// function, D_x g and D_t g of a reset, and the phase-volume rate trace D_x f.
//
// A model that knows some of them exactly implements AnalyticJacobians and returns it from
// HybridSystem::analytic_jacobians(); each method there returns false where the model does
// not give that derivative (for that mode or event), so a model writes only those it has
// (autodiff_system.hpp derives D_x f by Eigen AutoDiff). The library evaluates Jacobians
// through ModelJacobians (or the free functions below): the model's own where given,
// central differences of vector_field, event_function and apply_event elsewhere.
#include <optional>

#include "libcont/hybrid_system.hpp"

namespace libcont {

class AnalyticJacobians {
 public:
  virtual ~AnalyticJacobians() = default;
  // D_x f of a mode's vector field.
  virtual bool state_jacobian(int /*mode*/, double /*t*/, ConstVectorRef /*x*/,
                              MatrixRef /*jac*/) const {
    return false;
  }
  // D_x h and D_t h, used for the saltation matrix and to tell a crossing from a touch.
  virtual bool event_gradient(int /*mode*/, int /*event*/, double /*t*/, ConstVectorRef /*x*/,
                              VectorRef /*dh_dx*/, double& /*dh_dt*/) const {
    return false;
  }
  // D_x g and D_t g of the reset that apply_event performed (outcome as it returned). Give
  // it for impacts: differences of a reset that branches (impact or stick) are unreliable.
  virtual bool reset_jacobian(int /*mode*/, int /*event*/, const EventOutcome& /*outcome*/,
                              double /*t*/, ConstVectorRef /*x_minus*/, MatrixRef /*dg_dx*/,
                              VectorRef /*dg_dt*/) const {
    return false;
  }
  // trace D_x f, when the model knows it cheaper than the whole Jacobian.
  virtual std::optional<double> divergence(int /*mode*/, double /*t*/,
                                           ConstVectorRef /*x*/) const {
    return std::nullopt;
  }
  // The field f, D_x f and, for parameter >= 0 (an id of the model's ParameterDerivatives),
  // D_p f at one point in one call: the tangent flow's right-hand side asks for all of them
  // at every stage, and a model whose field and derivatives share terms (a contact's
  // penetration, the forcing's phase) computes those once. The same numbers as
  // vector_field, state_jacobian and field_parameter_derivative. False: not given for this
  // mode (those are then asked for one by one).
  virtual bool field_and_derivatives(int /*mode*/, double /*t*/, ConstVectorRef /*x*/,
                                     VectorRef /*dxdt*/, MatrixRef /*jac*/, int /*parameter*/,
                                     VectorRef /*df_dp*/) const {
    return false;
  }
  // m > 0 where the state begins with m coordinates whose rates are the next m components
  // (q' = v), in every mode: the first m rows of the state_jacobian given are [0, I, 0],
  // which the tangent flow then copies instead of multiplying out. 0: not so.
  virtual int kinematic_rows() const { return 0; }
};

// Central differences, with the step cbrt(eps) (1 + |value|) that balances truncation
// (h^2) against rounding (eps / h). The reset's assume a smooth reset (a mode switch
// without a jump gives identity and zero).
void difference_state_jacobian(const HybridSystem& system, int mode, double t, ConstVectorRef x,
                               MatrixRef jac);
void difference_event_gradient(const HybridSystem& system, int mode, int event, double t,
                               ConstVectorRef x, VectorRef dh_dx, double& dh_dt);
void difference_reset_jacobian(const HybridSystem& system, int mode, int event, double t,
                               ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt);
double difference_step(double value);

// A model's Jacobians as the library uses them: its own where it gives them, central
// differences elsewhere. The capability is looked up once, at construction, so an inner
// loop (the flow's right-hand side with the tangent) pays one virtual call per derivative
// as before; hold one per model, not per call.
class ModelJacobians {
 public:
  explicit ModelJacobians(const HybridSystem& system)
      : system_(&system), analytic_(system.analytic_jacobians()) {}

  void state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const {
    if (!analytic_ || !analytic_->state_jacobian(mode, t, x, jac))
      difference_state_jacobian(*system_, mode, t, x, jac);
  }
  void event_gradient(int mode, int event, double t, ConstVectorRef x, VectorRef dh_dx,
                      double& dh_dt) const {
    if (!analytic_ || !analytic_->event_gradient(mode, event, t, x, dh_dx, dh_dt))
      difference_event_gradient(*system_, mode, event, t, x, dh_dx, dh_dt);
  }
  void reset_jacobian(int mode, int event, const EventOutcome& outcome, double t,
                      ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt) const {
    if (!analytic_ ||
        !analytic_->reset_jacobian(mode, event, outcome, t, x_minus, dg_dx, dg_dt))
      difference_reset_jacobian(*system_, mode, event, t, x_minus, dg_dx, dg_dt);
  }
  // The model's fused evaluation (AnalyticJacobians::field_and_derivatives), where given.
  bool field_and_derivatives(int mode, double t, ConstVectorRef x, VectorRef dxdt,
                             MatrixRef jac, int parameter, VectorRef df_dp) const {
    return analytic_ && analytic_->field_and_derivatives(mode, t, x, dxdt, jac, parameter, df_dp);
  }
  // The model's, else the trace of state_jacobian.
  double divergence(int mode, double t, ConstVectorRef x) const;
  int kinematic_rows() const { return analytic_ ? analytic_->kinematic_rows() : 0; }

  const HybridSystem& system() const { return *system_; }

 private:
  const HybridSystem* system_;
  const AnalyticJacobians* analytic_;
};

// One-off evaluations (a check, a report): ModelJacobians(system) for each call.
inline void state_jacobian(const HybridSystem& system, int mode, double t, ConstVectorRef x,
                           MatrixRef jac) {
  ModelJacobians(system).state_jacobian(mode, t, x, jac);
}
inline void event_gradient(const HybridSystem& system, int mode, int event, double t,
                           ConstVectorRef x, VectorRef dh_dx, double& dh_dt) {
  ModelJacobians(system).event_gradient(mode, event, t, x, dh_dx, dh_dt);
}
inline void reset_jacobian(const HybridSystem& system, int mode, int event,
                           const EventOutcome& outcome, double t, ConstVectorRef x_minus,
                           MatrixRef dg_dx, VectorRef dg_dt) {
  ModelJacobians(system).reset_jacobian(mode, event, outcome, t, x_minus, dg_dx, dg_dt);
}
inline double divergence(const HybridSystem& system, int mode, double t, ConstVectorRef x) {
  return ModelJacobians(system).divergence(mode, t, x);
}

}  // namespace libcont
