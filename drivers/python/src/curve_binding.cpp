// libcont.curve and OrbitCurve.switch: a fold, period doubling, Neimark-Sacker point or
// grazing of a branch continued in a second parameter (trace_orbit_curve, as vicont curve
// --restart RUN:LABEL), and the curve of another kind issuing from a codimension-two point
// of a curve (switch_orbit_curve, as vicont curve --restart CURVE:LABEL --kind).
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.hpp"
#include "branch_run.hpp"
#include "cancellable_call.hpp"
#include "curve_run.hpp"
#include "libcont/curve_switch.hpp"
#include "libcont/input_error.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

using libcont::InputError;
using libcont::number_text;

libcont::OrbitCurveOptions curve_options(const ConfiguredSystem& model, const std::string& first,
                                         const std::string& given, double from, double to,
                                         double a, double b, const CurveSettings& settings) {
  const std::string second = model.parameter_name(given);
  finite(from, "from");
  finite(to, "to");
  finite(a, "p1_from");
  finite(b, "p1_to");
  if (second == first)
    throw InputError("param2 " + second + " is the branch's parameter (p1): name another one");
  if (from == to)
    throw InputError("to " + number_text(to) + " equals from: the range of " + second +
                     " must not be empty");
  const double start = model.system().parameters()[second];
  if (start < std::min(from, to) || start > std::max(from, to))
    throw InputError("from " + number_text(from) + " and to " + number_text(to) +
                     " do not hold the start's " + second + " = " + number_text(start) +
                     ": the curve starts there");
  if (a == b)
    throw InputError("p1_from and p1_to: the range of " + first + " is empty (" + number_text(a) + ")");
  libcont::OrbitCurveOptions o(second, from, to, std::min(a, b), std::max(a, b));
  o.max_points = count(settings.max_points, 2, "max_points", limits::branch_points);
  o.initial_step = positive(settings.initial_step, "initial_step");
  o.max_step = positive(settings.max_step, "max_step");
  o.min_step = positive(settings.min_step, "min_step");
  o.locate_tolerance = positive(settings.locate_tolerance, "locate_tolerance");
  if (settings.corrector_tolerance)
    o.corrector_tolerance = *positive(settings.corrector_tolerance, "corrector_tolerance");
  o.flow = flow_options(settings.integrator);
  o.validate();
  return o;
}

CurveRun trace_curve(const BranchRun& run, long special, const std::string& second, double from,
                     double to, std::optional<double> p1_from, std::optional<double> p1_to,
                     const CurveSettings& settings, const py::object& progress) {
  const libcont::OrbitBranch& branch = run.branch;
  if (special < 0 || special >= static_cast<long>(branch.special_points.size()))
    throw InputError("no special point " + std::to_string(special) + " on the branch");
  const libcont::SpecialPoint& point = branch.special_points[static_cast<size_t>(special)];
  using libcont::SpecialPointType;
  const bool supported = point.type == SpecialPointType::Fold ||
                         point.type == SpecialPointType::PeriodDoubling ||
                         point.type == SpecialPointType::NeimarkSacker ||
                         (point.type == SpecialPointType::Grazing && point.grazing_kind);
  if (!supported)
    throw InputError("a " + point.type_name() +
                     " point: a curve starts at a fold (LPk), a period doubling (PDk), a "
                     "Neimark-Sacker point (NSk) or a grazing (GRk)");
  const ConfiguredSystem model = run.model.with({{branch.parameter, number_text(point.lambda)}});
  const double a = p1_from.value_or(run.from), b = p1_to.value_or(run.to);
  const double lambda = point.lambda;
  if (lambda < std::min(a, b) || lambda > std::max(a, b))
    throw InputError("p1_from " + number_text(a) + " and p1_to " + number_text(b) +
                     " do not hold the point's " + branch.parameter + " = " + number_text(lambda));
  libcont::OrbitCurveOptions options =
      curve_options(model, branch.parameter, second, from, to, a, b, settings);
  CurveRun result{model, {}, from, to, options.first_min, options.first_max, settings};
  const auto system = model.make();
  CancellableCall call(progress);
  options.flow.cancel = call.cancel_flag();
  call.run([&] { result.curve = libcont::trace_orbit_curve(*system, branch, point, options); });
  return result;
}

