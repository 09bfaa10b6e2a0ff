#include "run_limits.hpp"

#include <cmath>

#include "libcont/input_error.hpp"
#include "output.hpp"
#include "system_report.hpp"

namespace vicont {

void check_forcing_period(const libcont::HybridSystem& system, const std::string& source) {
  const double period = system.forcing_period();
  if (period == 0.0) return;  // autonomous
  if (period >= limits::min_period && period <= limits::max_period) return;
  throw libcont::InputError("the forcing period of " + system.name() + " is " +
                            number_text(period) + " with " + source + "; vicont takes periods from " +
                            number_text(limits::min_period) + " to " +
                            number_text(limits::max_period) + " (doc/cli.md, Limits)");
}

void check_initial_state(const libcont::HybridSystem& system, const std::string& source) {
  const libcont::Vector x = system.default_initial_state();
  if (x.allFinite()) return;
  const auto names = system.state_names();
  std::string shown;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      shown += (shown.empty() ? "" : ", ") +
               (static_cast<size_t>(i) < names.size() ? names[static_cast<size_t>(i)]
                                                      : "x" + std::to_string(i)) +
               " = " + number_text(x[i]);
  throw libcont::InputError("the initial state of " + system.name() + " is not finite (" + shown +
                            ") with " + source + ": there is no state to start from");
}

void check_forcing_period_over(const std::function<std::unique_ptr<libcont::HybridSystem>()>& make,
                               const std::string& parameter,
                               const std::vector<std::pair<double, std::string>>& ends) {
  for (const auto& [value, option] : ends) {
    const auto system = make();
    try {
      system->set_parameter(parameter, value);  // names a parameter the system lacks
    } catch (const libcont::InputError& error) {
      throw libcont::InputError(option + " " + number_text(value) + ": " + error.what());
    }
    check_forcing_period(*system, parameter + " = " + number_text(value) + " (" + option + ")");
  }
}

std::string parameter_values_text(const libcont::HybridSystem& system,
                                  const std::vector<std::string>& names) {
  if (names.empty()) return "its default parameters";
  const auto values = parameters_json(system);
  std::string text;
  for (const auto& name : names) {
    if (text.find(name + " = ") != std::string::npos) continue;  // set twice
    text += (text.empty() ? "" : ", ") + name + " = " +
            (values.contains(name) ? values[name].dump() : std::string("?"));
  }
  return text;
}

}  // namespace vicont
