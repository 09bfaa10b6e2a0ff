#include "systems/platform.hpp"

#include <cmath>
#include <numbers>

#include "systems/impact_model.hpp"
#include "systems/two_body_impact.hpp"

namespace systems {

VibroImpactPlatform::VibroImpactPlatform() {
  auto& p = parameters_;
  p.add("m1", 7400.0, libcont::Constraint::Positive, "table mass (kg)");
  p.add("m2", 15000.0, libcont::Constraint::Positive, "mould with concrete (kg)");
  p.add("k1", 1.278e6, libcont::Constraint::Positive, "vibro-isolation spring stiffness (N/m)");
  p.add("k0", 3e8, libcont::Constraint::Positive,
        "rubber block stiffness (N/m): the linear contact, and w2 = sqrt(k0/m2) of the dampers");
  p.add("h", 0.0275, libcont::Constraint::Positive, "rubber block thickness (m)");
  p.add("xi0", 0.02, libcont::Constraint::NonNegative, "damping ratio of the block, only in contact");
  p.add("xi1", 0.02, libcont::Constraint::NonNegative, "damping ratio of the table's spring");
  p.add("xi2", 0.03, libcont::Constraint::NonNegative, "damping ratio of the concrete mix (the mould)");
  p.add("F0", 2.44e5, libcont::Constraint::Any, "force amplitude on the table (N)");
  p.add("omega", 157.0, libcont::Constraint::Positive, "forcing circular frequency (rad/s)");
  p.add("g", 9.81, libcont::Constraint::NonNegative, "gravitational acceleration");
  p.add_choice("contact", {"linear", "hertz", "newton"}, "linear",
               "block contact: k0 z, Hertz K z^1.5 (both with damper c0), or rigid with restitution r");
  p.add("r", 0.5, libcont::Constraint::UnitInterval, "restitution coefficient (newton)");
  p.add("E1", 3e8, libcont::Constraint::Positive, "Young's modulus of the rubber (Pa; hertz)");
  p.add("mu1", 0.4, libcont::Constraint::NonNegative, "Poisson ratio of the rubber (hertz)");
  p.add("E2", 2e12, libcont::Constraint::Positive, "Young's modulus of the mould (Pa; hertz)");
  p.add("mu2", 0.3, libcont::Constraint::NonNegative, "Poisson ratio of the mould (hertz)");
  p.add("R", 5.0, libcont::Constraint::Positive, "radius of curvature: A = B = 1/(2R) (m; hertz)");
  p.add("q", 0.318, libcont::Constraint::Positive, "Hertz coefficient q(A/B)");
  p.add_optional("K", libcont::Constraint::Positive,
                 "Hertz stiffness (N/m^1.5); derived from E1, mu1, E2, mu2, R, q unless given");
  p.add("stick_velocity", 1e-9, libcont::Constraint::NonNegative,
        "relative rebound speed below which the mould comes to rest on the block (newton)");
  configure();
}

void VibroImpactPlatform::configure() {
  const auto& p = parameters_;
  m1_ = p["m1"];
  m2_ = p["m2"];
  k1_ = p["k1"];
  h_ = p["h"];
  g_ = p["g"];
  f0_ = p["F0"];
  omega_ = p["omega"];
  const std::string& contact = p.choice("contact");
  contact_ = contact == "newton" ? Contact::Newton
             : contact == "hertz" ? Contact::Hertz
                                  : Contact::Linear;
  const double w1 = std::sqrt(k1_ / m1_), w2 = std::sqrt(p["k0"] / m2_);
  c0_ = 2.0 * p["xi0"] * m2_ * w2;
  c1_ = 2.0 * p["xi1"] * m1_ * w1;
  c2_ = 2.0 * p["xi2"] * m2_ * w2;
  linear_.stiffness = p["k0"];
  linear_.damping = c0_;
  const double curvature = 0.5 / p["R"];
  hertz_.stiffness = p.given("K") ? p["K"]
                                  : libcont::hertz_stiffness({p["E1"], p["mu1"]},
                                                             {p["E2"], p["mu2"]}, curvature,
                                                             curvature, p["q"]);
  hertz_.exponent = 1.5;
  law_ = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
}

std::string VibroImpactPlatform::mode_name(int mode) const {
  if (mode == Free) return "free";
  return contact_ == Contact::Newton ? "stick" : "contact";
}

double VibroImpactPlatform::forcing_period() const { return 2.0 * std::numbers::pi / omega_; }

double VibroImpactPlatform::force(double t) const { return f0_ * std::cos(omega_ * t); }

double VibroImpactPlatform::elastic_force(double z) const {
  return contact_ == Contact::Hertz ? hertz_.force(z) : linear_.force(z, 0.0);
}

double VibroImpactPlatform::elastic_slope(double z) const {
  return contact_ == Contact::Hertz ? hertz_.force_slope(z) : linear_.stiffness;
}

double VibroImpactPlatform::static_compression() const {
  const double weight = m2_ * g_;
  if (contact_ == Contact::Newton) return 0.0;
  if (contact_ == Contact::Hertz) return std::pow(weight / hertz_.stiffness, 1.0 / hertz_.exponent);
  return weight / linear_.stiffness;
}

void VibroImpactPlatform::free_accelerations(double t, libcont::ConstVectorRef x, double& a1,
                                             double& a2) const {
  a1 = (force(t) - k1_ * x[0] - c1_ * x[2] + m2_ * g_) / m1_;
  a2 = (-m2_ * g_ - c2_ * x[3]) / m2_;
}

double VibroImpactPlatform::joining_force(double t, libcont::ConstVectorRef x) const {
  double a1 = 0.0, a2 = 0.0;
  free_accelerations(t, x, a1, a2);
  // Equal accelerations: a1 - N/m1 = a2 + N/m2.
  return (a1 - a2) / (1.0 / m1_ + 1.0 / m2_);
}

double VibroImpactPlatform::penetration(int mode, double /*t*/, libcont::ConstVectorRef x) const {
  return (mode == Joined && contact_ != Contact::Newton) ? h_ - (x[1] - x[0]) : 0.0;
}

double VibroImpactPlatform::contact_force(int mode, double t, libcont::ConstVectorRef x) const {
  if (mode != Joined || contact_ == Contact::Newton) return 0.0;
  const double z = penetration(mode, t, x);
  return elastic_force(z) + c0_ * (x[2] - x[3]);
}

void VibroImpactPlatform::vector_field(int mode, double t, libcont::ConstVectorRef x,
                                       libcont::VectorRef dxdt) const {
  double a1 = 0.0, a2 = 0.0;
  free_accelerations(t, x, a1, a2);
  dxdt[0] = x[2];
  dxdt[1] = x[3];
  if (mode == Joined && contact_ == Contact::Newton) {
    dxdt[2] = dxdt[3] = (m1_ * a1 + m2_ * a2) / (m1_ + m2_);  // the joining force is internal
    return;
  }
  const double contact = contact_force(mode, t, x);
  dxdt[2] = a1 - contact / m1_;
  dxdt[3] = a2 + contact / m2_;
}

void VibroImpactPlatform::state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                                         libcont::MatrixRef jac) const {
  jac.setZero();
  jac(0, 2) = jac(1, 3) = 1.0;
  Eigen::RowVector4d da1(-k1_ / m1_, 0.0, -c1_ / m1_, 0.0);
  Eigen::RowVector4d da2(0.0, 0.0, 0.0, -c2_ / m2_);
  if (mode == Joined && contact_ == Contact::Newton) {
    jac.row(2) = jac.row(3) = (m1_ * da1 + m2_ * da2) / (m1_ + m2_);
    return;
  }
  if (mode == Joined) {
    // F_con = k(z) + c0 z', z = h - y2 + y1: dF/d(y1, y2, v1, v2) = (k', -k', c0, -c0).
    const double slope = elastic_slope(penetration(mode, t, x));
    const Eigen::RowVector4d dforce(slope, -slope, c0_, -c0_);
    da1 -= dforce / m1_;
    da2 += dforce / m2_;
  }
  jac.row(2) = da1;
  jac.row(3) = da2;
}

