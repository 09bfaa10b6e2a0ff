#pragma once
// A chain of N equal oscillators (mass m, coupling springs k, dampers c on each mass),
// the first attached to a wall and driven by F0 cos(omega t), the last hitting a rigid
// stop at distance d (Newton restitution r; chattering ends with the last mass held at
// the stop, mode "held"). State (x_1..x_N, v_1..v_N). A test system with a large state
// for the matrix-free Floquet multipliers; N = 100 by default.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include "libcont/impacting_structure.hpp"

namespace systems {

class OscillatorChain : public libcont::ImpactingStructure {
 public:
  enum Mode { Free = 0, Held = 1 };

  OscillatorChain();
  std::string name() const override { return "chain"; }
  void configure() override;

  int count() const { return structure().size(); }
};

}  // namespace systems
