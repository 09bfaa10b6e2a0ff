// libcont.orbit: one periodic orbit z = p/n found as vicont orbit finds it
// (find_periodic_orbit: a transient of 300 periods, n read from the settled motion, shooting,
// a quiet section), its Floquet multipliers (all of them from the monodromy matrix up to
// 1000 states, else the 6 of largest modulus by Arnoldi) and one pass of it: the path and
// its measures, extrema located exactly by the flow's monitors.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "libcont/leading_multipliers.hpp"
#include "libcont/orbit_measures.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "orbit_search_options.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

// The measurer sees the pass; the path keeps its samples.
struct PassObserver : libcont::FlowObserver {
  explicit PassObserver(libcont::OrbitMeasurer& m) : measurer(m) {}
  void on_event(const libcont::EventRecord& e) override {
    measurer.on_event(e);
    keep(e.t, e.x_minus);
    keep(e.t, e.x_plus);
  }
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
    measurer.on_sample(t, x, mode);
    keep(t, x);
  }
  void on_extremum(int i, double t, libcont::ConstVectorRef x, int mode) override {
    measurer.on_extremum(i, t, x, mode);
  }
  void on_gap_minimum(int j, double t, double gap, libcont::ConstVectorRef x, int mode) override {
    measurer.on_gap_minimum(j, t, gap, x, mode);
  }
  void keep(double t, libcont::ConstVectorRef x) {
    times.push_back(t);
    states.push_back(x);
  }
  libcont::OrbitMeasurer& measurer;
  std::vector<double> times;
  std::vector<libcont::Vector> states;
};

py::dict orbit(const ConfiguredSystem& model, const OrbitSearchArguments& arguments,
               const py::object& progress) {
  const auto system = model.make();
  libcont::OrbitSearchOptions options = arguments.options(*system);
  options.validate();
  CancellableCall call(progress);
  options.shooting.flow.cancel = call.cancel_flag();
  libcont::OrbitSearchResult found;
  libcont::OrbitMultipliers multipliers;
  libcont::OrbitMeasurer measurer(*system, system->displacement_coordinates());
  PassObserver pass(measurer);
  libcont::FlowReport pass_report;
  call.run([&] {
    found = libcont::find_periodic_orbit(*system, options);
    if (!found.shooting.converged) return;
    multipliers = libcont::orbit_multipliers(*system, found.shooting, found.period, found.phase,
                                             options.shooting.flow);
    libcont::FlowOptions flow = options.shooting.flow;
    flow.extremum_coordinates = system->displacement_coordinates();
    flow.gap_minima = true;
    libcont::Flow one_pass(*system, flow);
    libcont::FlowState state = one_pass.initial_state(found.phase, found.shooting.x);
    measurer.start(found.shooting.x);
    pass.keep(state.t, state.x);
    const double period = system->forcing_period();
    pass_report = one_pass.advance(state, found.phase + found.period * period, &pass,
                                   libcont::SampleGrid{found.phase, period / 200.0});
    if (pass.times.back() < state.t) pass.keep(state.t, state.x);  // the end, off the grid
  });

  const libcont::ShootingResult& s = found.shooting;
  py::dict d;
  d["converged"] = s.converged;
  d["status"] = libcont::to_string(found.status);
  d["message"] = found.message.empty() ? multipliers.failure : found.message;
  d["reason"] = s.reason;
  d["state"] = to_array(s.x);
  d["phase"] = found.phase;
  d["n"] = found.period;
  d["p"] = s.p;
  d["period_note"] = found.period_note;
  d["iterations"] = s.iterations;
  d["residual_history"] = s.residual_history;
  d["multipliers"] = to_complex_array(multipliers.values);
  const double radius = multipliers.values.size() ? std::abs(multipliers.values[0]) : 0.0;
  d["spectral_radius"] = radius;
  d["stable"] = s.converged && multipliers.failure.empty() && radius < 1.0;
  d["state_names"] = system->state_names();
  const libcont::OrbitMeasures& measures = measurer.measures();
  py::dict amplitudes;
  const auto names = system->state_names();
  if (s.converged)
    for (size_t k = 0; k < measures.coordinates.size(); ++k)
      amplitudes[py::str(names[static_cast<size_t>(measures.coordinates[k])])] = measures.semi_amplitude(k);
  py::dict m;
  m["A_max"] = amplitudes;
  m["impacts"] = measures.impacts;
  m["slowest_impact"] = measures.slowest_impact;
  m["min_gap"] = measures.minimum_gap;
  m["sticks"] = measures.sticks;
  d["measures"] = m;
  d["t"] = to_array(pass.times);
  d["x"] = to_matrix(pass.states, system->dimension());
  d["pass_status"] = libcont::to_string(pass_report.status);
  return d;
}

}  // namespace

void bind_orbit(py::module_& m) {
  bind_orbit_search_arguments(m);
  m.def("orbit", &orbit, py::arg("system"), py::arg("search"), py::arg("progress"));
}

}  // namespace libcont_python
