#pragma once
// The one exception type of libcont: thrown only at the edges (construction, parameter
// setting, input parsing), never from integration or Newton loops. Its message names the
// offending item.
#include <stdexcept>
#include <string>

namespace libcont {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace libcont
