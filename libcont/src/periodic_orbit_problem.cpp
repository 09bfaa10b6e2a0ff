#include "libcont/periodic_orbit_problem.hpp"

#include <cmath>
#include <complex>
#include <limits>

#include "libcont/grazing.hpp"
#include "libcont/grazing_passage.hpp"
#include "libcont/input_error.hpp"
#include "libcont/minimal_period.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

namespace {

// The step of the forward differences in lambda (evaluate() says why this size).
double lambda_step(double lambda) { return 1e-6 * (1.0 + std::abs(lambda)); }

// The map's flow options: dx/dlambda carried beside the tangent where the model gives the
// derivatives.
FlowOptions with_parameter_column(FlowOptions flow, const std::string& parameter, bool carried) {
  if (carried) flow.parameter_column = parameter;
  return flow;
}

}  // namespace

PeriodicOrbitProblem::PeriodicOrbitProblem(HybridSystem& system, std::string parameter,
                                           int period, FlowOptions flow, double phase)
    : system_(system), parameter_(std::move(parameter)), period_(period), flow_(flow),
      column_available_(derivative_parameter(system, parameter_) >= 0),
      map_(system, with_parameter_column(flow, parameter_, column_available_), phase) {
  if (period_ < 1) throw InputError("orbit period n must be >= 1");
  (void)system_.parameters()[parameter_];  // InputError naming an unknown parameter
}

bool PeriodicOrbitProblem::set_lambda(double lambda) {
  try {
    system_.set_parameter(parameter_, lambda);
    return true;
  } catch (const InputError& e) {
    failure_ = e.what();  // e.g. the branch walked out of the parameter's valid range
    return false;
  }
}

bool PeriodicOrbitProblem::evaluate(ConstVectorRef u, double lambda, Vector& residual,
                                    Matrix& du, Vector& dlambda) {
  ++statistics_.evaluations;
  const Eigen::Index n = u.size();
  if (column_available_ && dlambda_by_column) {
    // F and both derivatives from one map: dx/dlambda integrated beside the tangent.
    last_residual_.valid = false;
    if (!set_lambda(lambda)) return false;
    const MapEvaluation e = map_.iterate(u, period_, true);
    if (!take_jacobians(e)) return false;
    residual = e.x - u;
    du = e.jacobian - Matrix::Identity(n, n);
    dlambda = e.parameter_derivative;
    return true;
  }
  // Otherwise: a forward difference in lambda between two maps without the tangent flow
  // (their integration errors are alike and largely cancel; the tangent flow's own steps
  // would not). The step balances truncation (h |F_ll| / 2) against the flow's integration
  // error (relative 1e-11, divided by h), near 1e-6 relative as for a central difference,
  // which would cost one more map. dF/dlambda only enters the Newton matrix and the
  // tangent: a fold is located where the tangent's lambda component changes sign, and
  // lambda there is second-order insensitive to it. The map at (u, lambda) itself is
  // usually the one the corrector's last residual() computed.
  double h = difference_step(lambda);
  Vector image;
  const bool reuse = last_residual_.valid && last_residual_.lambda == lambda && last_residual_.u == u;
  last_residual_.valid = false;
  if (reuse) image = last_residual_.image;
  if (!set_lambda(lambda) || (!reuse && !plain_map(u, image))) return false;
  const MapEvaluation e = map_.iterate(u, period_, true);
  if (!take_jacobians(e)) return false;
  // Near a grazing F has a square root in the grazing contact's depth, which scales like
  // the square of its grazing distance: the step shrinks with that square, and until the
  // shifted map has the same impacts.
  const double distance = grazing_distance_of(measures_);
  if (distance < 0.5) h *= std::max(4.0 * distance * distance, 1e-6);
  MapEvaluation forward;
  for (int shorter = 0;; ++shorter) {
    if (!set_lambda(lambda + h) || !plain_pass(u, forward)) return false;
    if (contact_signature(forward.measures) == contact_signature(measures_) || shorter == 6) break;
    h *= 0.1;
  }
  if (!set_lambda(lambda)) return false;
  residual = image - u;
  du = e.jacobian - Matrix::Identity(n, n);
  dlambda = (forward.x - image) / h;
  return true;
}

