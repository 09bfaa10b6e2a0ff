#pragma once
// The saltation-corrected Jacobian of the map x(t0) -> x(t0 + duration) against
// fourth-order finite differences of the map itself, and the same for the
// monodromy matrix without the event-time correction (S = D_x g), which must fail where
// events matter. See test_period_map.cpp for why t0 = 0 and fourth-order differences.
#include "test_support.hpp"

namespace test_support {

struct PeriodMapCheck {
  double error = 0.0;        // saltation-corrected Jacobian vs differences
  double naive_error = 0.0;  // S = D_x g only
  long events = 0;           // in the mapped interval
};

// The map from (t0, x) over `duration`. Perturbations must not change the sequence of
// events (REQUIREd).
inline PeriodMapCheck check_period_map(const HybridSystem& system, const Vector& x,
                                       double duration, const Vector& steps, double t0 = 0.0) {
  const FlowOptions options = tight_options();
  const MapResult with_tangent = flow_map(system, options, t0, x, duration, true);
  REQUIRE(with_tangent.report.ok());
  const auto map = [&](const Vector& y) {
    const MapResult m = flow_map(system, options, t0, y, duration, false);
    REQUIRE(m.report.ok());
    REQUIRE(m.events.events.size() == with_tangent.events.events.size());
    return m.x;
  };
  const Matrix differences = fourth_order_differences(map, x, steps);
  const WithoutSaltation naive(system, false);
  const Matrix naive_jacobian = flow_map(naive, options, t0, x, duration, true).jacobian;
  return {relative_error(with_tangent.jacobian, differences),
          relative_error(naive_jacobian, differences),
          static_cast<long>(with_tangent.events.events.size())};
}

}  // namespace test_support
