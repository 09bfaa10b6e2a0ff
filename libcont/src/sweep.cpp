#include "libcont/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>

#include "libcont/input_error.hpp"
#include "libcont/task_pool.hpp"

namespace libcont {

namespace {

// The last `count` entries of a sequence (all of them if it is shorter).
template <class T>
std::vector<T> last_entries(const std::vector<T>& all, int count) {
  const size_t keep = std::min(all.size(), static_cast<size_t>(std::max(count, 0)));
  return std::vector<T>(all.end() - static_cast<std::ptrdiff_t>(keep), all.end());
}

// The last `count` columns of a matrix (all of them if it has fewer), as vectors.
std::vector<Vector> last_columns(const Matrix& all, int count) {
  const Eigen::Index keep = std::min<Eigen::Index>(all.cols(), std::max(count, 0));
  std::vector<Vector> kept;
  kept.reserve(static_cast<size_t>(keep));
  for (Eigen::Index j = all.cols() - keep; j < all.cols(); ++j) kept.emplace_back(all.col(j));
  return kept;
}

using KeyTuple = std::tuple<int, int, int, int>;
KeyTuple as_tuple(const SweepPointKey& key) {
  return {static_cast<int>(key.pass), key.initial_condition, key.index, key.second_index};
}

// Value `index` of `steps` evenly spaced from the lower to the higher of `from` and `to`,
// written so that both ends come out exactly, whatever the rounding in between.
double grid_value(double from, double to, int steps, int index) {
  const double low = std::min(from, to);
  const double high = std::max(from, to);
  if (steps == 1) return from;
  if (index == steps - 1) return high;
  return low + (high - low) * index / (steps - 1);
}

}  // namespace

std::string to_string(SweepPass pass) {
  switch (pass) {
    case SweepPass::Up: return "up";
    case SweepPass::Down: return "down";
    case SweepPass::Fixed: return "fixed";
  }
  return "unknown";
}

std::string to_string(SweepStatus status) {
  switch (status) {
    case SweepStatus::Complete: return "complete";
    case SweepStatus::PointsFailed: return "points failed";
    case SweepStatus::Stopped: return "stopped";
  }
  return "unknown";
}

std::string to_string(SweepRegime regime) {
  switch (regime) {
    case SweepRegime::Periodic: return "periodic";
    case SweepRegime::Chaotic: return "chaotic";
    case SweepRegime::NonPeriodic: return "non-periodic";
    case SweepRegime::Failed: return "failed";
  }
  return "unknown";
}

SweepRegime SweepPoint::regime() const {
  if (!ok()) return SweepRegime::Failed;
  if (n > 0) return SweepRegime::Periodic;
  return chaotic() ? SweepRegime::Chaotic : SweepRegime::NonPeriodic;
}

double SweepPoint::largest_exponent() const {
  return exponents.size() > 0 ? exponents[0] : std::numeric_limits<double>::quiet_NaN();
}

bool SweepPoint::chaos_within_error() const {
  return chaotic() && exponent_errors.size() > 0 && exponents[0] <= 3.0 * exponent_errors[0];
}

int SweepResult::failed() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(), [](const SweepPoint& p) { return !p.ok(); }));
}

void judge_sweep(SweepResult& result, size_t planned, const std::string& parameter,
                 const std::string& second_parameter) {
  result.complete = result.points.size() == planned;
  const auto first_failure = std::find_if(result.points.begin(), result.points.end(),
                                          [](const SweepPoint& p) { return !p.ok(); });
  // A failed point is the one to look at first: a missing one only needs the run resumed.
  if (first_failure != result.points.end()) {
    result.status = SweepStatus::PointsFailed;
    result.message = std::to_string(result.failed()) + " of " +
                     std::to_string(result.points.size()) + " points failed (first at " +
                     parameter + " = " + number_text(first_failure->parameter) +
                     (second_parameter.empty()
                          ? std::string()
                          : ", " + second_parameter + " = " +
                                number_text(first_failure->second_parameter)) +
                     ": " +
                     to_string(first_failure->status) +
                     (first_failure->message.empty() ? "" : ", " + first_failure->message) + ")";
  } else if (!result.complete) {
    result.status = SweepStatus::Stopped;
    result.message = "the sweep stopped before all points were computed";
  } else {
    result.status = SweepStatus::Complete;
    result.message.clear();
  }
}

