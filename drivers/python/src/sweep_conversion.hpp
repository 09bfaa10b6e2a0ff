#pragma once
// Sweep points as the package's SweepResult reads them (libcont.sweep, and the integration
// points of libcont.diagram).
#include <pybind11/pybind11.h>

#include <vector>

#include "libcont/sweep.hpp"

namespace libcont_python {

// The points' columns (the parameter(s) named by `o`, direction, initial condition, p, n,
// exponent sum, largest exponent, a_i, a_e, averaged periods, status, regime), the
// exponents as a matrix, the kept samples and impact velocities, the messages.
pybind11::dict points_dict(const libcont::SweepOptions& o,
                           const std::vector<libcont::SweepPoint>& points, long dimension);

}  // namespace libcont_python
