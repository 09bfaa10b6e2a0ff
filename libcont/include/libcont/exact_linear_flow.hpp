#pragma once
// The exact flow of an affine mode with harmonic forcing (AffineMode, hybrid_system.hpp):
//   x' = A x + b0 + b_cos cos(w t) + b_sin sin(w t).
// The state is lifted to z = (x, s, s cos w t, s sin w t), which obeys the autonomous
// linear system z' = M z,
//   M = [[A, b0/s, b_cos/s, b_sin/s], [0, 0, 0, 0], [0, 0, 0, -w], [0, 0, w, 0]]
// (s, forcing_scale(), a power of two that balances M: the forcing and A alike in size),
// so z(t + tau) = expm(M tau) z(t) whatever A is (singular, defective, in resonance with
// w: no particular solution has to exist), and a tangent column (Phi, 0, 0, 0) follows
// expm(A tau) Phi, the exact tangent flow. Flow propagates blocks W = [z | Phi] of lifted
// columns.
//
// Cost: the exponentials of the recurring time steps are cached (the scan step, the
// remainder of a period that Lyapunov and map iterations repeat); other times come from a
// Taylor expansion of the block itself over at most a scan step, where the series
// converges to rounding in a few terms, or, for a mode of two states with a periodic
// particular solution, from the closed form of expm(M s) (closed_form_transition); steps
// longer than a scan step of a mode of three to eight states come from A's
// eigen-decomposition (eigen_transition.hpp) instead of the scaled and squared series.
// Nothing allocates once a mode is installed and its first series built.
#include <array>
#include <cmath>

#include "libcont/affine_modes.hpp"
#include "libcont/eigen_transition.hpp"
#include "libcont/types.hpp"

namespace libcont {

// expm(X) by balancing, scaling and squaring of its Taylor series (norm after scaling
// <= 1/4, so the truncated terms are below rounding). `work`: scratch matrices (resized to
// X's size; no allocation once they have it).
void matrix_exponential(ConstMatrixRef X, Matrix& result, std::array<Matrix, 3>& work);

class ExactLinearFlow {
 public:
  // Installs a mode; keeps the caches if the data are those already installed. Returns
  // whether anything changed.
  bool set_mode(const AffineMode& mode);
  // Sets the number of columns of the blocks to be propagated (1 + tangent columns).
  void set_block_columns(int columns);

  int dimension() const { return n_; }
  const Matrix& generator() const { return generator_; }  // M
  double forcing_scale() const { return forcing_scale_; }
  // The forcing's angular frequency w.
  double frequency() const { return mode_.frequency; }
  int lifted_dimension() const { return n_ + 3; }
  // Half a radian of the fastest rotation or growth of the mode (eigenvalues of A, w): an
  // event function of the motion turns at most once within such a step.
  double scan_step() const { return scan_step_; }

  // z = (x, s, s cos w t, s sin w t), s = forcing_scale().
  void lift(double t, ConstVectorRef x, VectorRef z) const;
  // The mode's vector field at a lifted state, A x + b(t).
  void field(ConstVectorRef z, VectorRef f) const;

  // out = expm(M tau) in (blocks of lifted columns, in and out distinct).
  void propagate(double tau, const Matrix& in, Matrix& out);
  // out = expm(M tau)^steps in, 1 <= steps <= max_repeated_steps(), by one product with a
  // cached power (the steps an event-free stretch crosses at once).
  void propagate_repeated(double tau, int steps, const Matrix& in, Matrix& out);
  // The power expm(M tau)^steps that propagate_repeated multiplies by (computed as far as
  // asked for, then kept).
  const Matrix& repeated_power(double tau, int steps);
  // propagate where it takes a cached exponential (a recurring step), with the block's
  // sizes fixed at compile time: Lifted rows (n + 3), Columns columns; the same products.
  // False (nothing done) where propagate would do anything else. Instantiated for two
  // states (exact_linear_flow.cpp).
  template <int Lifted, int Columns>
  bool propagate_cached(double tau, const Matrix& in, Matrix& out);
  // The cached expm(M tau) by which propagate_cached multiplies where tau is the very step
  // it was cached for (no second-order correction), else null: the two-state scan of the
  // exact path multiplies its own block by it. separate: whether its forcing rows are
  // exactly zero under the state (lifted_product.hpp's forcing_rows_separate, checked once
  // when it was cached).
  const Matrix* cached_transition(double tau, bool& separate) const;
  static constexpr int kMaxRepeatedSteps = 32;
  static constexpr int max_repeated_steps() { return kMaxRepeatedSteps; }

  // Prepares evaluations of expm(M s) W for 0 <= s <= length (first `columns` columns).
  void expand(const Matrix& W, int columns, double length);
  // After expand: out = expm(M s) W for those columns (out sized as W), or for the first
  // `columns` of them (a root search needs only the state's).
  void evaluate(double s, Matrix& out, int columns = -1);

