#include "system_report.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "systems/cantilever.hpp"
#include "systems/catalogue.hpp"
#include "systems/drop.hpp"
#include "systems/linear_impact_system.hpp"
#include "systems/moving_base.hpp"

namespace vicont {

namespace {

// The damping in force is only known to the model; libcont has no generic accessor yet.
std::optional<double> contact_damping_in_force(const libcont::HybridSystem& system) {
  if (const auto* moving_base = dynamic_cast<const systems::MovingBaseOscillator*>(&system))
    return moving_base->contact_damping();
  if (const auto* drop = dynamic_cast<const systems::DropTest*>(&system))
    return drop->contact_damping();
  if (const auto* beam = dynamic_cast<const systems::CantileverBeam*>(&system))
    return beam->contact_damping();
  // A model file's contact with the shipped impact model (its parameters model, cs, r).
  if (const auto* model = dynamic_cast<const systems::LinearImpactSystem*>(&system)) {
    const auto& declared = model->description().contacts;
    for (size_t i = 0; i < declared.size(); ++i)
      if (declared[i].law == systems::ModelContact::Law::ImpactModel) return model->contacts()[i].damping();
  }
  return std::nullopt;
}

// The system at its defaults (a model file's from its description, read once).
std::unique_ptr<libcont::HybridSystem> default_system(const libcont::HybridSystem& system) {
  if (const auto* model = dynamic_cast<const systems::LinearImpactSystem*>(&system))
    return std::make_unique<systems::LinearImpactSystem>(model->shared_description());
  return systems::make_system(system.name());
}

std::string ten_digits(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

}  // namespace

std::string ContactDamping::explanation() const {
  if (!used) return "cs not used (hard impact model)";
  if (!derived) return "cs = " + ten_digits(value) + " (given)";
  return "cs = " + ten_digits(value) + " derived from r = " + ten_digits(restitution) +
         " by the " + relation + " energy relation";
}

std::optional<ContactDamping> contact_damping(const libcont::HybridSystem& system) {
  const auto value = contact_damping_in_force(system);
  if (!value) return std::nullopt;
  const auto& p = system.parameters();
  ContactDamping d;
  d.used = p.choice("model") == "soft";
  d.value = *value;
  d.derived = d.used && !p.given("cs");
  if (d.derived) {
    d.relation = p.choice("relation");
    d.restitution = p["r"];
  }
  return d;
}

std::string system_description(const libcont::HybridSystem& system) {
  if (const auto* model = dynamic_cast<const systems::LinearImpactSystem*>(&system))
    return model->description().description;
  for (const auto& entry : systems::catalogue())
    if (entry.name == system.name()) return entry.description;
  return {};
}

std::optional<std::string> model_file(const libcont::HybridSystem& system) {
  const auto* model = dynamic_cast<const systems::LinearImpactSystem*>(&system);
  std::error_code failed;
  // A description from text (model_from_json_text) has no file.
  if (!model || !std::filesystem::is_regular_file(model->description().source, failed)) return std::nullopt;
  const auto absolute = std::filesystem::absolute(model->description().source, failed);
  return failed ? model->description().source : absolute.lexically_normal().string();
}

void add_model_file(nlohmann::ordered_json& summary, const libcont::HybridSystem& system) {
  if (const auto file = model_file(system)) summary["model"] = *file;
}

std::string short_label(const libcont::HybridSystem& system) {
  const auto defaults = default_system(system);
  const auto& default_parameters = defaults->parameters();
  std::string label = system.name();
  for (const auto& p : system.parameters().all()) {
    const std::string value = system.parameters().value_text(p);
    bool changed = true;
    for (const auto& d : default_parameters.all())
      if (d.name == p.name) changed = value != default_parameters.value_text(d);
    // The impact model and the forcing frequency tell runs apart even at their defaults.
    if (p.name == "model" || p.name == "omega" || changed) label += ", " + p.name + " = " + value;
  }
  return label;
}

nlohmann::ordered_json parameters_json(const libcont::HybridSystem& system) {
  nlohmann::ordered_json result = nlohmann::ordered_json::object();
  for (const auto& p : system.parameters().all()) {
    if (!p.choices.empty())
      result[p.name] = system.parameters().choice(p.name);
    else if (p.given)
      result[p.name] = p.value;
  }
  return result;
}

nlohmann::ordered_json contact_damping_json(const libcont::HybridSystem& system) {
  const auto d = contact_damping(system);
  if (!d) return nullptr;
  nlohmann::ordered_json result = {{"used", d->used}, {"explanation", d->explanation()}};
  if (d->used) {
    result["cs"] = d->value;
    result["origin"] = d->derived ? "derived" : "given";
    if (d->derived) {
      result["energy_relation"] = d->relation;
      result["from_restitution"] = d->restitution;
    }
  }
  return result;
}

void print_system(std::ostream& out, const libcont::HybridSystem& system,
                  const std::vector<std::string>& varied) {
  out << "system      " << system.name() << " (" << system_description(system) << ")\n";
  out << "parameters  ";
  bool first = true;
  for (const auto& p : system.parameters().all()) {
    const bool varies = std::find(varied.begin(), varied.end(), p.name) != varied.end();
    out << (first ? "" : ", ") << p.name << " = "
        << (varies ? "(varies)" : system.parameters().value_text(p));
    first = false;
  }
  out << '\n';
  if (const auto d = contact_damping(system)) out << "contact     " << d->explanation() << '\n';
}

}  // namespace vicont
