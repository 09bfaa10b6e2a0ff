// Benchmark 3: cost per forcing period of the piecewise-linear impact oscillator (the hard
// moving-base oscillator, eta = 4, r = 1, z = 1/2) against its exact-flow limit.
//
// Rows, each one forcing period per call with the tangent on and a QR step after it (as
// the Lyapunov spectrum does), after a transient:
//   libcont/general  Flow on CVODE (FlowOptions::exact_linear_modes = false)
//   libcont/exact    Flow on its exact path for affine modes (the default)
//   limit            an independent exact flow written here for this one model: closed
//                    2 x 2 exponentials, the particular solution in closed form, the scan
//                    step and impacts by a safeguarded Newton iteration on the gap
// then the ratios, an accuracy check (states and tangents after the timed periods), and a
// Lyapunov spectrum at eta = 4 (1000 transient + 1000 averaged periods) on both paths.
// Not a test: it prints, asserts nothing.
//
//   cmake --build build --target bench_exact_flow && build/bench_exact_flow
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "libcont/flow.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "systems/moving_base.hpp"
#include "cpu_clock.hpp"

namespace {

struct Timing {
  double wall_us = INFINITY, cpu_us = INFINITY;  // per period, best of the repeats
  double events = 0.0;                           // per period
  double x = 0.0, v = 0.0;                       // state after the timed periods
  double phi[4] = {0, 0, 0, 0};                  // tangent (orthonormalised) after them
  double log_stretch = 0.0;                      // sum of log |R_ii| over the periods
};

// ---------------------------------------------------------------------------------------
// The exact-flow limit for m x'' + c x' + k x = k a sin(w t), impacts on the base
// b = a sin(w t) (d = 0) with v+ = -r v- + (1 + r) b'. Deviation y = x - x_p from the
// periodic particular solution x_p = P cos + Q sin obeys y' = A y, whose exponential is
// e^{-mu s} (cos(nu s) I + sin(nu s)/nu (A + mu I)) for the underdamped A.
class ImpactOscillatorLimit {
 public:
  ImpactOscillatorLimit(double m, double k, double c, double a, double w, double r)
      : a_(a),
        w_(w),
        r_(r),
        a10_(-k / m),
        a11_(-c / m),
        mu_(c / (2 * m)),
        nu_(std::sqrt(k / m - mu_ * mu_)) {
    const double det = (k - m * w * w) * (k - m * w * w) + c * c * w * w;
    P_ = -c * w * k * a / det;
    Q_ = (k - m * w * w) * k * a / det;
    step_ = 0.5 / std::max(w, std::sqrt(k / m));  // same rule as libcont's scan step
    exponential(step_, E_step_);
    cos_step_ = std::cos(w * step_);
    sin_step_ = std::sin(w * step_);
  }

