#include "libcont/periodic_orbit_search.hpp"

#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"
#include "libcont/input_error.hpp"
#include "libcont/minimal_period.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

void OrbitSearchOptions::validate() const {
  const auto bad = [](const std::string& field, const std::string& rule) {
    throw InputError("orbit search option " + field + " " + rule);
  };
  if (transient_periods < 0)
    bad("transient_periods", "must not be negative, not " + std::to_string(transient_periods));
  if (period < 0) bad("period", "must not be negative (0: read it), not " + std::to_string(period));
  if (max_period < 1) bad("max_period", "must be at least 1, not " + std::to_string(max_period));
  if (!(period_tolerance > 0.0))
    bad("period_tolerance", "must be positive, not " + number_text(period_tolerance));
  shooting.validate();
}

std::string to_string(OrbitSearchStatus status) {
  switch (status) {
    case OrbitSearchStatus::Found: return "found";
    case OrbitSearchStatus::TransientFailed: return "transient failed";
    case OrbitSearchStatus::NotConverged: return "not converged";
  }
  return "unknown";
}

namespace {

OrbitSearchResult transient_failed(OrbitSearchResult found, const FlowState& state) {
  found.status = OrbitSearchStatus::TransientFailed;
  found.shooting.reason = "transient integration failed: " + found.transient.message;
  found.shooting.x = state.x;
  found.message = found.shooting.reason;
  return found;
}

}  // namespace

OrbitSearchResult find_periodic_orbit(const HybridSystem& system,
                                      const OrbitSearchOptions& options) {
  options.validate();
  const double period = system.forcing_period();
  if (!(period > 0.0))
    throw InputError("system '" + system.name() +
                     "' is autonomous: periodic orbits need a forcing period "
                     "(a stroboscopic section)");
  const Vector initial =
      options.initial_state.size() ? options.initial_state : system.default_initial_state();
  if (initial.size() != system.dimension())
    throw InputError("orbit search option initial_state has " + std::to_string(initial.size()) +
                     " components, the system " + std::to_string(system.dimension()));
  OrbitSearchResult found;
  Flow flow(system, options.shooting.flow);
  FlowState state = flow.initial_state(0.0, initial);
  found.transient = flow.advance(state, options.transient_periods * period);
  if (!found.transient.ok()) return transient_failed(std::move(found), state);
  Vector guess = state.x;
  found.period = options.period;
  if (found.period == 0) {
    // Four candidate cycles of the largest n: enough to tell n from 2n.
    std::vector<Vector> samples{state.x};
    for (int k = 0; k < 4 * options.max_period && found.transient.ok(); ++k) {
      found.transient = flow.advance(state, state.t + period);
      samples.push_back(state.x);
    }
    if (!found.transient.ok()) return transient_failed(std::move(found), state);
    const int detected = detect_period(samples, options.max_period, options.period_tolerance);
    found.period_detected = detected > 0;
    found.period = detected > 0 ? detected : 1;
    found.period_note =
        detected > 0 ? "n = " + std::to_string(detected) + " read from the settled motion"
                     : "settled motion not periodic within n <= " +
                           std::to_string(options.max_period) + ": shooting with n = 1";
    guess = state.x;
  } else {
    found.period_note = "n = " + std::to_string(found.period) + " as given";
  }
  found.shooting = Shooting(system, found.period, options.shooting).solve(guess);
  found.status =
      found.shooting.converged ? OrbitSearchStatus::Found : OrbitSearchStatus::NotConverged;
  if (!found.shooting.converged) {
    found.message = found.shooting.reason;
    return found;
  }
  // Shooting with a given n may converge to an orbit of a shorter period d traversed n/d
  // times; continued as n, its period doublings would show only as multipliers touching
  // +1. It is the z = p/d orbit that was found, and shot again as such.
  StroboscopicMap map(system, options.shooting.flow);
  const int shortest = minimal_period(map, found.shooting.x, found.period);
  if (shortest < found.period) {
    ShootingResult shorter = Shooting(system, shortest, options.shooting).solve(found.shooting.x);
    if (shorter.converged) {
      found.period_note += "; the orbit found closes after " + std::to_string(shortest) +
                           (shortest == 1 ? " period" : " periods") + ": n = " +
                           std::to_string(shortest);
      found.period = shortest;
      found.shooting = std::move(shorter);
    }
  }
  if (!options.quiet_section) return found;
  const QuietSection quiet =
      quiet_section(system, found.shooting.x, 0.0, found.period, options.shooting.flow);
  if (!quiet.ok || quiet.phase == 0.0) return found;
  ShootingResult moved =
      Shooting(system, found.period, options.shooting, quiet.phase).solve(quiet.x);
  if (moved.converged) {
    found.shooting = std::move(moved);
    found.phase = quiet.phase;
  }
  return found;
}

}  // namespace libcont
