#include "libcont/hybrid_system.hpp"

#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "libcont/affine_modes.hpp"
#include "libcont/input_error.hpp"

namespace libcont {

namespace {

// The first affine mode whose data (x' = A x + b0 + b_cos cos + b_sin sin) is not finite
// (AffineMode::finite), or -1.
// Extreme parameters (a mass of 1e-308, a stiffness of 1e308) overflow there, where the
// exact flow would otherwise refuse the data with no parameter to name. The scratch is
// reused: continuation sets a parameter at every map evaluation.
int first_nonfinite_affine_mode(const HybridSystem& system) {
  const AffineModes* modes = system.affine_modes();
  if (!modes) return -1;
  for (const Parameter& p : system.parameters().all())
    if (p.required && !p.given) return -1;  // a run checks these first (check_required)
  thread_local AffineMode data;
  data.resize(system.dimension());
  for (int mode = 0; mode < system.mode_count(); ++mode)
    if (modes->affine_mode(mode, data) && !data.finite()) return mode;
  return -1;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` has `word` as a whole word (a parameter's name, not part of another).
bool names_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !is_word_char(text[at - 1])) && (end == text.size() || !is_word_char(text[end])))
      return true;
  }
  return false;
}

}  // namespace

std::string unit_quotient(const std::string& numerator, const std::string& denominator) {
  if (numerator.empty() || denominator.empty()) return {};
  if (denominator == "1") return numerator;
  return numerator + "/" + denominator;
}

void HybridSystem::set_parameter(std::string_view name, double value) {
  const ParameterSet::Saved saved[] = {parameters_.save(name)};
  // The value it has, to the bit: the model as configured stands. A continuation sets its
  // parameter before every evaluation, most often to the value it has (differences in
  // the state), and declaring a large structure again costs as much as a short pass.
  if (saved[0].given && std::bit_cast<std::uint64_t>(saved[0].value) == std::bit_cast<std::uint64_t>(value))
    return;
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
  if (saved.empty()) return;
  try {
    commit(saved);
  } catch (const InputError& error) {
    // A rule on the final set names the parameters; put where they were set before it
    // ("run.ini:3: m = 1e-308 makes ..."), each place once.
    std::string origins;
    for (const auto& a : assignments)
      if (!a.origin.empty() && names_word(error.what(), a.name) &&
          !names_word(origins, a.origin))
        origins += a.origin + ": ";
    if (origins.empty()) throw;
    throw InputError(origins + error.what());
  }
}

void HybridSystem::commit(std::span<const ParameterSet::Saved> saved) {
  // "eta = 1e-308, m = 2": the values just set, built only for an error message.
  const auto changed_values = [&] {
    std::string changed;
    for (const auto& s : saved) {
      const Parameter& p = parameters_.all()[s.index];
      changed += (changed.empty() ? "" : ", ") + p.name + " = " + parameters_.value_text(p);
    }
    return changed;
  };
  try {
    try {
      configure();
      data_changed();
      const double period = forcing_period();
      if (!(period >= 0.0) || !std::isfinite(period))
        throw InputError(changed_values() + " gives the forcing period " + number_text(period) +
                         ": it must be finite");
      if (const int mode = first_nonfinite_affine_mode(*this); mode >= 0)
        throw InputError(changed_values() + " makes the equations of motion of mode '" +
                         mode_name(mode) + "' overflow (a coefficient is not finite)");
    } catch (const InputError& error) {
      // A rule of the model checked on derived quantities (a Poisson ratio passed on to
      // the contact law) may not know the parameter's name: the values just set made it.
      const std::string_view message = error.what();
      for (const auto& s : saved)
        if (names_word(message, parameters_.all()[s.index].name)) throw;
      throw InputError(changed_values() + ": " + error.what());
    }
  } catch (const InputError&) {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) parameters_.restore(*it);
    try {
      configure();  // the previous set, consistent before the change
    } catch (const InputError&) {
    }
    data_changed();
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
