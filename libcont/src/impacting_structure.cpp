#include "libcont/impacting_structure.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "libcont/harmonic_phase.hpp"
#include "libcont/input_error.hpp"
#include "single_column_product.hpp"

namespace libcont {

namespace {

// Whether a harmonic part (the coefficients of cos w t or of sin w t) acts: w > 0 and the
// part not zero. A mode keeps this per part, so that the field and dF/dlambda compute the
// phase only where some part needs it.
bool harmonic_part_acts(double w, const Vector& part) { return w > 0.0 && !part.isZero(0.0); }

// (cos w t, sin w t) of `phase` for the parts that act, 0 for those that do not.
std::pair<double, double> acting_parts(bool cosine, bool sine, detail::HarmonicPhase phase) {
  return {cosine ? phase.cosine : 0.0, sine ? phase.sine : 0.0};
}

// The same at time t, no phase computed where neither part acts.
std::pair<double, double> acting_phase(bool cosine, bool sine, double w, double t) {
  if (!cosine && !sine) return {0.0, 0.0};
  return acting_parts(cosine, sine, detail::harmonic_phase(w, t));
}

constexpr int max_contacts = 8;
constexpr int max_modes = 256;

// Gradients of a law's functions over (delta, delta', z): on the stack.
using LawGradient = std::array<double, 2 + max_internal_coordinates>;
// A law's Jacobian of its internal rates, row after row.
using LawJacobian = std::array<double, max_internal_coordinates*(2 + max_internal_coordinates)>;

Vector zero_if_empty(const Vector& v, int n, const std::string& what) {
  if (v.size() == 0) return Vector::Zero(n);
  if (v.size() != n)
    throw InputError("structure: " + what + " has " + std::to_string(v.size()) +
                     " entries, expected " + std::to_string(n));
  return v;
}

Matrix zero_if_empty(const Matrix& m, int n, const std::string& what) {
  if (m.size() == 0) return Matrix::Zero(n, n);
  if (m.rows() != n || m.cols() != n)
    throw InputError("structure: " + what + " must be " + std::to_string(n) + " x " +
                     std::to_string(n));
  return m;
}

std::vector<std::string> default_names(const std::vector<std::string>& given, int n,
                                       const std::string& single, const std::string& prefix,
                                       const std::string& what) {
  if (!given.empty()) {
    if (static_cast<int>(given.size()) != n)
      throw InputError("structure: " + std::to_string(given.size()) + " " + what +
                       " names for " + std::to_string(n) + " coordinates");
    return given;
  }
  if (n == 1) return {single};
  std::vector<std::string> names;
  for (int i = 1; i <= n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

// The coordinate a contact's gap is closed on exactly after a projection: the largest
// coefficient of the normal, the last one of equals.
int snapped_coordinate(const Vector& normal) {
  int best = 0;
  for (int i = 1; i < normal.size(); ++i)
    if (std::abs(normal[i]) >= std::abs(normal[best])) best = i;
  return best;
}

}  // namespace

LinearStructure LinearStructure::single(double mass, double stiffness, double damping) {
  LinearStructure s;
  s.coordinates = {"x"};
  s.velocities = {"v"};
  s.mass = Matrix::Constant(1, 1, mass);
  s.stiffness = Matrix::Constant(1, 1, stiffness);
  s.damping = Matrix::Constant(1, 1, damping);
  return s;
}

void ImpactingStructure::declare(LinearStructure s, std::vector<UnilateralContact> contacts,
                                 std::vector<ForcingParameter> parameters) {
  const int n = s.size();
  if (n < 1 || s.mass.cols() != n) throw InputError("structure: the mass matrix must be square");
  s.coordinates = default_names(s.coordinates, n, "x", "q", "coordinate");
  s.velocities = default_names(s.velocities, n, "v", "v", "velocity");
  s.stiffness = zero_if_empty(s.stiffness, n, "the stiffness matrix");
  s.damping = zero_if_empty(s.damping, n, "the damping matrix");
  s.constant_force = zero_if_empty(s.constant_force, n, "the constant force");
  s.cosine_force = zero_if_empty(s.cosine_force, n, "the cosine force");
  s.sine_force = zero_if_empty(s.sine_force, n, "the sine force");
  if (!(s.frequency >= 0.0)) throw InputError("structure: the forcing frequency must be >= 0");
  const Eigen::LLT<Matrix> mass_factor(s.mass);
  if (!s.mass.isApprox(s.mass.transpose()) || mass_factor.info() != Eigen::Success)
    throw InputError("structure: the mass matrix must be symmetric positive definite");
  if (static_cast<int>(contacts.size()) > max_contacts)
    throw InputError("structure: at most " + std::to_string(max_contacts) + " contacts");
  contact_coordinates_.clear();
  radices_.clear();
  strides_.clear();
  internal_offsets_.clear();
  internal_count_ = 0;
  int mode_total = 1;
  for (const auto& c : contacts) {
    if (c.normal.size() != n || c.normal.isZero(0.0))
      throw InputError("contact '" + c.name + "': its normal must have " + std::to_string(n) +
                       " entries, not all zero");
    if (std::holds_alternative<std::shared_ptr<const RegimeContactLaw>>(c.law) && !c.regimes())
      throw InputError("contact '" + c.name + "': its law with regimes is missing");
    const int radix = c.regimes() ? c.regimes()->regime_count() : 2;
    const int internal = c.regimes() ? static_cast<int>(c.regimes()->internal_names().size()) : 0;
    if (radix < 1 || internal > max_internal_coordinates)
      throw InputError("contact '" + c.name + "': its law needs at least one regime and at most " +
                       std::to_string(max_internal_coordinates) + " internal coordinates");
    if (mode_total * radix > max_modes)
      throw InputError("structure: the contacts' states combine to more than " +
                       std::to_string(max_modes) + " modes");
    radices_.push_back(radix);
    strides_.push_back(mode_total);
    internal_offsets_.push_back(2 * n + internal_count_);
    mode_total *= radix;
    internal_count_ += internal;
  }
  for (int i = 0; i < n; ++i)
    for (const auto& c : contacts)
      if (c.normal[i] != 0.0) {
        contact_coordinates_.push_back(i);
        break;
      }
  for (auto& p : parameters) {
    if (!p.harmonic) continue;
    p.harmonic->constant_force = zero_if_empty(p.harmonic->constant_force, n, "d f0/d " + p.name);
    p.harmonic->cosine_force = zero_if_empty(p.harmonic->cosine_force, n, "d f_cos/d " + p.name);
    p.harmonic->sine_force = zero_if_empty(p.harmonic->sine_force, n, "d f_sin/d " + p.name);
  }
  structure_ = std::move(s);
  contacts_ = std::move(contacts);
  forcing_parameters_ = std::move(parameters);
  mass_inverse_ = mass_factor.solve(Matrix::Identity(n, n));
  modes_.clear();
  binary_ = std::all_of(radices_.begin(), radices_.end(), [](int radix) { return radix == 2; });
  for (int mode = 0; mode < mode_total; ++mode) modes_.push_back(derive_mode(mode));
  data_changed();
}

void ImpactingStructure::set_forces(Vector constant_force, Vector cosine_force, Vector sine_force) {
  const int n = structure_.size();
  Vector f0 = zero_if_empty(constant_force, n, "the constant force");
  Vector f_cos = zero_if_empty(cosine_force, n, "the cosine force");
  Vector f_sin = zero_if_empty(sine_force, n, "the sine force");
  structure_.constant_force = std::move(f0);
  structure_.cosine_force = std::move(f_cos);
  structure_.sine_force = std::move(f_sin);
  for (auto& md : modes_) derive_forces(md);
  data_changed();
}

ImpactingStructure::ModeData ImpactingStructure::derive_mode(int mode) const {
  const int n = structure_.size();
  const double w = structure_.frequency;
  ModeData md;
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    const RegimeContactLaw* law = contacts_[j].regimes();
    if (law) {
      md.with_regimes.push_back(j);
      for (int k = 0; k < law->switch_count(regime(mode, j)); ++k) md.events.push_back({j, k});
      continue;
    }
    md.events.push_back({j, -1});
    if (closed(mode, j)) (contacts_[j].hard() ? md.stuck : md.soft).push_back(j);
  }
  const int s = static_cast<int>(md.stuck.size());
  md.constraints.resize(s, n);
  md.surface_sine.resize(s);
  md.surface_cosine.resize(s);
  for (int k = 0; k < s; ++k) {
    const auto& c = contacts_[md.stuck[k]];
    md.constraints.row(k) = c.normal.transpose();
    md.surface_sine[k] = c.surface.sine;
    md.surface_cosine[k] = c.surface.cosine;
  }
  const Matrix mobility = md.constraints * mass_inverse_;  // W M^-1
  md.gram_inverse = s == 0 ? Matrix(0, 0)
                           : Matrix((mobility * md.constraints.transpose())
                                        .completeOrthogonalDecomposition()
                                        .pseudoInverse());
  md.holding_map = md.gram_inverse * mobility;
  md.acceleration_map = mass_inverse_ - mobility.transpose() * md.holding_map;
  md.surface_gain = mobility.transpose() * md.gram_inverse;

  // The field: the structure's own forces, the closed soft contacts added explicitly (their
  // force from the gap, well conditioned where the gap is small and k_s large).
  md.aq = -md.acceleration_map * structure_.stiffness;
  md.av = -md.acceleration_map * structure_.damping;
  for (int j : md.soft) md.contact_acceleration.push_back(md.acceleration_map * contacts_[j].normal);
  for (int j : md.with_regimes)
    md.contact_acceleration.push_back(md.acceleration_map * contacts_[j].normal);
  // The constraint sets of the hard contacts' events: stuck ones and the impacting one
  // (last), or the stuck ones for a release.
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    std::vector<int> set = md.stuck;
    if (contacts_[j].hard() && !closed(mode, j)) set.push_back(j);
    md.projections.push_back(contacts_[j].hard() ? derive_projection(std::move(set)) : Projection{});
  }
  // The integrator the flow picks: a Kelvin-Voigt contact much faster than the structure
  // (its frequency for the mass it moves, 1 / w M^-1 w) is stiff; a Hertz contact, entered
  // every period and smooth only to low order, goes to the explicit pair; stiff wins.
  bool stiff = false, brief_and_rough = false;
  const double structure_frequency = md.soft.empty() && md.with_regimes.empty()
                                         ? 0.0
                                         : std::max(natural_frequencies().maxCoeff(), w);
  for (int j : md.with_regimes) {
    const auto& c = contacts_[j];
    stiff = stiff || c.integration == ContactIntegration::StiffSolver ||
            (c.integration == ContactIntegration::Automatic &&
             c.regimes()->stiff(regime(mode, j), structure_frequency,
                                c.normal.dot(mass_inverse_ * c.normal)));
    brief_and_rough = brief_and_rough || c.integration == ContactIntegration::ExplicitPair;
  }
  for (int j : md.soft) {
    const auto& c = contacts_[j];
    const auto* kv = std::get_if<KelvinVoigtContact>(&c.law);
    const bool automatic = c.integration == ContactIntegration::Automatic;
    stiff = stiff || c.integration == ContactIntegration::StiffSolver ||
            (automatic && kv &&
             std::sqrt(kv->stiffness * c.normal.dot(mass_inverse_ * c.normal)) >
                 50.0 * structure_frequency);
    brief_and_rough = brief_and_rough || c.integration == ContactIntegration::ExplicitPair ||
                      (automatic && std::holds_alternative<HertzContact>(c.law));
  }
  md.integration = stiff             ? ModeIntegration::Stiff
                   : brief_and_rough ? ModeIntegration::ExplicitPair
                                     : ModeIntegration::Nonstiff;
  md.affine = !has_additional_force() && md.with_regimes.empty() &&
              std::all_of(md.soft.begin(), md.soft.end(), [&](int j) { return contacts_[j].affine(); });
  // The affine data: the Kelvin-Voigt forces k_s delta + c_s delta' along w
  // (delta = s(t) - w.q) folded into the linear forces (their forcing part in
  // derive_forces).
  md.stiffness = structure_.stiffness;
  md.damping = structure_.damping;
  if (md.affine) {
    for (int j : md.soft) {
      const auto& c = contacts_[j];
      const auto& kv = std::get<KelvinVoigtContact>(c.law);
      const Matrix outer = c.normal * c.normal.transpose();
      md.stiffness += kv.stiffness * outer;
      md.damping += kv.damping * outer;
    }
  }
  md.affine_aq = -md.acceleration_map * md.stiffness;
  md.affine_av = -md.acceleration_map * md.damping;
  for (const auto& p : forcing_parameters_) {
    ModeData::Derivative d;
    if (p.harmonic) {
      const Vector* parts[3] = {&p.harmonic->constant_force, &p.harmonic->cosine_force,
                                &p.harmonic->sine_force};
      for (int k = 0; k < 3; ++k) {
        d.acceleration[k] = md.acceleration_map * *parts[k];
        d.holding[k] = md.holding_map * *parts[k];
      }
      d.has_cosine = harmonic_part_acts(structure_.frequency, d.acceleration[1]);
      d.has_sine = harmonic_part_acts(structure_.frequency, d.acceleration[2]);
    }
    md.derivatives.push_back(std::move(d));
  }
  md.damping_trace = md.av.trace();
  derive_forces(md);
  return md;
}

// The parts of a mode that the constant and harmonic forces enter (declare, set_forces).
void ImpactingStructure::derive_forces(ModeData& md) const {
  const double w = structure_.frequency;
  const int s = static_cast<int>(md.stuck.size());
  const Matrix& surface_gain = md.surface_gain;
  const Vector &surface_cosine = md.surface_cosine, &surface_sine = md.surface_sine;
  md.b0 = md.acceleration_map * structure_.constant_force;
  // The stuck surfaces' accelerations, s'' = -w^2 (sine sin + cosine cos).
  md.bc = md.acceleration_map * structure_.cosine_force - w * w * surface_gain * surface_cosine;
  md.bs = md.acceleration_map * structure_.sine_force - w * w * surface_gain * surface_sine;
  md.has_cosine = harmonic_part_acts(w, md.bc);
  md.has_sine = harmonic_part_acts(w, md.bs);
  // The holding forces' bounds (holding_bound). At the stuck state x_s = project(x, 0)
  // onto these constraints, by the infinity norms: |q_s| <= |q| + |B| (|s| + |W| |q|),
  // |v_s| <= |v| + |B| (|W| |v| + |s'|) (B = M^-1 W' G^-1), |f| <= |f0| + |K| |q_s| +
  // |C| |v_s| + |f_cos| + |f_sin|, |lambda_k| <= |G^-1 W M^-1|_k |f| + sum_l |G^-1_kl|
  // |s_l''|: affine in |q| and |v|.
  md.holding_bounds.clear();
  if (md.soft.empty() && md.with_regimes.empty() && !has_additional_force()) {
    const auto row_sum = [](const Matrix& m) {  // the infinity norm
      return m.size() == 0 ? 0.0 : m.cwiseAbs().rowwise().sum().maxCoeff();
    };
    const auto largest = [](const Vector& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); };
    double position = 0.0, rate = 0.0;
    for (int k = 0; k < s; ++k) {
      const double harmonic = std::abs(surface_cosine[k]) + std::abs(surface_sine[k]);
      position = std::max(position, std::abs(contacts_[md.stuck[k]].surface.offset) + harmonic);
      rate = std::max(rate, w * harmonic);
    }
    const double gain = row_sum(surface_gain), spread = 1.0 + gain * row_sum(md.constraints);
    const double stiffness = row_sum(structure_.stiffness), damping = row_sum(structure_.damping);
    const double force = largest(structure_.constant_force) + stiffness * gain * position +
                         damping * gain * rate + largest(structure_.cosine_force) +
                         largest(structure_.sine_force);
    for (int k = 0; k < s; ++k) {
      const double row = md.holding_map.row(k).cwiseAbs().sum();
      double surfaces = 0.0;
      for (int l = 0; l < s; ++l)
        surfaces += std::abs(md.gram_inverse(k, l)) * w * w *
                    (std::abs(surface_cosine[l]) + std::abs(surface_sine[l]));
      md.holding_bounds.push_back({row * force + surfaces, row * stiffness * spread,
                                   row * damping * spread});
    }
  }
  md.constant_force = structure_.constant_force;
  md.cosine_force = structure_.cosine_force;
  md.sine_force = structure_.sine_force;
  if (md.affine) {
    for (int j : md.soft) {
      const auto& c = contacts_[j];
      const auto& kv = std::get<KelvinVoigtContact>(c.law);
      md.constant_force += kv.stiffness * c.surface.offset * c.normal;
      md.cosine_force += (kv.stiffness * c.surface.cosine + kv.damping * w * c.surface.sine) * c.normal;
      md.sine_force += (kv.stiffness * c.surface.sine - kv.damping * w * c.surface.cosine) * c.normal;
    }
  }
  md.affine_b0 = md.acceleration_map * md.constant_force;
  md.affine_bc = md.acceleration_map * md.cosine_force - w * w * surface_gain * surface_cosine;
  md.affine_bs = md.acceleration_map * md.sine_force - w * w * surface_gain * surface_sine;
}

