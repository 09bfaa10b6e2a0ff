#include "libcont/hybrid_system.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

// Central-difference step: balances truncation (h^2) against rounding (eps / h).
double difference_step(double value) {
  static const double base = std::cbrt(std::numeric_limits<double>::epsilon());
  return base * (1.0 + std::abs(value));
}

}  // namespace

void HybridSystem::set_parameter(std::string_view name, double value) {
  const ParameterSet::Saved saved = parameters_.save(name);
  parameters_.set(name, value);
  commit({saved}, std::string(name) + " = " + number_text(value));
}

void HybridSystem::set_parameter_text(std::string_view name, std::string_view text) {
  const ParameterSet::Saved saved = parameters_.save(name);
  parameters_.set_from_text(name, text);
  commit({saved}, std::string(name) + " = " + std::string(text));
}

void HybridSystem::set_parameters(const std::vector<ParameterAssignment>& assignments) {
  std::vector<ParameterSet::Saved> saved;
  std::string changed;
  for (const auto& a : assignments) {
    try {
      const ParameterSet::Saved before = parameters_.save(a.name);
      parameters_.set_from_text(a.name, a.text);
      saved.push_back(before);
    } catch (const InputError& error) {
      for (auto it = saved.rbegin(); it != saved.rend(); ++it) parameters_.restore(*it);
      if (a.origin.empty()) throw;
      throw InputError(a.origin + ": " + error.what());
    }
    changed += (changed.empty() ? "" : ", ") + a.name + " = " + a.text;
  }
  if (!assignments.empty()) commit(saved, changed);
}

void HybridSystem::commit(const std::vector<ParameterSet::Saved>& saved,
                          const std::string& changed) {
  try {
    configure();
    const double period = forcing_period();
    if (!(period >= 0.0) || !std::isfinite(period))
      throw InputError(changed + " gives the forcing period " + number_text(period) +
                       ": it must be finite");
  } catch (const InputError&) {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) parameters_.restore(*it);
    try {
      configure();  // the previous set, consistent before the change
    } catch (const InputError&) {
    }
    throw;
  }
}

void HybridSystem::state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const {
  const Eigen::Index n = x.size();
  Vector xp = x, fp(n), fm(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = difference_step(x[j]);
    xp[j] = x[j] + h;
    vector_field(mode, t, xp, fp);
    xp[j] = x[j] - h;
    vector_field(mode, t, xp, fm);
    xp[j] = x[j];
    jac.col(j) = (fp - fm) / (2.0 * h);
  }
}

EventSpec HybridSystem::event_spec(int /*mode*/, int event) const {
  return EventSpec{"event " + std::to_string(event), EventDirection::Either,
                   EventKind::Terminal};
}

double HybridSystem::event_function(int /*mode*/, int /*event*/, double /*t*/,
                                    ConstVectorRef /*x*/) const {
  return 1.0;
}

void HybridSystem::event_gradient(int mode, int event, double t, ConstVectorRef x,
                                  VectorRef dh_dx, double& dh_dt) const {
  Vector xp = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double h = difference_step(x[j]);
    xp[j] = x[j] + h;
    const double up = event_function(mode, event, t, xp);
    xp[j] = x[j] - h;
    const double down = event_function(mode, event, t, xp);
    xp[j] = x[j];
    dh_dx[j] = (up - down) / (2.0 * h);
  }
  const double ht = difference_step(t);
  dh_dt = (event_function(mode, event, t + ht, x) - event_function(mode, event, t - ht, x)) /
          (2.0 * ht);
}

EventOutcome HybridSystem::apply_event(int mode, int event, double /*t*/,
                                       VectorRef /*x*/) const {
  return EventOutcome{mode, event_spec(mode, event).kind, true};
}

void HybridSystem::reset_jacobian(int mode, int event, const EventOutcome& /*outcome*/,
                                  double t, ConstVectorRef x_minus, MatrixRef dg_dx,
                                  VectorRef dg_dt) const {
  // Central differences of the reset; adequate for smooth resets, models with jumps
  // should give the exact derivative.
  const Eigen::Index n = x_minus.size();
  Vector up(n), down(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = difference_step(x_minus[j]);
    up = x_minus;
    up[j] += h;
    down = x_minus;
    down[j] -= h;
    apply_event(mode, event, t, up);
    apply_event(mode, event, t, down);
    dg_dx.col(j) = (up - down) / (2.0 * h);
  }
  const double ht = difference_step(t);
  up = x_minus;
  down = x_minus;
  apply_event(mode, event, t + ht, up);
  apply_event(mode, event, t - ht, down);
  dg_dt = (up - down) / (2.0 * ht);
}

void HybridSystem::field_parameter_derivative(int parameter, int, double, ConstVectorRef,
                                              VectorRef) const {
  // A model that hands out a parameter id and not this derivative is wrong, not slow.
  throw std::logic_error("model '" + name() + "' gives parameter id " + std::to_string(parameter) +
                         " for derivatives but no field_parameter_derivative");
}

void HybridSystem::reset_parameter_derivative(int, int, int, const EventOutcome&, double,
                                              ConstVectorRef, VectorRef dg_dp) const {
  dg_dp.setZero();
}

double HybridSystem::divergence(int mode, double t, ConstVectorRef x) const {
  Matrix jac(x.size(), x.size());
  state_jacobian(mode, t, x, jac);
  return jac.trace();
}

// Quantities a model has not declared (accounts_energy, measures_contact) are not
// numbers: NaN makes any accidental use visible instead of plausibly zero.
double HybridSystem::mechanical_energy(int, double, ConstVectorRef) const {
  return std::numeric_limits<double>::quiet_NaN();
}
double HybridSystem::contact_force(int, double, ConstVectorRef) const {
  return std::numeric_limits<double>::quiet_NaN();
}
double HybridSystem::penetration(int, double, ConstVectorRef) const {
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace libcont