bool PeriodicOrbitProblem::take_jacobians(const MapEvaluation& e) {
  ++statistics_.jacobian_maps;
  statistics_.steps += e.report.steps;
  if (!e.ok()) {
    failure_ = e.report.message;
    return false;
  }
  monodromy_ = e.jacobian;
  measures_ = e.measures;
  return true;
}

bool PeriodicOrbitProblem::residual(ConstVectorRef u, double lambda, Vector& residual) {
  ++statistics_.residuals;
  last_residual_.valid = false;
  if (!set_lambda(lambda)) return false;
  map_.set_residual_tolerance(flow_.relative_tolerance * residual_tolerance_factor);
  MapEvaluation pass = map_.residual_image(u, period_);
  if (!count_plain(pass)) return false;
  residual = pass.x - u;
  // Kept for evaluate()'s difference in lambda only at the map's own accuracy, that of
  // the difference's other map.
  if (map_.residual_is_image()) last_residual_ = {true, u, lambda, std::move(pass.x)};
  return true;
}

double PeriodicOrbitProblem::grazing_distance_of(const OrbitMeasures& measures) const {
  // An orbit that sticks has a map that absorbs perturbations (sticking resets the state),
  // without the square-root singularity at a grazing: its impact count may change in a
  // step, located by bisection as for soft contacts.
  const GrazingScales scales = grazing_scales(measures, system_.forcing_period());
  const auto nearest = nearest_grazing(measures, scales);
  return nearest && !measures.sticks ? grazing_distance(*nearest, scales)
                                     : std::numeric_limits<double>::infinity();
}

double PeriodicOrbitProblem::difference_step(double lambda) {
  // Backwards at the upper end of the parameter's valid range (r = 1).
  const double h = lambda_step(lambda);
  return valid_parameter(lambda + h) ? h : -h;
}

bool PeriodicOrbitProblem::valid_parameter(double lambda) {
  const double current = system_.parameters()[parameter_];
  const bool valid = set_lambda(lambda);
  set_lambda(current);
  return valid;
}

BoundaryPassage PeriodicOrbitProblem::pass_boundary(int test, const BranchPoint& last,
                                                    const BoundarySettings& settings) {
  if (test != GrazingDistance) return {};
  return pass_grazing(*this, last, settings, grazing);
}

bool PeriodicOrbitProblem::measure(ConstVectorRef u, double lambda, OrbitMeasures& measures) {
  MapEvaluation pass;
  if (!set_lambda(lambda) || !plain_pass(u, pass)) return false;
  measures = std::move(pass.measures);
  return true;
}

bool PeriodicOrbitProblem::plain_pass(ConstVectorRef u, MapEvaluation& pass) {
  pass = map_.iterate(u, period_, false);
  return count_plain(pass);
}

bool PeriodicOrbitProblem::plain_map(ConstVectorRef u, Vector& image) {
  MapEvaluation pass = map_.image(u, period_);
  if (!count_plain(pass)) return false;
  image = std::move(pass.x);
  return true;
}

bool PeriodicOrbitProblem::count_plain(const MapEvaluation& pass) {
  ++statistics_.plain_maps;
  statistics_.steps += pass.report.steps;
  if (pass.ok()) return true;
  failure_ = pass.report.message;
  return false;
}

std::vector<TestFunction> PeriodicOrbitProblem::test_functions() const {
  return {{"period-doubling", TestFunction::Kind::SignChange, SpecialPointType::PeriodDoubling},
          {"neimark-sacker", TestFunction::Kind::SignChange, SpecialPointType::NeimarkSacker},
          {"impact-signature", TestFunction::Kind::ValueChange, SpecialPointType::ImpactSignature},
          {"grazing-distance", TestFunction::Kind::Boundary, SpecialPointType::Grazing},
          {"contact-gap", TestFunction::Kind::Approach, SpecialPointType::Grazing},
          {"contact-entry", TestFunction::Kind::Approach, SpecialPointType::Grazing}};
}