Sweep::Sweep(SystemFactory factory, SweepOptions options)
    : factory_(std::move(factory)), options_(std::move(options)) {
  if (!factory_) throw InputError("sweep: no system factory given");
  if (options_.parameter.empty()) throw InputError("sweep: the swept parameter is not named");
  if (options_.steps < 1)
    throw InputError("sweep: steps must be >= 1 (got " + std::to_string(options_.steps) + ")");
  if (options_.threads < 1)
    throw InputError("sweep: threads must be >= 1 (got " + std::to_string(options_.threads) + ")");
  if (options_.kept_samples < 0) throw InputError("sweep: kept samples must be >= 0");
  if (options_.partition_size < 1 || options_.partition_rank < 0 ||
      options_.partition_rank >= options_.partition_size)
    throw InputError("sweep: partition rank " + std::to_string(options_.partition_rank) +
                     " of " + std::to_string(options_.partition_size) + " is not valid");
  const auto system = factory_();
  if (!system) throw InputError("sweep: the system factory made no system");
  // ParameterSet's messages name the parameter and the rule a value breaks; the grid lies
  // between the two ends, and every parameter rule is an interval.
  system->set_parameter(options_.parameter, options_.from);
  system->set_parameter(options_.parameter, options_.to);
  if (options_.grid()) {
    if (options_.second_parameter == options_.parameter)
      throw InputError("sweep: the second parameter is the swept parameter itself (" +
                       options_.parameter + "); a grid needs two different parameters");
    if (options_.second_steps < 1)
      throw InputError("sweep: second_steps must be >= 1 (got " +
                       std::to_string(options_.second_steps) + ")");
    system->set_parameter(options_.second_parameter, options_.second_from);
    system->set_parameter(options_.second_parameter, options_.second_to);
  }
  LyapunovSpectrum(*system, options_.lyapunov);  // validates the period counts
  dimension_ = system->dimension();
  default_state_ = system->default_initial_state();
  for (size_t i = 0; i < options_.initial_states.size(); ++i)
    if (options_.initial_states[i].size() != dimension_)
      throw InputError("sweep: initial state " + std::to_string(i + 1) + " has " +
                       std::to_string(options_.initial_states[i].size()) +
                       " components; the system has " + std::to_string(dimension_));
}

double Sweep::parameter_value(int index) const {
  return grid_value(options_.from, options_.to, options_.steps, index);
}

double Sweep::second_parameter_value(int second_index) const {
  if (!options_.grid()) return 0.0;
  return grid_value(options_.second_from, options_.second_to, options_.second_steps,
                    second_index);
}

Vector Sweep::initial_state(int initial_condition) const {
  return options_.initial_states.empty()
             ? default_state_
             : options_.initial_states[static_cast<size_t>(initial_condition)];
}

std::vector<SweepPass> Sweep::passes() const {
  if (!options_.follow_attractor) return {SweepPass::Fixed};
  switch (options_.direction) {
    case SweepDirection::Up: return {SweepPass::Up};
    case SweepDirection::Down: return {SweepPass::Down};
    case SweepDirection::Both: return {SweepPass::Up, SweepPass::Down};
  }
  return {};
}

std::vector<std::vector<SweepPointKey>> Sweep::tasks() const {
  const int starts = std::max<int>(1, static_cast<int>(options_.initial_states.size()));
  const int rows = options_.grid() ? options_.second_steps : 1;
  std::vector<std::vector<SweepPointKey>> result;
  for (SweepPass pass : passes()) {
    for (int ic = 0; ic < starts; ++ic) {
      for (int row = 0; row < rows; ++row) {
        std::vector<SweepPointKey> chain;
        for (int k = 0; k < options_.steps; ++k) {
          const int index = pass == SweepPass::Down ? options_.steps - 1 - k : k;
          chain.push_back({pass, ic, index, row});
        }
        if (pass == SweepPass::Fixed) {
          for (const auto& key : chain) result.push_back({key});  // every point on its own
        } else {
          // Sequential: each point starts where the last ended. Rows are independent, so a
          // grid's rows run in parallel.
          result.push_back(std::move(chain));
        }
      }
    }
  }
  return result;
}

