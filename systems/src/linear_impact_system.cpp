#include "systems/linear_impact_system.hpp"

#include <cmath>
#include <limits>

#include "libcont/hertz_friction_contact.hpp"
#include "libcont/input_error.hpp"
#include "libcont/rheological_damper.hpp"
#include "systems/impact_model.hpp"

using libcont::InputError;
using libcont::Matrix;
using libcont::Vector;

namespace systems {

namespace {

Matrix evaluated(const ExpressionMatrix& m, std::span<const double> values) {
  Matrix result(static_cast<Eigen::Index>(m.size()), static_cast<Eigen::Index>(m.size()));
  for (size_t i = 0; i < m.size(); ++i)
    for (size_t j = 0; j < m[i].size(); ++j)
      result(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = m[i][j].evaluate(values);
  return result;
}

// Empty stays empty: the structure reads it as zero.
Vector evaluated(const ExpressionVector& v, std::span<const double> values) {
  Vector result(static_cast<Eigen::Index>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) result[static_cast<Eigen::Index>(i)] = v[i].evaluate(values);
  return result;
}

Vector slopes(const ExpressionVector& v, std::span<const Dual> values) {
  Vector result(static_cast<Eigen::Index>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) result[static_cast<Eigen::Index>(i)] = v[i].evaluate(values).slope;
  return result;
}

// The expression's value, finite and above `lowest` (or at it, unless `open`); else an
// error naming the item `where`.
double bounded(const ModelExpression& e, std::span<const double> values, const std::string& where,
               double lowest, bool open) {
  const double v = e.evaluate(values);
  if (!std::isfinite(v) || v < lowest || (open && v == lowest))
    throw InputError(where + ": " + (open ? "must be > " : "must be >= ") + libcont::number_text(lowest) +
                     " (got " + libcont::number_text(v) + " from \"" + e.text() + "\")");
  return v;
}

// The chain's spring pattern: K / k for springs of stiffness 1.
Matrix spring_pattern(const ChainGenerator& chain) {
  const int n = chain.count;
  Matrix pattern = Matrix::Zero(n, n);
  for (int i = 0; i + 1 < n; ++i) {
    pattern(i, i) += 1.0;
    pattern(i + 1, i + 1) += 1.0;
    pattern(i, i + 1) = pattern(i + 1, i) = -1.0;
  }
  if (chain.first_fixed) pattern(0, 0) += 1.0;
  if (chain.last_fixed) pattern(n - 1, n - 1) += 1.0;
  return pattern;
}

// "(1,2) = 0.5" (appended: GCC 12 warns about "(" + std::to_string wrongly).
std::string entry_text(const Matrix& m, int i, int j) {
  std::string text = "(";
  text += std::to_string(i + 1) + "," + std::to_string(j + 1) + ") = " + libcont::number_text(m(i, j));
  return text;
}

}  // namespace

LinearImpactSystem::LinearImpactSystem(std::shared_ptr<const ModelDescription> description)
    : description_(std::move(description)) {
  auto& p = parameters_;
  for (const auto& parameter : description_->parameters) {
    try {
      if (!parameter.choices.empty())
        p.add_choice(parameter.name, parameter.choices, parameter.choice, parameter.description);
      else if (parameter.optional)
        p.add_optional(parameter.name, parameter.rule, parameter.description);
      else if (parameter.required)
        p.add_required(parameter.name, parameter.rule, parameter.description);
      else
        p.add(parameter.name, parameter.value, parameter.rule, parameter.description);
    } catch (const InputError& error) {  // a default its own rule refuses
      throw InputError(description_->source + ": parameters." + parameter.name + ".default: " + error.what());
    }
  }
  if (const auto& impact = description_->impact_model) {
    try {
      add_impact_model_parameters(p, impact->restitution, impact->contact_stiffness, impact->resting);
    } catch (const InputError& error) {
      throw InputError(description_->source + ": impact_model: " + error.what());
    }
  }
  for (const auto& parameter : description_->parameters)
    if (!parameter.unit.empty()) p.set_units({{parameter.name, parameter.unit}});
  if (!description_->parameter_unit.empty()) p.set_remaining_units(description_->parameter_unit);
  set_units(description_->coordinate_unit, description_->time_unit);
  // Last, so that an old name taken by any parameter, the impact model's too, is refused.
  for (const auto& parameter : description_->parameters)
    for (const auto& old : parameter.old_names) {
      if (p.contains(old))
        throw InputError(description_->source + ": parameters." + parameter.name +
                         ".old_names: '" + old + "' is a parameter's name");
      p.add_alias(old, parameter.name);
    }
  configure();
}

std::vector<int> LinearImpactSystem::displacement_coordinates() const {
  if (description_->amplitude_coordinates.empty()) return ImpactingStructure::displacement_coordinates();
  return description_->amplitude_coordinates;
}

libcont::Vector LinearImpactSystem::default_initial_state() const {
  if (description_->initial_state.empty()) return ImpactingStructure::default_initial_state();
  Vector x = Vector::Zero(dimension());  // the laws' internal coordinates (none here) zero
  x.head(static_cast<Eigen::Index>(description_->initial_state.size())) =
      evaluated(description_->initial_state, values());
  return x;
}

double LinearImpactSystem::forcing_period() const {
  return random_ ? random_->period() : ImpactingStructure::forcing_period();
}

void LinearImpactSystem::additional_force(double t, libcont::ConstVectorRef, libcont::ConstVectorRef,
                                          libcont::VectorRef force) const {
  force = random_weights_ * (*random_)(t);
}

void LinearImpactSystem::additional_force_jacobian(double, libcont::ConstVectorRef, libcont::ConstVectorRef,
                                                   libcont::MatrixRef d_dq, libcont::MatrixRef d_dv) const {
  d_dq.setZero();
  d_dv.setZero();
}

void LinearImpactSystem::force_parameter_derivative(int parameter, double t, libcont::ConstVectorRef,
                                                    libcont::ConstVectorRef, libcont::VectorRef df_dp) const {
  const RandomDerivative& d = random_derivatives_[static_cast<size_t>(parameter)];
  df_dp = d.weights * (*random_)(t);
  if (d.constant_force.size() > 0) df_dp += d.constant_force;
}

std::optional<libcont::RandomLoading> LinearImpactSystem::random_load(std::span<const double> values) const {
  const auto& r = description_->random_forcing;
  if (!r) return std::nullopt;
  const std::string where = description_->source + ": forcing.random.";
  const double seed = r->seed.evaluate(values), count = r->components.evaluate(values);
  if (!(seed >= 0.0) || seed != std::floor(seed) || seed > 9007199254740992.0)  // 2^53: still exact
    throw InputError(where + "seed: must be a whole number in [0, 2^53] (got " + libcont::number_text(seed) + ")");
  if (!(count >= 1.0) || count != std::floor(count) || count > 100000.0)
    throw InputError(where + "components: must be a whole number in [1, 100000] (got " +
                     libcont::number_text(count) + ")");
  const libcont::FilteredNoiseSpectrum density{r->sigma.evaluate(values), r->theta.evaluate(values),
                                               r->alpha.evaluate(values)};
  try {
    return libcont::RandomLoading(density, static_cast<int>(count), r->step.evaluate(values),
                                  static_cast<std::uint64_t>(seed));
  } catch (const InputError& error) {
    throw InputError(description_->source + ": forcing.random: " + error.what());
  }
}

std::vector<double> LinearImpactSystem::values() const {
  std::vector<double> result;
  for (const auto& parameter : description_->parameters)
    result.push_back(parameters_.given(parameter.name) ? parameters_[parameter.name]
                     : parameter.otherwise               ? parameter.otherwise->evaluate(result)
                                                         : std::numeric_limits<double>::quiet_NaN());
  for (const auto& derived : description_->derived) result.push_back(derived.expression.evaluate(result));
  return result;
}

void LinearImpactSystem::structure_matrices(std::span<const double> values,
                                            libcont::LinearStructure& s) const {
  const ModelDescription& d = *description_;
  if (d.chain) {
    s.mass = d.chain->mass.evaluate(values) * Matrix::Identity(d.size, d.size);
    const Matrix pattern = spring_pattern(*d.chain);
    s.stiffness = d.chain->stiffness.evaluate(values) * pattern;
    s.damping = d.chain->damping.evaluate(values) * Matrix::Identity(d.size, d.size) +
                d.chain->spring_damping.evaluate(values) * pattern;
  } else if (d.beam) {
    const BeamGenerator& b = *d.beam;
    const auto positive = [&](const ModelExpression& e, const char* key, bool zero_allowed) {
      return bounded(e, values, d.source + ": beam." + key, 0.0, !zero_allowed);
    };
    const LumpedBeam beam = lumped_beam(b.count, b.supports, positive(b.length, "length", false),
                                        positive(b.rigidity, "EI", false), positive(b.mass, "mass", false),
                                        positive(b.tip_mass, "tip_mass", true));
    s.mass = beam.mass;
    s.stiffness = beam.stiffness;
    s.damping = positive(b.damping, "damping", true) * beam.mass;
  } else {
    s.mass = evaluated(d.mass, values);
    if (!d.stiffness.empty()) s.stiffness = evaluated(d.stiffness, values);
    if (!d.damping.empty()) s.damping = evaluated(d.damping, values);
  }
  check_mass(s.mass, d.source + ": " + (d.chain ? "chain.mass" : d.beam ? "beam.mass" : "mass"));
}

void LinearImpactSystem::check_mass(const Matrix& mass, const std::string& where) const {
  const int n = description_->size;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (!std::isfinite(mass(i, j)))
        throw InputError(where + ": entry " + entry_text(mass, i, j) + " is not a finite number");
      if (mass(i, j) != mass(j, i))
        throw InputError(where + ": the mass matrix is not symmetric: " + entry_text(mass, i, j) +
                         " but " + entry_text(mass, j, i));
    }
  if (Eigen::LLT<Matrix>(mass).info() != Eigen::Success)
    throw InputError(where + ": the mass matrix is not positive definite");
}

libcont::UnilateralContact LinearImpactSystem::contact(size_t index,
                                                       std::span<const double> values) const {
  const ModelContact& c = description_->contacts[index];
  const std::string where = description_->source + ": contacts[" + std::to_string(index) + "] ('" + c.name + "')";
  const auto value = [&](const ModelExpression& e, const char* key, double lowest, bool open) {
    return bounded(e, values, where + "." + key, lowest, open);
  };
  libcont::SurfaceMotion surface{c.offset.evaluate(values), c.sine.evaluate(values), c.cosine.evaluate(values)};
  if (c.polar) {
    const double amplitude = surface.sine, phase = surface.cosine;
    surface.sine = amplitude * std::cos(phase);
    surface.cosine = amplitude * std::sin(phase);
  }
  const Vector normal = evaluated(c.normal, values);
  libcont::UnilateralContact contact;
  try {
    switch (c.law) {
      case ModelContact::Law::ImpactModel:
        contact = impact_contact(configure_impact_model(parameters_, value(c.mass, "mass", 0.0, true)),
                                 c.name, normal, surface);
        break;
      case ModelContact::Law::Hard:
        contact.law = libcont::NewtonRestitution(c.restitution.evaluate(values), c.stick_velocity.evaluate(values));
        break;
      case ModelContact::Law::Soft: {
        libcont::KelvinVoigtContact law;
        law.stiffness = value(c.stiffness, "stiffness", 0.0, true);
        law.damping = c.damping_from_restitution
                          ? libcont::contact_damping_for_restitution(c.restitution.evaluate(values), law.stiffness,
                                                                     value(c.mass, "mass", 0.0, true), c.relation)
                          : value(c.damping, "damping", 0.0, false);
        contact.law = law;
        break;
      }
      case ModelContact::Law::HertzFriction:
        contact.law = std::shared_ptr<const libcont::RegimeContactLaw>(std::make_shared<const libcont::HertzFrictionContact>(
            c.stiffness.evaluate(values), c.exponent.evaluate(values), c.restitution.evaluate(values)));
        break;
      case ModelContact::Law::Rheological:
        contact.law = std::shared_ptr<const libcont::RegimeContactLaw>(std::make_shared<const libcont::RheologicalDamper>(
            c.damper, libcont::RheologicalParameters{c.stiffness.evaluate(values), c.second_stiffness.evaluate(values),
                                                     c.damping.evaluate(values), c.limit_force.evaluate(values)}));
        break;
      case ModelContact::Law::Hertz:
        contact.law = libcont::HertzContact{value(c.stiffness, "stiffness", 0.0, true),
                                            value(c.exponent, "exponent", 1.0, false),
                                            value(c.damping, "damping", 0.0, false)};
        break;
    }
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (message.rfind(description_->source, 0) == 0) throw;
    throw InputError(where + ": " + message);
  }
  contact.name = c.name;
  contact.normal = normal;
  contact.surface = surface;
  contact.closed_name = c.closed_name;
  return contact;
}

std::vector<libcont::ForcingParameter> LinearImpactSystem::forcing_parameters(
    std::span<const double> values) {
  const ModelDescription& d = *description_;
  const size_t count = d.parameters.size();
  std::vector<libcont::ForcingParameter> result;
  random_derivatives_.clear();
  for (int p : d.forcing_parameters) {
    std::vector<Dual> duals;
    for (size_t i = 0; i < count; ++i) {
      // A value derived unless given carries the derivative of what it is derived from.
      const auto& otherwise = d.parameters[i].otherwise;
      if (static_cast<int>(i) != p && otherwise && !parameters_.given(d.parameters[i].name))
        duals.push_back(otherwise->evaluate(std::span<const Dual>(duals)));
      else
        duals.push_back({values[i], static_cast<int>(i) == p ? 1.0 : 0.0});
    }
    for (const auto& derived : d.derived) duals.push_back(derived.expression.evaluate(duals));
    const std::string& name = d.parameters[static_cast<size_t>(p)].name;
    if (d.random_forcing) {
      random_derivatives_.push_back({slopes(d.constant_force, duals), slopes(d.random_forcing->weights, duals)});
      result.push_back({name, std::nullopt});
      continue;
    }
    libcont::ForcingDerivative derivative{slopes(d.constant_force, duals), slopes(d.cosine_force, duals),
                                          slopes(d.sine_force, duals)};
    result.push_back({name, std::move(derivative)});
  }
  return result;
}

void LinearImpactSystem::configure() {
  const ModelDescription& d = *description_;
  const std::vector<double> v = values();
  for (size_t i = 0; i < d.conditions.size(); ++i) {
    const double value = d.conditions[i].positive.evaluate(v);
    // NaN (a required parameter not yet set) is not judged: the run refuses to start anyway.
    if (value <= 0.0)
      throw InputError(d.source + ": conditions[" + std::to_string(i) + "]: " + d.conditions[i].message +
                       " (" + d.conditions[i].positive.text() + " = " + libcont::number_text(value) + ")");
  }
  libcont::LinearStructure s;
  s.coordinates = d.coordinates;
  s.velocities = d.velocities;
  structure_matrices(v, s);
  s.frequency = d.frequency.evaluate(v);
  if (!(s.frequency >= 0.0) || !std::isfinite(s.frequency))
    throw InputError(d.source + ": forcing.frequency: must be a finite number >= 0 (got " +
                     libcont::number_text(s.frequency) + " from \"" + d.frequency.text() + "\")");
  s.constant_force = evaluated(d.constant_force, v);
  s.cosine_force = evaluated(d.cosine_force, v);
  s.sine_force = evaluated(d.sine_force, v);
  std::vector<libcont::UnilateralContact> contacts;
  for (size_t i = 0; i < d.contacts.size(); ++i) contacts.push_back(contact(i, v));
  // Before declare(): the modes are affine only without it.
  random_ = random_load(v);
  if (random_) random_weights_ = evaluated(d.random_forcing->weights, v);
  try {
    declare(std::move(s), std::move(contacts), forcing_parameters(v));
  } catch (const InputError& error) {
    throw InputError(d.source + ": " + error.what());
  }
}

}  // namespace systems