std::vector<std::string> ImpactingStructure::state_names() const {
  std::vector<std::string> names = structure_.coordinates;
  names.insert(names.end(), structure_.velocities.begin(), structure_.velocities.end());
  for (const auto& c : contacts_)
    if (c.regimes())
      for (const auto& internal : c.regimes()->internal_names())
        names.push_back(contacts_.size() > 1 ? c.name + ":" + internal : internal);
  return names;
}

void ImpactingStructure::set_units(std::string coordinates, std::string time) {
  coordinate_unit_ = std::move(coordinates);
  time_unit_ = std::move(time);
}

std::vector<std::string> ImpactingStructure::state_units() const {
  std::vector<std::string> units(structure_.coordinates.size(), coordinate_unit_);
  units.insert(units.end(), structure_.velocities.size(),
               unit_quotient(coordinate_unit_, time_unit_));
  units.resize(state_names().size(), coordinate_unit_);
  return units;
}

std::string ImpactingStructure::mode_name(int mode) const {
  std::string name;
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    const auto& c = contacts_[j];
    std::string part;
    if (c.regimes()) part = c.regimes()->regime_name(regime(mode, j));
    else if (closed(mode, j)) part = !c.closed_name.empty() ? c.closed_name : c.hard() ? "stick" : "contact";
    else continue;
    if (contacts_.size() > 1) part = c.name + ":" + part;
    name += (name.empty() ? "" : "+") + part;
  }
  if (!name.empty()) return name;
  return contacts_.size() == 1 && !contacts_[0].open_name.empty() ? contacts_[0].open_name : "free";
}

