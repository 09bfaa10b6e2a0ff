#include "libcont/newton_restitution.hpp"

#include <cmath>
#include <string>

namespace libcont {

NewtonRestitution::NewtonRestitution(double restitution, double stick)
    : r(restitution), stick_velocity(stick) {
  if (!(r >= 0.0 && r <= 1.0))
    throw InputError("restitution coefficient r must lie in [0, 1] (got " + number_text(r) + ")");
  if (!(stick_velocity >= 0.0) || !std::isfinite(stick_velocity))
    throw InputError("stick velocity must be a non-negative number");
}

NewtonRestitution::TwoBodyVelocities NewtonRestitution::two_body_rebound(
    double v1, double v2, double chi) const {
  // Momentum conservation m1 v1 + m2 v2 and v2+ - v1+ = -r (v2- - v1-), with chi = m2/m1.
  return {((1.0 - r * chi) * v1 + chi * (1.0 + r) * v2) / (1.0 + chi),
          ((1.0 + r) * v1 + (chi - r) * v2) / (1.0 + chi)};
}

NewtonRestitution::TwoBodyJacobian NewtonRestitution::two_body_rebound_jacobian(
    double chi) const {
  return {(1.0 - r * chi) / (1.0 + chi), chi * (1.0 + r) / (1.0 + chi), (1.0 + r) / (1.0 + chi),
          (chi - r) / (1.0 + chi)};
}

NewtonRestitution::TwoBodyJacobian NewtonRestitution::two_body_sticking_jacobian(double chi) {
  return NewtonRestitution(0.0).two_body_rebound_jacobian(chi);
}

}  // namespace libcont
