// libcont._core.branch_drawing: the solid and dashed lines of a branch's figure, the same
// as vicont draws (branch_drawing.hpp of the command line), for libcont.plotting.
#include <pybind11/stl.h>

#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "branch_drawing.hpp"
#include "libcont/input_error.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

py::list polylines(const std::vector<vicont::Polyline>& lines) {
  py::list out;
  for (const auto& line : lines) {
    std::vector<libcont::Vector> vertices;
    for (const auto& [x, y] : line) vertices.push_back((libcont::Vector(2) << x, y).finished());
    out.append(to_matrix(vertices, 2));
  }
  return out;
}

}  // namespace

void bind_branch_drawing(py::module_& m) {
  m.def(
      "branch_drawing",
      [](const std::vector<double>& xs, const std::vector<double>& ys,
         const std::vector<bool>& stable, const std::vector<double>& point_xs,
         const std::vector<double>& point_ys, const std::vector<long>& after_rows) {
        if (ys.size() != xs.size() || stable.size() != xs.size())
          throw libcont::InputError("branch_drawing: xs, ys and stable differ in length");
        if (point_ys.size() != point_xs.size() || after_rows.size() != point_xs.size())
          throw libcont::InputError(
              "branch_drawing: point_xs, point_ys and after_rows differ in length");
        std::vector<vicont::DrawnRow> rows;
        for (size_t i = 0; i < xs.size(); ++i) rows.push_back({xs[i], ys[i], stable[i]});
        std::vector<vicont::DrawnSpecialPoint> points;
        for (size_t i = 0; i < point_xs.size(); ++i)
          points.push_back({point_xs[i], point_ys[i], after_rows[i]});
        const vicont::BranchDrawing drawing = vicont::branch_drawing(rows, points);
        return py::make_tuple(polylines(drawing.stable), polylines(drawing.unstable));
      },
      py::arg("xs"), py::arg("ys"), py::arg("stable"), py::arg("point_xs"), py::arg("point_ys"),
      py::arg("after_rows"),
      "(stable, unstable): lists of (k x 2) arrays, the solid and dashed lines of a branch "
      "through its rows with the special points as vertices, as vicont draws them");
}

}  // namespace libcont_python
