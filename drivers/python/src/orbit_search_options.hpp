#pragma once
// How orbit() and continue_branch() find their first orbit, with vicont's defaults
// (--transient 300, --period 0: read n from the settled motion, --max-period 16, single
// shooting, --integrator auto), as one argument object both take.
#include <pybind11/pybind11.h>

#include <string>

#include "libcont/periodic_orbit_search.hpp"

namespace libcont_python {

struct OrbitSearchArguments {
  long transient = 300;
  long period = 0;
  long max_period = 16;
  bool multiple = false;
  std::string integrator = "auto";
  pybind11::object x0 = pybind11::none();
  // Checked (InputError naming the argument) against the system's dimension.
  libcont::OrbitSearchOptions options(const libcont::HybridSystem& system) const;
};

void bind_orbit_search_arguments(pybind11::module_& m);

}  // namespace libcont_python
