// A period-doubling curve that runs into a grazing of its orbit's impact (a resonant
// grazing, doc/theory.md 6.4) on the moving-base impact oscillator, against the closed form
// (impact_oscillator_closed_form.hpp). Near the grazing the map's derivatives vary on the
// scale of the squared impact speed in every unknown: the extended Jacobian must stay
// accurate there (else the corrector converges only linearly and the curve creeps), and the
// curve must end at the grazing with a located codimension-two point.
#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "closed_form_curves.hpp"
#include "impact_oscillator_closed_form.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/period_doubling_curve_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "systems/moving_base.hpp"

using libcont::Matrix;
using libcont::Vector;
using test_support::ImpactingOrbit;
using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;
using test_support::cpu_seconds;
using test_support::library_system;

namespace {

// The closed form's z = 1/1 orbit with a multiplier at -1 at clearance d (eta found near
// `guess`): its parameters and its point on the section half a period after the impact.
struct FlipOrbit {
  ImpactOscillatorParameters p;
  double phase = 0.0;
  Vector x;
  double impact_speed = 0.0;
};
FlipOrbit closed_form_flip(double d, double guess) {
  FlipOrbit flip;
  flip.p.r = 1.0;
  flip.p.d = d;
  flip.p.eta = test_support::one_parameter_point_near(flip.p, "omega", 1, false, guess, 0.02);
  REQUIRE(std::isfinite(flip.p.eta));
  const ImpactOscillatorClosedForm cf(flip.p);
  ImpactingOrbit orbit;
  orbit.det_plus = INFINITY;
  for (const ImpactingOrbit& o : cf.impacting_orbits(1))
    if (std::abs(o.det_plus) < std::abs(orbit.det_plus)) orbit = o;
  REQUIRE(std::abs(orbit.det_plus) <= 1e-6);
  flip.phase = ImpactOscillatorClosedForm::wrap(orbit.tau + 0.5 * cf.period(), cf.period());
  flip.x = cf.section_states(orbit, flip.phase)[0];
  flip.impact_speed = std::abs(orbit.impact_velocity);
  return flip;
}



}  // namespace

TEST_CASE("the extended Jacobian next to a grazing against independent differences",
          "[curves]") {
  // On the period-doubling curve where the orbit's impact speed is 1e-4 (grazing distance
  // 0.18): evaluate()'s Jacobian of (P(x) - x, g) in (x, v, d; eta), and the derivatives of
  // the impact speed that pass_boundary uses, against central differences of residual()
  // (the map and the bordered system solved again at each shifted point) with steps 1e-8
  // of each unknown's scale. Those differences are converged: with steps 1e-9 they agree
  // with them to `reference_spread` below. What matters for the corrector is the Newton
  // contraction with the arclength row: the spectral radius of I - J^-1 J_reference, the
  // factor by which each iteration reduces the error (0.2 with the parameters' steps
  // scaled like the grazing distance instead of its square: the creep).
  const FlipOrbit flip = closed_form_flip(-0.00331845, 1.9972);
  INFO("eta = " << std::setprecision(12) << flip.p.eta << ", impact speed " << flip.impact_speed);
  REQUIRE(flip.impact_speed > 0.5e-4);
  REQUIRE(flip.impact_speed < 2e-4);
  auto system = library_system(flip.p);
  libcont::PeriodDoublingCurveProblem problem(system, "omega", "d", 1, libcont::FlowOptions{},
                                              flip.phase);
  problem.second_scale = 0.01;  // as trace_orbit_curve sets them for d in [-0.01, 0],
  problem.first_scale = 9.5;    // eta in [0.5, 10]
  Vector u(3);
  u << flip.x, flip.p.d;
  const double eta = flip.p.eta;
  REQUIRE(problem.refit_borders(u, eta));
  Vector residual, dlambda;
  Matrix du;
  REQUIRE(problem.evaluate(u, eta, residual, du, dlambda));
  Matrix jacobian(3, 4);
  jacobian << du, dlambda;
  REQUIRE(problem.approach());
  const Vector approach_slope = problem.approach_slope();

  libcont::StroboscopicMap map(system, libcont::FlowOptions{}, flip.phase);
  const double scales[4] = {flip.x.cwiseAbs().sum(), flip.x.cwiseAbs().sum(), 0.01, 1.0};
  const auto differences = [&](double step, Matrix& of_residual, Vector& of_speed) {
    of_residual.resize(3, 4);
    of_speed.resize(4);
    for (int j = 0; j < 4; ++j) {
      const double h = step * scales[j];
      Vector sides[2];
      double speeds[2];
      for (int side = 0; side < 2; ++side) {
        Vector shifted = u;
        double shifted_eta = eta;
        (j < 3 ? shifted[j] : shifted_eta) += side == 0 ? h : -h;
        REQUIRE(problem.residual(shifted, shifted_eta, sides[side]));
        system.set_parameter("omega", shifted_eta);
        system.set_parameter("d", shifted[2]);
        speeds[side] = map.iterate(shifted.head(2), 1, false).measures.slowest_impact;
      }
      of_residual.col(j) = (sides[0] - sides[1]) / (2.0 * h);
      of_speed[j] = (speeds[0] - speeds[1]) / (2.0 * h);
    }
  };
  Matrix reference, finer;
  Vector speed_reference, speed_finer;
  differences(1e-8, reference, speed_reference);
  differences(1e-9, finer, speed_finer);
  const auto relative = [](const Matrix& a, const Matrix& b) {
    return ((a - b).array().abs() / b.array().abs()).maxCoeff();
  };
  const double reference_spread = relative(finer, reference);
  const double jacobian_difference = relative(jacobian, reference);
  const double slope_difference = relative(approach_slope, speed_reference);
  // The corrector's iteration matrix, with the arclength row along the curve's tangent.
  const Eigen::JacobiSVD<Matrix> svd(reference, Eigen::ComputeFullV);
  Vector row = svd.matrixV().col(3);
  row[3] *= std::pow(0.01 / 9.5, 2);  // OrbitCurveOptions' parameter weight, squared
  Matrix bordered(4, 4), bordered_reference(4, 4);
  bordered << jacobian, row.transpose();
  bordered_reference << reference, row.transpose();
  const double contraction =
      (Matrix::Identity(4, 4) - bordered.partialPivLu().solve(bordered_reference))
          .eigenvalues()
          .cwiseAbs()
          .maxCoeff();
  std::ostringstream line;
  line << std::setprecision(3) << "Jacobian at impact speed " << flip.impact_speed
       << ": largest relative difference to the differences " << jacobian_difference
       << " (theirs between steps 1e-8 and 1e-9: " << reference_spread
       << "), impact speed's derivatives " << slope_difference << ", Newton contraction "
       << contraction;
  WARN(line.str());
  CHECK(reference_spread <= 1e-5);
  CHECK(jacobian_difference <= 1e-4);
  CHECK(slope_difference <= 1e-4);
  CHECK(contraction <= 1e-3);
}

