#include "libcont/exact_linear_flow.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "event_free_bound.hpp"
#include "lifted_product.hpp"
#include "machine_epsilon.hpp"
#include "libcont/harmonic_phase.hpp"
#include "libcont/input_error.hpp"

namespace libcont {

namespace {
// The largest entry of the particular solution's Pi (in the balanced lifting, where the
// forcing columns of M have the size of A) for which the closed form of expm(M s) loses
// no more to cancellation than the series does.
constexpr double kLargestParticular = 4.0;

double max_abs(const Matrix& m, int columns) { return m.leftCols(columns).cwiseAbs().maxCoeff(); }

// out = a * in for the small matrices of the exact path: a is a lifted (n + 3) square,
// block upper triangular [[X, Y], [0, Z]] (M, its exponentials and their powers). In a block
// [z | Phi] (Operand::Block) the columns after the first are tangent columns
// (Phi, 0, 0, 0), whose image is (X Phi, 0, 0, 0): only X acts on them. Only the leading
// `columns` columns of in and out (all of in's if negative).
enum class Operand { Block, Square };

template <int N>
void multiply_fixed(const Matrix& a, const Matrix& in, Matrix& out, Eigen::Index columns,
                    Operand operand) {
  const double* m = a.data();
  const double* from = in.data();
  double* to = out.data();
  if (operand == Operand::Square) {
    for (Eigen::Index c = 0; c < columns; ++c)
      detail::column_product<N, N>(m, from + c * N, to + c * N);
    return;
  }
  detail::block_product<N>(m, from, to, columns);
}

void multiply(const Matrix& a, const Matrix& in, Matrix& out, Operand operand,
              Eigen::Index columns = -1) {
  if (columns < 0) columns = in.cols();
  switch (a.rows()) {
    case 4:
      return multiply_fixed<4>(a, in, out, columns, operand);
    case 5:
      return multiply_fixed<5>(a, in, out, columns, operand);
    case 6:
      return multiply_fixed<6>(a, in, out, columns, operand);
    case 7:
      return multiply_fixed<7>(a, in, out, columns, operand);
    case 8:
      return multiply_fixed<8>(a, in, out, columns, operand);
    default:
      break;
  }
  // Larger systems (the chain): Eigen's blocked, vectorised product, several times faster
  // than a plain loop once the matrices leave the cache.
  const Eigen::Index size = a.rows();
  out.col(0).noalias() = a * in.col(0);
  if (columns < 2) return;
  const Eigen::Index inner = operand == Operand::Block ? size - 3 : size;
  const Eigen::Index rest = columns - 1;
  out.block(0, 1, inner, rest).noalias() =
      a.topLeftCorner(inner, inner) * in.block(0, 1, inner, rest);
  if (inner < size) out.block(inner, 1, size - inner, rest).setZero();
}

// Horner's scheme over `count` terms of `size` numbers each, with the size fixed: the
// small loop unrolled (the dynamic loop costs more than its few products).
template <int Size, size_t Terms>
void horner_fixed(const std::array<Matrix, Terms>& terms, int count, double theta,
                  double* result) {
  double r[Size];
  const double* last = terms[static_cast<size_t>(count - 1)].data();
  for (int i = 0; i < Size; ++i) r[i] = last[i];
  for (int k = count - 2; k >= 0; --k) {
    const double* term = terms[static_cast<size_t>(k)].data();
    for (int i = 0; i < Size; ++i) r[i] = r[i] * theta + term[i];
  }
  for (int i = 0; i < Size; ++i) result[i] = r[i];
}

// f with b = f a to rounding (a and b zero: f = 1); false where b is no multiple of a.
bool factor_of(ConstMatrixRef a, ConstMatrixRef b, double& f) {
  const double norm = a.squaredNorm();
  if (norm == 0.0) {
    f = 1.0;
    return b.squaredNorm() == 0.0;
  }
  f = a.cwiseProduct(b).sum() / norm;
  return (b - f * a).cwiseAbs().maxCoeff() <= 8.0 * kEpsilon * b.cwiseAbs().maxCoeff();
}

}  // namespace

void matrix_exponential(ConstMatrixRef X, Matrix& result, std::array<Matrix, 3>& work) {
  const Eigen::Index size = X.rows();
  Matrix& term = work[0];
  Matrix& product = work[1];
  Matrix& next = work[2];
  term.resize(size, size);
  product.resize(size, size);
  next.resize(size, size);
  result.resize(size, size);
  // Balancing (Parlett-Reinsch, powers of two: exact): B = D^-1 X D with rows and columns
  // of similar size. A stiff contact (k_s = 2e5 beside a 1 in X) has a norm far above its
  // spectral radius; balanced, it needs fewer squarings, and loses less to rounding in
  // them. expm(X) = D expm(B) D^-1. The scale factors are kept in product's first column
  // until the end.
  Matrix& balanced = result;
  balanced = X;
  Eigen::Index n = size;
  double scales[64];
  const bool balance = n <= 64;
  for (Eigen::Index i = 0; i < n && balance; ++i) scales[i] = 1.0;
  for (int sweep = 0; sweep < 20 && balance; ++sweep) {
    bool changed = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double column = balanced.col(i).cwiseAbs().sum() - std::abs(balanced(i, i));
      const double row = balanced.row(i).cwiseAbs().sum() - std::abs(balanced(i, i));
      if (column == 0.0 || row == 0.0 || !std::isfinite(column + row)) continue;
      double f = 1.0;
      double c = column, r = row;
      while (c < r / 2) c *= 2, r /= 2, f *= 2;
      while (c >= r * 2) c /= 2, r *= 2, f /= 2;
      if ((c + r) < 0.95 * (column + row)) {
        changed = true;
        scales[i] *= f;
        balanced.row(i) /= f;
        balanced.col(i) *= f;
      }
    }
    if (!changed) break;
  }
  term = balanced;  // B, while result becomes the sum
  const double norm = term.cwiseAbs().colwise().sum().maxCoeff();  // 1-norm
  if (!std::isfinite(norm))  // set_mode refuses such data; the count below would overflow
    throw InputError("matrix exponential: the matrix's norm is not finite");
  int squarings = 0;
  if (norm > 0.25) squarings = static_cast<int>(std::ceil(std::log2(norm / 0.25)));
  const double scale = std::ldexp(1.0, -squarings);
  // Taylor series of expm(Y), ||Y|| <= 1/4: the k-th term is below 4^-k / k!, rounding
  // reached by k = 15. `product` holds Y = B / 2^s; term the running power.
  product = term * scale;
  result.setIdentity();
  term.setIdentity();
  Matrix& power = term;
  for (int k = 1; k <= 20; ++k) {
    next.noalias() = power * product;
    power = next / k;
    result += power;
    if (power.cwiseAbs().maxCoeff() <= 0.25 * kEpsilon * result.cwiseAbs().maxCoeff()) break;
  }
  for (int i = 0; i < squarings; ++i) {
    product.noalias() = result * result;
    result.swap(product);
  }
  if (balance)
    for (Eigen::Index i = 0; i < n; ++i) {
      result.row(i) *= scales[i];
      result.col(i) /= scales[i];
    }
}