int ImpactingStructure::event_count(int mode) const {
  return static_cast<int>(modes_[mode].events.size());
}

ContactInputs ImpactingStructure::law_inputs(int contact, double t, ConstVectorRef x) const {
  return {-gap(contact, t, x), -gap_rate(contact, t, x), x.data() + internal_offsets_[contact]};
}

Vector ImpactingStructure::natural_frequencies() const {
  const Matrix k = 0.5 * (structure_.stiffness + structure_.stiffness.transpose());
  const Eigen::GeneralizedSelfAdjointEigenSolver<Matrix> solver(k, structure_.mass,
                                                                Eigen::EigenvaluesOnly);
  return solver.eigenvalues().cwiseMax(0.0).cwiseSqrt();
}

ModeIntegration ImpactingStructure::integration(int mode) const { return modes_[mode].integration; }

double ImpactingStructure::forcing_period() const {
  return structure_.frequency > 0.0 ? 2.0 * std::numbers::pi / structure_.frequency : 0.0;
}

// Entry by entry rather than by Eigen's dot: the event functions are evaluated at every
// step of the integrators.
double ImpactingStructure::gap(int contact, double t, ConstVectorRef x) const {
  return gap_of(contact, t, x.data());
}

double ImpactingStructure::gap_of(int contact, double t, const double* x) const {
  const auto& c = contacts_[contact];
  double wq = 0.0;
  for (int k = 0; k < structure_.size(); ++k) wq += c.normal[k] * x[k];
  return wq - c.surface.position(structure_.frequency, t);
}

double ImpactingStructure::gap_rate(int contact, double t, ConstVectorRef x) const {
  return gap_rate_of(contact, t, x.data());
}

double ImpactingStructure::gap_rate_of(int contact, double t, const double* x) const {
  const int n = structure_.size();
  const auto& c = contacts_[contact];
  double wv = 0.0;
  for (int k = 0; k < n; ++k) wv += c.normal[k] * x[n + k];
  return wv - c.surface.velocity(structure_.frequency, t);
}

namespace {

// The hot path of the integrators, on raw column-major data with the size fixed at compile
// time for small structures (N > 0: unrolled; N = 0: n at run time). The generic Eigen
// expressions cost several times the arithmetic at these sizes.
template <int N>
struct Kernels {
  static int size(int n) { return N > 0 ? N : n; }

  // a = Aq q + Av v + b0 + bc cos + bs sin, and q' = v. The state and the field never
  // overlap (__restrict: without it the compiler tests their overlap at every call).
  static void linear_field(int n, const Matrix& aq, const Matrix& av, const Vector& b0,
                           const Vector& bc, const Vector& bs, double cw, double sw,
                           const double* __restrict x, double* __restrict dxdt) {
    const int m = size(n);
    const double *pq = aq.data(), *pv = av.data();
    for (int i = 0; i < m; ++i) {
      double a = b0[i] + bc[i] * cw + bs[i] * sw;
      for (int k = 0; k < m; ++k) a += pq[i + k * m] * x[k] + pv[i + k * m] * x[m + k];
      dxdt[m + i] = a;
    }
    for (int i = 0; i < m; ++i) dxdt[i] = x[m + i];
  }

  // w . q and w . v.
  static void project(int n, const double* normal, const double* x, double& wq, double& wv) {
    const int m = size(n);
    wq = 0.0;
    wv = 0.0;
    for (int k = 0; k < m; ++k) {
      wq += normal[k] * x[k];
      wv += normal[k] * x[m + k];
    }
  }

  // [[0, I], [Aq, Av]] into jac (column stride `stride`).
  static void linear_jacobian(int n, const Matrix& aq, const Matrix& av, double* jac,
                              Eigen::Index stride) {
    const int m = size(n);
    const double *pq = aq.data(), *pv = av.data();
    for (int k = 0; k < m; ++k) {
      double* column_q = jac + k * stride;
      double* column_v = jac + (m + k) * stride;
      for (int i = 0; i < m; ++i) {
        column_q[i] = 0.0;
        column_v[i] = i == k ? 1.0 : 0.0;
        column_q[m + i] = pq[i + k * m];
        column_v[m + i] = pv[i + k * m];
      }
    }
  }

