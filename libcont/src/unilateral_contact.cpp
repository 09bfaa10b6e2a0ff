#include "libcont/unilateral_contact.hpp"

#include <cmath>

namespace libcont {

double SurfaceMotion::position(double w, double t) const {
  if (!moves()) return offset;
  return offset + sine * std::sin(w * t) + cosine * std::cos(w * t);
}

double SurfaceMotion::velocity(double w, double t) const {
  if (!moves()) return 0.0;
  return w * (sine * std::cos(w * t) - cosine * std::sin(w * t));
}

double SurfaceMotion::acceleration(double w, double t) const {
  if (!moves()) return 0.0;
  return -w * w * (sine * std::sin(w * t) + cosine * std::cos(w * t));
}

double SurfaceMotion::jerk(double w, double t) const {
  if (!moves()) return 0.0;
  return -w * w * w * (sine * std::cos(w * t) - cosine * std::sin(w * t));
}

namespace {
// Visits the law of a soft contact; a hard contact carries no force while closed.
template <class KelvinVoigt, class Hertz>
double soft(const ContactLaw& law, KelvinVoigt kelvin_voigt, Hertz hertz) {
  if (const auto* kv = std::get_if<KelvinVoigtContact>(&law)) return kelvin_voigt(*kv);
  if (const auto* h = std::get_if<HertzContact>(&law)) return hertz(*h);
  return 0.0;
}
}  // namespace

double UnilateralContact::force(double delta, double rate) const {
  return soft(
      law, [&](const KelvinVoigtContact& kv) { return kv.force(delta, rate); },
      [&](const HertzContact& h) { return h.force(delta, rate); });
}

double UnilateralContact::damping() const {
  return soft(
      law, [](const KelvinVoigtContact& kv) { return kv.damping; },
      [](const HertzContact& h) { return h.damping; });
}

double UnilateralContact::force_slope(double delta, double rate) const {
  return soft(
      law,
      [&](const KelvinVoigtContact& kv) {
        return (kv.clip_tension && kv.force(delta, rate) <= 0.0) ? 0.0 : kv.stiffness;
      },
      [&](const HertzContact& h) { return h.force_slope(delta); });
}

double UnilateralContact::damping_slope(double delta, double rate) const {
  return soft(
      law,
      [&](const KelvinVoigtContact& kv) {
        return (kv.clip_tension && kv.force(delta, rate) <= 0.0) ? 0.0 : kv.damping;
      },
      [&](const HertzContact& h) { return delta > 0.0 ? h.damping : 0.0; });
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