  // One period from t to t + T of (x, v) with tangent phi (column-major 2 x 2).
  void advance(double& t, double& x, double& v, double* phi, double t_end, long& events) {
    while (t < t_end) {
      double tau = 0.0, ca = std::cos(w_ * t), sa = std::sin(w_ * t);
      double y0 = x - (P_ * ca + Q_ * sa), y1 = v - w_ * (Q_ * ca - P_ * sa);
      const double t_start = t;
      double g = gap(y0, ca, sa), rate = gap_rate(y1, ca, sa);
      if (std::abs(g) <= 1e-11 && rate > 0) g = 1e-300;  // just reset onto the base
      double hit = -1.0;
      double y0s = y0, y1s = y1, cas = ca, sas = sa;  // scan point
      while (hit < 0.0) {
        const bool last = t_end - (t_start + tau) <= step_;
        const double s = last ? t_end - (t_start + tau) : step_;
        double n0, n1, cn, sn;
        if (last) {
          double E[4];
          exponential(s, E);
          n0 = E[0] * y0s + E[2] * y1s;
          n1 = E[1] * y0s + E[3] * y1s;
          cn = std::cos(w_ * t_end);
          sn = std::sin(w_ * t_end);
        } else {
          n0 = E_step_[0] * y0s + E_step_[2] * y1s;
          n1 = E_step_[1] * y0s + E_step_[3] * y1s;
          cn = cas * cos_step_ - sas * sin_step_;
          sn = sas * cos_step_ + cas * sin_step_;
        }
        const double gn = gap(n0, cn, sn), rn = gap_rate(n1, cn, sn);
        const double t_scan = t_start + tau;
        if (g > 0.0 && gn < 0.0) {
          hit = solve(t_scan, y0s, y1s, 0.0, s);
        } else if (g > 0.0 && rate < 0.0 && rn > 0.0) {
          // A turning point towards the base in between: its minimum, by Newton on the
          // rate (its derivative is the relative acceleration), then a dip below zero?
          double lo = 0.0, hi = s, u = 0.5 * s;
          for (int i = 0; i < 60 && hi - lo > 1e-15 * (1 + t_scan); ++i) {
            double p0, p1;
            at(y0s, y1s, u, p0, p1);
            const double ru = gap_rate_at(t_scan + u, p1);
            (ru < 0.0 ? lo : hi) = u;
            const double acc = relative_acceleration(t_scan + u, p0, p1);
            u = acc > 0.0 ? u - ru / acc : 0.5 * (lo + hi);
            if (!(u > lo && u < hi)) u = 0.5 * (lo + hi);
          }
          double p0, p1;
          at(y0s, y1s, lo, p0, p1);
          const double gmin =
              p0 + (P_ * std::cos(w_ * (t_scan + lo)) + Q_ * std::sin(w_ * (t_scan + lo))) -
              a_ * std::sin(w_ * (t_scan + lo));
          if (gmin < 0.0) hit = solve(t_scan, y0s, y1s, 0.0, lo);
        }
        if (hit >= 0.0) {
          hit += tau;
          break;
        }
        tau += s;
        y0s = n0, y1s = n1, cas = cn, sas = sn, g = gn, rate = rn;
        if (last) break;
      }
      const double span = hit >= 0.0 ? hit : t_end - t_start;
      // State and tangent at the segment end, from the segment start in one exponential.
      double E[4];
      exponential(span, E);
      const double te = hit >= 0.0 ? t_start + hit : t_end;
      const double ce = std::cos(w_ * te), se = std::sin(w_ * te);
      const double e0 = E[0] * y0 + E[2] * y1, e1 = E[1] * y0 + E[3] * y1;
      x = e0 + P_ * ce + Q_ * se;
      v = e1 + w_ * (Q_ * ce - P_ * se);
      multiply(E, phi);
      t = te;
      if (hit < 0.0) return;
      // Impact: x+ = b, v+ = -r v- + (1 + r) b'; saltation S = D_x g + (f+ - D_x g f- -
      // D_t g) (1, 0) / (v- - b').
      const double b = a_ * se, bv = a_ * w_ * ce, ba = -a_ * w_ * w_ * se;
      const double f1_minus = a10_ * x + a11_ * v + (-a10_) * a_ * se;  // k a sin / m
      const double v_plus = -r_ * v + (1 + r_) * bv;
      const double f1_plus = a10_ * b + a11_ * v_plus + (-a10_) * a_ * se;
      const double jump0 = v_plus - 0.0 * v - bv;
      const double jump1 = f1_plus - (-r_) * f1_minus - (1 + r_) * ba;
      const double denom = v - bv;
      const double S[4] = {jump0 / denom, -r_ * 0.0 + jump1 / denom, 0.0, -r_};
      multiply(S, phi);
      x = b;
      v = v_plus;
      ++events;
    }
  }

 private:
  double gap(double y0, double ca, double sa) const { return y0 + P_ * ca + Q_ * sa - a_ * sa; }
  double gap_rate(double y1, double ca, double sa) const {
    return y1 + w_ * (Q_ * ca - P_ * sa) - a_ * w_ * ca;
  }
  double gap_rate_at(double t, double y1) const {
    return gap_rate(y1, std::cos(w_ * t), std::sin(w_ * t));
  }
  double relative_acceleration(double t, double y0, double y1) const {
    // y'' = A y for the deviation; the particular solution and base are harmonic.
    const double ca = std::cos(w_ * t), sa = std::sin(w_ * t);
    return a10_ * y0 + a11_ * y1 - w_ * w_ * (P_ * ca + Q_ * sa) + a_ * w_ * w_ * sa;
  }
  void exponential(double s, double* E) const {
    const double e = std::exp(-mu_ * s), cs = std::cos(nu_ * s), sn = std::sin(nu_ * s) / nu_;
    E[0] = e * (cs + sn * mu_);  // column-major: (0,0), (1,0), (0,1), (1,1)
    E[1] = e * sn * a10_;
    E[2] = e * sn;
    E[3] = e * (cs + sn * (a11_ + mu_));
  }
  // The deviation s after a point where it is (y0, y1).
  void at(double y0, double y1, double s, double& p0, double& p1) const {
    double E[4];
    exponential(s, E);
    p0 = E[0] * y0 + E[2] * y1;
    p1 = E[1] * y0 + E[3] * y1;
  }
  static void multiply(const double* L, double* phi) {  // phi <- L phi, 2 x 2 column-major
    const double p0 = L[0] * phi[0] + L[2] * phi[1], p1 = L[1] * phi[0] + L[3] * phi[1];
    const double q0 = L[0] * phi[2] + L[2] * phi[3], q1 = L[1] * phi[2] + L[3] * phi[3];
    phi[0] = p0, phi[1] = p1, phi[2] = q0, phi[3] = q1;
  }
  // The impact time in (lo, hi] after the scan point t0 (deviation y there), by Newton on
  // the gap with its rate, kept inside a bracket; ends on the far (crossed) side.
  double solve(double t0, double y0, double y1, double lo, double hi) const {
    double u = hi;
    for (int i = 0; i < 100 && hi - lo > 4e-16 * (std::abs(t0) + hi); ++i) {
      double p0, p1;
      at(y0, y1, u, p0, p1);
      const double ca = std::cos(w_ * (t0 + u)), sa = std::sin(w_ * (t0 + u));
      const double g = gap(p0, ca, sa), r = gap_rate(p1, ca, sa);
      (g < 0.0 ? hi : lo) = u;
      double next = r != 0.0 ? u - g / r : 0.5 * (lo + hi);
      if (!(next > lo && next < hi) || i % 4 == 3) next = 0.5 * (lo + hi);
      const double margin = 1e-16 * (std::abs(t0) + hi);
      u = std::min(std::max(next, lo + margin), hi - margin);
    }
    return hi;
  }

