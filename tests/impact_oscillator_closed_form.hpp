#pragma once
// A closed-form reference for the linear impact oscillator on a moving base, independent of
// libcont's flow, integrators, event location and shooting:
//   m x'' + c x' + k x = k a sin(eta t),  base b(t) = a sin(eta t) + d,  gap h = x - b >= 0,
//   at an impact (h falls to 0): x+ = b(t), v_r+ = -r v_r-  (v_r = x' - b').
// Between impacts the motion is linear and time-invariant up to the forcing, so the flow is
// exact: x = (homogeneous solution) + Im(H e^{i eta t}), H = k a / (k - m eta^2 + i c eta).
// Periodic impacting orbits are then fixed points of an algebraic map in (impact phase,
// impact velocity), the construction of Shaw & Holmes, "A periodic forced piecewise linear
// oscillator" (1983), as reviewed for impact oscillators by Bishop, "Impact oscillators"
// (1994). Everything here is evaluated from those closed forms: the flight by its 2x2
// matrix exponential, impacts and gap minima as roots of the exact h(t) and h'(t) (fine
// scan plus Brent to rounding), monodromy matrices as products of exact flight matrices and
// the impact's saltation matrix. Sticking (the end of an r < 1 chattering sequence) is not
// modelled: only orbits with transversal impacts.
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "libcont/types.hpp"

namespace test_support {

// ---------------------------------------------------------------------------------------------
// Parameters (the model's names and defaults).
struct ImpactOscillatorParameters {
  double m = 1, k = 1, c = 0.23, a = 0.0025, d = 0, r = 1, eta = 4;

