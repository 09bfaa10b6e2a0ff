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

bool OrbitCurveProblem::approach_value(ConstVectorRef u, double lambda, ContactApproach::Type type,
                                       double t, double& value) {
  MapEvaluation e;
  if (!map_at(u, lambda, false, e)) return false;
  const double period = system_.forcing_period();
  std::optional<ContactApproach> nearest;
  for (const ContactApproach& a : e.measures.approaches) {
    if (a.type != type) continue;
    const double shift = std::abs(std::remainder(a.t - t, period_ * period));
    if (shift <= 0.25 * period &&
        (!nearest || shift < std::abs(std::remainder(nearest->t - t, period_ * period))))
      nearest = a;
  }
  if (!nearest) return false;
  value = nearest->value;
  return true;
}

BoundaryPassage OrbitCurveProblem::pass_boundary(int, const BranchPoint& last,
                                                 const BoundarySettings& settings) {
  BoundaryPassage out;
  out.handled = true;
  const int n = system_.dimension(), m = dimension();
  Vector residual, dlambda;
  Matrix du;
  set_chart(last.chart);
  if (!evaluate(last.u, last.lambda, residual, du, dlambda)) {
    out.declined = true;
    return out;
  }
  const GrazingScales scales = grazing_scales(measures_, system_.forcing_period());
  const auto nearest = nearest_grazing(measures_, scales);
  if (!nearest) {
    out.declined = true;
    return out;
  }
  const ContactApproach::Type type = nearest->type;
  const double scale =
      type == ContactApproach::Type::Impact ? scales.speed : scales.length;
  double t = nearest->t;

  // The augmented system: F(u, lambda) = 0 and value(u, lambda) = scale sigma, by Newton
  // with the value's derivatives from central differences of plain maps. Near the grazing
  // the map's Jacobian grows like 1/sigma and a full Newton step may reach across it (the
  // approach is then gone): such a step is halved.
  const auto mismatch_at = [&](ConstVectorRef y, double sigma, double& mismatch) {
    double value = 0.0;
    if (!evaluate(y.head(m), y[m], residual, du, dlambda) ||
        !approach_value(y.head(m), y[m], type, t, value))
      return false;
    mismatch = value - scale * sigma;
    return true;
  };
  const auto solve = [&](double sigma, Vector& y) {
    Matrix j(m + 1, m + 1);
    Vector rhs(m + 1);
    double mismatch = 0.0;
    if (!mismatch_at(y, sigma, mismatch)) return false;
    for (int it = 0; it < 12; ++it) {
      if (it > 0 && residual.norm() <= 1e-10 * (1.0 + y.head(m).norm()) &&
          std::abs(mismatch) <= 1e-10 * scale)
        return true;
      j.topLeftCorner(m, m) = du;
      j.topRightCorner(m, 1) = dlambda;
      for (int k = 0; k <= m; ++k) {
        const double h = step_of(k < m ? std::min(k, n + 1) : n + 1, y.head(m), y[m]) *
                         (k < n ? 1.0 : std::max(sigma, 1e-4));
        Vector plus = y, minus = y;
        plus[k] += h;
        minus[k] -= h;
        double vp = 0.0, vm = 0.0;
        if (!approach_value(plus.head(m), plus[m], type, t, vp) ||
            !approach_value(minus.head(m), minus[m], type, t, vm))
          return false;
        j(m, k) = (vp - vm) / (2.0 * h);
      }
      rhs << -residual, -mismatch;
      const Vector step = j.partialPivLu().solve(rhs);
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
  // The orbit at sigma predicted by the polynomial through the last (at most three) orbits.
  const auto predict = [](const std::vector<double>& s, const std::vector<Vector>& y,
                          double sigma) {
    const size_t k = std::min<size_t>(3, s.size());
    std::vector<double> shifted;
    for (size_t i = s.size() - k; i < s.size(); ++i) shifted.push_back(s[i] - sigma);
    return extrapolate_to_zero(shifted, std::vector<Vector>(y.end() - static_cast<long>(k), y.end()));
  };

  // Down from where the engine stopped, each orbit predicted by the polynomial through the
  // ones before; extrapolations to sigma = 0 of two successive orders (the last at most six
  // orbits within a tenth of the way) until they agree to the tolerance.
  Vector y(m + 1);
  y << last.u, last.lambda;
  std::vector<double> sigmas{last.tests[last.tests.size() - 1]};
  std::vector<Vector> ys{y};
  Vector estimate;
  double error = std::numeric_limits<double>::infinity();
  double ratio = grazing.ratio;
  for (double sigma = sigmas.front() * ratio; sigma >= grazing.smallest_distance;
       sigma = sigmas.back() * ratio) {
    Vector next = predict(sigmas, ys, sigma);
    if (!solve(sigma, next)) {
      // A shorter way down first (the prediction's error goes with its square).
      if (ratio > 0.9) break;
      ratio = std::sqrt(ratio);
      continue;
    }
    ratio = grazing.ratio;
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
      const BranchPoint& inside = out.points.empty() ? last : out.points.back();
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
    out.points.push_back(std::move(row));
    for (const ContactApproach& a : measures_.approaches)
      if (a.type == type && std::abs(std::remainder(a.t - t, period_ * system_.forcing_period())) <=
                                0.25 * system_.forcing_period())
        t = a.t;  // the approach drifts in time as the orbit moves
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
  if (estimate.size() == 0) {
    // The curve does not come closer (its distance turns before the grazing): the engine
    // goes on along it from its last point.
    out.points.clear();
    out.declined = true;
    out.message = "the curve turns away from the grazing";
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
