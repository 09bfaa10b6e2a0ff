#pragma once
// The one exception type of libcont: thrown only at the edges (construction, parameter
// setting, input parsing), never from integration or Newton loops. Its message names the
// offending item.
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

namespace libcont {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A number for a message, as given: the shortest text that reads back to the same
// double (std::to_string would print 1e-9 as 0.000000).
inline std::string number_text(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

// Throws unless value is finite and > 0; what names the item in the message.
inline void require_positive(double value, const std::string& what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError(what + " must be finite and > 0 (got " + number_text(value) + ")");
}

}  // namespace libcont
