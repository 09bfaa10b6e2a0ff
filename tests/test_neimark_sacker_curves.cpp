// Neimark-Sacker and fold curves (neimark_sacker_curve_problem.hpp, fold_curve_problem.hpp)
// on the two-body system with Hertz contact: its loading curve in lambda has a
// Neimark-Sacker point near lambda = 0.56615 and folds at 0.5647304 and 0.5670031 at omega =
// 6 (doc/reproduction.md), continued here in (lambda, omega). Checks: every row's critical
// pair on the unit circle at kappa = cos theta (a multiplier at +1 on the fold curve); the
// curve's first row at the one-parameter point; at several rows (the fold curve: between
// rows), an independent one-parameter continuation in lambda at that omega
// (PeriodicOrbitProblem's tests, another formulation and other unknowns) locates its
// Neimark-Sacker point (fold) at the curve's lambda. Also the test function's derivatives
// against differences, and the resonance tests.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <ctime>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "libcont/neimark_sacker_curve_problem.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/shooting.hpp"
#include "systems/cantilever.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::Vector;
using systems::TwoBodySystem;

namespace {

// The two-body Hertz system at omega, and its loading branch in lambda over [from, to]
// from the orbit found at `from` (a settled motion, corrected by shooting).
libcont::OrbitBranch loading_branch(TwoBodySystem& system, double from, double to) {
  system.set_parameter("lambda", from);
  const Vector settled =
      test_support::settle(system, 0.0, system.default_initial_state(), 200).x;
  const auto orbit = libcont::Shooting(system, 1).solve(settled);
  REQUIRE(orbit.converged);
  return libcont::trace_orbit_branch(system, 1, 0.0, orbit.x,
                                     libcont::OrbitBranchOptions("lambda", from, to));
}

// The branch's Neimark-Sacker point in [lo, hi], or null.
const libcont::SpecialPoint* neimark_sacker_in(const libcont::OrbitBranch& branch, double lo,
                                               double hi) {
  const libcont::SpecialPoint* found = nullptr;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::NeimarkSacker && s.lambda >= lo && s.lambda <= hi)
      found = &s;
  return found;
}

// The branch's fold nearest to `lambda` in lambda, or null.
const libcont::SpecialPoint* fold_near(const libcont::OrbitBranch& branch, double lambda) {
  const libcont::SpecialPoint* found = nullptr;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::Fold &&
        (!found || std::abs(s.lambda - lambda) < std::abs(found->lambda - lambda)))
      found = &s;
  return found;
}

// Of a row's multipliers, the one nearest to e^{i theta}, kappa = cos theta.
std::complex<double> critical(const std::vector<std::complex<double>>& multipliers,
                              double kappa) {
  const std::complex<double> target = std::polar(1.0, std::acos(std::clamp(kappa, -1.0, 1.0)));
  std::complex<double> nearest = multipliers.front();
  for (const auto& mu : multipliers)
    if (std::abs(mu - target) < std::abs(nearest - target)) nearest = mu;
  return nearest;
}

