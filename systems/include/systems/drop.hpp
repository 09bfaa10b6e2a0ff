#pragma once
// Mass dropped on a fixed base under gravity. Height x above the base, x' = v.
// model = hard: x'' = -g in flight, v+ = -r v- at x = 0; a chattering sequence ends with
//   the body resting on the base (mode "rest").
// model = soft: m x'' = -m g - k_s x - c_s x' while x < 0 (mode "contact").
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include "libcont/impacting_structure.hpp"

namespace systems {

class DropTest : public libcont::ImpactingStructure {
 public:
  enum Mode { Flight = 0, Ground = 1 };  // Ground: "rest" (hard) or "contact" (soft)

  DropTest();
  std::string name() const override { return "drop"; }
  void configure() override;
  libcont::Vector default_initial_state() const override;

  bool hard() const { return contacts().front().hard(); }
  double contact_damping() const { return contacts().front().damping(); }
};

}  // namespace systems
