#include "python_values.hpp"

#include <climits>
#include <cmath>

#include "libcont/input_error.hpp"

namespace py = pybind11;

namespace libcont_python {

ConfiguredSystem::Assignments assignments_from(const py::dict& values) {
  ConfiguredSystem::Assignments assignments;
  for (const auto& [key, value] : values) {
    const std::string name = py::str(key);
    if (py::isinstance<py::str>(value)) {
      assignments.emplace_back(name, value.cast<std::string>());
    } else if (!py::isinstance<py::bool_>(value) && PyNumber_Check(value.ptr()) &&
               !PyComplex_Check(value.ptr())) {
      assignments.emplace_back(name, libcont::number_text(value.cast<double>()));
    } else {
      throw libcont::InputError("parameter " + name + ": expected a number or a word, got " +
                                std::string(py::str(py::type::of(value).attr("__name__"))));
    }
  }
  return assignments;
}

libcont::FlowOptions flow_options(const std::string& integrator) {
  libcont::FlowOptions options;
  if (integrator == "auto") options.method = libcont::IntegratorMethod::Auto;
  else if (integrator == "rk") options.method = libcont::IntegratorMethod::RungeKutta;
  else if (integrator == "adams") options.method = libcont::IntegratorMethod::Adams;
  else if (integrator == "bdf") options.method = libcont::IntegratorMethod::BDF;
  else
    throw libcont::InputError("integrator '" + integrator + "': expected auto, rk, adams or bdf");
  return options;
}

int count(long value, long minimum, const std::string& name, long maximum) {
  if (value < minimum || value > maximum || value > INT_MAX)
    throw libcont::InputError(name + " must be a whole number from " + std::to_string(minimum) +
                              " to " + std::to_string(maximum) + " (got " + std::to_string(value) +
                              ")");
  return static_cast<int>(value);
}

std::optional<double> positive(const std::optional<double>& value, const std::string& name) {
  if (value && !(std::isfinite(*value) && *value > 0.0))
    throw libcont::InputError(name + " must be a positive number (got " +
                              libcont::number_text(*value) + ")");
  return value;
}

double finite(double value, const std::string& name) {
  if (!std::isfinite(value))
    throw libcont::InputError(name + " must be a finite number (got " +
                              libcont::number_text(value) + ")");
  return value;
}

}  // namespace libcont_python
