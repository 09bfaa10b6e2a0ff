#pragma once
// The process's CPU time in seconds, the figure the benchmarks compare (the machine is
// shared: wall time varies with the load, CPU time much less).
#include <ctime>

inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
