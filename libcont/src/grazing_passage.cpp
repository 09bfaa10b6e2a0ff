#include "libcont/grazing_passage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

namespace {

double sign_of(double v) { return (v > 0.0) - (v < 0.0); }

// The orbits of one family near a grazing as functions of its grazing coordinate sigma:
// P^n(x) - x = 0 together with c(x, lambda) = target(sigma), where c is read off the
// orbit's approach nearest the grazing's phase (grazing.hpp): its signed squared normal
// speed q for the impacting family, its signed gap for the other.
class GrazingFamily {
 public:
  enum class Coordinate { Speed, Gap };

  GrazingFamily(PeriodicOrbitProblem& problem, Coordinate coordinate, double phase_fraction,
                GrazingScales scales, double acceleration, double lambda_scale)
      : problem_(problem), coordinate_(coordinate), phase_fraction_(phase_fraction),
        scales_(scales), acceleration_(std::max(acceleration, 1e-300)),
        lambda_scale_(lambda_scale) {}

  Coordinate coordinate() const { return coordinate_; }
  double phase_fraction() const { return phase_fraction_; }

  // The family's row is c(y) = target(sigma), with c smooth across grazing: the signed
  // squared speed q for the impacting family, the signed gap -q / (2 h'') for the other.
  double value_of(const ContactApproach& a) const {
    const double q = signed_squared_speed(a);
    return coordinate_ == Coordinate::Speed ? q : -q / (2.0 * std::max(a.acceleration, 1e-300));
  }
  double target(double sigma) const {
    return coordinate_ == Coordinate::Speed ? scales_.speed * scales_.speed * sigma * std::abs(sigma)
                                            : scales_.length * sigma;
  }
  double sigma_of(double c) const {
    return coordinate_ == Coordinate::Speed ? sign_of(c) * std::sqrt(std::abs(c)) / scales_.speed
                                            : c / scales_.length;
  }
  // d target / d sigma
  double slope(double sigma) const {
    return coordinate_ == Coordinate::Speed ? 2.0 * scales_.speed * scales_.speed * std::abs(sigma)
                                            : scales_.length;
  }

  // The approach near the grazing's phase along the orbit measured last.
  std::optional<ContactApproach> approach(const OrbitMeasures& measures) const {
    const double span = problem_.period() * problem_.system().forcing_period();
    return approach_near(measures, problem_.phase() + phase_fraction_ * span, span, 0.1 * span);
  }

  bool value_at(ConstVectorRef y, double& c) {
    const Eigen::Index n = y.size() - 1;
    OrbitMeasures measures;
    if (!problem_.measure(y.head(n), y[n], measures)) return false;
    const auto a = approach(measures);
    if (!a) return false;
    c = value_of(*a);
    return true;
  }

  // d c / d y, a derivative along each coordinate.
  bool value_gradient(ConstVectorRef y, double c0, Vector& gradient) {
    gradient.resize(y.size());
    for (Eigen::Index j = 0; j < y.size(); ++j)
      if (!value_derivative(y, c0, Vector::Unit(y.size(), j), gradient[j])) return false;
    return true;
  }

  // d c / d y along v by a central difference (one-sided where the other side loses the
  // approach), its step 1e-7 of the scale of the coordinate v moves most; 0 for v = 0.
  bool value_derivative(ConstVectorRef y, double c0, ConstVectorRef v, double& derivative) {
    const Eigen::Index n = y.size() - 1;
    const double x_scale = std::max(y.head(n).cwiseAbs().maxCoeff(), scales_.length);
    double reach = 0.0;  // the largest component of v against its coordinate's scale
    for (Eigen::Index j = 0; j <= n; ++j)
      reach = std::max(reach, std::abs(v[j]) / (std::abs(y[j]) + (j < n ? x_scale : lambda_scale_)));
    derivative = 0.0;
    if (reach == 0.0) return true;
    const double h = 1e-7 / reach;
    double plus = 0.0, minus = 0.0;
    const bool has_plus = value_at(y + h * v, plus), has_minus = value_at(y - h * v, minus);
    if (has_plus && has_minus)
      derivative = (plus - minus) / (2.0 * h);
    else if (has_plus)
      derivative = (plus - c0) / h;
    else if (has_minus)
      derivative = (c0 - minus) / h;
    else
      return false;
    return true;
  }

