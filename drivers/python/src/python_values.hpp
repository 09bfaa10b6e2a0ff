#pragma once
// Python keyword values as the text a parameter takes (a number's shortest exact text, a
// choice's word), and the small option readers every analysis shares.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "arrays.hpp"
#include "configured_system.hpp"
#include "libcont/flow.hpp"

namespace libcont_python {

// {name: value} in order; InputError naming a value that is neither a number nor a word.
ConfiguredSystem::Assignments assignments_from(const pybind11::dict& values);

// The integrator by vicont's names: auto, rk, adams, bdf (InputError otherwise).
libcont::FlowOptions flow_options(const std::string& integrator);

// A count >= minimum, named in the error ("periods must be a whole number >= 1, got -5").
int count(long value, long minimum, const std::string& name);
// An optional positive finite number.
std::optional<double> positive(const std::optional<double>& value, const std::string& name);
// A finite number.
double finite(double value, const std::string& name);

}  // namespace libcont_python
