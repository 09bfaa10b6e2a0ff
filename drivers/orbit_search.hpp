#pragma once
// The options of how `vicont orbit` and `vicont continue` find their first periodic orbit
// (libcont::find_periodic_orbit: a transient, n read from the settled motion unless
// --period gives it, shooting, a quiet section).
#include "libcont/periodic_orbit_search.hpp"
#include "run_options.hpp"

namespace vicont {

struct OrbitSearchSettings {
  int transient = 300;   // forcing periods integrated before the orbit is sought
  int period = 0;        // n; 0: detect it from the settled motion
  int max_period = 16;   // largest n tried when detecting
  bool multiple = false; // multiple shooting over the n periods
  void add_options(RunOptions& options);
  libcont::OrbitSearchOptions options() const;
};

}  // namespace vicont