  // Newton on F = 0 and q = target(sigma) (or, with on_lambda, lambda = value) from the
  // guess y. On success y solves it, `point` records the orbit (tests, data, chart) and
  // dy_dsigma is the family's derivative in sigma.
  bool solve(double value, bool on_lambda, Vector& y, BranchPoint& point, Vector& dy_dsigma,
             double& sigma) {
    const Eigen::Index m = y.size(), n = m - 1;
    Vector residual, dlambda, rhs(m);
    Matrix du, jacobian(m, m);
    bool polished = false;
    double previous = std::numeric_limits<double>::infinity();
    for (int it = 0; it < 25; ++it) {
      if (!problem_.evaluate(y.head(n), y[n], residual, du, dlambda)) return false;
      const auto a = approach(problem_.measures());
      if (!a) return false;
      const double q = value_of(*a);
      const double goal = on_lambda ? value : target(value);
      const double row_error = on_lambda ? y[n] - value : q - goal;
      const double row_tolerance =
          on_lambda ? 1e-14 * (1.0 + std::abs(value))
                    : 1e-6 * std::abs(goal) + 1e-16 * scales_.speed * scales_.speed;
      // Converged to 1e-10 of the orbit's size, or to the flow's noise near a grazing
      // (where the Jacobian grows like 1/sigma): within 1e-8 and no longer decreasing.
      const double size = scales_.length + y.head(n).norm(), norm = residual.norm();
      const bool small = (norm <= 1e-10 * size || (norm <= 1e-8 * size && norm > 0.5 * previous)) &&
                         std::abs(row_error) <= row_tolerance;
      previous = norm;
      if (!problem_.column_available()) {
        double dc_dlambda = 0.0;
        if (!value_derivative(y, q, Vector::Unit(m, n), dc_dlambda) ||
            !near_dlambda(y, q, dc_dlambda, dlambda))
          return false;
      }
      // The family's row c(y) = goal enters Newton's step and dy/dsigma only through two
      // derivatives of c: along the kernel t of [du dlambda] (the direction F = 0 allows)
      // and along the step that solves F = 0 with no component along t. Each is a
      // difference of two passes of the orbit, where c's whole gradient takes 2 (n + 1):
      // 400 passes a Newton step for the 100-mass chain.
      jacobian.topLeftCorner(n, n) = du;
      jacobian.topRightCorner(n, 1) = dlambda;
      // t and c's derivative along it: for the row and for dy/dsigma (a step on lambda
      // alone needs neither).
      const bool needs_t = !on_lambda || (small && polished);
      Vector t;
      double dc_dt = 0.0;
      if (needs_t) {
        t = Eigen::HouseholderQR<Matrix>(jacobian.topRows(n).transpose()).householderQ() *
            Vector::Unit(m, n);
        if (!value_derivative(y, q, t, dc_dt) || dc_dt == 0.0) return false;
      }
      if (small && polished) {
        // dy/dsigma along the family: d q = target'(sigma) d sigma, F fixed.
        dy_dsigma = (slope(on_lambda ? sigma_of(q) : value) / dc_dt) * t;
        if (!dy_dsigma.allFinite()) return false;
        point.u = y.head(n);
        point.lambda = y[n];
        point.tests = problem_.test_values(point.u, point.lambda);
        point.data = problem_.point_data(point.u, point.lambda);
        point.chart = problem_.chart();
        point.corrector_iterations = it;
        sigma = sigma_of(q);  // as reached, for the extrapolation (the target only to 1e-6)
        // Follow the approach's time: it drifts along the family.
        const double span = problem_.period() * problem_.system().forcing_period();
        phase_fraction_ = std::fmod(a->t - problem_.phase(), span) / span;
        return true;
      }
      Vector update;
      if (on_lambda) {
        jacobian.row(n) = Vector::Unit(m, n).transpose();
        rhs << -residual, -row_error;
        update = Eigen::PartialPivLU<Matrix>(jacobian).solve(rhs);
      } else {
        jacobian.row(n) = t.transpose();
        rhs << -residual, 0.0;
        const Vector across = Eigen::PartialPivLU<Matrix>(jacobian).solve(rhs);
        double dc_across = 0.0;
        if (!across.allFinite() || !value_derivative(y, q, across, dc_across)) return false;
        update = across + ((-row_error - dc_across) / dc_dt) * t;
      }
      if (!update.allFinite()) return false;
      y += update;
      if (small) polished = true;  // one more step past the tolerance, then accept
    }
    return false;
  }

  // dF/dlambda where the problem has it by a difference of maps: its step (1e-6 relative)
  // may reach across the grazing, where F has a square root; here it changes the family's
  // grazing value c by at most 1 %.
  bool near_dlambda(ConstVectorRef y, double c, double dc_dlambda, Vector& dlambda) {
    const Eigen::Index n = y.size() - 1;
    double h = 1e-6 * (1.0 + std::abs(y[n]));
    if (dc_dlambda != 0.0) h = std::min(h, 0.01 * std::abs(c) / std::abs(dc_dlambda));
    Vector plus, minus;
    if (!problem_.residual(y.head(n), y[n] + h, plus) || !problem_.residual(y.head(n), y[n] - h, minus))
      return false;
    dlambda = (plus - minus) / (2.0 * h);
    return true;
  }

  // The coordinate of an orbit whose flight would reach `depth` beyond the surface (or
  // stay that far from it).
  double sigma_at_depth(double depth) const {
    return coordinate_ == Coordinate::Speed
               ? std::sqrt(2.0 * acceleration_ * depth) / scales_.speed
               : depth / scales_.length;
  }

  // sigma of the orbit through y; false if it has no approach near the grazing's phase.
  bool sigma_at(ConstVectorRef y, double& sigma) {
    double q = 0.0;
    if (!value_at(y, q)) return false;
    sigma = sigma_of(q);
    return true;
  }

 private:
  PeriodicOrbitProblem& problem_;
  Coordinate coordinate_;
  double phase_fraction_;  // of the grazing approach's time after the section, in n T
  GrazingScales scales_;
  double acceleration_;    // the gap's curvature near grazing (depth to speed)
  double lambda_scale_;
};

// An orbit of a family with its coordinate and derivative in it.
struct FamilyPoint {
  double sigma = 0.0;
  Vector y;
  Vector dy_dsigma;
  BranchPoint point;
  int impacts = -1;
};

class Passage {
 public:
  Passage(PeriodicOrbitProblem& problem, const BoundarySettings& settings,
          const GrazingPassageOptions& options, BoundaryPassage& out)
      : problem_(problem), settings_(settings), options_(options), out_(out) {}

