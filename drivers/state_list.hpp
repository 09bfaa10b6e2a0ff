#pragma once
// --initial-states of the commands that start from several states (sweep, map): full
// states, components by commas and states by semicolons, e.g. "0,0;0.004,0".
#include <string>
#include <vector>

#include "libcont/types.hpp"

namespace vicont {

// The states of `text` (none for empty text); a component that is no number is an
// InputError naming --initial-states and the state.
std::vector<libcont::Vector> parse_state_list(const std::string& text);

}  // namespace vicont
