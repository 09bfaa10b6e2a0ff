#pragma once
// Named parameters of a system: numeric values with a validity rule, or named choices
// (e.g. model = hard | soft). Every change is validated here, once, with a message that
// names the parameter; systems then read plain doubles.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcont/input_error.hpp"

namespace libcont {

enum class Constraint {
  Any,          // any finite number
  Positive,     // > 0
  NonNegative,  // >= 0
  UnitInterval  // in [0, 1]
};

struct Parameter {
  std::string name;
  double value = 0.0;  // for a choice: the index into choices
  Constraint constraint = Constraint::Any;
  std::string description;
  std::vector<std::string> choices;  // non-empty for a named choice
  bool optional = false;  // may stay unset; the system then derives it
  bool given = true;      // false for an optional parameter nobody has set
  bool required = false;  // has no default and must be set before a run (e.g. an amplitude
                          // the source does not give)
  // The unit the value is in, as figures print it: an SI symbol ("kg", "N/m", "rad/s"),
  // "1" for a nondimensional parameter (a ratio, a nondimensional model's every
  // parameter), empty when the model does not say (set_units).
  std::string unit;
};

class ParameterSet {
 public:
  void add(std::string name, double value, Constraint constraint, std::string description);
  // A parameter that the system derives unless the user gives it (e.g. cs from r).
  void add_optional(std::string name, Constraint constraint, std::string description);
  void add_choice(std::string name, std::vector<std::string> choices, std::string_view initial,
                  std::string description);
  // A parameter without a default: a run refuses to start until it is set
  // (check_required), while the system can still be listed and configured without it.
  void add_required(std::string name, Constraint constraint, std::string description);

  // Declares the units of parameters already added (Parameter::unit), e.g.
  // set_units({{"m", "kg"}, {"k", "N/m"}}); an unknown name throws InputError as any
  // lookup does.
  void set_units(std::initializer_list<std::pair<std::string_view, std::string_view>> units);
  // Every numeric parameter added so far without a unit gets `unit` ("1": a nondimensional
  // model); choices have none.
  void set_remaining_units(std::string_view unit);

  // An old name still accepted for the parameter `name` wherever a name is given (a
  // renamed parameter: eta for omega). Values are stored and reported under `name` only.
  void add_alias(std::string alias, std::string name);
  // The parameter's own name for an alias; any other name as it is.
  std::string canonical(std::string_view name) const;
  bool is_alias(std::string_view name) const;
  // The old names of the parameter `name`, in the order they were added.
  std::vector<std::string> aliases_of(std::string_view name) const;

  bool contains(std::string_view name) const;  // a parameter's name or an alias of one
  double operator[](std::string_view name) const;  // numeric value (throws if unset)
  const std::string& choice(std::string_view name) const;
  bool given(std::string_view name) const;

  void set(std::string_view name, double value);
  // Parses text: a number for numeric parameters, one of the names for a choice.
  void set_from_text(std::string_view name, std::string_view text);
  void unset(std::string_view name);  // optional parameters only
  // Throws InputError naming the first required parameter that is not set.
  void check_required() const;

  // A parameter's value as it is now, to be put back by restore(): a change the system's
  // rules refuse is undone so.
  struct Saved {
    size_t index = 0;
    double value = 0.0;
    bool given = true;
  };
  Saved save(std::string_view name) const;
  void restore(const Saved& saved);

  const std::vector<Parameter>& all() const { return parameters_; }
  std::string value_text(const Parameter& p) const;

  // A stamp of the values, unique across all parameter sets of the process: every change
  // (set, set_from_text, unset, restore, a parameter added) takes a new one, and a copy
  // carries it with the values it stands for. What is derived from a model may be kept
  // while its stamp stands (the exact path's prepared modes). mark_changed() takes a new
  // one for a change made elsewhere (a model reconfigured).
  std::uint64_t revision() const { return revision_; }
  void mark_changed();

 private:
  Parameter& find(std::string_view name);
  const Parameter& find(std::string_view name) const;
  std::vector<Parameter> parameters_;
  std::vector<std::pair<std::string, std::string>> aliases_;  // (alias, name)
  std::uint64_t revision_ = 0;
};

// Parses a finite floating-point number; throws InputError naming `item` otherwise.
double parse_number(std::string_view text, std::string_view item);

}  // namespace libcont
