#pragma once
// A reset onto an event's surface closes the gap exactly, as a model closes it on its own:
// a rounding-level correction of the coordinate with the largest coefficient, so that a
// chatter's short flight starts on the right side of the surface whatever the size of
// the other coordinates' terms. Shared by the exact path's lifted reset and the clear
// impact loop.
#include <cmath>

namespace libcont::detail {

// For h = c . (x, f), c of n + 3 coefficients, f the 3 forcing values in c's scale:
// x[j] = -(the other terms, summed in index order) / c[j], j the last coordinate with
// the largest |c_j|. Unchanged where c_x = 0.
inline void close_gap_on_surface(const double* c, const double* forcing, int n, double* x) {
  int snapped = 0;
  for (int i = 1; i < n; ++i)
    if (std::abs(c[i]) >= std::abs(c[snapped])) snapped = i;
  if (c[snapped] == 0.0) return;
  double others = 0.0;
  for (int i = 0; i < n + 3; ++i)
    if (i != snapped) others += c[i] * (i < n ? x[i] : forcing[i - n]);
  x[snapped] = -others / c[snapped];
}

}  // namespace libcont::detail