Vector PeriodicOrbitProblem::test_values(ConstVectorRef, double) {
  const FloquetMultipliers f = floquet_multipliers(monodromy_);
  const auto& mu = f.multipliers;
  std::complex<double> flip = 1.0, torus = 1.0;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    flip *= mu[i] + 1.0;
    for (Eigen::Index j = i + 1; j < mu.size(); ++j) torus *= mu[i] * mu[j] - 1.0;
  }
  const double distance = grazing_distance_of(measures_);
  const GrazingScales scales = grazing_scales(measures_, system_.forcing_period());
  const double entry = measures_.slowest_contact_entry / scales.speed;
  Vector values(6);
  values << flip.real(), torus.real(), static_cast<double>(contact_signature(measures_)), distance,
      measures_.contact_gap / scales.length, entry * entry;
  return values;
}

std::vector<std::string> PeriodicOrbitProblem::point_data_names() const {
  std::vector<std::string> names;
  const std::vector<std::string> state = system_.state_names();
  for (const int coordinate : system_.displacement_coordinates())
    names.push_back("A_max:" + state[static_cast<size_t>(coordinate)]);
  for (const char* name :
       {"impacts", "spectral_radius", "min_gap", "slowest_impact", "section_clearance"})
    names.emplace_back(name);
  for (int k = 1; k <= system_.dimension(); ++k) {
    names.push_back("mu" + std::to_string(k) + ":re");
    names.push_back("mu" + std::to_string(k) + ":im");
  }
  return names;
}

Vector PeriodicOrbitProblem::point_data(ConstVectorRef, double) {
  const FloquetMultipliers f = floquet_multipliers(monodromy_);
  const auto amplitudes = static_cast<Eigen::Index>(measures_.coordinates.size());
  const Eigen::Index m = f.multipliers.size();
  const double period = system_.forcing_period();
  const Eigen::Index multipliers = clearance_column() + 1;
  Vector data(multipliers + 2 * m);
  for (Eigen::Index k = 0; k < amplitudes; ++k)
    data[k] = measures_.semi_amplitude(static_cast<size_t>(k));
  data.segment(amplitudes, multipliers - amplitudes) << measures_.impacts, f.spectral_radius,
      measures_.minimum_gap, measures_.slowest_impact,
      section_clearance(measures_.event_times, map_.phase(), period) / period;
  for (Eigen::Index k = 0; k < m; ++k) {
    data[multipliers + 2 * k] = f.multipliers[k].real();
    data[multipliers + 1 + 2 * k] = f.multipliers[k].imag();
  }
  return data;
}

// Where point_data() puts "section_clearance": after the amplitudes and four measures.
Eigen::Index PeriodicOrbitProblem::clearance_column() const {
  return static_cast<Eigen::Index>(system_.displacement_coordinates().size()) + 4;
}

bool PeriodicOrbitProblem::recenter(Vector& u, double lambda, ConstVectorRef data,
                                    Vector& tangent) {
  const Eigen::Index column = clearance_column();
  if (!moving_section || data.size() <= column || !(data[column] < recenter_clearance) ||
      !set_lambda(lambda))
    return false;
  // The orbit's events over one pass, and the quietest section among them.
  MapEvaluation pass;
  if (!plain_pass(u, pass)) return false;
  const double period = system_.forcing_period();
  const SectionPlacement quiet = quietest_section(pass.measures.event_times, period);
  if (quiet.clearance < 2.0 * section_clearance(pass.measures.event_times, map_.phase(), period))
    return false;  // no section much quieter: moving would not pay
  // Forward to the new section (its phase grows: sections are absolute times, and the
  // period may depend on lambda). u maps by the flow, the tangent by its derivatives:
  // Phi for the u-part, a forward difference between plain flows for the lambda-part.
  const double to = map_.phase() + forward_shift(map_.phase(), quiet.phase, period);
  const double h = difference_step(lambda);
  Vector x, plain, forward;
  Matrix phi;
  const bool followed = follow_to(u, to, x, &phi) && follow_to(u, to, plain, nullptr) &&
                        set_lambda(lambda + h) && follow_to(u, to, forward, nullptr);
  if (!set_lambda(lambda) || !followed) return false;
  const Eigen::Index n = u.size();
  const Vector mapped = phi * tangent.head(n) + ((forward - plain) / h) * tangent[n];
  tangent.head(n) = mapped;
  u = x;
  set_phase(to);
  return true;
}

int PeriodicOrbitProblem::minimal_period_of(const BranchPoint& point) {
  return period_of(point).period;
}