  double& operator[](std::string_view name) {
    if (name == "m") return m;
    if (name == "k") return k;
    if (name == "c") return c;
    if (name == "a") return a;
    if (name == "d") return d;
    if (name == "r") return r;
    if (name == "omega") return eta;
    throw std::invalid_argument("impact oscillator: no parameter '" + std::string(name) + "'");
  }
  double operator[](std::string_view name) const {
    return const_cast<ImpactOscillatorParameters&>(*this)[name];
  }
  ImpactOscillatorParameters with(std::string_view name, double value) const {
    ImpactOscillatorParameters p = *this;
    p[name] = value;
    return p;
  }
  double period() const { return 2.0 * std::numbers::pi / eta; }
};

inline void set_parameter(ImpactOscillatorParameters& p, std::string_view name, double value) {
  p[name] = value;
}

// ---------------------------------------------------------------------------------------------
// Scalar root finding: Brent's method (inverse quadratic interpolation safeguarded by
// bisection) on a bracket [lo, hi] with f(lo) f(hi) <= 0, to a bracket of a few ulps.
inline double brent_root(const std::function<double(double)>& f, double lo, double hi, double flo,
                         double fhi) {
  if (flo == 0.0) return lo;
  if (fhi == 0.0) return hi;
  if ((flo > 0) == (fhi > 0)) throw std::runtime_error("brent_root: not a bracket");
  const double eps = std::numeric_limits<double>::epsilon();
  double a = lo, b = hi, c = hi, fa = flo, fb = fhi, fc = fhi, d = b - a, e = d;
  for (int iter = 0; iter < 300; ++iter) {
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
      c = a;
      fc = fa;
      e = d = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const double tol1 = 2.0 * eps * std::abs(b) + 1e-300;
    const double xm = 0.5 * (c - b);
    if (std::abs(xm) <= tol1 || fb == 0.0) return b;
    if (std::abs(e) >= tol1 && std::abs(fa) > std::abs(fb)) {
      const double s = fb / fa;
      double p, q;
      if (a == c) {
        p = 2.0 * xm * s;
        q = 1.0 - s;
      } else {
        const double qq = fa / fc, rr = fb / fc;
        p = s * (2.0 * xm * qq * (qq - rr) - (b - a) * (rr - 1.0));
        q = (qq - 1.0) * (rr - 1.0) * (s - 1.0);
      }
      if (p > 0) q = -q;
      p = std::abs(p);
      const double min1 = 3.0 * xm * q - std::abs(tol1 * q), min2 = std::abs(e * q);
      if (2.0 * p < std::min(min1, min2)) {
        e = d;
        d = p / q;
      } else {
        d = xm;
        e = d;
      }
    } else {
      d = xm;
      e = d;
    }
    a = b;
    fa = fb;
    b += std::abs(d) > tol1 ? d : (xm > 0 ? tol1 : -tol1);
    fb = f(b);
  }
  return b;
}

inline double brent_root(const std::function<double(double)>& f, double lo, double hi) {
  return brent_root(f, lo, hi, f(lo), f(hi));
}

// Every sign change of f on [from, to] sampled at `samples` + 1 points, refined by Brent.
// Samples where f is not finite (e.g. a solution that does not exist there) break brackets.
// A sign change through a pole (det(M + I) ~ 1/v_r- as an impact grazes) is not a root:
// Brent converges to it with |f| growing, and it is dropped.
inline std::vector<double> scan_roots(const std::function<double(double)>& f, double from,
                                      double to, int samples) {
  std::vector<double> roots;
  double x0 = from, f0 = f(from);
  for (int i = 1; i <= samples; ++i) {
    const double x1 = from + (to - from) * i / samples;
    const double f1 = f(x1);
    if (std::isfinite(f0) && std::isfinite(f1) && ((f0 > 0 && f1 < 0) || (f0 < 0 && f1 > 0))) {
      const double root = brent_root(f, x0, x1, f0, f1);
      if (std::abs(f(root)) <= 1e-6 * std::max(std::abs(f0), std::abs(f1))) roots.push_back(root);
    } else if (f1 == 0.0 && f0 != 0.0) {
      roots.push_back(x1);
    }
    x0 = x1;
    f0 = f1;
  }
  return roots;
}

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using Multipliers = std::array<std::complex<double>, 2>;

// Eigenvalues of a real 2x2 matrix from its trace and determinant, by decreasing modulus.
inline Multipliers eigenvalues_2x2(const Mat2& M) {
  const double half_trace = 0.5 * M.trace(), det = M.determinant();
  const std::complex<double> root = std::sqrt(std::complex<double>(half_trace * half_trace - det));
  // The larger-modulus root first, the other as det / mu1 (no cancellation).
  std::complex<double> mu1 = half_trace >= 0 ? half_trace + root : half_trace - root;
  std::complex<double> mu2 = std::abs(mu1) > 0 ? det / mu1 : std::complex<double>(0.0);
  if (root.real() == 0.0 && root.imag() != 0.0) {  // complex pair: conjugates
    mu1 = std::complex<double>(half_trace, std::abs(root.imag()));
    mu2 = std::conj(mu1);
  }
  if (std::abs(mu2) > std::abs(mu1)) std::swap(mu1, mu2);
  return {mu1, mu2};
}

// ---------------------------------------------------------------------------------------------
// A periodic impacting orbit with one impact every n forcing periods (z = 1/n).
struct ImpactingOrbit {
  int n = 1;
  int branch = 0;              // which of the (at most two) roots of the phase equation
  double tau = 0.0;            // impact time, in [0, T)
  double impact_velocity = 0;  // v_r- (negative for an approaching impact)
  Vec2 pre_impact;             // (x, v) at tau, before the impact
  Vec2 post_impact;            // (x, v) at tau, after it
  // The smallest interior local minimum of h along the flight (+inf if it has none).
  double min_interior_gap = std::numeric_limits<double>::infinity();
  double time_of_min_gap = std::numeric_limits<double>::quiet_NaN();
  bool admissible = false;  // v_r- < 0 and h > 0 inside the flight
  Mat2 monodromy;           // over nT based just after the impact: S Phi(nT)
  Multipliers multipliers;  // its eigenvalues, by decreasing modulus
  double det_minus = 0.0;   // det(M - I): zero at a fold
  double det_plus = 0.0;    // det(M + I): zero at a period doubling
};

// Result of the closed-form stroboscopic map over n periods (impacts on the way).
struct ClosedFormMapResult {
  Vec2 x;
  int impacts = 0;
  double slowest_impact_speed = std::numeric_limits<double>::infinity();  // min |v_r-|
  double min_interior_gap = std::numeric_limits<double>::infinity();      // interior minima
  std::vector<double> impact_times;
  bool ok = true;
  std::string message;
};

// Scan of one free flight: its first impact (h reaching 0 from above) and gap minima.
struct FlightScan {
  double impact_time = std::numeric_limits<double>::infinity();  // +inf: none before the end
  double min_interior_gap = std::numeric_limits<double>::infinity();
  double time_of_min_gap = std::numeric_limits<double>::quiet_NaN();
};

// A special point along a one-parameter path.
struct ClosedFormSpecialPoint {
  std::string type;  // "grazing" (non-impacting orbit), "fold", "period-doubling",
                     // "impact-grazing" (v_r- -> 0), "interior-grazing" (flight minimum -> 0)
  double value = 0;  // parameter value
  double tau = std::numeric_limits<double>::quiet_NaN();  // impact phase there (not "grazing")
  int branch = -1;
  double residual = 0;      // the vanishing quantity evaluated at `value`
  double check = 0;         // fold: det(M - I) there (must vanish too); others: 0
  bool admissible = false;  // the solution there satisfies the remaining admissibility
                            // conditions (for "grazing": always true)
};

// ---------------------------------------------------------------------------------------------
class ImpactOscillatorClosedForm {
 public:
  explicit ImpactOscillatorClosedForm(const ImpactOscillatorParameters& p) : p_(p) {
    alpha_ = p.c / (2.0 * p.m);
    w0sq_ = p.k / p.m;
    beta_ = w0sq_ - alpha_ * alpha_;
    H_ = p.k * p.a / std::complex<double>(p.k - p.m * p.eta * p.eta, p.c * p.eta);
    period_ = p.period();
    // Scan step: a small fraction of the shortest time scale (forcing period, natural
    // period, damping time), so that h and h' change sign at most once per step.
    double scale = std::min(period_, 2.0 * std::numbers::pi / std::sqrt(w0sq_));
    if (alpha_ > 0) scale = std::min(scale, 2.0 * std::numbers::pi / alpha_);
    scan_step_ = scale / 256.0;
  }

