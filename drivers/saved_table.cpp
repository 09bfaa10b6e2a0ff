#include "saved_table.hpp"

#include <algorithm>
#include <sstream>

#include "input_file.hpp"
#include "libcont/input_error.hpp"
#include "libcont/parameters.hpp"
#include "shown_text.hpp"

namespace vicont {

using libcont::InputError;

namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> result;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) result.push_back(field);
  if (!line.empty() && line.back() == ',') result.emplace_back();
  return result;
}

}  // namespace

int CsvTable::column(const std::string& title) const {
  const auto found = std::find(header.begin(), header.end(), title);
  return found == header.end() ? -1 : static_cast<int>(found - header.begin());
}

int CsvTable::require(const std::string& title) const {
  const int c = column(title);
  if (c < 0) throw InputError(name + ": no column '" + title + "'");
  return c;
}

std::string CsvTable::where(size_t row, const std::string& title) const {
  return name + " line " + std::to_string(lines[row]) + ", column " + title;
}

const std::string& CsvTable::cell(size_t row, const std::string& title) const {
  return rows[row][static_cast<size_t>(require(title))];
}

double CsvTable::number(size_t row, const std::string& title) const {
  return libcont::parse_number(cell(row, title), where(row, title));
}

std::string saved_file_text(const std::filesystem::path& file) {
  return read_input_file(file, {"--restart file '" + shown_text(file.string(), 300) + "'", 0, ""});
}

CsvTable read_csv(const std::filesystem::path& file) {
  CsvTable table;
  table.name = file.string();
  std::istringstream in(saved_file_text(file));
  std::string line;
  if (!std::getline(in, line) || line.empty()) throw InputError(table.name + ": empty, no header");
  table.header = fields(line);
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    auto row = fields(line);
    if (row.size() != table.header.size())
      throw InputError(table.name + " line " + std::to_string(number) + ": " +
                       std::to_string(row.size()) + " fields, the header has " +
                       std::to_string(table.header.size()));
    table.rows.push_back(std::move(row));
    table.lines.push_back(number);
  }
  return table;
}

}  // namespace vicont
