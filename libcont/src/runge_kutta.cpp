#include "runge_kutta.hpp"

#include <cstdio>  // before ARKODE's header, which uses FILE

#include <arkode/arkode_butcher_erk.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "finite_sum.hpp"
#include "libcont/input_error.hpp"

namespace libcont::detail {

namespace {

constexpr double kSafety = 0.9, kMinFactor = 0.2, kMaxFactor = 5.0;
constexpr int kMaxRejections = 100;
constexpr double kErrorFloor = 1e-4;  // error norms below count as this in step trends

// The finest step worth grading down to at time t: far above the rounding of t + h.
double time_resolution(double t) {
  return 1e4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), 1.0);
}

// out = start + sum_m (h w_m r_m) k_m (start 0 if null), k_m the stage in column stage_m
// of `stages` (size rows each) and r_m its rate dt/du, the terms added in their order.
// N: the size if fixed at compile time (the sums then stay in registers), else
// Eigen::Dynamic.
template <int N>
void combine_stages(const StageCombination& terms, double h, const double* rates,
                    const double* stages, const double* start, double* out, int size) {
  using Column = Eigen::Matrix<double, N, 1>;
  const auto count = terms.stage.size();
  const auto term = [&](size_t m) {
    const auto column = static_cast<Eigen::Index>(terms.stage[m]);
    return Eigen::Map<const Column>(stages + column * size, size);
  };
  const auto weight = [&](size_t m) {
    return h * terms.weight[m] * rates[terms.stage[m]];
  };
  Eigen::Map<Column> result(out, size);
  if constexpr (N == Eigen::Dynamic) {
    if (start)
      result = Eigen::Map<const Column>(start, size);
    else
      result.setZero();
    for (size_t m = 0; m < count; ++m) result += weight(m) * term(m);
  } else {
    Column sum = start ? Column(Eigen::Map<const Column>(start)) : Column::Zero();
    for (size_t m = 0; m < count; ++m) sum += weight(m) * term(m);
    result = sum;
  }
}

}  // namespace

ExplicitRungeKutta::ExplicitRungeKutta(int size, Vector absolute_tolerances,
                                       double relative_tolerance, double max_step)
    : size_(size), atol_(std::move(absolute_tolerances)), rtol_(relative_tolerance),
      max_step_(max_step > 0.0 ? max_step : std::numeric_limits<double>::infinity()),
      table_(ARKodeButcherTable_LoadERK(ARKODE_VERNER_8_5_6)) {
  if (!table_) throw std::runtime_error("SUNDIALS: cannot load the Verner 6(5) table");
  y0_ = y1_ = f0_ = f_start_ = f_root_ = y_new_ = scratch_ = scratch_root_ = error_ =
      returned_ = Vector::Zero(size);
  const int stages = table_->stages;
  k_ = Matrix::Zero(size, stages);  // column i: stage i
  rates_.assign(static_cast<size_t>(stages), 1.0);
  // The nonzero weights of each combination of stages, in the table's order.
  const auto terms = [&](int count, auto weight) {
    StageCombination c;
    for (int j = 0; j < count; ++j)
      if (weight(j) != 0.0) {
        c.stage.push_back(j);
        c.weight.push_back(weight(j));
      }
    return c;
  };
  for (int i = 0; i < stages; ++i)
    stage_terms_.push_back(terms(i, [&](int j) { return table_->A[i][j]; }));
  solution_terms_ = terms(stages, [&](int j) { return table_->b[j]; });
  error_terms_ = terms(stages, [&](int j) { return table_->b[j] - table_->d[j]; });
}

ExplicitRungeKutta::~ExplicitRungeKutta() {
  ARKodeButcherTable_Free(const_cast<ARKodeButcherTableMem*>(table_));
}

// In root time the integrated field is dy/ds = 2 s f(origin + s^2, y).
double ExplicitRungeKutta::local(double t) const {
  return root_time_ ? std::sqrt(std::max(t - origin_, 0.0)) : t - origin_;
}

