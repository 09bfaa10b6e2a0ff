// The fold curve of the forced Duffing oscillator (systems/duffing.hpp) and its cusp
// (orbit_curve.hpp, fold_curve_problem.hpp) against harmonic balance, in the limit of
// small amplitudes where harmonic balance becomes exact (doc/theory.md, 6.4):
//   x'' + 2 zeta x' + x + gamma x^3 = F cos(w t)   (m = k = 1, c = 2 zeta, k3 = gamma,
//                                                   a = F, eta = w).
// The library integrates the smooth flow (CVODE) and solves the extended fold problem with
// a bordered test function; the reference is the closed form below. A second, independent
// check of the cusp: one-parameter branches in eta just above its a have two folds, just
// below none.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "libcont/orbit_branch.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/shooting.hpp"
#include "systems/duffing.hpp"
#include "test_support.hpp"

using libcont::Vector;

namespace {

// Harmonic balance with x = A cos(w t - phi) (Nayfeh & Mook, "Nonlinear Oscillations",
// 1979, chapter 4; the derivation in doc/theory.md, 6.4): with s = A^2 and d = 1 - w^2 +
// 3/4 gamma s the response solves G(s) = s (d^2 + (2 zeta w)^2) - F^2 = 0; its folds in w
// are double roots in s, on two curves (e = 1 - w^2, u = 3/4 gamma s)
//   u = (-2 e +- sqrt(e^2 - 12 zeta^2 w^2)) / 3,   F^2 = s ((e + u)^2 + 4 zeta^2 w^2),
// which meet at the cusp (hardening, gamma > 0)
//   w_c = sqrt(3) zeta + sqrt(1 + 3 zeta^2),   F_c^2 = 256 zeta^3 w_c^3 / (9 sqrt(3) gamma).
// On the scales sigma = (w - 1) / zeta and f = F / zeta^(3/2) these tend to a limit as
// zeta -> 0, and harmonic balance is the first order in gamma A^2 ~ zeta: the true fold
// curve and cusp lie O(zeta) from it in (sigma, f).
struct HarmonicBalance {
  double zeta = 0.01, gamma = 1.0;

  double cusp_frequency() const { return std::sqrt(3.0) * zeta + std::sqrt(1.0 + 3.0 * zeta * zeta); }
  double cusp_force() const {
    const double w = cusp_frequency();
    return std::sqrt(256.0 * std::pow(zeta * w, 3) / (9.0 * std::sqrt(3.0) * gamma));
  }
  // F on the fold curve `branch` (-1: the smaller amplitude, +1: the larger) at w; NaN where
  // it has none (w below the cusp's).
  double fold_force(double w, int branch) const {
    const double e = 1.0 - w * w, discriminant = e * e - 12.0 * zeta * zeta * w * w;
    if (discriminant < 0.0) return std::numeric_limits<double>::quiet_NaN();
    const double u = (-2.0 * e + branch * std::sqrt(discriminant)) / 3.0;
    const double s = 4.0 * u / (3.0 * gamma), d = e + u;
    return std::sqrt(s * (d * d + 4.0 * zeta * zeta * w * w));
  }
  // The periodic response at (w, F) where it is unique (outside the fold curves' wedge):
  // the root of G by bisection, and the state (x, x') at t = 0.
  Vector response(double w, double force) const {
    const auto g = [&](double s) {
      const double d = 1.0 - w * w + 0.75 * gamma * s;
      return s * (d * d + 4.0 * zeta * zeta * w * w) - force * force;
    };
    double lo = 0.0, hi = 1.0;
    while (g(hi) < 0.0) hi *= 2.0;
    for (int i = 0; i < 200; ++i) (g(0.5 * (lo + hi)) < 0.0 ? lo : hi) = 0.5 * (lo + hi);
    const double s = 0.5 * (lo + hi);
    const double d = 1.0 - w * w + 0.75 * gamma * s;
    // cos phi = A d / F, sin phi = 2 zeta w A / F; x(0) = A cos phi, x'(0) = A w sin phi.
    return (Vector(2) << s * d / force, 2.0 * zeta * w * s * w / force).finished();
  }