// The Neimark-Sacker curve from the loading branch's point near 0.56615 at omega = 6 to
// omega = `to`, each row's pair checked; at the rows `checked`, a one-parameter branch in
// lambda at the row's omega, over +-half_window around the row's lambda, from the row's
// orbit corrected at its lower end.
void check_curve(double to, int max_points, const std::vector<int>& checked) {
  TwoBodySystem system;
  double begin = test_support::cpu_seconds();
  const libcont::OrbitBranch branch = loading_branch(system, 0.575, 0.562);
  const double branch_seconds = test_support::cpu_seconds() - begin;
  INFO("loading branch: " << branch.stop_reason << ";" << test_support::special_points_text(branch));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* ns = neimark_sacker_in(branch, 0.5655, 0.5667);
  REQUIRE(ns != nullptr);

  libcont::OrbitCurveOptions options("omega", 6.0, to, 0.55, 0.58);
  options.max_points = max_points;
  options.corrector_tolerance = 1e-10;
  begin = test_support::cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(system, branch, *ns, options);
  const double curve_seconds = test_support::cpu_seconds() - begin;
  INFO("curve: " << curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  REQUIRE(curve.rows.size() >= 3);
  CHECK(curve.kind == libcont::CurveKind::NeimarkSacker);
  // The curve starts at the one-parameter point, on omega = 6.
  // The first row is the branch's point corrected at its lambda with omega free: it moves
  // in omega by the two points' disagreement.
  const double start_difference = std::abs(curve.rows.front().first - ns->lambda);
  const double start_omega = std::abs(curve.rows.front().second - 6.0);
  CHECK(start_difference == 0.0);
  CHECK(start_omega <= 1e-9);

  // Every row: the critical pair on the unit circle, at the angle kappa says.
  double worst_modulus = 0.0, worst_angle = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    REQUIRE(row.auxiliary.size() == 1);
    const double kappa = row.auxiliary[0];
    const std::complex<double> mu = critical(row.multipliers, kappa);
    INFO("row at lambda = " << std::setprecision(12) << row.first << ", omega = " << row.second
                            << ", kappa = " << kappa << ", mu = " << mu);
    CHECK(std::abs(std::abs(mu) - 1.0) <= 1e-8);
    CHECK(std::abs(std::cos(std::arg(mu)) - kappa) <= 1e-8);
    worst_modulus = std::max(worst_modulus, std::abs(std::abs(mu) - 1.0));
    worst_angle = std::max(worst_angle, std::abs(std::cos(std::arg(mu)) - kappa));
  }

  // The independent check at the chosen rows.
  double worst = 0.0, check_seconds = 0.0;
  std::ostringstream rows;
  rows << std::setprecision(10);
  for (const int k : checked) {
    REQUIRE(k < static_cast<int>(curve.rows.size()));
    const libcont::CurveRow& row = k < 0 ? curve.rows.back() : curve.rows[static_cast<size_t>(k)];
    const double half_window = 2e-4;
    system.set_parameter("omega", row.second);
    system.set_parameter("lambda", row.first - half_window);
    begin = test_support::cpu_seconds();
    const libcont::OrbitBranch at_row = libcont::trace_orbit_branch(
        system, 1, row.phase, row.x,
        libcont::OrbitBranchOptions("lambda", row.first - half_window, row.first + half_window));
    check_seconds += test_support::cpu_seconds() - begin;
    INFO("row at omega = " << std::setprecision(12) << row.second << ", lambda = " << row.first
                           << ": branch " << at_row.stop_reason << ";" << test_support::special_points_text(at_row));
    REQUIRE(at_row.ok());
    const libcont::SpecialPoint* located =
        neimark_sacker_in(at_row, row.first - half_window, row.first + half_window);
    REQUIRE(located != nullptr);
    const double difference = located->lambda - row.first;
    rows << " omega " << row.second << ": " << std::setprecision(3) << difference
         << std::setprecision(10) << ";";
    // The rows solve G = 0 to |F| <= 1e-10 (1 + |u|) ~ 7e-10 (|u| ~ omega = 6), G's
    // derivative in lambda, x eliminated, is of order 0.1 .. 1 (the derivative test
    // below): a row's lambda is good to ~5e-9 at worst. The branch brackets its sign
    // change to 4e-13 in arclength. Measured: 8.7e-12 at worst.
    CHECK(std::abs(difference) <= 1e-8);
    worst = std::max(worst, std::abs(difference));
  }
  std::ostringstream line;
  line << std::setprecision(10) << "Neimark-Sacker curve (lambda, omega) from lambda = "
       << ns->lambda << ", omega = 6 to " << to << ": " << curve.rows.size() << " rows, lambda "
       << curve.rows.front().first << " -> " << curve.rows.back().first << ", omega -> "
       << curve.rows.back().second << ", kappa " << curve.rows.front().auxiliary[0] << " -> "
       << curve.rows.back().auxiliary[0] << std::setprecision(3) << " (" << curve.stop_reason
       << "); start - branch point " << start_difference << " in lambda, " << start_omega
       << " in omega" << "; max ||mu| - 1| " << worst_modulus
       << ", max |cos arg mu - kappa| " << worst_angle << "; one-parameter NS - row:"
       << rows.str() << " max " << worst << "; CPU s: branch " << branch_seconds << ", curve "
       << curve_seconds << ", checks " << check_seconds;
  for (const auto& p : curve.points) line << "; " << p.type << " at lambda " << p.first;
  WARN(line.str());
}

}  // namespace

