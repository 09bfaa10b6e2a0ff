#include "configured_system.hpp"

#include <pybind11/pybind11.h>

#include "systems/catalogue.hpp"
#include "systems/linear_impact_system.hpp"
#include "systems/model_file.hpp"

namespace libcont_python {

namespace {

using Maker = std::function<std::unique_ptr<libcont::HybridSystem>()>;

// The model at its defaults; a model file is read (and checked) once, here.
Maker base_maker(ConfiguredSystem::Source source, const std::string& origin,
                 const std::string& source_name) {
  using Source = ConfiguredSystem::Source;
  if (source == Source::Catalogue) return [origin] { return systems::make_system(origin); };
  std::shared_ptr<const systems::ModelDescription> description =
      source == Source::ModelFile ? systems::read_model_description(origin)
                                  : systems::parse_model_description(origin, source_name);
  return [description]() -> std::unique_ptr<libcont::HybridSystem> {
    return std::make_unique<systems::LinearImpactSystem>(description);
  };
}

std::unique_ptr<libcont::HybridSystem> configured(const Maker& base,
                                                   const ConfiguredSystem::Assignments& assignments) {
  auto system = base();
  std::vector<libcont::HybridSystem::ParameterAssignment> batch;
  for (const auto& [parameter, text] : assignments) batch.push_back({parameter, text, ""});
  if (!batch.empty()) system->set_parameters(batch);
  return system;
}

// A UserWarning, as vicont's note on stderr, for a parameter given under its old name.
void warn_if_old_name(const libcont::HybridSystem& system, const std::string& given) {
  const libcont::ParameterSet& parameters = system.parameters();
  if (!parameters.is_alias(given)) return;
  const std::string text = "parameter '" + given + "' is called '" + parameters.canonical(given) +
                           "' now; the old name is accepted";
  if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 2) != 0) throw pybind11::error_already_set();
}

}  // namespace

std::string ConfiguredSystem::parameter_name(const std::string& given) const {
  warn_if_old_name(*system_, given);
  return system_->parameters().canonical(given);
}

ConfiguredSystem::ConfiguredSystem(Source source, std::string origin, Assignments assignments,
                                 std::string source_name)
    : base_(base_maker(source, origin, source_name)), source_(source), name_(std::move(origin)),
      source_name_(std::move(source_name)), assignments_(std::move(assignments)),
      system_(configured(base_, assignments_)) {
  for (const auto& assignment : assignments_) warn_if_old_name(*system_, assignment.first);
}

void ConfiguredSystem::set(const Assignments& more) {
  Assignments all = assignments_;
  all.insert(all.end(), more.begin(), more.end());
  std::shared_ptr<libcont::HybridSystem> system = configured(base_, all);
  system_ = std::move(system);
  assignments_ = std::move(all);
  for (const auto& assignment : more) warn_if_old_name(*system_, assignment.first);
}

std::unique_ptr<libcont::HybridSystem> ConfiguredSystem::make() const {
  auto system = configured(base_, assignments_);
  system->parameters().check_required();
  return system;
}

libcont::SystemFactory ConfiguredSystem::factory() const {
  return [base = base_, assignments = assignments_] {
    auto system = configured(base, assignments);
    system->parameters().check_required();
    return system;
  };
}

ConfiguredSystem ConfiguredSystem::with(const Assignments& more) const {
  ConfiguredSystem copy = *this;
  copy.set(more);
  return copy;
}

}  // namespace libcont_python
