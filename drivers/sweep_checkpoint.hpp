#pragma once
// Checkpoint of a sweep (long sweeps can be resumed): every finished point is
// written at once to its own file DIR/NAME.point (sweep_point_text.hpp), atomically, so a
// killed run leaves only complete points behind and several threads or MPI ranks never
// write the same file. DIR/sweep.manifest records the settings that determine the
// numbers (system, parameters, grid, start, periods); a resumed run must have the same
// ones, else its points would not belong together.
#include <filesystem>
#include <string>
#include <vector>

#include "libcont/sweep.hpp"

namespace vicont {

class SweepCheckpoint {
 public:
  // `manifest`: the settings as text, compared line by line on resume. `grid`: the points
  // are the cells of a two-parameter sweep (their names and records say their row).
  SweepCheckpoint(std::filesystem::path directory, std::string manifest, bool grid);

  // A fresh run: removes the points of any earlier run and writes the manifest.
  void start_fresh() const;

  // --resume: the finished points of `sweep` found in the directory. Throws InputError
  // (naming the first differing line) when the manifest belongs to other settings; an
  // unreadable or foreign point file is skipped (it is computed again) with a note.
  // No manifest at all: nothing to resume.
  std::vector<libcont::SweepPoint> load(const libcont::Sweep& sweep,
                                        std::vector<std::string>& notes) const;
  // Whether a manifest exists (an earlier run to resume).
  bool exists() const;

  // Writes one finished point (thread-safe: one file per point, renamed into place).
  void save(const libcont::SweepPoint& point) const;

  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path manifest_path() const { return directory_ / "sweep.manifest"; }
  std::filesystem::path directory_;
  std::string manifest_;
  bool grid_ = false;
};

}  // namespace vicont
