#include "config_file.hpp"

#include <fstream>
#include <string_view>

#include "libcont/input_error.hpp"

namespace vicont {

namespace {

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

// Keys given twice are almost always an editing slip; silently letting the later one
// win would hide it.
void reject_duplicate(const std::vector<ConfigFile::Entry>& entries,
                      const ConfigFile::Entry& entry) {
  for (const auto& earlier : entries)
    if (earlier.key == entry.key)
      throw libcont::InputError(entry.where() + ": key '" + entry.key +
                                "' given twice (first on line " + std::to_string(earlier.line) +
                                ")");
}

}  // namespace

ConfigFile read_config_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw libcont::InputError("cannot read config file '" + path.string() + "'");
  ConfigFile config;
  std::vector<ConfigFile::Entry>* section = &config.options;
  std::string text;
  int line_number = 0;
  while (std::getline(in, text)) {
    ++line_number;
    const std::string where = path.string() + ":" + std::to_string(line_number);
    std::string_view line = text;
    line = trimmed(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line != "[parameters]")
        throw libcont::InputError(where + ": unknown section '" + std::string(line) +
                                  "' (the only section is [parameters])");
      section = &config.parameters;
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string_view::npos)
      throw libcont::InputError(where + ": expected 'key = value', got '" + std::string(line) +
                                "'");
    ConfigFile::Entry entry{std::string(trimmed(line.substr(0, equals))),
                            std::string(trimmed(line.substr(equals + 1))), path.string(),
                            line_number};
    if (entry.key.empty()) throw libcont::InputError(where + ": missing key before '='");
    if (entry.value.empty())
      throw libcont::InputError(where + ": key '" + entry.key + "' has no value");
    reject_duplicate(*section, entry);
    section->push_back(std::move(entry));
  }
  if (in.bad()) throw libcont::InputError("error reading config file '" + path.string() + "'");
  return config;
}

}  // namespace vicont
