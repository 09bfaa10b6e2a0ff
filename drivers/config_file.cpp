#include "config_file.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>

#include "input_file.hpp"
#include "libcont/input_error.hpp"
#include "shown_text.hpp"

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

// Binary data or a runaway line is no configuration; refused before any of it is quoted.
void check_line(std::string_view line, const std::string& where) {
  if (line.size() > max_config_line)
    throw libcont::InputError(where + ": line of " + std::to_string(line.size()) +
                              " characters; at most " + std::to_string(max_config_line));
  for (size_t i = 0; i < line.size(); ++i) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\r') || byte == 0x7f)
      throw libcont::InputError(where + ": control byte " + shown_text(line.substr(i, 1)) +
                                " at column " + std::to_string(i + 1) +
                                " (a config file is text)");
  }
}

// [parameters] or [COMMAND].
std::vector<ConfigFile::Entry>* find_section(ConfigFile& config, std::string_view line,
                                             const std::string& where) {
  if (line == "[parameters]") return &config.parameters;
  const auto& commands = command_sections();
  if (line.size() > 2 && line.back() == ']') {
    const std::string name(line.substr(1, line.size() - 2));
    if (std::find(commands.begin(), commands.end(), name) != commands.end())
      return &config.commands[name];
  }
  std::string known = "[parameters]";
  for (const auto& name : commands) known += ", [" + name + "]";
  throw libcont::InputError(where + ": unknown section '" + shown_text(line) + "' (known: " +
                            known + ")");
}

}  // namespace

const std::vector<std::string>& command_sections() {
  static const std::vector<std::string> names = {
      "main", "simulate", "lyapunov", "orbit",   "continue", "curve",
      "map",  "sweep",    "basins",   "diagram", "impact",   "systems"};
  return names;
}

ConfigFile read_config_file(const std::filesystem::path& path) {
  std::istringstream in(read_input_file(
      path, {"config file '" + shown_text(path.string()) + "'", max_config_bytes, "a config file"}));
  ConfigFile config;
  std::vector<ConfigFile::Entry>* section = &config.options;
  std::string text;
  int line_number = 0;
  while (std::getline(in, text)) {
    ++line_number;
    const std::string where = path.string() + ":" + std::to_string(line_number);
    check_line(text, where);
    std::string_view line = text;
    line = trimmed(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = find_section(config, line, where);
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string_view::npos)
      throw libcont::InputError(where + ": expected 'key = value', got '" + shown_text(line) +
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
  return config;
}

}  // namespace vicont
