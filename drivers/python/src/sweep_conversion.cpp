#include "sweep_conversion.hpp"

#include <pybind11/stl.h>

#include <cmath>

#include "arrays.hpp"

namespace py = pybind11;

namespace libcont_python {

py::dict points_dict(const libcont::SweepOptions& o, const std::vector<libcont::SweepPoint>& points,
                     long dimension) {
  std::vector<double> first, second, sum, sum_error, a_i, a_e, largest;
  std::vector<int> p, n, condition, averaged;
  std::vector<std::string> pass, status, regime, message;
  std::vector<libcont::Vector> exponents, errors;
  py::list samples, velocities;
  for (const auto& point : points) {
    first.push_back(point.parameter);
    second.push_back(point.second_parameter);
    p.push_back(point.p);
    n.push_back(point.n);
    condition.push_back(point.key.initial_condition);
    averaged.push_back(point.averaged_periods);
    pass.push_back(libcont::to_string(point.key.pass));
    status.push_back(libcont::to_string(point.status));
    message.push_back(point.message);
    regime.push_back(libcont::to_string(point.regime()));
    exponents.push_back(point.exponents);
    sum.push_back(point.exponents.size() ? point.exponent_sum : NAN);
    errors.push_back(point.exponent_errors);
    sum_error.push_back(point.exponent_sum_error);
    largest.push_back(point.largest_exponent());
    a_i.push_back(point.impacts_per_period);
    a_e.push_back(point.energy_per_period);
    samples.append(to_matrix(point.samples, dimension));
    velocities.append(to_array(point.impact_velocities));
  }
  py::dict columns;
  columns[py::str(o.parameter)] = to_array(first);
  if (o.grid()) columns[py::str(o.second_parameter)] = to_array(second);
  columns["direction"] = pass;
  columns["initial_condition"] = to_array(condition);
  columns["p"] = to_array(p);
  columns["n"] = to_array(n);
  columns["exponent_sum"] = to_array(sum);
  columns["exponent_sum_error"] = to_array(sum_error);
  columns["largest_exponent"] = to_array(largest);
  columns["a_i"] = to_array(a_i);
  columns["a_e"] = to_array(a_e);
  columns["averaged_periods"] = to_array(averaged);
  columns["status"] = status;
  columns["regime"] = regime;
  py::dict d;
  d["columns"] = columns;
  // Points that failed before averaging have no exponents: their row is NaN.
  d["exponents"] = to_matrix(exponents, dimension);
  d["exponent_errors"] = to_matrix(errors, dimension);
  d["samples"] = samples;
  d["impact_velocities"] = velocities;
  d["messages"] = message;
  return d;
}

}  // namespace libcont_python