bool ExactLinearFlow::set_mode(const AffineMode& mode) {
  const Eigen::Index n = mode.A.rows();
  if (n == n_ && mode_.frequency == mode.frequency && mode_.A == mode.A && mode_.b0 == mode.b0 &&
      mode_.b_cos == mode.b_cos && mode_.b_sin == mode.b_sin)
    return false;
  if (mode.A.cols() != n || mode.b0.size() != n || mode.b_cos.size() != n ||
      mode.b_sin.size() != n || !(mode.frequency >= 0.0) || !mode.finite())
    throw InputError("affine mode: A must be n x n, b0, b_cos, b_sin of size n, w >= 0, finite");
  // The scan step depends on A and w only: a new forcing alone (a loading curve's
  // parameter) keeps it without the eigensolve, which takes longer than a map of a large A.
  const bool same_dynamics = n == n_ && mode_.frequency == mode.frequency && mode_.A == mode.A;
  // The old forcing columns of M, for caches that a change of the load alone keeps.
  Matrix old_forcing;
  if (same_dynamics && n_ >= kRescaleFrom) old_forcing = generator_.block(0, n_, n_, 3);
  n_ = static_cast<int>(n);
  mode_ = mode;
  const int lifted = n_ + 3;
  const double w = mode.frequency;
  // Balancing: the forcing coordinates are lifted as sigma (1, cos, sin), sigma a power of
  // two that brings the forcing columns of M to the size of A or w. Without it a force
  // of 1e300 (any units) would dominate the norm that scales the exponential.
  const double forcing = std::max({mode.b0.cwiseAbs().maxCoeff(), mode.b_cos.cwiseAbs().maxCoeff(),
                                   mode.b_sin.cwiseAbs().maxCoeff()});
  const double dynamics = std::max(mode.A.cwiseAbs().colwise().sum().maxCoeff(), w);
  forcing_scale_ = 1.0;
  if (forcing > 0.0)
    forcing_scale_ =
        std::exp2(std::round(std::log2(dynamics > 0.0 ? forcing / dynamics : forcing)));
  generator_ = Matrix::Zero(lifted, lifted);
  generator_.topLeftCorner(n, n) = mode.A;
  generator_.col(n_).head(n) = mode.b0 / forcing_scale_;
  generator_.col(n_ + 1).head(n) = mode.b_cos / forcing_scale_;
  generator_.col(n_ + 2).head(n) = mode.b_sin / forcing_scale_;
  generator_(n_ + 1, n_ + 2) = -w;  // (cos w t)' = -w sin w t
  generator_(n_ + 2, n_ + 1) = w;   // (sin w t)' =  w cos w t

  // The fastest rate of the motion: the largest eigenvalue modulus of A, or w. A
  // nilpotent A (polynomial motion) has none; its norm then bounds how fast the
  // polynomial's terms change.
  double fastest = w;
  if (n > 0 && !same_dynamics) {
    const Eigen::EigenSolver<Matrix> solver(mode.A, false);
    if (solver.info() == Eigen::Success)
      fastest = std::max(fastest, solver.eigenvalues().cwiseAbs().maxCoeff());
    if (fastest <= 0.0) fastest = mode.A.cwiseAbs().colwise().sum().maxCoeff();
  }
  if (!same_dynamics)
    scan_step_ = fastest > 0.0 ? 0.5 / fastest : std::numeric_limits<double>::infinity();

  // A forcing changed only by factors (a loading curve's load: its constant part by one,
  // its harmonic part by another) changes the cached exponentials by the same factors:
  // expm(M tau) = [[E, X], [0, F]], X linear in M's forcing columns g0, gc, gs as
  // [P g0, C gc + S gs, -S gc + C gs] with P, C, S integrals over expm(A s) alone. A large
  // system keeps them so (each costs some twenty products of its size); a small one
  // recomputes them, bit for bit as before.
  double constant = 1.0, harmonic = 1.0;
  if (old_forcing.size() &&
      factor_of(old_forcing.col(0), generator_.col(n_).head(n), constant) &&
      factor_of(old_forcing.rightCols(2), generator_.block(0, n_ + 1, n, 2), harmonic)) {
    const auto rescale = [&](Matrix& m) {
      m.block(0, n_, n, 1) *= constant;
      m.block(0, n_ + 1, n, 2) *= harmonic;
    };
    for (auto& entry : cache_)
      if (entry.tau >= 0.0) rescale(entry.matrix);
    for (int k = 0; k < powers_ready_; ++k) rescale(powers_[static_cast<size_t>(k)]);
  } else {
    for (auto& entry : cache_) {
      entry.tau = -1.0;
      entry.matrix.resize(lifted, lifted);
    }
    powers_tau_ = -1.0;
    powers_ready_ = 0;
    recent_misses_.fill(-1.0);
  }
  // Pi R - E Pi cancels where Pi is large beside M's balanced forcing columns (A nearly
  // singular or in resonance with w): rounding of order eps |Pi| would then exceed the
  // series'.
  closed_form_ = n == 2 && detail::periodic_particular_solution(generator_, n_, particular_) &&
                 particular_.cwiseAbs().maxCoeff() <= kLargestParticular;
  if (closed_form_) {
    half_trace_ = 0.5 * (mode.A(0, 0) + mode.A(1, 1));
    const double half_difference = 0.5 * (mode.A(0, 0) - mode.A(1, 1));
    discriminant_ = half_difference * half_difference + mode.A(0, 1) * mode.A(1, 0);
  }
  if (!same_dynamics) eigen_.set_dynamics(mode.A);
  eigen_.set_forcing(generator_.block(0, n_, n_, 3), w);
  transition_.resize(lifted, lifted);
  exp_scratch_.resize(lifted, lifted);
  set_block_columns(block_columns_);
  return true;
}

