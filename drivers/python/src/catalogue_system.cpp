#include "catalogue_system.hpp"

#include "systems/catalogue.hpp"

namespace libcont_python {

namespace {

std::unique_ptr<libcont::HybridSystem> configured(const std::string& name,
                                                   const CatalogueSystem::Assignments& assignments) {
  auto system = systems::make_system(name);
  std::vector<libcont::HybridSystem::ParameterAssignment> batch;
  for (const auto& [parameter, text] : assignments) batch.push_back({parameter, text, ""});
  if (!batch.empty()) system->set_parameters(batch);
  return system;
}

}  // namespace

CatalogueSystem::CatalogueSystem(std::string name, Assignments assignments)
    : name_(std::move(name)), assignments_(std::move(assignments)),
      system_(configured(name_, assignments_)) {}

void CatalogueSystem::set(const Assignments& more) {
  Assignments all = assignments_;
  all.insert(all.end(), more.begin(), more.end());
  std::shared_ptr<libcont::HybridSystem> system = configured(name_, all);
  system_ = std::move(system);
  assignments_ = std::move(all);
}

std::unique_ptr<libcont::HybridSystem> CatalogueSystem::make() const {
  auto system = configured(name_, assignments_);
  system->parameters().check_required();
  return system;
}

libcont::SystemFactory CatalogueSystem::factory() const {
  return [name = name_, assignments = assignments_] {
    auto system = configured(name, assignments);
    system->parameters().check_required();
    return system;
  };
}

CatalogueSystem CatalogueSystem::with(const Assignments& more) const {
  Assignments all = assignments_;
  all.insert(all.end(), more.begin(), more.end());
  return CatalogueSystem(name_, std::move(all));
}

}  // namespace libcont_python