  // The contact's force slopes along gain w': rows of the accelerations.
  static void contact_jacobian(int n, const double* gain, const double* normal, double kq,
                               double kv, double* jac, Eigen::Index stride) {
    const int m = size(n);
    for (int k = 0; k < m; ++k)
      for (int i = 0; i < m; ++i) {
        jac[k * stride + m + i] -= kq * gain[i] * normal[k];
        jac[(m + k) * stride + m + i] -= kv * gain[i] * normal[k];
      }
  }
};

// Calls F<Kernels<N>> with N = n for n <= 4, else with N = 0.
template <class Call>
void with_kernels(int n, Call call) {
  switch (n) {
    case 1: call(Kernels<1>{}); break;
    case 2: call(Kernels<2>{}); break;
    case 3: call(Kernels<3>{}); break;
    case 4: call(Kernels<4>{}); break;
    default: call(Kernels<0>{});
  }
}

}  // namespace

template <bool Field, bool Jacobian>
void ImpactingStructure::smooth_part(const ModeData& md, double t, std::pair<double, double> phase,
                                     const double* x, double* dxdt, double* jac,
                                     Eigen::Index stride) const {
  const int n = structure_.size();
  const double w = structure_.frequency;
  with_kernels(n, [&](auto kernels) {
    using K = decltype(kernels);
    if constexpr (Field)
      K::linear_field(n, md.aq, md.av, md.b0, md.bc, md.bs, phase.first, phase.second, x, dxdt);
    if constexpr (Jacobian) K::linear_jacobian(n, md.aq, md.av, jac, stride);
    for (std::size_t m = 0; m < md.soft.size(); ++m) {
      const auto& c = contacts_[md.soft[m]];
      double wq = 0.0, wv = 0.0;
      K::project(n, c.normal.data(), x, wq, wv);
      const double delta = c.surface.position(w, t) - wq, rate = c.surface.velocity(w, t) - wv;
      const double* gain = md.contact_acceleration[m].data();
      if constexpr (Field) {
        const double force = c.force(delta, rate);
        for (int i = 0; i < K::size(n); ++i) dxdt[n + i] += gain[i] * force;
      }
      if constexpr (Jacobian)
        K::contact_jacobian(n, gain, c.normal.data(), c.force_slope(delta, rate),
                            c.damping_slope(delta, rate), jac, stride);
    }
  });
}

void ImpactingStructure::vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const {
  const int n = structure_.size();
  const ModeData& md = modes_[mode];
  smooth_part<true, false>(md, t, acting_phase(md.has_cosine, md.has_sine, structure_.frequency, t),
                           x.data(), dxdt.data(), nullptr, 0);
  // Laws with regimes: the force of the regime along w, and the internal rates.
  for (std::size_t m = 0; m < md.with_regimes.size(); ++m) {
    const int j = md.with_regimes[m];
    const RegimeContactLaw& law = *contacts_[j].regimes();
    const ContactInputs in = law_inputs(j, t, x);
    const int r = regime(mode, j);
    dxdt.segment(n, n) += law.force(r, in) * md.contact_acceleration[md.soft.size() + m];
    law.internal_rates(r, in, dxdt.data() + internal_offsets_[j]);
  }
  if (has_additional_force()) {
    Vector force = Vector::Zero(n);
    additional_force(t, x.head(n), x.segment(n, n), force);
    dxdt.segment(n, n) += md.acceleration_map * force;
  }
}

bool ImpactingStructure::field_and_derivatives(int mode, double t, ConstVectorRef x,
                                               VectorRef dxdt, MatrixRef jac, int parameter,
                                               VectorRef df_dp) const {
  const ModeData& md = modes_[mode];
  if (!md.with_regimes.empty() || internal_count_ > 0 || has_additional_force()) return false;
  const bool harmonic = parameter >= 0 && forcing_parameters_[parameter].harmonic;
  const ModeData::Derivative* d = harmonic ? &md.derivatives[parameter] : nullptr;
  // The phase once for the field and D_p f: harmonic_phase is a function of t alone, so
  // each gets the numbers its own call would.
  const bool phase_needed = md.has_cosine || md.has_sine || (d && (d->has_cosine || d->has_sine));
  const detail::HarmonicPhase phase =
      phase_needed ? detail::harmonic_phase(structure_.frequency, t) : detail::HarmonicPhase{};
  smooth_part<true, true>(md, t, acting_parts(md.has_cosine, md.has_sine, phase), x.data(),
                          dxdt.data(), jac.data(), jac.outerStride());
  if (d)
    harmonic_derivative(md, parameter, acting_parts(d->has_cosine, d->has_sine, phase), df_dp);
  else if (parameter >= 0)
    field_parameter_derivative(parameter, mode, t, x, df_dp);
  return true;
}

bool ImpactingStructure::state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const {
  const int n = structure_.size();
  const ModeData& md = modes_[mode];
  smooth_part<false, true>(md, t, {}, x.data(), nullptr, jac.data(), jac.outerStride());
  if (internal_count_ > 0) {
    jac.topRightCorner(2 * n, internal_count_).setZero();
    jac.bottomRows(internal_count_).setZero();
  }
  // Laws with regimes: delta = s(t) - w.q and delta' = s'(t) - w.v, so d/dq = -w d/d(delta)
  // and d/dv = -w d/d(delta'); their internal coordinates enter directly.
  for (std::size_t m = 0; m < md.with_regimes.size(); ++m) {
    const int j = md.with_regimes[m];
    const auto& c = contacts_[j];
    const RegimeContactLaw& law = *c.regimes();
    const ContactInputs in = law_inputs(j, t, x);
    const int r = regime(mode, j), internal = internal_count(j), offset = internal_offsets_[j];
    const Vector& gain = md.contact_acceleration[md.soft.size() + m];
    LawGradient g{};
    law.force_gradient(r, in, g.data());
    jac.block(n, 0, n, n).noalias() -= g[0] * gain * c.normal.transpose();
    jac.block(n, n, n, n).noalias() -= g[1] * gain * c.normal.transpose();
    for (int l = 0; l < internal; ++l) jac.col(offset + l).segment(n, n) += g[2 + l] * gain;
    LawJacobian rates{};
    law.internal_jacobian(r, in, rates.data());
    for (int a = 0; a < internal; ++a) {
      const double* row = rates.data() + a * (2 + internal);
      jac.row(offset + a).head(n) = -row[0] * c.normal.transpose();
      jac.row(offset + a).segment(n, n) = -row[1] * c.normal.transpose();
      for (int l = 0; l < internal; ++l) jac(offset + a, offset + l) = row[2 + l];
    }
  }
  if (has_additional_force()) {
    Matrix d_dq(n, n), d_dv(n, n);
    additional_force_jacobian(t, x.head(n), x.segment(n, n), d_dq, d_dv);
    jac.block(n, 0, n, n) += md.acceleration_map * d_dq;
    jac.block(n, n, n, n) += md.acceleration_map * d_dv;
  }
  return true;
}

void ImpactingStructure::additional_force_jacobian(double t, ConstVectorRef q, ConstVectorRef v,
                                                   MatrixRef d_dq, MatrixRef d_dv) const {
  // Central differences, column by column, over the coordinates and then the velocities.
  const Eigen::Index n = q.size();
  Vector x(2 * n), up(n), down(n);
  x << q, v;
  for (Eigen::Index k = 0; k < 2 * n; ++k) {
    const double h = difference_step(x[k]), centre = x[k];
    x[k] = centre + h;
    additional_force(t, x.head(n), x.tail(n), up);
    x[k] = centre - h;
    additional_force(t, x.head(n), x.tail(n), down);
    x[k] = centre;
    (k < n ? d_dq.col(k) : d_dv.col(k - n)) = (up - down) / (2.0 * h);
  }
}

