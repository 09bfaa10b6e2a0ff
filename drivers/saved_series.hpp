#pragma once
// Which of a run's series (one CSV row per period, impact or sample) are written: --save
// (doc/cli.md, "Output size"). The summary is always written; a series can be millions of
// rows (a 10^6-period Lyapunov run has a million Poincare samples) that nobody asked for, so
//  - auto (the default): each series of at most auto_series_rows rows; a longer one is
//    skipped with a note naming the --save that writes it;
//  - all, none, or a comma-separated list of the command's series names.
#include <cstddef>
#include <string>
#include <vector>

namespace vicont {

class RunOptions;

inline constexpr std::size_t auto_series_rows = 100'000;

class SavedSeries {
 public:
  // `names`: the series the command can write (file stems: "poincare", "impacts").
  explicit SavedSeries(std::vector<std::string> names);
  // Declares --save (config file: save = ...); bad values are refused naming the option.
  void add_option(RunOptions& options);

  // Whether the series `name` of `rows` rows is to be written; a series that auto leaves
  // out gets a note on stderr saying how to have it.
  bool wanted(const std::string& name, std::size_t rows) const;

 private:
  void parse(const std::string& text, const std::string& label);
  std::vector<std::string> names_;
  enum class Mode { Auto, Listed } mode_ = Mode::Auto;
  std::vector<std::string> listed_;  // Mode::Listed: the series to write (all: every name)
};

}  // namespace vicont
