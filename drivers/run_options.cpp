#include "run_options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <set>

#include "libcont/parameters.hpp"
#include "progress.hpp"
#include "shown_text.hpp"

namespace vicont {

RunOptions::Entry& RunOptions::add(std::string name, std::string help, std::string value_name,
                                   bool is_flag) {
  Entry& e = entries_.emplace_back();
  e.name = std::move(name);
  e.help = std::move(help);
  e.value_name = std::move(value_name);
  e.is_flag = is_flag;
  return e;
}

void RunOptions::add_positive_number(std::string name, std::optional<double>& target,
                                     std::string help) {
  add(std::move(name), std::move(help), "NUMBER", false).parse =
      [&target](std::string_view text, const std::string& label) {
        const double value = libcont::parse_number(text, label);
        if (!(value > 0.0))
          throw libcont::InputError(label + " must be positive (got " + std::string(text) + ")");
        target = value;
      };
}

void RunOptions::add_number(std::string name, std::optional<double>& target, std::string help) {
  add(std::move(name), std::move(help), "NUMBER", false).parse =
      [&target](std::string_view text, const std::string& label) {
        target = libcont::parse_number(text, label);
      };
}

std::vector<double> parse_number_list(std::string_view text, const std::string& label) {
  std::vector<double> values;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma - start);
    if (item.empty())
      throw libcont::InputError(label + ": empty number in '" + std::string(text) + "'");
    values.push_back(libcont::parse_number(item, label));
    if (comma == std::string_view::npos) return values;
    start = comma + 1;
  }
}

void RunOptions::add_number_list(std::string name, std::vector<double>& target,
                                 std::string help) {
  add(std::move(name), std::move(help), "LIST", false).parse =
      [&target](std::string_view text, const std::string& label) {
        target = parse_number_list(text, label);
      };
}

void RunOptions::add_text(std::string name, std::string& target, std::string help) {
  add(std::move(name), std::move(help), "NAME", false).parse =
      [&target](std::string_view text, const std::string& label) {
        if (text.empty()) throw libcont::InputError(label + " must not be empty");
        target = text;
      };
}

void RunOptions::add_choice(std::string name, std::string& target,
                            std::vector<std::string> choices, std::string help) {
  std::string listed;
  for (size_t i = 0; i < choices.size(); ++i)
    listed += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  add(std::move(name), std::move(help), "WORD", false).parse =
      [&target, choices = std::move(choices), listed](std::string_view text,
                                                      const std::string& label) {
        if (std::find(choices.begin(), choices.end(), text) == choices.end())
          throw libcont::InputError(label + " must be " + listed + " (got '" + std::string(text) +
                                    "')");
        target = text;
      };
}

void RunOptions::add_count(std::string name, int& target, int minimum, std::string help,
                           int maximum) {
  add(std::move(name), std::move(help), "N", false).parse =
      [&target, minimum, maximum](std::string_view text, const std::string& label) {
        const double value = libcont::parse_number(text, label);
        // Range first: the cast of a value beyond long long would be undefined.
        if (!(value >= minimum && value <= maximum) || value != std::floor(value))
          throw libcont::InputError(label + " must be a whole number from " +
                                    std::to_string(minimum) + " to " + std::to_string(maximum) +
                                    " (got " + shown_text(text) + ")");
        target = static_cast<int>(value);
      };
}

void RunOptions::add_path(std::string name, std::filesystem::path& target, std::string help) {
  add(std::move(name), std::move(help), "DIR", false).parse =
      [&target](std::string_view text, const std::string& label) {
        // "" is no directory; as "." it would write into the current one unasked.
        if (text.empty()) throw libcont::InputError(label + ": empty path");
        target = text;
      };
}

void RunOptions::add_parameter_name(std::string name, std::string& target, std::string help) {
  add_text(std::move(name), target, std::move(help));
  entries_.back().parameter_name = &target;
}

void RunOptions::add_parsed(
    std::string name, std::string value_name, std::string help,
    std::function<void(std::string_view text, const std::string& label)> parse) {
  add(std::move(name), std::move(help), std::move(value_name), false).parse = std::move(parse);
}

void RunOptions::add_flag(std::string name, bool& target, std::string help) {
  add(std::move(name), std::move(help), "", true).parse = [&target](std::string_view text,
                                                                    const std::string& label) {
    if (text == "true" || text == "1" || text == "yes") {
      target = true;
    } else if (text == "false" || text == "0" || text == "no") {
      target = false;
    } else {
      throw libcont::InputError(label + " must be true or false (got '" + std::string(text) + "')");
    }
  };
}

void RunOptions::attach_to(CLI::App& command) {
  for (auto& e : entries_) {
    // Values are captured as text and parsed by our own parser, so that the command line
    // and the config file accept and reject exactly the same things.
    e.cli_option = e.is_flag ? command.add_flag("--" + e.name, e.command_line_flag, e.help)
                             : command.add_option("--" + e.name, e.command_line_text, e.help)
                                   ->type_name(e.value_name);
  }
}

const RunOptions::Entry* RunOptions::find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

bool RunOptions::knows(std::string_view name) const { return find(name) != nullptr; }

std::vector<std::string> RunOptions::names() const {
  std::vector<std::string> result;
  for (const auto& e : entries_) result.push_back(e.name);
  return result;
}

void RunOptions::set_from_text(std::string_view name, std::string_view text,
                               const std::string& where) {
  const Entry* e = find(name);
  if (!e) throw libcont::InputError(where + ": unknown option '" + std::string(name) + "'");
  e->parse(text, where + ": " + std::string(name));
}

void RunOptions::apply_command_line() {
  for (auto& e : entries_) {
    if (!e.cli_option || e.cli_option->count() == 0) continue;
    if (e.is_flag)
      e.parse(e.command_line_flag ? "true" : "false", "--" + e.name);
    else
      e.parse(e.command_line_text, "--" + e.name);
  }
}

void RunOptions::use_parameter_names(const libcont::ParameterSet& parameters) {
  for (auto& e : entries_) {
    if (!e.parameter_name) continue;
    note_old_parameter_name(parameters, *e.parameter_name);
    *e.parameter_name = parameters.canonical(*e.parameter_name);
  }
}

void note_old_parameter_name(const libcont::ParameterSet& parameters, const std::string& given) {
  static std::set<std::string> noted;  // once per name and run
  if (!parameters.is_alias(given) || !noted.insert(given).second) return;
  print_note("parameter '" + given + "' is called '" + parameters.canonical(given) +
             "' now; the old name is accepted");
}

}  // namespace vicont