namespace {

// c and d of the closed form at s for b^2 = discriminant of a real pair or zero (b its
// root): cosh b s and sinh(b s) / b, or 1 and s. A complex pair's cos and sin come from
// the caller, who may have them already.
void real_pair_terms(double discriminant, double b, double s, double& c, double& d) {
  c = 1.0;
  d = s;
  if (discriminant > 0.0) {
    c = std::cosh(b * s);
    d = std::sinh(b * s) / b;
  }
}

}  // namespace

void ExactLinearFlow::closed_form_exponential(double s, double* E) const {
  const double b = std::sqrt(std::abs(discriminant_));
  double c = 0.0, d = 0.0;
  if (discriminant_ < 0.0) {
    c = std::cos(b * s);
    d = std::sin(b * s) / b;
  } else {
    real_pair_terms(discriminant_, b, s, c, d);
  }
  const double growth = std::exp(half_trace_ * s);
  const double* A = mode_.A.data();  // column-major 2 x 2
  E[0] = growth * (c + d * (A[0] - half_trace_));
  E[1] = growth * d * A[1];
  E[2] = growth * d * A[2];
  E[3] = growth * (c + d * (A[3] - half_trace_));
}

void ExactLinearFlow::closed_form_transition(double s, Matrix& out) const {
  double E[4];
  closed_form_exponential(s, E);
  const double e00 = E[0], e10 = E[1], e01 = E[2], e11 = E[3];
  const double w = mode_.frequency;
  const double cw = std::cos(w * s), sw = std::sin(w * s);
  // Column-major 5 x 5, written out: this runs at every iteration of a root search.
  const double* P = particular_.data();  // Pi, column-major 2 x 3
  const double P00 = P[0], P10 = P[1], P01 = P[2], P11 = P[3], P02 = P[4], P12 = P[5];
  out.resize(5, 5);  // no allocation once it has that size
  double* o = out.data();
  o[0] = e00, o[1] = e10, o[2] = 0.0, o[3] = 0.0, o[4] = 0.0;
  o[5] = e01, o[6] = e11, o[7] = 0.0, o[8] = 0.0, o[9] = 0.0;
  // Pi R - E Pi, R = [[1, 0, 0], [0, cw, -sw], [0, sw, cw]].
  o[10] = P00 - (e00 * P00 + e01 * P10);
  o[11] = P10 - (e10 * P00 + e11 * P10);
  o[12] = 1.0, o[13] = 0.0, o[14] = 0.0;
  o[15] = (P01 * cw + P02 * sw) - (e00 * P01 + e01 * P11);
  o[16] = (P11 * cw + P12 * sw) - (e10 * P01 + e11 * P11);
  o[17] = 0.0, o[18] = cw, o[19] = sw;
  o[20] = (P02 * cw - P01 * sw) - (e00 * P02 + e01 * P12);
  o[21] = (P12 * cw - P11 * sw) - (e10 * P02 + e11 * P12);
  o[22] = 0.0, o[23] = -sw, o[24] = cw;
}

