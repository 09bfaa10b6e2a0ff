#include "libcont/orbit_measures.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/grazing.hpp"

namespace libcont {

OrbitMeasurer::OrbitMeasurer(const HybridSystem& system, std::vector<int> coordinates)
    : system_(system), impact_(impact_measures_or_zero(system)) {
  measures_.coordinates = std::move(coordinates);
  const auto k = static_cast<Eigen::Index>(measures_.coordinates.size());
  measures_.minimum = Vector::Constant(k, std::numeric_limits<double>::infinity());
  measures_.maximum = Vector::Constant(k, -std::numeric_limits<double>::infinity());
}

void OrbitMeasurer::include(ConstVectorRef x) {
  for (size_t k = 0; k < measures_.coordinates.size(); ++k) {
    const double v = x[measures_.coordinates[k]];
    const auto i = static_cast<Eigen::Index>(k);
    measures_.minimum[i] = std::min(measures_.minimum[i], v);
    measures_.maximum[i] = std::max(measures_.maximum[i], v);
  }
}

void OrbitMeasurer::start(ConstVectorRef x) { include(x); }

size_t OrbitMeasurer::drop_later_impacts() {
  auto& a = measures_.approaches;
  size_t first = chatter_start_;
  while (first < a.size() && a[first].type != ContactApproach::Type::Impact) ++first;
  for (size_t i = a.size(); i > first + 1; --i)
    if (a[i - 1].type == ContactApproach::Type::Impact)
      a.erase(a.begin() + static_cast<std::ptrdiff_t>(i - 1));
  return first;
}

void OrbitMeasurer::on_event(const EventRecord& e) {
  include(e.x_minus);
  include(e.x_plus);
  measures_.event_times.push_back(e.t);
  if (e.kind == EventKind::Impact || e.kind == EventKind::StickStart ||
      e.kind == EventKind::ContactStart) {
    ++measures_.impacts;
    const double speed = std::abs(impact_.relative_velocity(e.mode_before, e.event, e.t, e.x_minus));
    measures_.slowest_impact = std::min(measures_.slowest_impact, speed);
    if (e.kind == EventKind::ContactStart)
      measures_.slowest_contact_entry = std::min(measures_.slowest_contact_entry, speed);
    if (e.kind == EventKind::Impact)
      measures_.approaches.push_back(
          {ContactApproach::Type::Impact, e.t, speed,
           gap_acceleration(system_, e.mode_before, e.event, e.t, e.x_minus)});
  }
  if (e.kind == EventKind::Impact) ++open_impacts_;
  if (e.kind == EventKind::StickEnd) {
    chatter_start_ = measures_.approaches.size();
    release_time_ = e.t;
    stuck_ = false;
    open_impacts_ = 0;
  }
  if (e.kind == EventKind::StickStart) {
    measures_.sticks = true;
    // A chattering sequence ended in sticking: its later impacts are ever slower by the
    // restitution law, not approaches to grazing. Its first impact stays one.
    // Its later impacts and the sticking after a first impact are chatter (none without
    // a first impact).
    const auto& a = measures_.approaches;
    const size_t first = drop_later_impacts();
    measures_.chatter_impacts += open_impacts_;
    if (!released() && !head_sticks_) {
      head_sticks_ = true;
      head_landing_ = first < a.size() ? static_cast<std::ptrdiff_t>(first) : -1;
    }
    chatter_start_ = a.size();
    open_impacts_ = 0;
    stuck_ = true;
  }
}

void OrbitMeasurer::finish() {
  // A periodic orbit's pass ends where it starts: impacts still open at its end (after its
  // last release) go on into the sequence that opens the pass. Where that one ends in
  // sticking, both are one chattering sequence, whose first impact is the end's first: the
  // end's later impacts and the opening's first impact (or its sticking) are chatter.
  if (!head_sticks_ || !released()) return;
  if (stuck_ && head_landing_ < 0) {
    // The pass ends stuck, so it starts stuck; the shooting's state lies on the surface
    // only to rounding, and the flow starts stuck only exactly on it. Whether it starts
    // in flight and sticks again at once depends on that rounding: no contact.
    --measures_.impacts;
    return;
  }
  if (open_impacts_ == 0) return;
  drop_later_impacts();
  if (head_landing_ >= 0) measures_.approaches.erase(measures_.approaches.begin() + head_landing_);
  measures_.chatter_impacts += open_impacts_;
}

int contact_signature(const OrbitMeasures& measures) {
  return measures.impacts - measures.chatter_impacts;
}

double slowest_grazing_impact(const OrbitMeasures& measures) {
  double slowest = measures.slowest_contact_entry;
  for (const ContactApproach& a : measures.approaches)
    if (a.type == ContactApproach::Type::Impact) slowest = std::min(slowest, a.value);
  return slowest;
}

void OrbitMeasurer::on_extremum(int, double, ConstVectorRef x, int) { include(x); }

void OrbitMeasurer::on_gap_minimum(int event, double t, double gap, ConstVectorRef x, int mode) {
  include(x);
  measures_.minimum_gap = std::min(measures_.minimum_gap, gap);
  const EventKind kind = system_.event_spec(mode, event).kind;
  if (kind == EventKind::ContactStart) measures_.contact_gap = std::min(measures_.contact_gap, gap);
  if (kind != EventKind::Impact) return;
  // A body released from sticking leaves the surface with zero gap and speed: not a flight
  // that comes close to it.
  if (std::abs(t - release_time_) <= 1e-9 * (1.0 + std::abs(t))) return;
  // Where a hard impact appears as the gap closes: no place for a section either.
  measures_.event_times.push_back(t);
  measures_.approaches.push_back(
      {ContactApproach::Type::GapMinimum, t, gap, gap_acceleration(system_, mode, event, t, x)});
}

void OrbitMeasurer::on_sample(double, ConstVectorRef x, int) { include(x); }

}  // namespace libcont
