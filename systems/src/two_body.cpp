#include "systems/two_body.hpp"

#include <bit>
#include <cmath>

#include "libcont/input_error.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::Matrix;
using libcont::Vector;

namespace systems {

TwoBodySystem::TwoBodySystem() {
  auto& p = parameters_;
  p.add("m1", 1000.0, Constraint::Positive, "main body mass");
  p.add("m2", 100.0, Constraint::Positive, "attached body mass");
  p.add("w1", 6.283, Constraint::Positive, "natural frequency of the main body");
  p.add("w2", 4.727, Constraint::Positive, "natural frequency of the attached body");
  p.add("xi1", 0.036, Constraint::NonNegative, "damping ratio of the main body");
  p.add("xi2", 0.20, Constraint::NonNegative, "damping ratio of the attached body");
  p.add("D", 0.05, Constraint::NonNegative, "gap between the bodies at rest");
  p.add("F0", 400.0, Constraint::Any, "force amplitude");
  p.add("omega", 6.0, Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  p.add("lambda", 1.0, Constraint::Any, "forcing intensity: F(t) = lambda F0 cos(omega t)");
  p.add_choice("contact", {"hertz", "newton"}, "hertz", "contact law");
  p.add("r", 1.0, Constraint::UnitInterval, "restitution coefficient (newton)");
  p.add("E", 2.1e11, Constraint::Positive, "Young's modulus of both bodies (hertz)");
  p.add("mu", 0.3, Constraint::NonNegative, "Poisson ratio of both bodies (hertz)");
  p.add("A", 0.5, Constraint::Positive, "Hertz curvature constant A");
  p.add("B", 0.5, Constraint::Positive, "Hertz curvature constant B");
  p.add("q", 0.318, Constraint::Positive, "Hertz coefficient q(A/B)");
  p.add_optional("K", Constraint::Positive,
                 "Hertz stiffness (N/m^1.5); derived from E, mu, A, B, q unless given");
  p.add("stick_velocity", 1e-9, Constraint::NonNegative,
        "relative rebound speed below which the bodies stick (newton)");
  p.add_choice("loading", {"harmonic", "random"}, "harmonic",
               "F(t) = lambda F0 cos(omega t), or lambda times a filtered-noise random load");
  p.add("seed", 1.0, Constraint::NonNegative, "seed of the random phases (whole number)");
  p.add("n", 100.0, Constraint::Positive, "number of harmonic components of the random load");
  p.add("sigma", 4242.642, Constraint::Positive, "standard deviation of the random load (N)");
  p.add("theta", 6.0, Constraint::Positive, "peak frequency of the load's spectral density");
  p.add("alpha", 5.0, Constraint::Positive, "bandwidth of the load's spectral density");
  p.add("dw", 0.2, Constraint::Positive, "frequency step of the random load's components");
  set_units("m", "s");
  p.set_units({{"m1", "kg"}, {"m2", "kg"}, {"w1", "rad/s"}, {"w2", "rad/s"}, {"xi1", "1"},
               {"xi2", "1"}, {"D", "m"}, {"F0", "N"}, {"omega", "rad/s"}, {"lambda", "1"},
               {"r", "1"}, {"E", "Pa"}, {"mu", "1"}, {"A", "1/m"}, {"B", "1/m"}, {"q", "1"},
               {"K", "N/m^1.5"}, {"stick_velocity", "m/s"}, {"seed", "1"}, {"n", "1"},
               {"sigma", "N"}, {"theta", "rad/s"}, {"alpha", "rad/s"}, {"dw", "rad/s"}});
  configure();
}

namespace {

std::optional<libcont::RandomLoading> random_load(const libcont::ParameterSet& p) {
  if (p.choice("loading") != "random") return std::nullopt;
  const double seed = p["seed"], count = p["n"];
  if (seed != std::floor(seed) || seed > 9007199254740992.0)  // 2^53: still exact
    throw libcont::InputError("parameter 'seed' must be a whole number in [0, 2^53]");
  if (count != std::floor(count) || count > 100000.0)
    throw libcont::InputError("parameter 'n' must be a whole number in [1, 100000]");
  const libcont::FilteredNoiseSpectrum density{p["sigma"], p["theta"], p["alpha"]};
  return libcont::RandomLoading(density, static_cast<int>(count), p["dw"],
                                static_cast<std::uint64_t>(seed));
}

}  // namespace

std::vector<std::pair<std::uint64_t, bool>> TwoBodySystem::declaration_parameters() const {
  std::vector<std::pair<std::uint64_t, bool>> values;
  for (const auto& parameter : parameters_.all())
    if (parameter.name != "lambda")
      values.emplace_back(std::bit_cast<std::uint64_t>(parameter.value), parameter.given);
  return values;
}

void TwoBodySystem::configure() {
  const auto& p = parameters_;
  lambda_ = p["lambda"];
  auto declaration = declaration_parameters();
  if (declaration == declared_with_) {  // lambda alone changed: the harmonic load's amplitude
    if (!random_) set_forces(structure().constant_force, harmonic_load(), {});
    return;
  }
  declared_with_.clear();  // until declared again (a refused set leaves it empty)
  f0_ = p["F0"];
  random_ = random_load(p);
  const libcont::ElasticBody body{p["E"], p["mu"], "E", "mu"};
  hertz_stiffness_ = p.given("K") ? p["K"] : libcont::hertz_stiffness(body, body, p["A"], p["B"], p["q"]);
  // The main body's spring and damper hold it to the ground; the coupling's (k2 = m2 w2^2,
  // c2 = 2 m2 xi2 w2) act on x1 - x2 + D and v1 - v2.
  const double m1 = p["m1"], m2 = p["m2"], w1 = p["w1"], w2 = p["w2"];
  const double k1 = m1 * w1 * w1, k2 = m2 * w2 * w2;
  const double c1 = 2.0 * m1 * p["xi1"] * w1, c2 = 2.0 * m2 * p["xi2"] * w2;
  libcont::LinearStructure s;
  s.coordinates = {"x1", "x2"};
  s.velocities = {"v1", "v2"};
  s.mass = Eigen::Vector2d(m1, m2).asDiagonal();
  s.stiffness = (Matrix(2, 2) << k1 + k2, -k2, -k2, k2).finished();
  s.damping = (Matrix(2, 2) << c1 + c2, -c2, -c2, c2).finished();
  s.constant_force = Eigen::Vector2d(-k2 * p["D"], k2 * p["D"]);
  s.cosine_force = harmonic_load();
  s.frequency = p["omega"];
  libcont::UnilateralContact contact;
  contact.name = "bodies";
  contact.normal = Eigen::Vector2d(-1.0, 1.0);  // the gap x2 - x1
  if (p.choice("contact") == "newton")
    contact.law = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
  else
    contact.law = libcont::HertzContact{hertz_stiffness_, 1.5};
  // lambda scales the load: a harmonic derivative (F0, 0), or the random load itself.
  libcont::ForcingParameter intensity{"lambda", std::nullopt};
  if (!random_) intensity.harmonic = libcont::ForcingDerivative{{}, Eigen::Vector2d(f0_, 0.0), {}};
  declare(s, {contact}, {intensity});
  declared_with_ = std::move(declaration);
}

double TwoBodySystem::forcing_period() const {
  return random_ ? random_->period() : ImpactingStructure::forcing_period();
}

Eigen::Vector2d TwoBodySystem::harmonic_load() const {
  return Eigen::Vector2d(random_ ? 0.0 : lambda_ * f0_, 0.0);
}

double TwoBodySystem::unit_load(double t) const {
  return random_ ? (*random_)(t) : f0_ * std::cos(structure().frequency * t);
}

Vector TwoBodySystem::default_initial_state() const {
  return (Vector(4) << 0.0, parameters_["D"], 0.0, 0.0).finished();
}

void TwoBodySystem::force_parameter_derivative(int /*parameter*/, double t, ConstVectorRef,
                                               ConstVectorRef, libcont::VectorRef df_dp) const {
  df_dp << unit_load(t), 0.0;
}

void TwoBodySystem::additional_force(double t, ConstVectorRef, ConstVectorRef,
                                     libcont::VectorRef f) const {
  f << force(t), 0.0;
}

// Zero: the load depends on t alone (differences would cost eight sums of the load).
void TwoBodySystem::additional_force_jacobian(double, ConstVectorRef, ConstVectorRef,
                                              libcont::MatrixRef d_dq, libcont::MatrixRef d_dv) const {
  d_dq.setZero();
  d_dv.setZero();
}

void TwoBodySystem::outputs(int /*mode*/, double t, ConstVectorRef /*x*/,
                            libcont::VectorRef values) const {
  values[0] = force(t);
}

}  // namespace systems
