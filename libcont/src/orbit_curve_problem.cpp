#include "libcont/orbit_curve_problem.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "libcont/floquet.hpp"
#include "libcont/input_error.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

OrbitCurveProblem::OrbitCurveProblem(HybridSystem& system, std::string first, std::string second,
                                     int period, FlowOptions flow, double phase)
    : system_(system), map_(system, flow, phase), first_(std::move(first)),
      second_(std::move(second)), period_(period), flow_(flow) {
  if (period_ < 1) throw InputError("orbit period n must be >= 1");
  if (first_ == second_)
    throw InputError("the two parameters of a curve must differ, both are '" + first_ + "'");
  (void)system_.parameters()[first_];  // InputError naming an unknown parameter
  (void)system_.parameters()[second_];
}

int OrbitCurveProblem::dimension() const { return system_.dimension() + 1 + auxiliary_count(); }

bool set_curve_point(HybridSystem& system, const std::string& first, double p1,
                     const std::string& second, double p2, std::string& failure) {
  try {
    system.set_parameter(first, p1);
    system.set_parameter(second, p2);
    return true;
  } catch (const InputError& e) {
    failure = e.what();
    return false;
  }
}

bool OrbitCurveProblem::set_point(ConstVectorRef u, double lambda) {
  return set_curve_point(system_, first_, lambda, second_, u[system_.dimension()], failure_);
}

bool OrbitCurveProblem::map_at(ConstVectorRef u, double lambda, bool jacobian, MapEvaluation& e) {
  if (!set_point(u, lambda)) return false;
  e = map_.iterate(u.head(system_.dimension()), period_, jacobian);
  if (e.ok()) return true;
  failure_ = e.report.message;
  return false;
}

bool OrbitCurveProblem::valid_parameter(double lambda) {
  const double current = system_.parameters()[first_];
  bool valid = true;
  try {
    system_.set_parameter(first_, lambda);
  } catch (const InputError&) {
    valid = false;
  }
  system_.set_parameter(first_, current);
  return valid;
}

double OrbitCurveProblem::step_of(int unknown, ConstVectorRef u, double lambda) const {
  const int n = system_.dimension();
  if (unknown < n) {
    const double size = u.head(n).cwiseAbs().maxCoeff();
    return difference_step * (size > 0.0 ? size : 1.0);
  }
  if (unknown == n) return difference_step * (std::abs(u[n]) + second_scale);
  return difference_step * (std::abs(lambda) + first_scale);
}

bool OrbitCurveProblem::residual(ConstVectorRef u, double lambda, Vector& residual) {
  const int n = system_.dimension();
  MapEvaluation e;
  if (!map_at(u, lambda, true, e)) return false;
  residual.resize(dimension());
  residual.head(n) = e.x - u.head(n);
  if (conditions(e.jacobian, u.tail(auxiliary_count()), residual.tail(dimension() - n)))
    return true;
  failure_ = "the bordered matrix of the test function is singular";
  return false;
}

bool OrbitCurveProblem::condition_values(ConstVectorRef u, double lambda, Vector& values) {
  Vector all;
  if (!residual(u, lambda, all)) return false;
  values = all.tail(dimension() - system_.dimension());
  return true;
}

