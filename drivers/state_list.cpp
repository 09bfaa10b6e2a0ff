#include "state_list.hpp"

#include <sstream>

#include "run_options.hpp"

namespace vicont {

std::vector<libcont::Vector> parse_state_list(const std::string& text) {
  std::vector<libcont::Vector> states;
  std::istringstream all(text);
  for (std::string state; std::getline(all, state, ';');) {
    std::vector<double> values =
        parse_number_list(state, "--initial-states: state " + std::to_string(states.size() + 1));
    states.push_back(
        Eigen::Map<libcont::Vector>(values.data(), static_cast<Eigen::Index>(values.size())));
  }
  return states;
}

}  // namespace vicont
