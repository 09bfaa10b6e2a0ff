#include "orbit_search_options.hpp"

#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

libcont::OrbitSearchOptions OrbitSearchArguments::options(const libcont::HybridSystem& system) const {
  libcont::OrbitSearchOptions o;
  o.transient_periods = count(transient, 0, "transient", limits::periods);
  o.period = count(period, 0, "period", limits::detected_period);
  o.max_period = count(max_period, 1, "max_period", limits::detected_period);
  o.shooting.multiple = multiple;
  o.shooting.flow = flow_options(integrator);
  o.initial_state = state_from(x0, system.dimension(), "x0");
  return o;
}

void bind_orbit_search_arguments(py::module_& m) {
  py::class_<OrbitSearchArguments>(m, "OrbitSearch")
      .def(py::init([](long transient, long period, long max_period, bool multiple,
                       std::string integrator, py::object x0) {
             return OrbitSearchArguments{transient, period, max_period, multiple,
                                         std::move(integrator), std::move(x0)};
           }),
           py::arg("transient"), py::arg("period"), py::arg("max_period"), py::arg("multiple"),
           py::arg("integrator"), py::arg("x0"));
}

}  // namespace libcont_python
