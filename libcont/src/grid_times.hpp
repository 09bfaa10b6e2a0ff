#pragma once
// The times of a sample grid (flow.hpp's SampleGrid: origin + k step) within an interval,
// as every path of Flow emits them: computed from k, not accumulated, so that each path
// gives the same times.
#include <cmath>

#include "libcont/flow.hpp"

namespace libcont::detail {

// sample(ts) for the grid's times ts in (t_from, t_to], in order, while it returns true.
template <typename Sample>
void for_each_grid_time(const SampleGrid& grid, double t_from, double t_to, Sample&& sample) {
  double k = std::floor((t_from - grid.origin) / grid.step) + 1.0;
  for (double ts = grid.origin + k * grid.step; ts <= t_to;
       k += 1.0, ts = grid.origin + k * grid.step) {
    if (ts <= t_from) continue;
    if (!sample(ts)) return;
  }
}

}  // namespace libcont::detail
