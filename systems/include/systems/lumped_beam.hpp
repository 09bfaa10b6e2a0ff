#pragma once
// An Euler-Bernoulli beam (flexural rigidity EI, length L, mass m) lumped into N point
// masses: the stiffness matrix of their transverse deflections is the inverse of the
// beam's flexibility matrix at the points (as the cantilever-2dof model builds its own),
// and each point carries the mass of the beam around it.
//   clamped-free (a cantilever): points at x_i = i L / N, i = 1..N, mass m / N each (the
//     tip m / 2N, plus a tip mass); f(a, b) = a^2 (3 b - a) / (6 EI) for a <= b;
//   pinned-pinned (simply supported): points at x_i = i L / (N + 1), mass m / (N + 1) each;
//     f(a, b) = a (L - b) (2 L b - b^2 - a^2) / (6 EI L) for a <= b.
#include "libcont/types.hpp"

namespace systems {

enum class BeamSupports { ClampedFree, PinnedPinned };

struct LumpedBeam {
  libcont::Matrix mass, stiffness;  // N x N; mass diagonal
};

LumpedBeam lumped_beam(int count, BeamSupports supports, double length, double rigidity,
                       double mass, double tip_mass = 0.0);

}  // namespace systems