ExactLinearFlow::ClosedFormFunction ExactLinearFlow::closed_form_function(const double* c,
                                                                         const double* z0) const {
  ClosedFormFunction f;
  f.a = half_trace_;
  f.discriminant = discriminant_;
  f.b = std::sqrt(std::abs(discriminant_));
  f.w = mode_.frequency;
  const double* A = mode_.A.data();      // column-major 2 x 2
  const double* P = particular_.data();  // Pi, column-major 2 x 3
  // u = x0 - Pi q0: the deviation from the periodic particular solution.
  const double u0 = z0[0] - (P[0] * z0[2] + P[2] * z0[3] + P[4] * z0[4]);
  const double u1 = z0[1] - (P[1] * z0[2] + P[3] * z0[3] + P[5] * z0[4]);
  f.alpha = c[0] * u0 + c[1] * u1;
  f.beta = c[0] * ((A[0] - half_trace_) * u0 + A[2] * u1) +
           c[1] * (A[1] * u0 + (A[3] - half_trace_) * u1);
  // gamma = Pi^T c_x + c_q; gamma . R(s) q0 with R(s) q0 = (q00, cw q1 - sw q2, sw q1 + cw q2).
  const double g0 = P[0] * c[0] + P[1] * c[1] + c[2];
  const double g1 = P[2] * c[0] + P[3] * c[1] + c[3];
  const double g2 = P[4] * c[0] + P[5] * c[1] + c[4];
  f.delta0 = g0 * z0[2];
  f.delta1 = g1 * z0[3] + g2 * z0[4];
  f.delta2 = g2 * z0[3] - g1 * z0[4];
  return f;
}

