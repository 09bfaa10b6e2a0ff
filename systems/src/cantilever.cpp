#include "systems/cantilever.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "libcont/input_error.hpp"
#include "systems/impact_model.hpp"

namespace systems {

namespace {

struct ParameterSetValues {
  double m1, m2, l2;
};
// The source's two parameter sets (doc/models/cantilever.md).
constexpr ParameterSetValues parameter_sets[] = {{0.92, 0.08, 0.34}, {0.28, 0.72, 0.31}};

// Stiffness matrix of a light cantilever (flexural rigidity EI, length l) at its free end
// and at l2 from the clamp: the inverse of the flexibility matrix of the two points.
Eigen::Matrix2d beam_stiffness(double ei, double l, double l2) {
  const double w = 4.0 * l * l * l * l2 * l2 * l2 - std::pow(l2, 4) * std::pow(3.0 * l - l2, 2);
  const double coupling = -6.0 * ei * l2 * l2 * (3.0 * l - l2);
  Eigen::Matrix2d k;
  k << 12.0 * ei * l2 * l2 * l2, coupling, coupling, 12.0 * ei * l * l * l;
  return k / w;
}

}  // namespace

CantileverBeam::CantileverBeam() {
  auto& p = parameters_;
  p.add_choice("set", {"1", "2"}, "1",
               "the source's parameter set: 2DOF-1 (m1 = 0.92, m2 = 0.08, l2 = 0.34) or "
               "2DOF-2 (m1 = 0.28, m2 = 0.72, l2 = 0.31)");
  p.add_optional("m1", libcont::Constraint::Positive, "end mass (hits the base); from 'set' unless given");
  p.add_optional("m2", libcont::Constraint::Positive, "inner mass; from 'set' unless given");
  p.add_optional("l2", libcont::Constraint::Positive,
                 "distance of m2 from the clamp, 0 < l2 < l; from 'set' unless given");
  p.add("E", 0.3333, libcont::Constraint::Positive, "Young's modulus of the beam");
  p.add("I", 1.0, libcont::Constraint::Positive, "second moment of area of the beam");
  p.add("l", 1.0, libcont::Constraint::Positive, "beam length");
  p.add("nu", 0.23, libcont::Constraint::NonNegative, "mass-proportional damping: C = nu M");
  p.add("eta", 1.0, libcont::Constraint::Positive, "forcing circular frequency");
  p.add_required("e", libcont::Constraint::Any,
                 "forcing amplitude: force e eta^2 sin(eta t) on m1; the source does not give it");
  p.add("d", 0.0, libcont::Constraint::Any, "distance of the base below the equilibrium of m1");
  add_impact_model_parameters(p, 1.0, 200000.0, "is held on the base (the end mass m1)");
  configure();
}

void CantileverBeam::configure() {
  const auto& p = parameters_;
  const ParameterSetValues& set = parameter_sets[p.choice("set") == "1" ? 0 : 1];
  const double m1 = p.given("m1") ? p["m1"] : set.m1;
  const double m2 = p.given("m2") ? p["m2"] : set.m2;
  const double l2 = p.given("l2") ? p["l2"] : set.l2;
  if (!(l2 < p["l"]))
    throw libcont::InputError("parameter 'l2' must be shorter than the beam length l (got l2 = " +
                              std::to_string(l2) + ", l = " + std::to_string(p["l"]) + ")");
  mass_ = Eigen::Vector2d(m1, m2).asDiagonal();
  stiffness_ = beam_stiffness(p["E"] * p["I"], p["l"], l2);
  nu_ = p["nu"];
  eta_ = p["eta"];
  // Until e is set the model is listed but cannot run (Flow checks required parameters).
  e_ = p.given("e") ? p["e"] : std::numeric_limits<double>::quiet_NaN();
  d_ = p["d"];
  const ImpactModel impact = configure_impact_model(p, m1);  // cs for the end mass
  hard_ = impact.hard;
  law_ = impact.law;
  contact_ = impact.contact;
}

Eigen::Vector2d CantileverBeam::natural_frequencies() const {
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> solver(stiffness_, mass_,
                                                                         Eigen::EigenvaluesOnly);
  return solver.eigenvalues().cwiseSqrt();
}

std::string CantileverBeam::mode_name(int mode) const {
  if (mode == Free) return "free";
  return hard_ ? "stick" : "contact";
}

bool CantileverBeam::is_stiff(int mode) const {
  if (mode != Attached || hard_) return false;
  const double contact_frequency = std::sqrt(contact_.stiffness / mass_(0, 0));
  return contact_frequency > 50.0 * std::max(natural_frequencies()[1], eta_);
}

double CantileverBeam::forcing_period() const { return 2.0 * std::numbers::pi / eta_; }

double CantileverBeam::force(double t) const { return e_ * eta_ * eta_ * std::sin(eta_ * t); }

Eigen::Vector2d CantileverBeam::free_accelerations(double t, libcont::ConstVectorRef x) const {
  const Eigen::Vector2d position(x[0], x[1]), velocity(x[2], x[3]);
  Eigen::Vector2d load = -stiffness_ * position;
  load[0] += force(t);
  // C = nu M: the damping acceleration is -nu v for both masses.
  return mass_.diagonal().cwiseInverse().cwiseProduct(load) - nu_ * velocity;
}

double CantileverBeam::holding_force(double t, libcont::ConstVectorRef x) const {
  return -mass_(0, 0) * free_accelerations(t, x)[0];
}

void CantileverBeam::vector_field(int mode, double t, libcont::ConstVectorRef x,
                                  libcont::VectorRef dxdt) const {
  const Eigen::Vector2d a = free_accelerations(t, x);
  dxdt[0] = x[2];
  dxdt[1] = x[3];
  dxdt[2] = a[0] + contact_force(mode, t, x) / mass_(0, 0);
  dxdt[3] = a[1];
  if (mode == Attached && hard_) dxdt[0] = dxdt[2] = 0.0;  // m1 held on the base
}

void CantileverBeam::state_jacobian(int mode, double /*t*/, libcont::ConstVectorRef /*x*/,
                                    libcont::MatrixRef jac) const {
  jac.setZero();
  jac(0, 2) = jac(1, 3) = 1.0;
  for (int i = 0; i < 2; ++i) {
    jac(2 + i, 0) = -stiffness_(i, 0) / mass_(i, i);
    jac(2 + i, 1) = -stiffness_(i, 1) / mass_(i, i);
    jac(2 + i, 2 + i) = -nu_;
  }
  if (mode != Attached) return;
  if (hard_) {
    jac.row(0).setZero();
    jac.row(2).setZero();
    return;
  }
  jac(2, 0) -= contact_.stiffness / mass_(0, 0);
  jac(2, 2) -= contact_.damping / mass_(0, 0);
}

libcont::EventSpec CantileverBeam::event_spec(int mode, int /*event*/) const {
  return unilateral_contact_event(hard_, mode == Attached);
}

double CantileverBeam::event_function(int mode, int /*event*/, double t, libcont::ConstVectorRef x) const {
  if (hard_ && mode == Attached) return holding_force(t, x);
  return x[0] + d_;
}

void CantileverBeam::event_gradient(int mode, int /*event*/, double t, libcont::ConstVectorRef /*x*/,
                                    libcont::VectorRef dh_dx, double& dh_dt) const {
  dh_dx.setZero();
  dh_dt = 0.0;
  if (hard_ && mode == Attached) {
    // N = KB_11 x1 + KB_12 x2 + nu m1 v1 - e eta^2 sin(eta t)
    dh_dx[0] = stiffness_(0, 0);
    dh_dx[1] = stiffness_(0, 1);
    dh_dx[2] = nu_ * mass_(0, 0);
    dh_dt = -e_ * eta_ * eta_ * eta_ * std::cos(eta_ * t);
    return;
  }
  dh_dx[0] = 1.0;
}

libcont::EventOutcome CantileverBeam::apply_event(int mode, int /*event*/, double t,
                                         libcont::VectorRef x) const {
  if (!hard_)
    return mode == Free ? libcont::EventOutcome{Attached, libcont::EventKind::ContactStart, false}
                        : libcont::EventOutcome{Free, libcont::EventKind::ContactEnd, false};
  if (mode == Attached) return libcont::EventOutcome{Free, libcont::EventKind::StickEnd, false};
  // On the base exactly (a rounding-level correction), so that a short flight of a
  // chattering sequence starts on the right side of h = 0.
  x[0] = -d_;
  if (law_.sticks(std::abs(x[2]), holding_force(t, x) / mass_(0, 0))) {
    x[2] = 0.0;
    return libcont::EventOutcome{Attached, libcont::EventKind::StickStart, false};
  }
  x[2] = law_.rebound_velocity(x[2], 0.0);
  return libcont::EventOutcome{Free, libcont::EventKind::Impact, false};
}

void CantileverBeam::reset_jacobian(int /*mode*/, int /*event*/, const libcont::EventOutcome& outcome,
                                    double /*t*/, libcont::ConstVectorRef /*x_minus*/,
                                    libcont::MatrixRef dg_dx, libcont::VectorRef dg_dt) const {
  dg_dx.setIdentity();
  dg_dt.setZero();
  if (outcome.kind != libcont::EventKind::Impact && outcome.kind != libcont::EventKind::StickStart) return;
  dg_dx(0, 0) = 0.0;  // x1+ = -d
  dg_dx(2, 2) = outcome.kind == libcont::EventKind::Impact ? -law_.r : 0.0;
}

int CantileverBeam::mode_of(double /*t*/, libcont::ConstVectorRef x) const {
  return (!hard_ && x[0] + d_ < 0.0) ? Attached : Free;
}

double CantileverBeam::kinetic_energy(double /*t*/, libcont::ConstVectorRef x) const {
  return 0.5 * mass_(0, 0) * x[2] * x[2];
}

double CantileverBeam::relative_velocity(int, int, double, libcont::ConstVectorRef x) const { return x[2]; }

double CantileverBeam::divergence(int mode, double /*t*/, libcont::ConstVectorRef /*x*/) const {
  if (mode != Attached) return -2.0 * nu_;
  return hard_ ? -nu_ : -2.0 * nu_ - contact_.damping / mass_(0, 0);
}

double CantileverBeam::penetration(int mode, double /*t*/, libcont::ConstVectorRef x) const {
  return (mode == Attached && !hard_) ? -(x[0] + d_) : 0.0;
}

double CantileverBeam::contact_force(int mode, double t, libcont::ConstVectorRef x) const {
  if (mode != Attached || hard_) return 0.0;
  return contact_.force(penetration(mode, t, x), -x[2]);
}

double CantileverBeam::mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const {
  const Eigen::Vector2d position(x[0], x[1]), velocity(x[2], x[3]);
  return 0.5 * velocity.dot(mass_ * velocity) + 0.5 * position.dot(stiffness_ * position) +
         contact_.stored_energy(penetration(mode, t, x));
}

double CantileverBeam::dissipated_power(int mode, double t, libcont::ConstVectorRef x) const {
  const Eigen::Vector2d velocity(x[2], x[3]);
  double power = nu_ * velocity.dot(mass_ * velocity);
  if (mode == Attached && !hard_) power += contact_.dissipated_power(penetration(mode, t, x), -x[2]);
  return power;
}

double CantileverBeam::supplied_power(int /*mode*/, double t, libcont::ConstVectorRef x) const {
  return force(t) * x[2];
}

}  // namespace systems
