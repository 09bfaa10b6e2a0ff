#include "curve_output.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

void write_vector(std::ostream& out, const libcont::Vector& values, size_t size) {
  for (size_t i = 0; i < size; ++i)
    out << ',' << (static_cast<Eigen::Index>(i) < values.size()
                       ? number_text(values[static_cast<Eigen::Index>(i)])
                       : std::string("nan"));
}

}  // namespace

std::optional<libcont::CurveKind> curve_kind_named(const std::string& name) {
  for (const auto kind : {libcont::CurveKind::Fold, libcont::CurveKind::PeriodDoubling,
                          libcont::CurveKind::NeimarkSacker, libcont::CurveKind::Grazing})
    if (to_string(kind) == name) return kind;
  return std::nullopt;
}

std::vector<std::string> auxiliary_names(libcont::CurveKind kind) {
  switch (kind) {
    case libcont::CurveKind::Grazing: return {"tangency_time"};
    case libcont::CurveKind::NeimarkSacker: return {"kappa"};
    default: return {};
  }
}

CurveTable curve_table(const libcont::OrbitCurve& curve,
                       const std::vector<std::string>& state_names) {
  CurveTable table;
  table.state_names = state_names;
  table.auxiliary_names = auxiliary_names(curve.kind);
  for (const auto& row : curve.rows)
    table.multipliers = std::max(table.multipliers, static_cast<int>(row.multipliers.size()));
  return table;
}

void write_curve_csv(const std::filesystem::path& file, const libcont::OrbitCurve& curve,
                     const CurveTable& table) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "index," << curve.first << ',' << curve.second << ",impacts,slowest_impact,min_gap";
    for (const auto& name : curve.test_names) out << ",test:" << name;
    for (int k = 1; k <= table.multipliers; ++k) out << ",mu" << k << ":abs";
    out << ",section_phase";
    for (const auto& name : table.state_names) out << ',' << name;
    for (const auto& name : table.auxiliary_names) out << ',' << name;
    out << '\n';
    for (size_t i = 0; i < curve.rows.size(); ++i) {
      const libcont::CurveRow& row = curve.rows[i];
      out << i << ',' << number_text(row.first) << ',' << number_text(row.second) << ','
          << row.impacts << ',' << number_text(row.slowest_impact) << ','
          << number_text(row.min_gap);
      write_vector(out, row.tests, curve.test_names.size());
      for (int k = 0; k < table.multipliers; ++k)
        out << ','
            << (static_cast<size_t>(k) < row.multipliers.size()
                    ? number_text(std::abs(row.multipliers[static_cast<size_t>(k)]))
                    : std::string("nan"));
      out << ',' << number_text(row.phase);
      write_vector(out, row.x, table.state_names.size());
      write_vector(out, row.auxiliary, table.auxiliary_names.size());
      out << '\n';
    }
  });
}

std::vector<std::string> curve_point_labels(const std::vector<libcont::CurvePoint>& points) {
  static const std::map<std::string, std::string> prefixes = {
      {"cusp", "CP"}, {"fold-flip", "LPPD"}, {"grazing", "GR"},
      {"turning-point", "TP"}, {"resonance-1:1", "R1_"}, {"resonance-1:2", "R2_"},
      {"resonance-1:3", "R3_"}, {"resonance-1:4", "R4_"}, {"resonant-grazing-fold", "RGLP"},
      {"resonant-grazing-flip", "RGPD"}};
  std::map<std::string, int> counts;
  std::vector<std::string> labels;
  for (const auto& p : points) {
    const auto found = prefixes.find(p.type);
    const std::string prefix = found == prefixes.end() ? "SP" : found->second;
    labels.push_back(prefix + std::to_string(++counts[prefix]));
  }
  return labels;
}

std::string curve_point_detail(const libcont::OrbitCurve& curve, const libcont::CurvePoint& point) {
  if (point.type == "grazing")
    return "the curve ends: an impact of its orbit grazes (error estimate of " + curve.first +
           " " + rounded_text(point.error_estimate, 2) + ")";
  if (point.type == "turning-point") return "the curve turns back in " + curve.first;
  if (point.type == "cusp") return "the fold's quadratic coefficient changes sign";
  if (point.type == "fold-flip") return "a multiplier at +1 and another at -1";
  if (point.type == "resonance-1:1")
    return "a double multiplier at +1: a Neimark-Sacker curve meets the fold curve";
  if (point.type == "resonance-1:2")
    return "a double multiplier at -1: a Neimark-Sacker curve meets the period-doubling curve";
  if (point.type == "resonant-grazing-fold")
    return "a fold curve of the impacting orbit issues from the grazing curve";
  if (point.type == "resonant-grazing-flip")
    return "a period-doubling curve of the impacting orbit issues from the grazing curve";
  return point.type;
}

void write_curve_points_csv(const std::filesystem::path& file, const libcont::OrbitCurve& curve,
                            const CurveTable& table, const std::vector<std::string>& labels) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "label,type,after_row," << curve.first << ',' << curve.second
        << ",error_estimate,detail,section_phase";
    for (const auto& name : table.state_names) out << ',' << name;
    out << '\n';
    for (size_t i = 0; i < curve.points.size(); ++i) {
      const libcont::CurvePoint& p = curve.points[i];
      std::string detail = curve_point_detail(curve, p);
      std::replace(detail.begin(), detail.end(), ',', ';');
      out << labels[i] << ',' << p.type << ',' << p.after_row << ',' << number_text(p.first)
          << ',' << number_text(p.second) << ',' << number_text(p.error_estimate) << ','
          << detail << ',' << number_text(p.phase);
      write_vector(out, p.x, table.state_names.size());
      out << '\n';
    }
  });
}

}  // namespace vicont
