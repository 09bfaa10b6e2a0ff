// libcont.basins: basins of attraction over a grid of two initial coordinates (Basins), with
// vicont basins' defaults (500 transient periods, n up to 16, one thread). The cells run on
// worker threads with the GIL released; Ctrl-C stops the handing out of new cells (the
// factory each cell asks for its system refuses once the call is cancelled).
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "libcont/basins.hpp"
#include "libcont/input_error.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

// (name, from, to, steps), name a state coordinate.
libcont::BasinAxis axis_from(const py::tuple& t, const std::vector<std::string>& names,
                             const std::string& which) {
  if (t.size() != 4)
    throw libcont::InputError(which + ": expected (name, from, to, steps)");
  const std::string name = py::str(t[0]);
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw libcont::InputError(which + ": '" + name + "' is not a state coordinate (" + known + ")");
  }
  libcont::BasinAxis axis;
  axis.coordinate = static_cast<int>(found - names.begin());
  axis.from = finite(t[1].cast<double>(), which + " from");
  axis.to = finite(t[2].cast<double>(), which + " to");
  const long steps = t[3].cast<long>();
  if (steps < 1 || steps > 100000)
    throw libcont::InputError(which + " steps must be a whole number in [1, 100000] (got " +
                              std::to_string(steps) + ")");
  axis.steps = static_cast<int>(steps);
  return axis;
}

py::dict basins(const ConfiguredSystem& model, const py::tuple& x, const py::tuple& y,
                long transient, long max_period, long settle_periods, long threads,
                const py::object& base_state,
                const std::string& integrator, const py::object& progress) {
  const auto probe = model.make();
  const auto names = probe->state_names();
  libcont::BasinOptions o;
  o.x = axis_from(x, names, "x");
  o.y = axis_from(y, names, "y");
  if (static_cast<double>(o.x.steps) * o.y.steps > 1e6)
    throw libcont::InputError("x and y make " + std::to_string(o.x.steps) + " x " +
                              std::to_string(o.y.steps) + " cells; at most 1e6");
  o.transient_periods = count(transient, 0, "transient", limits::periods);
  o.max_period = count(max_period, 1, "max_period", limits::detected_period);
  o.settle_periods = count(settle_periods, 0, "settle_periods", limits::periods);
  o.threads = count(threads, 1, "threads", limits::threads);
  o.base_state = state_from(base_state, probe->dimension(), "base_state");
  o.flow = flow_options(integrator);

  CancellableCall call(progress);
  o.flow.cancel = call.cancel_flag();
  const double cells = static_cast<double>(o.x.steps) * o.y.steps;
  int started = 0;
  const libcont::SystemFactory make = model.factory();
  const libcont::Basins runner(
      [&]() {
        call.throw_if_cancelled();  // called under the basins' lock, one cell at a time
        call.report({{"cells", ++started}, {"total", cells}});
        return make();
      },
      o);
  libcont::BasinResult r;
  call.run([&] { r = runner.compute(); });

  py::array_t<int> attractor({o.y.steps, o.x.steps}), p({o.y.steps, o.x.steps}),
      n({o.y.steps, o.x.steps}), settled_after({o.y.steps, o.x.steps});
  std::vector<std::string> status(r.cells.size());
  std::vector<libcont::Vector> finals;
  for (size_t k = 0; k < r.cells.size(); ++k) {
    const auto& c = r.cells[k];
    attractor.mutable_at(c.j, c.i) = c.attractor;
    p.mutable_at(c.j, c.i) = c.p;
    n.mutable_at(c.j, c.i) = c.n;
    settled_after.mutable_at(c.j, c.i) = c.settled_after;
    status[k] = libcont::to_string(c.status);
    finals.push_back(c.final_state);
  }
  std::vector<double> xs, ys;
  for (int i = 0; i < o.x.steps; ++i) xs.push_back(o.x.value(i));
  for (int j = 0; j < o.y.steps; ++j) ys.push_back(o.y.value(j));
  py::list attractors;
  for (const auto& a : r.attractors) {
    py::dict d;
    d["p"] = a.p;
    d["n"] = a.n;
    d["points"] = to_matrix(a.points, probe->dimension());
    d["cells"] = a.cells;
    attractors.append(d);
  }
  py::dict d;
  d["x_name"] = names[static_cast<size_t>(o.x.coordinate)];
  d["y_name"] = names[static_cast<size_t>(o.y.coordinate)];
  d["x"] = to_array(xs);
  d["y"] = to_array(ys);
  d["attractor"] = attractor;
  d["p"] = p;
  d["n"] = n;
  d["status"] = status;
  d["final_states"] = to_matrix(finals, probe->dimension());
  d["attractors"] = attractors;
  d["settled_after"] = settled_after;
  d["non_periodic"] = r.non_periodic;
  d["settling"] = r.settling;
  d["failed"] = r.failed;
  d["state_names"] = names;
  return d;
}

}  // namespace

void bind_basins(py::module_& m) {
  m.def("basins", &basins, py::arg("system"), py::arg("x"), py::arg("y"), py::arg("transient"),
        py::arg("max_period"), py::arg("settle_periods"), py::arg("threads"), py::arg("base_state"), py::arg("integrator"),
        py::arg("progress"));
}

}  // namespace libcont_python
