#pragma once
// One function per concept of the module, each adding its classes and functions to _core.
#include <pybind11/pybind11.h>

namespace libcont_python {

void bind_errors(pybind11::module_& m);
void bind_systems(pybind11::module_& m);
void bind_simulate(pybind11::module_& m);
void bind_lyapunov(pybind11::module_& m);
void bind_orbit(pybind11::module_& m);
void bind_branches(pybind11::module_& m);
void bind_curves(pybind11::module_& m);
void bind_parameter_map(pybind11::module_& m);
void bind_sweep(pybind11::module_& m);
void bind_diagram(pybind11::module_& m);
void bind_basins(pybind11::module_& m);
void bind_impact(pybind11::module_& m);
void bind_branch_drawing(pybind11::module_& m);

}  // namespace libcont_python
