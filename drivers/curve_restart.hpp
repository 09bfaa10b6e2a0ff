#pragma once
// `vicont curve --restart CURVE_DIR:LABEL --kind KIND`: a saved curve of `vicont curve` read
// back, to switch at one of its codimension-two points onto a curve of another kind
// (libcont::switch_orbit_curve). CURVE_DIR/curve.json gives the system, its parameters, the
// curve's kind, p1, p2, n, the range of p1 and the rows; LABEL picks a point of
// CURVE_DIR/curve_points.csv (GR1, LPPD1, RGPD1, ...: curve_output.hpp) with its state on
// its section. CURVE_DIR may also be given as the path of its curve_points.csv.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "libcont/orbit_curve.hpp"

namespace vicont {

struct SavedCurve {
  std::filesystem::path directory;  // CURVE_DIR
  std::string label;                // LABEL, upper-cased
  std::string system;               // catalogue name
  std::string model;                // the model file of a run of one (else empty)
  std::vector<std::pair<std::string, std::string>> parameters;  // name, value as text
  double first_min = 0.0, first_max = 0.0;  // the range of p1 the curve was traced in
  // kind, first, second, period, test_names and the rows (multipliers not saved: empty).
  libcont::OrbitCurve curve;
  libcont::CurvePoint point;  // LABEL's (without its multipliers and auxiliary unknowns)
};

// Whether the restart's RUN_DIR (before the last ':') is a saved curve: a directory with a
// curve.json and no continue.json, or a file (a curve's points file). A directory with
// continue.json is a run of vicont continue, as before.
bool is_curve_restart(const std::string& restart);

// Reads the curve and the point LABEL. Throws libcont::InputError naming what is missing or
// malformed, and for a label that does not exist (listing those that do).
SavedCurve read_saved_curve(const std::string& restart);

}  // namespace vicont