  void run(const BranchPoint& start);

 private:
  Vector joined(const BranchPoint& p) const {
    Vector y(p.u.size() + 1);
    y << p.u, p.lambda;
    return y;
  }
  bool in_range(double lambda) const {
    return lambda >= settings_.lambda_min && lambda <= settings_.lambda_max;
  }
  double lambda_scale() const {
    const double span = settings_.lambda_max - settings_.lambda_min;
    return std::isfinite(span) && span < 1e200 ? span : 1.0;
  }
  // The point's unit tangent in the engine's norm, along the direction of travel.
  void orient(FamilyPoint& f, double direction) const {
    const Eigen::Index n = f.y.size() - 1;
    Vector t = direction * f.dy_dsigma;
    const double w = settings_.parameter_weight;
    t /= std::sqrt(t.head(n).squaredNorm() + w * w * t[n] * t[n]);
    f.point.tangent = t;
  }
  // Solves the family at sigma from the last point (tangent predictor), shortening the
  // step in sigma when Newton fails or the orbit is not the next one of the family (`to`
  // may then lie short of sigma).
  bool step_to(GrazingFamily& family, const FamilyPoint& from, double sigma, FamilyPoint& to);
  bool continues(const FamilyPoint& from, const Vector& y, int impacts) const;
  // Records `to` as the passage's next point with the special points between it and `from`.
  void record(GrazingFamily& family, const FamilyPoint& from, const FamilyPoint& to, double direction);
  void locate(GrazingFamily& family, const FamilyPoint& a, const FamilyPoint& b, int test,
              double direction);
  // Lands on the range's end between `from` and `beyond` (lambda outside); ends the passage.
  void land_on_bound(GrazingFamily& family, const FamilyPoint& from, const FamilyPoint& beyond,
                     double direction);
  bool depart(GrazingFamily& arriving, const FamilyPoint& last, int arriving_impacts);
  bool ends_on_shorter_period();
  bool first_guess(GrazingFamily& other, const FamilyPoint& last, int impacts, FamilyPoint& first);
  bool read_smooth_side(GrazingFamily& family, const Vector& base, double c_base,
                        const Vector& gradient, double c_far, int impacts, Vector& y,
                        Vector& residual, Matrix& du, Vector& dlambda);
  void gap_tangent(GrazingFamily& other, const Vector& base, double c_base, const Vector& gradient,
                   int impacts, FamilyPoint& first);
  bool impacting_tangent(GrazingFamily& other, const FamilyPoint& last, const Vector& base,
                         double c_base, const Vector& gradient, int impacts, FamilyPoint& first);
  bool onto_level(GrazingFamily& family, double goal, Vector& y);

  PeriodicOrbitProblem& problem_;
  const BoundarySettings& settings_;
  const GrazingPassageOptions& options_;
  BoundaryPassage& out_;
  Vector grazing_y_;
  double phase_fraction_ = 0.0;
  GrazingScales scales_;
  double acceleration_ = 0.0;
};

bool Passage::step_to(GrazingFamily& family, const FamilyPoint& from, double sigma,
                      FamilyPoint& to) {
  double target = sigma;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const Vector prediction = from.y + (target - from.sigma) * from.dy_dsigma;
    Vector y = prediction;
    // Along the family the derivative in sigma keeps its direction: where it turns back,
    // sigma itself has turned (the family does not come closer; a fold shows as dlambda /
    // dsigma through zero with the direction kept). The solution lies near the prediction,
    // closer than the prediction's own move: farther, it is another sheet of the branch
    // at the same sigma (beside a sharp fold), and a shorter step follows the family.
    if (family.solve(target, false, y, to.point, to.dy_dsigma, to.sigma) &&
        continues(from, y, problem_.impacts()) && to.dy_dsigma.dot(from.dy_dsigma) > 0.0 &&
        (y - prediction).norm() <= 0.5 * (prediction - from.y).norm() + 1e-9 * (1.0 + y.norm())) {
      to.y = y;
      to.impacts = problem_.impacts();
      return true;  // possibly short of sigma: the caller records it and goes on from there
    }
    target = 0.5 * (from.sigma + target);
  }
  return false;
}

bool Passage::continues(const FamilyPoint& from, const Vector& y, int impacts) const {
  // The same family (its impact count) within the engine's largest step: the branch is
  // resolved as finely as elsewhere, and a step in sigma that lands much farther may have
  // gone to another orbit.
  const Eigen::Index n = y.size() - 1;
  const Vector d = y - from.y;
  const double w = settings_.parameter_weight;
  return (from.impacts < 0 || impacts == from.impacts) &&
         std::sqrt(d.head(n).squaredNorm() + w * w * d[n] * d[n]) <= settings_.max_step;
}

