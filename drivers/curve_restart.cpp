#include "curve_restart.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include "curve_output.hpp"
#include "libcont/input_error.hpp"
#include "output.hpp"
#include "saved_table.hpp"

namespace vicont {

namespace {

using libcont::InputError;

// RUN_DIR and LABEL of RUN_DIR:LABEL (split at the last ':'); empty parts where it is not
// of that form.
std::pair<std::filesystem::path, std::string> parts(const std::string& restart) {
  const auto colon = restart.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == restart.size()) return {};
  return {restart.substr(0, colon), restart.substr(colon + 1)};
}

// The curve's directory: RUN_DIR, or the directory of RUN_DIR when it names a file of it.
std::filesystem::path curve_directory(const std::filesystem::path& given) {
  if (std::filesystem::is_directory(given)) return given;
  const auto parent = given.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

const nlohmann::json& member(const nlohmann::json& object, const char* key, const std::string& file,
                             const char* what) {
  if (!object.is_object() || !object.contains(key))
    throw InputError(file + ": no '" + key + "' (" + what + ")");
  return object[key];
}

double json_number(const nlohmann::json& value, const std::string& where) {
  if (value.is_number()) return value.get<double>();
  throw InputError(where + ": not a number");
}

// With null_is_nan, null reads as NaN: what JSON writes for a NaN (a test function that
// could not be evaluated at a row, such as a resonance test without a bounce).
libcont::Vector json_vector(const nlohmann::json& value, const std::string& where,
                            bool null_is_nan = false) {
  if (!value.is_array()) throw InputError(where + ": not an array");
  libcont::Vector v(static_cast<Eigen::Index>(value.size()));
  for (size_t i = 0; i < value.size(); ++i)
    v[static_cast<Eigen::Index>(i)] =
        null_is_nan && value[i].is_null() ? NAN : json_number(value[i], where);
  return v;
}

// The rows of curve.json as the library's rows (an absent slowest impact or gap minimum:
// none, inf).
std::vector<libcont::CurveRow> saved_rows(const nlohmann::json& rows, const std::string& file,
                                          libcont::CurveKind kind) {
  if (!rows.is_array()) throw InputError(file + ": 'rows' is not an array");
  const std::vector<std::string> auxiliary = auxiliary_names(kind);
  std::vector<libcont::CurveRow> result;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const std::string where = file + " rows[" + std::to_string(i) + "]";
    libcont::CurveRow row;
    row.first = json_number(member(r, "p1", where, "a number"), where + ".p1");
    row.second = json_number(member(r, "p2", where, "a number"), where + ".p2");
    row.impacts = static_cast<int>(json_number(member(r, "impacts", where, "a number"), where));
    row.slowest_impact = r.contains("slowest_impact")
                             ? json_number(r["slowest_impact"], where + ".slowest_impact")
                             : INFINITY;
    row.min_gap = r.contains("min_gap") ? json_number(r["min_gap"], where + ".min_gap") : INFINITY;
    row.phase = json_number(member(r, "section_phase", where, "a number"), where);
    row.x = json_vector(member(r, "state", where, "an array"), where + ".state");
    if (r.contains("tests")) row.tests = json_vector(r["tests"], where + ".tests", true);
    row.auxiliary.resize(static_cast<Eigen::Index>(auxiliary.size()));
    for (size_t k = 0; k < auxiliary.size(); ++k)
      row.auxiliary[static_cast<Eigen::Index>(k)] =
          json_number(member(r, auxiliary[k].c_str(), where, "a number"), where);
    result.push_back(std::move(row));
  }
  return result;
}

// LABEL's row of curve_points.csv.
libcont::CurvePoint saved_point(const SavedCurve& saved, const std::vector<std::string>& state_names,
                                const std::string& item) {
  const CsvTable points = read_csv(saved.directory / "curve_points.csv");
  std::vector<std::string> labels;
  for (size_t r = 0; r < points.rows.size(); ++r) {
    labels.push_back(points.cell(r, "label"));
    if (labels.back() != saved.label) continue;
    libcont::CurvePoint p;
    p.type = points.cell(r, "type");
    p.after_row = static_cast<int>(points.number(r, "after_row"));
    p.first = points.number(r, saved.curve.first);
    p.second = points.number(r, saved.curve.second);
    p.error_estimate = points.number(r, "error_estimate");
    p.phase = points.number(r, "section_phase");
    p.x.resize(static_cast<Eigen::Index>(state_names.size()));
    for (size_t i = 0; i < state_names.size(); ++i)
      p.x[static_cast<Eigen::Index>(i)] = points.number(r, state_names[i]);
    return p;
  }
  std::string listed;
  for (const auto& l : labels) listed += (listed.empty() ? "" : ", ") + l;
  throw InputError(item + ": no point " + saved.label + " (" +
                   (labels.empty() ? std::string("the curve has none") : "the curve has " + listed) +
                   ")");
}

}  // namespace

