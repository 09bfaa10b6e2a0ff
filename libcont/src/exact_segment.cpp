#include "exact_segment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "finite_sum.hpp"
#include "gap_closure.hpp"
#include "grid_times.hpp"
#include "hermite_crossing.hpp"
#include "libcont/harmonic_phase.hpp"
#include "libcont/input_error.hpp"
#include "lifted_product.hpp"
#include "machine_epsilon.hpp"

namespace libcont::detail {

namespace {

double sign(double v) { return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0); }

// Whether h, with value h0 and rate r0 at the start of an interval and h1, r1 at its end,
// keeps its sign at both ends but turns towards zero in between (d = side h falls, then
// rises): where a crossing and its return within the interval may hide.
inline bool turns_towards_zero(double h0, double r0, double h1, double r1) {
  const double side = sign(h0);
  return side != 0.0 && sign(h1) == side && side * r0 < 0.0 && side * r1 > 0.0;
}

// Whether every entry is finite (finite_sum.hpp), with the size fixed for a block of two
// states, with its two tangent columns or alone.
bool all_finite(const Matrix& m) {
  switch (m.size()) {
    case 15: return sum_is_finite<15>(m.data(), 15);
    case 5: return sum_is_finite<5>(m.data(), 5);
    default: return sum_is_finite<0>(m.data(), m.size());
  }
}

// c . z of `size` numbers in index order, the size fixed where Size > 0.
template <int Size>
double ordered_dot(const double* c, const double* z, Eigen::Index size) {
  if constexpr (Size > 0) size = Size;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < size; ++i) sum += c[i] * z[i];
  return sum;
}

// c . z of n + 3 numbers, the size fixed for two and four states (as lifted_dot below).
inline double lifted_dot(const double* c, const double* z, int lifted) {
  switch (lifted) {
    case 5: return ordered_dot<5>(c, z, lifted);
    case 7: return ordered_dot<7>(c, z, lifted);
    default: return ordered_dot<0>(c, z, lifted);
  }
}

// c . z for a coefficient column and a block's state column (n + 3 numbers): a plain loop,
// cheaper at these sizes than a dynamic dot product, which the scan and the root searches
// call at every point; with the size fixed for two and four states, where a loop of
// dynamic length costs more in its set-up than in its five or seven products (the same
// sums in the same order either way).
inline double lifted_dot(const Matrix& coefficients, int column, const Matrix& block) {
  const auto size = static_cast<int>(block.rows());
  return lifted_dot(coefficients.data() + column * size, block.data(), size);
}

// lifted_dot with the state's size N fixed at compile time (0: lifted_dot's own choice).
template <int N>
inline double sized_dot(const Matrix& coefficients, int column, const Matrix& block) {
  if constexpr (N > 0)
    return ordered_dot<N + 3>(coefficients.data() + column * (N + 3), block.data(), N + 3);
  else
    return lifted_dot(coefficients, column, block);
}

// all_finite of a block of N + 3 rows and 1 + C columns, the size fixed where N > 0.
template <int N, int C>
inline bool block_finite(const Matrix& block) {
  if constexpr (N > 0)
    return sum_is_finite<(N + 3) * (1 + C)>(block.data(), (N + 3) * (1 + C));
  else
    return all_finite(block);
}

// The whole scan steps from t inside the clear time, and never the run's last step: that
// one is scanned; at most as many as the cached powers reach. t advances over them on the
// scan's time grid (step by step), so that the scan goes on from the same points.
inline int whole_steps_within(double clear, double step, double t_end, double& t) {
  int crossed = 0;
  while (crossed < ExactLinearFlow::max_repeated_steps() && (crossed + 1) * step <= clear &&
         t_end - t > step) {
    t += step;
    ++crossed;
  }
  return crossed;
}

// The numbers crossing_saltation combines (column-major, n rows or n + 3).
struct SaltationTerms {
  int n;
  const double* z;        // the lifted state at the crossing
  const double* x_plus;   // the state after the reset
  double rescale;         // the next mode's forcing scale over this mode's
  const double* m;        // this mode's generator M, (n + 3) x (n + 3)
  const double* m_plus;   // the next mode's
  const double* reset;    // R = (R_x, r / s), n x (n + 3)
  const double* c;        // the event's coefficients (c_x first)
  double rate;            // (M^T c) . z
  bool no_jump;           // f+ = D_t g: the motion stays on the reset's image (stays_on_image)
  double* mz;             // out: M z
  double* jump;           // out: f+ - R M z
  double* s;              // out: S, n x n
};

// Whether, after a reset that forgets the state (R_x = 0), the next mode's flow stays on
// the reset's image g(t) (a stuck body moves with the base): its field there is g's time
// derivative, f+(g(t), t) = D_t g(t) for every t. The jump f+ - D_t g then vanishes at any crossing
// and with it the saltation, which collapses the tangent. At a crossing the two sides
// agree only to the rounding of the lifted forcing coordinates carried along the segment,
// and a rounding-level S stands for the collapse as a finite, arbitrary stretch (the
// exponents of a sticking motion -6.7 and -inf instead of -inf and -inf). The identity is
// one of coefficients: with x+ = R_f q (q the forcing coordinates, which evolve by the
// generator's forcing block M_qq), M+_xx R_f + M+_xq = R_f M_qq, each entry to the rounding
// of its terms.
inline bool stays_on_image(const SaltationTerms& a) {
  const int n = a.n, lifted = n + 3;
  for (int l = n; l < lifted; ++l)
    for (int i = 0; i < n; ++i) {
      double sum = a.rescale * a.m_plus[l * lifted + i];
      double terms = std::abs(sum);
      for (int j = 0; j < n; ++j) {
        const double term = a.m_plus[j * lifted + i] * a.reset[l * n + j];
        sum += term;
        terms += std::abs(term);
      }
      for (int k = n; k < lifted; ++k) {
        const double term = a.reset[k * n + i] * a.m[l * lifted + k];
        sum -= term;
        terms += std::abs(term);
      }
      if (std::abs(sum) > 64.0 * kEpsilon * terms) return false;
    }
  return true;
}

