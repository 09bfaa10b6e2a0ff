#pragma once
// `vicont continue --restart RUN_DIR:LABEL`: a saved run read back. RUN_DIR/continue.json
// gives the system, its parameters and the continued parameter; LABEL picks one point of
// the run, a special point by its label (PD1, GR2, ...: special_points.csv) or a row of
// branch.csv by its index, with what a restart needs (branch_output.hpp): the state on its
// section, the parameter value, the section phase, n and the unit tangent.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcont/pseudo_arclength.hpp"

namespace vicont {

struct SavedRun {
  std::filesystem::path directory;  // RUN_DIR
  std::string label;                // LABEL (a special point's upper-cased)
  std::string system;               // catalogue name
  std::string model;                // the model file of a run of one (else empty)
  std::vector<std::pair<std::string, std::string>> parameters;  // name, value as text
  std::string parameter;            // the continued one
  std::optional<double> from, to;   // its range in the run (none in a file without them)
};

struct SavedPoint {
  std::string label;  // "PD1", or the row's index
  std::optional<libcont::SpecialPointType> type;  // a special point's; none for a row
  std::string kind;   // a special point's kind (SpecialPoint::detail)
  int row = 0;        // its row in branch.csv (a special point: after_point, the row before it)
  int n = 1;
  // u, lambda, chart (the section phase) and tangent (u components, then the parameter's;
  // a special point's is its after_point row's). The tangent is empty when the file has
  // no tangent columns.
  libcont::BranchPoint point;
};

// Splits RUN_DIR:LABEL (at the last ':') and reads RUN_DIR/continue.json. Throws
// libcont::InputError naming what is missing or malformed.
SavedRun read_saved_run(const std::string& restart);

// How a grazing point (GRk) is read: as the branch row before it, where a branch can
// start (the map is not differentiable at the grazing itself), or as saved, the grazing
// orbit itself (the start of a curve of grazings, vicont curve).
enum class GrazingStart { RowBefore, AsSaved };

// The point LABEL of the run, its state in the columns `state_names`. Throws
// libcont::InputError for a label or row that does not exist (listing the labels that
// do, or the rows' range) and for a malformed file.
SavedPoint read_saved_point(const SavedRun& run, const std::vector<std::string>& state_names,
                            GrazingStart grazing = GrazingStart::RowBefore);

// Copies the run's branch.csv and special_points.csv into `directory` (created), so that
// a branch switched from it is drawn with its parent.
void copy_saved_branch(const SavedRun& run, const std::filesystem::path& directory);

}  // namespace vicont