TEST_CASE("Neimark-Sacker curve of the two-body Hertz orbit: omega 6 to 6.05", "[curves][ns]") {
  // 38 rows in 0.2 CPU s (the branch and the checks as much again): the whole curve is
  // in the quick suite. Checked rows: the start, two on the way, the last (on omega = 6.05).
  check_curve(6.05, 500, {0, 2, 5, -1});
}

TEST_CASE("the Neimark-Sacker test function's derivatives against differences", "[curves][ns]") {
  // At the two-body Neimark-Sacker point: evaluate() takes the two conditions' derivatives
  // as -W^T dA V, dA = M dM + dM M - 2 kappa dM with dM from central differences of the
  // tangent flow's monodromy, and -W^T (-2 M) V along kappa. Checked against (a) the same
  // with a step ten times longer and (b) central differences of the conditions themselves
  // (the bordered system solved again at each shifted point, borders and chosen entries
  // kept), along every unknown: x (4), omega, kappa, and lambda. The maps are integrated
  // to rtol 1e-13 (test_support::tight_options), so that differences of them resolve.
  TwoBodySystem system;
  const libcont::OrbitBranch branch = loading_branch(system, 0.575, 0.562);
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* ns = neimark_sacker_in(branch, 0.5655, 0.5667);
  REQUIRE(ns != nullptr);
  const libcont::FlowOptions flow = test_support::tight_options();
  libcont::NeimarkSackerCurveProblem problem(system, "lambda", "omega", 1, flow, ns->chart);
  problem.second_scale = 0.05;  // as trace_orbit_curve sets them from omega 6 -> 6.05
  problem.first_scale = 0.03;   // and lambda in [0.55, 0.58]
  const double lambda = ns->lambda, omega = 6.0;
  double kappa = 0.0;
  REQUIRE(problem.critical_kappa(ns->u, lambda, omega, kappa));
  Vector u(6);
  u << ns->u, omega, kappa;
  REQUIRE(problem.dimension() == 6);
  REQUIRE(problem.refit_borders(u, lambda));
  const auto condition_rows = [&](double step) {
    Vector residual, dlambda;
    libcont::Matrix du;
    problem.difference_step = step;
    REQUIRE(problem.evaluate(u, lambda, residual, du, dlambda));
    libcont::Matrix rows(2, 7);
    rows << du.bottomRows(2), dlambda.tail(2);
    return rows;
  };
  const libcont::Matrix rows = condition_rows(1e-6), longer = condition_rows(1e-5);
  libcont::Matrix direct(2, 7);
  const double size = ns->u.cwiseAbs().maxCoeff();
  for (int j = 0; j < 7; ++j) {
    const double h = j < 4 ? 1e-6 * size : j == 4 ? 1e-6 * 0.05 : j == 5 ? 1e-4 : 1e-6 * 0.03;
    Vector up = u, um = u;
    double lp = lambda, lm = lambda;
    (j < 6 ? up[j] : lp) += h;
    (j < 6 ? um[j] : lm) -= h;
    Vector gp, gm;
    REQUIRE(problem.condition_values(up, lp, gp));
    REQUIRE(problem.condition_values(um, lm, gm));
    direct.col(j) = (gp - gm) / (2.0 * h);
  }
  // The map does not repeat itself to the last digits (CVODE's step sequence depends on
  // what it ran before): the conditions evaluated twice at the same point differ, and
  // that noise over 2 h bounds what differences of G can resolve.
  Vector once, again;
  REQUIRE(problem.condition_values(u, lambda, once));
  REQUIRE(problem.condition_values(u, lambda, again));
  const double repeat = (once - again).cwiseAbs().maxCoeff();
  // Each condition's row relative to its largest entry.
  const auto difference = [&](const libcont::Matrix& other) {
    double worst = 0.0;
    for (int i = 0; i < 2; ++i)
      worst = std::max(worst, (rows.row(i) - other.row(i)).cwiseAbs().maxCoeff() /
                                  rows.row(i).cwiseAbs().maxCoeff());
    return worst;
  };
  const double step_difference = difference(longer), direct_difference = difference(direct);
  const double kappa_difference =
      std::max(std::abs(rows(0, 5) - direct(0, 5)) / rows.row(0).cwiseAbs().maxCoeff(),
               std::abs(rows(1, 5) - direct(1, 5)) / rows.row(1).cwiseAbs().maxCoeff());
  std::ostringstream line;
  line << std::setprecision(8) << "Neimark-Sacker conditions at lambda = " << lambda
       << ", kappa = " << kappa << ", entries (" << problem.first_entry().first
       << problem.first_entry().second << "), (" << problem.second_entry().first
       << problem.second_entry().second << "): d(G)/d(x, omega, kappa, lambda) =\n"
       << rows << "\n" << std::setprecision(3) << "largest relative difference to the tenfold step "
       << step_difference << ", to differences of G " << direct_difference << " (kappa's column "
       << kappa_difference << "); the conditions repeat to " << repeat;
  WARN(line.str());
  // Measured: 4.8e-6, 2.0e-5 (kappa 7.8e-8), the map repeating to 3.4e-11. The tenfold
  // step's truncation error is a hundred times the default's; differences of G over steps
  // of 1e-6 of each unknown's scale carry the map's non-repetition, some 3e-11 / 2e-6 =
  // 1.5e-5 relative to the rows' largest entries (25, 3.9); kappa's step 1e-4 leaves
  // 6e-11 / 2e-4 = 3e-7, 8e-8 of the smaller row, and a truncation error of 1e-9.
  CHECK(step_difference <= 2e-5);
  CHECK(direct_difference <= 5e-5);
  CHECK(kappa_difference <= 3e-7);
}

