#pragma once
// The files of a saved run read back for a restart (`continue --restart`, `curve
// --restart`): any file as text, refused unread where it is no regular file (a FIFO in its
// place would block the read), and the CSV files the runs write (a header, then rows of as
// many fields) with their cells by column title, errors naming file, line and column.
#include <filesystem>
#include <string>
#include <vector>

namespace vicont {

struct CsvTable {
  std::string name;  // the file, for messages
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // each row's line number

  // The column's index, -1 where there is none.
  int column(const std::string& title) const;
  // The same; throws libcont::InputError where there is none.
  int require(const std::string& title) const;
  // "FILE line L, column TITLE", for messages.
  std::string where(size_t row, const std::string& title) const;
  const std::string& cell(size_t row, const std::string& title) const;
  // The cell as a number (libcont::parse_number: finite or inf/nan as written).
  double number(size_t row, const std::string& title) const;
};

// The text of a file of the saved run (--restart).
std::string saved_file_text(const std::filesystem::path& file);

// Throws libcont::InputError for an empty file or a row whose field count is not the
// header's.
CsvTable read_csv(const std::filesystem::path& file);

}  // namespace vicont
