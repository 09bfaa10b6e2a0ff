// A branch as the package's Branch reads it: one array per column (the parameter, the
// state on each row's own section, the section phase, every point datum by its name, and
// stability), the unit tangents, and the special points with their orbits.
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "branch_run.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

std::vector<double> column(const std::vector<libcont::BranchPoint>& points,
                           const std::function<double(const libcont::BranchPoint&)>& read) {
  std::vector<double> values;
  values.reserve(points.size());
  for (const auto& p : points) values.push_back(read(p));
  return values;
}

py::dict orbit_dict(const libcont::OrbitPointData& orbit) {
  py::dict d;
  py::dict amplitudes;
  for (size_t k = 0; k < orbit.coordinates.size(); ++k)
    amplitudes[py::str(orbit.coordinates[k])] = orbit.amplitudes[k];
  d["amplitudes"] = amplitudes;
  d["p"] = orbit.impacts;
  d["spectral_radius"] = orbit.spectral_radius;
  d["stable"] = orbit.stable();
  d["min_gap"] = orbit.min_gap;
  d["slowest_impact"] = orbit.slowest_impact;
  d["multipliers"] = to_complex_array(orbit.multipliers);
  return d;
}

}  // namespace

py::dict branch_dict(const BranchRun& run) {
  const libcont::OrbitBranch& b = run.branch;
  const auto names = run.model.system().state_names();
  py::dict columns;
  columns[py::str(b.parameter)] = to_array(column(b.points, [](const auto& p) { return p.lambda; }));
  for (size_t i = 0; i < names.size(); ++i)
    columns[py::str(names[i])] = to_array(column(b.points, [i](const auto& p) {
      return static_cast<Eigen::Index>(i) < p.u.size() ? p.u[static_cast<Eigen::Index>(i)] : NAN;
    }));
  columns["section_phase"] = to_array(column(b.points, [](const auto& p) { return p.chart; }));
  for (size_t k = 0; k < b.data_names.size(); ++k)
    columns[py::str(b.data_names[k])] = to_array(column(b.points, [k](const auto& p) {
      return static_cast<Eigen::Index>(k) < p.data.size() ? p.data[static_cast<Eigen::Index>(k)] : NAN;
    }));
  py::array_t<bool> stable(static_cast<py::ssize_t>(b.points.size()));
  for (size_t r = 0; r < b.points.size(); ++r) stable.mutable_data()[r] = b.orbit(b.points[r]).stable();
  columns["stable"] = stable;
  std::vector<libcont::Vector> tangents;
  for (const auto& p : b.points) tangents.push_back(p.tangent);

  py::list specials;
  for (const auto& s : b.special_points) {
    py::dict d = orbit_dict(b.orbit(s));
    d["type"] = s.type_name();
    d["kind"] = s.detail;
    d["parameter"] = s.lambda;
    d["state"] = to_array(s.u);
    d["section_phase"] = s.chart;
    d["index"] = s.after_point;
    // As vicont's special_points.csv: the stability of the branch arriving at the point
    // (its after_point row) and leaving it; at the point a multiplier is on the unit circle.
    const auto row = static_cast<size_t>(s.after_point);
    const bool on_branch = s.after_point >= 0 && row < b.points.size();
    if (on_branch) d["stable"] = b.orbit(b.points[row]).stable();
    d["stable_after"] = on_branch && row + 1 < b.points.size()
                            ? py::object(py::bool_(b.orbit(b.points[row + 1]).stable()))
                            : py::object(py::none());
    specials.append(d);
  }
  py::dict d;
  d["columns"] = columns;
  d["tangents"] = to_matrix(tangents, static_cast<long>(names.size()) + 1);
  d["special_points"] = specials;
  d["parameter"] = b.parameter;
  d["state_names"] = names;
  d["data_names"] = b.data_names;
  d["period"] = b.period;
  d["status"] = libcont::to_string(b.status);
  d["stop_reason"] = b.stop_reason;
  d["stability_warnings"] = libcont::unexplained_stability_changes(b, b.data_names);
  d["ok"] = b.ok();
  d["section_moves"] = b.section_moves;
  d["failure"] = b.failure;
  d["from"] = run.from;
  d["to"] = run.to;
  d["system"] = run.model.system().name();
  return d;
}

}  // namespace libcont_python
