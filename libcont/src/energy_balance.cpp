#include "libcont/energy_balance.hpp"

#include <cmath>
#include <limits>

#include "libcont/input_error.hpp"

namespace libcont {

EnergyAccountingSystem::EnergyAccountingSystem(const HybridSystem& model)
    : model_(model), n_(model.dimension()) {
  if (!model.accounts_energy())
    throw InputError("system '" + model.name() +
                     "' does not account for its energy (no energy balance available)");
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

Vector EnergyAccountingSystem::extend(ConstVectorRef model_state) const {
  Vector x = Vector::Zero(n_ + 2);
  x.head(n_) = model_state;
  return x;
}

EnergyBalance EnergyAccountingSystem::balance(double t0, ConstVectorRef x0, int mode0,
                                              const FlowState& now) const {
  EnergyBalance b;
  b.initial = model_.mechanical_energy(mode0, t0, x0);
  b.current = model_.mechanical_energy(now.mode, now.t, now.x.head(n_));
  b.dissipated = now.x[n_];
  b.supplied = now.x[n_ + 1];
  return b;
}

void EnergyAccountingSystem::vector_field(int mode, double t, ConstVectorRef x,
                                          VectorRef dxdt) const {
  const auto state = x.head(n_);
  model_.vector_field(mode, t, state, dxdt.head(n_));
  dxdt[n_] = model_.dissipated_power(mode, t, state);
  dxdt[n_ + 1] = model_.supplied_power(mode, t, state);
}

void EnergyAccountingSystem::state_jacobian(int mode, double t, ConstVectorRef x,
                                            MatrixRef jac) const {
  jac.setZero();
  const Vector state = x.head(n_);
  model_.state_jacobian(mode, t, state, jac.topLeftCorner(n_, n_));
  // The power rows by central differences: the powers are scalar functions of the model
  // state, and the rows only enter Newton's matrix (the accounts feed nothing back).
  Vector shifted = state;
  for (int j = 0; j < n_; ++j) {
    const double h = std::cbrt(std::numeric_limits<double>::epsilon()) * (1.0 + std::abs(state[j]));
    shifted[j] = state[j] + h;
    const double dissipated_up = model_.dissipated_power(mode, t, shifted);
    const double supplied_up = model_.supplied_power(mode, t, shifted);
    shifted[j] = state[j] - h;
    jac(n_, j) = (dissipated_up - model_.dissipated_power(mode, t, shifted)) / (2.0 * h);
    jac(n_ + 1, j) = (supplied_up - model_.supplied_power(mode, t, shifted)) / (2.0 * h);
    shifted[j] = state[j];
  }
}

void EnergyAccountingSystem::event_gradient(int mode, int event, double t, ConstVectorRef x,
                                            VectorRef dh_dx, double& dh_dt) const {
  dh_dx.setZero();
  model_.event_gradient(mode, event, t, x.head(n_), dh_dx.head(n_), dh_dt);
}

EventOutcome EnergyAccountingSystem::apply_event(int mode, int event, double t,
                                                 VectorRef x) const {
  return model_.apply_event(mode, event, t, x.head(n_));
}

void EnergyAccountingSystem::reset_jacobian(int mode, int event, const EventOutcome& outcome,
                                            double t, ConstVectorRef x_minus, MatrixRef dg_dx,
                                            VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  model_.reset_jacobian(mode, event, outcome, t, x_minus.head(n_),
                        dg_dx.topLeftCorner(n_, n_), dg_dt.head(n_));
}

}  // namespace libcont
