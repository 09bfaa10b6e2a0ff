#include "systems/hertz_friction.hpp"

#include <cmath>
#include <sstream>

#include "libcont/input_error.hpp"
#include "libcont/surface_profile.hpp"

using libcont::Constraint;
using libcont::EventKind;

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
  set_units("m", "s");
  p.set_units({{"M", "kg"}, {"Kr", "1"}, {"v0", "m/s"}, {"alpha", "1"}, {"c", "N/m^alpha"},
               {"A", "m^(1-n)"}, {"E1", "Pa"}, {"nu1", "1"}, {"E2", "Pa"}, {"nu2", "1"}});
  configure();
}

void HertzFrictionImpactSystem::configure() {
  const auto& p = parameters_;
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
    stiffness = libcont::profile_contact_stiffness(profile, {p["E1"], p["nu1"], "E1", "nu1"},
                                                   {p["E2"], p["nu2"], "E2", "nu2"});
  }
  if (!(p["Kr"] <= 1.0))
    throw libcont::InputError("parameter 'Kr' must lie in (0, 1] (got " + number_text(p["Kr"]) +
                              "): a rebound faster than the impact would create energy");
  contact_ = std::make_shared<const libcont::HertzFrictionContact>(stiffness, alpha, p["Kr"]);
  // x is the penetration: the gap is -x.
  libcont::UnilateralContact contact;
  contact.normal = libcont::Vector::Constant(1, -1.0);
  contact.law = std::shared_ptr<const libcont::RegimeContactLaw>(contact_);
  declare(libcont::LinearStructure::single(p["M"]), {contact});
}

std::string HertzFrictionImpactSystem::contact_origin() const {
  const std::string& name = parameters_.choice("geometry");
  const Geometry* geometry = surface_geometry(name);
  if (!geometry) return "stiffness: alpha and c given directly (defaults: data set (a))";
  return name + ": gap z = A r^n, n = " + number_text(geometry->profile_exponent) +
         "; alpha = 1 + 1/n, c from A, E1, nu1, E2, nu2";
}

libcont::EventOutcome HertzFrictionImpactSystem::apply_event(int mode, int event, double t,
                                                              libcont::VectorRef x) const {
  libcont::EventOutcome outcome = ImpactingStructure::apply_event(mode, event, t, x);
  outcome.terminal = outcome.kind == EventKind::ContactEnd;
  return outcome;
}

libcont::Vector HertzFrictionImpactSystem::default_initial_state() const {
  libcont::Vector x(2);
  x << 0.0, v0_;
  return x;
}

libcont::HertzFrictionImpact HertzFrictionImpactSystem::closed_form() const {
  return libcont::HertzFrictionImpact(*contact_, mass(), v0_);
}

}  // namespace systems
