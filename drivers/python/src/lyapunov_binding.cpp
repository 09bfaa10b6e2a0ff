// libcont.lyapunov: the Lyapunov spectrum with z = p/n, a_i, a_e and the impact velocities,
// with vicont lyapunov's defaults (1000 transient and 1000 averaged periods, n up to 16,
// section t = 0, from the model's default state).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

py::dict velocity_summary(const std::vector<double>& velocities) {
  const libcont::VelocitySummary v = libcont::summarize_velocities(velocities);
  py::dict d;
  d["count"] = v.count;
  d["mean"] = v.mean;
  d["rms"] = v.rms;
  d["min"] = v.min;
  d["max"] = v.max;
  d["slowest"] = v.slowest;
  return d;
}

py::dict lyapunov(const ConfiguredSystem& model, long transient, long periods, long max_period,
                  long batches, const py::object& x0, const std::string& integrator, const py::object& progress) {
  const auto system = model.make();
  libcont::LyapunovOptions options;
  options.transient_periods = count(transient, 0, "transient", limits::periods);
  options.periods = count(periods, 1, "periods", limits::periods);
  options.max_detected_period = count(max_period, 1, "max_period", limits::detected_period);
  options.batches = count(batches, 2, "batches", limits::periods);
  options.flow = flow_options(integrator);
  CancellableCall call(progress);
  options.flow.cancel = call.cancel_flag();
  libcont::Vector start = state_from(x0, system->dimension(), "x0");
  if (start.size() == 0) start = system->default_initial_state();
  const libcont::LyapunovSpectrum spectrum(*system, options);  // validates the counts

  libcont::LyapunovResult r;
  call.run([&] { r = spectrum.compute(0.0, start); });

  const double period = system->forcing_period() > 0.0 ? system->forcing_period()
                                                       : options.autonomous_period;
  py::dict d;
  d["exponents"] = to_array(r.exponents);
  d["exponent_sum"] = r.exponent_sum;
  d["exponent_errors"] = to_array(r.exponent_errors);
  d["exponent_sum_error"] = r.exponent_sum_error;
  d["batches"] = r.batches;
  d["p"] = r.p;
  d["n"] = r.n;
  d["a_i"] = r.impacts_per_period;
  d["a_e"] = r.energy_per_period;
  d["v_r"] = to_array(r.impacts.impact_velocities);
  d["impact_times"] = to_array(r.impacts.impact_times);
  d["velocity_summary"] = velocity_summary(r.impacts.impact_velocities);
  d["poincare"] = to_rows(r.poincare_samples);
  d["final_state"] = to_array(r.final_state.x);
  d["final_time"] = r.final_state.t;
  d["averaged_periods"] = std::lround(r.averaging_time / period);
  d["period"] = period;
  d["state_names"] = system->state_names();
  d["status"] = libcont::to_string(r.report.status);
  d["message"] = r.report.message;
  d["ok"] = r.ok();
  return d;
}

}  // namespace

void bind_lyapunov(py::module_& m) {
  m.def("lyapunov", &lyapunov, py::arg("system"), py::arg("transient"), py::arg("periods"),
        py::arg("max_period"), py::arg("batches"), py::arg("x0"), py::arg("integrator"), py::arg("progress"));
}

}  // namespace libcont_python
