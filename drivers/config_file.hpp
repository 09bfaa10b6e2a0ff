#pragma once
// The plain-text run configuration read by --config FILE (format in doc/cli.md):
//
//   # comment                      (also after a value)
//   system = moving-base           run options: same names as the long flags
//   t-end = 31.4
//   [parameters]                   from here on: parameters of the system
//   omega = 4
//   [continue]                     from here on: run options of `vicont continue` only,
//   param = omega                  over those of the top part
//
// One file can so serve several commands: the top part holds what they share, a section
// named after a command what only that command reads ([main] for plain `vicont`).
//
// Reading only checks the syntax; the keys are checked where they are used (RunInputs),
// and every complaint names the file and line through Entry::where().
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace vicont {

struct ConfigFile {
  struct Entry {
    std::string key;
    std::string value;
    std::string file;
    int line = 0;
    // "FILE:LINE", to start an error message with.
    std::string where() const { return file + ":" + std::to_string(line); }
  };
  std::vector<Entry> options;     // before any section
  std::vector<Entry> parameters;  // in [parameters]
  std::map<std::string, std::vector<Entry>> commands;  // in [COMMAND], by command name
};

// The sections named after commands: vicont's subcommands and main (plain `vicont`).
const std::vector<std::string>& command_sections();

// A config file is a few dozen short lines: anything larger is not one (a log, /dev/zero).
inline constexpr long max_config_bytes = 1 << 20;
inline constexpr size_t max_config_line = 4096;

// Throws libcont::InputError naming file and line for unreadable files, files that are not
// regular (FIFOs, devices, directories: reading them may block or never end) or larger than
// max_config_bytes, lines longer than max_config_line or with control bytes (binary data),
// lines that are not `key = value` or a known [section], empty values and keys given twice
// (in one section; a command's section may give again a key of the top part).
// Text from the file is quoted in messages only cut short (shown_text).
ConfigFile read_config_file(const std::filesystem::path& path);

}  // namespace vicont
