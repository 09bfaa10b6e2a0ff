#include "map_output.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

// A stretch of a seed branch where its orbit is stable with one impact count.
struct StableStretch {
  int branch = 0;
  double second = 0.0;
  int impacts = 0, period = 1;
  double from = 0.0, to = 0.0;
};

// Where the branch changes between rows i and i + 1: the special point located there (a
// fold, period doubling, Neimark-Sacker point or grazing, where stability changes), else
// none.
std::optional<double> located_between(const libcont::OrbitBranch& branch, int i) {
  for (const libcont::SpecialPoint& s : branch.special_points)
    if (s.after_point == i && s.type != libcont::SpecialPointType::ImpactSignature) return s.lambda;
  return std::nullopt;
}

// Each stretch runs to the located points at its ends, not only to its first and last
// stable rows (a row step short of the bifurcation that ends it).
std::vector<StableStretch> stable_stretches(const libcont::ParameterPlaneMap& map) {
  std::vector<StableStretch> stretches;
  for (size_t b = 0; b < map.branches.size(); ++b) {
    const libcont::OrbitBranch& branch = map.branches[b].branch;
    bool open = false;
    for (size_t i = 0; i < branch.points.size(); ++i) {
      const libcont::BranchPoint& point = branch.points[i];
      const libcont::OrbitPointData data = branch.orbit(point);
      const bool stable = data.stable();
      const int before = static_cast<int>(i) - 1;
      if (open && (!stable || data.impacts != stretches.back().impacts)) {
        open = false;
        stretches.back().to = located_between(branch, before).value_or(stretches.back().to);
      }
      if (stable && !open) {
        const double from = i > 0 ? located_between(branch, before).value_or(point.lambda)
                                  : point.lambda;
        stretches.push_back({static_cast<int>(b), map.branches[b].second, data.impacts,
                             branch.period, from, point.lambda});
        open = true;
      }
      if (open) stretches.back().to = point.lambda;
    }
  }
  // One stretch per line, orbit and overlapping range: the pieces of one branch (and
  // branches through the same orbits) cover the same stretch more than once.
  for (StableStretch& s : stretches)
    if (s.from > s.to) std::swap(s.from, s.to);
  std::sort(stretches.begin(), stretches.end(), [](const StableStretch& a, const StableStretch& b) {
    return std::tie(a.second, a.period, a.impacts, a.from) <
           std::tie(b.second, b.period, b.impacts, b.from);
  });
  std::vector<StableStretch> merged;
  for (const StableStretch& s : stretches) {
    if (!merged.empty()) {
      StableStretch& last = merged.back();
      if (last.second == s.second && last.period == s.period && last.impacts == s.impacts &&
          s.from <= last.to) {
        last.to = std::max(last.to, s.to);
        continue;
      }
    }
    merged.push_back(s);
  }
  return merged;
}

}  // namespace

void write_map_curves_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "curve,kind,n,direction,row," << map.first << ',' << map.second
        << ",impacts,slowest_impact,min_gap\n";
    for (size_t c = 0; c < map.curves.size(); ++c) {
      const libcont::PlaneCurve& piece = map.curves[c];
      const libcont::OrbitCurve& curve = piece.curve;
      if (c > 0) out << c << ',' << to_string(curve.kind) << ",,,,nan,nan,,,\n";
      for (size_t i = 0; i < curve.rows.size(); ++i) {
        const libcont::CurveRow& row = curve.rows[i];
        out << c << ',' << to_string(curve.kind) << ',' << curve.period << ','
            << piece.direction << ',' << i << ',' << number_text(row.first) << ','
            << number_text(row.second) << ',' << row.impacts << ','
            << number_text(row.slowest_impact) << ',' << number_text(row.min_gap) << '\n';
      }
    }
  });
}

