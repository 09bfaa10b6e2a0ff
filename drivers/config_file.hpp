#pragma once
// The plain-text run configuration read by --config FILE (format in doc/cli.md):
//
//   # comment                      (also after a value)
//   system = moving-base           run options: same names as the long flags
//   t-end = 31.4
//   [parameters]                   from here on: parameters of the system
//   eta = 4
//
// Reading only checks the syntax; the keys are checked where they are used (RunInputs),
// and every complaint names the file and line through Entry::where().
#include <filesystem>
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
};

// Throws libcont::InputError naming file and line for unreadable files, lines that are not
// `key = value` or a known [section], empty values and keys given twice.
ConfigFile read_config_file(const std::filesystem::path& path);

}  // namespace vicont
