#pragma once
// The spacing of doubles at 1: the unit in which the library's rounding bounds are written.
#include <limits>

namespace libcont {

inline constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

}  // namespace libcont
