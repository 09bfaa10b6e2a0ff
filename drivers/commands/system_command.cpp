#include "commands/system_command.hpp"

#include <CLI/CLI.hpp>

namespace vicont {

SystemCommand::SystemCommand(CLI::App& vicont, const std::string& name,
                             const std::string& description, RunInputs::SystemChoice choice)
    : command_(*vicont.add_subcommand(name, description)), inputs_(command_, options_, choice) {}

int SystemCommand::report(const nlohmann::ordered_json& summary, const std::string& text,
                          const RunHealth& health) const {
  pending_files::publish();
  print_summary(json_, summary, text);
  health.print_problems(command_.get_name(), out_);
  return health.exit_code();
}

}  // namespace vicont
