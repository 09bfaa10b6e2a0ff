#include "libcont/rheological_damper.hpp"

#include <algorithm>
#include <cmath>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

void require_positive(double value, const char* name, RheologicalLaw law) {
  if (!(std::isfinite(value) && value > 0.0))
    throw InputError(std::string("rheological damper (") + to_string(law) + "): " + name +
                     " must be positive and finite (got " + std::to_string(value) + ")");
}

void require_non_negative(double value, const char* name, RheologicalLaw law) {
  if (!(std::isfinite(value) && value >= 0.0))
    throw InputError(std::string("rheological damper (") + to_string(law) + "): " + name +
                     " must be non-negative and finite (got " + std::to_string(value) + ")");
}

}  // namespace

std::string to_string(RheologicalLaw law) {
  switch (law) {
    case RheologicalLaw::Viscoelastic: return "viscoelastic";
    case RheologicalLaw::ElasticViscoplastic: return "elastic-viscoplastic";
    case RheologicalLaw::Elastoplastic: return "elastoplastic";
  }
  return "unknown";
}

RheologicalDamper::RheologicalDamper(RheologicalLaw law, const RheologicalParameters& p)
    : law_(law), parameters_(p) {
  require_positive(p.k1, "k1", law);
  if (law != RheologicalLaw::Elastoplastic) require_positive(p.c, "c", law);
  if (law != RheologicalLaw::Viscoelastic) require_positive(p.T0, "T0", law);
  if (has_spring_k2()) require_non_negative(p.k2, "k2", law);

  using R = DamperRegime;
  const double k1 = p.k1, k2 = has_spring_k2() ? p.k2 : 0.0;
  // R = k1 (s - z) in every contact regime, 0 when detached.
  const AffineForm contact_reaction{k1, 0.0, -k1, 0.0};
  for (R regime : {R::Stuck, R::Slipping, R::SlippingBack}) reaction_[index(regime)] = contact_reaction;

  const AffineForm gap_closes{1.0, 0.0, -1.0, 0.0};  // s - z: penetration into the bumper
  const RegimeSwitch contact{"contact", gap_closes, EventDirection::Rising, R::Stuck,
                             EventKind::ContactStart};
  const RegimeSwitch separation{"separation", contact_reaction, EventDirection::Falling,
                                R::Detached, EventKind::ContactEnd};
  switches_[index(R::Detached)] = {contact};

  switch (law) {
    case RheologicalLaw::Viscoelastic: {
      // c z' = R - k2 z; detached R = 0 and the node relaxes back.
      internal_rate_[index(R::Detached)] = {0.0, 0.0, -k2 / p.c, 0.0};
      internal_rate_[index(R::Stuck)] = {k1 / p.c, 0.0, -(k1 + k2) / p.c, 0.0};
      switches_[index(R::Stuck)] = {separation};
      break;
    }
    case RheologicalLaw::ElasticViscoplastic: {
      // The slider holds the node while R <= T0; beyond, the dashpot takes R - T0.
      const AffineForm slider_excess{k1, 0.0, -k1, -p.T0};  // R - T0
      internal_rate_[index(R::Slipping)] = {k1 / p.c, 0.0, -k1 / p.c, -p.T0 / p.c};
      switches_[index(R::Stuck)] = {
          separation,
          {"slip", slider_excess, EventDirection::Rising, R::Slipping, EventKind::ModeSwitch}};
      switches_[index(R::Slipping)] = {
          {"stick", slider_excess, EventDirection::Falling, R::Stuck, EventKind::ModeSwitch}};
      break;
    }
    case RheologicalLaw::Elastoplastic: {
      // Slider force T = R - k2 z; on the yield surface T stays at +-T0, which fixes
      // z' = k1 s' / (k1 + k2) (d/dt (k1 (s - z) - k2 z) = 0).
      const AffineForm yield_forward{k1, 0.0, -(k1 + k2), -p.T0};  // T - T0
      const AffineForm yield_back{k1, 0.0, -(k1 + k2), p.T0};      // T + T0
      const AffineForm body_rate{0.0, 1.0, 0.0, 0.0};              // s'
      const AffineForm on_yield_surface{0.0, k1 / (k1 + k2), 0.0, 0.0};
      internal_rate_[index(R::Slipping)] = on_yield_surface;
      internal_rate_[index(R::SlippingBack)] = on_yield_surface;
      switches_[index(R::Stuck)] = {
          separation,
          {"slip", yield_forward, EventDirection::Rising, R::Slipping, EventKind::ModeSwitch},
          {"slip-back", yield_back, EventDirection::Falling, R::SlippingBack,
           EventKind::ModeSwitch}};
      switches_[index(R::Slipping)] = {
          {"stick", body_rate, EventDirection::Falling, R::Stuck, EventKind::ModeSwitch}};
      switches_[index(R::SlippingBack)] = {
          {"stick", body_rate, EventDirection::Rising, R::Stuck, EventKind::ModeSwitch},
          separation};
      break;
    }
  }
}

int RheologicalDamper::regime_count() const {
  switch (law_) {
    case RheologicalLaw::Viscoelastic: return 2;
    case RheologicalLaw::ElasticViscoplastic: return 3;
    case RheologicalLaw::Elastoplastic: return 4;
  }
  return 0;
}

std::string RheologicalDamper::regime_name(DamperRegime regime) const {
  switch (regime) {
    case DamperRegime::Detached: return "free";
    case DamperRegime::Stuck: return law_ == RheologicalLaw::Viscoelastic ? "contact" : "stick";
    case DamperRegime::Slipping: return "slip";
    case DamperRegime::SlippingBack: return "slip-back";
  }
  return "unknown";
}

