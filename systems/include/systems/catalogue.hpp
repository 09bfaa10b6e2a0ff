#pragma once
// The ready-to-run models, selectable by name.
#include <memory>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace systems {

struct CatalogueEntry {
  std::string name;
  std::string description;
};

const std::vector<CatalogueEntry>& catalogue();
// Throws libcont::InputError naming the unknown system and listing the known ones.
std::unique_ptr<libcont::HybridSystem> make_system(const std::string& name);

}  // namespace systems
