// libcont.impact: one collinear Hertz impact with positional friction (the hertz-friction
// system), in closed form through Ateb functions and by event-driven integration of the
// two-stage equation, as vicont impact computes both.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "libcont/input_error.hpp"
#include "python_values.hpp"
#include "systems/hertz_friction.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

py::dict characteristics(const libcont::HertzFrictionImpactCharacteristics& c, double v0) {
  py::dict d;
  d["x_c"] = c.x_c;
  d["P_c"] = c.P_c;
  d["P_c_star"] = c.P_c_star;
  d["t_c"] = c.t_c;
  d["t_y"] = c.t_y;
  d["restitution"] = -c.rebound_velocity / v0;
  d["rebound_velocity"] = c.rebound_velocity;
  return d;
}

py::dict impact(const ConfiguredSystem& model, const std::string& integrator) {
  const auto made = model.make();
  const auto* system = dynamic_cast<const systems::HertzFrictionImpactSystem*>(made.get());
  if (!system)
    throw libcont::InputError("impact works on the system hertz-friction only (got '" +
                              made->name() + "')");
  const libcont::HertzFrictionImpact exact = system->closed_form();
  const double v0 = system->impact_velocity();
  const systems::SimulatedImpact ode = systems::simulate_impact(*system, flow_options(integrator));
  py::dict d;
  d["closed_form"] = characteristics(exact.characteristics(), v0);
  d["ode"] = characteristics(ode.characteristics, v0);
  d["v0"] = v0;
  d["mass"] = system->mass();
  d["ok"] = ode.ok();
  d["status"] = libcont::to_string(ode.report.status);
  d["message"] = ode.failure.empty() ? ode.report.message : ode.failure;
  d["parameters"] = model.assignments();
  return d;
}

// x(t), v(t), P(t) of the closed form at the given times.
py::dict impact_profile(const ConfiguredSystem& model, const py::array_t<double>& times) {
  const auto made = model.make();
  const auto* system = dynamic_cast<const systems::HertzFrictionImpactSystem*>(made.get());
  if (!system) throw libcont::InputError("impact works on the system hertz-friction only");
  const libcont::HertzFrictionImpact exact = system->closed_form();
  const auto t = times.unchecked<1>();
  py::array_t<double> x(t.shape(0)), v(t.shape(0)), force(t.shape(0));
  for (py::ssize_t k = 0; k < t.shape(0); ++k) {
    x.mutable_at(k) = exact.penetration(t(k));
    v.mutable_at(k) = exact.velocity(t(k));
    force.mutable_at(k) = exact.force(t(k));
  }
  py::dict d;
  d["t"] = times;
  d["x"] = x;
  d["v"] = v;
  d["P"] = force;
  return d;
}

}  // namespace

void bind_impact(py::module_& m) {
  m.def("impact", &impact, py::arg("system"), py::arg("integrator"));
  m.def("impact_profile", &impact_profile, py::arg("system"), py::arg("times"));
}

}  // namespace libcont_python