  double a_, w_, r_, a10_, a11_, mu_, nu_, P_ = 0, Q_ = 0, step_;
  double E_step_[4], cos_step_, sin_step_;
};

void orthonormalise(double* phi, double& log_stretch) {  // Gram-Schmidt on the columns
  const double n0 = std::hypot(phi[0], phi[1]);
  phi[0] /= n0, phi[1] /= n0;
  const double d = phi[0] * phi[2] + phi[1] * phi[3];
  phi[2] -= d * phi[0], phi[3] -= d * phi[1];
  const double n1 = std::hypot(phi[2], phi[3]);
  phi[2] /= n1, phi[3] /= n1;
  log_stretch += std::log(n0) + std::log(n1);
}

systems::MovingBaseOscillator oscillator(double eta) {
  systems::MovingBaseOscillator system;
  system.set_parameter("omega", eta);
  system.set_parameter("r", 1.0);
  return system;
}

Timing run_libcont(bool exact, const libcont::FlowState& start, int periods, int repeats,
                   const systems::MovingBaseOscillator& system) {
  Timing timing;
  libcont::FlowOptions options;
  options.tangent = true;
  options.exact_linear_modes = exact;
  const double period = system.forcing_period();
  for (int repeat = 0; repeat < repeats; ++repeat) {
    libcont::Flow flow(system, options);
    libcont::FlowState state = start;
    state.tangent = libcont::Matrix::Identity(2, 2);
    long events = 0;
    double log_stretch = 0.0;
    const auto wall = std::chrono::steady_clock::now();
    const double cpu = cpu_seconds();
    for (int k = 1; k <= periods; ++k) {
      const auto report = flow.advance(state, start.t + k * period);
      if (!report.ok()) {
        std::printf("libcont %s failed: %s\n", exact ? "exact" : "general", report.message.c_str());
        std::exit(1);
      }
      events += report.events;
      double phi[4] = {state.tangent(0, 0), state.tangent(1, 0), state.tangent(0, 1),
                       state.tangent(1, 1)};
      orthonormalise(phi, log_stretch);
      state.tangent << phi[0], phi[2], phi[1], phi[3];
    }
    const double cpu_us = 1e6 * (cpu_seconds() - cpu) / periods;
    const double wall_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - wall).count() /
        periods;
    timing.cpu_us = std::min(timing.cpu_us, cpu_us);
    timing.wall_us = std::min(timing.wall_us, wall_us);
    timing.events = static_cast<double>(events) / periods;
    timing.x = state.x[0];
    timing.v = state.x[1];
    timing.phi[0] = state.tangent(0, 0), timing.phi[1] = state.tangent(1, 0);
    timing.phi[2] = state.tangent(0, 1), timing.phi[3] = state.tangent(1, 1);
    timing.log_stretch = log_stretch;
  }
  return timing;
}

Timing run_limit(const libcont::FlowState& start, int periods, int repeats,
                 const systems::MovingBaseOscillator& system) {
  Timing timing;
  const auto& p = system.parameters();
  const double period = system.forcing_period();
  for (int repeat = 0; repeat < repeats; ++repeat) {
    ImpactOscillatorLimit limit(p["m"], p["k"], p["c"], p["a"], p["omega"], p["r"]);
    double t = start.t, x = start.x[0], v = start.x[1];
    double phi[4] = {1, 0, 0, 1};
    long events = 0;
    double log_stretch = 0.0;
    const auto wall = std::chrono::steady_clock::now();
    const double cpu = cpu_seconds();
    for (int k = 1; k <= periods; ++k) {
      limit.advance(t, x, v, phi, start.t + k * period, events);
      orthonormalise(phi, log_stretch);
    }
    const double cpu_us = 1e6 * (cpu_seconds() - cpu) / periods;
    const double wall_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - wall).count() /
        periods;
    timing.cpu_us = std::min(timing.cpu_us, cpu_us);
    timing.wall_us = std::min(timing.wall_us, wall_us);
    timing.events = static_cast<double>(events) / periods;
    timing.x = x, timing.v = v;
    for (int i = 0; i < 4; ++i) timing.phi[i] = phi[i];
    timing.log_stretch = log_stretch;
  }
  return timing;
}

