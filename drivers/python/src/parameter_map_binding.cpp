// libcont.parameter_map: the curves of the orbits z = p/n in a box of two parameters
// (map_parameter_plane, as vicont map without its brute-force grid), each seed branch and
// curve piece kept as a branch or curve of its own (so it can be restarted or switched).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "branch_run.hpp"
#include "cancellable_call.hpp"
#include "curve_run.hpp"
#include "libcont/parameter_plane.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

struct MapArguments {
  long max_period = 5, max_impacts = 20, lines = 3, seeds = 12, transient = 300, max_points = 500;
  py::object initial_states = py::none();
  std::string integrator = "auto";
};

py::dict parameter_map(const ConfiguredSystem& model, const std::string& first, double first_min,
                       double first_max, const std::string& second, double second_min,
                       double second_max, const MapArguments& a, const py::object& progress) {
  const auto system = model.make();
  libcont::ParameterPlaneOptions o;
  o.first = model.parameter_name(first);
  o.second = model.parameter_name(second);
  o.first_min = finite(first_min, "first_min");
  o.first_max = finite(first_max, "first_max");
  o.second_min = finite(second_min, "second_min");
  o.second_max = finite(second_max, "second_max");
  o.max_period = count(a.max_period, 1, "max_period", limits::detected_period);
  o.max_impacts = count(a.max_impacts, 1, "max_impacts");
  o.seed_lines = count(a.lines, 1, "lines");
  o.seeds_per_line = count(a.seeds, 1, "seeds");
  o.transient_periods = count(a.transient, 0, "transient", limits::periods);
  o.curve_max_points = count(a.max_points, 2, "max_points", limits::branch_points);
  o.initial_states = states_from(a.initial_states, system->dimension(), "initial_states");
  o.flow = flow_options(a.integrator);
  o.validate();
  CancellableCall call(progress);
  o.flow.cancel = call.cancel_flag();
  o.progress = [&call](const libcont::ParameterPlaneProgress& p) {
    call.report({{"lines_done", p.lines_done}, {"lines", p.lines}, {"branches", p.branches},
                 {"curves", p.curves}});
    return !call.cancelled();
  };
  libcont::ParameterPlaneMap map;
  call.run([&] { map = libcont::map_parameter_plane(*system, o); });

  BranchSettings branch_settings;
  branch_settings.integrator = a.integrator;
  py::list branches;
  for (const auto& piece : map.branches) {
    const ConfiguredSystem at = model.with({{second, libcont::number_text(piece.second)},
                                           {first, libcont::number_text(piece.seed)}});
    py::dict d;
    d["run"] = BranchRun{at, piece.branch, o.first_min, o.first_max, branch_settings};
    d["second"] = piece.second;
    d["seed"] = piece.seed;
    branches.append(d);
  }
  CurveSettings curve_settings;
  curve_settings.max_points = a.max_points;
  curve_settings.integrator = a.integrator;
  py::list curves;
  for (const auto& piece : map.curves) {
    py::dict d;
    const double from = piece.direction > 0 ? o.second_min : o.second_max;
    const double to = piece.direction > 0 ? o.second_max : o.second_min;
    d["run"] = CurveRun{model, piece.curve, from, to, o.first_min, o.first_max, curve_settings};
    d["branch"] = piece.branch;
    d["special_point"] = piece.special_point;
    d["direction"] = piece.direction;
    curves.append(d);
  }
  py::dict d;
  d["first"] = map.first;
  d["second"] = map.second;
  d["box"] = py::make_tuple(o.first_min, o.first_max, o.second_min, o.second_max);
  d["branches"] = branches;
  d["curves"] = curves;
  d["notes"] = map.notes;
  d["searches"] = map.searches;
  d["orbits_found"] = map.orbits_found;
  d["stopped"] = map.stopped;
  return d;
}

}  // namespace

void bind_parameter_map(py::module_& m) {
  py::class_<MapArguments>(m, "MapArguments")
      .def(py::init([](long max_period, long max_impacts, long lines, long seeds, long transient,
                       long max_points, py::object initial_states, std::string integrator) {
             return MapArguments{max_period, max_impacts, lines, seeds, transient, max_points,
                                 std::move(initial_states), std::move(integrator)};
           }),
           py::arg("max_period"), py::arg("max_impacts"), py::arg("lines"), py::arg("seeds"),
           py::arg("transient"), py::arg("max_points"), py::arg("initial_states"),
           py::arg("integrator"));
  m.def("parameter_map", &parameter_map, py::arg("system"), py::arg("first"), py::arg("first_min"),
        py::arg("first_max"), py::arg("second"), py::arg("second_min"), py::arg("second_max"),
        py::arg("arguments"), py::arg("progress"));
}

}  // namespace libcont_python
