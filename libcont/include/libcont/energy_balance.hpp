#pragma once
// Energy balance of a trajectory: for a model that accounts for its energy
// (HybridSystem::energy_account), E(t0) - E(t) - dissipated(t0, t) + supplied(t0, t) is
// exactly zero, so its computed value measures the integration error (and catches a model
// whose energy, powers and mode switches disagree).
//
// The two energies are integrated WITH the state, under the same error control: the
// model is wrapped in a system with two more components,
//     D' = dissipated_power(mode, t, x),   W' = supplied_power(mode, t, x),
// which events leave unchanged. A quadrature over samples afterwards would instead depend
// on the sample spacing and lose accuracy at every contact switch; here the accuracy is
// that of the flow (relative tolerance times the energy scale).
//
//   EnergyAccountingSystem accounted(model);           // model must account for energy
//   Flow flow(accounted, options);
//   FlowState state = flow.initial_state(t0, accounted.extend(x0));
//   flow.advance(state, t_end);
//   EnergyBalance b = accounted.balance(t0, x0, mode0, state);   // b.residual() ~ 0
#include <string>
#include <vector>

#include "libcont/contact_measures.hpp"
#include "libcont/derived_outputs.hpp"
#include "libcont/energy_account.hpp"
#include "libcont/flow.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/impact_measures.hpp"
#include "libcont/integrator_hints.hpp"
#include "libcont/jacobians.hpp"

namespace libcont {

struct EnergyBalance {
  double initial = 0.0;     // E at the start
  double current = 0.0;     // E now
  double dissipated = 0.0;  // integral of the dissipated power
  double supplied = 0.0;    // integral of the supplied power
  // Zero for the exact trajectory.
  double residual() const { return initial - current - dissipated + supplied; }
};

// The model with the state (x, D, W): every quantity of the model is passed through on x,
// so the wrapper can stand in for the model in a flow, its observers and reports (each
// capability the model has, the wrapper has; its Jacobians add the power rows). Its
// parameters are a copy of the model's, for reports; set parameters on the model before
// wrapping it (the wrapper refuses a change).
class EnergyAccountingSystem : public HybridSystem,
                               public AnalyticJacobians,
                               public EnergyAccount,
                               public ImpactMeasures,
                               public ContactMeasures,
                               public DerivedOutputs {
 public:
  // Throws InputError if the model does not account for its energy. The model must
  // outlive the wrapper.
  explicit EnergyAccountingSystem(const HybridSystem& model);

  const HybridSystem& model() const { return model_; }
  int model_dimension() const { return n_; }
  static constexpr const char* dissipated_name = "dissipated_energy";
  static constexpr const char* supplied_name = "supplied_energy";

  // (x, 0, 0): a model state with empty accounts.
  Vector extend(ConstVectorRef model_state) const;
  // The balance between a start (t0, model state x0 in mode0) and a state of this system
  // reached from extend(x0).
  EnergyBalance balance(double t0, ConstVectorRef x0, int mode0, const FlowState& now) const;

  // --- the core, passed through -----------------------------------------------------------
  std::string name() const override { return model_.name(); }
  std::vector<std::string> state_names() const override;
  // The model's; the accounts' unit is not declared (empty).
  std::vector<std::string> state_units() const override;
  std::string time_unit() const override { return model_.time_unit(); }
  int mode_count() const override { return model_.mode_count(); }
  std::string mode_name(int mode) const override { return model_.mode_name(mode); }
  double forcing_period() const override { return model_.forcing_period(); }
  void configure() override;

  void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const override;
  int event_count(int mode) const override { return model_.event_count(mode); }
  EventSpec event_spec(int mode, int event) const override {
    return model_.event_spec(mode, event);
  }
  double event_function(int mode, int event, double t, ConstVectorRef x) const override {
    return model_.event_function(mode, event, t, x.head(n_));
  }
  EventOutcome apply_event(int mode, int event, double t, VectorRef x) const override;

  Vector default_initial_state() const override { return extend(model_.default_initial_state()); }
  int mode_of(double t, ConstVectorRef x) const override { return model_.mode_of(t, x.head(n_)); }
  std::vector<int> displacement_coordinates() const override {
    return model_.displacement_coordinates();
  }

  // --- capabilities: the model's, on x --------------------------------------------------
  const AnalyticJacobians* analytic_jacobians() const override { return this; }
  const EnergyAccount* energy_account() const override { return this; }
  const ImpactMeasures* impact_measures() const override { return impact_ ? this : nullptr; }
  const ContactMeasures* contact_measures() const override { return contact_ ? this : nullptr; }
  const DerivedOutputs* derived_outputs() const override { return outputs_ ? this : nullptr; }
  // The hints depend on the mode alone: the model's own.
  const IntegratorHints* integrator_hints() const override { return model_.integrator_hints(); }

  // The model's Jacobians (its own or differences), the power rows by differences.
  bool state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const override;
  bool event_gradient(int mode, int event, double t, ConstVectorRef x, VectorRef dh_dx,
                      double& dh_dt) const override;
  bool reset_jacobian(int mode, int event, const EventOutcome& outcome, double t,
                      ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt) const override;

  double mechanical_energy(int mode, double t, ConstVectorRef x) const override {
    return account_.mechanical_energy(mode, t, x.head(n_));
  }
  double dissipated_power(int mode, double t, ConstVectorRef x) const override {
    return account_.dissipated_power(mode, t, x.head(n_));
  }
  double supplied_power(int mode, double t, ConstVectorRef x) const override {
    return account_.supplied_power(mode, t, x.head(n_));
  }
  double kinetic_energy(double t, ConstVectorRef x) const override {
    return impact_->kinetic_energy(t, x.head(n_));
  }
  double relative_velocity(int mode, int event, double t, ConstVectorRef x) const override {
    return impact_->relative_velocity(mode, event, t, x.head(n_));
  }
  double contact_force(int mode, double t, ConstVectorRef x) const override {
    return contact_->contact_force(mode, t, x.head(n_));
  }
  double penetration(int mode, double t, ConstVectorRef x) const override {
    return contact_->penetration(mode, t, x.head(n_));
  }
  bool in_contact(int mode, double t, ConstVectorRef x) const override {
    return contact_->in_contact(mode, t, x.head(n_));
  }
  std::vector<std::string> output_names() const override { return outputs_->output_names(); }
  void outputs(int mode, double t, ConstVectorRef x, VectorRef values) const override {
    outputs_->outputs(mode, t, x.head(n_), values);
  }
  std::vector<CharacteristicCurve> characteristic_curves() const override {
    return outputs_->characteristic_curves();
  }

 private:
  const HybridSystem& model_;
  int n_;
  // The model's capabilities, looked up once; all but the account may be null.
  const EnergyAccount& account_;
  const ImpactMeasures* impact_;
  const ContactMeasures* contact_;
  const DerivedOutputs* outputs_;
  ModelJacobians jacobians_;
};

}  // namespace libcont
