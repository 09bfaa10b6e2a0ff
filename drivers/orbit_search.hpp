#pragma once
// How `vicont orbit` and `vicont continue` find their first periodic orbit: integrate a
// transient from the system's default initial state, read the period n of the settled
// motion from its stroboscopic samples (unless --period gives it), then shoot for the
// z = p/n orbit from the last sample (libcont::Shooting).
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
  double phase = 0.0;            // the section t = phase (mod T) of shooting.x
  int period = 1;                // n used for shooting
  bool period_detected = false;  // n read from the settled motion (else given or 1)
  std::string note;              // how n was chosen
  libcont::FlowReport transient; // of the transient integration
};

// The orbit is first shot on the section t = 0 (mod T), then moved to a quiet section
// (below) and shot there again. Throws libcont::InputError for an autonomous system.
FoundOrbit find_periodic_orbit(const libcont::HybridSystem& system,
                               const OrbitSearchSettings& settings);

// A section t = phase (mod T) far from every event of the orbit through x (a point on the
// section t = old_phase, period n T), and the orbit's point on it. An event on or near the
// section makes P^n nonsmooth right at the fixed point: shooting and continuation
// stall there (the fixed point jumps as the event time passes the section). The phase
// returned is the middle of the largest event-free interval of the orbit's times mod T.
struct QuietSection {
  bool ok = false;  // false: the orbit could not be integrated (x, phase unchanged)
  double phase = 0.0;
  libcont::Vector x;
  double clearance = 0.0;  // time from the section to the nearest event (mod T)
};
QuietSection quiet_section(const libcont::HybridSystem& system, const libcont::Vector& x,
                           double old_phase, int n);

}  // namespace vicont
