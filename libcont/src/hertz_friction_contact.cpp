#include "libcont/hertz_friction_contact.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

HertzFrictionContact::HertzFrictionContact(double stiffness, double exponent, double restitution)
    : stiffness_(stiffness), exponent_(exponent), restitution_(restitution) {
  require_positive(stiffness, "Hertz friction contact stiffness c");
  require_positive(exponent, "Hertz friction contact exponent alpha");
  if (!(restitution > 0.0 && restitution <= 1.0))
    throw InputError("Hertz friction restitution coefficient Kr must lie in (0, 1] (got " +
                     number_text(restitution) + ")");
  approach_stiffness_ = approach_stiffness();
  separation_stiffness_ = separation_stiffness();
}

double HertzFrictionContact::stiffness_increment() const {
  const double k2 = restitution_ * restitution_;
  return stiffness_ * (1.0 - k2) / (1.0 + k2);
}

double HertzFrictionContact::approach_stiffness() const {
  return stiffness_ + stiffness_increment();
}

double HertzFrictionContact::separation_stiffness() const {
  return stiffness_ - stiffness_increment();
}

double HertzFrictionContact::force(double penetration, double penetration_rate) const {
  if (!(penetration > 0.0)) return 0.0;
  const double c = penetration_rate > 0.0 ? approach_stiffness() : separation_stiffness();
  return c * std::pow(penetration, exponent_);
}

double HertzFrictionContact::force_slope(double penetration, double penetration_rate) const {
  if (!(penetration > 0.0)) return 0.0;
  const double c = penetration_rate > 0.0 ? approach_stiffness() : separation_stiffness();
  return exponent_ * c * std::pow(penetration, exponent_ - 1.0);
}

std::string HertzFrictionContact::regime_name(int regime) const {
  return regime == Approach ? "approach" : regime == Separation ? "separation" : "flight";
}

int HertzFrictionContact::regime_of(const ContactInputs& in) const {
  if (in.penetration > 0.0 || (in.penetration == 0.0 && in.rate > 0.0))
    return in.rate > 0.0 ? Approach : Separation;
  return Flight;
}

double HertzFrictionContact::force(int regime, const ContactInputs& in) const {
  if (regime == Flight || !(in.penetration > 0.0)) return 0.0;
  const double c = regime == Approach ? approach_stiffness_ : separation_stiffness_;
  return c * std::pow(in.penetration, exponent_);
}

void HertzFrictionContact::force_gradient(int regime, const ContactInputs& in,
                                          double* gradient) const {
  const double c = regime == Approach ? approach_stiffness_ : separation_stiffness_;
  gradient[0] = regime != Flight && in.penetration > 0.0
                    ? exponent_ * c * std::pow(in.penetration, exponent_ - 1.0)
                    : 0.0;
  gradient[1] = 0.0;
}

RegimeSwitchSpec HertzFrictionContact::switch_spec(int regime, int k) const {
  if (regime == Approach)
    return {"maximal compression", EventDirection::Falling, Separation, EventKind::ModeSwitch};
  if (regime == Flight) return {"contact", EventDirection::Rising, Approach, EventKind::ContactStart};
  if (k == 0) return {"separation", EventDirection::Falling, Flight, EventKind::ContactEnd};
  return {"reloading", EventDirection::Rising, Approach, EventKind::ModeSwitch};
}

// On x' (the turns) or on x (contact and its end).
double HertzFrictionContact::switch_function(int regime, int k, const ContactInputs& in) const {
  return on_penetration(regime, k) ? in.penetration : in.rate;
}

void HertzFrictionContact::switch_gradient(int regime, int k, const ContactInputs&,
                                           double* gradient) const {
  gradient[0] = on_penetration(regime, k) ? 1.0 : 0.0;
  gradient[1] = on_penetration(regime, k) ? 0.0 : 1.0;
}