const PeriodicOrbitProblem::PeriodOf& PeriodicOrbitProblem::period_of(const BranchPoint& point) {
  // The period is the orbit's, whatever the section; the half-lap difference is taken on
  // the point's own section (only an even period has one).
  const bool needs_section = period_ % 2 == 0;
  for (const PeriodOf& known : periods_of_)
    if (known.period > 0 && known.lambda == point.lambda &&
        (!needs_section || known.chart == point.chart))
      return known;
  // The engine goes on from the point it converged to (recenter follows the orbit at the
  // system's current parameter): section and parameter are put back afterwards.
  const double phase = map_.phase();
  const double lambda = system_.parameters()[parameter_];
  newest_period_ = 1 - newest_period_;
  PeriodOf& entry = periods_of_[static_cast<size_t>(newest_period_)];
  entry = {point.lambda, point.chart, period_, Vector()};
  if (set_lambda(point.lambda)) {
    set_phase(point.chart);
    entry.period = minimal_period(map_, point.u, period_, 1e-6, &entry.half_lap);
    set_phase(phase);
    set_lambda(lambda);
  }
  return entry;
}

bool PeriodicOrbitProblem::same_family(const BranchPoint& from, const BranchPoint& to,
                                       std::string& why) {
  if (period_ == 1) return true;
  const PeriodOf& reached = period_of(to);
  const int shorter = reached.period;
  if (shorter < period_) {
    if (period_of(from).period < period_) return true;
    why = "at " + parameter_ + " = " + number_text(to.lambda) + " the step reached an orbit that " +
          "closes after " + std::to_string(shorter) + " of the branch's " +
          std::to_string(period_) + " forcing periods: the branch met the orbit of period " +
          std::to_string(shorter) + " (traversed " + std::to_string(period_ / shorter) +
          " times), where it ends";
    return false;
  }
  if (period_ % 2 != 0 || from.chart != to.chart) return true;
  // A miss on `from` fills the other slot: `reached` stands. From an orbit that closes
  // sooner (the birth of a doubled branch) the step only leaves it: its half-lap
  // difference is rounding, and its direction says nothing about halves.
  const PeriodOf& left = period_of(from);
  if (left.period < period_ || !laps_swapped(left.half_lap, reached.half_lap)) return true;
  why = "between " + parameter_ + " = " + number_text(from.lambda) + " and " +
        number_text(to.lambda) + " the step passed the orbit of period " +
        std::to_string(period_ / 2) + ": the orbit's halves swapped, and beyond it the " +
        "branch would trace its orbits again, started " + std::to_string(period_ / 2) +
        " periods later; it ends there";
  return false;
}

void PeriodicOrbitProblem::set_phase(double phase) {
  map_.set_phase(phase);
  last_residual_.valid = false;
}

bool PeriodicOrbitProblem::follow_to(ConstVectorRef u, double to, Vector& x, Matrix* phi) {
  FlowOptions options = flow_;
  options.tangent = phi != nullptr;
  Flow flow(system_, options);
  FlowState state = flow.initial_state(map_.phase(), u);
  const FlowReport report = flow.advance(state, to);
  statistics_.steps += report.steps;
  if (report.status != FlowStatus::Success) {
    failure_ = report.message;
    return false;
  }
  x = state.x;
  if (phi) *phi = state.tangent;
  return true;
}

bool PeriodicOrbitProblem::grazing_at(ConstVectorRef u, double lambda) {
  Vector residual, dlambda;
  Matrix du;
  if (!evaluate(u, lambda, residual, du, dlambda)) return false;
  // Scales: the orbit's extent and its speed across it over one forcing period.
  double extent = 0.0;
  for (size_t k = 0; k < measures_.coordinates.size(); ++k)
    extent = std::max(extent, measures_.maximum[static_cast<Eigen::Index>(k)] -
                                  measures_.minimum[static_cast<Eigen::Index>(k)]);
  const double speed = extent / system_.forcing_period();
  const bool slow_impact = slowest_grazing_impact(measures_) <= grazing_tolerance * speed;
  const bool touching = std::abs(measures_.minimum_gap) <= grazing_tolerance * extent;
  return slow_impact || touching;
}