// S = R_x + (f+ - R M z) c_x^T / rate, with the size fixed where N > 0: plain loops of
// a dynamic size 2 cost more in their set-up than in their arithmetic.
template <int N>
void saltation_from_reset(const SaltationTerms& a) {
  const int n = N > 0 ? N : a.n, lifted = n + 3;
  for (int i = 0; i < lifted; ++i) a.mz[i] = 0.0;
  for (int k = 0; k < lifted; ++k)
    for (int i = 0; i < lifted; ++i) a.mz[i] += a.m[k * lifted + i] * a.z[k];
  // f+ at (x+, the forcing values in the next mode's scale: a power of two, exact).
  for (int i = 0; i < n; ++i) a.jump[i] = 0.0;
  for (int k = 0; k < lifted; ++k) {
    const double after = k < n ? a.x_plus[k] : a.z[k] * a.rescale;
    for (int i = 0; i < n; ++i) a.jump[i] += a.m_plus[k * lifted + i] * after;
  }
  // f+ - R M z = f+ - R_x f- - D_t g.
  for (int k = 0; k < lifted; ++k)
    for (int i = 0; i < n; ++i) a.jump[i] -= a.reset[k * n + i] * a.mz[k];
  if (a.no_jump)
    for (int i = 0; i < n; ++i) a.jump[i] = 0.0;
  for (int k = 0; k < n; ++k) {
    const double scale = a.c[k] / a.rate;
    for (int i = 0; i < n; ++i) a.s[k * n + i] = a.reset[k * n + i] + a.jump[i] * scale;
  }
}
// x = R z for a lifted reset R (n x (n + 3), column-major) and a lifted state z, the
// size fixed where N > 0 (the sums in registers; the same sums, in the same order, as the
// general loop).
template <int N>
void reset_product(const double* r, const double* z, double* x, int n) {
  if constexpr (N > 0) {
    double y[N] = {};
    for (int k = 0; k < N + 3; ++k)
      for (int i = 0; i < N; ++i) y[i] += r[k * N + i] * z[k];
    for (int i = 0; i < N; ++i) x[i] = y[i];
  } else {
    for (int i = 0; i < n; ++i) x[i] = 0.0;
    for (int k = 0; k < n + 3; ++k)
      for (int i = 0; i < n; ++i) x[i] += r[k * n + i] * z[k];
  }
}

// The tangent's first `columns` columns (n rows each) and a lifted block's columns 1..
// (n + 3 rows, the forcing rows zero): into the block where IntoBlock, else back into the
// tangent. The size fixed where N > 0.
template <int N, bool IntoBlock>
void copy_tangent(std::conditional_t<IntoBlock, const double*, double*> tangent,
                  std::conditional_t<IntoBlock, double*, const double*> block, int columns,
                  int n) {
  if constexpr (N > 0) n = N;
  const int lifted = n + 3;
  for (int c = 0; c < columns; ++c) {
    auto* column = tangent + c * n;
    auto* lifted_column = block + (c + 1) * lifted;
    if constexpr (IntoBlock) {
      for (int i = 0; i < n; ++i) lifted_column[i] = column[i];
      for (int i = n; i < lifted; ++i) lifted_column[i] = 0.0;
    } else {
      for (int i = 0; i < n; ++i) column[i] = lifted_column[i];
    }
  }
}

// The lifted size n + 3 of a state size N fixed at compile time, or 0 (not fixed).
template <int N>
constexpr int kLiftedSize = N > 0 ? N + 3 : 0;

// to = the first `size` numbers from `from` (Size > 0: that many, fixed): a plain loop,
// cheaper than Eigen's dynamic copy at these sizes (a state or a lifted state per segment).
template <int Size>
inline void copy_numbers(const double* from, double* to, Eigen::Index size) {
  if constexpr (Size > 0) size = Size;
  for (Eigen::Index i = 0; i < size; ++i) to[i] = from[i];
}
template <int Size>
inline void copy_numbers(const double* from, Vector& to, Eigen::Index size) {
  to.resize(Size > 0 ? Size : size);
  copy_numbers<Size>(from, to.data(), size);
}

