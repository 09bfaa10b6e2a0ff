#pragma once
// Impact statistics gathered from the events of a trajectory: impacts per forcing
// period (a_i), mean change of the body's kinetic energy at impacts per period (a_e:
// after minus before for hard impacts, exit minus entry for a soft contact) and the
// relative velocities at impact (v_r).
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/impact_measures.hpp"

namespace libcont {

class ImpactingStructure;

struct ImpactStatistics {
  long impacts = 0;
  double energy_change = 0.0;  // summed over all impacts / contacts
  std::vector<double> impact_times;
  std::vector<double> impact_velocities;  // relative normal velocity just before impact
  double mean_per_period(double value, double periods) const { return value / periods; }
};

// An observer that fills ImpactStatistics; chain it with another observer if needed.
class ImpactRecorder : public FlowObserver {
 public:
  explicit ImpactRecorder(const HybridSystem& system, FlowObserver* next = nullptr);
  void on_event(const EventRecord& event) override;
  void on_sample(double t, ConstVectorRef x, int mode) override {
    if (next_) next_->on_sample(t, x, mode);
  }
  const ImpactStatistics& statistics() const { return stats_; }
  void clear() { stats_ = {}; }

 private:
  const ImpactMeasures& impact_;  // the model's, looked up once
  // The model where it is a declared structure (its impacts' numbers in one direct call),
  // else null.
  const ImpactingStructure* structure_;
  FlowObserver* next_;
  ImpactStatistics stats_;
  double contact_entry_energy_ = 0.0;
  bool in_contact_ = false;
};

// The relative velocities at impact summed up: how many, their mean, root mean square,
// extremes, and the slowest impact (smallest |v_r|: near zero close to a grazing).
struct VelocitySummary {
  long count = 0;
  double mean = 0, rms = 0, min = 0, max = 0, slowest = 0;  // all 0 without impacts
};
VelocitySummary summarize_velocities(const std::vector<double>& velocities);

// Type z = p/n of a settled motion from its stroboscopic samples x_k = x(t0 + kT): the
// smallest n <= max_period with |x_{k+n} - x_k| <= tolerance * (1 + |x|) over the last
// samples; 0 when none fits (not periodic). p is counted by the caller from the impacts.
int detect_period(const std::vector<Vector>& poincare_samples, int max_period,
                  double tolerance);
// How nearly the samples repeat after n periods: the largest |x_{k+n} - x_k| that
// detect_period compares for n, relative to the motion's size (detect_period finds the
// smallest n where it is <= tolerance); infinity with too few samples.
double periodicity_residual(const std::vector<Vector>& poincare_samples, int n, int max_period);
// The same for samples held as the columns of a matrix (LyapunovResult::poincare_samples).
int detect_period_in_columns(const Matrix& poincare_samples, int max_period, double tolerance);

}  // namespace libcont
