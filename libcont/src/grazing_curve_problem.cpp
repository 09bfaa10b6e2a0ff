#include "libcont/grazing_curve_problem.hpp"

#include <cmath>
#include <limits>

#include "libcont/floquet.hpp"
#include "libcont/input_error.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/grazing.hpp"
#include "libcont/orbit_curve_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/saltation.hpp"

namespace libcont {

namespace {

// adj(a) = det(a) a^-1, from the singular values so that it stays defined (and smooth)
// where a is singular: a = U S V^T gives adj(a) = det(U) det(V) V adj(S) U^T, adj(S) the
// diagonal of the products of the other singular values.
Matrix adjugate(const Matrix& a) {
  const Eigen::JacobiSVD<Matrix> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vector& sigma = svd.singularValues();
  Vector others = Vector::Ones(sigma.size());
  for (Eigen::Index i = 0; i < sigma.size(); ++i)
    for (Eigen::Index j = 0; j < sigma.size(); ++j)
      if (j != i) others[i] *= sigma[j];
  const double sign = svd.matrixU().determinant() * svd.matrixV().determinant();
  return sign * svd.matrixV() * others.asDiagonal() * svd.matrixU().transpose();
}

}  // namespace

GrazingCurveProblem::GrazingCurveProblem(HybridSystem& system, std::string first,
                                         std::string second, int period, FlowOptions flow,
                                         double phase, int event)
    : system_(system), view_(system), first_(std::move(first)), second_(std::move(second)),
      period_(period), flow_(flow), phase_(phase), event_(event) {
  if (period_ < 1) throw InputError("orbit period n must be >= 1");
  if (first_ == second_)
    throw InputError("the two parameters of a curve must differ, both are '" + first_ + "'");
  (void)system_.parameters()[first_];
  (void)system_.parameters()[second_];
  for (int j = 0; event_ < 0 && j < system_.event_count(0); ++j)
    if (system_.event_spec(0, j).kind == EventKind::Impact) event_ = j;
  if (event_ < 0 || event_ >= system_.event_count(0))
    throw InputError("model '" + system_.name() + "' has no hard-impact surface to graze");
  flow_.gap_minima = false;
  flow_.extremum_coordinates.clear();
}

bool GrazingCurveProblem::set_point(ConstVectorRef u, double lambda) {
  return set_curve_point(system_, first_, lambda, second_, u[system_.dimension()], failure_);
}

bool GrazingCurveProblem::flow_stretch(const HybridSystem& system, double from, double to,
                                       Vector& x, int& mode, Matrix* tangent) {
  FlowOptions options = flow_;
  options.tangent = tangent != nullptr;
  Flow flow(system, options);
  FlowState state = flow.initial_state(phase_ + from, x);
  const FlowReport report = flow.advance(state, phase_ + to);
  if (report.status != FlowStatus::Success) {
    failure_ = report.message;
    return false;
  }
  x = state.x;
  mode = state.mode;
  if (tangent) *tangent = state.tangent.leftCols(x.size()) * *tangent;
  return true;
}

bool GrazingCurveProblem::flow_for(ConstVectorRef x, double duration, double s, Vector& end,
                                   int& mode, Matrix* tangent) {
  end = x;
  mode = 0;
  if (tangent) *tangent = Matrix::Identity(x.size(), x.size());
  if (window <= 0.0) return flow_stretch(view_, 0.0, duration, end, mode, tangent);
  // The window around s and its copies one orbit period (n T) before and after, within
  // [0, duration]: the stretches without events; the model's flow between them.
  const double span = period_ * system_.forcing_period();
  double t = 0.0;
  for (int k = -1; k <= 1; ++k) {
    const double from = std::max(s - window + k * span, t);
    const double to = std::min(s + window + k * span, duration);
    if (!(from < to)) continue;
    if (from > t && !flow_stretch(system_, t, from, end, mode, tangent)) return false;
    if (!flow_stretch(view_, from, to, end, mode, tangent)) return false;
    t = to;
  }
  return t >= duration || flow_stretch(system_, t, duration, end, mode, tangent);
}

bool GrazingCurveProblem::find_tangency(ConstVectorRef x, double& s) {
  window = 0.0;
  StroboscopicMap map(system_, flow_, phase_);
  const MapEvaluation orbit = map.iterate(x, period_, false);
  if (!orbit.report.ok()) {
    failure_ = orbit.report.message;
    return false;
  }
  const double period = system_.forcing_period(), span = period_ * period;
  if (orbit.measures.impacts == 0) return smallest_gap_time(x, s);
  const std::optional<ContactApproach> touch =
      nearest_grazing(orbit.measures, grazing_scales(orbit.measures, period));
  if (!touch) return smallest_gap_time(x, s);
  s = std::fmod(touch->t - phase_, span);
  if (s < 0.0) s += span;
  // The nearest other event, cyclically over the orbit (the touching impact's own event
  // time is the touch itself).
  double nearest = span;
  for (const double e : orbit.measures.event_times) {
    const double apart = std::abs(std::remainder(e - touch->t, span));
    if (apart > 1e-9 * period) nearest = std::min(nearest, apart);
  }
  window = std::min(0.5 * nearest, 0.125 * period);
  return true;
}

bool GrazingCurveProblem::equations(ConstVectorRef u, VectorRef f, Matrix* monodromy) {
  const int n = system_.dimension();
  const double s = u[n + 1] * time_unit;
  Vector image, touch;
  int mode = 0, touch_mode = 0;
  if (!flow_for(u.head(n), period_ * system_.forcing_period(), s, image, mode, monodromy) ||
      !flow_for(u.head(n), s, s, touch, touch_mode, nullptr))
    return false;
  // The gap and its rate along the mode's field at the touching time.
  const double t = phase_ + s;
  Vector field(n), dh_dx(n);
  double dh_dt = 0.0;
  system_.vector_field(touch_mode, t, touch, field);
  ModelJacobians(system_).event_gradient(touch_mode, event_, t, touch, dh_dx, dh_dt);
  f.head(n) = image - u.head(n);
  f[n] = system_.event_function(touch_mode, event_, t, touch);
  f[n + 1] = dh_dx.dot(field) + dh_dt;
  return true;
}

bool GrazingCurveProblem::residual(ConstVectorRef u, double lambda, Vector& residual) {
  residual.resize(dimension());
  return set_point(u, lambda) && equations(u, residual, nullptr);
}

bool GrazingCurveProblem::evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                                   Vector& dlambda) {
  const int n = system_.dimension(), m = dimension();
  residual.resize(m);
  if (!set_point(u, lambda) || !equations(u, residual, &monodromy_)) return false;
  du = Matrix::Zero(m, m);
  dlambda.resize(m);
  // Central differences for every column (the state's for the tangency rows only: the
  // shooting rows' x-block is D_x Q^n - I from the tangent flow). Where one side of a
  // parameter leaves its valid range (r = 1), the second-order one-sided difference from
  // the centre and two points on the other side.
  Vector plus(m), minus(m);
  const auto shifted = [&](int j, double offset, Vector& f) {
    Vector v = u;
    double l = lambda;
    (j < m ? v[j] : l) += offset;
    return set_point(v, l) && equations(v, f, nullptr);
  };
  for (int j = 0; j <= m; ++j) {
    double h = 0.0;
    if (j < n) h = difference_step * std::max(u.head(n).cwiseAbs().maxCoeff(), 1e-300);
    else if (j == n) h = difference_step * (std::abs(u[n]) + second_scale);
    else if (j == n + 1) h = difference_step * period_ * system_.forcing_period() / time_unit;
    else h = difference_step * (std::abs(lambda) + first_scale);
    Vector column;
    if (shifted(j, h, plus) && shifted(j, -h, minus)) {
      column = (plus - minus) / (2.0 * h);
    } else {
      const bool parameter = j == n || j == m;
      double side = 0.0;
      for (const double s : {-1.0, 1.0})
        if (side == 0.0 && parameter && shifted(j, s * h, plus) && shifted(j, 2.0 * s * h, minus))
          side = s;
      if (side == 0.0) return false;
      column = (4.0 * plus - minus - 3.0 * residual) / (2.0 * side * h);
    }
    if (j == m) dlambda = column;
    else if (j < n) du.block(n, j, 2, 1) = column.tail(2);
    else du.col(j) = column;
  }
  du.topLeftCorner(n, n) = monodromy_ - Matrix::Identity(n, n);
  return set_point(u, lambda);
}

