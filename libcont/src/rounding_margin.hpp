#pragma once
// When a value formed from several terms is clear of rounding: the exact path's lifted
// values and rates, and the clear impact loop's closed-form ones, agree with the model's to
// about 1e-15 of their terms' magnitudes. Beyond this share of those magnitudes a value
// lies on the same side of a tolerance as the model's, and a rate has the same sign and
// exceeds its own rounding, so a decision taken on it is the one the model's numbers would
// take. Both paths decide with the same margin, so that one hands a case to the other
// exactly where that one could decide otherwise.

namespace libcont::detail {

inline constexpr double kRoundingMargin = 1e-8;

}  // namespace libcont::detail