void Passage::locate(GrazingFamily& family, const FamilyPoint& a, const FamilyPoint& b, int test,
                     double direction) {
  // test -1: the fold, where lambda turns in sigma.
  auto value = [&](const FamilyPoint& f) {
    return test < 0 ? f.dy_dsigma[f.y.size() - 1] : f.point.tests[test];
  };
  FamilyPoint lo = a, hi = b;
  std::optional<FamilyPoint> root;
  for (int it = 0; it < 80 && std::abs(hi.y[hi.y.size() - 1] - lo.y[lo.y.size() - 1]) >
                                  settings_.locate_tolerance;
       ++it) {
    const double f_lo = value(lo), f_hi = value(hi);
    double sigma = 0.5 * (lo.sigma + hi.sigma);
    if (f_hi != f_lo && it % 3 != 2) {
      const double secant = lo.sigma - f_lo * (hi.sigma - lo.sigma) / (f_hi - f_lo);
      const double width = hi.sigma - lo.sigma;
      const double low = std::min(lo.sigma, hi.sigma), high = std::max(lo.sigma, hi.sigma);
      if (secant > low && secant < high)
        sigma = std::clamp(secant, low + 1e-3 * std::abs(width), high - 1e-3 * std::abs(width));
    }
    FamilyPoint mid;
    Vector y = lo.y + (sigma - lo.sigma) * lo.dy_dsigma;
    if (!family.solve(sigma, false, y, mid.point, mid.dy_dsigma, mid.sigma)) break;
    mid.y = y;
    if (value(mid) == 0.0) {
      // The root itself (a multiplier at -1 to the last bit): the bracket keeps an orbit on
      // either side, which the classification compares.
      root = std::move(mid);
      break;
    }
    if (sign_of(value(mid)) == sign_of(f_lo))
      lo = std::move(mid);
    else
      hi = std::move(mid);
  }
  orient(lo, direction);
  orient(hi, direction);
  const std::optional<SpecialPointType> type =
      test < 0 ? SpecialPointType::Fold
               : problem_.classify(test, {lo.point.u, lo.point.lambda, lo.point.data},
                                   {hi.point.u, hi.point.lambda, hi.point.data});
  if (!type) return;
  const BranchPoint& at = root ? root->point : hi.point;
  SpecialPoint special;
  special.type = *type;
  special.take_point(at);
  special.after_point = static_cast<int>(out_.points.size()) - 1;
  out_.special_points.push_back(std::move(special));
}

void Passage::record(GrazingFamily& family, const FamilyPoint& from, const FamilyPoint& to,
                     double direction) {
  const auto tests = problem_.test_functions();
  if (sign_of(from.dy_dsigma[from.y.size() - 1]) != sign_of(to.dy_dsigma[to.y.size() - 1]))
    locate(family, from, to, -1, direction);
  for (size_t i = 0; i < tests.size(); ++i)
    if (tests[i].kind == TestFunction::Kind::SignChange &&
        sign_of(from.point.tests[static_cast<Eigen::Index>(i)]) *
                sign_of(to.point.tests[static_cast<Eigen::Index>(i)]) < 0)
      locate(family, from, to, static_cast<int>(i), direction);
  FamilyPoint recorded = to;
  orient(recorded, direction);
  out_.points.push_back(std::move(recorded.point));
}

void Passage::land_on_bound(GrazingFamily& family, const FamilyPoint& from,
                            const FamilyPoint& beyond, double direction) {
  const Eigen::Index n = from.y.size() - 1;
  const double bound = beyond.y[n] > settings_.lambda_max ? settings_.lambda_max : settings_.lambda_min;
  const double fraction = (bound - from.y[n]) / (beyond.y[n] - from.y[n]);
  FamilyPoint edge;
  edge.y = from.y + fraction * (beyond.y - from.y);
  if (family.solve(bound, true, edge.y, edge.point, edge.dy_dsigma, edge.sigma)) {
    record(family, from, edge, direction);
    out_.reached_bound = true;
    out_.message = "reached the parameter bound";
  } else {
    out_.message = "the orbit on the parameter bound could not be found near the grazing";
  }
}

