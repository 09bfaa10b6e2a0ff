#pragma once
// Where to put the stroboscopic section t = t0 (mod T) of a periodic orbit: away from its
// events. With an event on or near the section, P^n is nonsmooth right at the fixed
// point: as the event's time passes the section, the fixed point jumps by the event's
// jump (an impact's velocity reversal), or, for a soft contact, swings through the whole
// contact within a tiny change of parameter. Shooting and continuation stall or crawl
// there; on a section in the middle of the longest event-free stretch they do not.
#include <vector>

#include "libcont/flow.hpp"

namespace libcont {

struct SectionPlacement {
  double phase = 0.0;      // t0 in [0, T)
  double clearance = 0.0;  // time from the section to the nearest event, cyclically mod T
};

// Time from the section t = phase (mod period) to the nearest event time (mod period);
// half the period when there are no events.
double section_clearance(const std::vector<double>& event_times, double phase, double period);

// The quietest section: the middle of the longest event-free stretch of the event times
// taken mod period (half a period away from t = 0 when there are no events).
SectionPlacement quietest_section(const std::vector<double>& event_times, double period);

// Time from t = from forward to the next t = to (mod period), in [0, period).
double forward_shift(double from, double to, double period);

// A quiet section for the z = p/n orbit through x, a point on the section t = old_phase
// (mod T) of the system as it is now (its parameters set), and the orbit's point on it:
// the middle of the largest event-free stretch of the orbit's event times mod T
// (quietest_section), unless the old section is at least half as clear (then kept, x
// unchanged).
struct QuietSection {
  bool ok = false;  // false: the orbit could not be integrated (x, phase unchanged)
  double phase = 0.0;
  Vector x;
  double clearance = 0.0;  // time from the section to the nearest event (mod T)
};
QuietSection quiet_section(const HybridSystem& system, ConstVectorRef x, double old_phase, int n,
                           const FlowOptions& flow = {});

}  // namespace libcont
