#pragma once
// --param, --from and --to: the one parameter a command varies (sweep, continue, diagram)
// and the ends of its range, all three required. Each command names them in its own
// words (the swept parameter, its first value...), in the help and in the errors alike.
#include <optional>
#include <string>
#include <utility>

#include "libcont/input_error.hpp"
#include "run_limits.hpp"
#include "run_options.hpp"

namespace vicont {

struct ParameterRange {
  // role: what the parameter is to the command ("the swept parameter"); example: which
  // parameters one would name ("e.g. omega"); from_role, to_role: what the ends are.
  ParameterRange(std::string role, std::string example, std::string from_role = "first value",
                 std::string to_role = "last value")
      : role_(std::move(role)),
        example_(std::move(example)),
        from_role_(std::move(from_role)),
        to_role_(std::move(to_role)) {}

  std::string parameter;
  std::optional<double> from, to;

  void add_range_options(RunOptions& options) {
    options.add_parameter_name("param", parameter, role_ + " (required), " + example_);
    options.add_number("from", from, from_role_ + " of the parameter (required)");
    options.add_number("to", to, to_role_ + " of the parameter (required)");
  }

  // Throws libcont::InputError naming the first of the three options that is missing.
  void require_range() const {
    if (parameter.empty()) throw libcont::InputError("--param is required (" + role_ + ")");
    if (!from)
      throw libcont::InputError("--from is required (" + from_role_ + " of " + parameter + ")");
    if (!to) throw libcont::InputError("--to is required (" + to_role_ + " of " + parameter + ")");
  }

  // The forcing period within the limits at both ends (run_limits.hpp), on systems from
  // `make`; a parameter the period depends on (omega) could overflow it at one end.
  void check_forcing_period_at_ends(
      const std::function<std::unique_ptr<libcont::HybridSystem>()>& make) const {
    require_range();
    check_forcing_period_over(make, parameter, {{*from, "--from"}, {*to, "--to"}});
  }

 private:
  std::string role_, example_, from_role_, to_role_;
};

}  // namespace vicont