void ExactLinearFlow::ClosedFormFunction::evaluate(double s, double& value, double& rate) {
  // c' = b^2 d and d' = c with b^2 signed (negative for a complex pair), so
  // (alpha c + beta d)' = alpha b^2 d + beta c.
  constexpr double kSmallAngle = 1.0 / 32;  // where small_rotation is exact to rounding
  const double step = s - last_s_;
  const double angle = std::abs(step) * std::max({b, w, std::abs(a)});
  if (has_last_ && discriminant <= 0.0 && angle <= kSmallAngle) {
    const detail::HarmonicPhase rb = detail::small_rotation(b * step);
    const detail::HarmonicPhase rw = detail::small_rotation(w * step);
    const double x = a * step;  // e^x to rounding for |x| <= 1/32: Taylor to x^9
    const double scale =
        1.0 + x * (1.0 + x / 2 * (1.0 + x / 3 * (1.0 + x / 4 * (1.0 + x / 5 * (1.0 + x / 6 * (
                  1.0 + x / 7 * (1.0 + x / 8 * (1.0 + x / 9))))))));
    const double cb = cos_b_ * rb.cosine - sin_b_ * rb.sine;
    sin_b_ = sin_b_ * rb.cosine + cos_b_ * rb.sine;
    cos_b_ = cb;
    const double cw = cos_w_ * rw.cosine - sin_w_ * rw.sine;
    sin_w_ = sin_w_ * rw.cosine + cos_w_ * rw.sine;
    cos_w_ = cw;
    growth_ *= scale;
  } else {
    if (discriminant < 0.0) {  // a real pair's c and d come from cosh and sinh below
      cos_b_ = std::cos(b * s);
      sin_b_ = std::sin(b * s);
    }
    cos_w_ = std::cos(w * s);
    sin_w_ = std::sin(w * s);
    growth_ = std::exp(a * s);
  }
  has_last_ = true;
  last_s_ = s;
  double c = 0.0, d = 0.0;
  if (discriminant < 0.0) {
    c = cos_b_;
    d = sin_b_ / b;
  } else {
    real_pair_terms(discriminant, b, s, c, d);
  }
  const double growth = growth_;
  const double cw = cos_w_, sw = sin_w_;
  const double free = alpha * c + beta * d;
  value = growth * free + delta0 + delta1 * cw + delta2 * sw;
  rate = growth * (a * free + alpha * discriminant * d + beta * c) + w * (delta2 * cw - delta1 * sw);
}

