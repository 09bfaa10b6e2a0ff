#pragma once
// Periodic orbits of type z = p/n as a zero problem for continuation (doc/theory.md, 6):
// F(x, lambda) = P^n(x; lambda) - x on the stroboscopic section, lambda any named
// parameter of the system (forcing intensity, frequency eta, ...). dF/dx is the
// saltation-corrected monodromy minus identity; dF/dlambda is integrated with it where
// the model gives its derivatives in lambda (ParameterDerivatives::derivative_parameter; the
// flow's parameter column), else a forward difference of two maps.
// Test functions from the Floquet multipliers mu_i of the last evaluation:
//   period doubling   prod (mu_i + 1)               (a real multiplier through -1)
//   Neimark-Sacker    prod_{i<j} (mu_i mu_j - 1)     (a complex pair through |mu| = 1)
//   impact signature  p, the impacts along the orbit; where it changes along a branch an
//                     impact appears or vanishes with zero normal velocity or zero gap,
//                     i.e. at a grazing point (classified as such when the slowest impact
//                     or the smallest gap there is below grazing_tolerance of its scale)
//   grazing distance  the distance to grazing of the hard-impact approach nearest to it
//                     (grazing.hpp), a Boundary test: the engine stops short of a grazing
//                     of hard impacts, where the map is not differentiable, and
//                     grazing_passage.hpp goes through it
// The section follows the branch (recenter): when an event of the orbit comes within
// recenter_clearance periods of it, it moves to the middle of the orbit's longest
// event-free stretch (section_placement.hpp), so that the fixed point stays a smooth
// function of lambda. Each branch point records its section's phase as its chart.
#include <array>
#include <string>

#include "libcont/floquet.hpp"
#include "libcont/grazing.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/zero_problem.hpp"

namespace libcont {

class PeriodicOrbitProblem : public ZeroProblem {
 public:
  enum Test {
    PeriodDoubling = 0,
    NeimarkSacker = 1,
    ImpactSignature = 2,
    GrazingDistance = 3,
    ContactGap = 4,  // the smallest gap minimum before a soft contact, in the orbit's extent
    // The slowest entry into a soft contact, squared, in the orbit's speed scale: like the
    // contact's depth, linear in the parameter next to its grazing.
    ContactEntry = 5
  };

  PeriodicOrbitProblem(HybridSystem& system, std::string parameter, int period,
                       FlowOptions flow = {}, double phase = 0.0);

  int dimension() const override { return system_.dimension(); }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override;
  // P^n(x) - x by the map without the tangent flow.
  bool residual(ConstVectorRef u, double lambda, Vector& residual) override;
  std::vector<TestFunction> test_functions() const override;
  Vector test_values(ConstVectorRef u, double lambda) override;
  std::optional<SpecialPointType> classify(int test, ConstVectorRef u, double lambda) override;
  // Neimark-Sacker: a complex pair crossed the unit circle between the two sides (two
  // more or fewer multipliers outside, the real ones outside unchanged; from the
  // multipliers recorded in their data); grazing: either side has a grazing impact or a
  // touching gap.
  std::optional<SpecialPointType> classify(int test, const RecordedPoint& before,
                                           const RecordedPoint& after) override;
  // A grazing's kind from the impact counts on the two sides (grazing.hpp).
  void describe(int test, const RecordedPoint& before, const RecordedPoint& after,
                SpecialPoint& point) override;
  bool valid_parameter(double lambda) override;
  // Through a grazing of hard impacts (grazing_passage.hpp), with these settings.
  BoundaryPassage pass_boundary(int test, const BranchPoint& last,
                                const BoundarySettings& settings) override;
  GrazingPassageOptions grazing;
  // False where `to` closes after fewer forcing periods than n while `from` did not: the
  // branch met an orbit of a shorter period (minimal_period.hpp) and the step went on
  // along it.
  bool same_family(const BranchPoint& from, const BranchPoint& to, std::string& why) override;
  // The orbit's grazing scales and approaches at (u, lambda) from one pass without the
  // tangent flow (grazing_passage.hpp).
  bool measure(ConstVectorRef u, double lambda, OrbitMeasures& measures);
  // Per point: "A_max:<coordinate>" for each displacement coordinate, "impacts",
  // "spectral_radius", "min_gap", "slowest_impact", "section_clearance" (time from the
  // section to the orbit's nearest event, in forcing periods), then the Floquet multipliers by
  // decreasing modulus as "mu<k>:re", "mu<k>:im".
  std::vector<std::string> point_data_names() const override;
  Vector point_data(ConstVectorRef u, double lambda) override;
  // Moves the section when the point's section_clearance is below recenter_clearance
  // and a section at least twice as far from every event exists.
  bool recenter(Vector& u, double lambda, ConstVectorRef data, Vector& tangent) override;
  double chart() const override { return map_.phase(); }
  void set_chart(double chart) override { set_phase(chart); }
  bool chart_dependent(Eigen::Index column) const override { return column == clearance_column(); }
  double phase() const { return map_.phase(); }
  // Puts the section at t = phase (mod T): to evaluate a branch point on its own section,
  // its chart, after the section has moved on.
  void set_phase(double phase);
  // Whether the section may move (recenter); in forcing periods, the clearance below
  // which it does.
  bool moving_section = true;
  double recenter_clearance = 1.0 / 16.0;
  // dF/dlambda from the flow's parameter column where the model gives the derivatives
  // (no extra maps); false: the forward difference, for comparisons.
  bool dlambda_by_column = true;
  // The maps that give a residual alone (residual(): the corrector's chord iterates)
  // integrate at this times the flow's relative tolerance. An iterate's residual need only
  // be accurate to a fraction of the corrector's tolerance, which stays above 100 times
  // the flow's (ContinuationOptions::corrector_tolerance); the evaluation with the
  // Jacobians where the iterates converged, at the flow's own tolerance, checks the
  // convergence (PseudoArclength::correct_by_chord). 1: every map at the flow's tolerance.
  // Modes on the exact path have no tolerance: there it changes nothing.
  double residual_tolerance_factor = 10.0;
  // Whether the model gives them for this problem's parameter.
  bool column_available() const { return column_available_; }

