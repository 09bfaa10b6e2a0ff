// libcont's InputError becomes libcont.InputError, a ValueError, with the library's message
// (the one vicont prints, naming the bad item). Other C++ exceptions take pybind11's
// standard translation (std::exception: RuntimeError).
#include "bindings.hpp"
#include "libcont/input_error.hpp"

namespace libcont_python {

void bind_errors(pybind11::module_& m) {
  pybind11::register_exception<libcont::InputError>(m, "InputError", PyExc_ValueError);
}

}  // namespace libcont_python