namespace {

bool is_complex(std::complex<double> mu) { return std::abs(mu.imag()) > 1e-9 * std::abs(mu); }

}  // namespace

PeriodicOrbitProblem::OutsideCount PeriodicOrbitProblem::multipliers_outside(
    ConstVectorRef data) const {
  OutsideCount count;
  const Eigen::Index first = clearance_column() + 1, m = system_.dimension();
  if (data.size() != first + 2 * m) return count;
  count.known = true;
  for (Eigen::Index k = 0; k < m; ++k) {
    const std::complex<double> mu(data[first + 2 * k], data[first + 2 * k + 1]);
    if (std::abs(mu) <= 1.0) continue;
    ++count.all;
    if (!is_complex(mu)) ++(mu.real() > 0.0 ? count.real_positive : count.real_negative);
  }
  return count;
}

std::optional<SpecialPointType> PeriodicOrbitProblem::classify(int test, ConstVectorRef u,
                                                               double lambda) {
  if (test == PeriodDoubling) return SpecialPointType::PeriodDoubling;
  if (test == ImpactSignature)
    return grazing_at(u, lambda) ? SpecialPointType::Grazing : SpecialPointType::ImpactSignature;
  // prod (mu_i mu_j - 1) also vanishes for two real multipliers with product 1 (a
  // neutral saddle): only a complex pair on the unit circle is a Neimark-Sacker point.
  Vector residual, dlambda;
  Matrix du;
  if (!evaluate(u, lambda, residual, du, dlambda)) return std::nullopt;
  for (const auto& mu : floquet_multipliers(monodromy_).multipliers)
    if (is_complex(mu) && std::abs(std::abs(mu) - 1.0) < 1e-4) return SpecialPointType::NeimarkSacker;
  return std::nullopt;
}

void PeriodicOrbitProblem::describe(int test, const RecordedPoint& before,
                                    const RecordedPoint& after, SpecialPoint& point) {
  const Eigen::Index impacts = clearance_column() - 4;  // after the amplitudes
  if (test != ImpactSignature || point.type != SpecialPointType::Grazing ||
      before.data.size() <= impacts || after.data.size() <= impacts)
    return;
  // Approached from the side without the new contact: its gap closed; from the other side:
  // the contact's speed went to zero.
  const double p_before = before.data[impacts], p_after = after.data[impacts];
  point.set_grazing_kind(p_after < p_before    ? GrazingKind::ImpactVelocity
                         : p_before == 0.0 ? GrazingKind::NonImpactingGap
                                           : GrazingKind::InteriorTangency);
}

std::optional<SpecialPointType> PeriodicOrbitProblem::classify(int test,
                                                               const RecordedPoint& before_point,
                                                               const RecordedPoint& after_point) {
  const OutsideCount before = multipliers_outside(before_point.data);
  const OutsideCount after = multipliers_outside(after_point.data);
  if (test == PeriodDoubling) {
    // A real multiplier through -1: one more (or fewer) real negative one outside, the real
    // positive ones unchanged. det(M + I) changes sign as well where a real multiplier runs
    // through infinity from + to - (a pole of the monodromy, at a grazing the bracket
    // passed without seeing it): no period doubling.
    const bool through_minus_one = std::abs(after.real_negative - before.real_negative) == 1 &&
                                   after.real_positive == before.real_positive;
    if (before.known && after.known && !through_minus_one) return std::nullopt;
    return SpecialPointType::PeriodDoubling;
  }
  if (test == ImpactSignature)
    return grazing_at(before_point.u, before_point.lambda) ||
                   grazing_at(after_point.u, after_point.lambda)
               ? SpecialPointType::Grazing
               : SpecialPointType::ImpactSignature;
  // A complex pair through the unit circle: two more (or fewer) multipliers outside, the
  // real ones outside unchanged. A complex pair outside that turns into a real pair, or
  // a neutral saddle (mu, 1/mu), changes neither count.
  const bool pair_crossed = std::abs(after.all - before.all) == 2 &&
                            after.real_positive == before.real_positive &&
                            after.real_negative == before.real_negative;
  if (before.known && after.known && pair_crossed) return SpecialPointType::NeimarkSacker;
  return std::nullopt;
}

}  // namespace libcont
