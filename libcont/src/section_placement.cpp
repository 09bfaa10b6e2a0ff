#include "libcont/section_placement.hpp"

#include <algorithm>
#include <cmath>

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

}  // namespace libcont
