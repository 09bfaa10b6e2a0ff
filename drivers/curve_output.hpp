#pragma once
// The files of `vicont curve`: the rows of a two-parameter curve of codimension-one points
// (libcont::OrbitCurve) and its codimension-two points as CSV, and the points' short
// labels.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "libcont/orbit_curve.hpp"

namespace vicont {

struct CurveTable {
  std::vector<std::string> state_names;
  std::vector<std::string> auxiliary_names;  // auxiliary_names(kind)
  int multipliers = 0;                       // columns mu<k>:abs (the most any row has)
};

// The kind named by to_string(kind) ("fold", "period-doubling", ...); none for any other
// name.
std::optional<libcont::CurveKind> curve_kind_named(const std::string& name);

// The columns of `curve`'s files.
// The names of a curve's unknowns beyond the state and p2: "tangency_time" (grazing: the
// tangency's time after the section), "kappa" (Neimark-Sacker: cos theta of the pair).
std::vector<std::string> auxiliary_names(libcont::CurveKind kind);

CurveTable curve_table(const libcont::OrbitCurve& curve,
                       const std::vector<std::string>& state_names);

// index, <p1>, <p2>, impacts, slowest_impact, min_gap, <test names>..., mu1:abs ...
// (the multipliers' moduli by decreasing modulus; nan where a row has fewer),
// section_phase, <state>..., <auxiliary>... (inf: no impact, no gap minimum).
void write_curve_csv(const std::filesystem::path& file, const libcont::OrbitCurve& curve,
                     const CurveTable& table);

// label, type, after_row, <p1>, <p2>, error_estimate, detail, section_phase, <state>...
void write_curve_points_csv(const std::filesystem::path& file, const libcont::OrbitCurve& curve,
                            const CurveTable& table, const std::vector<std::string>& labels);

// Short labels numbered per type in curve order: CP1 (cusp), LPPD1 (fold-flip), GR1
// (grazing), TP1 (turning-point), R1_1 .. R4_1 (resonance-1:1 .. resonance-1:4), RGLP1
// (resonant-grazing-fold), RGPD1 (resonant-grazing-flip), SP1 (any other type).
std::vector<std::string> curve_point_labels(const std::vector<libcont::CurvePoint>& points);

// What a codimension-two point is, in words (one line, no commas): the detail column.
std::string curve_point_detail(const libcont::OrbitCurve& curve, const libcont::CurvePoint& point);

}  // namespace vicont