std::vector<std::vector<SweepPointKey>> Sweep::partition_tasks() const {
  auto all = tasks();
  std::vector<std::vector<SweepPointKey>> own;
  for (size_t t = 0; t < all.size(); ++t)
    if (t % static_cast<size_t>(options_.partition_size) ==
        static_cast<size_t>(options_.partition_rank))
      own.push_back(std::move(all[t]));
  return own;
}

std::vector<SweepPointKey> Sweep::plan() const {
  std::vector<SweepPointKey> keys;
  for (const auto& task : tasks()) keys.insert(keys.end(), task.begin(), task.end());
  return keys;
}

SweepPoint Sweep::compute_point(const SweepPointKey& key, ConstVectorRef start) const {
  std::unique_ptr<HybridSystem> system;
  {
    std::lock_guard lock(factory_mutex_);
    system = factory_();
  }
  SweepPoint point;
  point.key = key;
  point.parameter = parameter_value(key.index);
  system->set_parameter(options_.parameter, point.parameter);
  if (options_.grid()) {
    point.second_parameter = second_parameter_value(key.second_index);
    system->set_parameter(options_.second_parameter, point.second_parameter);
  }
  const LyapunovResult r =
      LyapunovSpectrum(*system, options_.lyapunov).compute(options_.phase, start);
  point.status = r.report.status;
  point.message = r.report.message;
  point.exponents = r.exponents;
  point.exponent_sum = r.exponent_sum;
  point.exponent_errors = r.exponent_errors;
  point.exponent_sum_error = r.exponent_sum_error;
  point.p = r.p;
  point.n = r.n;
  point.impacts_per_period = r.impacts_per_period;
  point.energy_per_period = r.energy_per_period;
  point.velocities = summarize_velocities(r.impacts.impact_velocities);
  point.averaged_periods = static_cast<int>(r.poincare_samples.cols());
  point.samples = last_columns(r.poincare_samples, options_.kept_samples);
  point.impact_velocities = last_entries(r.impacts.impact_velocities, options_.kept_samples);
  point.final_state = r.final_state.x;
  point.fallbacks = r.report.fallbacks;
  point.first_fallback_time = r.report.first_fallback_time;
  return point;
}

SweepResult Sweep::run(const std::vector<SweepPoint>& finished,
                       const PointCallback& on_point) const {
  std::map<KeyTuple, const SweepPoint*> known;
  for (const auto& point : finished) known[as_tuple(point.key)] = &point;

  const auto own = partition_tasks();

  std::vector<std::vector<SweepPoint>> done(own.size());
  std::atomic<bool> stop{false};
  std::atomic<int> computed{0}, reused{0};
  std::mutex report_mutex;
  run_tasks(
      static_cast<int>(own.size()), options_.threads,
      [&](int i) {
        const auto& chain = own[static_cast<size_t>(i)];
        const Vector initial = initial_state(chain.front().initial_condition);
        Vector start = initial;
        for (const auto& key : chain) {
          SweepPoint point;
          if (const auto it = known.find(as_tuple(key)); it != known.end()) {
            point = *it->second;
            ++reused;
          } else {
            if (stop.load()) break;
            point = compute_point(key, start);
            ++computed;
            std::lock_guard lock(report_mutex);
            if (on_point && !on_point(point)) stop = true;
          }
          // After a failure the chain starts afresh: a failed point's last state is no
          // attractor to follow.
          if (options_.follow_attractor)
            start = point.ok() && point.final_state.size() == dimension_ ? point.final_state
                                                                         : initial;
          done[static_cast<size_t>(i)].push_back(std::move(point));
        }
      },
      [&] { return stop.load(); });

  SweepResult result;
  size_t planned = 0;
  for (size_t i = 0; i < own.size(); ++i) {
    planned += own[i].size();
    for (auto& point : done[i]) result.points.push_back(std::move(point));
  }
  result.computed = computed.load();
  result.reused = reused.load();
  judge_sweep(result, planned, options_.parameter, options_.second_parameter);
  return result;
}

}  // namespace libcont