libcont::EventSpec VibroImpactPlatform::event_spec(int mode, int /*event*/) const {
  return unilateral_contact_event(contact_ == Contact::Newton, mode == Joined);
}

double VibroImpactPlatform::event_function(int mode, int /*event*/, double t,
                                           libcont::ConstVectorRef x) const {
  if (contact_ == Contact::Newton && mode == Joined) return joining_force(t, x);
  return x[1] - x[0] - h_;  // gap between block and mould, -z
}

void VibroImpactPlatform::event_gradient(int mode, int /*event*/, double t, libcont::ConstVectorRef /*x*/,
                                         libcont::VectorRef dh_dx, double& dh_dt) const {
  if (contact_ == Contact::Newton && mode == Joined) {
    // N = (a1 - a2) m1 m2 / (m1 + m2), linear in the state.
    const double share = m1_ * m2_ / (m1_ + m2_);
    dh_dx << -share * k1_ / m1_, 0.0, -share * c1_ / m1_, share * c2_ / m2_;
    dh_dt = -share * f0_ * omega_ * std::sin(omega_ * t) / m1_;
    return;
  }
  dh_dx << -1.0, 1.0, 0.0, 0.0;
  dh_dt = 0.0;
}

libcont::EventOutcome VibroImpactPlatform::apply_event(int mode, int /*event*/, double t,
                                              libcont::VectorRef x) const {
  if (contact_ != Contact::Newton)
    return mode == Free ? libcont::EventOutcome{Joined, libcont::EventKind::ContactStart, false}
                        : libcont::EventOutcome{Free, libcont::EventKind::ContactEnd, false};
  if (mode == Joined) return libcont::EventOutcome{Free, libcont::EventKind::StickEnd, false};
  x[1] = x[0] + h_;  // on the block exactly (a rounding-level correction)
  return two_body_newton_impact(law_, m1_, m2_, joining_force(t, x), x, {Free, Joined});
}

