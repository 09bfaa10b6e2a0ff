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
#include <vector>

#include "libcont/eigen_transition.hpp"
#include "libcont/types.hpp"

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

 private:
  // Pi into particular_: from the eigen-decomposition of A where it serves (kept while A
  // is unchanged: along a loading curve only the forcing changes, and Pi then costs two
  // products with V and V^-1), else from the Sylvester equation.
  bool find_particular(const Matrix& generator, int n);
  // clear_time for n = N (0: n_ at run time).
  template <int N>
  double clear_time_sized(const Matrix& z, const double* values, const double* rates,
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
  mutable Vector deviation_;
};

}  // namespace libcont::detail