// Whether the first `size` numbers of a and b compare equal (as Eigen's `==`: -0 equals
// +0, NaN nothing), in a plain loop.
inline bool equal_numbers(const double* a, const double* b, int size) {
  for (int i = 0; i < size; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// The coefficient columns and the lifted state lifted_event combines.
struct LiftedSums {
  const double* c;           // the event's coefficients
  const double* rate;        // M^T c
  const double* magnitudes;  // |M|^T |c|
  const double* z;
};

// h = c . z, dh/dt = (M^T c) . z and their terms' magnitudes, with the size fixed where
// Size > 0 (as lifted_dot: at two or four states a loop of dynamic length costs more in
// its set-up than in its products).
template <int Size>
ExactSegment::LiftedEvent lifted_sums(const LiftedSums& a, int size) {
  if constexpr (Size > 0) size = Size;
  ExactSegment::LiftedEvent out;
  for (int k = 0; k < size; ++k) {
    out.value += a.c[k] * a.z[k];
    out.value_terms += std::abs(a.c[k] * a.z[k]);
    out.rate += a.rate[k] * a.z[k];
    out.rate_terms += a.magnitudes[k] * std::abs(a.z[k]);
  }
  return out;
}
}  // namespace

ExactSegment::ExactSegment(const HybridSystem& system, const FlowOptions& options, int columns)
    : system_(system),
      affine_(system.affine_modes()),
      jacobians_(system),
      options_(options),
      n_(system.dimension()),
      columns_(columns),
      flows_(static_cast<size_t>(std::max(system.mode_count(), 0))),
      field_(n_),
      gradient_(n_),
      prepared_modes_(flows_.size()) {
  data_.A = Matrix::Zero(n_, n_);
  data_.b0 = data_.b_cos = data_.b_sin = Vector::Zero(n_);
  for (ExactLinearFlow& flow : flows_) flow.set_block_columns(1 + columns_);
  const int lifted = n_ + 3;
  block_ = next_ = point_ = sample_ = Matrix::Zero(lifted, 1 + columns_);
}

ExactSegment::PreparedMode* ExactSegment::prepared_for(int mode) {
  if (mode < 0 || mode >= static_cast<int>(flows_.size()) || !affine_) return nullptr;
  PreparedMode& prepared = prepared_modes_[static_cast<size_t>(mode)];
  if (!prepared.ready || prepared.revision != system_.revision()) {
    prepare(mode, prepared);
    prepared.revision = system_.revision();
    prepared.ready = true;
  }
  return prepared.covered ? &prepared : nullptr;
}

bool ExactSegment::covers(int mode) {
  const PreparedMode* found = prepared_for(mode);
  if (!found) return false;
  // The work arrays fit the mode's functions already where it is the mode covered last,
  // prepared no later (a period's start, a run after an impact in the same mode).
  if (found == prepared_ && found->revision == sized_for_) return true;
  const PreparedMode& prepared = *found;
  prepared_ = found;
  sized_for_ = found->revision;
  const size_t functions = prepared.directions.size();
  references_.resize(functions);
  ends_.resize(functions);
  bound_values_.resize(static_cast<size_t>(prepared.events));
  bound_rates_.resize(static_cast<size_t>(prepared.events));
  roots_.reserve(2 * prepared.monitors.size());  // at most two roots per monitor and interval
  return true;
}

void ExactSegment::prepare(int mode, PreparedMode& prepared) {
  prepared.covered = false;
  prepared.resets.clear();
  if (!affine_->affine_mode(mode, data_)) return;
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  flow.set_mode(data_);
  // The mode's events: directions, and the coefficients of those declared affine.
  const int events = system_.event_count(mode);
  prepared.events = events;
  prepared.affine_events.resize(static_cast<size_t>(events));
  Matrix& coefficients = prepared.event_coefficients;
  Matrix& rates = prepared.rate_coefficients;
  coefficients.resize(n_ + 3, events);
  rates.resize(n_ + 3, events);
  prepared.rate_magnitudes.resize(n_ + 3, events);
  prepared.monitors.clear();
  for (const int i : options_.extremum_coordinates) prepared.monitors.push_back({true, i});
  prepared.directions.resize(static_cast<size_t>(events));
  for (int j = 0; j < events; ++j) {
    const auto k = static_cast<size_t>(j);
    const EventSpec spec = system_.event_spec(mode, j);
    prepared.directions[k] = spec.direction;
    prepared.affine_events[k] = affine_->affine_event(mode, j, coefficients.col(j)) ? 1 : 0;
    // The model's coefficients multiply (1, cos, sin); the lifted state carries s times those.
    coefficients.col(j).tail(3) /= flow.forcing_scale();
    // d/dt (c . z) = c . M z = (M^T c) . z
    if (prepared.affine_events[k]) {
      rates.col(j).noalias() = flow.generator().transpose() * coefficients.col(j);
      prepared.rate_magnitudes.col(j).noalias() =
          flow.generator().cwiseAbs().transpose() * coefficients.col(j).cwiseAbs();
    }
    // The gaps whose minima are monitored: as on the CVODE path (cvode_integrator.cpp),
    // the events of kind Impact or ContactStart. Their rate must be linear in z.
    if (options_.gap_minima &&
        (spec.kind == EventKind::Impact || spec.kind == EventKind::ContactStart)) {
      if (!prepared.affine_events[k]) return;
      prepared.monitors.push_back({false, j});
    }
  }
  prepared.affine = std::all_of(prepared.affine_events.begin(), prepared.affine_events.end(),
                                [](char a) { return a; });
  prepared.bounded =
      prepared.affine &&
      prepared.bound.prepare(flow.generator(), n_, flow.forcing_scale(), coefficients, events);
  // The monitors: x_i' = (M z)_i, a row of M; the gap's rate (M^T c) . z. Their rates
  // are one more product with M^T.
  const int monitors = static_cast<int>(prepared.monitors.size());
  prepared.monitor_coefficients.resize(n_ + 3, monitors);
  prepared.monitor_rates.resize(n_ + 3, monitors);
  for (int k = 0; k < monitors; ++k) {
    const Monitor& monitor = prepared.monitors[static_cast<size_t>(k)];
    if (monitor.extremum)
      prepared.monitor_coefficients.col(k) = flow.generator().row(monitor.index).transpose();
    else
      prepared.monitor_coefficients.col(k) = rates.col(monitor.index);
    prepared.monitor_rates.col(k).noalias() =
        flow.generator().transpose() * prepared.monitor_coefficients.col(k);
    prepared.directions.push_back(monitor.extremum ? EventDirection::Either
                                                   : EventDirection::Rising);
  }
  prepared.covered = true;
}

// The lifted cases inline, the model's apart: the scan calls these at every scan point.
template <int N>
inline double ExactSegment::value(int mode, int function, double t, const Matrix& block) const {
  const PreparedMode& p = *prepared_;
  if (function >= p.events)
    return sized_dot<N>(p.monitor_coefficients, function - p.events, block);
  if (p.affine_events[static_cast<size_t>(function)])
    return sized_dot<N>(p.event_coefficients, function, block);
  return model_value(mode, function, t, block);
}

template <int N>
inline double ExactSegment::rate(int mode, int function, double t, const Matrix& block) {
  const PreparedMode& p = *prepared_;
  if (function >= p.events) return sized_dot<N>(p.monitor_rates, function - p.events, block);
  if (p.affine_events[static_cast<size_t>(function)])
    return sized_dot<N>(p.rate_coefficients, function, block);
  return model_rate(mode, function, t, block);
}

double ExactSegment::model_value(int mode, int function, double t, const Matrix& block) const {
  return system_.event_function(mode, function, t, block.col(0).head(n_));
}

double ExactSegment::model_rate(int mode, int function, double t, const Matrix& block) {
  double dh_dt = 0.0;
  jacobians_.event_gradient(mode, function, t, block.col(0).head(n_), gradient_, dh_dt);
  flows_[static_cast<size_t>(mode)].field(block.col(0), field_);
  return gradient_.dot(field_) + dh_dt;
}

void ExactSegment::ensure_expansion(int mode, int columns) {
  if (expanded_columns_ >= columns) return;
  flows_[static_cast<size_t>(mode)].expand(block_, columns, interval_);
  expanded_columns_ = columns;
}

double ExactSegment::value_at(int mode, int function, double t0, double tau) {
  ensure_expansion(mode, 1);
  flows_[static_cast<size_t>(mode)].evaluate(tau, point_, 1);
  return value(mode, function, t0 + tau, point_);
}

// Rate at the point last evaluated by value_at (same tau).
double ExactSegment::rate_at(int mode, int function, double t0, double tau) {
  return rate(mode, function, t0 + tau, point_);
}

template <int N>
ExactSegment::Reference ExactSegment::start_reference(int mode, int event, double t0,
                                                      double first_step, bool after_touch) {
  // h and h' with the sums of the magnitudes of their terms (their rounding level). An
  // event declared affine: h = c . z, h' = (M^T c) . z from the lifted state, without the
  // model's (trigonometric) event function and gradient. Eigen's sums on columns of the
  // lifted size, fixed where N > 0: Eigen reduces a fixed and a dynamic column in the
  // same order (packets, then the rest), so both give the same bits, and the fixed one
  // without the set-up of a reduction of dynamic length at every segment's start.
  Reference ref;
  double value_terms = 0.0, rate_terms = 0.0;
  using Column = Eigen::Matrix<double, (N > 0 ? N + 3 : Eigen::Dynamic), 1>;
  const Eigen::Index lifted = n_ + 3;
  if (prepared_->affine_events[static_cast<size_t>(event)]) {
    const Eigen::Map<const Column> z(block_.data(), lifted);
    const Eigen::Map<const Column> c(prepared_->event_coefficients.data() + event * lifted,
                                     lifted);
    const Eigen::Map<const Column> r(prepared_->rate_coefficients.data() + event * lifted,
                                     lifted);
    ref.value = c.dot(z);
    ref.rate = r.dot(z);
    value_terms = c.cwiseProduct(z).cwiseAbs().sum();
    rate_terms = r.cwiseProduct(z).cwiseAbs().sum();
  } else {
    const auto z = block_.col(0);
    ref.value = system_.event_function(mode, event, t0, z.head(n_));
    double dh_dt = 0.0;
    jacobians_.event_gradient(mode, event, t0, z.head(n_), gradient_, dh_dt);
    flows_[static_cast<size_t>(mode)].field(z, field_);
    ref.rate = gradient_.dot(field_) + dh_dt;
    value_terms = gradient_.cwiseProduct(z.head(n_)).cwiseAbs().sum();
    rate_terms = gradient_.cwiseProduct(field_).cwiseAbs().sum() + std::abs(dh_dt);
  }
  // On the surface: within the absolute tolerance, or within rounding of the terms h is
  // made of (a model in other units: amplitudes of 1e300 have no absolute tolerance).
  const double surface =
      std::max(100.0 * options_.absolute_tolerance, 64.0 * kEpsilon * value_terms);
  if (after_touch || !(std::abs(ref.value) <= surface)) return ref;
  // On the surface (a reset put the state there): the side is the one the motion leaves
  // to, so that a return through the surface, however soon, is a crossing. With a rate at
  // rounding level (a body released with zero relative velocity) the side shows a little
  // later: the reference is taken there.
  if (std::abs(ref.rate) > 16.0 * kEpsilon * rate_terms) {
    ref.value = std::copysign(std::numeric_limits<double>::min(), ref.rate);
    return ref;
  }
  return reference_later(mode, event, t0, first_step);
}

// A monitor exactly zero at the start (a restart on an extremum) takes the side the motion
// leaves to, so that no root is reported at the start itself: CVODE likewise judges such a
// root function by its sign a little later.
ExactSegment::Reference ExactSegment::start_monitor_reference(int mode, int function, double t0,
                                                              double first_step) {
  Reference ref;
  ref.value = value(mode, function, t0, block_);
  ref.rate = rate(mode, function, t0, block_);
  if (ref.value != 0.0) return ref;
  if (ref.rate != 0.0) {
    ref.value = std::copysign(std::numeric_limits<double>::min(), ref.rate);
    return ref;
  }
  return reference_later(mode, function, t0, first_step);
}

// The function's value and rate a little after t0, where its side shows.
ExactSegment::Reference ExactSegment::reference_later(int mode, int function, double t0,
                                                      double first_step) {
  Reference ref;
  ref.time = 1e-3 * first_step;
  ref.value = value_at(mode, function, t0, ref.time);
  ref.rate = rate_at(mode, function, t0, ref.time);
  return ref;
}

bool ExactSegment::turning_point(int mode, int function, double t0, const Reference& ref,
                                 double tau1, double h1, double r1, double& at, double& h_turn) {
  // A turning point towards zero: d = side * h falls, then rises.
  if (!turns_towards_zero(ref.value, ref.rate, h1, r1)) return false;
  const double side = sign(ref.value);
  const double d0 = side * ref.value, d1 = side * h1, p0 = side * ref.rate, p1 = side * r1;
  // Filter: the cubic Hermite interpolant of d (error ~ (w L)^4 / 384 of d's scale for
  // L w <= 1/2, below 2e-4) keeps well clear of zero: no crossing. Else locate the
  // turning point exactly.
  if (hermite_keeps_clear(tau1 - ref.time, d0, p0, d1, p1)) return false;
  // The turning point: where d' changes sign (Illinois on d').
  double lo = ref.time, hi = tau1, f_lo = p0, f_hi = p1;
  int last_side = 0;
  at = hi;
  // d is flat at its turning point: locating it to 1e-9 of the interval gives d there to
  // rounding.
  const double resolution =
      std::max(1e-9 * (tau1 - ref.time), 4.0 * kEpsilon * (std::abs(t0) + hi));
  for (int i = 0; i < 200 && hi - lo > resolution; ++i) {
    double c = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    if (!(c > lo && c < hi)) c = 0.5 * (lo + hi);
    value_at(mode, function, t0, c);
    const double f = side * rate_at(mode, function, t0, c);
    if (f < 0.0) {
      lo = c;
      f_lo = f;
      if (last_side < 0) f_hi *= 0.5;
      last_side = -1;
    } else {
      hi = c;
      f_hi = f;
      if (last_side > 0) f_lo *= 0.5;
      last_side = 1;
    }
    at = c;
  }
  h_turn = value_at(mode, function, t0, at);
  return true;
}

bool ExactSegment::find_bracket(int mode, int event, double t0, const Reference& ref, double tau1,
                                double h1, double r1, Bracket& bracket) {
  const EventDirection direction = prepared_->directions[static_cast<size_t>(event)];
  if (crosses(direction, ref.value, h1)) {
    ensure_expansion(mode, 1 + columns_);  // the event's state and tangent will be needed
    bracket = {ref.time, tau1, ref.value, ref.rate, h1, r1};
    return true;
  }
  // No change of sign between the ends; a crossing and a return within the interval show
  // as a turning point towards the surface.
  double at = 0.0, h_turn = 0.0;
  if (!turning_point(mode, event, t0, ref, tau1, h1, r1, at, h_turn)) return false;
  if (crosses(direction, ref.value, h_turn)) {
    bracket = {ref.time, at, ref.value, ref.rate, h_turn, 0.0};
    return true;
  }
  if (crosses(direction, h_turn, h1)) {  // the return is the crossing (Either direction)
    bracket = {at, tau1, h_turn, 0.0, h1, r1};
    return true;
  }
  return false;
}

void ExactSegment::find_monitor_roots(int mode, int function, double t0, const Reference& ref,
                                      double tau1, const Reference& end, double until) {
  const EventDirection direction = prepared_->directions[static_cast<size_t>(function)];
  const auto add = [&](const Bracket& bracket) {
    if (!(bracket.lo < until)) return;  // beyond the event that ends the interval
    const double at = locate(mode, function, t0, bracket);
    if (at <= until) roots_.push_back({at, function - prepared_->events});
  };
  if (sign(ref.value) * sign(end.value) < 0.0) {  // one root (an odd number)
    if (crosses(direction, ref.value, end.value))
      add({ref.time, tau1, ref.value, ref.rate, end.value, end.rate});
    return;
  }
  // Two roots inside the interval (an extremum of x_i and its neighbour of opposite
  // kind; a dip of the gap's rate): the monitor turns through zero and back.
  double at = 0.0, h_turn = 0.0;
  if (!turning_point(mode, function, t0, ref, tau1, end.value, end.rate, at, h_turn)) return;
  if (sign(h_turn) != -sign(ref.value)) return;  // turns short of zero (or touches it)
  if (crosses(direction, ref.value, h_turn)) add({ref.time, at, ref.value, ref.rate, h_turn, 0.0});
  if (crosses(direction, h_turn, end.value)) add({at, tau1, h_turn, 0.0, end.value, end.rate});
}

const double* ExactSegment::linear_coefficients(int function) const {
  const PreparedMode& p = *prepared_;
  if (function >= p.events) return p.monitor_coefficients.col(function - p.events).data();
  if (p.affine_events[static_cast<size_t>(function)])
    return p.event_coefficients.col(function).data();
  return nullptr;
}

double ExactSegment::locate(int mode, int function, double t0, const Bracket& bracket) {
  // A function linear in the lifted state of a mode with the closed form: its own closed
  // form in the interval's time, a few numbers instead of the transition matrix.
  const ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  const EventDirection direction = prepared_->directions[static_cast<size_t>(function)];
  const double* coefficients = linear_coefficients(function);
  if (coefficients && flow.closed_form_fits(interval_)) {
    ExactLinearFlow::ClosedFormFunction form =
        flow.closed_form_function(coefficients, block_.data());
    return newton_in_bracket(direction, t0, bracket, [&](double tau, double& h, double& r) {
      form.evaluate(tau, h, r);
    });
  }
  return newton_in_bracket(direction, t0, bracket, [&](double tau, double& h, double& r) {
    h = value_at(mode, function, t0, tau);
    r = rate_at(mode, function, t0, tau);
  });
}

void ExactSegment::report_monitor(const MonitorRoot& root, int mode, double t0,
                                  FlowObserver& observer) {
  ensure_expansion(mode, 1);
  flows_[static_cast<size_t>(mode)].evaluate(root.tau, point_, 1);
  const double t = t0 + root.tau;
  const auto x = point_.col(0).head(n_);
  const Monitor& monitor = prepared_->monitors[static_cast<size_t>(root.monitor)];
  if (monitor.extremum)
    observer.on_extremum(monitor.index, t, x, mode);
  else  // the gap as the CVODE path reports it: the model's event function at the root
    observer.on_gap_minimum(monitor.index, t, system_.event_function(mode, monitor.index, t, x),
                            x, mode);
}

void ExactSegment::emit_grid_samples(double t0, double t_from, double t_to, int mode,
                                     const SampleGrid& grid, FlowObserver& observer) {
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  for_each_grid_time(grid, t_from, t_to, [&](double ts) {
    flow.propagate(ts - t0, block_, sample_);
    observer.on_sample(ts, sample_.col(0).head(n_), mode);
    return true;
  });
}

template <int N, int C>
void ExactSegment::propagate_block(ExactLinearFlow& flow, double tau, const Matrix& in,
                                   Matrix& out) {
  if constexpr (N > 0)
    if (flow.propagate_cached<N + 3, 1 + C>(tau, in, out)) return;
  flow.propagate(tau, in, out);
}

template <int N, int C>
void ExactSegment::cross_clear_steps(int mode, double& t0, double t_end, double step,
                                     const SampleGrid& grid, FlowObserver* observer,
                                     FlowReport& report) {
  if (!(t_end - t0 > step)) return;  // before the run's last step: no whole step to cross
  const int events = prepared_->events;
  for (int j = 0; j < events; ++j) {
    const Reference& ref = references_[static_cast<size_t>(j)];
    if (ref.time != 0.0) return;  // a start on a surface: its side shows later
    bound_values_[static_cast<size_t>(j)] = ref.value;
    bound_rates_[static_cast<size_t>(j)] = ref.rate;
  }
  const double clear = prepared_->bound.clear_time(
      block_, bound_values_.data(), bound_rates_.data(), t_end - t0);
  double t = t0;
  const int crossed = whole_steps_within(clear, step, t_end, t);
  if (crossed == 0) return;
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  if constexpr (N > 0)
    block_product<N + 3>(flow.repeated_power(step, crossed).data(), block_.data(), next_.data(),
                         1 + C);
  else
    flow.propagate_repeated(step, crossed, block_, next_);
  if (!block_finite<N, C>(next_)) return;  // the scan takes these steps again and reports it
  report.steps += crossed;
  emit_samples(t0, t0, t, mode, grid, observer);
  block_.swap(next_);
  t0 = t;
  expanded_columns_ = 0;
  // A bounded mode's events are all affine: h = c . z, h' = (M^T c) . z.
  for (int j = 0; j < events; ++j) {
    Reference& ref = references_[static_cast<size_t>(j)];
    ref.value = sized_dot<N>(prepared_->event_coefficients, j, block_);
    ref.rate = sized_dot<N>(prepared_->rate_coefficients, j, block_);
  }
}

template <int C>
ExactSegment::ScanStop ExactSegment::scan_two_states(int mode, double& t0, double t_end,
                                                     double step, bool clear_steps,
                                                     FlowReport& report, double& s, bool& last) {
  constexpr int kLifted = 5, kSize = kLifted * (1 + C);
  const PreparedMode& p = *prepared_;
  const int events = p.events;
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  bool separate = false;
  const Matrix* transition = flow.cached_transition(step, separate);
  // The scan point (the block [z | Phi]) and the step's end in block_'s and next_'s
  // storage, exchanged by their pointers as the scan moves on (block_ and next_ follow at
  // the end); the events' values and rates at the scan point in locals.
  double* z = block_.data();
  double* next = next_.data();
  const auto settle = [&] {
    if (z != block_.data()) block_.swap(next_);
  };
  double value[kScanEvents], rate[kScanEvents];
  bool bounded = clear_steps;  // the clear steps from this scan point
  for (int j = 0; j < events; ++j) {
    const Reference& ref = references_[static_cast<size_t>(j)];
    if (ref.time != 0.0) bounded = false;  // a start on a surface: its side shows later
    value[j] = ref.value;
    rate[j] = ref.rate;
  }
  const auto at_scan_point = [&] {
    for (int j = 0; j < events; ++j) {
      value[j] = ordered_dot<kLifted>(p.event_coefficients.data() + j * kLifted, z, kLifted);
      rate[j] = ordered_dot<kLifted>(p.rate_coefficients.data() + j * kLifted, z, kLifted);
    }
  };
  bool moved = false;  // the scan point moved: its references are those at scan points
  ScanStop stop = ScanStop::Examine;
  while (true) {
    // Before the run's last step there is no whole step to cross: no bound needed.
    if (bounded && t_end - t0 > step) {
      double t = t0;
      const int crossed = whole_steps_within(
          p.bound.clear_time_two_states(z, value, rate, t_end - t0), step, t_end, t);
      if (crossed > 0) {
        block_product<kLifted>(flow.repeated_power(step, crossed).data(), z, next, 1 + C);
        // Not finite: the scan takes these steps again and reports it.
        if (sum_is_finite<kSize>(next, kSize)) {
          report.steps += crossed;
          std::swap(z, next);
          t0 = t;
          moved = true;
          at_scan_point();
        }
      }
    }
    if (bounded && report.steps > options_.max_steps) {
      stop = ScanStop::TooManySteps;
      break;
    }
    last = t_end - t0 <= step;
    s = last ? t_end - t0 : step;
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
      stop = ScanStop::Cancelled;
      break;
    }
    if (last || !transition) {  // the general transition, for the general scan
      settle();
      propagate_block<2, C>(flow, s, block_, next_);
      ++report.steps;
      break;
    }
    if (separate)
      block_product<kLifted, true>(transition->data(), z, next, 1 + C);
    else
      block_product<kLifted>(transition->data(), z, next, 1 + C);
    ++report.steps;
    // A quiet step: finite, and no event changes sign or turns towards its surface.
    const bool finite = sum_is_finite<kSize>(next, kSize);
    bool quiet = finite;
    double end_value[kScanEvents], end_rate[kScanEvents];
    int formed = 0;  // the events whose values and rates at the end are formed
    for (int j = 0; j < events && quiet; ++j, ++formed) {
      end_value[j] = ordered_dot<kLifted>(p.event_coefficients.data() + j * kLifted, next, kLifted);
      end_rate[j] = ordered_dot<kLifted>(p.rate_coefficients.data() + j * kLifted, next, kLifted);
      quiet = std::isfinite(end_value[j]) && std::isfinite(end_rate[j]) &&
              !crosses(p.directions[static_cast<size_t>(j)], value[j], end_value[j]) &&
              !turns_towards_zero(value[j], rate[j], end_value[j], end_rate[j]);
    }
    if (!quiet) {
      // The general scan examines this step from its end's values and rates: handed on
      // where all are formed, rather than formed again.
      if (finite && formed == events) {
        for (int j = 0; j < events; ++j) {
          ends_[static_cast<size_t>(j)].value = end_value[j];
          ends_[static_cast<size_t>(j)].rate = end_rate[j];
        }
        stop = ScanStop::ExamineAtEnds;
      }
      break;
    }
    std::swap(z, next);
    t0 += s;
    moved = true;
    std::copy_n(end_value, events, value);
    std::copy_n(end_rate, events, rate);
    if (report.steps > options_.max_steps) {
      stop = ScanStop::TooManySteps;
      break;
    }
    bounded = clear_steps;
  }
  settle();
  if (moved) {
    expanded_columns_ = 0;
    for (int j = 0; j < events; ++j) references_[static_cast<size_t>(j)] = {0.0, value[j], rate[j]};
  }
  return stop;
}