bool GrazingCurveProblem::smallest_gap_time(ConstVectorRef x, double& s) {
  const double span = period_ * system_.forcing_period();
  double smallest = std::numeric_limits<double>::infinity();
  for (int i = 1; i <= 256; ++i) {
    Vector y;
    int mode = 0;
    if (!flow_for(x, span * i / 256.0, 0.0, y, mode, nullptr)) return false;
    const double gap = system_.event_function(mode, event_, phase_ + span * i / 256.0, y);
    if (gap < smallest) {
      smallest = gap;
      s = span * i / 256.0;
    }
  }
  return true;
}

bool GrazingCurveProblem::grazing_impact(double t, ConstVectorRef x, int mode, Matrix& reset,
                                         Vector& jump) {
  const int n = system_.dimension();
  const ModelJacobians jacobians(system_);
  // h' = D_x h f + D_t h, the rate at which a state approaches the surface.
  const auto rate = [&](ConstVectorRef y) {
    Vector field(n), gradient(n);
    double dh_dt = 0.0;
    system_.vector_field(mode, t, y, field);
    jacobians.event_gradient(mode, event_, t, y, gradient, dh_dt);
    return gradient.dot(field) + dh_dt;
  };
  Vector field(n);
  system_.vector_field(mode, t, x, field);
  Vector slope(n);  // D_x h'
  for (int i = 0; i < n; ++i) {
    const double h = libcont::difference_step(x[i]);
    Vector up = x, down = x;
    up[i] += h;
    down[i] -= h;
    slope[i] = (rate(up) - rate(down)) / (2.0 * h);
  }
  // Where the terms cannot be had, the tests are NaN (no resonance located there); the
  // curve's own equations are not affected, so failure_ (a map's) is left alone.
  if (!(slope.squaredNorm() > 0.0) || !slope.allFinite()) return false;
  // Approach speeds far above a restitution law's sticking threshold and far below the
  // orbit's speeds: the terms' error after the extrapolation goes with their square.
  const double speed = 1e-5 * std::max(field.cwiseAbs().maxCoeff(), 1e-12);
  Matrix resets[2];
  Vector jumps[2];
  SaltationWorkspace work;
  for (int k = 0; k < 2; ++k) {
    // Moved along D_x h' so that h' = -(k + 1) speed to first order.
    const Vector before = x - ((k + 1) * speed + rate(x)) * slope / slope.squaredNorm();
    Vector after = before;
    const EventOutcome outcome = system_.apply_event(mode, event_, t, after);
    if (outcome.terminal || outcome.next_mode != mode) return false;  // no bounce
    saltation_matrix(jacobians, mode, event_, outcome, t, before, after, work);
    resets[k] = work.dg_dx;
    jumps[k] = work.jump;
  }
  reset = 2.0 * resets[0] - resets[1];
  jump = 2.0 * jumps[0] - jumps[1];
  return true;
}

