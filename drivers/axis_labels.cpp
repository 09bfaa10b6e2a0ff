#include "axis_labels.hpp"

#include <map>

#include "libcont/hybrid_system.hpp"

namespace vicont {

namespace {

// The units of the run's quantities by column name (use_units_of), and the time unit.
struct RunUnits {
  std::map<std::string, std::string> of;
  std::string time, velocity, energy;
};

RunUnits& run_units() {
  static RunUnits units;
  return units;
}

}  // namespace

void use_units_of(const libcont::HybridSystem& system) {
  RunUnits units;
  for (const auto& p : system.parameters().all()) units.of[p.name] = p.unit;
  const auto names = system.state_names();
  const auto state_units = system.state_units();
  for (size_t i = 0; i < names.size() && i < state_units.size(); ++i)
    units.of[names[i]] = state_units[i];
  units.time = system.time_unit();
  // Impact velocities are rates of the displacement coordinates; the energy changes at
  // impacts are kinetic energies, in joules for a model in metres and seconds.
  const auto displacement = system.displacement_coordinates();
  const size_t first = displacement.empty() ? 0 : static_cast<size_t>(displacement.front());
  const std::string length = first < state_units.size() ? state_units[first] : std::string();
  units.velocity = libcont::unit_quotient(length, units.time);
  units.energy = length == "1" && units.time == "1"   ? "1"
                 : length == "m" && units.time == "s" ? "J"
                                                      : "";
  run_units() = std::move(units);
}

std::string with_unit(const std::string& name, const std::string& unit) {
  if (unit.empty()) return name;
  return name + " [" + (unit == "1" ? std::string("-") : unit) + "]";
}

std::string axis_label(const std::string& column) {
  const RunUnits& units = run_units();
  const auto unit_of = [&](const std::string& name) {
    const auto found = units.of.find(name);
    return found == units.of.end() ? std::string() : found->second;
  };
  if (units.of.count(column)) return with_unit(column, unit_of(column));
  if (column == "t") return with_unit("t", units.time);
  const std::string amplitude = "A_max:";
  if (column.rfind(amplitude, 0) == 0) {
    const std::string state = column.substr(amplitude.size());
    return with_unit("max " + state, unit_of(state));
  }
  if (column.rfind("lambda_", 0) == 0 || column == "largest_exponent")
    return with_unit(column == "largest_exponent" ? "largest Lyapunov exponent" : column,
                     libcont::unit_quotient("1", units.time));
  if (column == "a_i") return with_unit("a_i (impacts per period)", "1");
  if (column == "a_e") return with_unit("a_e (energy change per period)", units.energy);
  if (column == "v_r") return with_unit("v_r at impacts", units.velocity);
  return column;
}

}  // namespace vicont