TEST_CASE("the two-body Neimark-Sacker curve reaches a 1:1 resonance on the fold curve",
          "[curves][ns]") {
  // Towards lower omega the pair closes on +1: kappa = 1 at omega ~ 5.98028, a 1:1
  // resonance, where M has the double multiplier 1 and so the fold curve passes (the
  // fold of the loading branch and its Neimark-Sacker point meet). Checked: the located
  // point has kappa = 1 and two multipliers at 1 (to the square root of the monodromy's
  // accuracy: a Jordan block splits its eigenvalue so), and the loading branch at the
  // point's omega, traced through it in lambda, has a fold at the point's lambda.
  // Beyond the resonance the same equations hold for neutral saddles, mu and 1/mu real, no
  // bifurcation: the curve ends on the resonance (once it went on through them, and turned
  // back in omega at 5.97541, as if Neimark-Sacker points lay there).
  TwoBodySystem system;
  const libcont::OrbitBranch branch = loading_branch(system, 0.575, 0.562);
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* ns = neimark_sacker_in(branch, 0.5655, 0.5667);
  REQUIRE(ns != nullptr);
  double begin = test_support::cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, branch, *ns, libcont::OrbitCurveOptions("omega", 6.0, 5.978, 0.55, 0.58));
  const double curve_seconds = test_support::cpu_seconds() - begin;
  INFO("curve: " << curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  CHECK(curve.status == libcont::ContinuationStatus::LeftFamily);
  CHECK(curve.stop_reason.find("ends at a 1:1 resonance") != std::string::npos);
  // No row lies beyond it: every row's pair is complex, kappa <= 1, the last one on it.
  REQUIRE(!curve.rows.empty());
  for (const libcont::CurveRow& row : curve.rows) CHECK(row.auxiliary[0] <= 1.0);
  CHECK(curve.rows.back().auxiliary[0] == 1.0);
  std::vector<const libcont::CurvePoint*> resonances;
  for (const auto& p : curve.points)
    if (p.type.starts_with("resonance")) resonances.push_back(&p);
  REQUIRE(resonances.size() == 1);
  const libcont::CurvePoint& r = *resonances.front();
  CHECK(r.type == "resonance-1:1");
  REQUIRE(r.auxiliary.size() == 1);
  const double kappa_error = std::abs(r.auxiliary[0] - 1.0);
  CHECK(kappa_error <= 1e-8);
  std::vector<double> to_one;
  for (const auto& mu : r.multipliers) to_one.push_back(std::abs(mu - 1.0));
  std::sort(to_one.begin(), to_one.end());
  INFO("multipliers' distances to 1: " << to_one[0] << ", " << to_one[1]);
  // A double multiplier with a Jordan block moves by the square root of a perturbation of
  // M: the map repeats itself to 3.4e-11 (the derivative test below), sqrt of it 5.8e-6;
  // measured 3.4e-6.
  CHECK(to_one[1] <= 1e-4);

  // The loading branch at the resonance's omega, made as at omega = 6 (from lambda = 0.575
  // down), independent of the curve.
  system.set_parameter("omega", r.second);
  begin = test_support::cpu_seconds();
  const libcont::OrbitBranch at_point = loading_branch(system, 0.575, 0.562);
  const double check_seconds = test_support::cpu_seconds() - begin;
  INFO("branch at omega = " << r.second << ": " << at_point.stop_reason << ";"
                            << test_support::special_points_text(at_point));
  REQUIRE(at_point.ok());
  const libcont::SpecialPoint* fold = fold_near(at_point, r.first);
  REQUIRE(fold != nullptr);
  const double difference = fold->lambda - r.first;
  std::ostringstream line;
  line << std::setprecision(10) << "1:1 resonance on the Neimark-Sacker curve at lambda = "
       << r.first << ", omega = " << r.second << std::setprecision(3) << ": |kappa - 1| "
       << kappa_error << ", multipliers " << to_one[0] << ", " << to_one[1]
       << " from 1; the loading branch's fold at that omega " << difference
       << " from its lambda; CPU s: curve " << curve_seconds << ", check " << check_seconds;
  WARN(line.str());
  // The resonance is the last row, corrected with kappa fixed at 1; the branch's fold is
  // located to its corrector tolerance, |F| <= 1e-9 (1 + |x|), of the order 1e-9 in
  // lambda. Measured: -4.2e-12.
  CHECK(std::abs(difference) <= 1e-8);
}