// The field in the step time t is dy/du = rate(t) f: the stage sums take the rate into
// their weights (a scalar per stage instead of a scaled vector).
bool ExplicitRungeKutta::field(double t, const double* y, double* dydt) {
  return f_(context_, absolute_at(t), y, dydt);
}

// Towards a root (integrate_to) the step time is u = sigma_0 - sigma, sigma the square root
// of the local time left to the root, and dt/du = 2 sigma dt/ds (s the local time).
double ExplicitRungeKutta::rate_towards_root(double t) const {
  const double sigma = root_span_ - t;
  const double local = local_towards_root(t);
  return 2.0 * sigma * (root_time_ ? 2.0 * local : 1.0);
}

double ExplicitRungeKutta::local_towards_root(double u) const {
  const double sigma = root_span_ - u;
  return root_end_ - sigma * sigma;
}

// The longest step from step time t that max_step allows in absolute time (none towards a
// root: that way lies inside a step already taken).
double ExplicitRungeKutta::step_limit(double t) const {
  if (to_root_) return std::numeric_limits<double>::infinity();
  return root_time_ ? std::sqrt(t * t + max_step_) - t : max_step_;
}

void ExplicitRungeKutta::start(double t, const double* y, double step_guess, Field f,
                               RootFunctions g, void* context, const std::vector<int>& directions,
                               int events, bool root_time, int monitors) {
  root_time_ = root_time;
  f_ = f;
  events_ = events;
  monitors_ = monitors;
  g_ = g;
  steps_ = rejected_ = 0;
  previous_step_ = 0.0;
  context_ = context;
  directions_ = directions;  // the containers below keep their storage from start to start
  message_.clear();
  origin_ = t;
  t0_ = t1_ = t_reference_ = start_time_ = 0.0;
  y1_ = Eigen::Map<const Vector>(y, size_);
  y0_ = y1_;
  returned_ = y1_;
  inside_step_ = false;
  const auto roots = static_cast<Eigen::Index>(directions_.size());
  for (Vector* v : {&g_reference_, &g_end_, &g_mid_}) v->setZero(roots);
  root_info_.assign(directions_.size(), 0);
  if (roots > 0) g_(context_, t, y1_.data(), g_end_.data(), kAllRoots);
  g_reference_ = g_end_;
  reference_monitors_known_ = end_monitors_known_ = true;
  // 0: estimated at the first step.
  h_ = step_guess > 0.0 ? (root_time_ ? std::sqrt(step_guess) : step_guess) : 0.0;
}

// y_out = y + h sum b_i r_i k_i and error = h sum (b_i - d_i) r_i k_i, r_i the stages'
// rates, stage 0 being f at (t, y) (in column 0 of k_ already). False if a stage is not finite. N: the size if fixed at
// compile time, else Eigen::Dynamic.
template <int N>
bool ExplicitRungeKutta::stages_of_size(double t, const double* y, double h, double* y_out,
                                        double* error) {
  const ARKodeButcherTableMem& b = *table_;
  rates_[0] = rate(t);
  for (int i = 1; i < b.stages; ++i) {
    const auto stage = static_cast<size_t>(i);
    combine_stages<N>(stage_terms_[stage], h, rates_.data(), k_.data(), y, scratch_.data(), size_);
    const double t_stage = t + b.c[i] * h;
    rates_[stage] = rate(t_stage);
    if (!field(t_stage, scratch_.data(), k_.col(i).data())) return false;
  }
  combine_stages<N>(solution_terms_, h, rates_.data(), k_.data(), y, y_out, size_);
  if (error) combine_stages<N>(error_terms_, h, rates_.data(), k_.data(), nullptr, error, size_);
  return sum_is_finite(y_out, size_);
}

