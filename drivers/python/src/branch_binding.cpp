// libcont.continue_branch and Branch.restart / Branch.switch: branches of periodic orbits
// traced as vicont continue traces them (the orbit found at `from` by find_periodic_orbit,
// then trace_orbit_branch), and continued from any of their rows or special points as
// vicont continue --restart does: along the saved tangent in the same parameter, from the
// point's orbit (corrected) in another one or at another start value, or onto the doubled
// branch of a period doubling (--switch).
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "branch_run.hpp"
#include "cancellable_call.hpp"
#include "libcont/input_error.hpp"
#include "orbit_search_options.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

using libcont::number_text;

// Rows reach the callback as they come; a cancelled call stops the branch by Cancelled.
void watch(libcont::OrbitBranchOptions& options, CancellableCall& call) {
  options.flow.cancel = call.cancel_flag();  // a long map ends at its next step
  options.progress = [&call](const libcont::OrbitBranchProgress& p) {
    call.throw_if_cancelled();
    call.report({{"points", p.points},
                 {"special_points", p.special_points},
                 {"parameter", p.lambda},
                 {"section_moves", p.section_moves}});
  };
}

BranchRun continue_branch(const ConfiguredSystem& model, const std::string& given, double from,
                          double to, const OrbitSearchArguments& search,
                          const BranchSettings& settings, const py::object& progress) {
  const std::string parameter = model.parameter_name(given);
  finite(from, "from");
  finite(to, "to");
  BranchRun run{model.with({{parameter, number_text(from)}}), {}, from, to, settings};
  libcont::OrbitBranchOptions options = settings.options(parameter, from, to);
  const auto system = run.model.make();
  libcont::OrbitSearchOptions search_options = search.options(*system);
  search_options.validate();
  CancellableCall call(progress);
  watch(options, call);
  search_options.shooting.flow.cancel = call.cancel_flag();  // Ctrl-C in the transient too
  call.run([&] {
    const libcont::OrbitSearchResult found = libcont::find_periodic_orbit(*system, search_options);
    run.branch = found.found() ? libcont::trace_orbit_branch(*system, found.period, found.phase,
                                                             found.shooting.x, options)
                               : libcont::trace_orbit_branch(*system, found, options);
  });
  return run;
}

// The point a restart leaves from: a row, or a special point with the tangent of the row
// before it; at a grazing, where the map is not differentiable, that row itself.
libcont::BranchPoint restart_point(const libcont::OrbitBranch& branch, long special, long row) {
  if (special >= 0) {
    if (special >= static_cast<long>(branch.special_points.size()))
      throw libcont::InputError("no special point " + std::to_string(special) + " on the branch");
    const libcont::SpecialPoint& s = branch.special_points[static_cast<size_t>(special)];
    const auto& before = branch.points.at(static_cast<size_t>(std::max(0, s.after_point)));
    if (s.type == libcont::SpecialPointType::Grazing) return before;
    libcont::BranchPoint p;
    p.u = s.u;
    p.lambda = s.lambda;
    p.chart = s.chart;
    p.tangent = before.tangent;
    return p;
  }
  if (row < 0 || row >= static_cast<long>(branch.points.size()))
    throw libcont::InputError("row " + std::to_string(row) + " is not on the branch (rows 0 to " +
                              std::to_string(static_cast<long>(branch.points.size()) - 1) + ")");
  return branch.points[static_cast<size_t>(row)];
}

BranchRun restart_branch(const BranchRun& saved, long special, long row, std::string parameter,
                         std::optional<double> from, double to, const BranchSettings& settings,
                         const py::object& progress) {
  const libcont::OrbitBranch& branch = saved.branch;
  const libcont::BranchPoint point = restart_point(branch, special, row);
  if (parameter.empty()) parameter = branch.parameter;
  const bool same = parameter == branch.parameter;
  ConfiguredSystem model = saved.model.with({{branch.parameter, number_text(point.lambda)}});
  if (from && same && *from != point.lambda)
    throw libcont::InputError("from " + number_text(*from) + ": the restarted point lies at " +
                              branch.parameter + " = " + number_text(point.lambda) +
                              ", which cannot be set");
  if (from) model = model.with({{parameter, number_text(finite(*from, "from"))}});
  const double start = same ? point.lambda : model.system().parameters()[parameter];
  finite(to, "to");
  if (to == start)
    throw libcont::InputError("to " + number_text(to) + " is where the restart begins (" + parameter +
                              " = " + number_text(start) + "): it must differ");
  BranchRun run{model, {}, start, to, settings};
  libcont::OrbitBranchOptions options = settings.options(parameter, start, to);
  const auto system = model.make();
  CancellableCall call(progress);
  watch(options, call);
  const bool along = same && point.tangent.size() > 0;
  call.run([&] {
    run.branch = along ? libcont::trace_orbit_branch_from(*system, branch.period, point, options)
                       : libcont::trace_orbit_branch(*system, branch.period, point.chart, point.u, options);
  });
  return run;
}

