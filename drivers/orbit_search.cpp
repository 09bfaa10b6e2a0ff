#include "orbit_search.hpp"

#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"
#include "libcont/input_error.hpp"

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
  libcont::Shooting shooting(system, found.period, options);
  found.shooting = shooting.solve(guess);
  return found;
}

}  // namespace vicont