// Column by column in plain loops: Eigen's copies of dynamic blocks (alignment checks,
// packets of two) cost more than the few numbers they move, at every segment; with the
// state's size fixed for two and four states, where even a plain loop of dynamic length
// costs more in its set-up than in its copies.
template <int N, int C>
void ExactSegment::load_tangent(const Matrix& tangent, Matrix& block) const {
  if constexpr (N > 0) return copy_tangent<N, true>(tangent.data(), block.data(), C, N);
  switch (n_) {
    case 2: return copy_tangent<2, true>(tangent.data(), block.data(), columns_, n_);
    case 4: return copy_tangent<4, true>(tangent.data(), block.data(), columns_, n_);
    default: return copy_tangent<0, true>(tangent.data(), block.data(), columns_, n_);
  }
}

template <int N, int C>
void ExactSegment::store_tangent(const Matrix& block, Matrix& tangent) const {
  double* to = tangent.data();
  if constexpr (N > 0) return copy_tangent<N, false>(to, block.data(), C, N);
  switch (n_) {
    case 2: return copy_tangent<2, false>(to, block.data(), columns_, n_);
    case 4: return copy_tangent<4, false>(to, block.data(), columns_, n_);
    default: return copy_tangent<0, false>(to, block.data(), columns_, n_);
  }
}

