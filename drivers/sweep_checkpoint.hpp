#pragma once
// Checkpoint of a sweep (long sweeps can be resumed): every finished point is appended at
// once, as one record (sweep_point_text.hpp, ending with its "end" line), to the file of
// its process, DIR/rank-NNNN.points (NNNN the MPI rank; the threads of a process share
// it), in a single write. One file per process costs one file creation per process
// instead of a creation and a rename per point, and no two processes ever write the same
// file. A killed run's complete records are all kept; a torn last record (the process
// killed in the middle of its write) is recognised by its missing end line, ignored on
// --resume and its point computed again. DIR/sweep.manifest records the settings that
// determine the numbers (system, parameters, grid, start, periods); a resumed run must
// have the same ones, else its points would not belong together.
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "libcont/sweep.hpp"

namespace vicont {

class SweepCheckpoint {
 public:
  // `manifest`: the settings as text, compared line by line on resume. `grid`: the points
  // are the cells of a two-parameter sweep (their names and records say their row).
  SweepCheckpoint(std::filesystem::path directory, std::string manifest, bool grid);
  ~SweepCheckpoint();
  SweepCheckpoint(const SweepCheckpoint&) = delete;
  SweepCheckpoint& operator=(const SweepCheckpoint&) = delete;

  // A fresh run: removes the points of any earlier run and writes the manifest.
  void start_fresh() const;

  // --resume: the finished points of `sweep` found in the directory's files, whichever
  // process wrote them (a run may be resumed on another number of ranks or threads).
  // Throws InputError (naming the first differing line) when the manifest belongs to
  // other settings; a torn, unreadable or foreign record is skipped (its point is
  // computed again) with a note. No manifest at all: nothing to resume.
  std::vector<libcont::SweepPoint> load(const libcont::Sweep& sweep,
                                        std::vector<std::string>& notes);
  // Whether a manifest exists (an earlier run to resume).
  bool exists() const;

  // Opens the file of process `rank` for appending, first cutting off a torn last record
  // that an earlier, killed run of the same rank left (the records before it are kept),
  // as load() found it. Call after every process has loaded the checkpoint (--resume) or
  // after start_fresh().
  void open(int rank);

  // Appends one finished point (thread-safe; open() first).
  void save(const libcont::SweepPoint& point);

  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path manifest_path() const { return directory_ / "sweep.manifest"; }
  std::filesystem::path directory_;
  std::string manifest_;
  bool grid_ = false;
  std::filesystem::path file_;  // this process's, once open
  // The files load() found with a torn last record, with the length of their complete ones.
  std::map<std::filesystem::path, size_t> torn_files_;
  int descriptor_ = -1;
  std::mutex write_mutex_;
};

}  // namespace vicont