  const ImpactOscillatorParameters& parameters() const { return p_; }
  double period() const { return period_; }
  std::complex<double> response() const { return H_; }  // H

  // --- base and forcing ----------------------------------------------------------------------
  double base(double t) const { return p_.a * std::sin(p_.eta * t) + p_.d; }
  double base_velocity(double t) const { return p_.a * p_.eta * std::cos(p_.eta * t); }
  double base_acceleration(double t) const {
    return -p_.a * p_.eta * p_.eta * std::sin(p_.eta * t);
  }
  double acceleration(double t, const Vec2& x) const {
    return (p_.k * p_.a * std::sin(p_.eta * t) - p_.c * x[1] - p_.k * x[0]) / p_.m;
  }
  double gap(double t, const Vec2& x) const { return x[0] - base(t); }
  double gap_rate(double t, const Vec2& x) const { return x[1] - base_velocity(t); }

  // --- exact free flight ---------------------------------------------------------------------
  // exp(A s), A = [[0, 1], [-k/m, -c/m]]: e^{-alpha s} [[C + alpha S, S], [-w0^2 S, C - alpha S]]
  // with C = cos(w_d s), S = sin(w_d s)/w_d, w_d^2 = beta = k/m - alpha^2 (cosh/sinh when
  // overdamped, 1 and s when critical; a series when beta s^2 is small, so c = 0 and the
  // critical case need nothing special).
  Mat2 transition(double s) const {
    double C, S;
    const double z = beta_ * s * s;
    if (std::abs(z) < 1e-2) {  // C = sum (-z)^j/(2j)!, S = s sum (-z)^j/(2j+1)!
      double termC = 1.0, termS = 1.0;
      C = 1.0;
      S = 1.0;
      for (int j = 1; j < 12; ++j) {
        termC *= -z / ((2.0 * j - 1.0) * (2.0 * j));
        termS *= -z / ((2.0 * j) * (2.0 * j + 1.0));
        C += termC;
        S += termS;
      }
      S *= s;
    } else if (beta_ > 0) {
      const double wd = std::sqrt(beta_);
      C = std::cos(wd * s);
      S = std::sin(wd * s) / wd;
    } else {
      const double g = std::sqrt(-beta_);
      C = std::cosh(g * s);
      S = std::sinh(g * s) / g;
    }
    const double e = std::exp(-alpha_ * s);
    Mat2 phi;
    phi << e * (C + alpha_ * S), e * S, -e * w0sq_ * S, e * (C - alpha_ * S);
    return phi;
  }

  // The non-impacting (steady) response (x_p, x_p') = (Im(H e^{i eta t}), eta Re(H e^{i eta t})).
  Vec2 steady(double t) const {
    const std::complex<double> z = H_ * std::exp(std::complex<double>(0.0, p_.eta * t));
    return Vec2(z.imag(), p_.eta * z.real());
  }

  // State at time t of the free flight through x0 at t0.
  Vec2 flight(double t0, const Vec2& x0, double t) const {
    return transition(t - t0) * (x0 - steady(t0)) + steady(t);
  }
  double flight_gap(double t0, const Vec2& x0, double t) const { return gap(t, flight(t0, x0, t)); }