// The stage combinations on vectors of a size fixed at compile time where it is a usual
// one: the sizes are small (4 states, 20 with the tangent) and the terms few, where a
// dynamic-size expression per term costs more than its arithmetic.
bool ExplicitRungeKutta::stages(double t, const double* y, double h, double* y_out,
                                double* error) {
  // The sizes of 2, 3 and 4 states, with and without the tangent (n + n^2), and with
  // the tangent and a parameter column (n + n (n + 1)).
  switch (size_) {
    case 2: return stages_of_size<2>(t, y, h, y_out, error);
    case 3: return stages_of_size<3>(t, y, h, y_out, error);
    case 4: return stages_of_size<4>(t, y, h, y_out, error);
    case 6: return stages_of_size<6>(t, y, h, y_out, error);
    case 8: return stages_of_size<8>(t, y, h, y_out, error);
    case 12: return stages_of_size<12>(t, y, h, y_out, error);
    case 15: return stages_of_size<15>(t, y, h, y_out, error);
    case 20: return stages_of_size<20>(t, y, h, y_out, error);
    case 24: return stages_of_size<24>(t, y, h, y_out, error);
    default: return stages_of_size<Eigen::Dynamic>(t, y, h, y_out, error);
  }
}

// CVODE's weighted RMS norm: weights rtol |y| + atol, |y| the larger of the step's ends.
double ExplicitRungeKutta::error_norm(const double* y0, const double* y1,
                                      const double* error) const {
  double sum = 0.0;
  for (int i = 0; i < size_; ++i) {
    const double w = rtol_ * std::max(std::abs(y0[i]), std::abs(y1[i])) + atol_[i];
    const double r = error[i] / w;
    sum += r * r;
  }
  return std::sqrt(sum / size_);
}

// A first step from the sizes of y and f (Hairer, Norsett & Wanner's simplest rule): the
// error control corrects it within a few rejections.
double ExplicitRungeKutta::initial_step(const Vector& f) const {
  const double r = rate(t1_);  // f in the step time
  double y_norm = 0.0, f_norm = 0.0;
  for (int i = 0; i < size_; ++i) {
    const double w = rtol_ * std::abs(y1_[i]) + atol_[i];
    y_norm += (y1_[i] / w) * (y1_[i] / w);
    f_norm += (r * f[i] / w) * (r * f[i] / w);
  }
  y_norm = std::sqrt(y_norm / size_);
  f_norm = std::sqrt(f_norm / size_);
  const double h = (y_norm < 1e-5 || f_norm < 1e-5) ? 1e-6 : 0.01 * y_norm / f_norm;
  return std::min(h, step_limit(t1_));
}

bool ExplicitRungeKutta::interpolate(double t, double* y) {
  return interpolate_local(local(t), y);
}

bool ExplicitRungeKutta::interpolate_local(double t, double* y) {
  if (t == t1_) {
    std::copy(y1_.data(), y1_.data() + size_, y);
    return true;
  }
  if (t == t0_) {
    std::copy(y0_.data(), y0_.data() + size_, y);
    return true;
  }
  // One step of the same pair from the step's start: the dense output to the method's
  // order, at the cost of one step.
  k_.col(0) = f0_;
  return stages(t0_, y0_.data(), t - t0_, y, nullptr);
}

bool ExplicitRungeKutta::changes_sign(size_t i) const {
  const auto k = static_cast<Eigen::Index>(i);
  const double a = g_reference_[k], b = g_end_[k];
  // A function at zero at the reference counts from the side it moves to.
  const bool rises = a < 0.0 && b >= 0.0 && directions_[i] >= 0;
  const bool falls = a > 0.0 && b <= 0.0 && directions_[i] <= 0;
  return rises || falls;
}

void ExplicitRungeKutta::roots_at_step_end() {
  end_monitors_known_ = monitors_ == 0;
  roots(t1_, y1_.data(), g_end_.data(), end_monitors_known_ ? kAllRoots : kWithoutMonitors);
}

