#pragma once
// How `vicont orbit` and `vicont continue` find their first periodic orbit: integrate a
// transient from the system's default initial state, read the period n of the settled
// motion from its stroboscopic samples (unless --period gives it), then shoot for the
// z = p/n orbit from the last sample (libcont::Shooting, SPEC 1.3).
#include <string>

#include "libcont/shooting.hpp"
#include "run_options.hpp"

namespace vicont {

struct OrbitSearchSettings {
  int transient = 300;   // forcing periods integrated before the orbit is sought
  int period = 0;        // n; 0: detect it from the settled motion
  int max_period = 16;   // largest n tried when detecting
  bool multiple = false; // multiple shooting over the n periods
  void add_options(RunOptions& options);
};

struct FoundOrbit {
  libcont::ShootingResult shooting;
  int period = 1;                // n used for shooting
  bool period_detected = false;  // n read from the settled motion (else given or 1)
  std::string note;              // how n was chosen
  libcont::FlowReport transient; // of the transient integration
};

// The section is t = 0 (mod T). Throws libcont::InputError for an autonomous system.
FoundOrbit find_periodic_orbit(const libcont::HybridSystem& system,
                               const OrbitSearchSettings& settings);

}  // namespace vicont