bool ImpactingStructure::affine_mode(int mode, AffineMode& data) const {
  const ModeData& md = modes_[mode];
  if (!md.affine) return false;
  const int n = structure_.size();
  data.A.setZero();
  data.A.block(0, n, n, n).setIdentity();
  data.A.block(n, 0, n, n) = md.affine_aq;
  data.A.block(n, n, n, n) = md.affine_av;
  data.b0.setZero();
  data.b_cos.setZero();
  data.b_sin.setZero();
  data.b0.segment(n, n) = md.affine_b0;
  data.b_cos.segment(n, n) = md.affine_bc;
  data.b_sin.segment(n, n) = md.affine_bs;
  data.frequency = structure_.frequency;
  return true;
}

EventSpec ImpactingStructure::event_spec(int mode, int event) const {
  const auto [j, law_switch] = modes_[mode].events[event];
  const auto& c = contacts_[j];
  if (law_switch >= 0) {
    const RegimeSwitchSpec s = c.regimes()->switch_spec(regime(mode, j), law_switch);
    return {contacts_.size() > 1 ? s.name + ":" + c.name : s.name, s.direction, s.kind,
            s.guard_turning_points};
  }
  const bool attached = closed(mode, j);
  const EventDirection direction = event_direction(mode, event);
  EventSpec spec = c.hard() ? (attached ? EventSpec{"release", direction, EventKind::StickEnd}
                                        : EventSpec{"impact", direction, EventKind::Impact})
                            : (attached ? EventSpec{"separation", direction, EventKind::ContactEnd}
                                        : EventSpec{"contact", direction, EventKind::ContactStart});
  if (contacts_.size() > 1) spec.name += ":" + c.name;
  return spec;
}

EventDirection ImpactingStructure::event_direction(int mode, int event) const {
  const auto [j, law_switch] = modes_[mode].events[event];
  if (law_switch >= 0) return event_spec(mode, event).direction;
  // The gap falls to zero at an impact or a contact, the holding force at a release; a
  // closed soft contact separates where its gap, negative in contact, rises through zero.
  return !contacts_[j].hard() && closed(mode, j) ? EventDirection::Rising : EventDirection::Falling;
}

void ImpactingStructure::total_force(int mode, double t, ConstVectorRef x, VectorRef force) const {
  const ModeData& md = modes_[mode];
  const int n = structure_.size();
  const auto q = x.head(n), v = x.segment(n, n);
  const double w = structure_.frequency;
  // The products into scratch kept per thread (the sticking check asks at every impact),
  // with the same sums as the expression's temporaries.
  thread_local Vector stiffness_term, damping_term;
  stiffness_term.resize(n);
  damping_term.resize(n);
  stiffness_term.noalias() = structure_.stiffness * q;
  damping_term.noalias() = structure_.damping * v;
  force = structure_.constant_force - stiffness_term - damping_term;
  if (w > 0.0) {
    const detail::HarmonicPhase phase = detail::harmonic_phase(w, t);
    force += structure_.cosine_force * phase.cosine + structure_.sine_force * phase.sine;
  }
  for (int j : md.soft) {
    const auto& c = contacts_[j];
    const double delta = c.surface.position(w, t) - c.normal.dot(q);
    const double rate = c.surface.velocity(w, t) - c.normal.dot(v);
    force += c.force(delta, rate) * c.normal;
  }
  for (int j : md.with_regimes)
    force += contacts_[j].regimes()->force(regime(mode, j), law_inputs(j, t, x)) * contacts_[j].normal;
  if (has_additional_force()) {
    Vector extra = Vector::Zero(n);
    additional_force(t, q, v, extra);
    force += extra;
  }
}

double ImpactingStructure::holding_force(int mode, int contact, double t, ConstVectorRef x) const {
  const ModeData& md = modes_[mode];
  const auto it = std::find(md.stuck.begin(), md.stuck.end(), contact);
  if (it == md.stuck.end()) return std::numeric_limits<double>::quiet_NaN();
  const int k = static_cast<int>(it - md.stuck.begin());
  const int n = structure_.size();
  thread_local Vector force;  // no allocation per call: the flow asks at every impact
  force.resize(n);
  total_force(mode, t, x, force);
  // lambda = G^-1 (s''_S - W M^-1 f): the forces that keep the stuck gaps closed.
  double lambda = -md.holding_map.row(k).dot(force);
  for (std::size_t l = 0; l < md.stuck.size(); ++l)
    lambda += md.gram_inverse(k, l) *
              contacts_[md.stuck[l]].surface.acceleration(structure_.frequency, t);
  return lambda;
}

double ImpactingStructure::event_function(int mode, int event, double t, ConstVectorRef x) const {
  const auto [j, law_switch] = modes_[mode].events[event];
  if (law_switch >= 0)
    return contacts_[j].regimes()->switch_function(regime(mode, j), law_switch, law_inputs(j, t, x));
  if (closed(mode, j) && contacts_[j].hard()) return holding_force(mode, j, t, x);
  return gap(j, t, x);
}

bool ImpactingStructure::affine_event(int mode, int event, VectorRef coefficients) const {
  const int n = structure_.size(), d = 2 * n + internal_count_;  // (c_x, c_0, c_cos, c_sin)
  const auto [j, law_switch] = modes_[mode].events[event];
  const auto& c = contacts_[j];
  if (law_switch >= 0) return false;
  coefficients.setZero();
  if (!(closed(mode, j) && c.hard())) {
    coefficients.head(n) = c.normal;
    coefficients[d] = -c.surface.offset;
    coefficients[d + 1] = -c.surface.cosine;
    coefficients[d + 2] = -c.surface.sine;
    return true;
  }
  const ModeData& md = modes_[mode];
  if (!md.affine) return false;
  const int k = static_cast<int>(std::find(md.stuck.begin(), md.stuck.end(), j) - md.stuck.begin());
  const auto row = md.holding_map.row(k);
  const double w2 = structure_.frequency * structure_.frequency;
  coefficients.head(n) = (row * md.stiffness).transpose();
  coefficients.segment(n, n) = (row * md.damping).transpose();
  coefficients[d] = -row.dot(md.constant_force);
  coefficients[d + 1] = -row.dot(md.cosine_force);
  coefficients[d + 2] = -row.dot(md.sine_force);
  for (std::size_t l = 0; l < md.stuck.size(); ++l) {
    const auto& surface = contacts_[md.stuck[l]].surface;
    coefficients[d + 1] -= md.gram_inverse(k, l) * w2 * surface.cosine;
    coefficients[d + 2] -= md.gram_inverse(k, l) * w2 * surface.sine;
  }
  return true;
}

bool ImpactingStructure::event_gradient(int mode, int event, double t, ConstVectorRef x,
                                        VectorRef dh_dx, double& dh_dt) const {
  const int n = structure_.size(), d = 2 * n + internal_count_;
  const double w = structure_.frequency;
  const auto [j, law_switch] = modes_[mode].events[event];
  if (law_switch >= 0) {
    // h(delta, delta', z) with delta = s(t) - w.q, delta' = s'(t) - w.v.
    const auto& c = contacts_[j];
    LawGradient g{};
    c.regimes()->switch_gradient(regime(mode, j), law_switch, law_inputs(j, t, x), g.data());
    dh_dx.setZero();
    dh_dx.head(n) = -g[0] * c.normal;
    dh_dx.segment(n, n) = -g[1] * c.normal;
    for (int l = 0; l < internal_count(j); ++l) dh_dx[internal_offsets_[j] + l] = g[2 + l];
    dh_dt = g[0] * c.surface.velocity(w, t) + g[1] * c.surface.acceleration(w, t);
    return true;
  }
  const detail::HarmonicPhase phase = w > 0.0 ? detail::harmonic_phase(w, t) : detail::HarmonicPhase{};
  const auto& c = contacts_[j];
  if (!(closed(mode, j) && c.hard())) {  // the gap n . q - s(t): its terms as affine_event's
    dh_dx.setZero();
    dh_dx.head(n) = c.normal;
    dh_dt = w > 0.0 ? w * (-c.surface.sine * phase.cosine + c.surface.cosine * phase.sine) : 0.0;
    return true;
  }
  // Scratch kept per thread: the flow asks at every event, and an allocation there costs
  // as much as the gradient.
  thread_local Vector coefficients;
  coefficients.resize(d + 3);
  // The holding force of a mode that is not affine: central differences.
  if (!affine_event(mode, event, coefficients)) return false;
  dh_dx = coefficients.head(d);
  dh_dt = w > 0.0 ? w * (coefficients[d + 2] * phase.cosine - coefficients[d + 1] * phase.sine) : 0.0;
  return true;
}

