#include "libcont/hybrid_system.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

void HybridSystem::set_parameter(std::string_view name, double value) {
  const ParameterSet::Saved saved[] = {parameters_.save(name)};
  parameters_.set(name, value);
  commit(saved);
}

void HybridSystem::set_parameter_text(std::string_view name, std::string_view text) {
  const ParameterSet::Saved saved[] = {parameters_.save(name)};
  parameters_.set_from_text(name, text);
  commit(saved);
}

void HybridSystem::set_parameters(const std::vector<ParameterAssignment>& assignments) {
  std::vector<ParameterSet::Saved> saved;
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
  }
  if (!saved.empty()) commit(saved);
}

void HybridSystem::commit(std::span<const ParameterSet::Saved> saved) {
  try {
    configure();
    const double period = forcing_period();
    if (!(period >= 0.0) || !std::isfinite(period)) {
      std::string changed;  // "eta = 1e-308": the values just set
      for (const auto& s : saved) {
        const Parameter& p = parameters_.all()[s.index];
        changed += (changed.empty() ? "" : ", ") + p.name + " = " + parameters_.value_text(p);
      }
      throw InputError(changed + " gives the forcing period " + number_text(period) +
                       ": it must be finite");
    }
  } catch (const InputError&) {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) parameters_.restore(*it);
    try {
      configure();  // the previous set, consistent before the change
    } catch (const InputError&) {
    }
    throw;
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

EventOutcome HybridSystem::apply_event(int mode, int event, double /*t*/,
                                       VectorRef /*x*/) const {
  return EventOutcome{mode, event_spec(mode, event).kind, true};
}

}  // namespace libcont