void write_map_points_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "curve,kind,type," << map.first << ',' << map.second << '\n';
    for (size_t c = 0; c < map.curves.size(); ++c) {
      const libcont::OrbitCurve& curve = map.curves[c].curve;
      const std::string kind = to_string(curve.kind);
      if (!curve.rows.empty() && map.curves[c].direction > 0)
        out << c << ',' << kind << ",start-" << kind << ',' << number_text(curve.rows[0].first)
            << ',' << number_text(curve.rows[0].second) << '\n';
      for (const libcont::CurvePoint& p : curve.points)
        if (p.type != "turning-point")
          out << c << ',' << kind << ',' << p.type << ',' << number_text(p.first) << ','
              << number_text(p.second) << '\n';
    }
  });
}

void write_map_stable_csv(const std::filesystem::path& file, const libcont::ParameterPlaneMap& map) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "branch," << map.second << ",z,n,impacts," << map.first << "_from," << map.first
        << "_to\n";
    for (const StableStretch& s : stable_stretches(map))
      out << s.branch << ',' << number_text(s.second) << ',' << s.impacts << '/' << s.period
          << ',' << s.period << ',' << s.impacts << ',' << number_text(s.from) << ','
          << number_text(s.to) << '\n';
  });
}

nlohmann::ordered_json map_json(const libcont::ParameterPlaneMap& map) {
  nlohmann::ordered_json branches = nlohmann::ordered_json::array();
  for (size_t b = 0; b < map.branches.size(); ++b) {
    const libcont::PlaneBranch& piece = map.branches[b];
    nlohmann::ordered_json specials = nlohmann::ordered_json::array();
    for (const libcont::SpecialPoint& s : piece.branch.special_points)
      specials.push_back({{"type", s.type_name()}, {"detail", s.detail}, {"p1", s.lambda}});
    branches.push_back({{"index", b},
                        {"p2", piece.second},
                        {"seed_p1", piece.seed},
                        {"n", piece.branch.period},
                        {"rows", piece.branch.points.size()},
                        {"special_points", specials},
                        {"status", to_string(piece.branch.status)},
                        {"stop_reason", piece.branch.stop_reason}});
  }
  nlohmann::ordered_json curves = nlohmann::ordered_json::array();
  for (size_t c = 0; c < map.curves.size(); ++c) {
    const libcont::PlaneCurve& piece = map.curves[c];
    const libcont::OrbitCurve& curve = piece.curve;
    const libcont::SpecialPoint& start =
        map.branches[static_cast<size_t>(piece.branch)].branch.special_points[static_cast<size_t>(
            piece.special_point)];
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const libcont::CurvePoint& p : curve.points)
      points.push_back({{"type", p.type}, {"p1", p.first}, {"p2", p.second},
                        {"after_row", p.after_row}});
    nlohmann::ordered_json entry = {
        {"index", c},
        {"kind", to_string(curve.kind)},
        {"n", curve.period},
        {"start", {{"branch", piece.branch},
                   {"type", start.type_name()},
                   {"p1", start.lambda},
                   {"p2", map.branches[static_cast<size_t>(piece.branch)].second}}},
        {"direction", piece.direction},
        {"rows", curve.rows.size()},
        {"points", points},
        {"status", to_string(curve.status)},
        {"stop_reason", curve.stop_reason},
        {"failure", curve.failure}};
    if (!curve.rows.empty())
      entry["end"] = {{"p1", curve.rows.back().first}, {"p2", curve.rows.back().second}};
    curves.push_back(entry);
  }
  nlohmann::ordered_json s;
  s["searches"] = map.searches;
  s["orbits_found"] = map.orbits_found;
  s["stopped"] = map.stopped;
  s["branches"] = branches;
  s["curves"] = curves;
  s["notes"] = map.notes;
  return s;
}

std::string curve_counts_text(const libcont::ParameterPlaneMap& map) {
  std::map<std::string, int> counts;
  for (const libcont::PlaneCurve& c : map.curves) ++counts[to_string(c.curve.kind)];
  std::string text;
  for (const auto& [kind, count] : counts)
    text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
  return text.empty() ? "none" : text;
}

}  // namespace vicont