bool ExactLinearFlow::closed_form_fits(double length) const {
  return closed_form_ && length * std::sqrt(std::max(discriminant_, 0.0)) <= 1.0;
}

void ExactLinearFlow::exponential(double tau, Matrix& out) {
  if (eigen_.usable() && tau >= scan_step_) {
    eigen_.transition(tau, out);
    return;
  }
  exp_scratch_ = generator_ * tau;
  // The exponentials are shared by the flows of a thread, keyed by M and tau (the same
  // inputs: the same result to the bit): a continuation's measuring passes make new flows
  // at every evaluation, with the same M and scan step, and a Lyapunov spectrum runs its
  // transient and its tangent in two flows of the same modes. A large system's within a
  // memory budget; a small system's, whose exponential costs a few thousand instructions,
  // in a short list (a long one would cost more to search than it saves).
  struct Shared {
    Matrix generator;
    double tau;
    Matrix value;
  };
  thread_local std::deque<Shared> shared_large, shared_small;
  std::deque<Shared>& shared = n_ < kRescaleFrom ? shared_small : shared_large;
  for (const Shared& e : shared)
    if (e.tau == tau && e.generator.rows() == generator_.rows() && e.generator == generator_) {
      out = e.value;
      return;
    }
  matrix_exponential(exp_scratch_, out, exp_work_);
  constexpr double kBudgetBytes = 64e6;
  constexpr std::size_t kSmallEntries = 16;
  const double bytes = 2.0 * sizeof(double) * static_cast<double>(out.size());
  if (bytes > kBudgetBytes) return;
  shared.push_front({generator_, tau, out});
  const std::size_t most = n_ < kRescaleFrom ? kSmallEntries : shared.max_size();
  while (shared.size() > most || static_cast<double>(shared.size()) * bytes > kBudgetBytes)
    shared.pop_back();
}

void ExactLinearFlow::set_block_columns(int columns) {
  block_columns_ = columns;
  // The series' terms are sized when a series is built (build): a mode with the closed
  // form builds none, and a Flow is made for every Lyapunov spectrum and period map.
  for (Expansion* e : {&bracket_, &scratch_}) {
    e->base.resize(n_ + 3, columns);
    e->count = 0;
    e->closed = false;
  }
  first_order_.resize(n_ + 3, columns);
  second_order_.resize(n_ + 3, columns);
}

void ExactLinearFlow::lift(double t, ConstVectorRef x, VectorRef z) const {
  z.head(n_) = x;
  // The phase in a local, both calls before the stores: the compiler then makes them one
  // sincos (the same bits as cos and sin; a store through z might alias the frequency
  // and would have it read again for each).
  const double phase = mode_.frequency * t;
  const double cosine = std::cos(phase), sine = std::sin(phase);
  z[n_] = forcing_scale_;
  z[n_ + 1] = forcing_scale_ * cosine;
  z[n_ + 2] = forcing_scale_ * sine;
}

void ExactLinearFlow::field(ConstVectorRef z, VectorRef f) const {
  f.noalias() = generator_.topRows(n_) * z;
}

