#pragma once
// Newton's restitution law (SPEC 2.1): the relative normal velocity reverses and shrinks,
// v+ = -r v-. Two settings: a body hitting a moving (kinematically driven) base, and two
// free bodies. A rebound slower than stick_velocity into a surface that keeps pushing is
// the end of a chattering (Zeno) sequence: the law then reports sticking instead, so
// the flow never crawls through ever smaller impacts.
#include "libcont/input_error.hpp"

namespace libcont {

struct NewtonRestitution {
  double r = 1.0;                // restitution coefficient in [0, 1]
  double stick_velocity = 1e-9;  // relative rebound speed below which the body sticks

  explicit NewtonRestitution(double restitution, double stick = 1e-9);

  // Body velocity after hitting a base moving with velocity base_velocity.
  double rebound_velocity(double velocity, double base_velocity) const {
    return base_velocity - r * (velocity - base_velocity);
  }
  // Whether the rebound ends a chattering sequence: a slow rebound while the contact
  // would stay compressed (contact_force > 0 pushes the body away from the surface).
  bool sticks(double approach_speed, double contact_force) const {
    return r * approach_speed < stick_velocity && contact_force > 0.0;
  }

  // Two free bodies, chi = m2 / m1 (SPEC 2.1): post-impact velocities.
  struct TwoBodyVelocities {
    double v1;
    double v2;
  };
  TwoBodyVelocities two_body_rebound(double v1, double v2, double mass_ratio) const;
};

}  // namespace libcont
