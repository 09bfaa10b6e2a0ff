#include "saved_series.hpp"

#include <algorithm>
#include <sstream>

#include "libcont/input_error.hpp"
#include "progress.hpp"
#include "run_options.hpp"
#include "shown_text.hpp"

namespace vicont {

SavedSeries::SavedSeries(std::vector<std::string> names) : names_(std::move(names)) {}

void SavedSeries::add_option(RunOptions& options) {
  std::string known;
  for (const auto& name : names_) known += ", " + name;
  options.add_parsed("save", "LIST",
                     "series files to write: auto (those of at most " +
                         std::to_string(auto_series_rows) + " rows; default), all, none, or " +
                         "a comma-separated list of" + known.substr(1),
                     [this](std::string_view text, const std::string& label) {
                       parse(std::string(text), label);
                     });
}

void SavedSeries::parse(const std::string& text, const std::string& label) {
  listed_.clear();
  if (text == "auto") {
    mode_ = Mode::Auto;
    return;
  }
  mode_ = Mode::Listed;
  if (text == "all") {
    listed_ = names_;
    return;
  }
  if (text == "none") return;
  std::string known;
  for (const auto& name : names_) known += (known.empty() ? "" : ", ") + name;
  std::istringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (std::find(names_.begin(), names_.end(), name) == names_.end())
      throw libcont::InputError(label + ": unknown series '" + shown_text(name) +
                                "' (known: auto, all, none or a list of " + known + ")");
    listed_.push_back(name);
  }
  if (listed_.empty() || text.back() == ',')
    throw libcont::InputError(label + ": empty series name in '" + shown_text(text) + "'");
}

bool SavedSeries::wanted(const std::string& name, std::size_t rows) const {
  if (mode_ == Mode::Listed) return std::find(listed_.begin(), listed_.end(), name) != listed_.end();
  if (rows <= auto_series_rows) return true;
  print_note(name + ".csv not written (" + std::to_string(rows) + " rows); --save " + name +
             " or --save all writes it");
  return false;
}

}  // namespace vicont
