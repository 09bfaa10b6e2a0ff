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

// vicont's limits on counts (doc/cli.md, Limits): what can be done in memory and in time.
namespace limits {
inline constexpr long periods = 10'000'000;   // forcing periods of one phase of a run
inline constexpr long detected_period = 1000; // n of z = p/n
inline constexpr long threads = 1024;
inline constexpr long branch_points = 1'000'000;
}  // namespace limits

// A count from minimum to maximum, named in the error ("periods must be a whole number
// from 1 to 10000000 (got -5)").
int count(long value, long minimum, const std::string& name, long maximum = 1'000'000'000);
// An optional positive finite number.
std::optional<double> positive(const std::optional<double>& value, const std::string& name);
// A finite number.
double finite(double value, const std::string& name);

}  // namespace libcont_python
