#include "run_inputs.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>

#include "libcont/input_error.hpp"
#include "systems/catalogue.hpp"
#include "systems/linear_impact_system.hpp"
#include "systems/model_file.hpp"

namespace vicont {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

// The parameters of a saved run (--restart), before any of the run's own.
void apply_saved_parameters(libcont::HybridSystem& system,
                            const std::vector<std::pair<std::string, std::string>>& saved,
                            const std::string& where) {
  std::vector<libcont::HybridSystem::ParameterAssignment> batch;
  for (const auto& [name, value] : saved) batch.push_back({name, value, where});
  try {
    system.set_parameters(batch);
  } catch (const libcont::InputError& error) {
    const std::string message = error.what();
    if (message.rfind(where, 0) == 0) throw;
    throw libcont::InputError(where + ": " + message);
  }
}

// The parameter steps of a run, in the order in which they win: the config file's
// [parameters], then each --set; the model's rules are checked once, on the final set, so
// that their order does not matter. Returns the names assigned.
std::vector<std::string> apply_parameter_steps(libcont::HybridSystem& system,
                                               const std::vector<ConfigFile::Entry>& config,
                                               const std::vector<std::string>& assignments) {
  std::vector<libcont::HybridSystem::ParameterAssignment> batch;
  std::vector<std::string> assigned;
  const libcont::ParameterSet& parameters = system.parameters();
  for (const auto& entry : config) {
    batch.push_back({entry.key, entry.value, entry.where()});
    assigned.push_back(parameters.canonical(entry.key));
  }
  for (const auto& assignment : assignments) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
      throw libcont::InputError("--set '" + assignment + "': expected NAME=VALUE");
    const std::string name = assignment.substr(0, equals);
    // libcont's message already names the parameter and the rule it broke.
    batch.push_back({name, assignment.substr(equals + 1), ""});
    assigned.push_back(parameters.canonical(name));
  }
  system.set_parameters(batch);
  return assigned;
}

}  // namespace

RunInputs::RunInputs(CLI::App& command, RunOptions& options, SystemChoice choice)
    : options_(options),
      choice_(choice),
      command_name_(choice == SystemChoice::Fixed ? "main" : command.get_name()) {
  if (choice_ != SystemChoice::Fixed) {
    std::vector<std::string> known;
    for (const auto& entry : systems::catalogue()) known.push_back(entry.name);
    system_option_ =
        command
        .add_option(
            "--system", system_on_command_line_,
            "system to run (" + joined(known) + ")" +
                (choice_ == SystemChoice::ByName ? std::string(", default ") + default_system_name
                                                 : std::string()))
        ->type_name("NAME");
    model_option_ = command
                        .add_option("--model", model_on_command_line_,
                                    "run the model in FILE, a JSON model file "
                                    "(doc/models/model-files.md), instead of a --system")
                        ->type_name("FILE");
  }
  command
      .add_option("--set", assignments_, "set a system parameter (repeatable; wins over --config)")
      ->type_name("NAME=VALUE");
  config_option_ =
      command
      .add_option("--config", config_path_,
                  "read system, parameters and run options from FILE (doc/cli.md)")
      ->type_name("FILE");
}

void RunInputs::restart_from(std::string system,
                             std::vector<std::pair<std::string, std::string>> parameters,
                             std::string where, std::string model) {
  saved_ = SavedSystem{std::move(system), std::move(parameters), std::move(where), std::move(model)};
}

bool RunInputs::assigned(const std::string& parameter) const {
  return std::find(assigned_.begin(), assigned_.end(), parameter) != assigned_.end();
}

void RunInputs::apply_config_options() {
  // The top part, then the command's own section over it.
  std::vector<ConfigFile::Entry> entries = config_.options;
  if (const auto section = config_.commands.find(command_name_); section != config_.commands.end())
    for (const auto& entry : section->second) {
      const auto shared = std::find_if(entries.begin(), entries.end(),
                                       [&](const ConfigFile::Entry& e) { return e.key == entry.key; });
      if (shared != entries.end()) entries.erase(shared);
      entries.push_back(entry);
    }
  for (const auto& entry : entries) {
    if (entry.key == "system") {
      if (choice_ == SystemChoice::Fixed && entry.value != default_system_name)
        throw libcont::InputError(
            entry.where() + ": the main job always runs " + default_system_name +
            "; use 'vicont simulate' or 'vicont lyapunov' for '" + entry.value + "'");
      system_in_config_ = entry;
      continue;
    }
    if (entry.key == "model" && choice_ != SystemChoice::Fixed) {
      model_in_config_ = entry;
      continue;
    }
    if (!options_.knows(entry.key))
      throw libcont::InputError(entry.where() + ": unknown key '" + entry.key +
                                "' (known: system, " + (choice_ != SystemChoice::Fixed ? "model, " : "") +
                                joined(options_.names()) +
                                "; parameters go under [parameters])");
    options_.set_from_text(entry.key, entry.value, entry.where());
  }
}

void RunInputs::apply_parameters(libcont::HybridSystem& system) {
  for (const auto& entry : config_.parameters) note_old_parameter_name(system.parameters(), entry.key);
  for (const auto& assignment : assignments_)
    note_old_parameter_name(system.parameters(), assignment.substr(0, assignment.find('=')));
  const auto names = apply_parameter_steps(system, config_.parameters, assignments_);
  assigned_.insert(assigned_.end(), names.begin(), names.end());
}

