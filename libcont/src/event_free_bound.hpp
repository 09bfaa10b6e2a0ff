#pragma once
// A time within which no event function of an affine mode can change sign, so that the
// exact path (exact_segment.cpp) may cross whole scan steps without looking at the events
// (doc/theory.md, 1; doc/performance.md, benchmark 1).
//
// In an affine mode x' = A x + G q, q = (s, s cos w t, s sin w t) (the lifted forcing of
// exact_linear_flow.hpp), an event declared affine is h = c_x . x + c_q . q. With the
// periodic particular solution x_p = Pi q (Pi W - A Pi = G, W q = q') and the deviation
// y = x - Pi q, which obeys y' = A y,
//   h = c_x . y + k . q,   k = Pi^T c_x + c_q,
//   h'' = c_x . A^2 y + k . W^2 q.
// Where A = T D T^-1 with D real block-diagonal (eigenvalues a, or blocks [[a, b], [-b, a]]
// of complex pairs), u = T^-1 y obeys |u(t + s)| <= e^{alpha s} |u(t)|, alpha the largest
// real part, so over 0 <= s <= S
//   |h''| <= B = |(D^2)^T e| |u(t)| e^{max(alpha, 0) S} + w^2 s |(k_cos, k_sin)|, e = T^T c_x,
// and |h(t + s)| >= |h(t)| + sign(h) h'(t) s - B s^2 / 2: h keeps its sign at least until
// the positive root of that parabola. Modes without such a decomposition (A defective or
// ill-conditioned, A in resonance with w, large n) get no bound (clear time 0): the scan
// then looks at every step, as before.
#include <algorithm>
#include <cmath>
#include <vector>

#include "libcont/eigen_transition.hpp"
#include "libcont/types.hpp"
#include "machine_epsilon.hpp"

namespace libcont::detail {

// The periodic particular solution's matrix Pi (n x 3) of the lifted generator M (n + 3
// square): Pi W - A Pi = G. False where it does not exist or is ill-conditioned (A with an
// eigenvalue 0 or +-iw, or near one).
bool periodic_particular_solution(const Matrix& generator, int n, Matrix& particular);

class EventFreeBound {
 public:
  // generator: the lifted M of the mode (n + 3 square); coefficients: the events' lifted
  // coefficient columns (h = c . z); forcing_scale: s. Returns whether a bound exists.
  // Called again with the same data it keeps what it has (a mode is prepared at every
  // segment start).
  bool prepare(const Matrix& generator, int n, double forcing_scale, const Matrix& coefficients,
               int events);
  bool available() const { return available_; }
  // Pi of the last preparation that got that far.
  const Matrix& particular() const { return particular_; }

  // The time from the lifted state z (its first column) within which none of the events
  // changes sign, at most `horizon`; values and rates: the events' h and h' at z.
  double clear_time(const Matrix& z, const double* values, const double* rates,
                    double horizon) const;
  // clear_time for a mode of two states (available() and n = 2) from the lifted state's
  // five numbers: inline, so that the two-state scan (exact_segment.cpp) keeps its state
  // and references in locals across it.
  double clear_time_two_states(const double* z, const double* values, const double* rates,
                               double horizon) const {
    return clear_time_sized<2>(z, values, rates, horizon);
  }

 private:
  // Pi into particular_: from the eigen-decomposition of A where it serves (kept while A
  // is unchanged: along a loading curve only the forcing changes, and Pi then costs two
  // products with V and V^-1), else from the Sylvester equation.
  bool find_particular(const Matrix& generator, int n);
  // Larger modes pay more for the decomposition than skipped scan steps save, and their
  // eigenvector matrices are more often ill-conditioned.
  static constexpr int kLargestDimension = 16;

  // clear_time for n = N (0: n_ at run time) from the lifted state's numbers.
  template <int N>
  double clear_time_sized(const double* state, const double* values, const double* rates,
                          double horizon) const;

  bool available_ = false;
  int n_ = 0;
  Matrix generator_;  // the data of the last preparation
  double forcing_scale_ = 0.0;
  double alpha_ = 0.0;
  Matrix particular_;           // Pi, n x 3
  Matrix decomposed_;           // the A that eigen_ holds the decomposition of
  EigenTransition eigen_;
  Matrix to_modal_;             // T^-1
  Matrix coefficients_;         // c, (n + 3) x events
  std::vector<double> curvature_;  // |(D^2)^T e| per event
  std::vector<double> harmonic_;   // w^2 s |(k_cos, k_sin)| per event
};

template <int N>
inline double EventFreeBound::clear_time_sized(const double* state, const double* values,
                                               const double* rates, double horizon) const {
  // Plain loops over the small sizes (n <= 16): this runs at every scan step that looks at
  // the events.
  const double* pi = particular_.data();
  const int n = N > 0 ? N : n_;
  double deviation[N > 0 ? N : kLargestDimension];
  for (int i = 0; i < n; ++i)
    deviation[i] = state[i] - (pi[i] * state[n] + pi[n + i] * state[n + 1] +
                               pi[2 * n + i] * state[n + 2]);
  const double* modal = to_modal_.data();
  double size2 = 0.0;
  for (int i = 0; i < n; ++i) {
    double u = 0.0;
    for (int j = 0; j < n; ++j) u += modal[j * n + i] * deviation[j];
    size2 += u * u;
  }
  const double growth = alpha_ > 0.0 ? std::exp(alpha_ * horizon) : 1.0;
  const double size = std::sqrt(size2) * growth;
  const int lifted = n + 3;
  double clear = horizon;
  for (size_t j = 0; j < curvature_.size(); ++j) {
    // Distance from the surface less what rounding in h could hide.
    const double* c = coefficients_.data() + j * static_cast<size_t>(lifted);
    double terms = 0.0;
    for (int i = 0; i < lifted; ++i) terms += std::abs(c[i] * state[i]);
    const double distance = std::abs(values[j]) - 64.0 * kEpsilon * terms;
    if (!(distance > 0.0)) return 0.0;
    const double away = values[j] > 0.0 ? rates[j] : -rates[j];
    // Curvature bound, widened by a rounding margin of its own.
    const double B = (curvature_[j] * size + harmonic_[j]) * (1.0 + 1e-9);
    // The positive root of distance + away s - B s^2 / 2, in the form without cancellation.
    const double root = std::sqrt(away * away + 2.0 * B * distance);
    double s = horizon;
    if (away < 0.0)
      s = 2.0 * distance / (root - away);
    else if (B > 0.0)
      s = (away + root) / B;
    if (!std::isfinite(s)) return 0.0;
    clear = std::min(clear, s);
  }
  return clear;
}

}  // namespace libcont::detail