bool OrbitCurveProblem::evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                                 Vector& dlambda) {
  const int n = system_.dimension(), m = dimension(), k = m - n, aux = auxiliary_count();
  MapEvaluation center;
  if (!map_at(u, lambda, true, center)) return false;
  monodromy_ = center.jacobian;
  measures_ = center.measures;
  residual.resize(m);
  residual.head(n) = center.x - u.head(n);
  const Vector auxiliary = u.tail(aux);
  if (!conditions(monodromy_, auxiliary, residual.tail(k))) {
    failure_ = "the bordered matrix of the test function is singular";
    return false;
  }
  du = Matrix::Zero(m, m);
  dlambda.resize(m);
  du.topLeftCorner(n, n) = monodromy_ - Matrix::Identity(n, n);
  // Central differences along each state component, p2 and p1: dM for the conditions,
  // D_p P^n, and the change of the approach nearest to grazing (pass_boundary's row). Where
  // one side leaves a parameter's valid range (r = 1), the second-order one-sided difference
  // from the centre and two points on the other side.
  // Near a grazing impact the map has Nordmark's square-root singularity: its Jacobian grows
  // like 1/|v_r|, and |v_r|^2 is a smooth function of the unknowns that vanishes at the
  // grazing, so the map's derivatives change on the scale of |v_r|^2 in every unknown,
  // whatever its units. A difference step is therefore short enough when its maps change
  // the approach by at most a small fraction of itself (the truncation error is of the
  // order of that fraction squared); a longer one is shortened in proportion. A step whose
  // maps count other impacts than the centre's, or lose the approach, reaches across the
  // grazing, where the map is not differentiable: it is shortened tenfold.
  const double forcing_period = system_.forcing_period();
  approach_.reset();
  if (!measures_.sticks)
    approach_ = nearest_grazing(measures_, grazing_scales(measures_, forcing_period));
  approach_slope_ = Vector::Zero(m + 1);
  const auto approach_change = [&](const MapEvaluation& e) {
    if (contact_signature(e.measures) != contact_signature(measures_))
      return std::numeric_limits<double>::infinity();
    if (!approach_) return 0.0;
    const auto a = approach_in(e.measures);
    return a ? std::abs(a->value - approach_->value) / approach_->value
             : std::numeric_limits<double>::infinity();
  };
  Vector change(k);
  for (int j = 0; j <= n + 1; ++j) {
    double h = step_of(j, u, lambda);
    MapEvaluation first, second;
    double side = 0.0;  // 0: central (first at +h, second at -h); +-1: first at +-h, second at +-2h
    const auto shifted = [&](double offset, MapEvaluation& e) {
      Vector v = u;
      double l = lambda;
      (j <= n ? v[j] : l) += offset;
      return map_at(v, l, true, e);
    };
    for (int shorter = 0;; ++shorter) {
      side = 0.0;
      bool ok = shifted(h, first) && shifted(-h, second);
      for (const double s : {-1.0, 1.0}) {
        if (ok || j < n) break;
        side = s;
        ok = shifted(s * h, first) && shifted(2.0 * s * h, second);
      }
      if (!ok) return false;
      const double largest = std::max(approach_change(first), approach_change(second));
      if (largest <= approach_step_fraction || shorter == 4) break;
      h *= std::isfinite(largest) ? std::max(0.5 * approach_step_fraction / largest, 1e-3) : 0.1;
    }
    const auto derivative = [&](const auto& centre, const auto& at_first, const auto& at_second) {
      using Value = std::decay_t<decltype(centre)>;
      if (side == 0.0) return Value((at_first - at_second) / (2.0 * h));
      return Value(side * (4.0 * at_first - at_second - 3.0 * centre) / (2.0 * h));
    };
    const Matrix dm = derivative(monodromy_, first.jacobian, second.jacobian);
    condition_change(monodromy_, dm, auxiliary, change);
    if (approach_) {
      const auto along_first = approach_in(first.measures);
      const auto along_second = approach_in(second.measures);
      if (along_first && along_second)
        approach_slope_[j <= n ? j : m] =
            derivative(approach_->value, along_first->value, along_second->value);
    }
    if (j < n) {
      du.block(n, j, k, 1) = change;
    } else {
      Vector column(m);
      column << derivative(center.x, first.x, second.x), change;
      if (j == n)
        du.col(n) = column;
      else
        dlambda = column;
    }
  }
  if (aux > 0) auxiliary_derivatives(monodromy_, auxiliary, du.block(n, n + 1, k, aux));
  return set_point(u, lambda);
}

bool OrbitCurveProblem::refit_borders(ConstVectorRef u, double lambda) {
  MapEvaluation e;
  if (!map_at(u, lambda, true, e)) return false;
  refit(e.jacobian, u.tail(auxiliary_count()));
  return true;
}

std::optional<ContactApproach> OrbitCurveProblem::approach_in(const OrbitMeasures& measures) const {
  if (!approach_) return std::nullopt;
  const double period = system_.forcing_period();
  const auto a = approach_near(measures, approach_->t, period_ * period, 0.25 * period);
  if (!a || a->type != approach_->type) return std::nullopt;
  return a;
}

double OrbitCurveProblem::grazing_distance_of(const OrbitMeasures& measures) const {
  const GrazingScales scales = grazing_scales(measures, system_.forcing_period());
  const auto nearest = nearest_grazing(measures, scales);
  return nearest && !measures.sticks ? grazing_distance(*nearest, scales)
                                     : std::numeric_limits<double>::infinity();
}

std::vector<TestFunction> OrbitCurveProblem::test_functions() const {
  std::vector<TestFunction> tests = own_tests();
  tests.push_back(
      {"impact-signature", TestFunction::Kind::ValueChange, SpecialPointType::ImpactSignature});
  tests.push_back({"grazing-distance", TestFunction::Kind::Boundary, SpecialPointType::Grazing});
  return tests;
}

Vector OrbitCurveProblem::test_values(ConstVectorRef u, double lambda) {
  const Vector own = own_test_values(u, lambda);
  Vector values(own.size() + 2);
  values << own, static_cast<double>(contact_signature(measures_)), grazing_distance_of(measures_);
  return values;
}

std::vector<std::string> OrbitCurveProblem::point_data_names() const {
  std::vector<std::string> names = {"impacts", "slowest_impact", "min_gap", "section_clearance",
                                    "border_fit"};
  for (int k = 1; k <= system_.dimension(); ++k) {
    names.push_back("mu" + std::to_string(k) + ":re");
    names.push_back("mu" + std::to_string(k) + ":im");
  }
  return names;
}