  // Work done so far, for benchmarks: maps with and without the tangent flow (each n
  // forcing periods) and the CVODE steps they took.
  struct Statistics {
    long evaluations = 0;    // evaluate() calls (F with its Jacobians)
    long residuals = 0;      // residual() calls (F alone)
    long jacobian_maps = 0;  // map iterations with the tangent flow
    long plain_maps = 0;     // map iterations of the state alone
    long steps = 0;          // CVODE steps of all of them
  };
  const Statistics& statistics() const { return statistics_; }

  // Of the last evaluation.
  const Matrix& monodromy() const { return monodromy_; }
  int impacts() const { return measures_.impacts; }
  const OrbitMeasures& measures() const { return measures_; }
  // A grazing impact or gap: slower, or smaller, than this fraction of the orbit's scale.
  static constexpr double default_grazing_tolerance = 1e-3;
  double grazing_tolerance = default_grazing_tolerance;
  int period() const { return period_; }
  const HybridSystem& system() const { return system_; }
  const std::string& parameter() const { return parameter_; }
  const std::string& failure() const { return failure_; }
  // The minimal period of a recorded point's orbit, on its own section (the last one
  // computed is kept: a step's `from` is the step before's `to`).
  int minimal_period_of(const BranchPoint& point);

 private:
  bool set_lambda(double lambda);
  // A point's minimal period and half-lap difference (minimal_period), on its section.
  struct PeriodOf {
    double lambda = 0.0, chart = 0.0;
    int period = 0;
    Vector half_lap;
  };
  // The last two computed are kept: a step's `from` is the step before's `to`, possibly
  // on a moved section.
  const PeriodOf& period_of(const BranchPoint& point);
  std::array<PeriodOf, 2> periods_of_;
  int newest_period_ = 0;
  // The step of a difference in lambda: forwards, or backwards where forwards leaves the
  // parameter's valid range.
  double difference_step(double lambda);
  // The Boundary test's value: the grazing distance of the approach nearest to grazing.
  double grazing_distance_of(const OrbitMeasures& measures) const;
  bool plain_pass(ConstVectorRef u, MapEvaluation& pass);  // P^n(u), counted
  // P^n(u) at the current lambda, the image alone (StroboscopicMap::image), counted.
  bool plain_map(ConstVectorRef u, Vector& image);
  bool count_plain(const MapEvaluation& pass);  // its work; false (failure_) if it failed
  // Counts a map with the tangent flow and keeps its monodromy and measures.
  bool take_jacobians(const MapEvaluation& e);
  Eigen::Index clearance_column() const;
  // The orbit's point x on the section t = to from its point u on the current section
  // (a forward flow at the current lambda), with Phi = dx/du if asked for.
  bool follow_to(ConstVectorRef u, double to, Vector& x, Matrix* phi);
  // Each evaluates the orbit at (u, lambda) first.
  bool grazing_at(ConstVectorRef u, double lambda);
  struct OutsideCount {  // multipliers outside the unit circle
    bool known = false;
    int all = 0, real_positive = 0, real_negative = 0;
  };
  // From a point's data (point_data()); not known if they hold no multipliers.
  OutsideCount multipliers_outside(ConstVectorRef data) const;

  HybridSystem& system_;
  std::string parameter_;
  int period_;
  FlowOptions flow_;
  bool column_available_;
  StroboscopicMap map_;
  Matrix monodromy_;
  OrbitMeasures measures_;
  std::string failure_;
  Statistics statistics_;
  // The map of the last residual(): evaluate() right after it at the same point (where
  // the corrector converged) uses it again instead of integrating once more.
  struct PlainMap {
    bool valid = false;
    Vector u;
    double lambda = 0.0;
    Vector image;
  } last_residual_;
};

}  // namespace libcont
