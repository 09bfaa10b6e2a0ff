#pragma once
// What a periodic orbit looks like, measured along one pass of it: the range of each
// displacement coordinate (semi-amplitude A_max = (x_max - x_min)/2), the
// impacts with their relative velocities (signature p), the smallest local minimum of
// the gap between impacts (whose approach to zero is grazing) and the times of
// all events (section_placement.hpp). Extrema come from the flow's monitors
// (FlowOptions::extremum_coordinates, gap_minima) and from the states just before and
// after events, so no sampling error enters.
#include <limits>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/impact_measures.hpp"

namespace libcont {

// One approach of the orbit to a hard-impact surface (an event of kind Impact): a hard
// impact with its normal speed, or a local minimum of the gap in flight. Grazing is where
// one of them reaches zero (grazing.hpp).
struct ContactApproach {
  enum class Type { Impact, GapMinimum };
  Type type = Type::Impact;
  double t = 0.0;
  double value = 0.0;  // |v_r| of an impact, the gap at a minimum
  // The gap's second time derivative there (before an impact): the flight's curvature.
  double acceleration = 0.0;
};

struct OrbitMeasures {
  std::vector<int> coordinates;  // measured displacement coordinates
  Vector minimum, maximum;       // per measured coordinate
  int impacts = 0;               // hard impacts, chattering ends, soft-contact entries
  double slowest_impact = std::numeric_limits<double>::infinity();  // min |v_r| at impact
  double minimum_gap = std::numeric_limits<double>::infinity();     // min over gap minima
  // The smallest gap minimum before a soft contact's surface (a flight that turns back
  // short of it): where it reaches zero, a contact appears (a soft grazing).
  double contact_gap = std::numeric_limits<double>::infinity();
  // The slowest entry into a soft contact (|v_r| at its start): where it reaches zero, the
  // contact vanishes (a soft grazing, from the side with contact).
  double slowest_contact_entry = std::numeric_limits<double>::infinity();
  // Of every event and every gap minimum before a hard-impact surface, in order: where a
  // section may not go (where the gap closes, an impact appears).
  std::vector<double> event_times;
  std::vector<ContactApproach> approaches;  // to hard-impact surfaces, in order
  bool sticks = false;  // a chattering sequence ends in sticking somewhere on the path

  double semi_amplitude(size_t k) const { return 0.5 * (maximum[k] - minimum[k]); }
};

// Flow observer filling OrbitMeasures; include the starting state with start().
class OrbitMeasurer : public FlowObserver {
 public:
  OrbitMeasurer(const HybridSystem& system, std::vector<int> coordinates);
  void start(ConstVectorRef x);
  void on_event(const EventRecord& e) override;
  void on_extremum(int coordinate, double t, ConstVectorRef x, int mode) override;
  void on_gap_minimum(int event, double t, double gap, ConstVectorRef x, int mode) override;
  void on_sample(double t, ConstVectorRef x, int mode) override;
  const OrbitMeasures& measures() const { return measures_; }

 private:
  void include(ConstVectorRef x);
  const HybridSystem& system_;
  const ImpactMeasures& impact_;  // the model's, looked up once
  OrbitMeasures measures_;
  size_t chatter_start_ = 0;  // approaches before it belong to earlier impact sequences
  double release_time_ = -std::numeric_limits<double>::infinity();  // the last StickEnd
};

}  // namespace libcont
