#include "libcont/orbit_point_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "libcont/input_error.hpp"

namespace libcont {

double OrbitPointData::amplitude(std::string_view coordinate) const {
  for (size_t i = 0; i < coordinates.size(); ++i)
    if (coordinates[i] == coordinate) return amplitudes[i];
  throw InputError("no amplitude of '" + std::string(coordinate) +
                   "': not a displacement coordinate of the orbit");
}

OrbitPointData orbit_point_data(const std::vector<std::string>& names, ConstVectorRef data) {
  if (static_cast<Eigen::Index>(names.size()) != data.size())
    throw InputError("orbit point data: " + std::to_string(data.size()) + " values for " +
                     std::to_string(names.size()) + " names");
  OrbitPointData d;
  const std::string_view amplitude = "A_max:";
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    const double value = data[static_cast<Eigen::Index>(i)];
    if (name.starts_with(amplitude)) {
      d.coordinates.push_back(name.substr(amplitude.size()));
      d.amplitudes.push_back(value);
    } else if (name == "impacts") {
      d.impacts = static_cast<int>(std::lround(value));
    } else if (name == "spectral_radius") {
      d.spectral_radius = value;
    } else if (name == "min_gap") {
      d.min_gap = value;
    } else if (name == "slowest_impact") {
      d.slowest_impact = value;
    } else if (name == "section_clearance") {
      d.section_clearance = value;
    } else if (name.starts_with("mu") && name.ends_with(":re")) {
      // "mu<k>:re", then "mu<k>:im": the k-th multiplier.
      const int k = std::atoi(name.c_str() + 2);
      if (k < 1 || i + 1 >= names.size() || names[i + 1] != "mu" + std::to_string(k) + ":im")
        throw InputError("orbit point data: '" + name + "' without its imaginary part");
      d.multipliers.emplace_back(value, data[static_cast<Eigen::Index>(i + 1)]);
      ++i;
    } else {
      throw InputError("orbit point data: unknown value '" + name + "'");
    }
  }
  return d;
}

bool stable_by_data(const std::vector<std::string>& names, ConstVectorRef data) {
  const auto it = std::find(names.begin(), names.end(), "spectral_radius");
  const auto at = static_cast<Eigen::Index>(it - names.begin());
  return it != names.end() && at < data.size() && data[at] < 1.0;
}

}  // namespace libcont
