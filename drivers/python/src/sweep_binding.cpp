// libcont.sweep: a brute-force bifurcation diagram (libcont::Sweep) with vicont sweep's
// defaults (101 values, 1000 transient and 1000 averaged periods, n up to 16, every point
// from the default state, 100 kept samples, 10 per cell of a grid), on `threads` threads
// with the GIL released; results identical to vicont's for the same inputs.
#include <pybind11/stl.h>

#include <atomic>
#include <cmath>

#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "libcont/input_error.hpp"
#include "libcont/sweep.hpp"
#include "python_values.hpp"
#include "sweep_conversion.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

struct SweepArguments {
  long steps = 101;
  std::string second;  // empty: one parameter
  double second_from = 0.0, second_to = 0.0;
  long second_steps = 101;
  std::string direction;  // up | down | both; empty: from `from` towards `to`
  bool follow = false;
  py::object initial_states = py::none();
  long threads = 1;
  long transient = 1000, periods = 1000, max_period = 16;
  long samples = 0;  // 0: 100, or 10 per cell of a grid
  std::string integrator = "auto";
};

libcont::SweepDirection direction_of(const std::string& name, double from, double to) {
  if (name.empty()) return to >= from ? libcont::SweepDirection::Up : libcont::SweepDirection::Down;
  if (name == "up") return libcont::SweepDirection::Up;
  if (name == "down") return libcont::SweepDirection::Down;
  if (name == "both") return libcont::SweepDirection::Both;
  throw libcont::InputError("direction must be up, down or both (got '" + name + "')");
}

py::dict sweep(const ConfiguredSystem& model, const std::string& parameter, double from, double to,
               const SweepArguments& a, const py::object& progress) {
  const auto probe = model.make();
  libcont::SweepOptions o;
  o.parameter = model.parameter_name(parameter);
  o.from = finite(from, "from");
  o.to = finite(to, "to");
  o.steps = count(a.steps, 1, "steps", 1000000);
  if (!a.second.empty()) {
    o.second_parameter = model.parameter_name(a.second);
    if (o.second_parameter == o.parameter)
      throw libcont::InputError("second parameter " + a.second +
                                " is the swept parameter; a grid needs two different parameters");
    o.second_from = finite(a.second_from, "second from");
    o.second_to = finite(a.second_to, "second to");
    o.second_steps = count(a.second_steps, 1, "second steps", 1000000);
  }
  o.direction = direction_of(a.direction, from, to);
  o.follow_attractor = a.follow;
  o.initial_states = states_from(a.initial_states, probe->dimension(), "initial_states");
  o.threads = count(a.threads, 1, "threads", limits::threads);
  o.lyapunov.transient_periods = count(a.transient, 0, "transient", limits::periods);
  o.lyapunov.periods = count(a.periods, 1, "periods", limits::periods);
  o.lyapunov.max_detected_period = count(a.max_period, 1, "max_period", limits::detected_period);
  o.lyapunov.flow = flow_options(a.integrator);
  o.kept_samples = a.samples > 0 ? count(a.samples, 1, "samples", 10000) : o.grid() ? 10 : 100;
  const double planned = static_cast<double>(o.steps) * (o.grid() ? o.second_steps : 1) *
                         std::max<size_t>(1, o.initial_states.size()) *
                         (o.follow_attractor && o.direction == libcont::SweepDirection::Both ? 2 : 1);
  if (planned > 1e6)
    throw libcont::InputError("steps " + std::to_string(o.steps) + " make " +
                              libcont::number_text(planned) + " sweep points; at most 1e6");
  CancellableCall call(progress);
  o.lyapunov.flow.cancel = call.cancel_flag();  // the points running end at once
  const libcont::Sweep runner(model.factory(), o);  // validates the parameters and states

  libcont::SweepResult result;
  int done = 0;
  call.run([&] {
    result = runner.run({}, [&](const libcont::SweepPoint& point) {
      call.report({{"points", ++done}, {"total", planned}, {"parameter", point.parameter}});
      return !call.cancelled();
    });
  });
  py::dict d = points_dict(o, result.points, probe->dimension());
  d["parameter"] = o.parameter;
  d["second"] = o.second_parameter;
  d["status"] = libcont::to_string(result.status);
  d["message"] = result.message;
  d["complete"] = result.complete;
  d["failed"] = result.failed();
  d["state_names"] = probe->state_names();
  return d;
}

}  // namespace

void bind_sweep(py::module_& m) {
  py::class_<SweepArguments>(m, "SweepArguments")
      .def(py::init([](long steps, std::string second, double second_from, double second_to,
                       long second_steps, std::string direction, bool follow,
                       py::object initial_states, long threads, long transient, long periods,
                       long max_period, long samples, std::string integrator) {
             return SweepArguments{steps, std::move(second), second_from, second_to, second_steps,
                                   std::move(direction), follow, std::move(initial_states), threads,
                                   transient, periods, max_period, samples, std::move(integrator)};
           }),
           py::arg("steps"), py::arg("second"), py::arg("second_from"), py::arg("second_to"),
           py::arg("second_steps"), py::arg("direction"), py::arg("follow"),
           py::arg("initial_states"), py::arg("threads"), py::arg("transient"), py::arg("periods"),
           py::arg("max_period"), py::arg("samples"), py::arg("integrator"));
  m.def("sweep", &sweep, py::arg("system"), py::arg("parameter"), py::arg("from"), py::arg("to"),
        py::arg("arguments"), py::arg("progress"));
}

}  // namespace libcont_python
