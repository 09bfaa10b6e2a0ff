#pragma once
// The shape shared by the commands that run one analysis of one system (simulate,
// lyapunov, orbit, continue, impact, sweep, basins, diagram): --system, --set and --config
// (RunInputs), the command's own options, --out and --json; after the run, the summary on
// stdout and one line per problem on stderr. `vicont systems` uses the inputs and --json
// only (its system is optional: without one it lists the catalogue).
#include <filesystem>
#include <memory>
#include <string>

#include "axis_labels.hpp"
#include "commands/command.hpp"
#include "figure_options.hpp"
#include "output.hpp"
#include "pending_files.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "run_limits.hpp"
#include "run_options.hpp"
#include "start_contact.hpp"

namespace CLI {
class App;
}

namespace vicont {

class SystemCommand : public Command {
 protected:
  // Declares the subcommand `name` on `vicont` (CLI11 is compiled in system_command.cpp
  // and the few commands that use it directly: its header costs seconds per file).
  SystemCommand(CLI::App& vicont, const std::string& name, const std::string& description,
                RunInputs::SystemChoice choice = RunInputs::SystemChoice::ByName);

  // Called by the derived constructor once its own options are declared: adds --out,
  // --format and --json and hands every option to CLI11.
  void finish_options(const std::string& json_help = "print the result as one JSON object on stdout") {
    options_.add_path("out", out_, "directory for the result files (default: out)");
    add_format_option(options_, formats_);
    options_.add_flag("json", json_, json_help);
    add_stderr_options(options_);
    options_.attach_to(command_);
  }

  // After parsing: the configured system, its forcing period within the limits and its
  // initial state finite (run_limits.hpp; a bad one named by the parameters that were set);
  // a warning if that state lies inside a contact (start_contact.hpp).
  std::unique_ptr<libcont::HybridSystem> resolve_checked() {
    auto system = resolve_inputs();
    const std::string source = parameter_values_text(*system, inputs_.assigned_parameters());
    check_forcing_period(*system, source);
    check_initial_state(*system, source);
    warn_start_inside_contact(*system, source);
    return system;
  }

  // The configured system as RunInputs::resolve gives it; the figures' formats set from
  // --format (refused before anything is computed) and their axes labelled in its units.
  std::unique_ptr<libcont::HybridSystem> resolve_inputs() {
    auto system = inputs_.resolve();
    use_figure_settings(formats_, *system);
    return system;
  }

  // As resolve_checked; the output directory exists.
  std::unique_ptr<libcont::HybridSystem> prepare() {
    auto system = resolve_checked();
    prepare_output_directory(out_);
    return system;
  }

  // Puts the run's files in place (pending_files.hpp), so that what the summary names is
  // there when it is read; prints the summary (the JSON object with --json, else the
  // text) and the problems; returns the exit status.
  int report(const nlohmann::ordered_json& summary, const std::string& text,
             const RunHealth& health) const;

  CLI::App& command_;
  RunOptions options_;
  std::filesystem::path out_ = "out";
  bool json_ = false;
  std::string formats_ = "none";  // --format: figures drawn only when asked
  RunInputs inputs_;
};

}  // namespace vicont