// A reference without the monitors is the step's start (a root inside the step evaluates
// them all), where the previous step's end left it: the same values as if evaluated then.
void ExplicitRungeKutta::complete_monitors() {
  if (!reference_monitors_known_) roots(t0_, y0_.data(), g_reference_.data());
  if (!end_monitors_known_) roots(t1_, y1_.data(), g_end_.data());
  reference_monitors_known_ = end_monitors_known_ = true;
}

// The earliest root in (t_reference_, t1_] of a function that changes sign in its
// direction there, located to rounding in time and taken on the far side; root_info_
// marks every function with a root at that time.
//
// Monitors that start() asked to locate only beside another root are left alone in a
// step where nothing else changes sign. Their roots change nothing of the steps (each is
// returned inside an accepted step, which goes on unchanged after it), and the state at
// the step's end and the reference after it are the same; what a root does change is
// where the search of the functions after it begins, and so the last bits of an event's
// time. A step that holds another root therefore locates its monitors as always. (An
// event that crosses and comes back within one step is seen by neither search, unless a
// monitor's root happens to fall between the two crossings.)
bool ExplicitRungeKutta::find_root(double& t_root) {
  // On the scale of the absolute time, which an event's time is rounded to anyway: a root
  // located finer than that would be found again from its far side.
  const double tolerance = 100.0 * std::numeric_limits<double>::epsilon() *
                           (std::abs(absolute(t1_)) + std::abs(t1_ - t0_));
  std::fill(root_info_.begin(), root_info_.end(), 0);
  std::vector<double>& found = root_times_;
  found.assign(directions_.size(), std::numeric_limits<double>::infinity());
  bool skip_monitors = monitors_ > 0;
  for (size_t i = 0; i < directions_.size() && skip_monitors; ++i)
    skip_monitors = skippable_monitor(i) || !changes_sign(i);
  if (monitors_ > 0 && !skip_monitors) complete_monitors();
  bool any = false;
  for (size_t i = 0; i < directions_.size(); ++i) {
    if ((skip_monitors && skippable_monitor(i)) || !changes_sign(i)) continue;
    const auto k = static_cast<Eigen::Index>(i);
    const double a = g_reference_[k], b = g_end_[k];
    // Illinois: the regula falsi that halves the value kept twice in a row.
    double lo = t_reference_, hi = t1_, g_lo = a, g_hi = b;
    int kept = 0;
    bool nudged = false;
    const double margin = 0.5 * tolerance;
    for (int it = 0; it < 200 && hi - lo > tolerance; ++it) {
      double t = hi - g_hi * (hi - lo) / (g_hi - g_lo);
      // An estimate within rounding of an end has converged from that side: the root is
      // most likely just past that end, and a point there closes the bracket at once
      // (bisecting instead took 70 % of the iterations). Bisect if that did not do it.
      if (!(t > lo + margin && t < hi - margin)) {
        if (!nudged && t <= lo + margin)
          t = lo + margin;
        else if (!nudged && t >= hi - margin)
          t = hi - margin;
        else
          t = 0.5 * (lo + hi);
        nudged = true;
      } else {
        nudged = false;
      }
      if (!interpolate_local(t, scratch_root_.data())) return false;
      roots(t, scratch_root_.data(), g_mid_.data(), static_cast<int>(i));
      const double g = g_mid_[k];
      if ((g < 0.0) == (a < 0.0) && g != 0.0) {
        lo = t;
        g_lo = g;
        if (kept == -1) g_hi *= 0.5;
        kept = -1;
      } else {
        hi = t;
        g_hi = g;
        if (kept == 1) g_lo *= 0.5;
        kept = 1;
      }
    }
    found[i] = hi;
    any = true;
  }
  if (!any) return false;
  t_root = *std::min_element(found.begin(), found.end());
  for (size_t i = 0; i < found.size(); ++i) root_info_[i] = found[i] <= t_root + tolerance;
  return true;
}

