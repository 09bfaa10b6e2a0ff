#pragma once
// The data files of `vicont sweep` (each written atomically, numbers exact, output.hpp):
//   sweep.csv          one row per point: direction, initial_condition, index, PARAMETER,
//                      status, p, n, a_i, a_e, v_r statistics (count, mean, rms, min, max,
//                      slowest), lambda_1..lambda_d, exponent_sum, averaged_periods
//   sweep_samples.csv  one row per kept Poincare sample: direction, initial_condition,
//                      index, PARAMETER, k, <state names>
//   sweep_impacts.csv  one row per kept impact: direction, initial_condition, index,
//                      PARAMETER, k, v_r (relative velocity just before the impact)
// Rows follow the sweep's plan: passes, initial conditions, then the parameter in the
// direction of the pass. Missing exponents (a point that failed early) are nan.
// A grid's files (second_parameter named) say each point's cell: after `index` comes
// `index2` (the grid row), after PARAMETER comes SECOND_PARAMETER; the grid's rows follow
// each other in the plan, the second parameter upwards.
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "atomic_file.hpp"

#include "libcont/hybrid_system.hpp"
#include "libcont/sweep.hpp"

namespace vicont {

struct SweepFiles {
  std::string points = "sweep.csv";
  std::string samples = "sweep_samples.csv";
  std::string impacts = "sweep_impacts.csv";
};

// Column names of the exponents: lambda_1 .. lambda_d.
std::vector<std::string> exponent_columns(int dimension);

// The three files written while the points arrive, in any order: a point's rows go out as
// soon as every point before it in the files' order has come, so that a sweep's output is
// mostly written by the time its last point is done instead of all after it. Each file
// is staged under a temporary name and goes into place at finish() (atomic_file.hpp), so
// a reader, or a run killed halfway, never sees a partial file.
class SweepCsvWriter {
 public:
  // `rows`: how many points the files will hold; each comes with its position in them.
  SweepCsvWriter(const std::filesystem::path& directory, const SweepFiles& files,
                 const libcont::HybridSystem& system, const std::string& parameter,
                 size_t rows, const std::string& second_parameter = "");

  // The point at `position` (< rows, each once). Not thread-safe (a sweep calls it under
  // its report lock).
  void add(size_t position, const libcont::SweepPoint& point);

  // Writes the points still held back (after a position that never came: a sweep
  // stopped early), in order, and puts the files in place.
  void finish();

 private:
  void write_rows(const libcont::SweepPoint& point);

  int dimension_;
  std::string parameter_, second_parameter_;
  size_t rows_;
  size_t next_ = 0;                               // the first position not written yet
  std::map<size_t, libcont::SweepPoint> held_;  // arrived before their turn
  struct Staged {
    explicit Staged(const std::filesystem::path& target) : file(target) {}
    StagedFile file;
    std::ofstream out;
  };
  std::unique_ptr<Staged> points_, samples_, impacts_;
};

// All of `points` at once, in their order.
void write_sweep_csv_files(const std::filesystem::path& directory, const SweepFiles& files,
                           const libcont::HybridSystem& system, const std::string& parameter,
                           const std::vector<libcont::SweepPoint>& points,
                           const std::string& second_parameter = "");

}  // namespace vicont