std::function<std::unique_ptr<libcont::HybridSystem>()> RunInputs::system_factory() const {
  return [make = make_resolved_, config = config_.parameters, assignments = assignments_,
          saved = saved_] {
    auto system = make();
    if (saved) apply_saved_parameters(*system, saved->parameters, saved->where);
    apply_parameter_steps(*system, config, assignments);
    system->parameters().check_required();
    return system;
  };
}

std::unique_ptr<libcont::HybridSystem> RunInputs::resolve() {
  // An empty value would read as "not given" below: refused, as an empty word.
  if (system_option_ && system_option_->count() > 0 && system_on_command_line_.empty()) {
    std::vector<std::string> known;
    for (const auto& entry : systems::catalogue()) known.push_back(entry.name);
    throw libcont::InputError("--system: empty name (known: " + joined(known) + ")");
  }
  if (config_option_ && config_option_->count() > 0 && config_path_.empty())
    throw libcont::InputError("--config: empty file name");
  if (!config_path_.empty()) config_ = read_config_file(config_path_);
  apply_config_options();
  options_.apply_command_line();

  if (model_option_ && model_option_->count() > 0) {
    if (model_on_command_line_.empty()) throw libcont::InputError("--model: empty file name");
    // Given, not a command's default (vicont impact's).
    if (system_option_->count() > 0)
      throw libcont::InputError("--model " + model_on_command_line_ + " and --system " +
                                system_on_command_line_ +
                                ": give one (a model file is its own system)");
  }

  std::unique_ptr<libcont::HybridSystem> system;
  if (saved_) {
    system = saved_system();
    apply_saved_parameters(*system, saved_->parameters, saved_->where);
  } else if (!model_on_command_line_.empty()) {
    system = model_system(model_on_command_line_);
  } else if (model_in_config_ && (!system_option_ || system_option_->count() == 0)) {
    if (system_in_config_)
      throw libcont::InputError(model_in_config_->where() + ": model and " + system_in_config_->where() +
                                ": system: give one (a model file is its own system)");
    try {
      system = model_system(model_in_config_->value);
    } catch (const libcont::InputError& error) {
      throw libcont::InputError(model_in_config_->where() + ": model: " + error.what());
    }
  } else if (!system_on_command_line_.empty()) {
    system = systems::make_system(system_on_command_line_);
  } else if (system_in_config_) {
    try {
      system = systems::make_system(system_in_config_->value);
    } catch (const libcont::InputError& error) {
      throw libcont::InputError(system_in_config_->where() + ": " + error.what());
    }
  } else if (choice_ == SystemChoice::OptionalName) {
    if (!assignments_.empty() || !config_.parameters.empty())
      throw libcont::InputError("parameters were set but no system was named (use --system or --model)");
    return nullptr;
  } else {
    system = systems::make_system(default_system_name);
  }
  if (!make_resolved_) make_resolved_ = [name = system->name()] { return systems::make_system(name); };
  apply_parameters(*system);
  // A run needs every required parameter; the catalogue listing (OptionalName) shows the
  // system as it is, with "required" where a value is missing.
  if (choice_ != SystemChoice::OptionalName) system->parameters().check_required();
  options_.use_parameter_names(system->parameters());
  return system;
}

std::unique_ptr<libcont::HybridSystem> RunInputs::model_system(const std::string& path) {
  auto description = systems::read_model_description(path);
  make_resolved_ = [description] { return std::make_unique<systems::LinearImpactSystem>(description); };
  return make_resolved_();
}

std::unique_ptr<libcont::HybridSystem> RunInputs::saved_system() {
  std::unique_ptr<libcont::HybridSystem> system;
  try {
    if (saved_->model.empty()) {
      system = systems::make_system(saved_->system);
      make_resolved_ = [name = saved_->system] { return systems::make_system(name); };
    } else {
      system = model_system(saved_->model);
    }
  } catch (const libcont::InputError& error) {
    throw libcont::InputError(saved_->where + ": " + error.what());
  }
  // A system or a model named as well must be the saved run's.
  if (!model_on_command_line_.empty()) {
    std::error_code ignored;
    if (saved_->model.empty() || !std::filesystem::equivalent(model_on_command_line_, saved_->model, ignored))
      throw libcont::InputError("--model " + model_on_command_line_ +
                                " is not the model of the restarted run (" +
                                (saved_->model.empty() ? "system " + saved_->system : saved_->model) +
                                ", " + saved_->where + ")");
    return system;
  }
  std::string named = system_on_command_line_, option = "--system";
  if (named.empty() && system_in_config_) {
    named = system_in_config_->value;
    option = system_in_config_->where() + ": system";
  }
  if (named.empty()) return system;
  std::string named_system;
  try {
    named_system = systems::make_system(named)->name();
  } catch (const libcont::InputError& error) {
    throw libcont::InputError(option + ": " + error.what());  // the config file's line
  }
  if (named_system != system->name() || !saved_->model.empty())
    throw libcont::InputError(option + " " + named + " is not the system of the restarted run (" +
                              (saved_->model.empty() ? system->name() : saved_->model) + ", " +
                              saved_->where + ")");
  return system;
}

}  // namespace vicont
