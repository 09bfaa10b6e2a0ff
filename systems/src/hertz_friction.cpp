#include "systems/hertz_friction.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "libcont/input_error.hpp"
#include "libcont/surface_profile.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventDirection;
using libcont::EventKind;
using libcont::EventOutcome;

namespace systems {

namespace {

// Data set (a) of doc/models/hertz_friction.md, used when the contact is given directly.
constexpr double default_alpha = 1.5;
constexpr double default_stiffness = 2.1873e6;  // N/m^1.5, rubber ball on concrete

// Data set (a) gives c, not the radius: this is the relative radius for which Hertz's
// c = (4/3) sqrt(R) / (Q1 + Q2) equals 2.1873e6 with the source's rubber and concrete,
// so that geometry = spheres at its defaults is data set (a) again.
constexpr double data_set_a_radius = 0.023670697200576963;  // m

// The gap profiles z = A r^n of the source, with its A (spheres: A = 1/(2R)).
struct Geometry {
  const char* name;
  double profile_exponent;     // n
  double default_coefficient;  // A
};

constexpr Geometry surface_geometries[] = {
    {"spheres", 2.0, 0.5 / data_set_a_radius},
    {"quartic", 4.0, 1e4},
    {"singular", 1.5, 5.0},
};

std::string number_text(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

const Geometry* surface_geometry(const std::string& name) {
  for (const auto& g : surface_geometries)
    if (name == g.name) return &g;
  return nullptr;  // "stiffness": alpha and c given directly
}

}  // namespace

HertzFrictionImpactSystem::HertzFrictionImpactSystem() {
  auto& p = parameters_;
  p.add("M", 0.1, Constraint::Positive, "mass of the impacting body (kg)");
  p.add("Kr", 0.73, Constraint::Positive,
        "restitution coefficient, in (0, 1]: rebound speed / impact speed");
  p.add("v0", 1.0, Constraint::Positive, "impact velocity (m/s)");
  p.add_choice("geometry", {"stiffness", "spheres", "quartic", "singular"}, "stiffness",
               "how the contact is given: alpha and c directly, or the gap profile z = A r^n "
               "(spheres n = 2, quartic n = 4, singular n = 3/2) with E1, nu1, E2, nu2");
  p.add_optional("alpha", Constraint::Positive,
                 "contact exponent; default 3/2 with geometry = stiffness, else 1 + 1/n");
  p.add_optional("c", Constraint::Positive,
                 "contact stiffness (N/m^alpha), geometry = stiffness only; default 2.1873e6");
  p.add_optional("A", Constraint::Positive,
                 "gap profile coefficient of z = A r^n (spheres: 1/(2R)); default 1e4 "
                 "(quartic), 5 (singular), 21.1232 (spheres: R = 23.67 mm, data set (a))");
  p.add("E1", 0.8e7, Constraint::Positive, "Young's modulus of body 1 (Pa; rubber)");
  p.add("nu1", 0.5, Constraint::UnitInterval, "Poisson ratio of body 1, at most 0.5");
  p.add("E2", 2750e7, Constraint::Positive, "Young's modulus of body 2 (Pa; concrete)");
  p.add("nu2", 0.15, Constraint::UnitInterval, "Poisson ratio of body 2, at most 0.5");
  configure();
}

void HertzFrictionImpactSystem::configure() {
  const auto& p = parameters_;
  m_ = p["M"];
  v0_ = p["v0"];
  for (const char* nu : {"nu1", "nu2"})
    if (p[nu] > 0.5)
      throw libcont::InputError(std::string("parameter '") + nu + "' must be at most 0.5 (got " +
                                number_text(p[nu]) + "): a Poisson ratio");
  const Geometry* geometry = surface_geometry(p.choice("geometry"));
  double alpha = p.given("alpha") ? p["alpha"] : default_alpha;
  double stiffness = p.given("c") ? p["c"] : default_stiffness;
  if (geometry) {
    const std::string which = std::string("geometry = ") + geometry->name;
    if (p.given("c"))
      throw libcont::InputError("parameter 'c' cannot be given with " + which +
                                ": c follows from A, E1, nu1, E2, nu2");
    const libcont::SurfaceProfile profile{geometry->profile_exponent,
                                          p.given("A") ? p["A"] : geometry->default_coefficient};
    const double implied = libcont::profile_force_exponent(profile);
    if (p.given("alpha") && std::abs(alpha - implied) > 1e-12 * implied)
      throw libcont::InputError("parameter 'alpha' = " + number_text(alpha) + " contradicts " +
                                which + " (alpha = 1 + 1/n = " + number_text(implied) +
                                "); leave alpha unset");
    alpha = implied;
    stiffness = libcont::profile_contact_stiffness(profile, {p["E1"], p["nu1"]},
                                                   {p["E2"], p["nu2"]});
  }
  if (!(p["Kr"] <= 1.0))
    throw libcont::InputError("parameter 'Kr' must lie in (0, 1] (got " + number_text(p["Kr"]) +
                              "): a rebound faster than the impact would create energy");
  contact_ = libcont::HertzFrictionContact(stiffness, alpha, p["Kr"]);
}

std::string HertzFrictionImpactSystem::contact_origin() const {
  const std::string& name = parameters_.choice("geometry");
  const Geometry* geometry = surface_geometry(name);
  if (!geometry) return "stiffness: alpha and c given directly (defaults: data set (a))";
  return name + ": gap z = A r^n, n = " + number_text(geometry->profile_exponent) +
         "; alpha = 1 + 1/n, c from A, E1, nu1, E2, nu2";
}

std::string HertzFrictionImpactSystem::mode_name(int mode) const {
  return mode == Approach ? "approach" : "separation";
}

double HertzFrictionImpactSystem::mode_stiffness(int mode) const {
  return mode == Approach ? contact_.approach_stiffness() : contact_.separation_stiffness();
}

void HertzFrictionImpactSystem::vector_field(int mode, double, ConstVectorRef x,
                                             libcont::VectorRef dxdt) const {
  // The force of the mode, not of the sign of v: the switch is the event v = 0, so that
  // the vector field stays smooth within a mode.
  const double force = x[0] > 0.0 ? mode_stiffness(mode) * std::pow(x[0], contact_.exponent()) : 0.0;
  dxdt[0] = x[1];
  dxdt[1] = -force / m_;
}

void HertzFrictionImpactSystem::state_jacobian(int mode, double, ConstVectorRef x,
                                               libcont::MatrixRef jac) const {
  const double slope =
      x[0] > 0.0 ? contact_.exponent() * mode_stiffness(mode) * std::pow(x[0], contact_.exponent() - 1.0)
                 : 0.0;
  jac << 0.0, 1.0, -slope / m_, 0.0;
}

libcont::EventSpec HertzFrictionImpactSystem::event_spec(int mode, int) const {
  if (mode == Approach) return {"maximal compression", EventDirection::Falling, EventKind::ModeSwitch};
  return {"separation", EventDirection::Falling, EventKind::ContactEnd};
}

double HertzFrictionImpactSystem::event_function(int mode, int, double, ConstVectorRef x) const {
  return mode == Approach ? x[1] : x[0];
}

void HertzFrictionImpactSystem::event_gradient(int mode, int, double, ConstVectorRef,
                                               libcont::VectorRef dh_dx, double& dh_dt) const {
  if (mode == Approach)
    dh_dx << 0.0, 1.0;
  else
    dh_dx << 1.0, 0.0;
  dh_dt = 0.0;
}

EventOutcome HertzFrictionImpactSystem::apply_event(int mode, int, double,
                                                    libcont::VectorRef) const {
  if (mode == Approach) return {Separation, EventKind::ModeSwitch, false};
  return {Separation, EventKind::ContactEnd, true};  // the impact is over
}

libcont::Vector HertzFrictionImpactSystem::default_initial_state() const {
  libcont::Vector x(2);
  x << 0.0, v0_;
  return x;
}

int HertzFrictionImpactSystem::mode_of(double, ConstVectorRef x) const {
  return x[1] > 0.0 ? Approach : Separation;
}

double HertzFrictionImpactSystem::kinetic_energy(double, ConstVectorRef x) const {
  return 0.5 * m_ * x[1] * x[1];
}

double HertzFrictionImpactSystem::relative_velocity(int, int, double, ConstVectorRef x) const {
  return x[1];
}

libcont::HertzFrictionImpact HertzFrictionImpactSystem::closed_form() const {
  return libcont::HertzFrictionImpact(contact_, m_, v0_);
}

namespace {

// Keeps the two events of the impact and passes everything on to the caller's observer.
struct ImpactEvents : libcont::FlowObserver {
  explicit ImpactEvents(libcont::FlowObserver* next) : next(next) {}
  void on_event(const libcont::EventRecord& e) override {
    if (e.mode_before == HertzFrictionImpactSystem::Approach) turn = e;
    if (e.kind == EventKind::ContactEnd) end = e;
    if (next) next->on_event(e);
  }
  void on_sample(double t, ConstVectorRef x, int mode) override {
    if (next) next->on_sample(t, x, mode);
  }
  libcont::FlowObserver* next;
  std::optional<libcont::EventRecord> turn, end;
};

}  // namespace

SimulatedImpact simulate_impact(const HertzFrictionImpactSystem& system,
                                const libcont::FlowOptions& options,
                                libcont::FlowObserver* observer, libcont::SampleGrid samples) {
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  ImpactEvents events(observer);
  // The impact ends by its terminal event long before this bound (t_y from the closed
  // form); reaching the bound means it did not end, which is reported.
  const double bound = 4.0 * system.closed_form().characteristics().t_y;
  SimulatedImpact result;
  result.report = flow.advance(state, bound, &events, samples);
  if (!result.report.ok()) {
    result.failure = libcont::to_string(result.report.status) + ": " + result.report.message;
    return result;
  }
  if (!events.turn || !events.end) {
    result.failure = "the impact did not end within 4 t_y of the closed form";
    return result;
  }
  const auto& contact = system.contact();
  auto& r = result.characteristics;
  r.x_c = events.turn->x_minus[0];
  r.t_c = events.turn->t;
  r.P_c = contact.approach_stiffness() * std::pow(r.x_c, contact.exponent());
  r.P_c_star = contact.separation_stiffness() * std::pow(r.x_c, contact.exponent());
  r.t_y = events.end->t;
  r.rebound_velocity = events.end->x_minus[1];
  return result;
}

}  // namespace systems
