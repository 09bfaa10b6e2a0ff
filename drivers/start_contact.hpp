#pragma once
// A start state on the wrong side of a hard contact: the mass begins inside the base or
// the obstacle. The flow finds an impact only when the gap closes (falls through zero), so
// from such a state the motion passes through the obstacle unnoticed until the gap opens:
// what follows is no motion of the model. Commands warn (a run from the default state) or
// refuse (basins, whose grid is chosen) and name the contact and the gap.
#include <optional>
#include <string>

#include "libcont/hybrid_system.hpp"

namespace vicont {

struct ContactViolation {
  std::string contact;  // its name ("base"), or its impact event's if it has none
  double gap = 0.0;     // its event function, negative
};

// The first hard contact (an impact event of the state's mode) that x at time t lies
// beyond; none when every gap is open or closed exactly.
std::optional<ContactViolation> violated_contact(const libcont::HybridSystem& system, double t,
                                                 libcont::ConstVectorRef x);

// "x = -0.01, v = 0": a state by its coordinates' names.
std::string state_text(const libcont::HybridSystem& system, libcont::ConstVectorRef x);

// A warning on stderr when the system's default initial state at t = 0 lies inside a
// contact; `source` names the parameters that were set (run_limits.hpp).
void warn_start_inside_contact(const libcont::HybridSystem& system, const std::string& source);

}  // namespace vicont
