// libcont.diagram: the hybrid bifurcation diagram (libcont::HybridDiagram) with vicont
// diagram's defaults (HybridDiagramOptions::for_range); results identical to vicont's for
// the same inputs. Each branch as its rows (parameter, stability, point data, section and
// state), its orbit at t = kT, its special points and the stretches integration settled
// on it again; the integration points as the rows of libcont.sweep.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "libcont/hybrid_diagram.hpp"
#include "libcont/orbit_branch.hpp"
#include "python_values.hpp"
#include "sweep_conversion.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

struct DiagramArguments {
  long steps = 61;
  long transient = 500, periods = 500, max_period = 16, samples = 50;
  std::optional<double> initial_step, max_step;
  py::object x0 = py::none();
  std::string integrator = "auto";
};

py::dict branch_dict(const libcont::DiagramBranch& b, const std::string& parameter,
                     const std::vector<std::string>& state_names) {
  const auto& points = b.branch.points;
  const auto rows = static_cast<py::ssize_t>(points.size());
  const auto dimension = static_cast<long>(state_names.size());
  py::dict columns;
  std::vector<double> lambda, phase;
  for (const auto& p : points) {
    lambda.push_back(p.lambda);
    phase.push_back(p.chart);
  }
  columns[py::str(parameter)] = to_array(lambda);
  py::array_t<bool> stable(rows);
  for (py::ssize_t r = 0; r < rows; ++r)
    stable.mutable_data()[r] = b.stable(points[static_cast<size_t>(r)]);
  columns["stable"] = stable;
  for (size_t k = 0; k < b.data_names.size(); ++k) {
    std::vector<double> values;
    for (const auto& p : points) values.push_back(p.data[static_cast<Eigen::Index>(k)]);
    columns[py::str(b.data_names[k])] = to_array(values);
  }
  columns["section_phase"] = to_array(phase);
  std::vector<libcont::Vector> states;
  for (const auto& p : points) states.push_back(p.u);
  const py::array_t<double> state = to_matrix(states, dimension);
  for (size_t i = 0; i < state_names.size(); ++i)
    columns[py::str(state_names[i])] =
        state[py::make_tuple(py::slice(0, rows, 1), static_cast<py::ssize_t>(i))];

  py::list stroboscopic;  // per row: the orbit at t = kT (mod nT), one row per lap k
  for (const auto& laps : b.stroboscopic) stroboscopic.append(to_rows(laps));
  py::list specials;
  for (size_t s = 0; s < b.branch.special_points.size(); ++s) {
    const libcont::SpecialPoint& special = b.branch.special_points[s];
    py::dict data;
    for (size_t k = 0; k < b.data_names.size(); ++k)
      data[py::str(b.data_names[k])] = special.data[static_cast<Eigen::Index>(k)];
    py::dict d;
    d["type"] = special.type_name();
    d["parameter"] = special.lambda;
    d["after_row"] = special.after_point;
    d["section_phase"] = special.chart;
    d["state"] = to_array(special.u);
    d["data"] = data;
    d["stroboscopic"] = to_rows(b.special_stroboscopic[s]);
    specials.append(d);
  }
  py::list rejoined;
  for (const auto& r : b.rejoined) {
    py::dict d;
    d["at"] = r.at;
    d["stable_until"] = r.stable_until;
    d["lost_by"] = r.lost_by;
    rejoined.append(d);
  }
  py::dict d;
  d["n"] = b.n;
  d["p"] = b.p;
  d["found_at"] = b.found_at;
  d["stable_until"] = b.stable_until;
  d["lost_by"] = b.lost_by;
  d["last_stable_state"] = to_array(b.last_stable_state);
  d["rejoined"] = rejoined;
  d["columns"] = columns;
  d["stroboscopic"] = stroboscopic;
  d["special_points"] = specials;
  d["status"] = libcont::to_string(b.branch.status);
  d["stop_reason"] = b.branch.stop_reason;
  d["stability_warnings"] = libcont::unexplained_stability_changes(b.branch, b.data_names);
  return d;
}

py::dict diagram(const ConfiguredSystem& model, const std::string& parameter, double from,
                 double to, const DiagramArguments& a, const py::object& progress) {
  const auto probe = model.make();
  auto o = libcont::HybridDiagramOptions::for_range(
      model.parameter_name(parameter), finite(from, "from"), finite(to, "to"),
      positive(a.initial_step, "initial_step"), positive(a.max_step, "max_step"));
  o.steps = count(a.steps, 2, "steps", 100000);
  o.lyapunov.transient_periods = count(a.transient, 0, "transient", limits::periods);
  o.lyapunov.periods = count(a.periods, 1, "periods", limits::periods);
  o.lyapunov.max_detected_period = count(a.max_period, 1, "max_period", limits::detected_period);
  o.kept_samples = count(a.samples, 1, "samples", 10000);
  o.lyapunov.flow = flow_options(a.integrator);
  o.initial_state = state_from(a.x0, probe->dimension(), "x0");
  if (o.initial_state.size() == 0) o.initial_state = probe->default_initial_state();
  CancellableCall call(progress);
  o.lyapunov.flow.cancel = call.cancel_flag();
  o.shooting.flow = o.lyapunov.flow;
  o.progress = [&](int done, int total) {
    call.throw_if_cancelled();
    call.report({{"points", done}, {"total", total}});
  };
  const libcont::HybridDiagram runner(model.factory(), o);  // checks the range, integration
  // The branches' options, used once a branch is found: checked now (as vicont does).
  o.continuation.validate();
  o.shooting.validate();

  libcont::HybridDiagramResult result;
  call.run([&] { result = runner.compute(); });
  libcont::SweepOptions rows;  // the integration points' columns, named as a sweep's
  rows.parameter = o.parameter;
  py::dict d;
  d["parameter"] = o.parameter;
  d["state_names"] = probe->state_names();
  d["integration"] = points_dict(rows, result.integration, probe->dimension());
  py::list branches;
  for (const auto& b : result.branches) branches.append(branch_dict(b, o.parameter, probe->state_names()));
  d["branches"] = branches;
  d["failed"] = result.failed;
  return d;
}

}  // namespace

void bind_diagram(py::module_& m) {
  py::class_<DiagramArguments>(m, "DiagramArguments")
      .def(py::init([](long steps, long transient, long periods, long max_period, long samples,
                       std::optional<double> initial_step, std::optional<double> max_step,
                       py::object x0, std::string integrator) {
             return DiagramArguments{steps,        transient, periods,         max_period,
                                     samples,      initial_step, max_step, std::move(x0),
                                     std::move(integrator)};
           }),
           py::arg("steps"), py::arg("transient"), py::arg("periods"), py::arg("max_period"),
           py::arg("samples"), py::arg("initial_step"), py::arg("max_step"), py::arg("x0"),
           py::arg("integrator"));
  m.def("diagram", &diagram, py::arg("system"), py::arg("parameter"), py::arg("from"),
        py::arg("to"), py::arg("arguments"), py::arg("progress"));
}

}  // namespace libcont_python