bool is_curve_restart(const std::string& restart) {
  const auto [given, label] = parts(restart);
  if (given.empty()) return false;
  if (std::filesystem::is_regular_file(given)) return true;
  return std::filesystem::is_directory(given) && !std::filesystem::exists(given / "continue.json") &&
         std::filesystem::exists(given / "curve.json");
}

SavedCurve read_saved_curve(const std::string& restart) {
  const auto [given, label] = parts(restart);
  const std::string item = "--restart " + restart;
  if (given.empty())
    throw InputError(item + ": expected CURVE_DIR:LABEL (LABEL a point of CURVE_DIR/curve_points.csv)");
  SavedCurve saved;
  saved.directory = curve_directory(given);
  saved.label = label;
  std::transform(saved.label.begin(), saved.label.end(), saved.label.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const auto file_path = saved.directory / "curve.json";
  const std::string file = file_path.string();
  if (!std::filesystem::exists(file_path))
    throw InputError(item + ": '" + saved.directory.string() +
                     "' has no curve.json (not a directory of vicont curve)");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(saved_file_text(file_path));
  } catch (const nlohmann::json::exception& error) {
    throw InputError(file + ": not valid JSON: " + error.what());
  }
  const auto text = [&](const char* key) {
    const auto& value = member(json, key, file, "a string");
    if (!value.is_string()) throw InputError(file + ": '" + key + "' is not a string");
    return value.get<std::string>();
  };
  saved.system = text("system");
  if (json.is_object() && json.contains("model")) saved.model = text("model");
  const std::string kind = text("kind");
  const auto parsed = curve_kind_named(kind);
  if (!parsed) throw InputError(file + ": no curve kind '" + kind + "'");
  libcont::OrbitCurve& curve = saved.curve;
  curve.kind = *parsed;
  curve.first = text("p1");
  curve.second = text("p2");
  curve.period = static_cast<int>(json_number(member(json, "n", file, "a number"), file + " n"));
  if (curve.period < 1) throw InputError(file + ": n must be at least 1");
  const auto& range = member(json, "p1_range", file, "[min, max]");
  if (!range.is_array() || range.size() != 2)
    throw InputError(file + ": 'p1_range' is not [min, max]");
  saved.first_min = json_number(range[0], file + " p1_range");
  saved.first_max = json_number(range[1], file + " p1_range");
  for (const auto& name : member(json, "test_names", file, "an array"))
    if (name.is_string()) curve.test_names.push_back(name.get<std::string>());
  const auto& parameters = member(json, "parameters", file, "an object");
  if (!parameters.is_object()) throw InputError(file + ": 'parameters' is not an object");
  for (const auto& [name, value] : parameters.items()) {
    if (value.is_string()) saved.parameters.emplace_back(name, value.get<std::string>());
    else if (value.is_number()) saved.parameters.emplace_back(name, number_text(value.get<double>()));
    else throw InputError(file + ": parameter '" + name + "' is neither a number nor a name");
  }
  std::vector<std::string> state_names;
  for (const auto& name : member(json, "state_names", file, "an array"))
    if (name.is_string()) state_names.push_back(name.get<std::string>());
  curve.rows = saved_rows(member(json, "rows", file, "an array"), file, curve.kind);
  for (const auto& row : curve.rows)
    if (row.x.size() != static_cast<Eigen::Index>(state_names.size()))
      throw InputError(file + ": a row's state does not have the " +
                       std::to_string(state_names.size()) + " components of state_names");
  saved.point = saved_point(saved, state_names, item);
  return saved;
}

}  // namespace vicont