void Passage::run(const BranchPoint& start) {
  // The arriving family: the start's approach nearest to grazing.
  OrbitMeasures measures;
  if (!problem_.measure(start.u, start.lambda, measures)) {
    out_.message = "the grazing passage cannot evaluate its start: " + problem_.failure();
    return;
  }
  scales_ = grazing_scales(measures, problem_.system().forcing_period());
  const auto nearest = nearest_grazing(measures, scales_);
  if (!nearest) {
    out_.message = "no hard-impact approach near grazing at the passage's start";
    return;
  }
  const double span = problem_.period() * problem_.system().forcing_period();
  phase_fraction_ = std::fmod(nearest->t - problem_.phase(), span) / span;
  acceleration_ = nearest->acceleration;
  const auto arriving_coordinate = nearest->type == ContactApproach::Type::Impact
                                       ? GrazingFamily::Coordinate::Speed
                                       : GrazingFamily::Coordinate::Gap;
  GrazingFamily arriving(problem_, arriving_coordinate, phase_fraction_, scales_, acceleration_,
                         lambda_scale());
  const int arriving_impacts = measures.impacts;

  // 1. Approach, with the start's tangent direction kept in the recorded tangents.
  FamilyPoint last;
  last.y = joined(start);
  if (!arriving.sigma_at(last.y, last.sigma)) {
    out_.message = "the grazing passage lost the approach at its start";
    return;
  }
  {
    Vector y = last.y;
    if (!arriving.solve(last.sigma, false, y, last.point, last.dy_dsigma, last.sigma)) {
      // Not a family this coordinate follows (e.g. one that does not move with lambda).
      out_.declined = true;
      out_.message = "the grazing passage cannot solve its start: " + problem_.failure();
      return;
    }
    last.y = y;
    last.impacts = problem_.impacts();
  }
  const double direction = -1.0;  // towards sigma = 0
  {
    // The grazing must lie ahead: towards sigma = 0 the family goes on the way the branch
    // went. Behind it, the approach nearest to grazing is not the one the branch meets (a
    // slow hop of a sticking orbit, say): the engine goes on as if there were no boundary.
    FamilyPoint ahead = last;
    orient(ahead, direction);
    const double w = settings_.parameter_weight;
    const Eigen::Index n = start.u.size();
    if (ahead.point.tangent.head(n).dot(start.tangent.head(n)) +
            w * w * ahead.point.tangent[n] * start.tangent[n] <
        0.0) {
      out_.declined = true;
      out_.message = "the grazing nearest to the branch lies behind it";
      return;
    }
  }
  std::vector<double> sigmas{last.sigma};
  std::vector<Vector> ys{last.y};
  double estimate_error = std::numeric_limits<double>::infinity();
  Vector estimate;
  const Eigen::Index n = start.u.size();
  // Down to where the grazing contact is no deeper than the flow resolves (the floor), or
  // until extrapolations of two successive orders agree within the tolerance. Each uses
  // the last (at most six) of its orbits that are no farther than a tenth of the way in.
  // Its orbits are spread in sigma, each at most `spread` times the last: where the
  // branch's max_step (or Newton's basin) cuts the steps short, the orbits in between are
  // rows of the branch only. Crowded in sigma, the orbits' noise is amplified and the
  // difference of two orders no longer measures the error: six orbits 0.985 of each other
  // apart, as steps of 0.002 give, amplify it 3e8 times; at `spread` 2e4 times, at the
  // walk's ratio 0.5, 8 times. (0.9 keeps every orbit of walks whose steps Newton halves
  // up to three times, 0.875 of each other.) The step budget lets a walk in steps of
  // max_step get as close as the default one does.
  constexpr double spread = 0.9;
  const double floor = arriving.sigma_at_depth(options_.smallest_depth);
  // As close as the walk gets: the best estimate stands if it is one (the family came
  // close and its extrapolations agree), else the family does not reach the grazing.
  const auto estimate_stands = [&] {
    return estimate.size() > 0 && last.sigma <= 1e-2 &&
           estimate_error <= std::max(1e3 * settings_.tolerance, 1e-6 * lambda_scale());
  };
  bool ended = false;    // at the floor or with the orders agreeing
  bool stalled = false;  // no step closer
  constexpr int budget = 2000;
  for (int steps = 0; steps < budget && !ended; ++steps) {
    const double sigma = last.sigma * options_.ratio;
    if (sigma < floor && estimate.size() > 0) {
      ended = true;
      break;
    }
    FamilyPoint next;
    if (!step_to(arriving, last, sigma, next)) {
      stalled = true;
      break;
    }
    if (!in_range(next.y[n])) {
      land_on_bound(arriving, last, next, direction);
      return;
    }
    record(arriving, last, next, direction);
    last = std::move(next);
    if (last.sigma > spread * sigmas.back()) continue;
    sigmas.push_back(last.sigma);
    ys.push_back(last.y);
    size_t near = 0;
    while (near < sigmas.size() && near < 6 && sigmas[sigmas.size() - 1 - near] <= 0.1) ++near;
    if (near >= 3) {
      const std::vector<double> s_all(sigmas.end() - near, sigmas.end()),
          s_less(sigmas.end() - (near - 1), sigmas.end());
      const std::vector<Vector> y_all(ys.end() - near, ys.end()), y_less(ys.end() - (near - 1), ys.end());
      const Vector higher = extrapolate_to_zero(s_all, y_all);
      const double error = std::abs(higher[n] - extrapolate_to_zero(s_less, y_less)[n]);
      if (error < estimate_error) {
        estimate = higher;
        estimate_error = error;
      }
      ended = estimate_error <= settings_.tolerance;
    }
  }
  if (stalled && !estimate_stands()) {
    // The family does not come closer than this (its distance turns: no grazing on the
    // way), or not in this coordinate: the points of the approach stay on the branch, and
    // the engine goes on from the last.
    out_.declined = true;
    out_.message = "the approach to grazing stopped at sigma = " + std::to_string(last.sigma);
    return;
  }
  if (!ended && !estimate_stands()) {
    std::ostringstream why;
    why.precision(2);
    why << "the approach to grazing did not converge: " << budget << " steps reached sigma = "
        << last.sigma;
    if (estimate.size() > 0)
      why << ", where extrapolations of its orbits still differ by " << estimate_error << " in "
          << problem_.parameter();
    else
      why << ", with too few orbits near enough to extrapolate";
    out_.message = why.str();
    return;
  }
  // 2. The grazing orbit.
  grazing_y_ = estimate;
  if (!in_range(grazing_y_[n])) {
    // Beyond the range: arclength continuation goes on from the last orbit to the bound in
    // steps of its own size.
    out_.declined = true;
    out_.message = "the grazing lies beyond the range";
    return;
  }
  SpecialPoint g;
  g.type = SpecialPointType::Grazing;
  g.set_grazing_kind(arriving_coordinate == GrazingFamily::Coordinate::Speed
                         ? GrazingKind::ImpactVelocity
                         : arriving_impacts == 0 ? GrazingKind::NonImpactingGap
                                                 : GrazingKind::InteriorTangency);
  g.u = grazing_y_.head(n);
  g.lambda = grazing_y_[n];
  // The arriving family's data at the grazing: its smooth quantities (amplitudes) are those
  // of the grazing orbit; its multipliers are the limit from the side it came from.
  // Its data from one evaluation of the grazing orbit: the amplitudes are the orbit's;
  // the multipliers are whatever side of the touch the flow takes (they are singular there).
  {
    Vector residual, dlambda;
    Matrix du;
    const bool evaluated = problem_.evaluate(g.u, g.lambda, residual, du, dlambda);
    g.tests = evaluated ? problem_.test_values(g.u, g.lambda) : last.point.tests;
    g.data = evaluated ? problem_.point_data(g.u, g.lambda) : last.point.data;
  }
  g.chart = problem_.chart();
  g.after_point = static_cast<int>(out_.points.size()) - 1;
  out_.error_estimate = estimate_error;
  out_.located = true;
  out_.special_points.push_back(g);
  if (!settings_.cross) {
    out_.message = "ended at the grazing (as asked)";
    return;
  }
  // 3. The other family.
  if (!depart(arriving, last, arriving_impacts)) return;
  out_.crossed = true;
}

