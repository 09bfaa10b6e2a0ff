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
#include <string>
#include <vector>

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

void write_sweep_csv_files(const std::filesystem::path& directory, const SweepFiles& files,
                           const libcont::HybridSystem& system, const std::string& parameter,
                           const std::vector<libcont::SweepPoint>& points,
                           const std::string& second_parameter = "");

}  // namespace vicont