TEST_CASE("fold curve of the two-body Hertz orbit: omega 6 to 6.03", "[curves][fold]") {
  // The loading branch's fold at lambda = 0.5670031 (omega = 6), 3e-7 above its grazing,
  // continued in (lambda, omega) to omega = 6.03: lambda falls to 0.55742 (one row per
  // 1.4e-3 in omega), the orbit keeps its one impact, the unstable multiplier grows from
  // 10 to 51.
  TwoBodySystem system;
  double begin = test_support::cpu_seconds();
  const libcont::OrbitBranch branch = loading_branch(system, 0.575, 0.562);
  const double branch_seconds = test_support::cpu_seconds() - begin;
  INFO("loading branch: " << branch.stop_reason << ";" << test_support::special_points_text(branch));
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* fold = fold_near(branch, 0.567);
  REQUIRE(fold != nullptr);
  CHECK(std::abs(fold->lambda - 0.5670031) <= 1e-6);  // doc/reproduction.md

  begin = test_support::cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, branch, *fold, libcont::OrbitCurveOptions("omega", 6.0, 6.03, 0.55, 0.58));
  const double curve_seconds = test_support::cpu_seconds() - begin;
  INFO("curve: " << curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  CHECK(curve.kind == libcont::CurveKind::Fold);
  CHECK(curve.status == libcont::ContinuationStatus::ReachedBound);
  REQUIRE(curve.rows.size() >= 10);

  // (b) The curve passes the loading branch's fold at the branch's omega: its first row is
  // that point corrected at its lambda with omega free, which moves it in omega by the two
  // problems' disagreement (the branch's corrector tolerance, 1e-9 (1 + |x|), over dF/domega
  // of order 1).
  const double start_difference = std::abs(curve.rows.front().first - fold->lambda);
  const double start_omega = std::abs(curve.rows.front().second - 6.0);
  CHECK(start_difference == 0.0);
  CHECK(start_omega <= 1e-8);

  // (a) Every row has a real multiplier at +1. The rows solve the bordered fold condition
  // g = 0 to 1e-10 (1 + |u|) ~ 7e-10, and near a simple multiplier g ~ (mu - 1) w^T v with
  // the borders refitted to the null vectors (w^T v ~ 1); the monodromy itself is as good
  // as the Hertz map repeats (3.4e-11, the derivative test above), times the multiplier's
  // condition, at most |M| ~ 50: 2e-9. Tolerance 1e-8.
  double worst = 0.0, worst_imaginary = 0.0;
  for (const libcont::CurveRow& row : curve.rows) {
    std::complex<double> nearest = row.multipliers.front();
    for (const auto& mu : row.multipliers)
      if (std::abs(mu - 1.0) < std::abs(nearest - 1.0)) nearest = mu;
    INFO("row at lambda = " << std::setprecision(12) << row.first << ", omega = " << row.second
                            << ": mu = " << nearest);
    CHECK(std::abs(nearest - 1.0) <= 1e-8);
    CHECK(std::abs(nearest.imag()) <= 1e-8);
    CHECK(row.impacts == 1);
    worst = std::max(worst, std::abs(nearest - 1.0));
    worst_imaginary = std::max(worst_imaginary, std::abs(nearest.imag()));
  }

  // (c) At omega = 6.02, between rows, the lambda the curve predicts (the polynomial through
  // its four rows nearest in omega; through six, the difference is the interpolation's
  // error) against the fold of a loading branch made there from scratch, from lambda =
  // 0.575 down, as at omega = 6. The branch locates its fold to 2e-11 in arclength (1e-9
  // of its range), where lambda is stationary; both are solved to 1e-9 .. 1e-10 (1 + |u|),
  // of the order 1e-9 in lambda: tolerance 1e-8.
  const double omega = 6.02;
  std::vector<double> omegas, lambdas;
  for (const libcont::CurveRow& row : curve.rows) {
    omegas.push_back(row.second);
    lambdas.push_back(row.first);
  }
  const double predicted = test_support::interpolate_nearest(omegas, lambdas, omega, 4);
  const double interpolation =
      std::abs(predicted - test_support::interpolate_nearest(omegas, lambdas, omega, 6));
  REQUIRE(std::isfinite(predicted));
  system.set_parameter("omega", omega);
  begin = test_support::cpu_seconds();
  const libcont::OrbitBranch at_omega = loading_branch(system, 0.575, 0.555);
  const double check_seconds = test_support::cpu_seconds() - begin;
  INFO("branch at omega = " << omega << ": " << at_omega.stop_reason << ";" << test_support::special_points_text(at_omega));
  REQUIRE(at_omega.ok());
  const libcont::SpecialPoint* located = fold_near(at_omega, predicted);
  REQUIRE(located != nullptr);
  const double difference = located->lambda - predicted;

  std::ostringstream line;
  line << std::setprecision(10) << "fold curve (lambda, omega) from lambda = " << fold->lambda
       << ", omega = 6 to 6.03: " << curve.rows.size() << " rows, lambda -> "
       << curve.rows.back().first << std::setprecision(3) << " (" << curve.stop_reason
       << "); start - branch point " << start_difference << " in lambda, " << start_omega
       << " in omega; max |mu - 1| " << worst << ", max |Im mu| " << worst_imaginary
       << "; at omega = " << omega << " the curve's lambda " << std::setprecision(12)
       << predicted << std::setprecision(3) << " (interpolation " << interpolation
       << "), the loading branch's fold " << difference << " from it; CPU s: branch "
       << branch_seconds << ", curve " << curve_seconds << ", check " << check_seconds;
  WARN(line.str());
  CHECK(interpolation <= 1e-9);
  CHECK(std::abs(difference) <= 1e-8);
}