libcont::CurveKind kind_named(const std::string& name) {
  for (const auto kind : {libcont::CurveKind::Fold, libcont::CurveKind::PeriodDoubling,
                          libcont::CurveKind::Grazing})
    if (libcont::to_string(kind) == name) return kind;
  throw InputError("kind " + name + ": a curve is switched onto as fold, period-doubling or grazing");
}

CurveRun switch_curve(const CurveRun& run, long index, const std::string& kind_name,
                      std::optional<double> from, std::optional<double> to,
                      std::optional<double> p1_from, std::optional<double> p1_to,
                      const CurveSettings& settings, const py::object& progress) {
  const libcont::OrbitCurve& curve = run.curve;
  if (index < 0 || index >= static_cast<long>(curve.points.size()))
    throw InputError("no point " + std::to_string(index) + " on the curve");
  const libcont::CurvePoint& point = curve.points[static_cast<size_t>(index)];
  const libcont::CurveKind kind = kind_named(kind_name);
  const auto kinds = libcont::curve_switches(curve, point);
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string offered;
    for (const auto k : kinds) offered += (offered.empty() ? "" : " or ") + libcont::to_string(k);
    throw InputError(point.type + " of a " + libcont::to_string(curve.kind) + " curve: no " +
                     kind_name + " curve issues from it" +
                     (offered.empty() ? std::string(" (no curve is switched onto there)")
                                      : " (kind " + offered + ")"));
  }
  const ConfiguredSystem model = run.model.with(
      {{curve.second, number_text(point.second)}, {curve.first, number_text(point.first)}});
  libcont::OrbitCurveOptions options = curve_options(
      model, curve.first, curve.second, from.value_or(run.from), to.value_or(run.to),
      p1_from.value_or(run.first_min), p1_to.value_or(run.first_max), settings);
  CurveRun result{model, {}, options.from, options.to, options.first_min, options.first_max, settings};
  const auto system = model.make();
  CancellableCall call(progress);
  options.flow.cancel = call.cancel_flag();
  call.run([&] { result.curve = libcont::switch_orbit_curve(*system, curve, point, kind, options); });
  return result;
}

}  // namespace

void bind_curves(py::module_& m) {
  py::class_<CurveSettings>(m, "CurveSettings")
      .def(py::init([](long max_points, std::optional<double> initial_step,
                       std::optional<double> max_step, std::optional<double> min_step,
                       std::optional<double> locate_tolerance,
                       std::optional<double> corrector_tolerance, std::string integrator) {
             return CurveSettings{max_points,       initial_step,        max_step,
                                  min_step,         locate_tolerance,    corrector_tolerance,
                                  std::move(integrator)};
           }),
           py::arg("max_points"), py::arg("initial_step"), py::arg("max_step"),
           py::arg("min_step"), py::arg("locate_tolerance"), py::arg("corrector_tolerance"),
           py::arg("integrator"));
  py::class_<CurveRun>(m, "CurveRun")
      .def("data", &curve_dict)
      .def_property_readonly("system", [](const CurveRun& r) { return r.model; })
      .def_property_readonly("settings", [](const CurveRun& r) { return r.settings; });
  m.def("trace_curve", &trace_curve, py::arg("run"), py::arg("special"), py::arg("second"),
        py::arg("from"), py::arg("to"), py::arg("p1_from"), py::arg("p1_to"), py::arg("settings"),
        py::arg("progress"));
  m.def("switch_curve", &switch_curve, py::arg("run"), py::arg("index"), py::arg("kind"),
        py::arg("from"), py::arg("to"), py::arg("p1_from"), py::arg("p1_to"), py::arg("settings"),
        py::arg("progress"));
}

}  // namespace libcont_python
