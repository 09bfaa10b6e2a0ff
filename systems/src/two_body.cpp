#include "systems/two_body.hpp"

#include <cmath>
#include <numbers>

#include "libcont/input_error.hpp"
#include "systems/impact_model.hpp"
#include "systems/two_body_impact.hpp"

using libcont::ConstVectorRef;
using libcont::Constraint;
using libcont::EventKind;
using libcont::EventOutcome;

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
  configure();
}

void TwoBodySystem::configure() {
  const auto& p = parameters_;
  m1_ = p["m1"];
  m2_ = p["m2"];
  w1_ = p["w1"];
  w2_ = p["w2"];
  xi1_ = p["xi1"];
  xi2_ = p["xi2"];
  gap_ = p["D"];
  f0_ = p["F0"];
  omega_ = p["omega"];
  lambda_ = p["lambda"];
  rows_ = derive_free_acceleration_rows();
  newton_ = p.choice("contact") == "newton";
  law_ = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
  const libcont::ElasticBody body{p["E"], p["mu"]};
  hertz_.stiffness = p.given("K") ? p["K"] : libcont::hertz_stiffness(body, body, p["A"], p["B"], p["q"]);
  hertz_.exponent = 1.5;
  random_.reset();
  if (p.choice("loading") == "random") {
    const double seed = p["seed"], count = p["n"];
    if (seed != std::floor(seed) || seed > 9007199254740992.0)  // 2^53: still exact
      throw libcont::InputError("parameter 'seed' must be a whole number in [0, 2^53]");
    if (count != std::floor(count) || count > 100000.0)
      throw libcont::InputError("parameter 'n' must be a whole number in [1, 100000]");
    const libcont::FilteredNoiseSpectrum density{p["sigma"], p["theta"], p["alpha"]};
    random_.emplace(density, static_cast<int>(count), p["dw"],
                    static_cast<std::uint64_t>(seed));
  }
}

std::string TwoBodySystem::mode_name(int mode) const {
  if (mode == Free) return "free";
  return newton_ ? "stick" : "contact";
}

double TwoBodySystem::forcing_period() const {
  return random_ ? random_->period() : 2.0 * std::numbers::pi / omega_;
}

double TwoBodySystem::force(double t) const { return lambda_ * unit_load(t); }

double TwoBodySystem::unit_load(double t) const {
  return random_ ? (*random_)(t) : f0_ * std::cos(omega_ * t);
}

int TwoBodySystem::derivative_parameter(std::string_view name) const {
  return name == "lambda" ? 0 : -1;
}

void TwoBodySystem::field_parameter_derivative(int /*parameter*/, int mode, double t,
                                               ConstVectorRef /*x*/,
                                               libcont::VectorRef df_dp) const {
  df_dp.setZero();
  if (mode == Joined && newton_) {
    df_dp[2] = df_dp[3] = unit_load(t) / (m1_ + m2_);  // the common acceleration
    return;
  }
  df_dp[2] = unit_load(t) / m1_;
}

double TwoBodySystem::event_parameter_derivative(int /*parameter*/, int mode, int /*event*/,
                                                 double t, ConstVectorRef /*x*/) const {
  if (!(newton_ && mode == Joined)) return 0.0;  // the gap
  return unit_load(t) / m1_ / (1.0 / m1_ + 1.0 / m2_);  // the joining force
}

bool TwoBodySystem::affine_parameter_derivative(int /*parameter*/, int mode,
                                                libcont::AffineMode& derivative) const {
  if (random_ || (mode == Joined && !newton_)) return false;
  derivative.A.setZero();
  derivative.b0.setZero();
  derivative.b_sin.setZero();
  derivative.b_cos.setZero();
  if (mode == Joined)
    derivative.b_cos[2] = derivative.b_cos[3] = f0_ / (m1_ + m2_);
  else
    derivative.b_cos[2] = f0_ / m1_;
  return true;
}