TEST_CASE("the cantilever's Neimark-Sacker curve: its 1:3 and 1:4 resonances have the "
          "multipliers exp(+-2 pi i / 3) and +-i",
          "[curves][ns]") {
  // The Neimark-Sacker point NS1 of vicont continue --system cantilever-2dof --set e=0.1
  // --set r=0.8 --param eta --from 0.3 --to 3 (an orbit of 15 impacts per period),
  // continued in (eta, r) towards r = 1 (vicont curve --restart run:NS1 --param2 r --from
  // 0.8 --to 1), meets kappa = -1/2 (a 1:3 resonance) after its row 51 and kappa = 0 (1:4)
  // after its row 101. From its rows 50 and 100 (states below, from curve.json) the curve
  // must locate them, and there the monodromy's own eigenvalues (Floquet, not the curve's
  // unknown kappa) must be the pair on the unit circle at the angle 2 pi / 3, pi / 2.
  struct Case {
    const char* type;
    double kappa;  // cos theta at the resonance
    double eta, r;
    std::array<double, 4> state;
  };
  const double phase = 5.4555386408848285;
  const Case cases[] = {
      {"resonance-1:3", -0.5, 0.43797965012387446, 0.8001593650247399,
       {0.021742454820094233, 0.003273027172533763, -0.010422710782379906,
        -0.001289429055831185}},
      {"resonance-1:4", 0.0, 0.43682799334105943, 0.8022135314744644,
       {0.021660398432455177, 0.003274445734493095, -0.010276451242812809,
        -0.00016353157355623345}}};
  for (const Case& c : cases) {
    systems::CantileverBeam system;
    system.set_parameter("e", 0.1);
    system.set_parameter("omega", c.eta);
    system.set_parameter("r", c.r);
    const Vector x = Eigen::Map<const Vector>(c.state.data(), 4);
    libcont::OrbitCurveOptions options("r", c.r, 1.0, 0.3, 3.0);
    options.max_points = 10;
    const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
        system, libcont::CurveKind::NeimarkSacker, "omega", c.eta, 1, phase, x, options);
    INFO(c.type << ": " << curve.stop_reason << " " << curve.failure);
    REQUIRE(curve.rows.size() >= 2);
    const libcont::CurvePoint* found = nullptr;
    for (const auto& p : curve.points)
      if (p.type == c.type) found = &p;
    REQUIRE(found != nullptr);
    double modulus = INFINITY, cosine = INFINITY;
    for (const auto& mu : found->multipliers)
      if (mu.imag() > 0.0 && std::abs(std::abs(mu) - 1.0) < std::abs(modulus - 1.0)) {
        modulus = std::abs(mu);
        cosine = mu.real() / std::abs(mu);
      }
    CHECK(std::abs(modulus - 1.0) <= 1e-8);
    CHECK(std::abs(cosine - c.kappa) <= 1e-6);
    std::ostringstream line;
    line << std::setprecision(10) << c.type << " of the cantilever's Neimark-Sacker curve at eta = "
         << found->first << ", r = " << found->second << std::setprecision(3)
         << ": |mu| - 1 = " << modulus - 1.0 << ", cos(arg mu) - kappa = " << cosine - c.kappa;
    WARN(line.str());
  }
}
