#pragma once
// Exit status of vicont, one meaning each, so that scripts can tell bad input (fix the
// command) from a numerical failure (the model or the tolerances need attention).
#include <stdexcept>

namespace vicont {

enum ExitCode : int {
  Success = 0,
  OutputFailure = 1,     // a result file or plot could not be written
  BadInput = 2,          // command line, --set, config file or system name rejected
  NumericalFailure = 3,  // integration failed; everything computed so far was written
};

// A result that could not be written (directory, disk, gnuplot). Input problems are
// libcont::InputError instead.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace vicont