std::vector<TestFunction> GrazingCurveProblem::test_functions() const {
  return {{"resonant-grazing-fold", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"resonant-grazing-flip", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
}

Vector GrazingCurveProblem::test_values(ConstVectorRef u, double) {
  const int n = system_.dimension();
  Vector values = Vector::Constant(2, std::numeric_limits<double>::quiet_NaN());
  const double s = u[n + 1] * time_unit;
  Vector touch;
  int mode = 0;
  Matrix to_touch;  // the tangent flow from the section to the touching point
  if (!flow_for(u.head(n), s, s, touch, mode, &to_touch)) return values;
  const double t = phase_ + s;
  Matrix reset;
  Vector jump;
  if (!grazing_impact(t, touch, mode, reset, jump)) return values;
  // Once round from the touching point: the section's monodromy seen from there.
  const Matrix around = to_touch * monodromy_ * to_touch.inverse();
  Vector gradient(n);
  double dh_dt = 0.0;
  ModelJacobians(system_).event_gradient(mode, event_, t, touch, gradient, dh_dt);
  const Vector image = around * jump;
  for (int k = 0; k < 2; ++k) {
    const double mu = k == ResonantGrazingFold ? 1.0 : -1.0;
    const Matrix a = around * reset - mu * Matrix::Identity(n, n);
    // adj(a) scales as |a|^(n-1): divided out with the other factors' sizes, so that the
    // value is a cosine-like number of order one.
    values[k] = gradient.dot(adjugate(a) * image) /
                (gradient.norm() * image.norm() * std::pow(a.norm(), n - 1));
  }
  return values;
}

std::vector<std::string> GrazingCurveProblem::point_data_names() const {
  std::vector<std::string> names = {"tangency_time"};
  for (int k = 1; k <= system_.dimension(); ++k) {
    names.push_back("mu" + std::to_string(k) + ":re");
    names.push_back("mu" + std::to_string(k) + ":im");
  }
  return names;
}

Vector GrazingCurveProblem::point_data(ConstVectorRef u, double) {
  const FloquetMultipliers f = floquet_multipliers(monodromy_);
  const Eigen::Index m = f.multipliers.size();
  Vector data(1 + 2 * m);
  data[0] = u[system_.dimension() + 1] * time_unit;
  for (Eigen::Index k = 0; k < m; ++k) {
    data[1 + 2 * k] = f.multipliers[k].real();
    data[2 + 2 * k] = f.multipliers[k].imag();
  }
  return data;
}

bool GrazingCurveProblem::beyond_range(ConstVectorRef u, double, std::string& why) {
  const double p2 = u[system_.dimension()];
  if (p2 >= second_min && p2 <= second_max) return false;
  why = "the curve leaves the range of " + second_ + " at " + number_text(p2);
  return true;
}

}  // namespace libcont
