#include "libcont/unilateral_contact.hpp"

#include <cmath>

namespace libcont {

namespace {
// Visits the law of a soft contact; a hard contact carries no force while closed.
template <class KelvinVoigt, class Hertz>
double soft(const ContactLaw& law, KelvinVoigt kelvin_voigt, Hertz hertz) {
  if (const auto* kv = std::get_if<KelvinVoigtContact>(&law)) return kelvin_voigt(*kv);
  if (const auto* h = std::get_if<HertzContact>(&law)) return hertz(*h);
  return 0.0;
}
}  // namespace

double UnilateralContact::damping() const {
  return soft(
      law, [](const KelvinVoigtContact& kv) { return kv.damping; },
      [](const HertzContact& h) { return h.damping; });
}

bool UnilateralContact::affine() const {
  const auto* kv = std::get_if<KelvinVoigtContact>(&law);
  return kv && !kv->clip_tension;
}

double UnilateralContact::stored_energy(double delta) const {
  return soft(
      law, [&](const KelvinVoigtContact& kv) { return kv.stored_energy(delta); },
      [&](const HertzContact& h) { return h.stored_energy(delta); });
}

double UnilateralContact::dissipated_power(double delta, double rate) const {
  return soft(
      law, [&](const KelvinVoigtContact& kv) { return kv.dissipated_power(delta, rate); },
      [&](const HertzContact& h) { return delta > 0.0 ? h.damping * rate * rate : 0.0; });
}

}  // namespace libcont
