// vicont systems: the catalogue, each system with its parameters, values, rules and
// descriptions (from ParameterSet::all()). With --system and --set it shows the values a
// run would use, including the derived contact damping.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "axis_labels.hpp"
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "systems/catalogue.hpp"

namespace vicont {

namespace {

std::string rule_text(const libcont::Parameter& p) {
  if (!p.choices.empty()) {
    std::string text;
    for (const auto& c : p.choices) text += (text.empty() ? "" : " | ") + c;
    return text;
  }
  switch (p.constraint) {
    case libcont::Constraint::Positive:
      return "> 0";
    case libcont::Constraint::NonNegative:
      return ">= 0";
    case libcont::Constraint::UnitInterval:
      return "in [0, 1]";
    case libcont::Constraint::Any:
      break;
  }
  return "any number";
}

nlohmann::ordered_json system_json(const libcont::HybridSystem& system) {
  nlohmann::ordered_json parameters = nlohmann::ordered_json::array();
  for (const auto& p : system.parameters().all()) {
    // A number, a choice's name, or null for an optional parameter left to be derived.
    nlohmann::ordered_json value = nullptr;
    if (!p.choices.empty())
      value = system.parameters().value_text(p);
    else if (p.given)
      value = p.value;
    nlohmann::ordered_json entry = {
        {"name", p.name}, {"value", value}, {"rule", rule_text(p)}, {"description", p.description}};
    if (!p.choices.empty()) entry["choices"] = p.choices;
    if (p.optional) entry["optional"] = true;
    if (!p.unit.empty()) entry["unit"] = p.unit;
    if (const auto old = system.parameters().aliases_of(p.name); !old.empty())
      entry["old_names"] = old;  // still accepted, with a note
    parameters.push_back(entry);
  }
  nlohmann::ordered_json result = {
      {"name", system.name()},         {"description", system_description(system)},
      {"state", system.state_names()}, {"forcing_period", system.forcing_period()},
      {"parameters", parameters},      {"contact_damping", contact_damping_json(system)}};
  // The units, where the model declares them ("1": nondimensional).
  if (!system.state_units().empty()) result["state_units"] = system.state_units();
  if (!system.time_unit().empty()) result["time_unit"] = system.time_unit();
  return result;
}

void print_system_table(std::ostream& out, const libcont::HybridSystem& system) {
  out << system.name() << ": " << system_description(system) << '\n' << "  state: ";
  const auto names = system.state_names();
  const auto units = system.state_units();
  for (size_t i = 0; i < names.size(); ++i)
    out << (i ? ", " : "") << with_unit(names[i], i < units.size() ? units[i] : "");
  if (!system.time_unit().empty()) out << "; " << with_unit("t", system.time_unit());
  if (system.forcing_period() > 0.0)
    out << "; forcing period " << number_text(system.forcing_period());
  else
    out << "; autonomous (no forcing)";
  // Columns as wide as their longest entry, so that no two run together.
  // A unit as the axes show it: "-" for a nondimensional one.
  const auto unit_text = [](const libcont::Parameter& p) -> std::string {
    return p.unit == "1" ? "-" : p.unit;
  };
  size_t name_width = 9, value_width = 5, rule_width = 4, unit_width = 4;
  for (const auto& p : system.parameters().all()) {
    name_width = std::max(name_width, p.name.size());
    value_width = std::max(value_width, system.parameters().value_text(p).size());
    rule_width = std::max(rule_width, rule_text(p).size());
    unit_width = std::max(unit_width, unit_text(p).size());
  }
  auto row = [&](const std::string& name, const std::string& value, const std::string& rule,
                 const std::string& unit, const std::string& description) {
    out << "  " << std::left << std::setw(static_cast<int>(name_width + 2)) << name
        << std::setw(static_cast<int>(value_width + 2)) << value
        << std::setw(static_cast<int>(rule_width + 2)) << rule
        << std::setw(static_cast<int>(unit_width + 2)) << unit << description << '\n';
  };
  out << '\n';
  row("parameter", "value", "rule", "unit", "description");
  for (const auto& p : system.parameters().all()) {
    std::string description = p.description;
    for (const auto& old : system.parameters().aliases_of(p.name))
      description += " (old name " + old + ", still accepted)";
    row(p.name, system.parameters().value_text(p), rule_text(p), unit_text(p), description);
  }
  if (const auto d = contact_damping(system)) out << "  contact: " << d->explanation() << '\n';
}

// No --out: it writes no files.
class SystemsCommand : public SystemCommand {
 public:
  explicit SystemsCommand(CLI::App& vicont)
      : SystemCommand(vicont, "systems",
                      "list the systems with their parameters, defaults and descriptions",
                      RunInputs::SystemChoice::OptionalName) {
    options_.add_flag("json", json_, "print the list as one JSON object on stdout");
    options_.attach_to(command_);
  }

  int run() override {
    std::vector<std::unique_ptr<libcont::HybridSystem>> shown;
    if (auto chosen = inputs_.resolve()) {
      shown.push_back(std::move(chosen));
    } else {
      for (const auto& entry : systems::catalogue())
        shown.push_back(systems::make_system(entry.name));
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::ostringstream text;
    for (const auto& system : shown) {
      list.push_back(system_json(*system));
      text << (text.tellp() > 0 ? "\n" : "");
      print_system_table(text, *system);
    }
    print_summary(json_, {{"systems", list}}, text.str());
    return Success;
  }
};

}  // namespace

std::unique_ptr<Command> make_systems_command(CLI::App& vicont) {
  return std::make_unique<SystemsCommand>(vicont);
}

}  // namespace vicont
