#pragma once
// A chain of N equal oscillators (mass m, coupling springs k, dampers c on each mass),
// the first attached to a wall and driven by F0 cos(omega t), the last hitting a rigid
// stop at distance d (Newton restitution r; chattering ends with the last mass held at
// the stop, mode "held"). State (x_1..x_N, v_1..v_N). A test system with a large state
// for the matrix-free Floquet multipliers; N = 100 by default.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include <Eigen/Core>
#include <complex>

#include "libcont/impacting_structure.hpp"

namespace systems {

class OscillatorChain : public libcont::ImpactingStructure {
 public:
  enum Mode { Free = 0, Held = 1 };

  OscillatorChain();
  std::string name() const override { return "chain"; }
  void configure() override;

  int count() const { return structure().size(); }

  // The Floquet multipliers of any T-periodic orbit that does not reach the stop, in
  // closed form (T = 2 pi / omega; doc/performance.md, "Large systems"). Such an orbit
  // follows the free flight's linear equations m x'' + c x' + k L x = F0 cos(omega t) e_1
  // (L: the wall-fixed, free-ended path Laplacian), so its monodromy is exp(A T), A the
  // free flight's system matrix. Mass and damping both multiples of the identity, the
  // modes of L decouple it: L has the eigenvalues kappa_j = 4 sin^2((2j - 1) pi / (4N + 2)),
  // j = 1..N, and mode j the exponents lambda = -c/2m +- sqrt((c/2m)^2 - k kappa_j / m).
  // An underdamped mode (k kappa_j / m > (c/2m)^2) gives a complex pair of modulus
  // exp(-c T / 2m); an overdamped one two real multipliers exp(lambda T) of other moduli
  // whose product is exp(-c T / m) (the softest modes of a long chain: N = 100 has one at
  // the defaults, N = 300 two). Returns the 2N values exp(lambda T), mode by mode.
  Eigen::VectorXcd free_flight_multipliers() const;
};

}  // namespace systems