  // Whether expm(M s) of this mode has the closed form below (two states, a periodic
  // particular solution of moderate size).
  bool has_closed_form() const { return closed_form_; }
  // expm(M s) = [[E, Pi R - E Pi], [0, R]] with E = expm(A s) by A's eigenvalues
  // a +- b (b real or imaginary), E = e^{a s} (c(s) I + d(s) (A - a I)), c = cos b s or
  // cosh b s, d = sin(b s) / b or sinh(b s) / b (s where b = 0: c and d are entire in b^2,
  // so a near-defective A loses nothing), R = expm(W s) the forcing's rotation and Pi the
  // particular solution (event_free_bound.hpp). Only where has_closed_form(); out (n + 3)
  // square.
  void closed_form_transition(double s, Matrix& out) const;
  // Its state block E = expm(A s) alone, column-major 2 x 2 into E[4] (where
  // has_closed_form()).
  void closed_form_exponential(double s, double* E) const;
  // A's half trace a and signed b^2 (negative: a complex pair), and the periodic particular
  // solution Pi (n x 3, x_p = Pi (s, s cos w t, s sin w t), s = forcing_scale()), where
  // has_closed_form().
  double half_trace() const { return half_trace_; }
  double discriminant() const { return discriminant_; }
  const Matrix& particular() const { return particular_; }
  // Whether the closed form serves steps up to `length` (evaluate then uses it): cosh b s
  // must stay near 1 (no cancellation between the two real exponentials).
  bool closed_form_fits(double length) const;

  // A function g = c . z linear in the lifted state, along the closed form from z0:
  //   g(s) = e^{a s} (alpha c(s) + beta d(s)) + delta0 + delta1 cos w s + delta2 sin w s
  // (c, d as above; with u = x0 - Pi q0, alpha = c_x . u, beta = c_x . (A - a I) u, and
  // the deltas from (Pi^T c_x + c_q) . R(s) q0). A root search evaluates g and its rate
  // with one exp and two sincos and a few products, without the transition matrix; within
  // 1/32 radian of the point evaluated last (Newton's later iterations), by rotating that
  // point's cosines and sines and scaling its exponential by short series instead.
  struct ClosedFormFunction {
    double a = 0.0, discriminant = 0.0, b = 0.0, w = 0.0;
    double alpha = 0.0, beta = 0.0, delta0 = 0.0, delta1 = 0.0, delta2 = 0.0;
    // g and dg/ds at s.
    void evaluate(double s, double& value, double& rate);

   private:
    // The point evaluated last: s, e^{a s}, cos and sin of b s and of w s.
    bool has_last_ = false;
    double last_s_ = 0.0, growth_ = 1.0, cos_b_ = 1.0, sin_b_ = 0.0, cos_w_ = 1.0, sin_w_ = 0.0;
  };
  // Only where has_closed_form(); c and z0: n + 3 numbers each.
  ClosedFormFunction closed_form_function(const double* c, const double* z0) const;

 private:
  // Truncated Taylor series of s -> expm(M s) W about s = 0, in powers of s / length.
  struct Expansion {
    std::array<Matrix, 48> terms;  // (M length)^k W / k!
    int count = 0;                 // terms in use; 0: the series is not used
    int columns = 0;
    double length = 0.0;
    Matrix base;  // W, for the fallback and the closed form
    bool closed = false;  // evaluated by closed_form_transition instead
  };
  void build(Expansion& e, const Matrix& W, int columns, double length);
  void evaluate(Expansion& e, double s, Matrix& out, int columns = -1);

  // Steps that differ from a cached one by rounding of the absolute times they came from
  // (a period t_{k+1} - t_k) reuse it, corrected to second order in the difference: the
  // neglected term is below (w delta)^3 ~ 1e-25.
  static bool near(double tau, double cached) { return std::abs(tau - cached) <= 1e-8 * cached; }
  // expm(M tau) into out.
  void exponential(double tau, Matrix& out);

  // State dimensions from which a change of the load alone rescales the cached
  // exponentials instead of recomputing them (set_mode).
  static constexpr int kRescaleFrom = 24;

  struct CachedTransition {
    double tau = -1.0;
    Matrix matrix;
    bool separate = false;  // a lifted square of two states with forcing_rows_separate
  };
  // out = expm(M entry.tau) in, corrected to second order in tau - entry.tau; sizes as in
  // propagate_cached (0: those of in, at run time).
  template <int Lifted, int Columns>
  void propagate_by(const CachedTransition& entry, double tau, const Matrix& in, Matrix& out);

  int n_ = 0;
  int block_columns_ = 1;
  AffineMode mode_;
  Matrix generator_;  // M
  double scan_step_ = 0.0;
  double forcing_scale_ = 1.0;
  std::array<CachedTransition, 4> cache_;
  // Powers expm(M powers_tau_)^k, k = 1 .. powers_ready_, as far as asked for.
  double powers_tau_ = -1.0;
  int powers_ready_ = 0;
  std::array<Matrix, kMaxRepeatedSteps> powers_;
  int cache_next_ = 0;
  // Time steps seen lately but not cached: one that comes again is cached (the remainder
  // of a period recurs, interleaved with the arbitrary ones after events).
  std::array<double, 4> recent_misses_{-1.0, -1.0, -1.0, -1.0};
  int next_miss_ = 0;
  bool closed_form_ = false;
  double half_trace_ = 0.0, discriminant_ = 0.0;  // a, b^2 (signed: b^2 < 0 a complex pair)
  Matrix particular_;                              // Pi, n x 3
  Matrix transition_;                              // the last closed-form expm(M s)
  // expm(M tau) of a mode of a few states from A's eigen-decomposition (exponential()).
  EigenTransition eigen_;
  Expansion bracket_, scratch_;
  Matrix exp_scratch_, exp_result_, first_order_, second_order_;
  std::array<Matrix, 3> exp_work_;
};

}  // namespace libcont
