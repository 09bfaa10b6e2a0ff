// The compiled part of the Python package libcont (drivers/python/libcont): the catalogue's
// systems and the library's analyses, returning plain dicts of numpy arrays that the
// package's result classes wrap.
#include "bindings.hpp"

#include "libcont/version.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "libcont's compiled core; use the package libcont";
  m.attr("__version__") = LIBCONT_VERSION;
  libcont_python::bind_errors(m);
  libcont_python::bind_systems(m);
  libcont_python::bind_simulate(m);
  libcont_python::bind_lyapunov(m);
  libcont_python::bind_orbit(m);
  libcont_python::bind_branches(m);
  libcont_python::bind_curves(m);
  libcont_python::bind_parameter_map(m);
  libcont_python::bind_sweep(m);
  libcont_python::bind_diagram(m);
  libcont_python::bind_basins(m);
  libcont_python::bind_impact(m);
  libcont_python::bind_branch_drawing(m);
}