  // Scaled coordinates (sigma, f) of (w, F).
  double sigma(double w) const { return (w - 1.0) / zeta; }
  double scaled_force(double force) const { return force / std::pow(zeta, 1.5); }
  // The distance in (sigma, f) from (w, F) to the nearer fold curve (the cusp included).
  double scaled_distance(double w, double force) const {
    const double wc = cusp_frequency();
    const auto distance = [&](double v, int branch) {
      return std::hypot(sigma(v) - sigma(w), scaled_force(fold_force(v, branch)) - scaled_force(force));
    };
    double best = std::hypot(sigma(wc) - sigma(w), scaled_force(cusp_force()) - scaled_force(force));
    for (const int branch : {-1, 1}) {
      // The nearest point lies within the distance to the cusp, so within that in sigma:
      // golden section there (one minimum on a curve this close to straight).
      double lo = std::max(wc, w - best * zeta), hi = std::max(wc, w + best * zeta);
      const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
      for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
        const double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
        if (distance(a, branch) < distance(b, branch)) hi = b;
        else lo = a;
      }
      best = std::min(best, distance(0.5 * (lo + hi), branch));
    }
    return best;
  }
};

// The Duffing oscillator of harmonic balance `hb` at (eta, a).
systems::DuffingOscillator duffing(const HarmonicBalance& hb, double eta, double a) {
  systems::DuffingOscillator system;
  system.set_parameter("c", 2.0 * hb.zeta);
  system.set_parameter("k3", hb.gamma);
  system.set_parameter("a", a);
  system.set_parameter("omega", eta);
  return system;
}

// The branch in eta over [from, to] at the system's a, from the orbit shot for at eta = from
// from harmonic balance's response there (unique at `from`).
libcont::OrbitBranch branch_in_eta(systems::DuffingOscillator& system, const HarmonicBalance& hb,
                                   double from, double to, double max_step) {
  system.set_parameter("omega", from);
  const auto orbit = libcont::Shooting(system, 1).solve(hb.response(from, system.parameters()["a"]));
  REQUIRE(orbit.converged);
  libcont::OrbitBranchOptions options("omega", from, to);
  options.max_step = max_step;
  options.initial_step = 0.1 * max_step;
  return libcont::trace_orbit_branch(system, 1, 0.0, orbit.x, options);
}

std::vector<const libcont::SpecialPoint*> folds(const libcont::OrbitBranch& branch) {
  std::vector<const libcont::SpecialPoint*> found;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::Fold) found.push_back(&s);
  return found;
}

// The nearer of harmonic balance's fold curves to (w, F) in (sigma, f): -1 or +1.
int nearer_branch(const HarmonicBalance& hb, double w, double force) {
  const auto gap = [&](int branch) {
    return std::abs(hb.scaled_force(hb.fold_force(w, branch)) - hb.scaled_force(force));
  };
  return gap(-1) < gap(1) ? -1 : 1;
}

const libcont::CurvePoint* only_point(const libcont::OrbitCurve& curve, const std::string& type) {
  const libcont::CurvePoint* found = nullptr;
  int count = 0;
  for (const auto& p : curve.points)
    if (p.type == type) {
      found = &p;
      ++count;
    }
  return count == 1 ? found : nullptr;
}

// What one amplitude scale measures: the largest distance of a row from harmonic balance
// and the cusp's relative deviations from it, all on the scales (sigma, f).
struct Measured {
  double zeta = 0.0;
  double rows = 0.0;
  double cusp_sigma = 0.0, cusp_force = 0.0;
  // The engine's turning point in eta against the cusp: |sigma difference|, |relative a|.
  double turn_sigma = 0.0, turn_force = 0.0;
};

