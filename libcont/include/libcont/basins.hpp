#pragma once
// Basins of attraction (doc/sweeps.md): a grid of initial conditions in two
// state coordinates (the others fixed), each cell integrated through a transient and
// labelled by the attractor it reaches. Periodic attractors are told apart by their type
// z = p/n and by the orbit's points on the Poincare section (the same orbit reached at
// another phase of its n-cycle is the same attractor); motion with no period up to
// max_period is labelled non-periodic.
//
// Cells are independent: they run on a thread pool (task_pool.hpp). Attractors are
// numbered afterwards, in cell order, so the labels do not depend on the thread count.
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/sweep.hpp"

namespace libcont {

struct BasinAxis {
  int coordinate = 0;  // index into the state
  double from = 0.0, to = 0.0;
  int steps = 2;       // grid values, both ends included
  double value(int i) const;
};

struct BasinOptions {
  BasinAxis x, y;
  Vector base_state;           // the other coordinates; empty: default_initial_state()
  double phase = 0.0;          // start time, the Poincare section t = phase (mod T)
  int transient_periods = 500; // forcing periods before the motion is classified
  int max_period = 16;         // largest n tried for z = p/n
  double period_tolerance = 1e-6;  // detect_period's, relative to the size of the motion
  // A motion that repeats within `nearly_periodic` of its size after the transient, but
  // not within period_tolerance, is still settling onto an orbit whose multipliers lie
  // near the unit circle (it converges like |mu|^k): it is integrated further, a
  // transient (at least 100 periods) at a time, while the samples come closer to
  // repeating, up to `settle_periods` periods more in all. 0: classified after the
  // transient, as it stands.
  double nearly_periodic = 1e-2;
  int settle_periods = 10000;
  // Two periodic motions of the same z are one attractor when every section point of
  // one lies within this distance of a point of the other, relative to the size of the
  // motion (max |x| over the points).
  double match_tolerance = 1e-5;
  int threads = 1;
  FlowOptions flow;
  // Called after each cell with the cells done and the cells in all; none by default.
  // Calls come from the worker threads one at a time (never two at once).
  std::function<void(int done, int total)> progress;
};

// A periodic attractor found on the grid.
struct BasinAttractor {
  int p = 0, n = 0;
  std::vector<Vector> points;  // its n section points, in the order of the motion
  int cells = 0;               // cells that reach it
};

struct BasinCell {
  int i = 0, j = 0;            // grid indices along x and y
  double x = 0.0, y = 0.0;     // the two initial coordinates
  // Index into BasinResult::attractors, or one of:
  static constexpr int non_periodic = -1;
  static constexpr int failed = -2;  // the integration failed (status says how)
  int attractor = non_periodic;
  int p = 0, n = 0;
  FlowStatus status = FlowStatus::Success;
  Vector final_state;          // on the section after the transient and the sampling
  int settled_after = 0;       // periods integrated past the transient to settle
  bool settling = false;       // still settling when the settle periods ran out
  // Steps retried on BDF (FlowReport::fallbacks) and the time of the first, NaN if none.
  long fallbacks = 0;
  double first_fallback_time = std::numeric_limits<double>::quiet_NaN();
};

struct BasinResult {
  std::vector<BasinCell> cells;  // row by row: j (y) outer, i (x) inner
  std::vector<BasinAttractor> attractors;
  int non_periodic = 0, failed = 0;
  // Of the non-periodic cells, those still settling (BasinCell::settling): more transient
  // periods would classify them.
  int settling = 0;
};

class Basins {
 public:
  // Validates (InputError naming the item): coordinates inside the state, steps >= 1,
  // a forced system (basins on the stroboscopic section need a period).
  Basins(SystemFactory factory, BasinOptions options);
  BasinResult compute() const;

 private:
  struct Outcome;  // a cell and the section points of its periodic motion
  Outcome compute_cell(int i, int j) const;
  bool same_attractor(const BasinAttractor& a, int p, int n,
                      const std::vector<Vector>& points) const;

  SystemFactory factory_;
  BasinOptions options_;
  Vector base_state_;
  mutable std::mutex factory_mutex_;
};

}  // namespace libcont
