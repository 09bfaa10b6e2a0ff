#include "libcont/grazing.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/jacobians.hpp"

namespace libcont {

std::string to_string(GrazingKind kind) {
  switch (kind) {
    case GrazingKind::ImpactVelocity: return "impact-velocity";
    case GrazingKind::InteriorTangency: return "interior-tangency";
    case GrazingKind::NonImpactingGap: return "non-impacting-gap";
  }
  return "";
}

GrazingScales grazing_scales(const OrbitMeasures& measures, double forcing_period) {
  double extent = 0.0;
  for (Eigen::Index k = 0; k < measures.minimum.size(); ++k)
    extent = std::max(extent, measures.maximum[k] - measures.minimum[k]);
  if (!(extent > 0.0)) extent = 1.0;  // a resting orbit: no scale of its own
  return {extent, extent / forcing_period};
}

double grazing_distance(const ContactApproach& approach, const GrazingScales& scales) {
  return approach.type == ContactApproach::Type::Impact ? approach.value / scales.speed
                                                        : approach.value / scales.length;
}

double gap_acceleration(const HybridSystem& system, int mode, int event, double t,
                        ConstVectorRef x) {
  const Eigen::Index n = x.size();
  Vector f(n), y(n), dh_dx(n);
  system.vector_field(mode, t, x, f);
  const double period = system.forcing_period();
  const double step = 1e-5 * (period > 0.0 ? period : 1.0);
  double rates[2];
  const ModelJacobians jacobians(system);
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? -step : step;
    y = x + s * f;
    Vector g(n);
    system.vector_field(mode, t + s, y, g);
    double dh_dt = 0.0;
    jacobians.event_gradient(mode, event, t + s, y, dh_dx, dh_dt);
    rates[side] = dh_dx.dot(g) + dh_dt;
  }
  return (rates[1] - rates[0]) / (2.0 * step);
}

double signed_squared_speed(const ContactApproach& approach) {
  return approach.type == ContactApproach::Type::Impact
             ? approach.value * approach.value
             : -2.0 * approach.acceleration * approach.value;
}

std::optional<ContactApproach> nearest_grazing(const OrbitMeasures& measures,
                                               const GrazingScales& scales) {
  std::optional<ContactApproach> nearest;
  for (const ContactApproach& a : measures.approaches)
    if (!nearest || grazing_distance(a, scales) < grazing_distance(*nearest, scales)) nearest = a;
  return nearest;
}

std::optional<ContactApproach> approach_near(const OrbitMeasures& measures, double t, double span,
                                             double window) {
  std::optional<ContactApproach> nearest;
  double best = window;
  for (const ContactApproach& a : measures.approaches) {
    const double shift = std::remainder(a.t - t, span);
    if (std::abs(shift) <= best) {
      best = std::abs(shift);
      nearest = a;
    }
  }
  return nearest;
}

Vector extrapolate_to_zero(const std::vector<double>& s, const std::vector<Vector>& y) {
  std::vector<Vector> p = y;
  const size_t k = s.size();
  for (size_t level = 1; level < k; ++level)
    for (size_t i = 0; i + level < k; ++i)
      p[i] = (s[i + level] * p[i] - s[i] * p[i + 1]) / (s[i + level] - s[i]);
  return p[0];
}

}  // namespace libcont