// One accepted step from (t, y) with f = f(t, y) towards t_stop, the step size h
// controlled as it goes: on success t, y, h are those after the step (f is left alone).
bool ExplicitRungeKutta::controlled_step(double& t, Vector& y, const Vector& f, double& h,
                                         double t_stop) {
  const double exponent = -1.0 / (std::min(table_->p, table_->q) + 1);
  for (int rejections = 0;; ++rejections) {
    double step = std::min(h, step_limit(t));
    const double remaining = t_stop - t;
    const bool to_stop = step >= remaining * (1.0 - 1e-12);
    if (to_stop) step = remaining;
    // The step time advances by: a step of a few ulps of t is integrated as it lands.
    step = (t + step) - t;
    if (rejections > kMaxRejections ||
        !(step > 16.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), 1.0))) {
      const double at = absolute_at(t);
      message_ = "step size " + number_text(step) + " too small at t = " + number_text(at) +
                 " after " + std::to_string(rejections) + " rejected steps";
      return false;
    }
    k_.col(0) = f;
    const bool finite = stages(t, y.data(), step, y_new_.data(), error_.data());
    const double err = finite ? error_norm(y.data(), y_new_.data(), error_.data())
                              : std::numeric_limits<double>::infinity();
    if (!(err <= 1.0)) {
      ++rejected_;
      h = step * (finite ? std::max(kMinFactor, kSafety * std::pow(err, exponent)) : 0.25);
      continue;
    }
    double factor = err > 0.0 ? kSafety * std::pow(err, exponent) : kMaxFactor;
    // Gustafsson's predictive proposal (Hairer & Wanner II, IV.8, as in Radau5), the
    // smaller of the two: where the error grows from step to step, as on the way into
    // the end of a Hertz contact (force ~ z^(3/2), singular in its derivatives where the
    // contact opens), the standard proposal keeps offering the step that was just good
    // enough, and every other step was rejected; the trend of the last two steps and
    // errors foresees the shrinking. Floored error ratios: a step far inside the
    // tolerance says little.
    if (previous_step_ > 0.0 && !to_stop && err > 0.0) {
      const double trend = (step / previous_step_) *
                           std::pow(previous_error_ / std::max(err, kErrorFloor), -exponent);
      factor = std::min(factor, factor * trend);
    }
    factor = std::clamp(factor, kMinFactor, kMaxFactor);
    if (!to_stop) {
      previous_step_ = step;
      previous_error_ = std::max(err, kErrorFloor);
    }
    // A step cut short by the stop time says nothing against the longer one.
    h = to_stop ? std::max(h, step * factor) : step * factor;
    t = to_stop ? t_stop : t + step;
    y = y_new_;
    ++steps_;
    return true;
  }
}

// The solution at t_root inside the last step by controlled steps from its start, not by
// the dense output: the step was accepted with the root inside it, and past an event the
// mode's field may be only once differentiable (a Hertz force ~ z^(3/2) continued by 0),
// which the error estimate across it does not see. What comes after the event (the next
// mode's start, the tangent through the saltation matrix) starts from this state.
// The steps run in sigma = sqrt(t_root - t): where the event ends a Hertz contact, the
// stiffness 3/2 K z^(1/2) falls like sqrt(t_root - t), which the tangent's field carries,
// singular in t and smooth in sigma (as at the contact's start, ExplicitRungeKutta::start).
// Steps graded in t towards the root, each at most half the distance left (down to 1e-6
// of the step), took about 20 steps to each contact's end, and the error estimate alone,
// in t, misses that singularity.
bool ExplicitRungeKutta::integrate_to(double t_root, Vector& y) {
  y = y0_;
  previous_step_ = 0.0;  // a new sequence of steps
  Vector& f = f_root_;
  root_end_ = t_root;
  root_span_ = std::sqrt(t_root - t0_);
  to_root_ = true;
  double u = 0.0, h = root_span_;  // first tried: the whole way in one step
  bool ok = true;
  while (ok && u < root_span_)
    ok = field(u, y.data(), f.data()) && controlled_step(u, y, f, h, root_span_);
  to_root_ = false;
  return ok;
}

