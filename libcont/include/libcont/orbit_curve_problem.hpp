#pragma once
// Two-parameter continuation of codimension-one points of periodic orbits (doc/theory.md,
// 6.4): what the extended zero problems of fold_curve_problem.hpp,
// period_doubling_curve_problem.hpp and neimark_sacker_curve_problem.hpp share. The unknown
// is u = (x, p2, a): x a point of a z = p/n orbit on the stroboscopic section t = phase
// (mod T), p2 the second parameter, a the auxiliary unknowns of the subclass (none for a
// fold or a period doubling; kappa = cos theta, with two conditions, for a Neimark-Sacker
// curve);
// lambda is the first parameter p1. The equations are
//     P^n(x; p1, p2) - x = 0,   c(M, a) = 0,
// M = D_x P^n the saltation-corrected monodromy and c the subclass's 1 + dim(a) conditions
// (minimally augmented test functions, bordered_test_function.hpp): the pseudo-arclength
// engine (pseudo_arclength.hpp) continues the curve in (p1, p2) with its own step control.
// Derivatives: D_x P^n - I from the tangent flow; D_p P^n, and the changes dM of the
// monodromy along every unknown that the conditions' derivatives need (the only second
// derivatives of the map they involve), from central differences of maps with the
// tangent flow, 2 (n + 2) of them per evaluation; c's derivatives in a analytically.
// Like PeriodicOrbitProblem the section follows the curve (recenter) when an event comes
// within recenter_clearance periods of it, and the borders of the test functions are
// refitted there, or where the null vectors have turned away from them (fit below
// border_refit). The curve stays within [second_min, second_max] in p2 (beyond_range says
// where it leaves), and stops short of a grazing of hard impacts (the Boundary test
// "grazing-distance"), where pass_boundary locates the grazing as a codimension-two point
// (orbit_curve.hpp).
#include <complex>
#include <vector>

#include <optional>
#include <string>
#include <vector>

#include "libcont/grazing.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/zero_problem.hpp"

namespace libcont {

// Sets p1 and p2 of a curve's point; false, with the system's message in `failure`, where the
// system refuses either (the value it had stays).
bool set_curve_point(HybridSystem& system, const std::string& first, double p1,
                     const std::string& second, double p2, std::string& failure);

// A curve's last point on a bound of one of its unknowns: unknown `fixed` of (u, lambda)
// (u's index, or u's size for lambda) set to `bound` between `last` (inside) and `beyond`
// (outside), the others by Newton from the two points' interpolation, to |F| <= tolerance
// (1 + |u|). `landed` takes `beyond`'s other fields; false if Newton fails.
bool land_on_bound(ZeroProblem& problem, int fixed, const BranchPoint& last,
                   const BranchPoint& beyond, double bound, double tolerance,
                   BranchPoint& landed);

class OrbitCurveProblem : public ZeroProblem {
 public:
  OrbitCurveProblem(HybridSystem& system, std::string first, std::string second, int period,
                    FlowOptions flow = {}, double phase = 0.0);

  int dimension() const override;
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override;
  // F from one map with the tangent flow (the conditions need M), no differences.
  bool residual(ConstVectorRef u, double lambda, Vector& residual) override;
  bool valid_parameter(double lambda) override;
  // The subclass's own tests, then "impact-signature" (ValueChange) and "grazing-distance"
  // (Boundary, as PeriodicOrbitProblem's).
  std::vector<TestFunction> test_functions() const override;
  Vector test_values(ConstVectorRef u, double lambda) override;
  // "impacts", "slowest_impact", "min_gap", "section_clearance" (forcing periods),
  // "border_fit", then the Floquet multipliers by decreasing modulus "mu<k>:re", "mu<k>:im".
  std::vector<std::string> point_data_names() const override;
  Vector point_data(ConstVectorRef u, double lambda) override;
  bool recenter(Vector& u, double lambda, ConstVectorRef data, Vector& tangent) override;
  double chart() const override { return map_.phase(); }
  void set_chart(double chart) override { map_.set_phase(chart); }
  // True where p2 lies outside [second_min, second_max]: the curve ends there
  // (orbit_curve.hpp puts its last row on the bound).
  bool beyond_range(ConstVectorRef u, double lambda, std::string& why) override;
  // The grazing the curve stopped short of: approached in the grazing coordinate and
  // located by extrapolation to it (orbit_curve_grazing.cpp); the curve ends there
  // (BoundaryPassage::located, never crossed). A walk that leaves the range of p2 or p1
  // before the grazing ends the curve on that bound instead (BoundaryPassage::reached_bound).
  BoundaryPassage pass_boundary(int test, const BranchPoint& last,
                                const BoundarySettings& settings) override;