  // --- the non-impacting orbit ---------------------------------------------------------------
  // Its gap is Im((H - a) e^{i eta t}) - d, so its smallest value is g0 = -|H - a| - d, reached
  // where eta t + arg(H - a) = -pi/2 (mod 2 pi). Admissible (never touches) iff g0 > 0.
  double nonimpacting_min_gap() const { return -std::abs(H_ - p_.a) - p_.d; }
  double nonimpacting_time_of_min_gap() const {
    const double t = (-0.5 * std::numbers::pi - std::arg(H_ - p_.a)) / p_.eta;
    return wrap(t, period_);
  }
  Vec2 nonimpacting_state(double t0) const { return steady(t0); }
  Mat2 nonimpacting_monodromy() const { return transition(period_); }

  // --- free-flight scan ----------------------------------------------------------------------
  // From x0 at t0 over at most `duration`: the first time h falls to 0 (the state at t0 is
  // taken as just after an impact when h(t0) = 0: a root there does not count) and the
  // smallest interior local minimum of h before it. Minima are zeros of h' going from - to +
  // on the scan grid, refined by Brent; a minimum whose gap is <= 0 brackets the impact.
  FlightScan scan_flight(double t0, const Vec2& x0, double duration, bool stop_at_impact) const {
    FlightScan out;
    const Vec2 y0 = x0 - steady(t0);
    const auto state = [&](double s) -> Vec2 { return transition(s) * y0 + steady(t0 + s); };
    const auto h = [&](double s) { return gap(t0 + s, state(s)); };
    const auto hdot = [&](double s) { return gap_rate(t0 + s, state(s)); };
    const int steps = std::max(8, static_cast<int>(std::ceil(duration / scan_step_)));
    const double ds = duration / steps;
    double s0 = 0.0, h0 = h(0.0), r0 = hdot(0.0);
    for (int i = 1; i <= steps; ++i) {
      const double s1 = i == steps ? duration : i * ds;
      const double h1 = h(s1), r1 = hdot(s1);
      double t_min = std::numeric_limits<double>::quiet_NaN(), h_min = 0.0;
      if (r0 < 0 && r1 >= 0) {  // an interior minimum in (s0, s1]
        t_min = r1 == 0.0 ? s1 : brent_root(hdot, s0, s1, r0, r1);
        h_min = h(t_min);
      }
      if (stop_at_impact) {
        const double h_left = (i == 1 && h0 <= 0.0) ? std::abs(h0) + 1e-300 : h0;  // start on base
        double hit_hi = std::numeric_limits<double>::quiet_NaN(), f_hi = 0;
        if (h_left > 0 && std::isfinite(t_min) && h_min <= 0.0 && t_min < s1) {
          hit_hi = t_min;
          f_hi = h_min;
        } else if (h_left > 0 && h1 <= 0.0) {
          hit_hi = s1;
          f_hi = h1;
        }
        if (std::isfinite(hit_hi)) {
          double lo = s0, f_lo = h0;
          if (i == 1 && h0 <= 0.0) {  // leave the base first: start from the grid's interior
            lo = 0.5 * (s0 + hit_hi);
            f_lo = h(lo);
            if (!(f_lo > 0)) {  // cannot leave: the flight goes straight back in
              out.impact_time = t0;
              return out;
            }
          }
          out.impact_time = t0 + brent_root(h, lo, hit_hi, f_lo, f_hi);
          return out;
        }
      }
      if (std::isfinite(t_min) && t_min < duration && h_min < out.min_interior_gap) {
        out.min_interior_gap = h_min;
        out.time_of_min_gap = t0 + t_min;
      }
      s0 = s1;
      h0 = h1;
      r0 = r1;
    }
    return out;
  }

