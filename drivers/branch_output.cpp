#include "branch_output.hpp"

#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

bool is_stable(const BranchTable& table, const libcont::Vector& data) {
  return data[data_column(table, "spectral_radius")] < 1.0;
}

void write_header(std::ostream& out, const BranchTable& table, const std::string& first) {
  out << first << ',' << table.parameter;
  for (const auto& name : table.data_names) out << ',' << name;
  out << ",n,stable";
  out << ",section_phase";
  for (const auto& name : table.state_names) out << ',' << name;
  for (const auto& name : table.state_names) out << ",tangent:" << name;
  out << ",tangent:" << table.parameter << '\n';
}

void write_values(std::ostream& out, const libcont::Vector& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) out << ',' << number_text(values[i]);
}

// The tangent columns: nan where a point has none of the right size.
void write_tangent(std::ostream& out, const BranchTable& table, const libcont::Vector& tangent) {
  const auto size = static_cast<Eigen::Index>(table.state_names.size()) + 1;
  if (tangent.size() == size)
    write_values(out, tangent);
  else
    for (Eigen::Index i = 0; i < size; ++i) out << ",nan";
}

}  // namespace

Eigen::Index data_column(const BranchTable& table, const std::string& name) {
  for (size_t i = 0; i < table.data_names.size(); ++i)
    if (table.data_names[i] == name) return static_cast<Eigen::Index>(i);
  throw std::logic_error("branch data has no column '" + name + "'");
}

void write_branch_csv(const std::filesystem::path& file, const BranchTable& table,
                      const std::vector<libcont::BranchPoint>& points) {
  write_file_atomically(file, [&](std::ostream& out) {
    write_header(out, table, "index");
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      out << i << ',' << number_text(p.lambda);
      write_values(out, p.data);
      out << ',' << table.period << ',' << is_stable(table, p.data) << ','
          << number_text(p.chart);
      write_values(out, p.u);
      write_tangent(out, table, p.tangent);
      out << '\n';
    }
  });
}

StabilityAround stability_around(const BranchTable& table, const libcont::SpecialPoint& point,
                                 const std::vector<libcont::BranchPoint>& branch) {
  StabilityAround around;
  const auto row = static_cast<size_t>(point.after_point);
  if (point.after_point >= 0 && row < branch.size())
    around.before = is_stable(table, branch[row].data);
  if (point.after_point >= 0 && row + 1 < branch.size())
    around.after = is_stable(table, branch[row + 1].data);
  return around;
}

bool stable_before(const BranchTable& table, const libcont::SpecialPoint& point,
                   const std::vector<libcont::BranchPoint>& branch) {
  return stability_around(table, point, branch).before.value_or(is_stable(table, point.data));
}

void write_special_points_csv(const std::filesystem::path& file, const BranchTable& table,
                              const std::vector<libcont::SpecialPoint>& points,
                              const std::vector<std::string>& labels,
                              const std::vector<libcont::BranchPoint>& branch) {
  write_file_atomically(file, [&](std::ostream& out) {
    write_header(out, table, "label,type,kind,after_point");
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      out << labels.at(i) << ',' << p.type_name() << ',' << p.detail << ',' << p.after_point << ','
          << number_text(p.lambda);
      write_values(out, p.data);
      out << ',' << table.period << ',' << stable_before(table, p, branch) << ','
          << number_text(p.chart);
      write_values(out, p.u);
      const auto row = static_cast<size_t>(p.after_point);
      const bool on_branch = p.after_point >= 0 && row < branch.size();
      write_tangent(out, table, on_branch ? branch[row].tangent : libcont::Vector());
      out << '\n';
    }
  });
}

namespace {

std::string label_prefix(std::optional<libcont::SpecialPointType> type) {
  using libcont::SpecialPointType;
  if (!type) return "SP";
  switch (*type) {
    case SpecialPointType::Fold: return "LP";
    case SpecialPointType::PeriodDoubling: return "PD";
    case SpecialPointType::NeimarkSacker: return "NS";
    case SpecialPointType::Grazing: return "GR";
    case SpecialPointType::ImpactSignature: return "IS";
    case SpecialPointType::Custom: return "SP";
    case SpecialPointType::UserValue: return "UZ";
  }
  return "SP";
}

std::vector<std::string> numbered(const std::vector<std::string>& prefixes) {
  std::map<std::string, int> counts;
  std::vector<std::string> labels;
  for (const auto& prefix : prefixes) labels.push_back(prefix + std::to_string(++counts[prefix]));
  return labels;
}

}  // namespace

std::vector<std::string> special_point_labels(const std::vector<std::string>& types) {
  std::vector<std::string> prefixes;
  for (const auto& type : types) prefixes.push_back(label_prefix(libcont::special_point_type(type)));
  return numbered(prefixes);
}

std::vector<std::string> special_point_labels(const std::vector<libcont::SpecialPoint>& points) {
  std::vector<std::string> prefixes;
  for (const auto& p : points) prefixes.push_back(label_prefix(p.type));
  return numbered(prefixes);
}

std::string stability_warning_text(const libcont::ContinuationResult& branch,
                                   const std::vector<std::string>& data_names,
                                   const std::string& parameter, const std::string& indent) {
  const std::vector<int> rows = libcont::unexplained_stability_changes(branch, data_names);
  std::string text;
  constexpr size_t kNamed = 3;
  for (size_t k = 0; k < rows.size() && k < kNamed; ++k) {
    const auto i = static_cast<size_t>(rows[k]);
    text += indent + "the orbits' stability changes between " + parameter + " = " +
            number_text(branch.points[i].lambda) + " and " +
            number_text(branch.points[i + 1].lambda) + " (rows " + std::to_string(i) + " and " +
            std::to_string(i + 1) +
            ") with no special point between them: a step may have jumped to another sheet of "
            "the branch, or a bifurcation was missed; a smaller --max-step shows which\n";
  }
  if (rows.size() > kNamed)
    text += indent + std::to_string(rows.size() - kNamed) + " more such changes (all in the JSON)\n";
  return text;
}

nlohmann::ordered_json stability_warnings_json(const libcont::ContinuationResult& branch,
                                               const std::vector<std::string>& data_names) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const int row : libcont::unexplained_stability_changes(branch, data_names)) {
    const auto i = static_cast<size_t>(row);
    list.push_back({{"after_point", row},
                    {"from", branch.points[i].lambda},
                    {"to", branch.points[i + 1].lambda}});
  }
  return list;
}

}  // namespace vicont