  // The conditions c(M, a) at u (the map evaluated there), with the current borders.
  bool condition_values(ConstVectorRef u, double lambda, Vector& values);
  // Refits the borders at (u, lambda) (evaluated there): before a curve starts.
  bool refit_borders(ConstVectorRef u, double lambda);
  // The error estimate of the last grazing pass_boundary located: the difference in p1 of
  // two successive extrapolation orders.
  double grazing_error() const { return grazing_error_; }

  int state_dimension() const { return system_.dimension(); }
  int period() const { return period_; }
  const std::string& first() const { return first_; }
  const std::string& second() const { return second_; }
  const HybridSystem& system() const { return system_; }
  const std::string& failure() const { return failure_; }
  // Of the last evaluation.
  const Matrix& monodromy() const { return monodromy_; }
  const OrbitMeasures& measures() const { return measures_; }
  // Of the last evaluate(): the orbit's approach nearest to grazing (none if it has none) and
  // the derivatives of its value (|v_r| or the gap) along (u, lambda).
  const std::optional<ContactApproach>& approach() const { return approach_; }
  const Vector& approach_slope() const { return approach_slope_; }

  double second_min = -1e300, second_max = 1e300;
  // Central differences: the step of a state component is difference_step times the
  // state's largest component, that of parameter p difference_step (|p| + scale_p)
  // (trace_orbit_curve sets the scales to the sizes of the parameters' ranges), shortened
  // where it changes the orbit's approach nearest to grazing by more than
  // approach_step_fraction of its value (near a grazing impact the map's derivatives vary
  // on the scale of the squared impact speed).
  double difference_step = 1e-6;
  double approach_step_fraction = 1e-3;
  double first_scale = 1.0, second_scale = 1.0;
  bool moving_section = true;
  double recenter_clearance = 1.0 / 16.0;
  double border_refit = 0.9;
  // How pass_boundary approaches a grazing (grazing.hpp): the grazing coordinate walks
  // down from where the engine stopped by `ratio` per orbit to smallest_distance.
  GrazingPassageOptions grazing;

 protected:
  // The subclass: its auxiliary unknowns, its conditions (1 + auxiliary_count() of them),
  // their change along dM (unknowns fixed otherwise) and along each auxiliary unknown, the
  // refit of its borders, how well they fit, and its own test functions.
  virtual int auxiliary_count() const { return 0; }
  virtual bool conditions(const Matrix& m, ConstVectorRef auxiliary, VectorRef values) = 0;
  virtual void condition_change(const Matrix& m, const Matrix& dm, ConstVectorRef auxiliary,
                                VectorRef change) const = 0;
  virtual void auxiliary_derivatives(const Matrix& /*m*/, ConstVectorRef /*auxiliary*/,
                                     MatrixRef /*derivatives*/) const {}
  virtual void refit(const Matrix& m, ConstVectorRef auxiliary) = 0;
  virtual double fit() const = 0;
  virtual std::vector<TestFunction> own_tests() const { return {}; }
  virtual Vector own_test_values(ConstVectorRef /*u*/, double /*lambda*/) { return Vector(); }

  // The Floquet multipliers held in a point's point_data(), from its entry kMultipliersAt
  // (after the five named before them).
  static constexpr Eigen::Index kMultipliersAt = 5;
  static std::vector<std::complex<double>> multipliers_in(ConstVectorRef data);
  // Sets p1 = lambda and p2 = u[n]; false (failure() says why) where the system refuses.
  bool set_point(ConstVectorRef u, double lambda);
  // P^n(x) at (u, lambda), with the tangent flow if asked for.
  bool map_at(ConstVectorRef u, double lambda, bool jacobian, MapEvaluation& e);
  HybridSystem& system_;
  StroboscopicMap map_;

 private:
  double step_of(int unknown, ConstVectorRef u, double lambda) const;
  // The section to the orbit's quietest stretch (u and the tangent carried there); false
  // if it stays.
  bool move_section(Vector& u, double lambda, Vector& tangent);
  // The time `to` of a section at least twice as clear as the present one; false if none.
  bool quieter_section(ConstVectorRef u, double lambda, double& to);
  // u and a tangent (or any derivative of u and lambda along the curve) on the section at
  // `to`, the section itself kept.
  bool carry_to(double to, Vector& u, double lambda, Vector& tangent);
  bool follow(ConstVectorRef x, double to, Vector& image, Matrix* phi);
  double grazing_distance_of(const OrbitMeasures& measures) const;
  // In `measures`, the approach of the last evaluation's tracked one (its type, within a
  // quarter period of its time); none if it is gone.
  std::optional<ContactApproach> approach_in(const OrbitMeasures& measures) const;

  std::string first_, second_;
  int period_;
  FlowOptions flow_;
  Matrix monodromy_;
  OrbitMeasures measures_;
  std::string failure_;
  double grazing_error_ = 0.0;
  // Of the last evaluate(): the approach nearest to grazing and its value's derivatives
  // along (u, lambda).
  std::optional<ContactApproach> approach_;
  Vector approach_slope_;
};

}  // namespace libcont