namespace {

// The family's bordered Jacobian [D F, dF/dlambda; row^T]: its kernel direction in F with
// the family's coordinate moving along `row`.
Eigen::PartialPivLU<Matrix> bordered(const Matrix& du, const Vector& dlambda, const Vector& row) {
  const Eigen::Index n = du.rows();
  Matrix system(n + 1, n + 1);
  system.topLeftCorner(n, n) = du;
  system.topRightCorner(n, 1) = dlambda;
  system.row(n) = row.transpose();
  return Eigen::PartialPivLU<Matrix>(system);
}

// The point on c's gradient from `base` (where c is c_base) at which c is `c`, to first order.
Vector along_gradient(const Vector& base, double c_base, const Vector& gradient, double c) {
  return base + ((c - c_base) / gradient.squaredNorm()) * gradient;
}

}  // namespace

// The map's residual and Jacobian just off the grazing orbit on the side where the flow
// misses the surface (the grazing impact absent, `impacts` impacts): at y on c's gradient
// from `base` where c is a hundredth of c_far, where F is still near zero and its Jacobian
// is the grazing orbit's (at c_far itself F is as far off as a guess that far out, and its
// Jacobian another orbit's); where the flow meets the surface there even so, at a tenth of
// it, then at the whole. dF/dlambda by differences only in steps that stay on this side
// (as Newton takes it).
bool Passage::read_smooth_side(GrazingFamily& family, const Vector& base, double c_base,
                               const Vector& gradient, double c_far, int impacts, Vector& y,
                               Vector& residual, Matrix& du, Vector& dlambda) {
  const Eigen::Index n = base.size() - 1;
  for (double fraction = 1e-2; fraction <= 1.0; fraction *= 10.0) {
    const double c = fraction * c_far;
    y = along_gradient(base, c_base, gradient, c);
    if (problem_.evaluate(y.head(n), y[n], residual, du, dlambda) && problem_.impacts() == impacts &&
        (problem_.column_available() || family.near_dlambda(y, c, gradient[n], dlambda)))
      return true;
  }
  return false;
}

// On the impacting side Newton converges only from a guess much closer than sigma (its
// Jacobian grows like 1/sigma, its basin shrinks with it), so the impacting family is
// started on its tangent at the grazing orbit y_g. With F_N the smooth map of the family
// without the impact (the arriving one) and w the impact's effect on P^n per unit speed,
// the impacting orbits solve F_N(y) + w v = 0 with q(y) = v^2, which is flat to first
// order: [D F_N; grad q] y1 = [-w speed; 0], y = y_g + sigma y1. D F_N is read just off the
// grazing orbit on the missing side (read_smooth_side). w is the limit at v = 0 of the
// actual map's difference from F_N (extended linearly from there) per unit speed, on c's
// gradient at speeds v and 2 v, extrapolated linearly to 0, with v the depth floor's: where
// the bordered system is ill-conditioned (the arriving family nearly tangent to the
// grazing's level sets, so that the impacting family leaves steeply in lambda), y1
// amplifies w's error, and w's part of order v, read at the first orbit's speed, turned y1
// round.
bool Passage::impacting_tangent(GrazingFamily& other, const FamilyPoint& last, const Vector& base,
                                double c_base, const Vector& gradient, int impacts,
                                FamilyPoint& first) {
  const Eigen::Index n = grazing_y_.size() - 1;
  Vector smooth_y, smooth_residual, dlambda;
  Matrix du;
  const bool near = read_smooth_side(other, base, c_base, gradient, -other.target(first.sigma),
                                     impacts - 1, smooth_y, smooth_residual, du, dlambda);
  if (!near) smooth_y = last.y;
  const auto effect_per_speed = [&](double sigma, Vector& w) {
    const Vector y = along_gradient(base, c_base, gradient, other.target(sigma));
    Vector impacting_residual;
    double q = 0.0;
    if (!problem_.residual(y.head(n), y[n], impacting_residual) || !other.value_at(y, q) || !(q > 0.0))
      return false;
    const Vector step = y - smooth_y;
    w = (impacting_residual - smooth_residual - du * step.head(n) - step[n] * dlambda) / std::sqrt(q);
    return true;
  };
  const double floor = other.sigma_at_depth(options_.smallest_depth);
  Vector w_near, w_far;
  if ((!near && !problem_.evaluate(last.y.head(n), last.y[n], smooth_residual, du, dlambda)) ||
      !effect_per_speed(floor, w_near) || !effect_per_speed(2.0 * floor, w_far)) {
    out_.message = "at the grazing, the impacting family cannot be reached: " + problem_.failure();
    return false;
  }
  const Vector w = 2.0 * w_near - w_far;
  const auto system = bordered(du, dlambda, gradient);
  Vector rhs(n + 1);
  rhs << -scales_.speed * w, 0.0;
  const Vector y1 = system.solve(rhs);
  if (!y1.allFinite()) {
    out_.message = "at the grazing, the impacting family's tangent is singular";
    return false;
  }
  first.y = grazing_y_ + first.sigma * y1;
  // q is flat along y1 to first order: its second-order part, of the size of the target
  // itself, may put the guess on the wrong side. One step in q along the directions that
  // leave F_N unchanged (the arriving family's) brings it to the target.
  double reached = 0.0;
  if (!other.value_at(first.y, reached)) {
    out_.message = "at the grazing, the impacting family's first orbit is not found";
    return false;
  }
  rhs << Vector::Zero(n), other.target(first.sigma) - reached;
  first.y += system.solve(rhs);
  return true;
}

