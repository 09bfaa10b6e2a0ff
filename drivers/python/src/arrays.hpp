#pragma once
// Conversions between Eigen/std containers and numpy arrays, and the checks on arrays a
// user passes in (each error names the argument).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <string>
#include <vector>

#include "libcont/types.hpp"

namespace libcont_python {

pybind11::array_t<double> to_array(const libcont::Vector& v);
pybind11::array_t<double> to_array(const std::vector<double>& v);
pybind11::array_t<int> to_array(const std::vector<int>& v);
// Rows of equal length as a matrix (rows x columns); `columns` for an empty list.
pybind11::array_t<double> to_matrix(const std::vector<libcont::Vector>& rows, long columns);
// The columns of a matrix as the rows of an array (columns x rows).
pybind11::array_t<double> to_rows(const libcont::Matrix& columns);
pybind11::array_t<std::complex<double>> to_complex_array(
    const std::vector<std::complex<double>>& v);
pybind11::array_t<std::complex<double>> to_complex_array(const Eigen::VectorXcd& v);

// A state of `dimension` finite components from a sequence or array; None gives an
// empty vector. InputError naming `what` otherwise.
libcont::Vector state_from(const pybind11::handle& value, long dimension, const std::string& what);
// A list of such states (None: empty).
std::vector<libcont::Vector> states_from(const pybind11::handle& value, long dimension,
                                         const std::string& what);

}  // namespace libcont_python
