#pragma once
// A traced two-parameter curve as the package keeps it: the curve, the system (catalogue
// name and assignments) and the ranges it was traced in, so that the curves issuing from
// its codimension-two points can be switched onto (vicont curve --restart CURVE:LABEL --kind).
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "configured_system.hpp"
#include "libcont/orbit_curve.hpp"

namespace libcont_python {

// vicont curve's options (--max-points, the arclength steps, --integrator), defaults as there.
struct CurveSettings {
  long max_points = 500;
  std::optional<double> initial_step, max_step, min_step, locate_tolerance;
  std::optional<double> corrector_tolerance;
  std::string integrator = "auto";
};

struct CurveRun {
  ConfiguredSystem model;
  libcont::OrbitCurve curve;
  double from = 0.0, to = 0.0;              // p2's range
  double first_min = 0.0, first_max = 0.0;  // p1's
  CurveSettings settings;
};

pybind11::dict curve_dict(const CurveRun& run);

}  // namespace libcont_python