ImpactingStructure::Projection ImpactingStructure::derive_projection(std::vector<int> set) const {
  const int n = structure_.size(), s = static_cast<int>(set.size());
  Projection p;
  p.constraints.resize(s, n);
  for (int k = 0; k < s; ++k) p.constraints.row(k) = contacts_[set[k]].normal.transpose();
  const Matrix mobility = mass_inverse_ * p.constraints.transpose();  // M^-1 W'
  p.gain = mobility * (p.constraints * mobility).inverse();           // B = M^-1 W' G^-1
  p.projector = Matrix::Identity(n, n) - p.gain * p.constraints;      // I - B W
  if (s > 0) {
    const Vector& normal = contacts_[set.back()].normal;
    p.mobility = normal.dot(mass_inverse_ * normal);
  }
  p.set = std::move(set);
  return p;
}

// Small vectors over the contacts of a constraint set (at most max_contacts): on the stack.
using ContactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, max_contacts, 1>;

// q+ = q + B (s - W q), v+ = v - B (1 + R) (W v - s'): the projection onto the constraints in
// the metric of M, with the rebound r of the impacting contact (the last of the set) when
// `restitution` is given.
void ImpactingStructure::project(const Projection& p, double restitution, double t,
                                 VectorRef x) const {
  const int n = structure_.size(), s = static_cast<int>(p.set.size());
  const double w = structure_.frequency;
  if (s == 1) {  // a single contact: the same bits in plain loops
    const double missing = -gap_of(p.set[0], t, x.data());
    const double approach = gap_rate_of(p.set[0], t, x.data()) * (1.0 + restitution);
    detail::add_single_column(n, p.gain.data(), missing, 1.0, x.data());
    detail::add_single_column(n, p.gain.data(), approach, -1.0, x.data() + n);
  } else {
    ContactVector missing(s), approach(s);  // s - W q = -g, and W v - s'
    for (int k = 0; k < s; ++k) {
      missing[k] = -gap_of(p.set[k], t, x.data());
      approach[k] = gap_rate_of(p.set[k], t, x.data());
    }
    approach[s - 1] *= 1.0 + restitution;
    x.head(n).noalias() += p.gain * missing;
    x.segment(n, n).noalias() -= p.gain * approach;
  }
  // Each gap closed exactly (a rounding-level correction): a short flight of a chattering
  // sequence then starts on the right side of the surface.
  for (int k = 0; k < s; ++k) {
    const auto& c = contacts_[p.set[k]];
    const int i = snapped_coordinate(c.normal);
    double others = 0.0;
    for (int j = 0; j < n; ++j)
      if (j != i) others += c.normal[j] * x[j];
    x[i] = (c.surface.position(w, t) - others) / c.normal[i];
  }
}

double ImpactingStructure::holding_bound(int stuck_mode, int contact, ConstVectorRef x) const {
  const ModeData& md = modes_[stuck_mode];
  if (md.holding_bounds.empty()) return std::numeric_limits<double>::infinity();
  const auto k = static_cast<std::size_t>(
      std::find(md.stuck.begin(), md.stuck.end(), contact) - md.stuck.begin());
  if (k >= md.holding_bounds.size()) return std::numeric_limits<double>::infinity();
  // The largest |q_i| and |v_i| in plain loops: Eigen's reductions of a dynamic length
  // cost more in their set-up than in the few numbers here, at every impact.
  const int n = structure_.size();
  double q = 0.0, v = 0.0;
  for (int i = 0; i < n; ++i) {
    q = std::max(q, std::abs(x[i]));
    v = std::max(v, std::abs(x[n + i]));
  }
  const auto& [constant, per_position, per_velocity] = md.holding_bounds[k];
  // Twice the bound of derive_forces: that covers the rounding of the computed force.
  return 2.0 * (constant + per_position * q + per_velocity * v);
}

EventOutcome ImpactingStructure::apply_event(int mode, int event, double t, VectorRef x) const {
  const auto [j, law_switch] = modes_[mode].events[event];
  const auto& c = contacts_[j];
  const int bit = strides_[j];  // the contact's unit in the mode's mixed radix
  if (law_switch >= 0) {  // a change of the law's regime; the state is continuous
    const int r = regime(mode, j);
    const RegimeSwitchSpec s = c.regimes()->switch_spec(r, law_switch);
    return EventOutcome{mode + (s.next - r) * bit, s.kind, false};
  }
  if (!c.hard())
    return closed(mode, j) ? EventOutcome{mode - bit, EventKind::ContactEnd, false}
                           : EventOutcome{mode + bit, EventKind::ContactStart, false};
  const Projection& projection = modes_[mode].projections[j];
  if (closed(mode, j)) {  // released: leave exactly on the surface with its velocity
    project(projection, 0.0, t, x);
    return EventOutcome{mode - bit, EventKind::StickEnd, false};
  }
  const auto& law = std::get<NewtonRestitution>(c.law);
  const double approach_speed = std::abs(gap_rate_of(j, t, x.data()));
  if (rebounds_clear(mode, j, approach_speed, x)) {
    project(projection, law.r, t, x);
    return EventOutcome{mode, EventKind::Impact, false};
  }
  // The force that would hold the contact once stuck, at the stuck state (scratch kept per
  // thread: no allocation per impact).
  thread_local Vector stuck;
  stuck = x;
  project(projection, 0.0, t, stuck);
  const double holding = holding_force(mode + bit, j, t, stuck) * projection.mobility;
  if (law.sticks(approach_speed, holding)) {
    x = stuck;
    return EventOutcome{mode + bit, EventKind::StickStart, false};
  }
  project(projection, law.r, t, x);
  return EventOutcome{mode, EventKind::Impact, false};
}

// Sticking needs a slow or a low rebound (NewtonRestitution::sticks). A rebound faster than
// stick_velocity and higher than any holding force the stuck state can have allows (its
// bound from the norms of the data) is an impact without the check's projection and
// holding force: the same decision at a fraction of the cost.
bool ImpactingStructure::rebounds_clear(int mode, int contact, double approach_speed,
                                        ConstVectorRef x) const {
  const auto& law = std::get<NewtonRestitution>(contacts_[contact].law);
  const double rebound = law.r * approach_speed;
  return rebound >= law.stick_velocity &&
         rebound * rebound >= 2.0 * holding_bound(mode + strides_[contact], contact, x) *
                                  modes_[mode].projections[contact].mobility * law.stick_height;
}

bool ImpactingStructure::affine_outcome(int mode, int event, double rate, ConstVectorRef x,
                                        EventOutcome& outcome) const {
  const auto [j, law_switch] = modes_[mode].events[event];
  const auto& c = contacts_[j];
  if (law_switch >= 0 || !c.hard() || closed(mode, j) ||
      !rebounds_clear(mode, j, std::abs(rate), x))
    return false;
  outcome = EventOutcome{mode, EventKind::Impact, false};
  return true;
}