  // --- the impact ------------------------------------------------------------------------------
  // Reset g(t, x) = (b(t), (1 + r) b'(t) - r v).
  Vec2 impact_reset(double t, const Vec2& x_minus) const {
    return Vec2(base(t), (1.0 + p_.r) * base_velocity(t) - p_.r * x_minus[1]);
  }
  // Saltation matrix S = D_x g + (f+ - D_x g f- - D_t g) D_x h / (D_x h f- + D_t h), with
  // D_x g = diag(0, -r), D_t g = (b', (1 + r) b''), D_x h = (1, 0), D_t h = -b':
  //   S = [[v_r+ / v_r-, 0], [(a+ + r a- - (1 + r) b'') / v_r-, -r]],  v_r+ / v_r- = -r,
  // so det S = r^2 (with det exp(A t) = e^{-c t / m}: det M = r^2 e^{-c nT / m}).
  Mat2 saltation(double t, const Vec2& x_minus) const {
    const Vec2 x_plus = impact_reset(t, x_minus);
    const double vr_minus = gap_rate(t, x_minus), vr_plus = gap_rate(t, x_plus);
    const double a_minus = acceleration(t, x_minus), a_plus = acceleration(t, x_plus);
    Mat2 S;
    S << vr_plus / vr_minus, 0.0,
        (a_plus + p_.r * a_minus - (1.0 + p_.r) * base_acceleration(t)) / vr_minus, -p_.r;
    return S;
  }

  // --- closed-form stroboscopic map ------------------------------------------------------------
  // From x0 at t0 to t0 + nT with impacts: each impact is the first root of the exact h(t)
  // of the current flight (scan_flight), followed by the reset.
  ClosedFormMapResult poincare_map(double t0, const Vec2& x0, int n,
                                   int max_impacts = 10000) const {
    ClosedFormMapResult out;
    const double t_end = t0 + n * period_;
    double t = t0;
    Vec2 x = x0;
    if (gap(t0, x0) < 0) {
      out.ok = false;
      out.message = "start below the base";
      out.x = x0;
      return out;
    }
    while (t < t_end) {
      const FlightScan scan = scan_flight(t, x, t_end - t, true);
      out.min_interior_gap = std::min(out.min_interior_gap, scan.min_interior_gap);
      if (!(scan.impact_time <= t_end)) {
        x = flight(t, x, t_end);
        t = t_end;
        break;
      }
      const double ti = scan.impact_time;
      if (ti == t && out.impacts > 0) {  // cannot leave the base: sticking, not modelled
        out.ok = false;
        out.message = "the body cannot leave the base (sticking is not modelled)";
        break;
      }
      const Vec2 x_minus = flight(t, x, ti);
      out.slowest_impact_speed =
          std::min(out.slowest_impact_speed, std::abs(gap_rate(ti, x_minus)));
      out.impact_times.push_back(ti);
      x = impact_reset(ti, x_minus);
      t = ti;
      if (++out.impacts > max_impacts) {
        out.ok = false;
        out.message = "too many impacts (chattering into sticking is not modelled)";
        break;
      }
    }
    out.x = x;
    return out;
  }

  // --- z = 1/n impacting orbits ----------------------------------------------------------------
  // With y = x - x_p (x_p the steady response, T-periodic) the flight over nT is y -> E y,
  // E = exp(A nT). At the impact u = b(tau) - x_p(tau), q = b'(tau) - x_p'(tau) and
  // w- = v- - x_p'(tau), w+ = (1 + r) q - r w-. Periodicity, E (u, w+) = (u, w-), is linear in
  // w-: r E01 w- = (E00 - 1) u + (1 + r) E01 q and (1 + r E11) w- = E10 u + (1 + r) E11 q.
  // Eliminating w- leaves F(tau) = K1 u + K2 q = 0 with K1 = (E00 - 1)(1 + r E11) - r E01 E10,
  // K2 = (1 + r) E01. As u = Im((a - H) e^{i eta tau}) + d and q = eta Re((a - H) e^{i eta tau}),
  //   F(tau) = K1 d + Im(Z e^{i eta tau}),  Z = (a - H)(K1 + i eta K2),
  // a sinusoid: sin(eta tau + arg Z) = s = -K1 d / |Z|, two roots (branches 0: asin s,
  // 1: pi - asin s) for |s| < 1, none for |s| > 1; they meet at |s| = 1 (a fold). So all
  // roots in [0, T) come from the arcsine, to rounding, with no scan (a fine scan of F finds
  // no other sign change: checked in the test).
  struct PhaseEquation {
    double K1, K2, d;
    std::complex<double> Z;
    double s() const { return -K1 * d / std::abs(Z); }
    // |Z| - |K1 d|: positive when the two solutions exist, zero at their fold.
    double existence() const { return std::abs(Z) - std::abs(K1 * d); }
  };
  PhaseEquation phase_equation(int n) const {
    const Mat2 E = transition(n * period_);
    PhaseEquation eq;
    eq.K1 = (E(0, 0) - 1.0) * (1.0 + p_.r * E(1, 1)) - p_.r * E(0, 1) * E(1, 0);
    eq.K2 = (1.0 + p_.r) * E(0, 1);
    eq.Z = (p_.a - H_) * std::complex<double>(eq.K1, p_.eta * eq.K2);
    eq.d = p_.d;
    return eq;
  }
  // The scalar equation itself (for checking the roots).
  double phase_function(int n, double tau) const {
    const PhaseEquation eq = phase_equation(n);
    const double u = base(tau) - steady(tau)[0], q = base_velocity(tau) - steady(tau)[1];
    return eq.K1 * u + eq.K2 * q;
  }

