#pragma once
// Two-parameter curves of codimension-one points of periodic orbits, started from a special
// point of a one-parameter branch (orbit_branch.hpp): a fold, a period doubling or a
// Neimark-Sacker point of a branch in p1 is continued in (p1, p2) as the zero set of an
// extended problem (fold_curve_problem.hpp, period_doubling_curve_problem.hpp,
// neimark_sacker_curve_problem.hpp) by the pseudo-arclength engine, and a grazing of a
// non-impacting orbit as the curve of tangencies (grazing_curve_problem.hpp). The curve's
// rows carry both parameters, the orbit's point, the auxiliary unknowns (kappa = cos theta
// of a Neimark-Sacker curve, the touching time of a grazing curve), the test values and the
// multipliers, and the codimension-two points met on the way are located (doc/theory.md,
// 6.4):
//   fold curve              cusp, fold-flip
//   period-doubling curve   fold-flip
//   Neimark-Sacker curve    resonance-1:1, resonance-1:2, resonance-1:3, resonance-1:4
//                           (kappa = 1, -1, -1/2, 0)
//   fold, PD and NS curves  grazing: the curve runs into a grazing of a hard impact of its
//                           orbit (the slowest impact's speed or a gap minimum reaches
//                           zero), where it ends
//   every curve             turning-point: the curve turns back in p1 (at a cusp it turns
//                           in both parameters)
// Example (tests/test_orbit_curves.cpp):
//   const libcont::OrbitBranch branch = libcont::trace_orbit_branch(system, orbit, {"omega", 1.6, 2.2});
//   for (const auto& s : branch.special_points)
//     if (s.type == libcont::SpecialPointType::PeriodDoubling)
//       auto curve = libcont::trace_orbit_curve(system, branch, s, {"d", -0.004, -0.002, 1.6, 2.2});
#include <complex>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcont/orbit_branch.hpp"

namespace libcont {

class GrazingCurveProblem;

enum class CurveKind { Fold, PeriodDoubling, NeimarkSacker, Grazing };
// "fold", "period-doubling", "neimark-sacker", "grazing".
std::string to_string(CurveKind kind);

struct OrbitCurveOptions {
  OrbitCurveOptions() = default;
  OrbitCurveOptions(std::string second, double from, double to, double first_min,
                    double first_max)
      : second(std::move(second)), from(from), to(to), first_min(first_min),
        first_max(first_max) {}

  std::string second;           // p2, one of the system's parameters
  double from = 0.0, to = 0.0;  // its range: the curve leaves the start towards `to` and
                                // ends on the range's bounds
  double first_min = 0.0, first_max = 0.0;  // the range of p1 (the branch's parameter)
  int max_points = 500;
  // Arclength steps in (state, p2, p1 weighted by |to - from| / (first_max - first_min), so
  // that both parameters count alike): by default |to - from| / 100 (initial), / 20 (max),
  // * 1e-8 (min); special points to locate_tolerance in arclength (|to - from| * 1e-9).
  std::optional<double> initial_step, max_step, min_step, locate_tolerance;
  // |F| <= corrector_tolerance (1 + |u|) at every row (the engine's criterion).
  double corrector_tolerance = 1e-10;
  FlowOptions flow;
  // How a grazing at the end of a curve is approached (grazing.hpp).
  GrazingPassageOptions grazing;

  ContinuationOptions continuation() const;
  // Throws InputError naming the first field out of its range.
  void validate() const;
};

struct CurveRow {
  double first = 0.0, second = 0.0;  // p1, p2
  Vector x;                          // the orbit's point on the section t = phase (mod T)
  double phase = 0.0;
  Vector auxiliary;                  // the grazing curve's touching time after the section
                                     // (time units); empty on other curves
  Vector tests;                      // the problem's test values (OrbitCurve::test_names)
  int impacts = 0;
  double slowest_impact = 0.0;       // inf: no impact
  double min_gap = 0.0;              // inf: no gap minimum
  std::vector<std::complex<double>> multipliers;  // by decreasing modulus
};

// A codimension-two point of a curve (or a turning point of it in p1), located between
// rows after_row and after_row + 1 (the grazing at the end: after the last row).
struct CurvePoint {
  std::string type;  // "cusp", "fold-flip", "resonance-1:2", "grazing", "turning-point", ...
  double first = 0.0, second = 0.0;
  Vector x;
  double phase = 0.0;
  Vector auxiliary;
  Vector tests;
  std::vector<std::complex<double>> multipliers;
  int after_row = 0;
  double error_estimate = 0.0;  // a grazing's: of its p1 by extrapolation; 0 otherwise
};

struct OrbitCurve {
  CurveKind kind = CurveKind::Fold;
  std::string first, second;  // the parameters' names
  int period = 1;
  std::vector<std::string> test_names;
  std::vector<CurveRow> rows;
  std::vector<CurvePoint> points;
  ContinuationStatus status = ContinuationStatus::StartFailed;
  std::string stop_reason;
  std::string failure;  // a curve that stopped for a numerical reason: the last reason a map
                        // or test function could not be evaluated
  bool ok() const;
};

// From a special point of `branch` (Fold, PeriodDoubling, NeimarkSacker, or a Grazing of an
// orbit without impacts, kind NonImpactingGap), its state on its own section, at the
// system's other parameters as they are, with the period of curve_period; the system's p1
// and p2 are left where the last map was evaluated. A Neimark-Sacker curve takes kappa from the start's complex pair nearest to the
// unit circle. Throws InputError for bad options, an unknown parameter, p2 equal to the
// branch's parameter or a special point of another type.
OrbitCurve trace_orbit_curve(HybridSystem& system, const OrbitBranch& branch,
                             const SpecialPoint& point, const OrbitCurveOptions& options);
// The grazing curve's extended problem (grazing_curve_problem.hpp) of a z = p/`period` orbit
// on the section t = phase (mod T), with p1 = `first` and p2 = options.second, its range and
// scales as trace_orbit_curve sets them (differences on the scale of the ranges; the
// touching time in units of n T / |to - from|, so that the arclength weighs it like p2).
// The caller sets how the touch is flown (GrazingCurveProblem::find_tangency).
std::unique_ptr<GrazingCurveProblem> scaled_grazing_problem(HybridSystem& system,
                                                            const std::string& first, int period,
                                                            double phase,
                                                            const OrbitCurveOptions& options);

// The period n of the curve through `point` of a branch of z = p/`period` orbits in
// `parameter`: the branch's, except at the end of a branch born at the period doubling of a
// shorter orbit (orbit_merge.hpp, detail "merge"): for the branch's map the multiplier
// there is +1, not -1, and the period doubling and its curve are the shorter orbit's. Sets
// the parameter to the point's value.
int curve_period(HybridSystem& system, const std::string& parameter, int period,
                 const SpecialPoint& point, const FlowOptions& flow);
// From a point x of a z = p/n orbit (n = period) on the section t = phase (mod T) at
// p1 = first_value, near a special point of `kind` (corrected there first, at fixed p1).
OrbitCurve trace_orbit_curve(HybridSystem& system, CurveKind kind, const std::string& first,
                             double first_value, int period, double phase, ConstVectorRef x,
                             const OrbitCurveOptions& options);

}  // namespace libcont