TEST_CASE("a period-doubling curve runs into its resonant grazing and ends there", "[curves]") {
  // From the period doubling at eta = 2.6515 (d = 0, r = 1) the curve in (eta, d) towards
  // d = -0.01 meets the grazing curve where E01 = exp(-c T/2m) sin(w_d T)/w_d vanishes
  // (test_orbit_curves: det(M + I) = 0 needs E01 -> 0 with v_r), here T = pi / w_d: eta* =
  // 2 w_d, at the grazing clearance d* = -|a - H(eta*)|. The curve must get there in few
  // rows (it crept with steps of 1e-7 before) and locate it.
  const FlipOrbit flip = closed_form_flip(0.0, 2.6515);
  auto system = library_system(flip.p);
  const double begin = cpu_seconds();
  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      system, libcont::CurveKind::PeriodDoubling, "omega", flip.p.eta, 1, flip.phase, flip.x,
      libcont::OrbitCurveOptions("d", 0.0, -0.01, 0.5, 10.0));
  const double seconds = cpu_seconds() - begin;
  INFO(curve.stop_reason << " " << curve.failure);
  REQUIRE(curve.ok());
  CHECK(curve.status == libcont::ContinuationStatus::EndedAtBoundary);
  CHECK(curve.rows.size() < 150);
  REQUIRE(!curve.points.empty());
  const libcont::CurvePoint& end = curve.points.back();
  CHECK(end.type == "grazing");
  const ImpactOscillatorParameters& p = flip.p;
  const double eta_star = 2.0 * test_support::resonant_eta(p);
  const double d_star = test_support::grazing_clearance(p, eta_star);
  // Every row on the closed form's period-doubling curve.
  const double worst = test_support::check_rows_against_closed_form(curve, p, "d", 1, false);
  std::ostringstream line;
  line << std::setprecision(12) << "period-doubling curve (eta, d) from eta = " << p.eta << ": "
       << curve.rows.size() << " rows, ends at a grazing at eta = " << end.first
       << ", d = " << end.second << " (closed form " << eta_star << ", " << d_star
       << std::setprecision(3) << "; deviations " << end.first - eta_star << ", "
       << end.second - d_star << ", estimate " << end.error_estimate
       << "); rows: max |eta - closed form| = " << worst << ", " << seconds << " CPU s";
  WARN(line.str());
  // The extrapolation's own estimate is of order 1e-13 and the rows agree with the closed
  // form to 1e-10: the located point within 1e-10 (it is 3e-12 and 1e-15 from it).
  CHECK(std::abs(end.first - eta_star) <= 1e-10);
  CHECK(std::abs(end.second - d_star) <= 1e-10 * std::abs(d_star));
}