// A start whose value of c is off the family's target by more than a factor two (or lies on
// the other side of the grazing, where the impact is missing) is moved along c's gradient
// onto the target's level by secant steps. Newton from the wrong side starts with the
// Jacobian of the orbits without the impact and, where the impact's effect is strongly
// curved, does not come back: at the moving base's z = 3/4 grazing near omega = 2.90925
// the first-order start of the five-impact orbits had c = -1.0e-11 against 3.2e-11, and
// Newton stalled at 2e-4 of the orbit's size; from the level it converges. False, with y
// unchanged, where the level is not reached.
bool Passage::onto_level(GrazingFamily& family, double goal, Vector& y) {
  double c = 0.0;
  if (!family.value_at(y, c)) return false;
  if (c * goal > 0.0 && std::abs(c) >= 0.5 * std::abs(goal) && std::abs(c) <= 2.0 * std::abs(goal))
    return true;
  Vector gradient;
  if (!family.value_gradient(y, c, gradient) || !(gradient.squaredNorm() > 0.0)) return false;
  double aimed_before = c, reached_before = c, aim = goal;
  for (int k = 0; k < 20; ++k) {
    const Vector trial = along_gradient(y, c, gradient, aim);
    double reached = 0.0;
    if (!family.value_at(trial, reached)) return false;
    if (std::abs(reached - goal) <= 1e-3 * std::abs(goal)) {
      y = trial;
      return true;
    }
    if (reached == reached_before) return false;
    const double next = aim + (goal - reached) * (aim - aimed_before) / (reached - reached_before);
    aimed_before = aim;
    reached_before = reached;
    aim = next;
  }
  return false;
}

// The other family's orbit at first.sigma to first order, along its tangent at the grazing,
// which both tangents build from c's value and gradient at the grazing orbit (or, where the
// flow sees the grazing orbit's touch as neither impact nor gap minimum, at the arriving
// family's last orbit).
bool Passage::first_guess(GrazingFamily& other, const FamilyPoint& last, int impacts,
                          FamilyPoint& first) {
  double q = 0.0;
  Vector gradient;
  const auto linearise_at = [&](const Vector& y) {
    first.y = y;
    return other.value_at(first.y, q) && other.value_gradient(first.y, q, gradient) &&
           gradient.squaredNorm() > 0.0;
  };
  if (!linearise_at(grazing_y_) && !linearise_at(last.y)) {
    out_.message = "at the grazing, the other family cannot be reached: " +
                   (problem_.failure().empty()
                        ? std::string("neither the grazing orbit nor the last orbit before it has an "
                                      "approach to the contact near the grazing's phase")
                        : problem_.failure());
    return false;
  }
  const Vector base = first.y;
  if (other.coordinate() == GrazingFamily::Coordinate::Speed)
    return impacting_tangent(other, last, base, q, gradient, impacts, first);
  first.y = along_gradient(base, q, gradient, other.target(first.sigma));
  gap_tangent(other, base, q, gradient, impacts, first);
  return true;
}

// Without the grazing impact the family is smooth through the grazing orbit y_g, and its
// tangent there is the kernel of the map's Jacobian on that side, read just off y_g
// (read_smooth_side): the first orbit lies along it, y = y_g + s t with the step in c that
// the target asks for. (The step along c's gradient alone leaves F as far from zero as the
// family's slope in lambda times the step: beside a fold of the family, Newton does not
// come back from there.) Where the flow meets the surface at all three readings, the step
// along the gradient stays the guess.
void Passage::gap_tangent(GrazingFamily& other, const Vector& base, double c_base,
                          const Vector& gradient, int impacts, FamilyPoint& first) {
  const Eigen::Index n = base.size() - 1;
  Vector y, residual, dlambda;
  Matrix du;
  // c a fraction of the target's, whatever side of the surface the extrapolated grazing
  // orbit lies on.
  if (!read_smooth_side(other, base, c_base, gradient, other.target(first.sigma), impacts, y,
                        residual, du, dlambda))
    return;
  Vector rhs = Vector::Zero(n + 1);
  rhs[n] = other.target(first.sigma) - c_base;
  const Vector step = bordered(du, dlambda, gradient).solve(rhs);
  if (step.allFinite()) first.y = base + step;
}