int ExactSegment::fail(FlowState& state, double t0, FlowStatus status, std::string message,
                       FlowReport& report) const {
  report.status = status;
  report.message = std::move(message);
  state.t = t0;
  state.x = block_.col(0).head(n_);
  store_tangent(block_, state.tangent);
  return kFailed;
}

int ExactSegment::run(FlowState& state, double t_end, bool after_touch, FlowObserver* observer,
                      const SampleGrid& grid, FlowReport& report) {
  // The scan with its sizes fixed for a mode of two states, with its two tangent columns
  // or none (a one-degree-of-freedom oscillator's spectrum and trajectory); the same
  // arithmetic in the same order as the general scan, without its run-time dispatches.
  if (sized_kernels_ && n_ == 2 && columns_ == 2)
    return run_sized<2, 2>(state, t_end, after_touch, observer, grid, report);
  if (sized_kernels_ && n_ == 2 && columns_ == 0)
    return run_sized<2, 0>(state, t_end, after_touch, observer, grid, report);
  return run_sized<0, 0>(state, t_end, after_touch, observer, grid, report);
}

template <int N, int C>
int ExactSegment::run_sized(FlowState& state, double t_end, bool after_touch,
                            FlowObserver* observer, const SampleGrid& grid, FlowReport& report) {
  const int mode = state.mode;
  ExactLinearFlow& flow = flows_[static_cast<size_t>(mode)];
  // Where the last run ended (a period's end, a touch), the lifted state it holds goes
  // on: the forcing values the run carried, turned to the clock's time (hold), without
  // the phase's cos and sin again; after a reset applied to the lifted state
  // (reset_lifted), which placed x+ with those forcing values. Not after the model's
  // reset: it placed x+ with its own cos and sin (on the surface, an impact's x+ = b(t)),
  // which the held forcing values match only to rounding of the phase; a chatter's short
  // flights from there would amplify that mismatch.
  if (!(start_from_held_ && held_.run_start && holds(mode, state.t, state.x) &&
        start_from_held<N>(flow.frequency())))
    flow.lift(state.t, state.x, block_.col(0));
  held_.mode = -1;  // the motion leaves the state held
  load_tangent<N, C>(state.tangent, block_);
  double step = flow.scan_step();
  if (options_.max_step > 0.0) step = std::min(step, options_.max_step);
  double t0 = state.t;
  const double t_start = t0;
  const int events = prepared_->events;
  // Monitors are only looked for where someone listens (as on the CVODE path), and their
  // roots only located where the observer wants them (FlowObserver::wants_monitor_roots).
  // Not locating them leaves the path to the bit: the scan's steps are kept as with the
  // monitors (`scanned`: no event-free steps crossed at once), the events are tested
  // before the monitors in each step, and a monitor's root splits no step and restarts no
  // scan; its expansion of the block (one column, the step's interval) is the one an
  // event's test builds alike, and the samples split at its roots are the same samples.
  const bool scanned = observer && !prepared_->monitors.empty();
  const bool located = observer && observer->wants_monitor_roots();
  const int functions = events + (located ? static_cast<int>(prepared_->monitors.size()) : 0);
  interval_ = std::min(step, t_end - t0);
  expanded_columns_ = 0;
  for (int j = 0; j < events; ++j) {
    Reference& ref = references_[static_cast<size_t>(j)];
    ref = start_reference<N>(mode, j, t0, interval_, after_touch);
    if (!std::isfinite(ref.value) || !std::isfinite(ref.rate))
      return fail(state, t0, FlowStatus::BadState,
                  "event function " + system_.event_spec(mode, j).name +
                      " or its rate is not finite at t = " + number_text(t0),
                  report);
  }
  for (int f = events; f < functions; ++f)
    references_[static_cast<size_t>(f)] = start_monitor_reference(mode, f, t0, interval_);

  const bool clear_steps = prepared_->bounded && !scanned && options_.skip_event_free_steps;
  // A mode of two states with nothing but its affine events to look at: the scan in locals
  // up to the steps that need the general one.
  const bool two_state_scan = N == 2 && functions == events && prepared_->affine &&
                              events <= kScanEvents && !(observer && grid.step > 0.0);
  const auto too_many_steps = [&] {
    return fail(state, t0, FlowStatus::TooManySteps,
                std::to_string(report.steps) + " steps without reaching t = " + number_text(t_end),
                report);
  };
  const auto cancelled = [&] {
    return fail(state, t0, FlowStatus::Cancelled, "cancelled at t = " + number_text(t0), report);
  };
  while (true) {
    bool last = false;
    double s = 0.0;
    bool taken = false;       // the step from t0 is taken into next_
    bool ends_formed = false;  // and its end's event values and rates are in ends_
    if constexpr (N == 2) {
      if (two_state_scan) {
        const ScanStop stop =
            scan_two_states<C>(mode, t0, t_end, step, clear_steps, report, s, last);
        if (stop == ScanStop::TooManySteps) return too_many_steps();
        if (stop == ScanStop::Cancelled) return cancelled();
        taken = true;
        ends_formed = stop == ScanStop::ExamineAtEnds;
      }
    }
    if (!taken) {
      if (clear_steps) {
        cross_clear_steps<N, C>(mode, t0, t_end, step, grid, observer, report);
        if (report.steps > options_.max_steps) return too_many_steps();
      }
      last = t_end - t0 <= step;
      s = last ? t_end - t0 : step;
      if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed))
        return cancelled();
      propagate_block<N, C>(flow, s, block_, next_);
      ++report.steps;
    }
    const double t1 = last ? t_end : t0 + s;
    interval_ = s;
    if (!ends_formed && !block_finite<N, C>(next_))
      return fail(state, t0, FlowStatus::BadState,
                  "state became non-finite after t = " + number_text(t0), report);
    // The earliest crossing in this interval, over all events.
    int found = -1;
    double found_at = s;
    for (int j = 0; j < events; ++j) {
      Reference& end = ends_[static_cast<size_t>(j)];
      if (!ends_formed) {
        end.value = value<N>(mode, j, t1, next_);
        end.rate = rate<N>(mode, j, t1, next_);
      }
      if (!std::isfinite(end.value) || !std::isfinite(end.rate))
        return fail(state, t0, FlowStatus::BadState,
                    "event function " + system_.event_spec(mode, j).name +
                        " or its rate became non-finite after t = " + number_text(t0),
                    report);
      // Most scan steps see neither a change of sign nor a turn towards the surface: tested
      // here, without the call.
      const Reference& ref = references_[static_cast<size_t>(j)];
      if (!crosses(prepared_->directions[static_cast<size_t>(j)], ref.value, end.value) &&
          !turns_towards_zero(ref.value, ref.rate, end.value, end.rate))
        continue;
      Bracket bracket{};
      if (!find_bracket(mode, j, t0, ref, s, end.value, end.rate, bracket)) continue;
      const double at = locate(mode, j, t0, bracket);
      if (found < 0 || at < found_at) {
        found = j;
        found_at = at;
      }
    }
    // The monitors' roots up to that crossing, reported in time order with the samples.
    roots_.clear();
    for (int f = events; f < functions; ++f) {
      Reference& end = ends_[static_cast<size_t>(f)];
      end.value = value<N>(mode, f, t1, next_);
      end.rate = rate<N>(mode, f, t1, next_);
      // Exactly zero at the scan point: a root there, on the side the motion goes to.
      if (end.value == 0.0 && end.rate != 0.0)
        end.value = std::copysign(std::numeric_limits<double>::min(), end.rate);
      find_monitor_roots(mode, f, t0, references_[static_cast<size_t>(f)], s, end, found_at);
    }
    std::sort(roots_.begin(), roots_.end(),
              [](const MonitorRoot& a, const MonitorRoot& b) { return a.tau < b.tau; });
    double reported_to = t0;
    for (const MonitorRoot& root : roots_) {
      emit_samples(t0, reported_to, t0 + root.tau, mode, grid, observer);
      report_monitor(root, mode, t0, *observer);
      reported_to = t0 + root.tau;
    }
    if (found >= 0) {
      emit_samples(t0, reported_to, t0 + found_at, mode, grid, observer);
      ensure_expansion(mode, 1 + columns_);
      flow.evaluate(found_at, point_);
      state.t = t0 + found_at;
      copy_numbers<N>(point_.data(), state.x, n_);
      store_tangent<N, C>(point_, state.tangent);
      crossing_.mode = mode;
      crossing_.event = found;
      crossing_.t = state.t;
      crossing_.revision = system_.revision();
      copy_numbers<kLiftedSize<N>>(point_.data(), crossing_.z, n_ + 3);
      hold<N>(mode, state.t, point_, {t_start, t0, step, found_at});
      return found;
    }
    emit_samples(t0, reported_to, t1, mode, grid, observer);
    block_.swap(next_);
    const double t_before = t0;
    t0 = t1;
    expanded_columns_ = 0;
    for (int f = 0; f < functions; ++f)
      references_[static_cast<size_t>(f)] = ends_[static_cast<size_t>(f)];
    if (last) {
      state.t = t_end;
      copy_numbers<N>(block_.data(), state.x, n_);
      store_tangent<N, C>(block_, state.tangent);
      hold<N>(mode, t_end, block_, {t_start, t_before, step, s});
      return kReachedEnd;
    }
    if (report.steps > options_.max_steps) return too_many_steps();
  }
}

