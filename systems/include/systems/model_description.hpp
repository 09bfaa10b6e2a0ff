#pragma once
// A model file read into memory (doc/models/model-files.md): a linear structure with
// unilateral contacts whose every number is an expression over the model's named
// parameters, parsed once. LinearImpactSystem evaluates it at every configure().
// The sizes (degrees of freedom, matrix shapes) are fixed by the file; only values change
// with the parameters.
#include <optional>
#include <string>
#include <vector>

#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/parameters.hpp"
#include "libcont/rheological_damper.hpp"
#include "systems/lumped_beam.hpp"
#include "systems/model_expression.hpp"

namespace systems {

struct ModelParameter {
  std::string name;
  double value = 0.0;  // the default (unused when required)
  libcont::Constraint rule = libcont::Constraint::Any;
  std::string description;
  std::string unit;  // "unit": as figures print it; empty: not given
  bool required = false;  // no default: a run refuses to start until it is set
  // Derived unless given: `otherwise` over the parameters above it (cs-like, or the
  // cantilever's masses from its set).
  bool optional = false;
  std::optional<ModelExpression> otherwise;
  // A named choice (expressions see its index from 0) and its default.
  std::vector<std::string> choices;
  std::string choice;
  // Earlier names still accepted for it, with a note (ParameterSet::add_alias).
  std::vector<std::string> old_names;
};

// A named intermediate value ("derived": {"W": "..."}), usable by the expressions after it.
struct DerivedValue {
  std::string name;
  ModelExpression expression;
};

// A rule relating parameters: `positive` must be > 0 at every configure(), else the
// message is the error (l2 < l: "l - l2").
struct ModelCondition {
  ModelExpression positive;
  std::string message;
};

using ExpressionVector = std::vector<ModelExpression>;
using ExpressionMatrix = std::vector<ExpressionVector>;  // rows

// N equal masses in a line with springs between neighbours (oscillator_chain.hpp's
// pattern); the ends say whether the first and the last mass are also tied to a wall.
struct ChainGenerator {
  int count = 1;
  ModelExpression mass, stiffness;
  ModelExpression damping{0.0};         // a dashpot from each mass to the ground: C = c I
  ModelExpression spring_damping{0.0};  // a dashpot beside each spring: C += c_k (K / k)
  bool first_fixed = true, last_fixed = false;
};

// An Euler-Bernoulli beam lumped into N masses (lumped_beam.hpp), damping C = c M.
struct BeamGenerator {
  int count = 1;
  BeamSupports supports = BeamSupports::ClampedFree;
  ModelExpression length{1.0}, rigidity{1.0}, mass{1.0}, tip_mass{0.0}, damping{0.0};
};

// The impact model of the shipped models (impact_model.hpp): its parameters r, ks, cs,
// model, relation and stick_velocity with these defaults.
struct ImpactModelDefaults {
  double restitution = 1.0;
  double contact_stiffness = 200000.0;
  std::string resting = "sticks to the surface";
};

// A random load F(t) (random_loading.hpp: a seeded sum of cosines with the filtered-noise
// spectral density sigma, theta, alpha), applied as weight_i F(t) on each coordinate.
struct RandomForcing {
  ExpressionVector weights;
  ModelExpression sigma{4242.642}, theta{6.0}, alpha{5.0};
  ModelExpression components{100.0}, step{0.2}, seed{1.0};
};

struct ModelContact {
  enum class Law { Hard, Soft, Hertz, ImpactModel, HertzFriction, Rheological };
  std::string name;
  std::string closed_name;  // the closed mode's name in reports; empty: the law's default
  ExpressionVector normal;  // one entry per degree of freedom
  // The surface s(t) = offset + sine sin(w t) + cosine cos(w t); with `polar`, sine holds
  // the amplitude A and cosine the phase phi of offset + A sin(w t + phi).
  ModelExpression offset{0.0}, sine{0.0}, cosine{0.0};
  bool polar = false;
  bool moves = false;  // sine, cosine or amplitude given
  Law law = Law::Hard;
  // Hard: restitution, stick_velocity. Soft: stiffness and damping, or damping from
  // restitution on `mass` by `relation`. Hertz: stiffness, exponent, damping.
  // ImpactModel: the impacting `mass` that c_s is derived for. HertzFriction: stiffness c,
  // exponent alpha, restitution K_r. Rheological: `damper`, stiffness k1, second_stiffness
  // k2, damping c, limit_force T0.
  ModelExpression restitution{1.0}, stick_velocity{1e-9};
  ModelExpression stiffness{0.0}, damping{0.0}, exponent{1.5}, mass{1.0};
  ModelExpression second_stiffness{0.0}, limit_force{0.0};
  libcont::RheologicalLaw damper = libcont::RheologicalLaw::Viscoelastic;
  bool damping_from_restitution = false;
  libcont::EnergyRelation relation = libcont::EnergyRelation::Exact;
};

struct ModelDescription {
  std::string source;  // the file (or the name given for a text) that messages name
  std::string text;    // the JSON as read (what a sweep's checkpoint compares)
  std::string name, description;
  std::vector<ModelParameter> parameters;
  std::vector<DerivedValue> derived;  // values index: parameters, then derived, in order
  std::vector<ModelCondition> conditions;
  std::optional<ImpactModelDefaults> impact_model;

  int size = 0;  // degrees of freedom
  std::vector<std::string> coordinates, velocities;  // empty: the structure's defaults
  // "units": of the coordinates, of time and of the parameters without one of their own
  // ("m", "s"; "1": nondimensional); empty: not given.
  std::string coordinate_unit, time_unit, parameter_unit;
  ExpressionMatrix mass, stiffness, damping;  // empty stiffness, damping: zero
  std::optional<ChainGenerator> chain;  // instead of the matrices
  std::optional<BeamGenerator> beam;    // instead of the matrices
  ModelExpression frequency{0.0};
  ExpressionVector constant_force, cosine_force, sine_force;  // empty: zero
  std::optional<RandomForcing> random_forcing;  // instead of the harmonic forcing
  std::vector<ModelContact> contacts;
  std::vector<int> amplitude_coordinates;  // empty: the structure's default
  ExpressionVector initial_state;  // q then v (2 n entries); empty: zero

  // Parameters (indices) that only the forcing vectors (and the random load's weights)
  // read: declared forcing parameters whose derivative comes from differentiating the
  // expressions.
  std::vector<int> forcing_parameters;
};

}  // namespace systems