// At damping ratio zeta (gamma = 1): the fold curve traced, every row against harmonic
// balance, its cusp located, and the cusp checked as the point where the curve's two
// branches meet and by one-parameter branches on either side of it.
Measured measure(double zeta) {
  const HarmonicBalance hb{zeta, 1.0};
  const double wc = hb.cusp_frequency(), fc = hb.cusp_force();
  // One scaled window at every zeta: sigma in [0, 6]; the curve from the branch's fold of
  // larger amplitude at F = 1.5 F_c (harmonic balance: the folds at sigma = 3.8 and 2.6)
  // down in a towards 0.7 F_c, below the cusp, where it turns and goes back up along the
  // other fold curve to 1.5 F_c.
  const double eta_min = 1.0, eta_max = 1.0 + 6.0 * zeta, a_start = 1.5 * fc;
  // The arclength of branches and curves is mostly the orbit's point, of the size of the
  // amplitude ~ sqrt(zeta): steps on that scale (the defaults follow the parameters'
  // ranges, zeta and zeta^(3/2)).
  const double step = 0.01 * std::sqrt(zeta / 0.01);
  auto system = duffing(hb, eta_min, a_start);
  double begin = test_support::cpu_seconds();
  const libcont::OrbitBranch branch = branch_in_eta(system, hb, eta_min, eta_max, step);
  const double branch_seconds = test_support::cpu_seconds() - begin;
  INFO("zeta = " << zeta << ": branch at a = " << a_start << ": " << branch.stop_reason
                 << ";" << test_support::special_points_text(branch));
  REQUIRE(branch.ok());
  const auto at_start = folds(branch);
  REQUIRE(at_start.size() == 2);
  const libcont::SpecialPoint& fold = *std::max(
      at_start[0], at_start[1], [](auto* p, auto* q) { return p->lambda < q->lambda; });

  libcont::OrbitCurveOptions options("a", a_start, 0.7 * fc, eta_min, eta_max);
  options.max_step = step;
  options.initial_step = 0.1 * step;
  begin = test_support::cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(system, branch, fold, options);
  const double curve_seconds = test_support::cpu_seconds() - begin;
  std::ostringstream points;
  points << std::setprecision(12);
  for (const auto& p : curve.points)
    points << ' ' << p.type << '@' << p.first << ',' << p.second << " (after row "
           << p.after_row << ")";
  INFO("curve: " << curve.stop_reason << " " << curve.failure << ";" << points.str());
  REQUIRE(curve.ok());
  CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
  CHECK(std::abs(curve.rows.back().second - a_start) <= 1e-12);

  // (a) Every row against harmonic balance: within zeta of its fold curves in (sigma, f)
  // (measured 0.54 zeta to 0.61 zeta at the largest; the convergence in the test case).
  Measured m;
  m.zeta = zeta;
  for (const auto& row : curve.rows) {
    const double distance = hb.scaled_distance(row.first, row.second);
    INFO("row at eta = " << std::setprecision(12) << row.first << ", a = " << row.second
                         << ": scaled distance " << distance);
    CHECK(distance <= zeta);
    m.rows = std::max(m.rows, distance);
  }

  // (b) The cusp: one, located where harmonic balance has it to O(zeta) relative on the
  // scales sigma and f (measured 0.062 zeta and 0.095 zeta at the largest).
  const libcont::CurvePoint* cusp = only_point(curve, "cusp");
  REQUIRE(cusp != nullptr);
  m.cusp_sigma = std::abs(hb.sigma(cusp->first) / hb.sigma(wc) - 1.0);
  m.cusp_force = std::abs(cusp->second / fc - 1.0);
  CHECK(m.cusp_sigma <= 0.2 * zeta);
  CHECK(m.cusp_force <= 0.2 * zeta);

  // (c) The curve turns there: the engine's turning point in eta is the cusp (both located
  // to 1e-9 of the range of a in arclength, where eta and a are stationary, and corrected
  // to 1e-10 (1 + |u|): measured 1e-10 in sigma and 2.2e-10 relative in a at worst; the
  // cusp test's former second difference of P^n, noisy on an integrated flow, put them
  // 3.5e-6 and 1.5e-6 apart); eta and a are least at the cusp; the rows before it lie on harmonic balance's
  // fold curve of larger amplitude, those after it on the other, so that both fold curves
  // meet at the located point. (Rows within 0.3 of the cusp in (sigma, f) are not
  // assigned: there the two curves are closer than 0.3^(3/2).)
  const libcont::CurvePoint* turn = only_point(curve, "turning-point");
  REQUIRE(turn != nullptr);
  m.turn_sigma = std::abs(hb.sigma(turn->first) - hb.sigma(cusp->first));
  m.turn_force = std::abs(turn->second / cusp->second - 1.0);
  CHECK(m.turn_sigma <= 1e-8);
  CHECK(m.turn_force <= 1e-8);
  const int last_before = cusp->after_row;
  CHECK(last_before >= 5);
  CHECK(static_cast<int>(curve.rows.size()) - last_before - 1 >= 5);
  for (int i = 0; i < static_cast<int>(curve.rows.size()); ++i) {
    const libcont::CurveRow& row = curve.rows[static_cast<size_t>(i)];
    INFO("row " << i << " at eta = " << std::setprecision(12) << row.first << ", a = " << row.second);
    CHECK(hb.sigma(row.first) >= hb.sigma(cusp->first) - 1e-4);
    CHECK(row.second >= cusp->second * (1.0 - 1e-4));
    const double from_cusp = std::hypot(hb.sigma(row.first) - hb.sigma(cusp->first),
                                        hb.scaled_force(row.second) - hb.scaled_force(cusp->second));
    if (from_cusp >= 0.3) CHECK(nearer_branch(hb, row.first, row.second) == (i <= last_before ? 1 : -1));
  }

  // (d) Independently, one-parameter branches in eta over sigma_cusp +- 0.05: at a 1 % above
  // the cusp's two folds near it (harmonic balance: 0.022 and 0.024 beyond the cusp in
  // sigma, their amplitudes 8 % apart), 1 % below none. Steps a tenth of the curve's
  // (A_c / 180), so that no step spans both folds.
  int fold_counts[2] = {0, 0};
  std::ostringstream offsets;  // of the folds above the cusp, in sigma
  offsets << std::setprecision(4);
  for (const int side : {1, -1}) {
    system.set_parameter("a", cusp->second * (1.0 + 0.01 * side));
    const libcont::OrbitBranch near_cusp = branch_in_eta(
        system, hb, cusp->first - 0.05 * zeta, cusp->first + 0.05 * zeta, step / 10.0);
    INFO("branch at a = cusp's * (1 + " << 0.01 * side << "): " << near_cusp.stop_reason << ";"
                                         << test_support::special_points_text(near_cusp));
    REQUIRE(near_cusp.ok());
    const auto found = folds(near_cusp);
    CHECK(found.size() == (side > 0 ? 2u : 0u));
    for (const auto* f : found) {
      const double offset = hb.sigma(f->lambda) - hb.sigma(cusp->first);
      CHECK(std::abs(offset - 0.023) <= 0.01);
      offsets << ' ' << offset;
    }
    fold_counts[side > 0 ? 0 : 1] = static_cast<int>(found.size());
  }

  std::ostringstream line;
  line << std::setprecision(10) << "zeta = " << zeta << ": branch " << branch.points.size()
       << " rows, " << std::setprecision(3) << branch_seconds << " s; curve "
       << curve.rows.size() << " rows, " << curve_seconds << " s, " << curve.stop_reason
       << std::setprecision(12) << ";" << points.str() << "; harmonic balance's cusp " << wc
       << ", " << fc << std::setprecision(4) << "; relative deviations sigma "
       << m.cusp_sigma << ", f " << m.cusp_force << "; rows at most " << m.rows
       << " from it; turning point - cusp: sigma " << m.turn_sigma << ", relative a "
       << m.turn_force << "; folds at a = cusp's * 1.01, 0.99: " << fold_counts[0] << ", "
       << fold_counts[1] << " (those above at sigma_cusp +" << offsets.str() << ")";
  WARN(line.str());
  return m;
}

