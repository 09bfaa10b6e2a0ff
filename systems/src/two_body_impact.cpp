#include "systems/two_body_impact.hpp"

#include <cmath>

namespace systems {

libcont::EventOutcome two_body_newton_impact(const libcont::NewtonRestitution& law, double m1,
                                             double m2, double joining_force,
                                             libcont::VectorRef x, TwoBodyModes modes) {
  if (law.sticks(std::abs(x[3] - x[2]), joining_force * (1.0 / m1 + 1.0 / m2))) {
    x[2] = x[3] = (m1 * x[2] + m2 * x[3]) / (m1 + m2);
    return {modes.joined, libcont::EventKind::StickStart, false};
  }
  const auto v = law.two_body_rebound(x[2], x[3], m2 / m1);
  x[2] = v.v1;
  x[3] = v.v2;
  return {modes.free, libcont::EventKind::Impact, false};
}

void two_body_newton_reset_jacobian(const libcont::NewtonRestitution& law, double m1, double m2,
                                    libcont::EventKind outcome, libcont::MatrixRef dg_dx,
                                    libcont::VectorRef dg_dt) {
  dg_dx.setIdentity();
  dg_dt.setZero();
  if (outcome != libcont::EventKind::Impact && outcome != libcont::EventKind::StickStart) return;
  dg_dx(1, 1) = 0.0;  // x2+ = x1 + offset
  dg_dx(1, 0) = 1.0;
  const double chi = m2 / m1;
  const auto dv = outcome == libcont::EventKind::Impact
                      ? law.two_body_rebound_jacobian(chi)
                      : libcont::NewtonRestitution::two_body_sticking_jacobian(chi);
  dg_dx(2, 2) = dv.dv1_dv1;
  dg_dx(2, 3) = dv.dv1_dv2;
  dg_dx(3, 2) = dv.dv2_dv1;
  dg_dx(3, 3) = dv.dv2_dv2;
}

}  // namespace systems