bool ImpactingStructure::reset_jacobian(int mode, int event, const EventOutcome& outcome, double t,
                                        ConstVectorRef /*x_minus*/, MatrixRef dg_dx,
                                        VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  const EventKind kind = outcome.kind;
  if (kind != EventKind::Impact && kind != EventKind::StickStart && kind != EventKind::StickEnd)
    return true;
  const int n = structure_.size();
  const double w = structure_.frequency;
  const int j = modes_[mode].events[event].contact;
  const Projection& p = modes_[mode].projections[j];
  const int s = static_cast<int>(p.set.size());
  const double r = kind == EventKind::Impact ? std::get<NewtonRestitution>(contacts_[j].law).r : 0.0;
  ContactVector velocity(s), acceleration(s);
  for (int k = 0; k < s; ++k) {
    velocity[k] = contacts_[p.set[k]].surface.velocity(w, t);
    acceleration[k] = contacts_[p.set[k]].surface.acceleration(w, t);
  }
  acceleration[s - 1] *= 1.0 + r;
  // D of q+ = q + B (s - W q), v+ = v - B (1 + R) (W v - s').
  dg_dx.topLeftCorner(n, n) = p.projector;
  dg_dx.block(n, n, n, n) = p.projector;
  if (r != 0.0) dg_dx.block(n, n, n, n).noalias() -= r * p.gain.col(s - 1) * p.constraints.row(s - 1);
  dg_dt.head(n).noalias() = p.gain * velocity;
  dg_dt.segment(n, n).noalias() = p.gain * acceleration;
  return true;
}

bool ImpactingStructure::affine_reset(int mode, int event, EventKind kind,
                                      MatrixRef reset) const {
  const int n = structure_.size(), d = 2 * n + internal_count_;
  const auto [j, law_switch] = modes_[mode].events[event];
  if (law_switch >= 0) return false;
  reset.setZero();
  reset.leftCols(d).setIdentity();
  if (kind == EventKind::ContactStart || kind == EventKind::ContactEnd)
    return true;  // a soft contact's start or end: the state is continuous
  if (kind != EventKind::Impact && kind != EventKind::StickStart && kind != EventKind::StickEnd)
    return false;  // no other outcome is declared
  // q+ = q + B (s - W q), v+ = v - B (1 + R) (W v - s') as in project, with
  // s_k(t) = o_k + c_k cos w t + s_k sin w t and s_k' = w (s_k cos w t - c_k sin w t).
  const double w = structure_.frequency;
  const Projection& p = modes_[mode].projections[j];
  const int s = static_cast<int>(p.set.size());
  const double r = kind == EventKind::Impact ? std::get<NewtonRestitution>(contacts_[j].law).r : 0.0;
  reset.topLeftCorner(n, n) = p.projector;
  reset.block(n, n, n, n) = p.projector;
  if (r != 0.0) reset.block(n, n, n, n).noalias() -= r * p.gain.col(s - 1) * p.constraints.row(s - 1);
  for (int k = 0; k < s; ++k) {
    const SurfaceMotion& surface = contacts_[p.set[k]].surface;
    const double rebound = k == s - 1 ? 1.0 + r : 1.0;
    reset.col(d).head(n) += surface.offset * p.gain.col(k);
    reset.col(d + 1).head(n) += surface.cosine * p.gain.col(k);
    reset.col(d + 2).head(n) += surface.sine * p.gain.col(k);
    reset.col(d + 1).segment(n, n) += (rebound * w * surface.sine) * p.gain.col(k);
    reset.col(d + 2).segment(n, n) -= (rebound * w * surface.cosine) * p.gain.col(k);
  }
  return true;
}

void ImpactingStructure::force_parameter_derivative(int parameter, double /*t*/, ConstVectorRef,
                                                    ConstVectorRef, VectorRef) const {
  throw std::logic_error("model '" + name() + "' declares parameter '" +
                         forcing_parameters_[parameter].name + "' without a force derivative");
}

int ImpactingStructure::derivative_parameter(std::string_view name) const {
  for (std::size_t p = 0; p < forcing_parameters_.size(); ++p)
    if (forcing_parameters_[p].name == name) return static_cast<int>(p);
  return -1;
}

void ImpactingStructure::harmonic_derivative(const ModeData& md, int parameter,
                                              std::pair<double, double> phase,
                                              VectorRef df_dp) const {
  const int n = structure_.size();
  const ModeData::Derivative& d = md.derivatives[parameter];
  const auto [cw, sw] = phase;
  const double *a0 = d.acceleration[0].data(), *a1 = d.acceleration[1].data(),
               *a2 = d.acceleration[2].data();
  double* out = df_dp.data();
  with_kernels(n, [&](auto kernels) {  // a size fixed at compile time: a few stores
    const int m = decltype(kernels)::size(n);
    for (int i = 0; i < m; ++i) out[i] = 0.0;
    for (int i = 0; i < m; ++i) out[m + i] = a0[i] + a1[i] * cw + a2[i] * sw;
  });
  for (int i = 2 * n; i < 2 * n + internal_count_; ++i) out[i] = 0.0;
}

void ImpactingStructure::field_parameter_derivative(int parameter, int mode, double t,
                                                    ConstVectorRef x, VectorRef df_dp) const {
  const int n = structure_.size();
  const ModeData& md = modes_[mode];
  if (forcing_parameters_[parameter].harmonic) {  // no allocation: on the continuation's hot path
    const ModeData::Derivative& d = md.derivatives[parameter];
    harmonic_derivative(md, parameter,
                        acting_phase(d.has_cosine, d.has_sine, structure_.frequency, t), df_dp);
    return;
  }
  df_dp.setZero();
  Vector force = Vector::Zero(n);
  force_parameter_derivative(parameter, t, x.head(n), x.segment(n, n), force);
  df_dp.segment(n, n) = md.acceleration_map * force;
}

double ImpactingStructure::event_parameter_derivative(int parameter, int mode, int event, double t,
                                                      ConstVectorRef x) const {
  const ModeData& md = modes_[mode];
  const auto it = std::find(md.stuck.begin(), md.stuck.end(), md.events[event].contact);
  if (it == md.stuck.end()) return 0.0;  // a gap: independent of the forcing
  const auto k = it - md.stuck.begin();
  if (forcing_parameters_[parameter].harmonic) {
    const double w = structure_.frequency;
    const auto& h = md.derivatives[parameter].holding;
    if (!(w > 0.0)) return -h[0][k];
    const detail::HarmonicPhase phase = detail::harmonic_phase(w, t);
    return -(h[0][k] + h[1][k] * phase.cosine + h[2][k] * phase.sine);
  }
  const int n = structure_.size();
  Vector force = Vector::Zero(n);
  force_parameter_derivative(parameter, t, x.head(n), x.segment(n, n), force);
  return -md.holding_map.row(k).dot(force);
}

bool ImpactingStructure::affine_parameter_derivative(int parameter, int mode,
                                                     AffineMode& derivative) const {
  const ModeData& md = modes_[mode];
  if (!md.affine || !forcing_parameters_[parameter].harmonic) return false;
  const int n = structure_.size();
  const auto& a = md.derivatives[parameter].acceleration;
  derivative.A.setZero();
  derivative.b0.setZero();
  derivative.b_cos.setZero();
  derivative.b_sin.setZero();
  derivative.b0.segment(n, n) = a[0];
  derivative.b_cos.segment(n, n) = a[1];
  derivative.b_sin.segment(n, n) = a[2];
  return true;
}

int ImpactingStructure::mode_of(double t, ConstVectorRef x) const {
  int mode = 0;
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    if (const auto* law = contacts_[j].regimes()) mode += strides_[j] * law->regime_of(law_inputs(j, t, x));
    else if (!contacts_[j].hard() && gap(j, t, x) < 0.0) mode += strides_[j];
  }
  // A state resting exactly on a hard surface that pushes (a body put down on a table)
  // starts stuck.
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j)
    if (contacts_[j].hard() && gap(j, t, x) == 0.0 && gap_rate(j, t, x) == 0.0 &&
        holding_force(mode + strides_[j], j, t, x) > 0.0)
      mode += strides_[j];
  return mode;
}

