#include "libcont/basins.hpp"

#include <algorithm>

#include "libcont/impact_statistics.hpp"
#include "libcont/task_pool.hpp"

namespace libcont {

struct Basins::Outcome {
  BasinCell cell;
  std::vector<Vector> orbit;  // n section points of a periodic motion, else empty
};

double BasinAxis::value(int i) const {
  if (steps == 1) return from;
  if (i == steps - 1) return to;  // both ends exactly
  return from + (to - from) * i / (steps - 1);
}

Basins::Basins(SystemFactory factory, BasinOptions options)
    : factory_(std::move(factory)), options_(std::move(options)) {
  if (!factory_) throw InputError("basins: no system factory given");
  const auto system = factory_();
  if (!system) throw InputError("basins: the system factory made no system");
  if (!(system->forcing_period() > 0.0))
    throw InputError("basins: system '" + system->name() +
                     "' is autonomous; basins on the stroboscopic section need a forcing period");
  const int dimension = system->dimension();
  const auto names = system->state_names();
  for (const auto* axis : {&options_.x, &options_.y}) {
    const std::string which = axis == &options_.x ? "x" : "y";
    if (axis->coordinate < 0 || axis->coordinate >= dimension)
      throw InputError("basins: " + which + " axis coordinate " + std::to_string(axis->coordinate) +
                       " is not a state coordinate");
    if (axis->steps < 1)
      throw InputError("basins: " + which + " axis steps must be >= 1 (got " +
                       std::to_string(axis->steps) + ")");
  }
  if (options_.x.coordinate == options_.y.coordinate)
    throw InputError("basins: both axes are coordinate '" +
                     names[static_cast<size_t>(options_.x.coordinate)] + "'");
  if (options_.transient_periods < 0) throw InputError("basins: transient periods must be >= 0");
  if (options_.max_period < 1) throw InputError("basins: max period must be >= 1");
  if (options_.settle_periods < 0) throw InputError("basins: settle periods must be >= 0");
  if (!(options_.nearly_periodic >= 0.0))
    throw InputError("basins: nearly_periodic must be >= 0");
  if (options_.threads < 1) throw InputError("basins: threads must be >= 1");
  base_state_ = options_.base_state.size() ? options_.base_state : system->default_initial_state();
  if (base_state_.size() != dimension)
    throw InputError("basins: the base state has " + std::to_string(base_state_.size()) +
                     " components; the system has " + std::to_string(dimension));
}

Basins::Outcome Basins::compute_cell(int i, int j) const {
  std::unique_ptr<HybridSystem> system;
  {
    std::lock_guard lock(factory_mutex_);
    system = factory_();
  }
  Outcome out;
  BasinCell& cell = out.cell;
  cell.i = i;
  cell.j = j;
  cell.x = options_.x.value(i);
  cell.y = options_.y.value(j);
  Vector x0 = base_state_;
  x0[options_.x.coordinate] = cell.x;
  x0[options_.y.coordinate] = cell.y;

  FlowOptions plain = options_.flow;
  plain.tangent = false;
  Flow flow(*system, plain);
  const double period = system->forcing_period();
  FlowState state = flow.initial_state(options_.phase, x0);
  FlowReport report = flow.advance(state, options_.phase + options_.transient_periods * period);
  FlowReport work = report;  // the whole cell's, for its fallbacks
  // Enough section samples for detect_period to tell n = max_period from 2 n (p is read
  // from the impacts of the last window's last n periods).
  std::vector<Vector> samples;
  ImpactRecorder impacts(*system);
  const auto sample = [&] {
    samples.assign(1, state.x);
    for (int k = 0; k < 3 * options_.max_period && report.ok(); ++k) {
      report = flow.advance(state, state.t + period, &impacts);
      work.add_work(report);
      samples.push_back(state.x);
    }
  };
  sample();
  int n = detect_period(samples, options_.max_period, options_.period_tolerance);
  // Settling: the samples nearly repeat after fewer periods than found (none found yet,
  // or a proper divisor of n: a multiplier near -1 makes a z = p/m orbit repeat after 2m
  // sooner than after m while it converges). Integrated further while they come nearer.
  const auto nearest_shorter = [&](int found, const std::vector<Vector>& of) {
    double nearest = std::numeric_limits<double>::infinity();
    for (int m = 1; m <= (found == 0 ? options_.max_period : found - 1); ++m)
      if (found == 0 || found % m == 0)
        nearest = std::min(nearest, periodicity_residual(of, m, options_.max_period));
    return nearest;
  };
  const int window = std::max(options_.transient_periods, 100);
  std::vector<Vector> previous;
  while (report.ok() && nearest_shorter(n, samples) <= options_.nearly_periodic) {
    if (cell.settled_after + window > options_.settle_periods) {
      cell.settling = n == 0;
      break;
    }
    const int unsampled = std::max(window - 3 * options_.max_period, 0);
    report = flow.advance(state, state.t + unsampled * period);
    work.add_work(report);
    cell.settled_after += unsampled + 3 * options_.max_period;
    previous = samples;
    sample();
    n = detect_period(samples, options_.max_period, options_.period_tolerance);
    // Not coming nearer to a shorter period than the one now found: not settling (a
    // torus), or settled on n.
    if (!(nearest_shorter(n, samples) < 0.7 * nearest_shorter(n, previous))) break;
  }
  cell.status = report.status;
  cell.fallbacks = work.fallbacks;
  cell.first_fallback_time = work.first_fallback_time;
  cell.final_state = state.x;
  if (!report.ok() || report.status == FlowStatus::TerminalEvent) {
    cell.attractor = BasinCell::failed;
    return out;
  }
  cell.n = n;
  if (cell.n == 0) return out;
  const double window_start = state.t - cell.n * period;
  const auto& times = impacts.statistics().impact_times;
  cell.p = static_cast<int>(
      std::count_if(times.begin(), times.end(), [&](double t) { return t > window_start; }));
  out.orbit.assign(samples.end() - cell.n, samples.end());
  return out;
}

bool Basins::same_attractor(const BasinAttractor& a, int p, int n,
                            const std::vector<Vector>& points) const {
  if (a.p != p || a.n != n) return false;
  double scale = 1e-300;
  for (const auto& point : a.points) scale = std::max(scale, point.cwiseAbs().maxCoeff());
  for (const auto& point : points) {
    double nearest = 1e300;
    for (const auto& q : a.points) nearest = std::min(nearest, (point - q).cwiseAbs().maxCoeff());
    if (nearest > options_.match_tolerance * scale) return false;
  }
  return true;
}

BasinResult Basins::compute() const {
  const int columns = options_.x.steps, rows = options_.y.steps;
  std::vector<Outcome> outcomes(static_cast<size_t>(columns) * static_cast<size_t>(rows));
  const int total = static_cast<int>(outcomes.size());
  std::mutex progress_mutex;
  int done = 0;
  run_tasks(total, options_.threads, [&](int k) {
    outcomes[static_cast<size_t>(k)] = compute_cell(k % columns, k / columns);
    if (!options_.progress) return;
    std::lock_guard lock(progress_mutex);
    options_.progress(++done, total);
  });

  // Numbering in cell order, serially: the same labels whatever the thread count.
  BasinResult result;
  for (auto& outcome : outcomes) {
    BasinCell& cell = outcome.cell;
    if (cell.attractor == BasinCell::failed) {
      ++result.failed;
    } else if (cell.n == 0) {
      cell.attractor = BasinCell::non_periodic;
      ++result.non_periodic;
      result.settling += cell.settling ? 1 : 0;
    } else {
      const auto known = std::find_if(result.attractors.begin(), result.attractors.end(),
                                       [&](const BasinAttractor& a) {
                                         return same_attractor(a, cell.p, cell.n, outcome.orbit);
                                       });
      if (known == result.attractors.end()) {
        result.attractors.push_back({cell.p, cell.n, outcome.orbit, 0});
        cell.attractor = static_cast<int>(result.attractors.size()) - 1;
      } else {
        cell.attractor = static_cast<int>(known - result.attractors.begin());
      }
      ++result.attractors[static_cast<size_t>(cell.attractor)].cells;
    }
    result.cells.push_back(std::move(cell));
  }
  return result;
}

}  // namespace libcont
