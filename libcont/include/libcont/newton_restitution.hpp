#pragma once
// Newton's restitution law: the relative normal velocity reverses and shrinks,
// v+ = -r v-. Two settings: a body hitting a moving (kinematically driven) base, and two
// free bodies. A rebound into a surface that keeps pushing, slower than stick_velocity or
// with an apex lower than stick_height, is the end of a chattering (Zeno) sequence: the
// law then reports sticking instead, so the flow never crawls through ever smaller
// impacts. The height bound matters: a flight whose apex is near the rounding level of
// the positions cannot be integrated (its end is invisible to root finding) and would let
// the body pass through the surface. Sticking early changes the motion only until the
// true sequence would have ended, by at most the rebound speed and apex height; after
// that the two motions coincide.
#include "libcont/input_error.hpp"

namespace libcont {

struct NewtonRestitution {
  double r = 1.0;                // restitution coefficient in [0, 1]
  double stick_velocity = 1e-9;  // relative rebound speed below which the body sticks
  double stick_height = 1e-12;   // rebound apex below which the body sticks (length units)

  explicit NewtonRestitution(double restitution, double stick = 1e-9);

  // Body velocity after hitting a base moving with velocity base_velocity.
  double rebound_velocity(double velocity, double base_velocity) const {
    return base_velocity - r * (velocity - base_velocity);
  }
  // Whether the rebound ends a chattering sequence: a slow or low rebound while the
  // contact would stay compressed. holding_acceleration is the relative acceleration
  // that drives the body back onto the surface (> 0 while the surface has to push).
  bool sticks(double approach_speed, double holding_acceleration) const {
    if (!(holding_acceleration > 0.0)) return false;
    const double rebound = r * approach_speed;
    return rebound < stick_velocity ||
           rebound * rebound < 2.0 * holding_acceleration * stick_height;
  }

  // Two free bodies, chi = m2 / m1: post-impact velocities.
  struct TwoBodyVelocities {
    double v1;
    double v2;
  };
  TwoBodyVelocities two_body_rebound(double v1, double v2, double mass_ratio) const;
  // Its derivative d(v1+, v2+) / d(v1-, v2-), row by row (saltation matrices):
  //   [[1 - r chi, chi (1 + r)], [1 + r, chi - r]] / (1 + chi).
  // With r = 0 the bodies leave with their common (centre-of-mass) velocity: the
  // derivative of sticking together, whatever the restitution.
  struct TwoBodyJacobian {
    double dv1_dv1, dv1_dv2, dv2_dv1, dv2_dv2;
  };
  TwoBodyJacobian two_body_rebound_jacobian(double mass_ratio) const;
  static TwoBodyJacobian two_body_sticking_jacobian(double mass_ratio);
};

}  // namespace libcont