const ExactSegment::PreparedMode::Reset* ExactSegment::lifted_reset(int mode,
                                                                    PreparedMode& prepared,
                                                                    int event, EventKind kind) {
  for (const PreparedMode::Reset& reset : prepared.resets)
    if (reset.event == event && reset.kind == kind) return reset.affine ? &reset : nullptr;
  PreparedMode::Reset reset{event, kind, false, Matrix::Zero(n_, n_ + 3)};
  reset.affine = affine_->affine_reset(mode, event, kind, reset.lifted) && reset.lifted.allFinite();
  // The model's r multiplies (1, cos, sin); the lifted state carries s times those.
  reset.lifted.rightCols(3) /= flows_[static_cast<size_t>(mode)].forcing_scale();
  reset.forgets_state = (reset.lifted.leftCols(n_).array() == 0.0).all();
  prepared.resets.push_back(std::move(reset));
  return prepared.resets.back().affine ? &prepared.resets.back() : nullptr;
}

bool ExactSegment::crossing_saltation(int mode, int event, const EventOutcome& outcome, double t,
                                      const Vector& x_minus, const Vector& x_plus,
                                      SaltationWorkspace& work) {
  const bool at_crossing = crossing_.mode == mode && crossing_.event == event &&
                           crossing_.t == t && x_minus.size() == n_ &&
                           equal_numbers(crossing_.z.data(), x_minus.data(), n_);
  crossing_.mode = -1;  // one event per crossing
  if (!at_crossing) return false;
  // The run that found the crossing prepared its mode at the crossing's revision; an
  // impact stays in it.
  const bool current = crossing_.revision == system_.revision();
  PreparedMode* before = current ? &prepared_modes_[static_cast<size_t>(mode)] : prepared_for(mode);
  if (!before || !before->affine_events[static_cast<size_t>(event)]) return false;
  if (!(current && outcome.next_mode == mode) && !prepared_for(outcome.next_mode)) return false;
  const PreparedMode::Reset* reset = lifted_reset(mode, *before, event, outcome.kind);
  if (!reset) return false;
  const ExactLinearFlow& from = flows_[static_cast<size_t>(mode)];
  const ExactLinearFlow& to = flows_[static_cast<size_t>(outcome.next_mode)];
  const int n = n_, lifted = n_ + 3;
  work.result.resize(n, n);
  work.jump.resize(n);
  lifted_rate_.resize(lifted);
  const double* rate_coefficients = before->rate_coefficients.data() + event * lifted;
  const double rate = lifted_dot(rate_coefficients, crossing_.z.data(), lifted);
  const double rescale = to.forcing_scale() / from.forcing_scale();
  SaltationTerms terms{n,
                       crossing_.z.data(),
                       x_plus.data(),
                       rescale,
                       from.generator().data(),
                       to.generator().data(),
                       reset->lifted.data(),
                       before->event_coefficients.data() + event * lifted,
                       rate,
                       false,
                       lifted_rate_.data(),
                       work.jump.data(),
                       work.result.data()};
  terms.no_jump = reset->forgets_state && stays_on_image(terms);
  switch (n) {
    case 2: saltation_from_reset<2>(terms); break;
    case 4: saltation_from_reset<4>(terms); break;
    default: saltation_from_reset<0>(terms);
  }
  work.crossing_rate = rate;
  return true;
}

