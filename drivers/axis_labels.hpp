#pragma once
// Axis labels of a run's figures: a CSV column named as a paper would name it, with its
// unit in brackets from the model's declarations (HybridSystem::state_units, time_unit,
// Parameter::unit): "A_max:x1" -> "max x1 [m]", "omega" -> "omega [rad/s]",
// "lambda_1" -> "lambda_1 [1/s]". A nondimensional quantity (unit "1") reads "[-]"; one
// whose unit the model does not declare gets no bracket.
#include <string>

namespace libcont {
class HybridSystem;
}

namespace vicont {

// Takes the units of the run's system for the labels drawn after (a run has one system).
void use_units_of(const libcont::HybridSystem& system);

// The label of a column: a parameter, a state variable, t, A_max:<state>, an exponent
// (lambda_k, largest_exponent), a_i, a_e, v_r; any other column as it is.
std::string axis_label(const std::string& column);

// "name [unit]", "name [-]" for unit "1", "name" for no unit.
std::string with_unit(const std::string& name, const std::string& unit);

}  // namespace vicont
