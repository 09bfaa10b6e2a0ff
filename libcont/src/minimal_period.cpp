#include "libcont/minimal_period.hpp"

#include <algorithm>
#include <limits>

namespace libcont {

int minimal_period(StroboscopicMap& map, ConstVectorRef x, int n, double tolerance,
                   Vector* half_lap) {
  const double scale = std::max(x.norm(), std::numeric_limits<double>::min());
  if (half_lap) half_lap->resize(0);
  const auto closes_after = [&](int d) {
    const MapEvaluation e = map.iterate(x, d, false);
    if (!e.ok()) return false;
    const Vector difference = e.x - x;
    if (half_lap && 2 * d == n) *half_lap = difference;
    return difference.norm() <= tolerance * scale;
  };
  const auto prime = [](int q) {
    for (int f = 2; f * f <= q; ++f)
      if (q % f == 0) return false;
    return true;
  };
  // The minimal period divides every count of periods after which the orbit closes, so
  // it is reached by dividing n by one prime factor at a time while the orbit still
  // closes (n = 4: one map of 2 periods for an orbit of period 4).
  int m = n;
  for (bool shorter = true; shorter && m > 1;) {
    shorter = false;
    for (int q = 2; q <= m; ++q) {
      if (m % q != 0 || !prime(q) || !closes_after(m / q)) continue;
      m /= q;
      shorter = true;
      break;
    }
  }
  return m;
}

bool laps_swapped(const Vector& before, const Vector& after) {
  if (before.size() == 0 || before.size() != after.size()) return false;
  return before.dot(after) < -0.5 * before.norm() * after.norm();
}

}  // namespace libcont