double ExactSegment::RunClock::lead(double t) const {
  // The steps from t_start to t0 are whole steps (t0 - t_start differs from k step by far
  // less than a step); their lead k step - (t0 - t_start) carries the rounding of a
  // run's span, far below an ulp of t.
  const double k = nearest_whole((t0 - t_start) / step);
  const double lead_at_t0 = k * step - (t0 - t_start);
  // t0 + tau exactly, as its rounded sum and the rounding error (Knuth's two-sum).
  const double sum = t0 + tau, tau_part = sum - t0;
  const double error = (t0 - (sum - tau_part)) + (tau - tau_part);
  return lead_at_t0 + (sum - t) + error;
}

template <int N>
void ExactSegment::hold(int mode, double t, const Matrix& block, const RunClock& clock) {
  held_.mode = mode;
  held_.prepared = prepared_;  // the run's mode's
  held_.revision = system_.revision();
  held_.t = t;
  held_.run_start = true;
  held_.clock = clock;
  copy_numbers<kLiftedSize<N>>(block.data(), held_.z, n_ + 3);
}

bool ExactSegment::turn_back_held(double frequency, double& c, double& s) const {
  // The forcing values turned back by w lead to those of the clock's t, as lift gives them
  // to rounding. The lead is a few ulps of t: below 2^-27 radian cos = 1 and sin = angle to
  // rounding; a larger one (a far longer run) by the Taylor polynomials of small_rotation;
  // beyond their range, a lift.
  const double* forcing = held_.z.data() + n_;
  if (held_.clock.at_own_start(held_.t)) {
    // No lead (a lifted reset leaves the clock so): the turn by the angle -0 would give
    // these values to the bit (but for the sign of a value that is zero).
    c = forcing[1];
    s = forcing[2];
    return true;
  }
  const double angle = -frequency * held_.clock.lead(held_.t);
  HarmonicPhase turn{1.0, angle};
  if (!(std::abs(angle) <= 0x1p-27)) {
    if (!(std::abs(angle) <= 1.0 / 32)) return false;
    turn = small_rotation(angle);
  }
  c = forcing[1] * turn.cosine - forcing[2] * turn.sine;
  s = forcing[2] * turn.cosine + forcing[1] * turn.sine;
  return true;
}