void VibroImpactPlatform::reset_jacobian(int /*mode*/, int /*event*/, const libcont::EventOutcome& outcome,
                                         double /*t*/, libcont::ConstVectorRef /*x_minus*/,
                                         libcont::MatrixRef dg_dx, libcont::VectorRef dg_dt) const {
  two_body_newton_reset_jacobian(law_, m1_, m2_, outcome.kind, dg_dx, dg_dt);
}

libcont::Vector VibroImpactPlatform::default_initial_state() const {
  libcont::Vector x(4);
  x << 0.0, h_ - static_compression(), 0.0, 0.0;
  return x;
}

int VibroImpactPlatform::mode_of(double /*t*/, libcont::ConstVectorRef x) const {
  const double gap = x[1] - x[0] - h_;
  if (contact_ != Contact::Newton) return gap < 0.0 ? Joined : Free;
  // Resting on the rigid block: on it and moving with the table.
  return (gap <= 0.0 && x[2] == x[3]) ? Joined : Free;
}

double VibroImpactPlatform::kinetic_energy(double /*t*/, libcont::ConstVectorRef x) const {
  return 0.5 * m2_ * x[3] * x[3];
}

double VibroImpactPlatform::relative_velocity(int, int, double, libcont::ConstVectorRef x) const {
  return x[3] - x[2];
}

double VibroImpactPlatform::mechanical_energy(int mode, double t, libcont::ConstVectorRef x) const {
  const double stored = contact_ == Contact::Hertz
                            ? hertz_.stored_energy(penetration(mode, t, x))
                            : linear_.stored_energy(penetration(mode, t, x));
  return 0.5 * (m1_ * x[2] * x[2] + m2_ * x[3] * x[3]) + 0.5 * k1_ * x[0] * x[0] -
         m2_ * g_ * x[0] + m2_ * g_ * x[1] + stored;
}

double VibroImpactPlatform::dissipated_power(int mode, double /*t*/, libcont::ConstVectorRef x) const {
  double power = c1_ * x[2] * x[2] + c2_ * x[3] * x[3];
  if (mode == Joined && contact_ != Contact::Newton) {
    const double rate = x[2] - x[3];
    power += c0_ * rate * rate;
  }
  return power;
}

double VibroImpactPlatform::supplied_power(int /*mode*/, double t, libcont::ConstVectorRef x) const {
  return force(t) * x[2];
}

}  // namespace systems