ExplicitRungeKutta::Result ExplicitRungeKutta::step(double t_stop, double& t_reached) {
  const double stop = local(t_stop);
  double reached = 0.0;
  const Result result = step_local(stop, reached);
  t_reached = reached >= stop ? t_stop : absolute(reached);
  // g_reference_ holds the functions at the returned state, evaluated at absolute(reached).
  event_values_known_ = result != Result::Failure && reached < stop && !directions_.empty();
  return result;
}

ExplicitRungeKutta::Result ExplicitRungeKutta::step_local(double t_stop, double& t_reached) {
  const auto roots_at_end = [&](Result fallback) {
    g_reference_ = g_end_;
    reference_monitors_known_ = end_monitors_known_;
    t_reference_ = t1_;
    returned_ = y1_;
    t_reached = t1_;
    return t1_ >= t_stop ? Result::StopTime : fallback;
  };
  const auto root_inside = [&](double& t_root) {
    if (!find_root(t_root)) return false;
    // Graded steps only to an event: at a monitor's root the field is as smooth as inside
    // the accepted step, and its dense output is as accurate (a graded approach costs up
    // to 20 steps).
    const auto event_end =
        root_info_.begin() + std::min<std::ptrdiff_t>(events_, std::ssize(root_info_));
    const bool at_event = std::any_of(root_info_.begin(), event_end, [](int r) { return r != 0; });
    if (at_event ? !integrate_to(t_root, returned_) : !interpolate_local(t_root, returned_.data()))
      return false;
    roots(t_root, returned_.data(), g_reference_.data());
    reference_monitors_known_ = true;
    t_reference_ = t_root;
    inside_step_ = true;
    return true;
  };
  if (inside_step_) {  // the rest of the step that held the last root
    inside_step_ = false;
    double t_root = 0.0;
    if (root_inside(t_root)) {
      t_reached = t_root;
      return Result::Root;
    }
    return roots_at_end(Result::Step);
  }
  if (t1_ >= t_stop) return roots_at_end(Result::Step);

  // f at the step's start: stage 0, kept for the dense output.
  if (!field(t1_, y1_.data(), f_start_.data())) {
    message_ = "the vector field is not finite at t = " + number_text(absolute(t1_));
    return Result::Failure;
  }
  if (h_ <= 0.0) h_ = initial_step(f_start_);
  if (steps_ == 0) first_step_ = std::max(1e-6 * h_, time_resolution(t1_));
  const double t_start = t1_;
  y0_ = y1_;
  // Steps graded away from the start, each at most the time since it (from 1e-6 of the
  // first step): the integration restarts at events, where the field may be singular in
  // its derivatives (a Hertz force ~ z^(3/2) from z = 0).
  // In root time the start is no longer singular, and the error estimate chooses.
  double graded = root_time_ ? h_ : std::min(h_, std::max(t1_ - start_time_, first_step_));
  if (!controlled_step(t1_, y1_, f_start_, graded, t_stop)) {
    y1_ = y0_;
    return Result::Failure;
  }
  // The controller's proposal, also after a graded step: keeping the larger step from
  // before the grading made every step of a contact shorter than it try that step first,
  // twice rejected (a Hertz contact: 50 rejections to 33 steps).
  h_ = graded;
  t0_ = t_start;
  f0_ = f_start_;
  if (!directions_.empty()) {
    roots_at_step_end();
    double t_root = 0.0;
    if (root_inside(t_root)) {
      t_reached = t_root;
      return Result::Root;
    }
  }
  return roots_at_end(Result::Step);
}

}  // namespace libcont::detail