  // The solution on one branch (false if it does not exist), admissible or not. Without
  // `scan_gaps` its flight is not scanned for gap minima (min_interior_gap stays +inf and
  // `admissible` says only v_r- < 0): the multipliers need no scan, and it is most of the
  // cost.
  bool impacting_orbit(int n, int branch, ImpactingOrbit& orbit, bool scan_gaps = true) const {
    const PhaseEquation eq = phase_equation(n);
    if (!(std::abs(eq.Z) > 0)) return false;  // degenerate: F constant
    const double s = eq.s();
    if (!(std::abs(s) <= 1.0)) return false;
    const double theta = branch == 0 ? std::asin(s) : std::numbers::pi - std::asin(s);
    const double tau = wrap((theta - std::arg(eq.Z)) / p_.eta, period_);
    return orbit_from_phase(n, branch, tau, orbit, scan_gaps);
  }

  // All solutions in [0, T) (admissible ones only unless asked).
  std::vector<ImpactingOrbit> impacting_orbits(int n, bool admissible_only = true) const {
    std::vector<ImpactingOrbit> out;
    for (int branch = 0; branch < 2; ++branch) {
      ImpactingOrbit orbit;
      if (!impacting_orbit(n, branch, orbit)) continue;
      if (branch == 1 && !out.empty() && out.front().branch == 0 &&
          std::abs(out.front().tau - orbit.tau) == 0.0)
        continue;  // a double root (exactly at a fold): one solution
      if (!admissible_only || orbit.admissible) out.push_back(orbit);
    }
    return out;
  }

  // Builds the orbit whose impact is at tau (tau a root of F).
  bool orbit_from_phase(int n, int branch, double tau, ImpactingOrbit& orbit,
                        bool scan_gaps = true) const {
    const Mat2 E = transition(n * period_);
    const double r = p_.r;
    const Vec2 xp = steady(tau);
    const double u = base(tau) - xp[0], q = base_velocity(tau) - xp[1];
    // Least squares over the two (consistent) equations in w-.
    const double a1 = r * E(0, 1), b1 = (E(0, 0) - 1.0) * u + (1.0 + r) * E(0, 1) * q;
    const double a2 = 1.0 + r * E(1, 1), b2 = E(1, 0) * u + (1.0 + r) * E(1, 1) * q;
    const double norm = a1 * a1 + a2 * a2;
    if (!(norm > 0)) return false;
    const double w_minus = (a1 * b1 + a2 * b2) / norm;
    orbit.n = n;
    orbit.branch = branch;
    orbit.tau = tau;
    orbit.pre_impact = Vec2(base(tau), w_minus + xp[1]);
    orbit.post_impact = impact_reset(tau, orbit.pre_impact);
    orbit.impact_velocity = gap_rate(tau, orbit.pre_impact);
    if (scan_gaps) {
      const FlightScan scan = scan_flight(tau, orbit.post_impact, n * period_, false);
      orbit.min_interior_gap = scan.min_interior_gap;
      orbit.time_of_min_gap = scan.time_of_min_gap;
    }
    orbit.admissible = orbit.impact_velocity < 0 && orbit.min_interior_gap > 0;
    orbit.monodromy = saltation(tau, orbit.pre_impact) * E;
    orbit.multipliers = eigenvalues_2x2(orbit.monodromy);
    orbit.det_minus = (orbit.monodromy - Mat2::Identity()).determinant();
    orbit.det_plus = (orbit.monodromy + Mat2::Identity()).determinant();
    return true;
  }