template <int Lifted, int Columns>
void ExactLinearFlow::propagate_by(const CachedTransition& entry, double tau, const Matrix& in,
                                   Matrix& out) {
  // The generator's forcing rows are zero under the state by construction (set_mode), the
  // entry's where it was checked.
  const auto product = [](const Matrix& a, bool separate, const Matrix& from, Matrix& to) {
    if constexpr (Lifted > 0) {
      if (separate)
        detail::block_product<Lifted, true>(a.data(), from.data(), to.data(), Columns);
      else
        detail::block_product<Lifted>(a.data(), from.data(), to.data(), Columns);
    } else {
      multiply(a, from, to, Operand::Block);
    }
  };
  product(entry.matrix, entry.separate, in, out);
  const double delta = tau - entry.tau;
  if (delta == 0.0) return;
  product(generator_, true, out, first_order_);
  product(generator_, true, first_order_, second_order_);
  const double half_square = 0.5 * delta * delta;
  const Eigen::Index size = Lifted > 0 ? Lifted * Columns : out.size();
  double* result = out.data();
  const double* first = first_order_.data();
  const double* second = second_order_.data();
  for (Eigen::Index i = 0; i < size; ++i)
    result[i] += delta * first[i] + half_square * second[i];
}

template <int Lifted, int Columns>
bool ExactLinearFlow::propagate_cached(double tau, const Matrix& in, Matrix& out) {
  for (const auto& entry : cache_)
    if (near(tau, entry.tau)) {
      propagate_by<Lifted, Columns>(entry, tau, in, out);
      return true;
    }
  return false;
}
template bool ExactLinearFlow::propagate_cached<5, 1>(double, const Matrix&, Matrix&);
template bool ExactLinearFlow::propagate_cached<5, 3>(double, const Matrix&, Matrix&);

const Matrix* ExactLinearFlow::cached_transition(double tau, bool& separate) const {
  // The entry propagate_cached would take: the first near one.
  separate = false;
  for (const auto& entry : cache_)
    if (near(tau, entry.tau)) {
      if (entry.tau != tau) return nullptr;
      separate = entry.separate;
      return &entry.matrix;
    }
  return nullptr;
}

void ExactLinearFlow::propagate(double tau, const Matrix& in, Matrix& out) {
  for (const auto& entry : cache_)
    if (near(tau, entry.tau)) {
      propagate_by<0, 0>(entry, tau, in, out);
      return;
    }
  if (std::any_of(recent_misses_.begin(), recent_misses_.end(),
                  [&](double miss) { return near(tau, miss); })) {
    // A step that recurs (the remainder of a period, map after map): keep its exponential.
    CachedTransition& entry = cache_[static_cast<size_t>(cache_next_)];
    cache_next_ = (cache_next_ + 1) % static_cast<int>(cache_.size());
    exponential(tau, entry.matrix);
    entry.tau = tau;
    // Checked for the sized products of two states (propagate_cached, the two-state scan).
    entry.separate =
        entry.matrix.rows() == 5 && detail::forcing_rows_separate<5>(entry.matrix.data());
    multiply(entry.matrix, in, out, Operand::Block);
    return;
  }
  recent_misses_[static_cast<size_t>(next_miss_)] = tau;
  next_miss_ = (next_miss_ + 1) % static_cast<int>(recent_misses_.size());
  if (!(tau <= scan_step_)) {
    exponential(tau, exp_result_);
    out.noalias() = exp_result_ * in;
    return;
  }
  if (closed_form_fits(tau)) {
    closed_form_transition(tau, transition_);
    multiply(transition_, in, out, Operand::Block);
    return;
  }
  build(scratch_, in, static_cast<int>(in.cols()), tau);
  evaluate(scratch_, tau, out);
}

const Matrix& ExactLinearFlow::repeated_power(double tau, int steps) {
  if (steps < 1 || steps > max_repeated_steps())
    throw InputError("exact flow: repeated steps out of range");
  if (tau != powers_tau_) {
    exponential(tau, powers_[0]);
    powers_tau_ = tau;
    powers_ready_ = 1;
  }
  for (; powers_ready_ < steps; ++powers_ready_) {
    Matrix& next = powers_[static_cast<size_t>(powers_ready_)];
    next.resize(n_ + 3, n_ + 3);
    multiply(powers_[0], powers_[static_cast<size_t>(powers_ready_ - 1)], next, Operand::Square);
  }
  return powers_[static_cast<size_t>(steps - 1)];
}

void ExactLinearFlow::propagate_repeated(double tau, int steps, const Matrix& in, Matrix& out) {
  multiply(repeated_power(tau, steps), in, out, Operand::Block);
}