// Where no orbit leaves the grazing, the grazing orbit may close after fewer forcing
// periods than the branch's n: a branch of period-n orbits born at the grazing of an orbit
// of period d (its laps touching the stop in turn) ends where it was born, on that orbit
// traversed n/d times. That is the branch's end, not a failure.
bool Passage::ends_on_shorter_period() {
  if (problem_.period() == 1) return false;
  const Eigen::Index n = grazing_y_.size() - 1;
  BranchPoint grazing;
  grazing.u = grazing_y_.head(n);
  grazing.lambda = grazing_y_[n];
  grazing.chart = problem_.chart();
  const int shorter = problem_.minimal_period_of(grazing);
  if (shorter == problem_.period()) return false;
  out_.met_shorter_period = true;
  out_.message = "at " + problem_.parameter() + " = " + number_text(grazing.lambda) +
                 " the grazing orbit closes after " + std::to_string(shorter) + " of the branch's " +
                 std::to_string(problem_.period()) + " forcing periods: the branch ends on the orbit "
                 "of period " + std::to_string(shorter) + " (traversed " +
                 std::to_string(problem_.period() / shorter) + " times), at its grazing";
  return true;
}

bool Passage::depart(GrazingFamily& arriving, const FamilyPoint& last, int arriving_impacts) {
  const Eigen::Index n = grazing_y_.size() - 1;
  const auto coordinate = arriving.coordinate() == GrazingFamily::Coordinate::Speed
                              ? GrazingFamily::Coordinate::Gap
                              : GrazingFamily::Coordinate::Speed;
  const int impacts = arriving_impacts + (coordinate == GrazingFamily::Coordinate::Speed ? 1 : -1);
  GrazingFamily other(problem_, coordinate, arriving.phase_fraction(), scales_, acceleration_,
                      lambda_scale());
  // From the grazing orbit a minimal step in q onto the other side, then Newton.
  FamilyPoint first;
  // Not as close as the approach: the other family's first orbit needs no extrapolation,
  // and its Newton iteration is better conditioned further out. Where the first guess
  // lands on the wrong side of the grazing (its second-order part larger than the step:
  // a grazing located from far, as on a linear family), farther out.
  const double nearest =
      std::max(5.0 * options_.smallest_distance, 4.0 * other.sigma_at_depth(options_.smallest_depth));
  // The orbit at sigma; `turned`: whether dlambda/dsigma there is against the family's
  // at the grazing (its first guess's move in lambda from the grazing orbit).
  const auto orbit_at = [&](double sigma, FamilyPoint& f, bool& turned) {
    f = FamilyPoint{};
    f.sigma = sigma;
    out_.message.clear();
    if (!first_guess(other, last, impacts, f)) return false;
    const double slope_at_grazing = f.y[n] - grazing_y_[n];
    onto_level(other, other.target(f.sigma), f.y);  // where it fails, Newton from the guess
    if (!other.solve(f.sigma, false, f.y, f.point, f.dy_dsigma, f.sigma) || problem_.impacts() != impacts)
      return false;
    turned = f.dy_dsigma[n] * slope_at_grazing < 0.0;
    return true;
  };
  bool found = false, turned = false;
  for (double sigma = nearest; !found && sigma <= 0.5 * options_.leave_distance; sigma *= 4.0)
    found = orbit_at(sigma, first, turned);
  // Where dlambda/dsigma has turned between the grazing and the first orbit, a fold lies
  // between them (beside a codimension-two point the family folds close to the grazing):
  // an orbit short of it, from which the walk out locates it, is closer in.
  const double closest = 4.0 * other.sigma_at_depth(options_.smallest_depth);
  for (double sigma = first.sigma / 4.0; found && turned && sigma >= closest; sigma /= 4.0) {
    FamilyPoint closer;
    bool closer_turned = false;
    if (orbit_at(sigma, closer, closer_turned)) {
      first = std::move(closer);
      turned = closer_turned;
    }
  }
  if (!found) {
    if (ends_on_shorter_period()) return false;
    if (out_.message.empty())
      out_.message = "no orbit of the other family (" + std::to_string(impacts) +
                     " impacts) was found leaving the grazing: the branch ends there";
    return false;
  }
  const double direction = +1.0;  // away from sigma = 0
  first.impacts = impacts;
  if (!in_range(first.y[n])) {
    // The grazing lies just inside the range, the other family's first orbit beyond it:
    // the branch ends on the bound, on that family.
    const double bound = first.y[n] > settings_.lambda_max ? settings_.lambda_max : settings_.lambda_min;
    FamilyPoint edge = first;
    edge.y[n] = bound;
    if (!other.solve(bound, true, edge.y, edge.point, edge.dy_dsigma, edge.sigma)) {
      out_.message = "the orbit on the parameter bound could not be found near the grazing";
      return false;
    }
    orient(edge, direction);
    out_.points.push_back(edge.point);
    out_.reached_bound = true;
    return true;
  }
  orient(first, direction);
  out_.points.push_back(first.point);
  FamilyPoint from = std::move(first);
  for (int k = 0; k < 200 && from.sigma < 0.99 * options_.leave_distance; ++k) {
    FamilyPoint next;
    if (!step_to(other, from, std::min(from.sigma / options_.ratio, options_.leave_distance), next) ||
        !(next.sigma > from.sigma))
      break;  // arclength continuation goes on from the last orbit
    if (!in_range(next.y[n])) {
      land_on_bound(other, from, next, direction);
      return true;
    }
    record(other, from, next, direction);
    from = std::move(next);
  }
  return true;
}

}  // namespace

BoundaryPassage pass_grazing(PeriodicOrbitProblem& problem, const BranchPoint& start,
                             const BoundarySettings& settings, const GrazingPassageOptions& options) {
  BoundaryPassage passage;
  passage.handled = true;
  passage.tests_located = true;  // Passage::record, between every two of its orbits
  Passage(problem, settings, options, passage).run(start);
  return passage;
}

}  // namespace libcont