Eigen::Matrix<double, 2, 5> TwoBodySystem::derive_free_acceleration_rows() const {
  const double chi = m2_ / m1_;
  const double k1 = w1_ * w1_, k2 = w2_ * w2_, c1 = 2.0 * xi1_ * w1_, c2 = 2.0 * xi2_ * w2_;
  Eigen::Matrix<double, 2, 5> rows;
  // The coupling spring stretches by x1 - x2 + D, its damper by v1 - v2.
  rows << -k1 - k2 * chi, k2 * chi, -c1 - c2 * chi, c2 * chi, -k2 * chi * gap_,  //
      k2, -k2, c2, -c2, k2 * gap_;
  return rows;
}

void TwoBodySystem::free_accelerations(double t, ConstVectorRef x, double& a1, double& a2) const {
  const Eigen::Vector2d a = rows_.leftCols<4>() * x.head<4>() + rows_.col(4);
  a1 = a[0] + force(t) / m1_;
  a2 = a[1];
}

bool TwoBodySystem::affine_mode(int mode, libcont::AffineMode& data) const {
  if (random_ || (mode == Joined && !newton_)) return false;
  // Columns (x1, x2, v1, v2, 1, cos omega t) of the accelerations.
  Eigen::Matrix<double, 2, 6> rows;
  rows << rows_, Eigen::Vector2d(lambda_ * f0_ / m1_, 0.0);
  if (mode == Joined) {  // stuck together: the common acceleration (contact force internal)
    const Eigen::Matrix<double, 1, 6> common = (m1_ * rows.row(0) + m2_ * rows.row(1)) / (m1_ + m2_);
    rows.row(0) = common;
    rows.row(1) = common;
  }
  data.A.setZero();
  data.A(0, 2) = data.A(1, 3) = 1.0;
  data.A.bottomRows(2) = rows.leftCols(4);
  data.b0.setZero();
  data.b_cos.setZero();
  data.b_sin.setZero();
  data.b0.tail(2) = rows.col(4);
  data.b_cos.tail(2) = rows.col(5);
  data.frequency = omega_;
  return true;
}

bool TwoBodySystem::affine_event(int mode, int /*event*/, libcont::VectorRef coefficients) const {
  if (random_ || (mode == Joined && !newton_)) return false;
  coefficients.setZero();
  if (mode == Free) {
    coefficients.head(2) << -1.0, 1.0;  // the gap x2 - x1
    return true;
  }
  // The joining force (a1 - a2) / (1/m1 + 1/m2), coefficients (x, 1, cos, sin).
  const double reduced = 1.0 / m1_ + 1.0 / m2_;
  coefficients.head(5) = (rows_.row(0) - rows_.row(1)).transpose() / reduced;
  coefficients[5] = lambda_ * f0_ / m1_ / reduced;
  return true;
}

double TwoBodySystem::joining_force(double t, ConstVectorRef x) const {
  double a1 = 0.0, a2 = 0.0;
  free_accelerations(t, x, a1, a2);
  // Equal accelerations: a1 - F/m1 = a2 + F/m2.
  return (a1 - a2) / (1.0 / m1_ + 1.0 / m2_);
}

void TwoBodySystem::vector_field(int mode, double t, ConstVectorRef x,
                                 libcont::VectorRef dxdt) const {
  double a1 = 0.0, a2 = 0.0;
  free_accelerations(t, x, a1, a2);
  dxdt[0] = x[2];
  dxdt[1] = x[3];
  if (mode == Joined && newton_) {
    const double common = (m1_ * a1 + m2_ * a2) / (m1_ + m2_);  // contact force is internal
    dxdt[2] = dxdt[3] = common;
    return;
  }
  const double contact = mode == Joined ? hertz_.force(x[0] - x[1]) : 0.0;
  dxdt[2] = a1 - contact / m1_;
  dxdt[3] = a2 + contact / m2_;
}

