#include "libcont/section_placement.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/poincare_map.hpp"

namespace libcont {

namespace {

double cyclic(double t, double period) {
  const double r = std::fmod(t, period);
  return r < 0.0 ? r + period : r;
}

}  // namespace

double forward_shift(double from, double to, double period) { return cyclic(to - from, period); }

double section_clearance(const std::vector<double>& event_times, double phase, double period) {
  double clearance = 0.5 * period;
  const double section = cyclic(phase, period);
  for (const double t : event_times) {
    const double d = std::abs(cyclic(t, period) - section);
    clearance = std::min(clearance, std::min(d, period - d));
  }
  return clearance;
}

SectionPlacement quietest_section(const std::vector<double>& event_times, double period) {
  if (event_times.empty()) return {0.5 * period, 0.5 * period};
  std::vector<double> phases;
  phases.reserve(event_times.size());
  for (const double t : event_times) phases.push_back(cyclic(t, period));
  std::sort(phases.begin(), phases.end());
  // The stretch that wraps around from the last event to the first one, then the others.
  double longest = phases.front() + period - phases.back();
  double middle = phases.back() + 0.5 * longest;
  for (size_t i = 1; i < phases.size(); ++i) {
    const double gap = phases[i] - phases[i - 1];
    if (gap > longest) {
      longest = gap;
      middle = phases[i - 1] + 0.5 * gap;
    }
  }
  return {cyclic(middle, period), 0.5 * longest};
}

QuietSection quiet_section(const HybridSystem& system, ConstVectorRef x, double old_phase, int n,
                           const FlowOptions& flow) {
  QuietSection result;
  result.phase = old_phase;
  result.x = x;
  const double period = system.forcing_period();
  // The orbit's events over one pass (OrbitMeasures::event_times).
  const MapEvaluation pass = StroboscopicMap(system, flow, old_phase).iterate(x, n, false);
  if (!pass.ok()) return result;
  result.ok = true;
  const std::vector<double>& events = pass.measures.event_times;
  const SectionPlacement quiet = quietest_section(events, period);
  const double old_clearance = section_clearance(events, old_phase, period);
  // Keep the old section when it is nearly as quiet: no reason to move.
  if (old_clearance >= 0.5 * quiet.clearance) {
    result.clearance = old_clearance;
    return result;
  }
  if (!follow_to_section(system, flow, x, old_phase, quiet.phase, result.x)) {
    result.ok = false;
    return result;
  }
  result.phase = quiet.phase;
  result.clearance = quiet.clearance;
  return result;
}

}  // namespace libcont