void ExactLinearFlow::expand(const Matrix& W, int columns, double length) {
  build(bracket_, W, columns, length);
}

void ExactLinearFlow::evaluate(double s, Matrix& out, int columns) {
  evaluate(bracket_, s, out, columns);
}

void ExactLinearFlow::build(Expansion& e, const Matrix& W, int columns, double length) {
  e.columns = columns;
  e.length = length;
  // The leading columns are contiguous: one plain copy (Eigen's dynamic block copy costs
  // more than the 5 to 15 numbers of a two-state block, at every crossing).
  std::copy(W.data(), W.data() + (n_ + 3) * columns, e.base.data());
  e.closed = closed_form_fits(length);
  if (e.closed) return;
  e.terms[0].resize(n_ + 3, block_columns_);  // no allocation once sized
  e.terms[0].leftCols(columns) = W.leftCols(columns);
  // Terms (M L)^k W / k! until two in a row are below rounding of the largest one. The
  // series is used only if it converges within the storage and no term exceeds the block
  // by more than 1e4 (cancellation would then cost more than four digits).
  const int size = (n_ + 3) * columns;
  double largest = max_abs(e.terms[0], columns);
  const double start = largest;
  int small_in_a_row = 0;
  e.count = 0;
  for (int k = 1; k < static_cast<int>(e.terms.size()); ++k) {
    Matrix& term_matrix = e.terms[static_cast<size_t>(k)];
    term_matrix.resize(n_ + 3, block_columns_);
    multiply(generator_, e.terms[static_cast<size_t>(k - 1)], term_matrix, Operand::Block, columns);
    double* term = term_matrix.data();
    const double scale = length / k;
    double term_size = 0.0;
    for (int i = 0; i < size; ++i) {
      term[i] *= scale;
      term_size = std::max(term_size, std::abs(term[i]));
    }
    largest = std::max(largest, term_size);
    small_in_a_row = term_size <= 0.125 * kEpsilon * largest ? small_in_a_row + 1 : 0;
    if (small_in_a_row == 2) {
      e.count = k + 1;
      break;
    }
  }
  if (e.count > 0 && largest > 1e4 * std::max(start, 1e-300)) e.count = 0;
}

void ExactLinearFlow::evaluate(Expansion& e, double s, Matrix& out, int wanted) {
  const int columns = wanted < 0 ? e.columns : std::min(wanted, e.columns);
  if (e.closed) {
    closed_form_transition(s, transition_);
    multiply(transition_, e.base, out, Operand::Block, columns);
    return;
  }
  if (e.count == 0) {
    exponential(s, exp_result_);
    out.leftCols(columns).noalias() = exp_result_ * e.base.leftCols(columns);
    return;
  }
  // Horner in theta = s / length over the leading `columns` columns (contiguous).
  const double theta = e.length > 0.0 ? s / e.length : 0.0;
  if (columns == 1) {  // the root searches' state column, at every iteration
    switch (n_ + 3) {
      case 4:
        return horner_fixed<4>(e.terms, e.count, theta, out.data());
      case 5:
        return horner_fixed<5>(e.terms, e.count, theta, out.data());
      case 6:
        return horner_fixed<6>(e.terms, e.count, theta, out.data());
      case 7:
        return horner_fixed<7>(e.terms, e.count, theta, out.data());
      case 8:
        return horner_fixed<8>(e.terms, e.count, theta, out.data());
      default:
        break;
    }
  }
  const int size = (n_ + 3) * columns;
  double* result = out.data();
  const double* last = e.terms[static_cast<size_t>(e.count - 1)].data();
  for (int i = 0; i < size; ++i) result[i] = last[i];
  for (int k = e.count - 2; k >= 0; --k) {
    const double* term = e.terms[static_cast<size_t>(k)].data();
    for (int i = 0; i < size; ++i) result[i] = result[i] * theta + term[i];
  }
}

}  // namespace libcont