std::vector<std::complex<double>> OrbitCurveProblem::multipliers_in(ConstVectorRef data) {
  std::vector<std::complex<double>> multipliers;
  for (Eigen::Index k = kMultipliersAt; k + 1 < data.size(); k += 2)
    multipliers.emplace_back(data[k], data[k + 1]);
  return multipliers;
}

Vector OrbitCurveProblem::point_data(ConstVectorRef, double) {
  const FloquetMultipliers f = floquet_multipliers(monodromy_);
  const Eigen::Index m = f.multipliers.size();
  const double period = system_.forcing_period();
  Vector data(kMultipliersAt + 2 * m);
  data.head(kMultipliersAt) << measures_.impacts, measures_.slowest_impact, measures_.minimum_gap,
      section_clearance(measures_.event_times, map_.phase(), period) / period, fit();
  for (Eigen::Index k = 0; k < m; ++k) {
    data[kMultipliersAt + 2 * k] = f.multipliers[k].real();
    data[kMultipliersAt + 2 * k + 1] = f.multipliers[k].imag();
  }
  return data;
}

bool OrbitCurveProblem::beyond_range(ConstVectorRef u, double, std::string& why) {
  const double p2 = u[system_.dimension()];
  if (p2 >= second_min && p2 <= second_max) return false;
  why = "the curve leaves the range of " + second_ + " at " + number_text(p2);
  return true;
}

bool OrbitCurveProblem::recenter(Vector& u, double lambda, ConstVectorRef data, Vector& tangent) {
  const bool crowded = moving_section && data.size() > 3 && data[3] < recenter_clearance;
  const bool moved = crowded && move_section(u, lambda, tangent);
  if (!moved && !(data.size() > 4 && data[4] < border_refit)) return false;
  // The engine corrects the point again on the new coordinates (with the new borders the
  // conditions have the same zero set, so it stays where it is).
  refit_borders(u, lambda);
  return true;
}

bool OrbitCurveProblem::follow(ConstVectorRef x, double to, Vector& image, Matrix* phi) {
  FlowOptions options = flow_;
  options.tangent = phi != nullptr;
  Flow flow(system_, options);
  FlowState state = flow.initial_state(map_.phase(), x);
  const FlowReport report = flow.advance(state, to);
  if (report.status != FlowStatus::Success) {
    failure_ = report.message;
    return false;
  }
  image = state.x;
  if (phi) *phi = state.tangent;
  return true;
}

// As PeriodicOrbitProblem::recenter: to the middle of the orbit's longest event-free
// stretch, if that is at least twice as clear as the section's place now.
bool OrbitCurveProblem::quieter_section(ConstVectorRef u, double lambda, double& to) {
  MapEvaluation pass;
  if (!map_at(u, lambda, false, pass)) return false;
  const double period = system_.forcing_period();
  const SectionPlacement quiet = quietest_section(pass.measures.event_times, period);
  if (quiet.clearance < 2.0 * section_clearance(pass.measures.event_times, map_.phase(), period))
    return false;
  to = map_.phase() + forward_shift(map_.phase(), quiet.phase, period);
  return true;
}

// u's state carried by the flow from the section to the time `to`, the tangent by its
// derivatives (Phi for x, forward differences of plain flows for the two parameters; the
// auxiliary unknowns stay). The section itself stays where it is.
bool OrbitCurveProblem::carry_to(double to, Vector& u, double lambda, Vector& tangent) {
  const int n = system_.dimension();
  Vector x, plain, along_second, along_first;
  Matrix phi;
  const double h2 = step_of(n, u, lambda), h1 = step_of(n + 1, u, lambda);
  Vector shifted = u;
  shifted[n] += h2;
  bool followed = set_point(u, lambda) && follow(u.head(n), to, x, &phi) &&
                  follow(u.head(n), to, plain, nullptr) && set_point(shifted, lambda) &&
                  follow(u.head(n), to, along_second, nullptr) && set_point(u, lambda + h1) &&
                  follow(u.head(n), to, along_first, nullptr);
  if (!set_point(u, lambda) || !followed) return false;
  tangent.head(n) = phi * tangent.head(n) + ((along_second - plain) / h2) * tangent[n] +
                    ((along_first - plain) / h1) * tangent[tangent.size() - 1];
  u.head(n) = x;
  return true;
}

bool OrbitCurveProblem::move_section(Vector& u, double lambda, Vector& tangent) {
  double to = 0.0;
  if (!quieter_section(u, lambda, to) || !carry_to(to, u, lambda, tangent)) return false;
  map_.set_phase(to);
  return true;
}

}  // namespace libcont