template <int N>
bool ExactSegment::start_from_held(double frequency) {
  double c = 0.0, s = 0.0;
  if (!turn_back_held(frequency, c, s)) return false;
  copy_numbers<kLiftedSize<N>>(held_.z.data(), block_.data(), n_ + 3);
  block_.data()[n_ + 1] = c;
  block_.data()[n_ + 2] = s;
  return true;
}

inline bool ExactSegment::holds(int mode, double t, const Vector& x) const {
  if (held_.mode != mode || held_.t != t || x.size() != n_ ||
      held_.revision != system_.revision())
    return false;
  return equal_numbers(held_.z.data(), x.data(), n_);
}

bool ExactSegment::lifted_event(int mode, int event, double t, const Vector& x,
                                LiftedEvent& out) const {
  if (!holds(mode, t, x)) return false;
  const PreparedMode& prepared = *held_.prepared;
  if (event < 0 || event >= prepared.events ||
      !prepared.affine_events[static_cast<size_t>(event)])
    return false;
  const int lifted = n_ + 3;
  const LiftedSums sums{prepared.event_coefficients.data() + event * lifted,
                        prepared.rate_coefficients.data() + event * lifted,
                        prepared.rate_magnitudes.data() + event * lifted, held_.z.data()};
  switch (lifted) {
    case 5: out = lifted_sums<5>(sums, lifted); break;
    case 7: out = lifted_sums<7>(sums, lifted); break;
    default: out = lifted_sums<0>(sums, lifted);
  }
  out.direction = prepared.directions[static_cast<size_t>(event)];
  return true;
}

bool ExactSegment::reset_lifted(int mode, int event, double t, const Vector& x_minus,
                                Vector& x_plus, EventOutcome& outcome, double& rate) {
  if (!held_.run_start || !holds(mode, t, x_minus)) return false;
  // Held at the model's revision: the mode's prepared data are current.
  PreparedMode& before = prepared_modes_[static_cast<size_t>(mode)];
  if (event < 0 || event >= before.events || !before.affine_events[static_cast<size_t>(event)])
    return false;
  const int lifted_size = n_ + 3;
  rate = lifted_dot(before.rate_coefficients.data() + event * lifted_size, held_.z.data(),
                    lifted_size);
  if (!affine_->affine_outcome(mode, event, rate, x_minus, outcome)) return false;
  PreparedMode* next = outcome.next_mode == mode ? &before : prepared_for(outcome.next_mode);
  const PreparedMode::Reset* reset =
      next ? lifted_reset(mode, before, event, outcome.kind) : nullptr;
  double c = 0.0, s = 0.0;
  if (!reset || !turn_back_held(flows_[static_cast<size_t>(mode)].frequency(), c, s))
    return false;
  // x+ = R z, z the held state with its forcing values at the clock's t.
  const int n = n_;
  double* z = held_.z.data();
  z[n + 1] = c;
  z[n + 2] = s;
  x_plus.resize(n);
  switch (n) {
    case 2: reset_product<2>(reset->lifted.data(), z, x_plus.data(), n); break;
    case 4: reset_product<4>(reset->lifted.data(), z, x_plus.data(), n); break;
    default: reset_product<0>(reset->lifted.data(), z, x_plus.data(), n);
  }
  // The event's gap closed exactly on the lifted values (gap_closure.hpp).
  close_gap_on_surface(before.event_coefficients.data() + event * lifted_size, z + n, n,
                       x_plus.data());
  // Held from here, at the clock's t with no lead: the next run's start.
  hold_reset(mode, outcome.next_mode, next, x_plus);
  held_.clock = {t, t, held_.clock.step, 0.0};
  return true;
}

void ExactSegment::hold_reset(int mode, int next_mode, const PreparedMode* next,
                              const Vector& x_plus) {
  // The forcing values in the next mode's scale (a power of two: exact).
  const double rescale = flows_[static_cast<size_t>(next_mode)].forcing_scale() /
                         flows_[static_cast<size_t>(mode)].forcing_scale();
  double* z = held_.z.data();
  for (int i = 0; i < n_; ++i) z[i] = x_plus[i];
  if (rescale != 1.0)
    for (int i = n_; i < n_ + 3; ++i) z[i] *= rescale;
  held_.mode = next_mode;
  held_.prepared = next;
}

void ExactSegment::lift_reset(int mode, double t, const Vector& x_minus, int next_mode,
                              const Vector& x_plus) {
  const PreparedMode* next = holds(mode, t, x_minus) ? prepared_for(next_mode) : nullptr;
  if (!next || x_plus.size() != n_) {
    held_.mode = -1;
    return;
  }
  hold_reset(mode, next_mode, next, x_plus);
  held_.run_start = false;
}

}  // namespace libcont::detail
