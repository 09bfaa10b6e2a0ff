#pragma once
// What a run reads before it starts, in one place so that every command treats its input
// alike: the system (--system NAME or `system =`), its parameters (model defaults, then
// the config file's [parameters], then each --set in order: the command line wins) and the
// run options (defaults, then the config file's top part, then its section named after the
// command, then the command line). Instead of a
// catalogue system, --model FILE runs a model file (doc/models/model-files.md).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config_file.hpp"
#include "libcont/hybrid_system.hpp"
#include "run_options.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace vicont {

class RunInputs {
 public:
  enum class SystemChoice {
    ByName,        // --system NAME, default moving-base
    OptionalName,  // --system NAME or none at all (vicont systems)
    Fixed          // always moving-base; no --system (the main job)
  };

  // Adds --system and --model (unless Fixed), --set and --config to `command`. The command attaches
  // `options` to itself once it has declared them all.
  RunInputs(CLI::App& command, RunOptions& options, SystemChoice choice);

  // After CLI11 parsing: reads the config file, stores the run options and returns the
  // configured system, or nullptr when the choice is OptionalName and no system was named.
  // Bad input throws libcont::InputError naming the item (and file:line for the file).
  std::unique_ptr<libcont::HybridSystem> resolve();

  // Before resolve(): the run continues a saved one (vicont continue --restart), whose
  // system it is and whose parameters (name, value as text) come first, before the config
  // file's and each --set; `where` names the saved file in errors. A --system (or config
  // file system) naming another system is an error. A run of a model file gives its path
  // as `model` (the file is read again: a restart sees its edits).
  void restart_from(std::string system,
                    std::vector<std::pair<std::string, std::string>> parameters,
                    std::string where, std::string model = {});

  // Whether the config file or --set assigned this parameter.
  bool assigned(const std::string& parameter) const;
  // Every parameter the config file or --set assigned, in order (a name may repeat).
  const std::vector<std::string>& assigned_parameters() const { return assigned_; }

  // After resolve(): makes fresh copies of the resolved system by the very same steps
  // (model defaults, config file, each --set), for runs that give every thread or point
  // its own system. Safe to call from any thread (it captures copies of the inputs).
  std::function<std::unique_ptr<libcont::HybridSystem>()> system_factory() const;

 private:
  void apply_config_options();
  void apply_parameters(libcont::HybridSystem& system);
  // The model file's system; make_resolved_ makes it again.
  std::unique_ptr<libcont::HybridSystem> model_system(const std::string& path);
  // The saved run's system (restart_from), checked against a --system or --model given too.
  std::unique_ptr<libcont::HybridSystem> saved_system();

  RunOptions& options_;
  SystemChoice choice_;
  std::string command_name_;  // the config file section it reads: "continue", "main", ...
  std::string system_on_command_line_;
  std::string model_on_command_line_;  // --model FILE
  // --system, --model and --config as CLI11 holds them: whether they were given (with an
  // empty value, which is refused, as much as with a name).
  CLI::Option* system_option_ = nullptr;
  CLI::Option* model_option_ = nullptr;
  CLI::Option* config_option_ = nullptr;
  std::vector<std::string> assignments_;  // --set NAME=VALUE, in order
  struct SavedSystem {
    std::string system;
    std::vector<std::pair<std::string, std::string>> parameters;
    std::string where;
    std::string model;  // the model file of a run of one; empty for a catalogue system
  };
  std::optional<SavedSystem> saved_;  // restart_from
  std::string config_path_;
  std::optional<ConfigFile::Entry> system_in_config_;
  std::optional<ConfigFile::Entry> model_in_config_;  // model = FILE
  ConfigFile config_;
  std::vector<std::string> assigned_;
  // Makes the system resolve() made at its defaults: by catalogue name or from the model
  // file's description (parsed once, shared by the copies).
  std::function<std::unique_ptr<libcont::HybridSystem>()> make_resolved_;
};

// The system the main job and the defaults run.
inline constexpr const char* default_system_name = "moving-base";

}  // namespace vicont
