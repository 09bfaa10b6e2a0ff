#pragma once
// Newton impact between two free bodies in a model with the state
// (x1, x2, v1, v2) whose contact surface is x2 = x1 + offset (two-body: the bodies touch,
// platform: the mould lands on the block): the rebound, or the end of a chattering
// sequence in which the bodies move on together, and the derivative of that reset.
// Shared by the two-body system and the platform.
#include "libcont/hybrid_system.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

struct TwoBodyModes {
  int free;    // the bodies apart
  int joined;  // moving together after a chattering sequence
};

// Applies the impact to the velocities of x, whose positions the caller has already put
// on the contact surface. `joining_force` (> 0 compressive) is the force that would keep
// the bodies together there: when it holds them and the rebound is too slow, they stick.
libcont::EventOutcome two_body_newton_impact(const libcont::NewtonRestitution& law, double m1,
                                             double m2, double joining_force,
                                             libcont::VectorRef x, TwoBodyModes modes);

// D_x g and D_t g of that reset (x2+ = x1 + offset, the velocities by the rebound or the
// common velocity); identity for any other outcome (a release, a mode switch).
void two_body_newton_reset_jacobian(const libcont::NewtonRestitution& law, double m1, double m2,
                                    libcont::EventKind outcome, libcont::MatrixRef dg_dx,
                                    libcont::VectorRef dg_dt);

}  // namespace systems
