#pragma once
// What a periodic orbit looks like, measured along one pass of it: the range of each
// displacement coordinate (semi-amplitude A_max = (x_max - x_min)/2), the
// impacts with their relative velocities (signature p), the smallest local minimum of
// the gap between impacts (whose approach to zero is grazing) and the times of
// all events (section_placement.hpp). Extrema come from the flow's monitors
// (FlowOptions::extremum_coordinates, gap_minima) and from the states just before and
// after events, so no sampling error enters.
#include <cstddef>
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
  // Of those, the impacts of chattering sequences that end in sticking, after each
  // sequence's first (its later impacts and the sticking itself): their number is where the
  // sticking criterion cuts an infinite sequence short, not a contact of the orbit.
  int chatter_impacts = 0;
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

// The orbit's contacts as a count that changes only where a contact appears or vanishes:
// its impacts with each chattering sequence that ends in sticking counted once. A change of
// it marks a nonsmooth point of a branch (the impact-signature test).
int contact_signature(const OrbitMeasures& measures);

// The slowest impact that can graze: of the impacts among the approaches (a chattering
// sequence that ends in sticking by its first impact only) and the soft contacts' entries.
// The later impacts of such a sequence are ever slower by the restitution law alone.
double slowest_grazing_impact(const OrbitMeasures& measures);

// Flow observer filling OrbitMeasures; include the starting state with start().
class OrbitMeasurer : public FlowObserver {
 public:
  OrbitMeasurer(const HybridSystem& system, std::vector<int> coordinates);
  void start(ConstVectorRef x);
  void on_event(const EventRecord& e) override;
  void on_extremum(int coordinate, double t, ConstVectorRef x, int mode) override;
  void on_gap_minimum(int event, double t, double gap, ConstVectorRef x, int mode) override;
  void on_sample(double t, ConstVectorRef x, int mode) override;
  // After the pass of a periodic orbit (its end joined to its start): a chattering
  // sequence that the pass's start cuts is counted as one. Call once, after the flow.
  void finish();
  const OrbitMeasures& measures() const { return measures_; }

 private:
  void include(ConstVectorRef x);
  // Drops the impacts after the first of the sequence since chatter_start_ from the
  // approaches; the first's index (the approaches' size if there is none).
  size_t drop_later_impacts();
  bool released() const {  // a StickEnd seen in this pass
    return release_time_ > -std::numeric_limits<double>::infinity();
  }
  const HybridSystem& system_;
  const ImpactMeasures& impact_;  // the model's, looked up once
  OrbitMeasures measures_;
  size_t chatter_start_ = 0;  // approaches before it belong to earlier impact sequences
  double release_time_ = -std::numeric_limits<double>::infinity();  // the last StickEnd
  bool stuck_ = false;             // the last of StickStart and StickEnd was a StickStart
  int open_impacts_ = 0;           // impacts since the last sticking or release
  bool head_sticks_ = false;       // the sequence that opens the pass ends in sticking
  std::ptrdiff_t head_landing_ = -1;  // that sequence's first impact among the approaches
};

}  // namespace libcont