void TwoBodySystem::state_jacobian(int mode, double /*t*/, ConstVectorRef x,
                                   libcont::MatrixRef jac) const {
  // Rows of d(a1)/d(x1, x2, v1, v2) and d(a2)/d(...).
  Eigen::RowVector4d da1 = rows_.row(0).head<4>(), da2 = rows_.row(1).head<4>();
  if (mode == Joined && newton_) {
    da1 = (m1_ * da1 + m2_ * da2) / (m1_ + m2_);
    da2 = da1;
  } else if (mode == Joined) {
    const double slope = hertz_.force_slope(x[0] - x[1]);
    da1(0) -= slope / m1_;
    da1(1) += slope / m1_;
    da2(0) += slope / m2_;
    da2(1) -= slope / m2_;
  }
  // Entry by entry: on the hot path of the tangent flow, where a strided block
  // expression per row costs more than the 16 stores.
  for (int j = 0; j < 4; ++j) {
    jac(0, j) = j == 2 ? 1.0 : 0.0;
    jac(1, j) = j == 3 ? 1.0 : 0.0;
    jac(2, j) = da1(j);
    jac(3, j) = da2(j);
  }
}

libcont::EventSpec TwoBodySystem::event_spec(int mode, int /*event*/) const {
  return unilateral_contact_event(newton_, mode == Joined);
}

double TwoBodySystem::event_function(int mode, int /*event*/, double t, ConstVectorRef x) const {
  if (newton_ && mode == Joined) return joining_force(t, x);
  return x[1] - x[0];  // gap
}

void TwoBodySystem::event_gradient(int mode, int event, double t, ConstVectorRef x,
                                   libcont::VectorRef dh_dx, double& dh_dt) const {
  if (newton_ && mode == Joined) {
    HybridSystem::event_gradient(mode, event, t, x, dh_dx, dh_dt);  // linear: differences are exact
    return;
  }
  dh_dx << -1.0, 1.0, 0.0, 0.0;
  dh_dt = 0.0;
}

EventOutcome TwoBodySystem::apply_event(int mode, int /*event*/, double t,
                                        libcont::VectorRef x) const {
  if (!newton_)
    return mode == Free ? EventOutcome{Joined, EventKind::ContactStart, false}
                        : EventOutcome{Free, EventKind::ContactEnd, false};
  if (mode == Joined) return EventOutcome{Free, EventKind::StickEnd, false};
  x[1] = x[0];  // on the contact surface exactly (a rounding-level correction)
  return two_body_newton_impact(law_, m1_, m2_, joining_force(t, x), x, {Free, Joined});
}

void TwoBodySystem::reset_jacobian(int /*mode*/, int /*event*/, const EventOutcome& outcome,
                                   double /*t*/, ConstVectorRef /*x_minus*/,
                                   libcont::MatrixRef dg_dx, libcont::VectorRef dg_dt) const {
  two_body_newton_reset_jacobian(law_, m1_, m2_, outcome.kind, dg_dx, dg_dt);
}

std::vector<std::string> TwoBodySystem::output_names() const {
  if (random_) return {"F"};
  return {};
}

void TwoBodySystem::outputs(int /*mode*/, double t, ConstVectorRef /*x*/,
                           libcont::VectorRef values) const {
  if (random_) values[0] = force(t);
}

libcont::Vector TwoBodySystem::default_initial_state() const {
  libcont::Vector x(4);
  x << 0.0, gap_, 0.0, 0.0;  // at rest: the coupling spring unstretched
  return x;
}

int TwoBodySystem::mode_of(double /*t*/, ConstVectorRef x) const {
  return (!newton_ && x[0] - x[1] > 0.0) ? Joined : Free;
}

double TwoBodySystem::kinetic_energy(double, ConstVectorRef x) const {
  return 0.5 * (m1_ * x[2] * x[2] + m2_ * x[3] * x[3]);
}

double TwoBodySystem::relative_velocity(int, int, double, ConstVectorRef x) const {
  return x[3] - x[2];
}

}  // namespace systems
