#pragma once
// The options of a run (t-end, transient, out, ...) that may come from the command line
// (--NAME VALUE) or from a config file (NAME = VALUE) under the same name. Each option is
// declared once, with its parser and its check; the command line wins over the file.
#include <deque>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace libcont {
class ParameterSet;
}

namespace vicont {

// Finite numbers separated by commas ("1,2.5,3"), in the order given; an empty item or
// one that is no number is an InputError starting with `label`.
std::vector<double> parse_number_list(std::string_view text, const std::string& label);

class RunOptions {
 public:
  // A positive number; unset (std::nullopt) means "the command chooses", e.g. per system.
  void add_positive_number(std::string name, std::optional<double>& target, std::string help);
  // Any finite number; unset means "not given" (the command decides whether it must be).
  void add_number(std::string name, std::optional<double>& target, std::string help);
  // Finite numbers separated by commas ("1,2.5,3"), in the order given.
  void add_number_list(std::string name, std::vector<double>& target, std::string help);
  // A word, e.g. a parameter name.
  void add_text(std::string name, std::string& target, std::string help);
  // One of `choices` (the first is the default the target starts with).
  void add_choice(std::string name, std::string& target, std::vector<std::string> choices,
                  std::string help);
  // An integer count from minimum to maximum (run_limits.hpp states the maxima).
  void add_count(std::string name, int& target, int minimum, std::string help,
                 int maximum = 1'000'000'000);
  void add_path(std::string name, std::filesystem::path& target, std::string help);
  // The name of a parameter of the system, e.g. the continued one. An old name (an alias,
  // ParameterSet::add_alias) is replaced by the parameter's own by use_parameter_names.
  void add_parameter_name(std::string name, std::string& target, std::string help);
  // A value of the caller's own form: `parse` stores it or throws InputError starting with
  // `label` ("--NAME" or "FILE:LINE: NAME"); `value_name` is shown in --help.
  void add_parsed(std::string name, std::string value_name, std::string help,
                  std::function<void(std::string_view text, const std::string& label)> parse);
  // --NAME on the command line; NAME = true | false in a config file.
  void add_flag(std::string name, bool& target, std::string help);

  // Adds every option to a CLI11 (sub)command. Call once, after the add_* calls.
  void attach_to(CLI::App& command);

  bool knows(std::string_view name) const;
  std::vector<std::string> names() const;
  // Parses and stores a value; InputError messages start with `where` ("FILE:LINE").
  void set_from_text(std::string_view name, std::string_view text, const std::string& where);
  // Stores the values given on the command line (after CLI11 parsing), over any others.
  void apply_command_line();
  // Once the system is known: every parameter name given under an old name becomes the
  // parameter's own, with a note on stderr.
  void use_parameter_names(const libcont::ParameterSet& parameters);

 private:
  struct Entry {
    std::string name;
    std::string help;
    std::string value_name;  // shown in --help: NUMBER, N, DIR
    bool is_flag = false;
    // `label` names the item in error messages: "--t-end" or "FILE:LINE: t-end".
    std::function<void(std::string_view text, const std::string& label)> parse;
    std::string command_line_text;  // what CLI11 captured
    bool command_line_flag = false;
    CLI::Option* cli_option = nullptr;
    std::string* parameter_name = nullptr;  // add_parameter_name's target
  };
  Entry& add(std::string name, std::string help, std::string value_name, bool is_flag);
  const Entry* find(std::string_view name) const;
  // A deque: CLI11 keeps pointers into the entries.
  std::deque<Entry> entries_;
};

// A note on stderr when `given` is the old name of a parameter (once per name and run).
void note_old_parameter_name(const libcont::ParameterSet& parameters, const std::string& given);

}  // namespace vicont