double lyapunov_seconds(bool exact, double& largest, double& sum) {
  const auto system = oscillator(4.0);
  libcont::LyapunovOptions options;  // 1000 transient + 1000 averaged periods
  options.flow.exact_linear_modes = exact;
  const double cpu = cpu_seconds();
  libcont::Vector x0 = libcont::Vector::Zero(2);
  const auto result = libcont::LyapunovSpectrum(system, options).compute(0.0, x0);
  const double seconds = cpu_seconds() - cpu;
  largest = result.exponents.size() ? result.exponents[0] : NAN;
  sum = result.exponent_sum;
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  int periods = 2000, transient = 200, repeats = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (value <= 0) {
      std::fprintf(stderr, "bench_exact_flow: %s needs a positive integer\n", arg.c_str());
      return 2;
    }
    if (arg == "--periods")
      periods = value;
    else if (arg == "--transient")
      transient = value;
    else if (arg == "--repeats")
      repeats = value;
    else {
      std::fprintf(stderr, "usage: %s [--periods N] [--transient N] [--repeats N]\n", argv[0]);
      return 2;
    }
  }
  const auto system = oscillator(4.0);
  libcont::Flow settle(system);
  libcont::FlowState start = settle.initial_state(0.0, libcont::Vector::Zero(2));
  if (!settle.advance(start, transient * system.forcing_period()).ok()) return 1;

  std::printf("# bench_exact_flow: hard moving-base oscillator, eta = 4, r = 1 (z = 1/2)\n");
  std::printf(
      "# %d transient periods, %d timed (tangent on, one advance + QR per period), "
      "best of %d\n",
      transient, periods, repeats);
  const Timing general = run_libcont(false, start, periods, repeats, system);
  const Timing exact = run_libcont(true, start, periods, repeats, system);
  const Timing limit = run_limit(start, periods, repeats, system);
  std::printf("%-16s %10s %10s %8s\n", "row", "wall us", "cpu us", "events");
  for (const auto& [name, t] : {std::pair{"libcont/general", &general},
                                std::pair{"libcont/exact", &exact}, std::pair{"limit", &limit}})
    std::printf("%-16s %10.3f %10.3f %8.3f\n", name, t->wall_us, t->cpu_us, t->events);
  std::printf("ratio general / limit (cpu): %.1f\n", general.cpu_us / limit.cpu_us);
  std::printf("ratio exact / limit (cpu):   %.2f   (target <= 5)\n", exact.cpu_us / limit.cpu_us);
  std::printf("speed-up exact over general: %.1f\n", general.cpu_us / exact.cpu_us);

  const double scale = 0.0025;  // a
  const auto difference = [&](const Timing& p, const Timing& q) {
    return std::hypot(p.x - q.x, p.v - q.v) / scale;
  };
  const auto tangent_difference = [&](const Timing& p, const Timing& q) {
    double d = 0.0;
    for (int i = 0; i < 4; ++i) d = std::max(d, std::abs(p.phi[i] - q.phi[i]));
    return d;
  };
  std::printf(
      "accuracy after %d periods: |x - x_limit| / a: exact %.1e, general %.1e; "
      "tangent max diff: exact %.1e, general %.1e\n",
      periods, difference(exact, limit), difference(general, limit),
      tangent_difference(exact, limit), tangent_difference(general, limit));
  std::printf("exponent sum over the timed periods + c/m: limit %.1e, exact %.1e, general %.1e\n",
              limit.log_stretch / (periods * system.forcing_period()) + 0.23,
              exact.log_stretch / (periods * system.forcing_period()) + 0.23,
              general.log_stretch / (periods * system.forcing_period()) + 0.23);

  double largest_general, sum_general, largest_exact, sum_exact;
  const double s_general = lyapunov_seconds(false, largest_general, sum_general);
  const double s_exact = lyapunov_seconds(true, largest_exact, sum_exact);
  std::printf(
      "Lyapunov spectrum, eta = 4, 1000 + 1000 periods (cpu s): general %.4f "
      "(largest %.6f, sum + c/m %.1e), exact %.4f (largest %.6f, sum + c/m %.1e); "
      "speed-up %.1f\n",
      s_general, largest_general, sum_general + 0.23, s_exact, largest_exact, sum_exact + 0.23,
      s_general / s_exact);
  return 0;
}