HertzFrictionImpact::HertzFrictionImpact(const HertzFrictionContact& contact, double mass,
                                         double impact_velocity)
    : contact_(contact),
      ateb_(contact.exponent()),
      mass_(mass),
      impact_velocity_(impact_velocity) {
  require_positive(mass, "mass M");
  require_positive(impact_velocity, "impact velocity v0");
  const double alpha = contact_.exponent();
  const double c1 = contact_.approach_stiffness();
  const double c2 = contact_.separation_stiffness();
  const double v0 = impact_velocity_;
  auto& r = result_;
  r.x_c = std::pow(mass_ * v0 * v0 * (alpha + 1.0) / (2.0 * c1), 1.0 / (alpha + 1.0));
  r.P_c = c1 * std::pow(r.x_c, alpha);
  r.P_c_star = c2 * std::pow(r.x_c, alpha);
  r.t_c = ateb_.quarter_integral() * r.x_c / v0;
  // Extreme data under- or overflow here (v0^2 of a subnormal v0 is 0), and every phase
  // of the closed form would be 0/0: refuse the data by name.
  if (!(r.x_c > 0.0) || !std::isfinite(r.x_c) || !(r.t_c > 0.0) || !std::isfinite(r.t_c) ||
      !std::isfinite(r.P_c) || !std::isfinite(r.P_c_star))
    throw InputError("impact velocity v0 = " + number_text(v0) + " with mass M = " +
                     number_text(mass_) + " and stiffness c = " + number_text(c1) +
                     " gives the maximum compression x_c = " + number_text(r.x_c) +
                     " and contact time t_c = " + number_text(r.t_c) +
                     ": not representable (under- or overflow)");
  // The separation is the approach run backwards with speed K_r v0 (energy of c2).
  r.t_y = r.t_c + r.t_c / contact_.restitution();
  r.rebound_velocity = -contact_.restitution() * v0;
}

HertzFrictionImpact::Stage HertzFrictionImpact::stage(double t) const {
  if (t < 0.0) return Stage::Before;
  if (t <= result_.t_c) return Stage::Approach;
  if (t <= result_.t_y) return Stage::Separation;
  return Stage::After;
}

double HertzFrictionImpact::approach_phase(double t) const {
  return 0.5 * (1.0 + contact_.exponent()) * impact_velocity_ * t / result_.x_c;
}

double HertzFrictionImpact::separation_phase(double t) const {
  return 0.5 * (1.0 + contact_.exponent()) * (-result_.rebound_velocity) * (t - result_.t_c) /
         result_.x_c;
}

double HertzFrictionImpact::penetration(double t) const {
  switch (stage(t)) {
    case Stage::Before: return impact_velocity_ * t;
    case Stage::Approach: return result_.x_c * ateb_.sine(approach_phase(t));
    case Stage::Separation: return result_.x_c * ateb_.cosine(separation_phase(t));
    case Stage::After: break;
  }
  return result_.rebound_velocity * (t - result_.t_y);
}

double HertzFrictionImpact::velocity(double t) const {
  // dx/dt = x_c dSa/dphi dphi/dt, and dphi/dt = (1+alpha)/2 speed / x_c.
  const double half = 0.5 * (1.0 + contact_.exponent());
  switch (stage(t)) {
    case Stage::Before: return impact_velocity_;
    case Stage::Approach: return half * impact_velocity_ * ateb_.sine_slope(approach_phase(t));
    case Stage::Separation:
      return half * (-result_.rebound_velocity) * ateb_.cosine_slope(separation_phase(t));
    case Stage::After: break;
  }
  return result_.rebound_velocity;
}

double HertzFrictionImpact::force(double t) const {
  const double x = penetration(t);
  switch (stage(t)) {
    case Stage::Approach:
      return contact_.approach_stiffness() * std::pow(std::max(x, 0.0), contact_.exponent());
    case Stage::Separation:
      return contact_.separation_stiffness() * std::pow(std::max(x, 0.0), contact_.exponent());
    default: return 0.0;
  }
}

}  // namespace libcont