// The log-log slope of y against zeta between two scales.
double slope(const Measured& a, const Measured& b, double Measured::*y) {
  return std::log(a.*y / b.*y) / std::log(a.zeta / b.zeta);
}

}  // namespace

TEST_CASE("fold curve and cusp of the forced Duffing oscillator against harmonic balance",
          "[curves][duffing]") {
  std::vector<Measured> m;
  for (const double zeta : {0.01, 0.005, 0.0025}) m.push_back(measure(zeta));
  // Convergence to harmonic balance, first order in zeta (~ gamma A^2): the cusp's
  // deviations halve with zeta, log-log slope 1 within 0.05 over both halvings (a slope of
  // 1/2 or 2, or a deviation that does not shrink, fails), and nearer to 1 over the smaller
  // scales, as the second order fades (measured 0.971 and 0.986 in sigma, 0.984 and 0.993
  // in f).
  std::ostringstream line;
  line << std::setprecision(4) << "slopes: cusp sigma";
  for (const auto y : {&Measured::cusp_sigma, &Measured::cusp_force, &Measured::rows}) {
    if (y == &Measured::cusp_force) line << "; cusp f";
    if (y == &Measured::rows) line << "; rows";
    for (std::size_t k = 0; k + 1 < m.size(); ++k) line << ' ' << slope(m[k], m[k + 1], y);
  }
  WARN(line.str());
  for (const auto y : {&Measured::cusp_sigma, &Measured::cusp_force}) {
    const double large = slope(m[0], m[1], y), small = slope(m[1], m[2], y);
    CHECK(std::abs(large - 1.0) <= 0.05);
    CHECK(std::abs(small - 1.0) <= 0.05);
    CHECK(std::abs(small - 1.0) < std::abs(large - 1.0));
  }
  // The rows reach F = 1.5 F_c, amplitudes up to 0.3 at zeta = 0.01 (gamma A^2 = 0.09),
  // where the second order is a tenth of the first: their largest distance goes like
  // C zeta (1 + b zeta) with b ~ -15, local slopes 0.89 and 0.94 (measured). The slope
  // over the smaller scales within 0.1 of 1, and nearer to 1 than over the larger.
  const double rows_large = slope(m[0], m[1], &Measured::rows);
  const double rows_small = slope(m[1], m[2], &Measured::rows);
  CHECK(std::abs(rows_small - 1.0) <= 0.1);
  CHECK(std::abs(rows_small - 1.0) < std::abs(rows_large - 1.0));
}
