#pragma once
// The options of how `vicont orbit` and `vicont continue` find their first periodic orbit
// (libcont::find_periodic_orbit: a transient, n read from the settled motion unless
// --period gives it, shooting, a quiet section).
#include "integrator_choice.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "run_options.hpp"

namespace vicont {

struct OrbitSearchSettings {
  int transient = 300;   // forcing periods integrated before the orbit is sought
  int period = 0;        // n; 0: detect it from the settled motion
  int max_period = 16;   // largest n tried when detecting
  bool multiple = false; // multiple shooting over the n periods
  IntegratorChoice integrator;  // of the transient, the shooting and what follows
  void add_options(RunOptions& options);
  libcont::OrbitSearchOptions options() const;
};

// The flow work of a search (its transient and its last shooting map), for the fallbacks
// it needed; the status is the transient's.
libcont::FlowReport search_work(const libcont::OrbitSearchResult& found);

}  // namespace vicont