DamperRegime RheologicalDamper::regime_of(double s, double rate, double z) const {
  if (!(s > z)) return DamperRegime::Detached;
  const double reaction = parameters_.k1 * (s - z);
  switch (law_) {
    case RheologicalLaw::Viscoelastic: return DamperRegime::Stuck;
    case RheologicalLaw::ElasticViscoplastic:
      return reaction > parameters_.T0 ? DamperRegime::Slipping : DamperRegime::Stuck;
    case RheologicalLaw::Elastoplastic: {
      const double slider_force = reaction - parameters_.k2 * z;
      if (slider_force > parameters_.T0 && rate > 0.0) return DamperRegime::Slipping;
      if (slider_force < -parameters_.T0 && rate < 0.0) return DamperRegime::SlippingBack;
      return DamperRegime::Stuck;
    }
  }
  return DamperRegime::Stuck;
}

const AffineForm& RheologicalDamper::reaction(DamperRegime regime) const {
  return reaction_[index(regime)];
}

const AffineForm& RheologicalDamper::internal_rate(DamperRegime regime) const {
  return internal_rate_[index(regime)];
}

const std::vector<RegimeSwitch>& RheologicalDamper::switches(DamperRegime regime) const {
  return switches_[index(regime)];
}

double RheologicalDamper::bumper_position(DamperRegime regime, double s, double z) const {
  return regime == DamperRegime::Detached ? z : s;
}

double RheologicalDamper::stored_energy(DamperRegime regime, double s, double z) const {
  const double stretch = bumper_position(regime, s, z) - z;
  const double k2 = has_spring_k2() ? parameters_.k2 : 0.0;
  return 0.5 * parameters_.k1 * stretch * stretch + 0.5 * k2 * z * z;
}

double RheologicalDamper::dissipated_power(DamperRegime regime, double s, double rate,
                                           double z) const {
  const double z_rate = internal_rate(regime)(s, rate, z);
  switch (law_) {
    case RheologicalLaw::Viscoelastic: return parameters_.c * z_rate * z_rate;
    case RheologicalLaw::ElasticViscoplastic:
      return regime == DamperRegime::Slipping ? (parameters_.c * z_rate + parameters_.T0) * z_rate
                                              : 0.0;
    case RheologicalLaw::Elastoplastic:
      return (regime == DamperRegime::Slipping || regime == DamperRegime::SlippingBack)
                 ? parameters_.T0 * std::abs(z_rate)
                 : 0.0;
  }
  return 0.0;
}

namespace {
DamperRegime as_regime(int regime) { return static_cast<DamperRegime>(regime); }
void put(const AffineForm& form, double* gradient) {
  gradient[0] = form.s;
  gradient[1] = form.rate;
  gradient[2] = form.z;
}
}  // namespace

int RheologicalDamper::regime_of(const ContactInputs& in) const {
  return static_cast<int>(regime_of(in.penetration, in.rate, in.internal[0]));
}

double RheologicalDamper::force(int regime, const ContactInputs& in) const {
  return reaction(as_regime(regime))(in.penetration, in.rate, in.internal[0]);
}

void RheologicalDamper::force_gradient(int regime, const ContactInputs&, double* gradient) const {
  put(reaction(as_regime(regime)), gradient);
}

void RheologicalDamper::internal_rates(int regime, const ContactInputs& in, double* rates) const {
  rates[0] = internal_rate(as_regime(regime))(in.penetration, in.rate, in.internal[0]);
}

void RheologicalDamper::internal_jacobian(int regime, const ContactInputs&, double* jacobian) const {
  put(internal_rate(as_regime(regime)), jacobian);
}

int RheologicalDamper::switch_count(int regime) const {
  return static_cast<int>(switches(as_regime(regime)).size());
}

RegimeSwitchSpec RheologicalDamper::switch_spec(int regime, int k) const {
  const RegimeSwitch& s = switches(as_regime(regime))[static_cast<size_t>(k)];
  return {s.name, s.direction, static_cast<int>(s.next), s.kind, true};
}

double RheologicalDamper::switch_function(int regime, int k, const ContactInputs& in) const {
  return switches(as_regime(regime))[static_cast<size_t>(k)].condition(in.penetration, in.rate,
                                                                       in.internal[0]);
}

void RheologicalDamper::switch_gradient(int regime, int k, const ContactInputs&,
                                        double* gradient) const {
  put(switches(as_regime(regime))[static_cast<size_t>(k)].condition, gradient);
}

bool RheologicalDamper::stiff(int regime, double frequency, double mobility) const {
  const double node_rate = std::abs(internal_rate(as_regime(regime)).z);
  return node_rate > 50.0 * std::max(frequency, std::sqrt(parameters_.k1 * mobility));
}

double RheologicalDamper::stored_energy(int regime, const ContactInputs& in) const {
  return stored_energy(as_regime(regime), in.penetration, in.internal[0]);
}

double RheologicalDamper::dissipated_power(int regime, const ContactInputs& in) const {
  return dissipated_power(as_regime(regime), in.penetration, in.rate, in.internal[0]);
}

double RheologicalDamper::penetration(int regime, const ContactInputs& in) const {
  const DamperRegime r = as_regime(regime);
  return r == DamperRegime::Detached ? 0.0 : bumper_position(r, in.penetration, in.internal[0]);
}

double RheologicalDamper::approach_velocity(int regime, const ContactInputs& in) const {
  if (as_regime(regime) != DamperRegime::Detached) return 0.0;
  return in.rate - internal_rate(DamperRegime::Detached)(in.penetration, in.rate, in.internal[0]);
}

}  // namespace libcont