  // The orbit's state at time t (modulo nT from its impacts at tau + j nT); exactly at an
  // impact, the post-impact state.
  Vec2 orbit_state(const ImpactingOrbit& orbit, double t) const {
    const double sigma = wrap(t - orbit.tau, orbit.n * period_);
    return transition(sigma) * (orbit.post_impact - steady(orbit.tau)) + steady(orbit.tau + sigma);
  }
  // The n section times t = t0 (mod T) in the flight (tau, tau + nT], in order, and the
  // orbit's states there: the points of the orbit on the section t = t0 (mod T). A point of
  // the orbit at absolute time t0 + jT is one of these (the n orbits shifted by multiples
  // of T are the same solution of the phase equation).
  std::vector<double> section_times(const ImpactingOrbit& orbit, double t0) const {
    double first = orbit.tau + wrap(t0 - orbit.tau, period_);
    if (first == orbit.tau) first += period_;
    std::vector<double> times;
    for (int j = 0; j < orbit.n; ++j) times.push_back(first + j * period_);
    return times;
  }
  std::vector<Vec2> section_states(const ImpactingOrbit& orbit, double t0) const {
    std::vector<Vec2> states;
    for (double t : section_times(orbit, t0)) states.push_back(orbit_state(orbit, t));
    return states;
  }
  // D P^n of the orbit at base time t: Phi(sigma) S Phi(nT - sigma), sigma = time since the
  // last impact (similar to S Phi(nT) = orbit.monodromy: the same multipliers).
  Mat2 monodromy_at(const ImpactingOrbit& orbit, double t) const {
    const double nT = orbit.n * period_;
    const double sigma = wrap(t - orbit.tau, nT);
    return transition(sigma) * saltation(orbit.tau, orbit.pre_impact) * transition(nT - sigma);
  }

  static double wrap(double t, double period) {
    double w = std::fmod(t, period);
    if (w < 0) w += period;
    if (w >= period) w = 0.0;
    return w;
  }

