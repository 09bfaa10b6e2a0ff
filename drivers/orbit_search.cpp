#include "orbit_search.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"
#include "libcont/input_error.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/section_placement.hpp"

namespace vicont {

void OrbitSearchSettings::add_options(RunOptions& options) {
  options.add_count("transient", transient, 0,
                    "forcing periods integrated before the orbit is sought (default: 300)");
  options.add_count("period", period, 0,
                    "n of the orbit (z = p/n); 0 reads it from the settled motion (default)");
  options.add_count("max-period", max_period, 1,
                    "largest n tried when reading n from the settled motion (default: 16)");
  options.add_flag("multiple", multiple, "multiple shooting over the n forcing periods");
}

FoundOrbit find_periodic_orbit(const libcont::HybridSystem& system,
                               const OrbitSearchSettings& settings) {
  const double period = system.forcing_period();
  if (!(period > 0.0))
    throw libcont::InputError("system '" + system.name() +
                              "' is autonomous: periodic orbits need a forcing period "
                              "(a stroboscopic section)");
  FoundOrbit found;
  libcont::Flow flow(system);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  found.transient = flow.advance(state, settings.transient * period);
  if (!found.transient.ok()) {
    found.shooting.reason = "transient integration failed: " + found.transient.message;
    found.shooting.x = state.x;
    return found;
  }
  libcont::Vector guess = state.x;
  found.period = settings.period;
  if (found.period == 0) {
    // Four candidate cycles of the largest n: enough to tell n from 2n.
    std::vector<libcont::Vector> samples{state.x};
    for (int k = 0; k < 4 * settings.max_period && found.transient.ok(); ++k) {
      found.transient = flow.advance(state, state.t + period);
      samples.push_back(state.x);
    }
    if (!found.transient.ok()) {
      found.shooting.reason = "transient integration failed: " + found.transient.message;
      found.shooting.x = state.x;
      return found;
    }
    const int detected = libcont::detect_period(samples, settings.max_period, 1e-6);
    found.period_detected = detected > 0;
    found.period = detected > 0 ? detected : 1;
    found.note = detected > 0 ? "n = " + std::to_string(detected) + " read from the settled motion"
                              : "settled motion not periodic within n <= " +
                                    std::to_string(settings.max_period) + ": shooting with n = 1";
    guess = state.x;
  } else {
    found.note = "n = " + std::to_string(found.period) + " as given";
  }
  libcont::ShootingOptions options;
  options.multiple = settings.multiple;
  found.shooting = libcont::Shooting(system, found.period, options).solve(guess);
  if (!found.shooting.converged) return found;
  const QuietSection quiet = quiet_section(system, found.shooting.x, 0.0, found.period);
  if (!quiet.ok || quiet.phase == 0.0) return found;
  libcont::ShootingResult moved =
      libcont::Shooting(system, found.period, options, quiet.phase).solve(quiet.x);
  if (moved.converged) {
    found.shooting = std::move(moved);
    found.phase = quiet.phase;
  }
  return found;
}

QuietSection quiet_section(const libcont::HybridSystem& system, const libcont::Vector& x,
                           double old_phase, int n) {
  QuietSection result;
  result.phase = old_phase;
  result.x = x;
  const double period = system.forcing_period();
  // The orbit's events over one pass (OrbitMeasures::event_times).
  const libcont::MapEvaluation pass =
      libcont::StroboscopicMap(system, {}, old_phase).iterate(x, n, false);
  if (!pass.ok()) return result;
  result.ok = true;
  const std::vector<double>& events = pass.measures.event_times;
  const libcont::SectionPlacement quiet = libcont::quietest_section(events, period);
  const double old_clearance = libcont::section_clearance(events, old_phase, period);
  // Keep the old section when it is nearly as quiet: no reason to move.
  if (old_clearance >= 0.5 * quiet.clearance) {
    result.clearance = old_clearance;
    return result;
  }
  if (!libcont::follow_to_section(system, {}, x, old_phase, quiet.phase, result.x)) {
    result.ok = false;
    return result;
  }
  result.phase = quiet.phase;
  result.clearance = quiet.clearance;
  return result;
}

}  // namespace vicont
