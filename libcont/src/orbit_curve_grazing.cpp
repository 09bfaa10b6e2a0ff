// Where a curve of codimension-one points runs into a grazing (doc/theory.md, 6.4): the
// curve's orbits are continued in the grazing approach's own coordinate, in which they are
// smooth (the impact's speed, or the gap of a minimum), down a geometric sequence, and the
// grazing point is their extrapolation to zero (as grazing_passage.hpp does for a branch).
#include <algorithm>
#include <cmath>
#include <limits>

#include "libcont/input_error.hpp"
#include "libcont/orbit_curve_problem.hpp"

namespace libcont {

BoundaryPassage OrbitCurveProblem::pass_boundary(int, const BranchPoint& last,
                                                 const BoundarySettings& settings) {
  BoundaryPassage out;
  out.handled = true;
  const int n = system_.dimension(), m = dimension();
  Vector residual, dlambda;
  Matrix du;
  set_chart(last.chart);
  // The section first to the middle of the orbit's longest event-free stretch (if that is
  // clearer): the orbit's events drift along the approach, and one that reached the
  // section would break the family there. The start is corrected on it below.
  Vector start = last.u, tangent = last.tangent;
  if (moving_section) move_section(start, last.lambda, tangent);
  // The approach the curve runs into: evaluate() tracks the one nearest to grazing.
  if (!evaluate(start, last.lambda, residual, du, dlambda) || !approach_) {
    out.declined = true;
    return out;
  }
  if (chart() != last.chart) {
    out.start = last;
    out.start->u = start;
    out.start->chart = chart();
    out.start->tests = test_values(start, last.lambda);
  }
  const int impacts = measures_.impacts;
  const ContactApproach::Type type = approach_->type;
  const bool impact = type == ContactApproach::Type::Impact;
  const GrazingScales scales = grazing_scales(measures_, system_.forcing_period());
  const double scale = impact ? scales.speed : scales.length;
  double t = approach_->t;
  // Not deeper than the flow resolves (grazing.hpp): a flight of curvature a that reaches
  // the depth e beyond the surface hits it at the speed sqrt(2 a e).
  const double floor = std::max(
      grazing.smallest_distance,
      (impact ? std::sqrt(2.0 * std::abs(approach_->acceleration) * grazing.smallest_depth)
              : grazing.smallest_depth) / scale);

  // The augmented system: F(u, lambda) = 0 and c(u, lambda) = target(sigma), c the
  // approach's coordinate that is smooth in the unknowns across the grazing (as
  // grazing_passage.cpp's): the squared speed v_r^2 = (scale sigma)^2 of an impact, the gap
  // = scale sigma of a gap minimum. Its derivatives come from evaluate() (the approach's
  // change along the same difference steps, short enough near the grazing). Newton from
  // the prediction; a step that reaches across the grazing (the approach is gone) is halved.
  const auto target = [&](double sigma) {
    return impact ? scale * scale * sigma * sigma : scale * sigma;
  };
  const auto target_slope = [&](double sigma) {
    return impact ? 2.0 * scale * scale * sigma : scale;
  };
  const double period = system_.forcing_period();
  Vector gradient;
  const auto mismatch_at = [&](ConstVectorRef y, double sigma, double& mismatch) {
    // An orbit with other impacts than the start's is not of the family (an iterate that
    // left it, where its maps are no guide and may be costly): checked on a plain map first.
    MapEvaluation plain;
    if (!map_at(y.head(m), y[m], false, plain) || plain.measures.impacts != impacts ||
        !evaluate(y.head(m), y[m], residual, du, dlambda) || !approach_ ||
        approach_->type != type ||
        std::abs(std::remainder(approach_->t - t, period_ * period)) > 0.25 * period)
      return false;
    const double value = approach_->value;
    mismatch = (impact ? value * value : value) - target(sigma);
    gradient = impact ? Vector(2.0 * value * approach_slope_) : approach_slope_;
    return true;
  };
  // Solves the augmented system at sigma from y; then dy_dsigma is the curve's derivative
  // in sigma there.
  const auto solve = [&](double sigma, Vector& y, Vector& dy_dsigma) {
    Matrix j(m + 1, m + 1);
    Vector rhs(m + 1);
    double mismatch = 0.0;
    if (!mismatch_at(y, sigma, mismatch)) return false;
    // Each equation against its tolerance: F to 1e-10 of the state, the row to 1e-10 in sigma.
    const auto size = [&] {
      return std::max(residual.norm() / (1.0 + y.head(m).norm()),
                      std::abs(mismatch) / target_slope(sigma));
    };
    const double first = size();
    for (int it = 0; it < 12; ++it) {
      j.topLeftCorner(m, m) = du;
      j.topRightCorner(m, 1) = dlambda;
      j.bottomRows(1) = gradient.transpose();
      const Eigen::PartialPivLU<Matrix> lu(j);
      if (it > 0 && size() <= 1e-10) {
        dy_dsigma = lu.solve(target_slope(sigma) * Vector::Unit(m + 1, m));
        t = approach_->t;  // the approach drifts in time as the orbit moves
        return dy_dsigma.allFinite();
      }
      // Iterates that run off (the prediction outside Newton's reach) are not waited for:
      // a shorter step in sigma is cheaper.
      if (it >= 2 && size() > 2.0 * first) return false;
      rhs << -residual, -mismatch;
      const Vector step = lu.solve(rhs);
      if (!step.allFinite()) return false;
      bool moved = false;
      for (double fraction = 1.0; fraction > 1e-3 && !moved; fraction *= 0.5) {
        const Vector trial = y + fraction * step;
        if (mismatch_at(trial, sigma, mismatch)) {
          y = trial;
          moved = true;
        }
      }
      if (!moved) return false;
    }
    return false;
  };

  // Down from where the engine stopped, by `ratio` per orbit (closer to 1 where Newton
  // fails, back as it succeeds), to the floor; extrapolations to sigma = 0 of two
  // successive orders (the last at most six orbits within a tenth of the way) until they
  // agree to the tolerance.
  Vector y(m + 1), dy_dsigma;
  y << start, last.lambda;
  std::vector<double> sigmas{last.tests[last.tests.size() - 1]};
  if (!solve(sigmas.front(), y, dy_dsigma)) {
    out.declined = true;
    out.message = "the curve's approach to the grazing cannot be followed";
    return out;
  }
  // Where the approach is slow along the curve (its distance near a minimum of it), the
  // grazing lies far ahead by the derivative: the walk's steps in sigma would reach across
  // hundreds of the engine's steps, and Newton lands on another curve there. The engine goes
  // on instead, and passes the minimum or comes nearer.
  const double w = settings.parameter_weight;
  const double ahead = sigmas.front() * std::sqrt(dy_dsigma.head(m).squaredNorm() +
                                                  w * w * dy_dsigma[m] * dy_dsigma[m]);
  if (ahead > 10.0 * settings.max_step) {
    out.declined = true;
    out.message = "the grazing lies far ahead along the curve";
    return out;
  }
  std::vector<Vector> ys{y}, slopes{dy_dsigma};
  // The orbits approach the grazing tangentially in (u, lambda): their depth beyond it goes
  // with sigma^2 while they move with sigma, and F is smooth only on the scale of the depth.
  // So the prediction must be exact beyond first order: the cubic through the last two
  // orbits with their derivatives in sigma (the first step along the derivative alone).
  const auto predict = [&](double sigma) {
    const size_t k = sigmas.size() - 1;
    if (k == 0) return Vector(ys[0] + (sigma - sigmas[0]) * slopes[0]);
    const double width = sigmas[k] - sigmas[k - 1], s = (sigma - sigmas[k - 1]) / width;
    return Vector((2 * s * s * s - 3 * s * s + 1) * ys[k - 1] +
                  (s * s * s - 2 * s * s + s) * width * slopes[k - 1] +
                  (-2 * s * s * s + 3 * s * s) * ys[k] + (s * s * s - s * s) * width * slopes[k]);
  };
  Vector estimate;
  double error = std::numeric_limits<double>::infinity();
  double ratio = grazing.ratio;
  for (double sigma = sigmas.front() * ratio; sigma >= floor;
       sigma = sigmas.back() * ratio) {
    Vector next = predict(sigma);
    if (!solve(sigma, next, dy_dsigma)) {
      // A shorter way down first (the prediction's error goes with a power of the step).
      if (ratio > 0.99) break;
      ratio = std::sqrt(ratio);
      continue;
    }
    ratio = std::max(ratio * ratio, grazing.ratio);
    BranchPoint row = last;
    row.u = next.head(m);
    row.lambda = next[m];
    row.tests = test_values(row.u, row.lambda);
    row.data = point_data(row.u, row.lambda);
    row.chart = chart();
    // The walk keeps to the curve's ranges, as the engine's steps do (same_family and the
    // bounds of p1): where it leaves one first, going the way the curve goes, the curve
    // ends on that bound. (A walk back along the curve, to a grazing behind it, is
    // declined below as before.)
    const int outside = row.u[n] < second_min || row.u[n] > second_max ? n
                        : row.lambda < settings.lambda_min || row.lambda > settings.lambda_max
                            ? m
                            : -1;
    const double moved = outside == n ? row.u[n] - last.u[n] : row.lambda - last.lambda;
    const bool forward =
        outside >= 0 && last.tangent.size() == m + 1 && moved * last.tangent[outside] > 0.0;
    if (forward) {
      const double value = outside == n ? row.u[n] : row.lambda;
      const double bound = outside == n ? (value > second_max ? second_max : second_min)
                                        : (value > settings.lambda_max ? settings.lambda_max
                                                                       : settings.lambda_min);
      // The last orbit inside, on the section of `row`.
      BranchPoint inside = row;
      inside.u = ys.back().head(m);
      inside.lambda = ys.back()[m];
      BranchPoint landed;
      if (!land_on_bound(*this, outside, inside, row, bound, 1e-10, landed)) {
        out.message = "the curve's point on the bound of " + (outside == n ? second_ : first_) +
                      " could not be found near the grazing";
        return out;
      }
      out.points.push_back(std::move(landed));
      out.reached_bound = true;
      out.message = "reached the bound of " + (outside == n ? second_ : first_);
      return out;
    }
    sigmas.push_back(sigma);
    ys.push_back(next);
    slopes.push_back(dy_dsigma);
    out.points.push_back(std::move(row));
    // An event come close to the section on the way: all orbits so far (with their
    // derivatives, which the predictions and the extrapolation use) to a quieter one.
    double to = 0.0;
    const BranchPoint& recorded = out.points.back();
    if (moving_section && recorded.data[3] < recenter_clearance &&
        quieter_section(recorded.u, recorded.lambda, to)) {
      bool carried = true;
      for (size_t i = 0; i < ys.size() && carried; ++i) {
        Vector u = ys[i].head(m);
        carried = carry_to(to, u, ys[i][m], slopes[i]);
        ys[i].head(m) = u;
      }
      if (!carried) break;  // the orbits are now on two sections: as close as it gets
      set_chart(to);
    }
    size_t near = 0;
    while (near < sigmas.size() && near < 6 && sigmas[sigmas.size() - 1 - near] <= 0.1) ++near;
    if (near < 3) continue;
    const std::vector<double> s_all(sigmas.end() - near, sigmas.end()),
        s_less(sigmas.end() - (near - 1), sigmas.end());
    const std::vector<Vector> y_all(ys.end() - near, ys.end()),
        y_less(ys.end() - (near - 1), ys.end());
    const Vector higher = extrapolate_to_zero(s_all, y_all);
    const double difference = std::abs(higher[m] - extrapolate_to_zero(s_less, y_less)[m]);
    if (difference < error) {
      estimate = higher;
      error = difference;
    }
    if (error <= settings.tolerance) break;
  }
  // An estimate stands when the curve came close (its extrapolations are then exact to a
  // high order) and they agree, as in grazing_passage.cpp, and when the grazing lies in
  // the curve's ranges (else the curve reaches a bound first). Otherwise the curve does not
  // come closer (its distance turns before a grazing), or not in this coordinate: the engine
  // goes on along it from its last point, by arclength, without the walk's rows (whose
  // tangents are the start's).
  const auto in_ranges = [&](const Vector& y) {
    return y[n] >= second_min && y[n] <= second_max && y[m] >= settings.lambda_min &&
           y[m] <= settings.lambda_max;
  };
  const bool close = sigmas.back() <= 1e-2 &&
                     error <= std::max(1e3 * settings.tolerance,
                                       1e-6 * (settings.lambda_max - settings.lambda_min));
  if (estimate.size() == 0 || !close || !in_ranges(estimate)) {
    out.points.clear();
    out.declined = true;
    out.message = estimate.size() == 0 || !close ? "the curve turns away from the grazing"
                                                 : "the grazing lies beyond the curve's ranges";
    return out;
  }
  grazing_error_ = error;
  SpecialPoint g;
  g.type = SpecialPointType::Grazing;
  g.set_grazing_kind(type == ContactApproach::Type::Impact ? GrazingKind::ImpactVelocity
                     : measures_.impacts == 0              ? GrazingKind::NonImpactingGap
                                                           : GrazingKind::InteriorTangency);
  g.u = estimate.head(m);
  g.lambda = estimate[m];
  g.tests = out.points.back().tests;
  g.data = out.points.back().data;  // of the closest orbit: the grazing one is not an orbit of the flow
  g.chart = chart();
  g.after_point = static_cast<int>(out.points.size()) - 1;
  out.special_points.push_back(std::move(g));
  out.located = true;
  out.error_estimate = error;
  out.message = "the curve ends at a grazing (" + first_ + " = " + number_text(estimate[m]) +
                ", " + second_ + " = " + number_text(estimate[n]) + ")";
  return out;
}

}  // namespace libcont