 private:
  ImpactOscillatorParameters p_;
  double alpha_, w0sq_, beta_, period_, scan_step_;
  std::complex<double> H_;
};

// ---------------------------------------------------------------------------------------------
// Grazing of the non-impacting orbit along `name` in [from, to]: the roots of
// g0(p) = -|H - a| - d (Brent to rounding). admissible_side: +1 if g0 > 0 (the orbit does
// not touch the base) above the root, -1 below.
struct NonimpactingGrazing {
  double value = 0;
  int admissible_side = 0;
};

inline std::vector<NonimpactingGrazing> nonimpacting_grazing(const ImpactOscillatorParameters& base,
                                                             const std::string& name, double from,
                                                             double to, int samples = 2000) {
  const auto g0 = [&](double v) {
    return ImpactOscillatorClosedForm(base.with(name, v)).nonimpacting_min_gap();
  };
  std::vector<NonimpactingGrazing> out;
  for (double v : scan_roots(g0, from, to, samples)) {
    const double dv = 1e-6 * std::max(std::abs(to - from), 1e-300);
    out.push_back({v, g0(v + dv) > g0(v - dv) ? +1 : -1});
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The one-parameter fold or period doubling of the z = 1/n family along `name` nearest to
// `guess`, within guess +- window (other parameters as in `base`): the sign changes of the
// existence function |Z| - |K1 d| (fold) or of det(M + I) on either branch of the phase
// equation (period doubling) on `samples` + 1 values, refined by Brent to rounding; NaN if
// there is none. For checking two-parameter curves: at a point (p1, p2) of a fold curve
// the fold in p1 at fixed p2 is p1.
inline double one_parameter_point_near(const ImpactOscillatorParameters& base,
                                       const std::string& name, int n, bool fold, double guess,
                                       double window, int samples = 200) {
  const auto model = [&](double v) { return ImpactOscillatorClosedForm(base.with(name, v)); };
  double nearest = std::numeric_limits<double>::quiet_NaN();
  // Windows shrinking by 10 around the guess: next to a grazing the root lies close to the
  // pole of det(M + I) (v_r- -> 0), which a coarse scan cannot tell apart from it.
  for (double w = window; w >= 1e-6 * window; w *= 0.1) {
    std::vector<double> roots;
    if (fold) {
      roots = scan_roots([&](double v) { return model(v).phase_equation(n).existence(); },
                         guess - w, guess + w, samples);
    } else {
      for (int branch = 0; branch < 2; ++branch) {
        const auto det_plus = [&](double v) {
          ImpactingOrbit orbit;
          return model(v).impacting_orbit(n, branch, orbit, false)
                     ? orbit.det_plus
                     : std::numeric_limits<double>::quiet_NaN();
        };
        for (double v : scan_roots(det_plus, guess - w, guess + w, samples)) roots.push_back(v);
      }
    }
    for (double v : roots)
      if (!(std::abs(v - guess) >= std::abs(nearest - guess))) nearest = v;
  }
  return nearest;
}

// ---------------------------------------------------------------------------------------------
// Special points of the z = 1/n family along `name` from `from` to `to` (others fixed),
// from the closed form only. The two branches of the phase equation are continuous in the
// parameter while they exist (tau follows arcsin and arg Z continuously), so the family is
// traced on `samples` + 1 parameter values branch by branch and every sign change of
//   existence |Z| - |K1 d|      -> fold (both branches merge; det(M - I) = 0 there),
//   det(M + I)                  -> period doubling,
//   v_r-                        -> grazing of the impact (for n = 1 the grazing of the
//                                  non-impacting orbit, at the same parameter value),
//   smallest interior gap minimum -> interior grazing
// is refined by Brent in the parameter. Each point carries whether the rest of the
// admissibility conditions hold there; the non-impacting orbit's grazing is listed too.
inline std::vector<ClosedFormSpecialPoint> special_points(const ImpactOscillatorParameters& base,
                                                          const std::string& name, double from,
                                                          double to, int n, int samples = 2000) {
  std::vector<ClosedFormSpecialPoint> out;
  for (const auto& g : nonimpacting_grazing(base, name, from, to, samples)) {
    ClosedFormSpecialPoint sp;
    sp.type = "grazing";
    sp.value = g.value;
    sp.residual = ImpactOscillatorClosedForm(base.with(name, g.value)).nonimpacting_min_gap();
    sp.admissible = true;
    out.push_back(sp);
  }
  const auto model = [&](double v) { return ImpactOscillatorClosedForm(base.with(name, v)); };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Folds: the existence function of the phase equation.
  const auto existence = [&](double v) { return model(v).phase_equation(n).existence(); };
  for (double v : scan_roots(existence, from, to, samples)) {
    // The merged root: sin(eta tau + arg Z) = s = +-1 exactly (the closed form's double root;
    // either branch at v is within sqrt(rounding) of it).
    const auto cf = model(v);
    const auto eq = cf.phase_equation(n);
    const double theta = (eq.s() > 0 ? 0.5 : -0.5) * std::numbers::pi;
    const double tau = ImpactOscillatorClosedForm::wrap(
        (theta - std::arg(eq.Z)) / cf.parameters().eta, cf.period());
    ImpactingOrbit orbit;
    cf.orbit_from_phase(n, 0, tau, orbit);
    ClosedFormSpecialPoint sp;
    sp.type = "fold";
    sp.value = v;
    sp.residual = existence(v);
    sp.tau = tau;
    sp.branch = 0;
    sp.check = orbit.det_minus;
    sp.admissible = orbit.admissible;
    out.push_back(sp);
  }
  for (int branch = 0; branch < 2; ++branch) {
    const auto quantity = [&](double v, int which) {
      ImpactingOrbit orbit;
      if (!model(v).impacting_orbit(n, branch, orbit)) return nan;
      switch (which) {
        case 0:
          return orbit.det_plus;
        case 1:
          return orbit.impact_velocity;
        default:
          return orbit.min_interior_gap;
      }
    };
    const char* types[] = {"period-doubling", "impact-grazing", "interior-grazing"};
    for (int which = 0; which < 3; ++which) {
      const auto f = [&](double v) { return quantity(v, which); };
      for (double v : scan_roots(f, from, to, samples)) {
        ImpactingOrbit orbit;
        if (!model(v).impacting_orbit(n, branch, orbit)) continue;
        ClosedFormSpecialPoint sp;
        sp.type = types[which];
        sp.value = v;
        sp.tau = orbit.tau;
        sp.branch = branch;
        sp.residual = f(v);
        if (which == 0) sp.admissible = orbit.admissible;
        if (which == 2) sp.admissible = orbit.impact_velocity < 0;
        if (which == 1) {
          // At v_r- = 0 exactly the flight starts and ends tangent to the base, and rounding
          // decides whether a minimum next to the impact is seen: judge the interior just on
          // the approaching side (v_r- < 0) instead.
          const double dv = 1e-7 * std::abs(to - from);
          ImpactingOrbit near;
          for (double side : {-1.0, 1.0})
            if (model(v + side * dv).impacting_orbit(n, branch, near) && near.impact_velocity < 0)
              sp.admissible = near.min_interior_gap > 0;
        }
        out.push_back(sp);
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ClosedFormSpecialPoint& x, const ClosedFormSpecialPoint& y) {
              return x.value < y.value;
            });
  return out;
}

}  // namespace test_support
