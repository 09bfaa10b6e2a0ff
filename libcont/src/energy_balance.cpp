#include "libcont/energy_balance.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

const EnergyAccount& account_of(const HybridSystem& model) {
  const EnergyAccount* account = model.energy_account();
  if (!account)
    throw InputError("system '" + model.name() +
                     "' does not account for its energy (no energy balance available)");
  return *account;
}

}  // namespace

EnergyAccountingSystem::EnergyAccountingSystem(const HybridSystem& model)
    : model_(model),
      n_(model.dimension()),
      account_(account_of(model)),
      impact_(model.impact_measures()),
      contact_(model.contact_measures()),
      outputs_(model.derived_outputs()),
      jacobians_(model) {
  parameters_ = model.parameters();
}

void EnergyAccountingSystem::configure() {
  throw InputError("set the parameters of '" + model_.name() +
                   "' on the model itself, before wrapping it for an energy balance");
}

std::vector<std::string> EnergyAccountingSystem::state_names() const {
  auto names = model_.state_names();
  names.emplace_back(dissipated_name);
  names.emplace_back(supplied_name);
  return names;
}

std::vector<std::string> EnergyAccountingSystem::state_units() const {
  auto units = model_.state_units();
  if (!units.empty()) units.resize(units.size() + 2);
  return units;
}

Vector EnergyAccountingSystem::extend(ConstVectorRef model_state) const {
  Vector x = Vector::Zero(n_ + 2);
  x.head(n_) = model_state;
  return x;
}

EnergyBalance EnergyAccountingSystem::balance(double t0, ConstVectorRef x0, int mode0,
                                              const FlowState& now) const {
  EnergyBalance b;
  b.initial = account_.mechanical_energy(mode0, t0, x0);
  b.current = account_.mechanical_energy(now.mode, now.t, now.x.head(n_));
  b.dissipated = now.x[n_];
  b.supplied = now.x[n_ + 1];
  return b;
}

void EnergyAccountingSystem::vector_field(int mode, double t, ConstVectorRef x,
                                          VectorRef dxdt) const {
  const auto state = x.head(n_);
  model_.vector_field(mode, t, state, dxdt.head(n_));
  dxdt[n_] = account_.dissipated_power(mode, t, state);
  dxdt[n_ + 1] = account_.supplied_power(mode, t, state);
}

bool EnergyAccountingSystem::state_jacobian(int mode, double t, ConstVectorRef x,
                                            MatrixRef jac) const {
  jac.setZero();
  const Vector state = x.head(n_);
  jacobians_.state_jacobian(mode, t, state, jac.topLeftCorner(n_, n_));
  // The power rows by central differences: the powers are scalar functions of the model
  // state, and the rows only enter Newton's matrix (the accounts feed nothing back).
  Vector shifted = state;
  for (int j = 0; j < n_; ++j) {
    const double h = difference_step(state[j]);
    shifted[j] = state[j] + h;
    const double dissipated_up = account_.dissipated_power(mode, t, shifted);
    const double supplied_up = account_.supplied_power(mode, t, shifted);
    shifted[j] = state[j] - h;
    jac(n_, j) = (dissipated_up - account_.dissipated_power(mode, t, shifted)) / (2.0 * h);
    jac(n_ + 1, j) = (supplied_up - account_.supplied_power(mode, t, shifted)) / (2.0 * h);
    shifted[j] = state[j];
  }
  return true;
}

bool EnergyAccountingSystem::event_gradient(int mode, int event, double t, ConstVectorRef x,
                                            VectorRef dh_dx, double& dh_dt) const {
  dh_dx.setZero();
  jacobians_.event_gradient(mode, event, t, x.head(n_), dh_dx.head(n_), dh_dt);
  return true;
}

EventOutcome EnergyAccountingSystem::apply_event(int mode, int event, double t,
                                                 VectorRef x) const {
  return model_.apply_event(mode, event, t, x.head(n_));
}

bool EnergyAccountingSystem::reset_jacobian(int mode, int event, const EventOutcome& outcome,
                                            double t, ConstVectorRef x_minus, MatrixRef dg_dx,
                                            VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  jacobians_.reset_jacobian(mode, event, outcome, t, x_minus.head(n_),
                            dg_dx.topLeftCorner(n_, n_), dg_dt.head(n_));
  return true;
}

}  // namespace libcont
