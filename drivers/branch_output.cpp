#include "branch_output.hpp"

#include <fstream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

bool is_stable(const BranchTable& table, const libcont::Vector& data) {
  return data[data_column(table, "spectral_radius")] < 1.0;
}

void write_header(std::ostream& out, const BranchTable& table, const std::string& first,
                  bool drawing_columns) {
  out << first << ',' << table.parameter;
  for (const auto& name : table.data_names) out << ',' << name;
  out << ",n,stable";
  if (drawing_columns) out << ",draw_stable,draw_unstable";
  out << ",section_phase";
  for (const auto& name : table.state_names) out << ',' << name;
  out << '\n';
}

void write_values(std::ostream& out, const libcont::Vector& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) out << ',' << number_text(values[i]);
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
    write_header(out, table, "index", true);
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      const bool stable = is_stable(table, p.data);
      const bool changes = (i > 0 && is_stable(table, points[i - 1].data) != stable) ||
                           (i + 1 < points.size() && is_stable(table, points[i + 1].data) != stable);
      out << i << ',' << number_text(p.lambda);
      write_values(out, p.data);
      out << ',' << table.period << ',' << stable << ',' << (stable || changes) << ','
          << (!stable || changes) << ',' << number_text(p.chart);
      write_values(out, p.u);
      out << '\n';
    }
  });
}

void write_special_points_csv(const std::filesystem::path& file, const BranchTable& table,
                              const std::vector<libcont::SpecialPoint>& points) {
  write_file_atomically(file, [&](std::ostream& out) {
    write_header(out, table, "type,after_point", false);
    for (const auto& p : points) {
      out << p.type << ',' << p.after_point << ',' << number_text(p.lambda);
      write_values(out, p.data);
      out << ',' << table.period << ',' << is_stable(table, p.data) << ','
          << number_text(p.chart);
      write_values(out, p.u);
      out << '\n';
    }
  });
}

}  // namespace vicont