std::vector<int> ImpactingStructure::displacement_coordinates() const {
  return contact_coordinates_;
}

double ImpactingStructure::kinetic_energy(double /*t*/, ConstVectorRef x) const {
  const int n = structure_.size();
  double energy = 0.0;
  for (int i : contact_coordinates_)
    for (int k : contact_coordinates_) energy += x[n + i] * structure_.mass(i, k) * x[n + k];
  return 0.5 * energy;
}

double ImpactingStructure::relative_velocity(int mode, int event, double t, ConstVectorRef x) const {
  const int j = modes_[mode].events[event].contact;
  if (const auto* law = contacts_[j].regimes())
    return law->approach_velocity(regime(mode, j), law_inputs(j, t, x));
  return gap_rate(j, t, x);
}

ImpactingStructure::ImpactChange ImpactingStructure::impact_change(int mode, int event, double t,
                                                                   const Vector& x_minus,
                                                                   const Vector& x_plus,
                                                                   double gap_rate) const {
  const int j = modes_[mode].events[event].contact;
  const double velocity = contacts_[j].regimes()    ? relative_velocity(mode, event, t, x_minus)
                          : std::isfinite(gap_rate) ? gap_rate
                                                    : gap_rate_of(j, t, x_minus.data());
  return {velocity, kinetic_energy(t, x_plus) - kinetic_energy(t, x_minus)};
}

std::optional<double> ImpactingStructure::divergence(int mode, double t, ConstVectorRef x) const {
  const ModeData& md = modes_[mode];
  double trace = md.damping_trace;
  for (std::size_t m = 0; m < md.soft.size(); ++m) {
    const int j = md.soft[m];
    const auto& c = contacts_[j];
    trace -= c.damping_slope(-gap(j, t, x), -gap_rate(j, t, x)) *
             c.normal.dot(md.contact_acceleration[m]);
  }
  // Laws with regimes: their force's slope in delta' (d delta' / dv = -w) and the
  // diagonal of their internal rates' Jacobian.
  for (std::size_t m = 0; m < md.with_regimes.size(); ++m) {
    const int j = md.with_regimes[m], r = regime(mode, j), internal = internal_count(j);
    const auto& c = contacts_[j];
    const ContactInputs in = law_inputs(j, t, x);
    LawGradient g{};
    c.regimes()->force_gradient(r, in, g.data());
    trace -= g[1] * c.normal.dot(md.contact_acceleration[md.soft.size() + m]);
    LawJacobian rates{};
    c.regimes()->internal_jacobian(r, in, rates.data());
    for (int a = 0; a < internal; ++a) trace += rates[a * (2 + internal) + 2 + a];
  }
  if (has_additional_force()) {
    const int n = structure_.size();
    Matrix d_dq(n, n), d_dv(n, n);
    additional_force_jacobian(t, x.head(n), x.segment(n, n), d_dq, d_dv);
    trace += (md.acceleration_map * d_dv).trace();
  }
  return trace;
}

const EnergyAccount* ImpactingStructure::energy_account() const {
  for (const auto& c : contacts_)
    if (c.hard() || (c.regimes() && !c.regimes()->accounts_energy())) return nullptr;
  if (has_additional_force() || !structure_.stiffness.isApprox(structure_.stiffness.transpose()))
    return nullptr;
  return this;
}

double ImpactingStructure::mechanical_energy(int mode, double t, ConstVectorRef x) const {
  const int n = structure_.size();
  const auto q = x.head(n), v = x.segment(n, n);
  double energy = 0.5 * v.dot(structure_.mass * v) + 0.5 * q.dot(structure_.stiffness * q) -
                  structure_.constant_force.dot(q);
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    if (const auto* law = contacts_[j].regimes()) energy += law->stored_energy(regime(mode, j), law_inputs(j, t, x));
    else if (closed(mode, j)) energy += contacts_[j].stored_energy(-gap(j, t, x));
  }
  return energy;
}

double ImpactingStructure::dissipated_power(int mode, double t, ConstVectorRef x) const {
  const int n = structure_.size();
  const auto v = x.segment(n, n);
  double power = v.dot(structure_.damping * v);
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    if (const auto* law = contacts_[j].regimes()) power += law->dissipated_power(regime(mode, j), law_inputs(j, t, x));
    else if (closed(mode, j)) power += contacts_[j].dissipated_power(-gap(j, t, x), -gap_rate(j, t, x));
  }
  return power;
}

double ImpactingStructure::supplied_power(int mode, double t, ConstVectorRef x) const {
  const int n = structure_.size();
  const double w = structure_.frequency;
  const auto v = x.segment(n, n);
  double power = 0.0;
  if (w > 0.0) {
    const detail::HarmonicPhase phase = detail::harmonic_phase(w, t);
    power = (structure_.cosine_force * phase.cosine + structure_.sine_force * phase.sine).dot(v);
  }
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j)
    if (contacts_[j].surface.moves()) power += force_of(mode, j, t, x) * contacts_[j].surface.velocity(w, t);
  return power;
}

const ContactMeasures* ImpactingStructure::contact_measures() const {
  for (const auto& c : contacts_)
    if (!c.hard()) return this;
  return nullptr;
}

double ImpactingStructure::contact_force(int mode, double t, ConstVectorRef x) const {
  double force = 0.0;
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) force += force_of(mode, j, t, x);
  return force;
}

double ImpactingStructure::force_of(int mode, int contact, double t, ConstVectorRef x) const {
  const auto& c = contacts_[contact];
  if (const auto* law = c.regimes()) return law->force(regime(mode, contact), law_inputs(contact, t, x));
  return closed(mode, contact) ? c.force(-gap(contact, t, x), -gap_rate(contact, t, x)) : 0.0;
}

namespace {

// The regimes of a law in which its contact is under way, from its switches: those a
// contact start leads to or a contact end leaves, and every regime the law's mode switches
// reach from one of them.
std::vector<bool> contact_regimes(const RegimeContactLaw& law) {
  const int count = law.regime_count();
  std::vector<bool> touching(static_cast<size_t>(count), false);
  std::vector<int> reached;
  const auto mark = [&](int regime) {
    if (regime < 0 || regime >= count || touching[static_cast<size_t>(regime)]) return;
    touching[static_cast<size_t>(regime)] = true;
    reached.push_back(regime);
  };
  for (int r = 0; r < count; ++r)
    for (int k = 0; k < law.switch_count(r); ++k) {
      const RegimeSwitchSpec s = law.switch_spec(r, k);
      if (s.kind == EventKind::ContactEnd) mark(r);
      if (s.kind == EventKind::ContactStart) mark(s.next);
    }
  while (!reached.empty()) {
    const int r = reached.back();
    reached.pop_back();
    for (int k = 0; k < law.switch_count(r); ++k) {
      const RegimeSwitchSpec s = law.switch_spec(r, k);
      if (s.kind == EventKind::ModeSwitch) mark(s.next);
    }
  }
  return touching;
}

}  // namespace

bool ImpactingStructure::in_contact(int mode, double, ConstVectorRef) const {
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    if (contacts_[j].hard()) continue;
    if (const auto* law = contacts_[j].regimes()) {
      if (contact_regimes(*law)[static_cast<size_t>(regime(mode, j))]) return true;
    } else if (closed(mode, j)) {
      return true;
    }
  }
  return false;
}

double ImpactingStructure::penetration(int mode, double t, ConstVectorRef x) const {
  double depth = 0.0;
  for (int j = 0; j < static_cast<int>(contacts_.size()); ++j) {
    if (const auto* law = contacts_[j].regimes())
      depth = std::max(depth, law->penetration(regime(mode, j), law_inputs(j, t, x)));
    else if (closed(mode, j) && !contacts_[j].hard()) depth = std::max(depth, -gap(j, t, x));
  }
  return depth;
}

}  // namespace libcont
