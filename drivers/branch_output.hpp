#pragma once
// The files of `vicont continue`: the branch and its special points as CSV. Columns come
// from the periodic-orbit problem's point data (PeriodicOrbitProblem::point_data_names):
// the amplitudes A_max of the displacement coordinates, impacts p, spectral radius,
// minimum gap, slowest impact and the Floquet multipliers, then the orbit's state on the
// section.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libcont/orbit_branch.hpp"
#include "libcont/pseudo_arclength.hpp"

namespace vicont {

struct BranchTable {
  std::string parameter;                 // name of the continued parameter
  int period = 1;                        // n of the orbits
  std::vector<std::string> data_names;   // of BranchPoint::data
  std::vector<std::string> state_names;  // of BranchPoint::u
};

// Index of a point-data column by name; throws std::logic_error if absent.
Eigen::Index data_column(const BranchTable& table, const std::string& name);

// index, <parameter>, <data...>, n, stable, section_phase,
// <state...> (the state on the point's section t = section_phase mod nT: its chart, since
// the continuation moves the section off the orbit's events), tangent:<state>...,
// tangent:<parameter> (the unit tangent of the branch there, BranchPoint::tangent: what a
// restart along the branch needs besides the point).
void write_branch_csv(const std::filesystem::path& file, const BranchTable& table,
                      const std::vector<libcont::BranchPoint>& points);

// label, type, kind, after_point, <parameter>, <data...>, n, stable, section_phase,
// <state...>, tangent:... . `stable` is that of the branch arriving at the point (its
// after_point row; stable_before): at the point itself a critical multiplier lies on the
// unit circle, so its own stability is a matter of rounding. A special point has no tangent of its own: its columns hold
// the tangent of the branch row it follows (after_point), a direction hint for a restart.
// `labels` are those of special_point_labels; `branch` the rows the points lie on.
// The stability of the branch rows either side of a special point (after_point and the
// row after it), each empty where the branch has no such row.
struct StabilityAround {
  std::optional<bool> before, after;
};
StabilityAround stability_around(const BranchTable& table, const libcont::SpecialPoint& point,
                                 const std::vector<libcont::BranchPoint>& branch);
// The branch's stability arriving at the point; its own where there is no row before it.
bool stable_before(const BranchTable& table, const libcont::SpecialPoint& point,
                   const std::vector<libcont::BranchPoint>& branch);

void write_special_points_csv(const std::filesystem::path& file, const BranchTable& table,
                              const std::vector<libcont::SpecialPoint>& points,
                              const std::vector<std::string>& labels,
                              const std::vector<libcont::BranchPoint>& branch);

// AUTO-like short labels of special points of these types, numbered per type in the
// order given (branch order): LP1, LP2 (fold), PD1 (period-doubling), NS1
// (neimark-sacker), GR1 (grazing), IS1 (impact-signature); SP1 for any other type. The
// types by name (libcont::to_string(SpecialPointType)), as a file holds them.
std::vector<std::string> special_point_labels(const std::vector<std::string>& types);
std::vector<std::string> special_point_labels(const std::vector<libcont::SpecialPoint>& points);

// Where the branch's stability changes with no special point to explain it
// (libcont::unexplained_stability_changes): the summary's lines, each starting with
// `indent` ("" if there are none), and the JSON list of {after_point, from, to}.
std::string stability_warning_text(const libcont::ContinuationResult& branch,
                                   const std::vector<std::string>& data_names,
                                   const std::string& parameter, const std::string& indent);
nlohmann::ordered_json stability_warnings_json(const libcont::ContinuationResult& branch,
                                               const std::vector<std::string>& data_names);

}  // namespace vicont
