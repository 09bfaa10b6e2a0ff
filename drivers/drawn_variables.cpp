#include "drawn_variables.hpp"

#include <algorithm>

namespace vicont {

std::vector<std::string> drawn_variables(const libcont::HybridSystem& system) {
  constexpr size_t kAll = 24, kDrawn = 12;
  const auto names = system.state_names();
  if (names.size() <= kAll) return names;
  std::vector<size_t> drawn;
  for (const int i : system.displacement_coordinates())
    if (drawn.size() < kDrawn) drawn.push_back(static_cast<size_t>(i));
  const size_t last = names.size() - 1;
  for (size_t k = 0; drawn.size() < kDrawn && k < kDrawn; ++k) {
    const size_t i = (k * last + (kDrawn - 1) / 2) / (kDrawn - 1);
    if (std::find(drawn.begin(), drawn.end(), i) == drawn.end()) drawn.push_back(i);
  }
  std::sort(drawn.begin(), drawn.end());
  std::vector<std::string> result;
  for (const size_t i : drawn) result.push_back(names[i]);
  return result;
}

}  // namespace vicont
