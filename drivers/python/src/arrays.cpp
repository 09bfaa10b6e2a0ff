#include "arrays.hpp"

#include <cmath>

#include "libcont/input_error.hpp"

namespace py = pybind11;

namespace libcont_python {

py::array_t<double> to_array(const libcont::Vector& v) {
  py::array_t<double> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::array_t<int> to_array(const std::vector<int>& v) {
  py::array_t<int> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::array_t<double> to_matrix(const std::vector<libcont::Vector>& rows, long columns) {
  if (!rows.empty()) columns = rows.front().size();
  py::array_t<double> a({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(columns)});
  auto m = a.mutable_unchecked<2>();
  for (size_t i = 0; i < rows.size(); ++i)
    for (long j = 0; j < columns; ++j)
      m(static_cast<py::ssize_t>(i), j) =
          j < rows[i].size() ? rows[i][j] : std::numeric_limits<double>::quiet_NaN();
  return a;
}

py::array_t<double> to_rows(const libcont::Matrix& columns) {
  py::array_t<double> a({static_cast<py::ssize_t>(columns.cols()),
                         static_cast<py::ssize_t>(columns.rows())});
  auto m = a.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < columns.cols(); ++i)
    for (Eigen::Index j = 0; j < columns.rows(); ++j) m(i, j) = columns(j, i);
  return a;
}

py::array_t<std::complex<double>> to_complex_array(const std::vector<std::complex<double>>& v) {
  py::array_t<std::complex<double>> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::array_t<std::complex<double>> to_complex_array(const Eigen::VectorXcd& v) {
  py::array_t<std::complex<double>> a(v.size());
  std::copy(v.data(), v.data() + v.size(), a.mutable_data());
  return a;
}

libcont::Vector state_from(const py::handle& value, long dimension, const std::string& what) {
  if (value.is_none()) return {};
  py::array_t<double> a;
  try {
    a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
  } catch (const py::error_already_set&) {
  }
  if (!a) throw libcont::InputError(what + ": expected a sequence of numbers");
  if (a.ndim() != 1 || a.shape(0) != dimension)
    throw libcont::InputError(what + ": expected " + std::to_string(dimension) +
                              " components (the system's state), got shape (" +
                              [&] {
                                std::string s;
                                for (py::ssize_t k = 0; k < a.ndim(); ++k)
                                  s += (k ? ", " : "") + std::to_string(a.shape(k));
                                return s + (a.ndim() == 1 ? "," : "");
                              }() + ")");
  libcont::Vector x(dimension);
  for (long i = 0; i < dimension; ++i) {
    x[i] = a.at(i);
    if (!std::isfinite(x[i]))
      throw libcont::InputError(what + ": component " + std::to_string(i) + " is " +
                                libcont::number_text(x[i]) + ", not a finite number");
  }
  return x;
}

std::vector<libcont::Vector> states_from(const py::handle& value, long dimension,
                                         const std::string& what) {
  std::vector<libcont::Vector> states;
  if (value.is_none()) return states;
  if (!py::isinstance<py::sequence>(value) && !py::isinstance<py::array>(value))
    throw libcont::InputError(what + ": expected a list of states");
  size_t k = 0;
  for (const auto& item : value)
    states.push_back(state_from(item, dimension, what + "[" + std::to_string(k++) + "]"));
  return states;
}

}  // namespace libcont_python
