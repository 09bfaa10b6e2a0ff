#include "systems/catalogue.hpp"

#include "libcont/input_error.hpp"
#include "systems/cantilever.hpp"
#include "systems/drop.hpp"
#include "systems/duffing.hpp"
#include "systems/hertz_friction.hpp"
#include "systems/moving_base.hpp"
#include "systems/oscillator_chain.hpp"
#include "systems/platform.hpp"
#include "systems/rheological.hpp"
#include "systems/two_body.hpp"

namespace systems {

const std::vector<CatalogueEntry>& catalogue() {
  static const std::vector<CatalogueEntry> entries = {
      {"moving-base", "impacting oscillator on a moving base, hard or soft"},
      {"drop", "mass dropped on a base under gravity, hard or soft"},
      {"rheological",
       "mass falling onto a viscoelastic, viscoplastic or elastoplastic damper"},
      {"cantilever-2dof",
       "two-degree-of-freedom cantilever beam hitting a base, hard or soft; e required"},
      {"two-body",
       "two-body vibro-impact system, Newton or Hertz contact, harmonic or random load"},
      {"platform",
       "vibro-impact platform with a rubber stop: Newton, linear or Hertz contact"},
      {"chain", "chain of N forced oscillators whose last mass hits a stop (large-state test)"},
      {"hertz-friction",
       "collinear Hertz impact with positional friction, Ateb closed form"},
      {"duffing", "forced Duffing oscillator, smooth: no contacts, cubic spring k3"},
  };
  return entries;
}

std::unique_ptr<libcont::HybridSystem> make_system(const std::string& name) {
  if (name == "moving-base") return std::make_unique<MovingBaseOscillator>();
  if (name == "drop") return std::make_unique<DropTest>();
  if (name == "rheological") return std::make_unique<RheologicalDamperDrop>();
  if (name == "cantilever-2dof") return std::make_unique<CantileverBeam>();
  if (name == "two-body") return std::make_unique<TwoBodySystem>();
  if (name == "platform") return std::make_unique<VibroImpactPlatform>();
  if (name == "chain") return std::make_unique<OscillatorChain>();
  if (name == "hertz-friction") return std::make_unique<HertzFrictionImpactSystem>();
  if (name == "duffing") return std::make_unique<DuffingOscillator>();
  std::string known;
  for (const auto& e : catalogue()) known += (known.empty() ? "" : ", ") + e.name;
  throw libcont::InputError("unknown system '" + name + "' (known: " + known + ")");
}

}  // namespace systems
