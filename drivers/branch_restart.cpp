#include "branch_restart.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "atomic_file.hpp"
#include "branch_output.hpp"
#include "input_file.hpp"
#include "libcont/input_error.hpp"
#include "libcont/parameters.hpp"
#include "output.hpp"
#include "saved_table.hpp"

namespace vicont {

namespace {

using libcont::InputError;

// The special points' labels: the label column, or (a run written before there was one)
// the labels of their types in order.
std::vector<std::string> labels_of(const CsvTable& specials) {
  std::vector<std::string> result;
  const int label = specials.column("label");
  if (label >= 0) {
    for (const auto& row : specials.rows) result.push_back(row[static_cast<size_t>(label)]);
    return result;
  }
  const int type = specials.require("type");
  std::vector<std::string> types;
  for (const auto& row : specials.rows) types.push_back(row[static_cast<size_t>(type)]);
  return special_point_labels(types);
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

bool is_row_index(const std::string& label) {
  return !label.empty() && std::all_of(label.begin(), label.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; });
}

// The point in row `row` of `table`: parameter, n, section phase, state and, where the
// file has them, the tangent columns.
SavedPoint point_of(const CsvTable& table, size_t row, const std::string& parameter,
                    const std::vector<std::string>& state_names) {
  SavedPoint saved;
  saved.point.lambda = table.number(row, parameter);
  const double n = table.number(row, "n");
  if (n < 1 || n != std::floor(n))
    throw InputError(table.where(row, "n") + ": n must be a whole number >= 1");
  saved.n = static_cast<int>(n);
  saved.point.chart = table.number(row, "section_phase");
  const auto m = static_cast<Eigen::Index>(state_names.size());
  saved.point.u.resize(m);
  for (Eigen::Index i = 0; i < m; ++i)
    saved.point.u[i] = table.number(row, state_names[static_cast<size_t>(i)]);
  if (table.column("tangent:" + parameter) >= 0) {
    libcont::Vector tangent(m + 1);
    bool finite = true;
    for (Eigen::Index i = 0; i <= m; ++i) {
      const std::string title =
          "tangent:" + (i < m ? state_names[static_cast<size_t>(i)] : parameter);
      const std::string& text = table.rows[row][static_cast<size_t>(table.require(title))];
      if (text == "nan") {  // a point without a tangent
        finite = false;
        break;
      }
      tangent[i] = libcont::parse_number(text, table.where(row, title));
    }
    if (finite) saved.point.tangent = tangent;
  }
  return saved;
}

}  // namespace

SavedRun read_saved_run(const std::string& restart) {
  const auto colon = restart.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == restart.size())
    throw InputError("--restart '" + restart +
                     "': expected RUN_DIR:LABEL (LABEL a special point's label such as PD1, "
                     "or a row index of RUN_DIR/branch.csv)");
  SavedRun run;
  run.directory = restart.substr(0, colon);
  run.label = restart.substr(colon + 1);
  if (!is_row_index(run.label))
    std::transform(run.label.begin(), run.label.end(), run.label.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (!std::filesystem::is_directory(run.directory))
    throw InputError("--restart: no directory '" + run.directory.string() + "'");
  const auto file = run.directory / "continue.json";
  if (!std::filesystem::exists(file))
    throw InputError("--restart: '" + run.directory.string() +
                     "' has no continue.json (not a directory of vicont continue)");
  nlohmann::json saved;
  try {
    saved = nlohmann::json::parse(saved_file_text(file));
  } catch (const nlohmann::json::exception& error) {
    throw InputError(file.string() + ": not valid JSON: " + error.what());
  }
  const auto text = [&](const char* key) {
    if (!saved.is_object() || !saved.contains(key) || !saved[key].is_string())
      throw InputError(file.string() + ": no '" + key + "' (a string)");
    return saved[key].get<std::string>();
  };
  run.system = text("system");
  if (saved.contains("model")) run.model = text("model");
  run.parameter = text("parameter");
  // The range of the run (a curve's default range of the branch's parameter).
  for (const auto& [key, target] : {std::pair{"from", &run.from}, std::pair{"to", &run.to}})
    if (saved.is_object() && saved.contains(key) && saved[key].is_number()) {
      const double value = saved[key].get<double>();
      if (std::isfinite(value)) *target = value;
    }
  if (!saved.contains("parameters") || !saved["parameters"].is_object())
    throw InputError(file.string() + ": no 'parameters' (an object)");
  for (const auto& [name, value] : saved["parameters"].items()) {
    if (value.is_string())
      run.parameters.emplace_back(name, value.get<std::string>());
    else if (value.is_number())
      run.parameters.emplace_back(name, number_text(value.get<double>()));
    else
      throw InputError(file.string() + ": parameter '" + name + "' is neither a number nor a name");
  }
  return run;
}

namespace {

// Row `wanted` of the run's branch.csv.
SavedPoint row_point(const SavedRun& run, double wanted, const std::vector<std::string>& state_names,
                     const std::string& item) {
  const CsvTable branch = read_csv(run.directory / "branch.csv");
  const int index = branch.require("index");
  for (size_t r = 0; r < branch.rows.size(); ++r)
    if (branch.number(r, "index") == wanted) {
      SavedPoint saved = point_of(branch, r, run.parameter, state_names);
      saved.label = run.label;
      saved.row = static_cast<int>(wanted);
      return saved;
    }
  throw InputError(item + ": no row " + run.label + " in branch.csv (" +
                     (branch.rows.empty()
                          ? std::string("it has no rows")
                          : "rows " + branch.rows.front()[static_cast<size_t>(index)] + " to " +
                                branch.rows.back()[static_cast<size_t>(index)]) +
                     ")");
}

}  // namespace

SavedPoint read_saved_point(const SavedRun& run, const std::vector<std::string>& state_names,
                            GrazingStart grazing) {
  const std::string item = "--restart " + run.directory.string() + ":" + run.label;
  if (is_row_index(run.label))
    return row_point(run, libcont::parse_number(run.label, item), state_names, item);
  const CsvTable specials = read_csv(run.directory / "special_points.csv");
  const std::vector<std::string> labels = labels_of(specials);
  for (size_t r = 0; r < specials.rows.size(); ++r) {
    if (labels[r] != run.label) continue;
    SavedPoint saved = point_of(specials, r, run.parameter, state_names);
    saved.label = run.label;
    const std::string& type = specials.rows[r][static_cast<size_t>(specials.require("type"))];
    saved.type = libcont::special_point_type(type);
    if (!saved.type)
      throw InputError(specials.where(r, "type") + ": no special point type '" + type + "'");
    if (const int kind = specials.column("kind"); kind >= 0)
      saved.kind = specials.rows[r][static_cast<size_t>(kind)];
    const double after = specials.number(r, "after_point");
    saved.row = static_cast<int>(after);
    if (saved.type != libcont::SpecialPointType::Grazing || grazing == GrazingStart::AsSaved)
      return saved;
    // At a grazing the map is not differentiable: the branch starts from the row before
    // it, whose continuation passes the grazing again onto the other family (or, towards
    // --to the other way, goes back along its own).
    SavedPoint before = row_point(run, after, state_names, item);
    before.label = saved.label;
    before.type = saved.type;
    before.kind = saved.kind;
    return before;
  }
  throw InputError(item + ": no special point " + run.label + " (" +
                   (labels.empty() ? std::string("the run has none")
                                   : "the run has " + joined(labels)) +
                   "; a row index of branch.csv also serves)");
}

void copy_saved_branch(const SavedRun& run, const std::filesystem::path& directory) {
  prepare_output_directory(directory);
  const std::string branch = saved_file_text(run.directory / "branch.csv");
  write_file_atomically(directory / "branch.csv", [&](std::ostream& out) { out << branch; });
  const CsvTable specials = read_csv(run.directory / "special_points.csv");
  const bool labelled = specials.column("label") >= 0;
  const std::vector<std::string> labels = labels_of(specials);
  // Written as read; a run from before the label column gets one, for the plot.
  write_file_atomically(directory / "special_points.csv", [&](std::ostream& out) {
    const auto line = [&](const std::string& first, const std::vector<std::string>& cells) {
      bool start = labelled;
      if (!labelled) out << first;
      for (const auto& cell : cells) {
        out << (start ? "" : ",") << cell;
        start = false;
      }
      out << '\n';
    };
    line("label", specials.header);
    for (size_t r = 0; r < specials.rows.size(); ++r) line(labels[r], specials.rows[r]);
  });
}

}  // namespace vicont
