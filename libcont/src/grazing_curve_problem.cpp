#include "libcont/grazing_curve_problem.hpp"

#include <cmath>
#include <limits>

#include "libcont/floquet.hpp"
#include "libcont/input_error.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/orbit_curve_problem.hpp"

namespace libcont {

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

bool GrazingCurveProblem::flow_for(ConstVectorRef x, double duration, Vector& end, int& mode,
                                   Matrix* tangent) {
  FlowOptions options = flow_;
  options.tangent = tangent != nullptr;
  Flow flow(view_, options);
  FlowState state = flow.initial_state(phase_, x);
  const FlowReport report = flow.advance(state, phase_ + duration);
  if (report.status != FlowStatus::Success) {
    failure_ = report.message;
    return false;
  }
  end = state.x;
  mode = state.mode;
  if (tangent) *tangent = state.tangent;
  return true;
}

bool GrazingCurveProblem::equations(ConstVectorRef u, VectorRef f, Matrix* monodromy) {
  const int n = system_.dimension();
  const double s = u[n + 1] * time_unit;
  Vector image, touch;
  int mode = 0, touch_mode = 0;
  if (!flow_for(u.head(n), period_ * system_.forcing_period(), image, mode, monodromy) ||
      !flow_for(u.head(n), s, touch, touch_mode, nullptr))
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
  // shooting rows' x-block is D_x Q^n - I from the tangent flow).
  Vector plus(m), minus(m);
  for (int j = 0; j <= m; ++j) {
    Vector up = u, um = u;
    double lp = lambda, lm = lambda;
    double h = 0.0;
    if (j < n) h = difference_step * std::max(u.head(n).cwiseAbs().maxCoeff(), 1e-300);
    else if (j == n) h = difference_step * (std::abs(u[n]) + second_scale);
    else if (j == n + 1) h = difference_step * period_ * system_.forcing_period() / time_unit;
    else h = difference_step * (std::abs(lambda) + first_scale);
    (j < m ? up[j] : lp) += h;
    (j < m ? um[j] : lm) -= h;
    if (!set_point(up, lp) || !equations(up, plus, nullptr) || !set_point(um, lm) ||
        !equations(um, minus, nullptr))
      return false;
    const Vector column = (plus - minus) / (2.0 * h);
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
    if (!flow_for(x, span * i / 256.0, y, mode, nullptr)) return false;
    const double gap = system_.event_function(mode, event_, phase_ + span * i / 256.0, y);
    if (gap < smallest) {
      smallest = gap;
      s = span * i / 256.0;
    }
  }
  return true;
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
