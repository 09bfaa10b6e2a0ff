// A curve as the package's OrbitCurve reads it: one array per column (both parameters, the
// state, the auxiliary unknowns, the test values by name, impacts, the slowest impact, the
// smallest gap, the spectral radius) and its codimension-two points with the kinds of curve
// that can be switched onto at each.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "curve_run.hpp"
#include "libcont/curve_switch.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

template <class Read>
py::array_t<double> column(const std::vector<libcont::CurveRow>& rows, Read read) {
  std::vector<double> values;
  for (const auto& r : rows) values.push_back(read(r));
  return to_array(values);
}

double radius(const std::vector<std::complex<double>>& multipliers) {
  return multipliers.empty() ? NAN : std::abs(multipliers.front());
}

// The auxiliary unknowns' names: kappa = cos theta of a Neimark-Sacker curve, the touching
// time after the section of a grazing curve.
std::string auxiliary_name(libcont::CurveKind kind, size_t k) {
  if (kind == libcont::CurveKind::NeimarkSacker && k == 0) return "kappa";
  if (kind == libcont::CurveKind::Grazing && k == 0) return "tangency_time";
  return "auxiliary:" + std::to_string(k);
}

}  // namespace

py::dict curve_dict(const CurveRun& run) {
  const libcont::OrbitCurve& c = run.curve;
  const auto names = run.model.system().state_names();
  py::dict columns;
  columns[py::str(c.first)] = column(c.rows, [](const auto& r) { return r.first; });
  columns[py::str(c.second)] = column(c.rows, [](const auto& r) { return r.second; });
  for (size_t i = 0; i < names.size(); ++i)
    columns[py::str(names[i])] = column(c.rows, [i](const auto& r) {
      return static_cast<Eigen::Index>(i) < r.x.size() ? r.x[static_cast<Eigen::Index>(i)] : NAN;
    });
  columns["section_phase"] = column(c.rows, [](const auto& r) { return r.phase; });
  const long auxiliaries = c.rows.empty() ? 0 : c.rows.front().auxiliary.size();
  for (long k = 0; k < auxiliaries; ++k)
    columns[py::str(auxiliary_name(c.kind, static_cast<size_t>(k)))] =
        column(c.rows, [k](const auto& r) { return k < r.auxiliary.size() ? r.auxiliary[k] : NAN; });
  for (size_t k = 0; k < c.test_names.size(); ++k)
    columns[py::str("test:" + c.test_names[k])] = column(c.rows, [k](const auto& r) {
      return static_cast<Eigen::Index>(k) < r.tests.size() ? r.tests[static_cast<Eigen::Index>(k)] : NAN;
    });
  columns["impacts"] = column(c.rows, [](const auto& r) { return r.impacts; });
  columns["slowest_impact"] = column(c.rows, [](const auto& r) { return r.slowest_impact; });
  columns["min_gap"] = column(c.rows, [](const auto& r) { return r.min_gap; });
  columns["spectral_radius"] = column(c.rows, [](const auto& r) { return radius(r.multipliers); });

  py::list points;
  for (const auto& p : c.points) {
    py::dict d;
    d["type"] = p.type;
    d["first"] = p.first;
    d["second"] = p.second;
    d["state"] = to_array(p.x);
    d["section_phase"] = p.phase;
    d["auxiliary"] = to_array(p.auxiliary);
    d["multipliers"] = to_complex_array(p.multipliers);
    d["index"] = p.after_row;
    d["error_estimate"] = p.error_estimate;
    std::vector<std::string> kinds;
    for (const auto kind : libcont::curve_switches(c, p)) kinds.push_back(libcont::to_string(kind));
    d["switches"] = kinds;
    points.append(d);
  }
  py::dict d;
  d["columns"] = columns;
  d["points"] = points;
  d["kind"] = libcont::to_string(c.kind);
  d["first"] = c.first;
  d["second"] = c.second;
  d["period"] = c.period;
  d["state_names"] = names;
  d["status"] = libcont::to_string(c.status);
  d["stop_reason"] = c.stop_reason;
  d["failure"] = c.failure;
  d["ok"] = c.ok();
  d["range"] = py::make_tuple(run.from, run.to);
  d["first_range"] = py::make_tuple(run.first_min, run.first_max);
  return d;
}

}  // namespace libcont_python
