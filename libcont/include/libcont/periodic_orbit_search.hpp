#pragma once
// The first periodic orbit of a forced system, found without a guess: a transient is
// integrated from an initial state, the period n of the settled motion read from its
// stroboscopic samples (unless given), and the z = p/n orbit shot for from the last sample
// (shooting.hpp) on the section t = 0 (mod T) (with a given n it may close after fewer
// periods, d: it is then the z = p/d orbit, shot for as such: minimal_period.hpp); then it
// is moved to a quiet section, away
// from its events (section_placement.hpp), and shot for there again: a section an event
// passes through makes P^n nonsmooth right at the fixed point, where shooting and
// continuation stall. Its result starts a branch (orbit_branch.hpp). vicont orbit and
// vicont continue find their orbits so.
#include <string>

#include "libcont/shooting.hpp"

namespace libcont {

struct OrbitSearchOptions {
  int transient_periods = 300;     // forcing periods integrated before the orbit is sought
  int period = 0;                  // n of the orbit; 0: read it from the settled motion
  int max_period = 16;             // largest n tried when reading it
  double period_tolerance = 1e-6;  // detect_period's, relative to the size of the motion
  Vector initial_state;            // at t = 0; empty: the system's default_initial_state()
  // Single or multiple shooting, its tolerances and the flow, which the transient and the
  // move to a quiet section integrate with too.
  ShootingOptions shooting;
  bool quiet_section = true;       // false: the orbit stays on the section t = 0

  // Throws InputError naming the first field out of its range (the shooting's and the
  // flow's too).
  void validate() const;
};

enum class OrbitSearchStatus {
  Found,            // shooting converged
  TransientFailed,  // the flow failed during the transient (OrbitSearchResult::transient)
  NotConverged,     // shooting did not converge (ShootingResult::reason)
};
std::string to_string(OrbitSearchStatus status);  // "found", "transient failed", ...

struct OrbitSearchResult {
  OrbitSearchStatus status = OrbitSearchStatus::NotConverged;
  std::string message;      // why no orbit was found; empty when one was
  ShootingResult shooting;  // the orbit: x on the section, p, monodromy, iterations
  double phase = 0.0;       // its section t = phase (mod T)
  int period = 1;           // n
  bool period_detected = false;  // n read from the settled motion (else given, or 1)
  std::string period_note;       // how n was chosen, in words
  FlowReport transient;          // of the transient integration
  bool found() const { return status == OrbitSearchStatus::Found; }
};

// The orbit at the system's current parameters. Throws InputError for an autonomous
// system (no stroboscopic section), an initial state of the wrong size and bad options.
OrbitSearchResult find_periodic_orbit(const HybridSystem& system,
                                      const OrbitSearchOptions& options = {});

}  // namespace libcont
