#include "libcont/impact_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "libcont/impacting_structure.hpp"

namespace libcont {

ImpactRecorder::ImpactRecorder(const HybridSystem& system, FlowObserver* next)
    : impact_(impact_measures_or_zero(system)),
      structure_(dynamic_cast<const ImpactingStructure*>(&system)),
      next_(next) {}

void ImpactRecorder::on_event(const EventRecord& e) {
  switch (e.kind) {
    case EventKind::Impact:
    case EventKind::StickStart:
      // A hard impact (or the last one of a chattering sequence): energy after - before.
      ++stats_.impacts;
      stats_.impact_times.push_back(e.t);
      if (structure_) {
        const auto change =
            structure_->impact_change(e.mode_before, e.event, e.t, e.x_minus, e.x_plus, e.rate);
        stats_.impact_velocities.push_back(change.velocity);
        stats_.energy_change += change.energy_change;
        break;
      }
      stats_.impact_velocities.push_back(
          impact_.relative_velocity(e.mode_before, e.event, e.t, e.x_minus));
      stats_.energy_change +=
          impact_.kinetic_energy(e.t, e.x_plus) - impact_.kinetic_energy(e.t, e.x_minus);
      break;
    case EventKind::ContactStart:
      ++stats_.impacts;
      stats_.impact_times.push_back(e.t);
      stats_.impact_velocities.push_back(
          impact_.relative_velocity(e.mode_before, e.event, e.t, e.x_minus));
      contact_entry_energy_ = impact_.kinetic_energy(e.t, e.x_minus);
      in_contact_ = true;
      break;
    case EventKind::ContactEnd:
      // Soft contact: exit minus entry; a contact already open when recording started
      // has no entry value and is left out.
      if (in_contact_)
        stats_.energy_change += impact_.kinetic_energy(e.t, e.x_plus) - contact_entry_energy_;
      in_contact_ = false;
      break;
    default: break;
  }
  if (next_) next_->on_event(e);
}

VelocitySummary summarize_velocities(const std::vector<double>& velocities) {
  VelocitySummary s;
  s.count = static_cast<long>(velocities.size());
  if (velocities.empty()) return s;
  s.min = *std::min_element(velocities.begin(), velocities.end());
  s.max = *std::max_element(velocities.begin(), velocities.end());
  s.slowest = std::abs(velocities.front());
  for (double v : velocities) {
    s.mean += v;
    s.rms += v * v;
    s.slowest = std::min(s.slowest, std::abs(v));
  }
  s.mean /= static_cast<double>(s.count);
  s.rms = std::sqrt(s.rms / static_cast<double>(s.count));
  return s;
}

namespace {

// The motion's size: the largest |x| over the samples (tolerances are relative to it,
// since amplitudes may be tiny, mm).
template <typename Sample>
double size_of(int count, const Sample& sample) {
  double scale = 0.0;
  for (int i = 0; i < count; ++i) scale = std::max(scale, sample(i).cwiseAbs().maxCoeff());
  return std::max(scale, 1e-300);
}

// The largest |x_i - x_{i-n}| over the last samples, several repetitions of the candidate
// period n (it stops once above `stop_above`); infinity when there are too few samples.
template <typename Sample>
double residual_of(int count, const Sample& sample, int n, int max_period,
                   double stop_above = std::numeric_limits<double>::infinity()) {
  const int pairs = std::min(count - n, std::max(2 * n, max_period));
  if (pairs < n) return std::numeric_limits<double>::infinity();
  double largest = 0.0;
  for (int i = count - pairs; i < count && largest <= stop_above; ++i) {
    const double difference = (sample(i) - sample(i - n)).cwiseAbs().maxCoeff();
    if (!(difference <= largest)) largest = difference;  // a NaN too: no period
  }
  return largest;
}

// detect_period over `count` samples, sample(i) the i-th (a vector or a matrix column).
template <typename Sample>
int detect_period_of(int count, const Sample& sample, int max_period, double tolerance) {
  if (count < 2) return 0;
  const double allowed = tolerance * size_of(count, sample);
  for (int n = 1; n <= max_period; ++n) {
    const double residual = residual_of(count, sample, n, max_period, allowed);
    if (std::isinf(residual)) break;
    if (residual <= allowed) return n;
  }
  return 0;
}

}  // namespace

int detect_period(const std::vector<Vector>& samples, int max_period, double tolerance) {
  return detect_period_of(
      static_cast<int>(samples.size()),
      [&](int i) -> const Vector& { return samples[static_cast<size_t>(i)]; }, max_period,
      tolerance);
}

double periodicity_residual(const std::vector<Vector>& samples, int n, int max_period) {
  const auto count = static_cast<int>(samples.size());
  const auto sample = [&](int i) -> const Vector& { return samples[static_cast<size_t>(i)]; };
  if (count < 2 || n < 1) return std::numeric_limits<double>::infinity();
  return residual_of(count, sample, n, max_period) / size_of(count, sample);
}

int detect_period_in_columns(const Matrix& samples, int max_period, double tolerance) {
  return detect_period_of(
      static_cast<int>(samples.cols()), [&](int i) { return samples.col(i); }, max_period,
      tolerance);
}

}  // namespace libcont