BranchRun switch_branch(const BranchRun& saved, long special, double to,
                        const BranchSettings& settings, const py::object& progress) {
  const libcont::OrbitBranch& branch = saved.branch;
  if (special < 0 || special >= static_cast<long>(branch.special_points.size()))
    throw libcont::InputError("no special point " + std::to_string(special) + " on the branch");
  const libcont::SpecialPoint& flip = branch.special_points[static_cast<size_t>(special)];
  if (flip.type != libcont::SpecialPointType::PeriodDoubling)
    throw libcont::InputError("a switch needs a period-doubling point (PD1, PD2, ...), but this is a " +
                              flip.type_name() + " point");
  finite(to, "to");
  if (to == flip.lambda)
    throw libcont::InputError("to " + number_text(to) + " is where the switch begins (" +
                              branch.parameter + " = " + number_text(flip.lambda) + "): it must differ");
  BranchRun run{saved.model.with({{branch.parameter, number_text(flip.lambda)}}), {}, flip.lambda, to,
                settings};
  libcont::OrbitBranchOptions options = settings.options(branch.parameter, flip.lambda, to);
  const auto system = run.model.make();
  CancellableCall call(progress);
  watch(options, call);
  call.run([&] { run.branch = libcont::trace_doubled_branch(*system, branch.period, flip, options); });
  return run;
}

}  // namespace

libcont::OrbitBranchOptions BranchSettings::options(const std::string& parameter, double from,
                                                    double to) const {
  libcont::OrbitBranchOptions o(parameter, from, to);
  o.max_points = count(max_points, 2, "max_points", limits::branch_points);
  o.initial_step = positive(initial_step, "initial_step");
  o.max_step = positive(max_step, "max_step");
  o.min_step = positive(min_step, "min_step");
  o.locate_tolerance = positive(locate_tolerance, "locate_tolerance");
  o.corrector_tolerance = positive(corrector_tolerance, "corrector_tolerance");
  o.natural = natural;
  o.stop_at_grazing = stop_at_grazing;
  for (const double value : user_values)
    if (!o.in_range(finite(value, "at")))
      throw libcont::InputError("at: " + number_text(value) + " lies outside the range from " +
                                number_text(from) + " to " + number_text(to));
  o.user_values = user_values;
  o.flow = flow_options(integrator);
  o.validate();
  return o;
}

void bind_branches(py::module_& m) {
  py::class_<BranchSettings>(m, "BranchSettings")
      .def(py::init([](long max_points, std::optional<double> initial_step,
                       std::optional<double> max_step, std::optional<double> min_step,
                       std::optional<double> locate_tolerance,
                       std::optional<double> corrector_tolerance, bool natural, bool stop_at_grazing,
                       std::string integrator, std::vector<double> user_values) {
             return BranchSettings{max_points,          initial_step,     max_step,
                                   min_step,            locate_tolerance, corrector_tolerance,
                                   natural,             stop_at_grazing,  std::move(integrator),
                                   std::move(user_values)};
           }),
           py::arg("max_points"), py::arg("initial_step"), py::arg("max_step"),
           py::arg("min_step"), py::arg("locate_tolerance"), py::arg("corrector_tolerance"),
           py::arg("natural"), py::arg("stop_at_grazing"), py::arg("integrator"),
           py::arg("at"));
  py::class_<BranchRun>(m, "BranchRun")
      .def("data", &branch_dict)
      .def_property_readonly("system", [](const BranchRun& r) { return r.model; })
      .def_property_readonly("settings", [](const BranchRun& r) { return r.settings; });
  m.def("continue_branch", &continue_branch, py::arg("system"), py::arg("parameter"),
        py::arg("from"), py::arg("to"), py::arg("search"), py::arg("settings"), py::arg("progress"));
  m.def("restart_branch", &restart_branch, py::arg("run"), py::arg("special"), py::arg("row"),
        py::arg("parameter"), py::arg("from"), py::arg("to"), py::arg("settings"), py::arg("progress"));
  m.def("switch_branch", &switch_branch, py::arg("run"), py::arg("special"), py::arg("to"),
        py::arg("settings"), py::arg("progress"));
}

}  // namespace libcont_python
