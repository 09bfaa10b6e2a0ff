#pragma once
// Branches of the moving-base impact oscillator (hard impacts) continued through grazing,
// checked against the closed form of impact_oscillator_closed_form.hpp. Shared by the
// worked examples (test_grazing_passage.cpp) and the generated campaign
// (test_grazing_campaign.cpp).
//
// The closed form knows the non-impacting orbit N and the two branches B0, B1 of each
// z = 1/n impacting family (the two roots of its phase equation, continuous in the
// parameter while they exist). A branch traced from a start on one of them goes, in the
// closed form, along a predictable path (closed_form_path): on N to N's next grazing, where
// the impacting branch whose impact grazes there takes over on the side where it is
// admissible (beyond: persistence, back: a nonsmooth fold); on Bb past its period
// doublings to its next fold (on to the other branch, back), impact grazing (on to N, on
// the side where N clears the base) or interior grazing (a flight touching the base between
// impacts: the branch goes on along an orbit with one impact more, which the closed form
// does not list; the path's coverage ends there). The special points on that path are
// exactly the ones the traced branch must report, and the rows between two of its
// transitions (folds, grazings) must be orbits of the path's family there.
//
// analyse() checks a traced branch against that path and returns its failures as text:
//  rows   every row an orbit of the closed-form map with the impacts it records, within
//         the corrector's criterion |P(u) - u| <= 1e-9 (1 + |u|), inside the range;
//  jumps  the impact count changes only across a recorded grazing; each row is an orbit of
//         the path's family between the transitions recorded before it; the chord between
//         successive rows lies within 60 degrees of their unit tangents (a smooth branch,
//         whose tangent turns by at most 30 degrees a step, has its chords between its
//         tangents) and is at most 3 largest steps long;
//  points every special point of the path found within `tolerance` (1e-8) with the right
//         type (and kind, for a grazing), in the path's order, and every point reported
//         one of the path's; past an interior grazing, a reported fold or period doubling
//         must be one of the closed-form map's (closed_form_point), within the tolerance
//         too; a grazing there is counted as unchecked;
//  end    where the path ends on the range's bound, the branch ends there with ok; past an
//         interior grazing, the branch ends with ok (wherever the closed form cannot say).
// Duplicated rows (the same orbit recorded twice) are counted, not failed.
//
// The closed form's own listing (special_points) is made complete near folds and at impact
// grazings (complete_listing), where its sampled scan can miss a root next to a branch's
// end.
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "impact_oscillator_closed_form.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"

namespace grazing_campaign {

using libcont::ContinuationResult;
using libcont::ContinuationStatus;
using libcont::GrazingKind;
using libcont::SpecialPoint;
using libcont::SpecialPointType;
using libcont::Vector;
using test_support::ClosedFormSpecialPoint;
using test_support::ImpactingOrbit;
using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;
using test_support::Vec2;

inline systems::MovingBaseOscillator model(const ImpactOscillatorParameters& p) {
  systems::MovingBaseOscillator system;
  for (const char* name : {"m", "k", "c", "a", "d", "r", "omega"}) system.set_parameter(name, p[name]);
  return system;
}

inline std::string number(double v, int digits = 13) {
  std::ostringstream s;
  s.precision(digits);
  s << v;
  return s.str();
}

// ---------------------------------------------------------------------------------------------
// A case: the branch of the motion settled from rest at `from`, continued towards `to`.
struct Case {
  ImpactOscillatorParameters p;
  std::string parameter;
  double from = 0, to = 0;
  int n = 1;
  // Where set, the range reaches behind `from` to here (as `vicont diagram` continues a
  // branch found inside its range); by default it starts at `from`.
  std::optional<double> behind = std::nullopt;
  // Where set, the branch starts from the orbit through this state on the section t = 0
  // (one that settling from rest does not reach) instead of the motion settled from rest.
  std::optional<Vec2> state = std::nullopt;
  // Where set, the grazing passage's options instead of the defaults.
  std::optional<libcont::GrazingPassageOptions> passage = std::nullopt;
  double lo() const { return std::min({from, to, behind.value_or(from)}); }
  double hi() const { return std::max({from, to, behind.value_or(from)}); }
  double span() const { return hi() - lo(); }
  // Its reproduction: the parameters, the continued one and its way.
  std::string describe() const {
    std::string s = "r=" + number(p.r) + " d=" + number(p.d) + " c=" + number(p.c) +
                    " a=" + number(p.a) + " eta=" + number(p.eta);
    if (p.m != 1 || p.k != 1) s += " m=" + number(p.m) + " k=" + number(p.k);
    s += "; " + parameter + " " + number(from) + " -> " + number(to);
    if (n != 1) s += " (n=" + std::to_string(n) + ")";
    if (behind) s += ", range from " + number(*behind);
    if (state) s += ", from x = " + number((*state)[0], 17) + ", v = " + number((*state)[1], 17);
    if (passage) s += ", passage ratio " + number(passage->ratio);
    return s;
  }
};

// The traced branch as `vicont continue` does by default (range / 100 first step, / 20
// largest, 1e-9 of the range locating); `boundary` < 0: min(1e-10 range, locating).
struct Traced {
  bool started = false;
  std::string failure;  // why it did not start, or the exception it threw
  ContinuationResult branch;
  Eigen::Index impacts_column = 1;
  std::vector<std::string> data_names;  // of the branch's rows
  double max_step = 0;
  Vector settled;  // the library's state after settling (400 periods from rest)
  // A row's impact count (its data's "impacts").
  int impacts(const libcont::BranchPoint& row) const {
    return static_cast<int>(std::lround(row.data[impacts_column]));
  }
};

// max_step > 0 instead of the default range / 20.
inline Traced trace(const Case& c, double locate = 1e-9, double boundary = -1.0,
                    double max_step = -1.0) {
  Traced out;
  try {
    systems::MovingBaseOscillator system = model(c.p.with(c.parameter, c.from));
    const double phase = c.state ? 0.0 : 0.5 * system.forcing_period();
    libcont::StroboscopicMap map(system, {}, phase);
    Vector x = Vector::Zero(2);
    if (c.state) {
      x << (*c.state)[0], (*c.state)[1];
    } else {
      x[0] = c.p.d + 0.5 * std::abs(c.p.d);  // clear of the base
      for (int k = 0; k < 400; ++k) x = map.iterate(x, 1, false).x;
      out.settled = x;
    }
    const auto shot = libcont::Shooting(system, c.n, {}, phase).solve(x);
    if (!shot.converged) {
      out.failure = "shooting from the settled motion did not converge";
      return out;
    }
    libcont::PeriodicOrbitProblem problem(system, c.parameter, c.n, {}, phase);
    if (c.passage) problem.grazing = *c.passage;
    const auto names = problem.point_data_names();
    out.impacts_column = std::find(names.begin(), names.end(), "impacts") - names.begin();
    out.data_names = names;
    libcont::ContinuationOptions options;
    const double span = c.span();
    options.lambda_min = c.lo();
    options.lambda_max = c.hi();
    options.direction = c.to > c.from ? 1 : -1;
    options.max_step = max_step > 0 ? max_step : span / 20;
    options.initial_step = std::min(span / 100, options.max_step);
    options.min_step = span * 1e-8;
    options.locate_tolerance = span * locate;
    options.boundary_tolerance =
        boundary > 0 ? boundary : std::min(1e-10 * span, options.locate_tolerance);
    out.max_step = options.max_step;
    out.started = true;
    out.branch = libcont::PseudoArclength(problem, options).run(shot.x, c.from);
  } catch (const std::exception& e) {
    out.failure = std::string("exception: ") + e.what();
    out.started = false;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Families of the closed form.
enum class Family { NonImpacting, Branch0, Branch1, Unknown };

inline std::string name_of(Family f) {
  switch (f) {
    case Family::NonImpacting:
      return "N";
    case Family::Branch0:
      return "B0";
    case Family::Branch1:
      return "B1";
    default:
      return "?";
  }
}
inline Family branch_family(int b) { return b == 0 ? Family::Branch0 : Family::Branch1; }
inline int branch_of(Family f) { return f == Family::Branch0 ? 0 : f == Family::Branch1 ? 1 : -1; }

// The closed-form flow from (t0, x0) to t1 >= t0, impacts included; false if it sticks.
inline bool advance(const ImpactOscillatorClosedForm& cf, double t0, Vec2 x, double t1, Vec2& out) {
  double t = t0;
  int impacts = 0;
  while (t < t1) {
    const auto scan = cf.scan_flight(t, x, t1 - t, true);
    if (!(scan.impact_time <= t1)) {
      x = cf.flight(t, x, t1);
      break;
    }
    if (scan.impact_time == t && impacts > 0) return false;
    x = cf.impact_reset(scan.impact_time, cf.flight(t, x, scan.impact_time));
    t = scan.impact_time;
    if (++impacts > 1000) return false;
  }
  out = x;
  return true;
}

// The state of family f on the section t = chart (mod T), nearest to u (n of them for
// z = 1/n); false if f has no orbit there.
inline bool family_state(const ImpactOscillatorClosedForm& cf, Family f, int n, double chart,
                         const Vec2& u, Vec2& state, bool admissible_only = false) {
  if (f == Family::NonImpacting) {
    state = cf.steady(chart);
    return !admissible_only || cf.nonimpacting_min_gap() > 0;
  }
  ImpactingOrbit orbit;
  if (!cf.impacting_orbit(n, branch_of(f), orbit)) return false;
  if (admissible_only && !orbit.admissible) return false;
  double best = std::numeric_limits<double>::infinity();
  for (const Vec2& s : cf.section_states(orbit, chart))
    if ((s - u).norm() < best) {
      best = (s - u).norm();
      state = s;
    }
  return true;
}

// Which family a row (chart, u) with `impacts` impacts over n periods is an orbit of:
// Unknown if none within 1e-6 of its size; `ambiguous` when both impacting branches are
// (next to a fold, where they meet).
struct Identified {
  Family family = Family::Unknown;
  bool ambiguous = false;
  double distance = std::numeric_limits<double>::infinity();
};
inline Identified identify(const ImpactOscillatorClosedForm& cf, int n, double chart, const Vec2& u,
                           int impacts) {
  // A row solves the map to 1e-9, so its distance to its family's orbit is that over the
  // smallest singular value of DP - I: small, but large next to a fold. So the nearest
  // family, unless it is far (no closed-form orbit at all), and both branches when they are
  // about as near (by a factor of 10; at a fold they meet).
  Identified out;
  const double scale = u.norm() + cf.parameters().a;
  if (impacts == 0) {
    out.distance = (cf.steady(chart) - u).norm();
    if (out.distance <= 1e-3 * scale) out.family = Family::NonImpacting;
    return out;
  }
  if (impacts != 1) return out;
  double dist[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (int b = 0; b < 2; ++b) {
    Vec2 s;
    if (family_state(cf, branch_family(b), n, chart, u, s)) dist[b] = (s - u).norm();
  }
  const int best = dist[1] < dist[0] ? 1 : 0;
  out.distance = dist[best];
  if (dist[best] <= 1e-3 * scale) out.family = branch_family(best);
  out.ambiguous = dist[1 - best] <= std::max(10.0 * dist[best], 1e-6 * scale);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The settled motion from rest at `from` by the closed-form map (as trace() settles it with
// the library's): N, or a branch of the z = 1/n family; Unknown otherwise.
struct Settled {
  Family family = Family::Unknown;
  Vec2 state = Vec2::Zero();  // after 400 periods from rest, on the section t = T/2
  std::string why;
  std::string category;  // of why, for counting exclusions
};
inline Settled settle(const Case& c) {
  Settled out;
  const auto p = c.p.with(c.parameter, c.from);
  const ImpactOscillatorClosedForm cf(p);
  const double phase = 0.5 * cf.period();
  // As trace() starts, but on the base where that is below it by rounding (d = 0).
  Vec2 x(std::max(p.d + 0.5 * std::abs(p.d), cf.base(phase)), 0.0);
  int low = 1 << 30, high = -1;
  for (int k = 0; k < 400; ++k) {
    const auto image = cf.poincare_map(phase, x, 1, 200);
    if (!image.ok) {
      out.why = "the settling flight fails: " + image.message;
      out.category = "settles into sticking or chattering";
      return out;
    }
    x = image.x;
    if (k >= 400 - 4 * c.n) {
      low = std::min(low, image.impacts);
      high = std::max(high, image.impacts);
    }
  }
  out.state = x;
  const auto image = cf.poincare_map(phase, x, c.n, 200);
  const double scale = x.norm() + p.a;
  if (!image.ok || (image.x - x).norm() > 1e-4 * scale) {
    out.why = "the settled motion is not of period " + std::to_string(c.n) + " (impacts per period " +
              std::to_string(low) + ".." + std::to_string(high) + ")";
    out.category = "settles on no orbit of period " + std::to_string(c.n);
    return out;
  }
  if (image.impacts > 1) {
    out.why = "the settled motion has " + std::to_string(image.impacts) + " impacts per " +
              std::to_string(c.n) + " periods";
    out.category = "settles on a z = " + std::to_string(image.impacts) + "/" + std::to_string(c.n) + " orbit";
    return out;
  }
  // The family it settled on: the nearest admissible orbit.
  double best = std::numeric_limits<double>::infinity();
  for (Family f : {Family::NonImpacting, Family::Branch0, Family::Branch1}) {
    if ((f == Family::NonImpacting) != (image.impacts == 0)) continue;
    Vec2 s;
    if (!family_state(cf, f, c.n, phase, x, s, true)) continue;
    const double dist = (s - x).norm();
    if (dist < best) {
      best = dist;
      out.family = f;
    }
  }
  if (best > 1e-3 * scale) {
    out.family = Family::Unknown;
    out.why = "the settled motion is no closed-form orbit (distance " + number(best, 3) + ")";
    out.category = "settles on no closed-form orbit";
  }
  return out;
}

// Whether the library's settling (trace()) ended where the closed form's did: not so after a
// long chaotic transient, where the two flows' rounding differences grow until they end on
// different attractors (the case then has no one start).
inline bool same_settling(const Settled& start, const Traced& traced) {
  if (traced.settled.size() != 2) return true;  // no settling to compare (an exception)
  const Vec2 x(traced.settled[0], traced.settled[1]);
  return (x - start.state).norm() <= 1e-6 * (start.state.norm() + 1e-3);
}

// ---------------------------------------------------------------------------------------------
// The closed form's path of a branch from its start family.
struct PathEvent {
  std::string type;    // the library's type: "grazing", "fold", "period-doubling"
  std::string detail;  // a grazing's kind
  double value = 0;
  Family before = Family::Unknown, after = Family::Unknown;  // the same unless a transition
  bool transition() const { return before != after; }
};
struct ClosedFormPath {
  Family start = Family::Unknown;
  std::vector<PathEvent> events;
  std::vector<Family> segments;  // families between transitions, in order
  // How it ends: "bound" (on end_value, the range's bound), "coverage" (an interior grazing:
  // the branch goes on along a family the closed form does not list), "no-continuation"
  // (at a grazing no admissible orbit of the other family leaves), "loop" (an isola).
  std::string end;
  double end_value = 0;
  std::vector<ClosedFormSpecialPoint> listing;  // special_points() of the range
};

// The closed form's special points of the range (special_points()), made complete where its
// sampled scan is blind: a root of a branch's quantity within a sample of a fold, where the
// branch ends, has no bracket, nor one within a sample of an impact grazing, where the
// multipliers have a pole. So each fold's neighbourhood is scanned again finely, each impact
// grazing is taken from the non-impacting orbit's grazings (always a single root: an impact
// with zero speed is a touch of the non-impacting orbit, for n = 1 and for z = 1/n alike), on
// the branch whose impact speed vanishes there, and that branch is scanned on a geometric
// grid towards the grazing.
inline std::vector<ClosedFormSpecialPoint> complete_listing(const Case& c, int samples) {
  const double lo = c.lo(), hi = c.hi(), span = c.span();
  auto listing = test_support::special_points(c.p, c.parameter, lo, hi, c.n, samples);
  const auto known = [&](const ClosedFormSpecialPoint& p) {
    for (const auto& q : listing)
      if (q.type == p.type && q.branch == p.branch && std::abs(q.value - p.value) <= 1e-9 * span) return true;
    return false;
  };
  const double h = span / samples;
  std::vector<ClosedFormSpecialPoint> extra;
  for (const auto& f : listing) {
    if (f.type != "fold") continue;
    const double a = std::max(lo, f.value - 3 * h), b = std::min(hi, f.value + 3 * h);
    for (const auto& p : test_support::special_points(c.p, c.parameter, a, b, c.n, 600))
      if (!known(p)) extra.push_back(p);
  }
  for (const auto& p : extra)
    if (!known(p)) listing.push_back(p);
  // Impact grazings: at each grazing of the non-impacting orbit, the branch whose impact
  // speed vanishes (evaluated there, or just beside it where the branch ends there).
  std::vector<ClosedFormSpecialPoint> grazings;
  for (const auto& g : listing)
    if (g.type == "grazing") grazings.push_back(g);
  for (const auto& g : grazings) {
    const ImpactOscillatorClosedForm cf(c.p.with(c.parameter, g.value));
    const double speed = cf.parameters().eta * (std::abs(cf.response()) + cf.parameters().a);
    int which = -1;
    double slowest = 1e-3 * speed;
    ImpactingOrbit orbit;
    for (int b = 0; b < 2; ++b)
      for (double shift : {0.0, 1e-9 * span, -1e-9 * span}) {
        if (!ImpactOscillatorClosedForm(c.p.with(c.parameter, g.value + shift)).impacting_orbit(c.n, b, orbit))
          continue;
        if (std::abs(orbit.impact_velocity) < slowest) {
          slowest = std::abs(orbit.impact_velocity);
          which = b;
        }
        break;
      }
    if (which < 0) continue;
    // Next to the grazing the branch's multiplier runs off to infinity (like 1/v): one going
    // to -infinity passes -1 within a sample of the pole, where the scan sees no bracket.
    // So its period doubling (and any interior grazing) there is found on a geometric grid
    // towards the grazing on either side.
    for (double side : {-1.0, 1.0}) {
      double previous_x = 0, previous[2] = {0, 0};
      bool have = false;
      for (double delta = 1e-13 * span; delta <= 3 * h; delta *= 1.5) {
        const double x = g.value + side * delta;
        if (x < lo || x > hi) break;
        ImpactingOrbit o;
        if (!ImpactOscillatorClosedForm(c.p.with(c.parameter, x)).impacting_orbit(c.n, which, o)) {
          have = false;
          continue;
        }
        const double now[2] = {o.det_plus, o.min_interior_gap};
        for (int q = 0; q < 2 && have; ++q) {
          if (!std::isfinite(now[q]) || !std::isfinite(previous[q]) || now[q] * previous[q] >= 0) continue;
          const auto f = [&](double v) {
            ImpactingOrbit w;
            if (!ImpactOscillatorClosedForm(c.p.with(c.parameter, v)).impacting_orbit(c.n, which, w))
              return std::numeric_limits<double>::quiet_NaN();
            return q == 0 ? w.det_plus : w.min_interior_gap;
          };
          const double root = test_support::brent_root(f, std::min(previous_x, x), std::max(previous_x, x));
          ImpactingOrbit at;
          if (!ImpactOscillatorClosedForm(c.p.with(c.parameter, root)).impacting_orbit(c.n, which, at)) continue;
          ClosedFormSpecialPoint p;
          p.type = q == 0 ? "period-doubling" : "interior-grazing";
          p.value = root;
          p.tau = at.tau;
          p.branch = which;
          p.admissible = q == 0 ? at.admissible : at.impact_velocity < 0;
          if (!known(p)) listing.push_back(p);
        }
        previous_x = x;
        previous[0] = now[0];
        previous[1] = now[1];
        have = true;
      }
    }
    ClosedFormSpecialPoint p = g;
    p.type = "impact-grazing";
    p.branch = which;
    // Replaces the scan's own, if it has it (the same root of another function).
    listing.erase(std::remove_if(listing.begin(), listing.end(),
                                 [&](const ClosedFormSpecialPoint& q) {
                                   return q.type == "impact-grazing" && q.branch == which &&
                                          std::abs(q.value - g.value) <= 1e-8 * span;
                                 }),
                  listing.end());
    listing.push_back(p);
  }
  std::sort(listing.begin(), listing.end(),
            [](const ClosedFormSpecialPoint& x, const ClosedFormSpecialPoint& y) { return x.value < y.value; });
  return listing;
}

inline ClosedFormPath closed_form_path(const Case& c, Family start, int samples = 2000) {
  ClosedFormPath path;
  path.start = start;
  path.segments.push_back(start);
  const double span = c.span();
  path.listing = complete_listing(c, samples);
  const auto model_at = [&](double v) { return ImpactOscillatorClosedForm(c.p.with(c.parameter, v)); };
  const double eps = 1e-9 * span, same = 1e-12 * std::max(1.0, span);
  Family family = start;
  double lambda = c.from;
  int dir = c.to > c.from ? 1 : -1;
  for (int k = 0; k < 60; ++k) {
    // The next point of the family's listing on the way.
    const ClosedFormSpecialPoint* next = nullptr;
    for (const auto& s : path.listing) {
      const double ahead = (s.value - lambda) * dir;
      if (!(ahead > eps)) continue;
      bool relevant = false;
      if (family == Family::NonImpacting)
        relevant = s.type == "grazing";
      else
        relevant = s.type == "fold" || (s.branch == branch_of(family) &&
                                        (s.type == "period-doubling" || s.type == "impact-grazing" ||
                                         s.type == "interior-grazing"));
      if (relevant && (next == nullptr || ahead < (next->value - lambda) * dir)) next = &s;
    }
    if (next == nullptr) {
      path.end = "bound";
      path.end_value = dir > 0 ? c.hi() : c.lo();
      return path;
    }
    PathEvent e;
    e.value = next->value;
    e.before = family;
    e.after = family;
    const double v = next->value;
    // The sides of a grazing are looked at within half the distance to the nearest other
    // point of the listing (a fold can lie within 1e-9 of a grazing).
    double delta = 1e-6 * span;
    for (const auto& s : path.listing)
      if (std::abs(s.value - v) > same) delta = std::min(delta, 0.5 * std::abs(s.value - v));
    if (next->type == "period-doubling") {
      e.type = "period-doubling";
    } else if (next->type == "fold") {
      e.type = "fold";
      e.after = family == Family::Branch0 ? Family::Branch1 : Family::Branch0;
      dir = -dir;
    } else if (next->type == "interior-grazing") {
      e.type = "grazing";
      e.detail = "interior-tangency";
      e.after = Family::Unknown;
      path.events.push_back(e);
      path.segments.push_back(e.after);
      path.end = "coverage";
      path.end_value = v;
      return path;
    } else if (next->type == "impact-grazing") {
      // Onto N, on the side where it clears the base.
      e.type = "grazing";
      e.detail = "impact-velocity";
      e.after = Family::NonImpacting;
      const bool beyond = model_at(v + dir * delta).nonimpacting_min_gap() > 0;
      const bool back = model_at(v - dir * delta).nonimpacting_min_gap() > 0;
      if (!beyond && !back) {
        path.events.push_back(e);
        path.end = "no-continuation";
        path.end_value = v;
        return path;
      }
      if (!beyond) dir = -dir;
    } else {  // N's grazing: onto the impacting branch whose impact grazes there
      e.type = "grazing";
      e.detail = "non-impacting-gap";
      int side = 0;
      for (const auto& s : path.listing) {
        if (s.type != "impact-grazing" || std::abs(s.value - v) > same) continue;
        for (int sd : {+1, -1}) {
          ImpactingOrbit orbit;
          if (model_at(v + sd * dir * delta).impacting_orbit(c.n, s.branch, orbit) && orbit.admissible) {
            e.after = branch_family(s.branch);
            side = sd;
          }
        }
      }
      if (side == 0) {
        path.events.push_back(e);
        path.end = "no-continuation";
        path.end_value = v;
        return path;
      }
      if (side < 0) dir = -dir;
    }
    path.events.push_back(e);
    if (e.transition()) path.segments.push_back(e.after);
    family = e.after;
    lambda = v;
  }
  path.end = "loop";
  return path;
}

// ---------------------------------------------------------------------------------------------
// A fold or period doubling on a family the closed form does not list (orbits with more
// impacts, past an interior grazing), from the closed-form map alone: Newton on
// P^n(u; lambda) - u = 0 and det(D P^n -+ I) = 0 from the reported point, D P^n by central
// differences of step `step` (relative to the orbit's size) and h/2, extrapolated
// (Richardson): near a slow impact the map curves on the scale of that impact's distance to
// grazing (v^2 over the gap's curvature), and a plain difference misplaces the point by
// 1e-6. The map's impacts must stay those of the point. False if it does not converge; else
// `value` is the closed form's parameter value.
inline bool closed_form_point(const Case& c, const SpecialPoint& s, int impacts, double& value,
                              double step = 4e-7) {
  if (s.type != SpecialPointType::Fold && s.type != SpecialPointType::PeriodDoubling) return false;
  const double sign = s.type == SpecialPointType::Fold ? -1.0 : 1.0;
  const double scale = std::abs(s.u[0]) + std::abs(s.u[1]) + c.p.a;
  bool valid = true;
  const auto map = [&](const Vec2& u, double lambda) {
    const auto image = ImpactOscillatorClosedForm(c.p.with(c.parameter, lambda)).poincare_map(s.chart, u, c.n);
    if (!image.ok || image.impacts != impacts) valid = false;
    return image.x;
  };
  const auto G = [&](const Eigen::Vector3d& y) {
    const Vec2 u(y[0], y[1]);
    const auto jacobian = [&](double h) {
      Eigen::Matrix2d J;
      for (int j = 0; j < 2; ++j) {
        Vec2 e = Vec2::Zero();
        e[j] = h;
        J.col(j) = (map(u + e, y[2]) - map(u - e, y[2])) / (2 * h);
      }
      return J;
    };
    const double h = step * scale;
    const Eigen::Matrix2d J = (4.0 * jacobian(0.5 * h) - jacobian(h)) / 3.0;
    const Vec2 f = map(u, y[2]) - u;
    return Eigen::Vector3d(f[0] / scale, f[1] / scale, (J + sign * Eigen::Matrix2d::Identity()).determinant());
  };
  // Converged when the parameter's last three Newton steps are below 3e-10 (its noise from
  // the differences' rounding stays below that): the point to that accuracy, a thirtieth of
  // the 1e-8 it is checked to.
  Eigen::Vector3d y(s.u[0], s.u[1], s.lambda);
  double recent[3] = {1e300, 1e300, 1e300};
  for (int it = 0; it < 30; ++it) {
    const Eigen::Vector3d g = G(y);
    if (!valid) return false;
    Eigen::Matrix3d D;
    for (int j = 0; j < 3; ++j) {
      Eigen::Vector3d e = Eigen::Vector3d::Zero();
      e[j] = j < 2 ? 1e-6 * scale : 1e-6 * c.span();
      D.col(j) = (G(y + e) - G(y - e)) / (2 * e[j]);
    }
    const Eigen::Vector3d update = D.fullPivLu().solve(-g);
    if (!update.allFinite() || !valid) return false;
    y += update;
    recent[it % 3] = std::abs(update[2]);
    if (std::max({recent[0], recent[1], recent[2]}) <= 3e-10 && g.head(2).norm() <= 1e-11) {
      value = y[2];
      return true;
    }
  }
  return false;
}

// det(D P^n + sign I) of the closed-form map at a row (central differences); false if the map
// there does not keep the row's impacts.
inline bool closed_form_det(const Case& c, const libcont::BranchPoint& row, int impacts, double sign,
                            double& det) {
  const ImpactOscillatorClosedForm cf(c.p.with(c.parameter, row.lambda));
  const Vec2 u(row.u[0], row.u[1]);
  bool valid = true;
  const auto jacobian = [&](double h) {
    Eigen::Matrix2d J;
    for (int j = 0; j < 2; ++j) {
      Vec2 e = Vec2::Zero();
      e[j] = h;
      const auto plus = cf.poincare_map(row.chart, u + e, c.n), minus = cf.poincare_map(row.chart, u - e, c.n);
      valid = valid && plus.ok && minus.ok && plus.impacts == impacts && minus.impacts == impacts;
      J.col(j) = (plus.x - minus.x) / (2 * h);
    }
    return J;
  };
  const double h = 4e-7 * (u.norm() + c.p.a);  // as closed_form_point, with Richardson
  const Eigen::Matrix2d J = (4.0 * jacobian(0.5 * h) - jacobian(h)) / 3.0;
  det = (J + sign * Eigen::Matrix2d::Identity()).determinant();
  return valid;
}

// A grazing on a family the closed form does not list, from the closed-form map alone: the
// branch's last rows before it (the arriving family, approached in its grazing coordinate)
// are made exact fixed points of the closed-form map at their parameter values (Newton with
// central differences), their coordinate measured on the exact orbit (the smallest interior
// gap minimum, or the slowest impact's speed), and the parameter extrapolated to the
// coordinate's zero by Neville's polynomial, in which both families are smooth (theory 6.3);
// the difference of two orders is the estimate. False where it cannot be had (fewer than
// three rows of the arriving family at spread-out coordinates).
inline bool closed_form_grazing(const Case& c, const ContinuationResult& branch, Eigen::Index ic,
                                const SpecialPoint& s, double& value, double& estimate) {
  if (s.type != SpecialPointType::Grazing || (s.grazing_kind != GrazingKind::InteriorTangency &&
                                               s.grazing_kind != GrazingKind::ImpactVelocity))
    return false;
  const bool gap = s.grazing_kind == GrazingKind::InteriorTangency;
  const auto& rows = branch.points;
  if (s.after_point < 0) return false;
  const int impacts = static_cast<int>(std::lround(rows[static_cast<size_t>(s.after_point)].data[ic]));
  std::vector<double> coordinate, lambda;
  for (int i = s.after_point; i >= 0 && coordinate.size() < 5; --i) {
    const auto& row = rows[static_cast<size_t>(i)];
    if (std::lround(row.data[ic]) != impacts) break;
    const ImpactOscillatorClosedForm cf(c.p.with(c.parameter, row.lambda));
    Vec2 u(row.u[0], row.u[1]);
    const double scale = u.norm() + c.p.a, h = 1e-7 * scale;
    bool ok = true;
    for (int it = 0; it < 6 && ok; ++it) {
      const auto image = cf.poincare_map(row.chart, u, c.n);
      ok = image.ok && image.impacts == impacts;
      if (!ok || (image.x - u).norm() <= 1e-15 * scale) break;
      Eigen::Matrix2d J;
      for (int j = 0; j < 2; ++j) {
        Vec2 e = Vec2::Zero();
        e[j] = h;
        J.col(j) = (cf.poincare_map(row.chart, u + e, c.n).x - cf.poincare_map(row.chart, u - e, c.n).x) / (2 * h);
      }
      u -= (J - Eigen::Matrix2d::Identity()).fullPivLu().solve(image.x - u);
    }
    const auto image = cf.poincare_map(row.chart, u, c.n);
    if (!ok || !image.ok || image.impacts != impacts) break;
    const double q = gap ? image.min_interior_gap : image.slowest_impact_speed;
    if (!std::isfinite(q) || (!coordinate.empty() && !(q > 0.99 * coordinate.back()))) break;
    // Points spread out (as the approach's geometric sequence is): rows bunched together
    // would make the extrapolation ill-conditioned.
    if (!coordinate.empty() && q < 1.3 * coordinate.back()) continue;
    coordinate.push_back(q);
    lambda.push_back(row.lambda);
  }
  if (coordinate.size() < 3) return false;
  // Neville at zero through the points, and through all but the farthest.
  const auto neville = [&](size_t k) {
    std::vector<double> p(lambda.begin(), lambda.begin() + static_cast<long>(k));
    for (size_t level = 1; level < k; ++level)
      for (size_t i = 0; i + level < k; ++i)
        p[i] = (coordinate[i + level] * p[i] - coordinate[i] * p[i + 1]) / (coordinate[i + level] - coordinate[i]);
    return p[0];
  };
  value = neville(coordinate.size());
  estimate = std::abs(value - neville(coordinate.size() - 1));
  return true;
}

// ---------------------------------------------------------------------------------------------
struct Analysis {
  std::vector<std::string> failures;
  int rows = 0;
  int expected = 0;            // the path's special points (within its coverage)
  int found = 0;               // of them, located within the tolerance
  int unverified = 0;          // points reported beyond the closed form's coverage, unchecked
  int beyond = 0;              // of the expected: beyond it, checked by the closed-form map
  double worst_error = 0;      // of the located points, in the parameter
  double worst_relative = 0;   // the same over the range's span
  std::string worst_point;
  int duplicates = 0;          // rows repeating the row before (a zero step)
  std::vector<std::string> unverified_points;
  std::map<std::string, std::array<int, 2>> by_type;  // type(/kind): expected, found
};

inline std::string point_text(const SpecialPoint& s) {
  return s.type_name() + (s.detail.empty() ? "" : "/" + s.detail) + "@" + number(s.lambda);
}
inline std::string listing(const ContinuationResult& branch) {
  std::string text = branch.stop_reason + " (" + std::to_string(branch.points.size()) +
                     " rows, last at " + (branch.points.empty() ? "-" : number(branch.points.back().lambda)) +
                     "); special points:";
  for (const auto& s : branch.special_points) {
    text += ' ';
    text += point_text(s);
  }
  return text;
}
inline std::string path_text(const ClosedFormPath& path) {
  std::string text = "closed form: start " + name_of(path.start);
  for (const auto& e : path.events)
    text += ", " + e.type + (e.detail.empty() ? "" : "/" + e.detail) + "@" + number(e.value) +
            (e.transition() ? " -> " + name_of(e.after) : "");
  text += ", ends: " + path.end + (path.end == "bound" ? " " + number(path.end_value) : "");
  return text;
}

inline bool is_transition(const SpecialPoint& s) {
  return s.type == SpecialPointType::Fold || s.type == SpecialPointType::Grazing;
}

inline Analysis analyse(const Case& c, const Traced& traced, const ClosedFormPath& path,
                        double tolerance = 1e-8) {
  Analysis out;
  auto fail = [&](const std::string& what) { out.failures.push_back(what); };
  if (!traced.started) {
    fail("did not start: " + traced.failure);
    return out;
  }
  const ContinuationResult& branch = traced.branch;
  const auto& rows = branch.points;
  out.rows = static_cast<int>(rows.size());
  if (rows.empty()) {
    fail("no rows: " + branch.stop_reason);
    return out;
  }
  const Eigen::Index ic = traced.impacts_column;
  const auto impacts_of = [&](const libcont::BranchPoint& row) { return traced.impacts(row); };
  // The library's special points in branch order, and which of them the path covers: all
  // up to the path's coverage end (its interior grazing), matched below.
  const auto& specials = branch.special_points;

  // --- points ----------------------------------------------------------------------------
  std::vector<int> match(path.events.size(), -1);
  std::vector<bool> used(specials.size(), false);
  int last_matched = -1;
  bool order_reported = false;
  for (size_t k = 0; k < path.events.size(); ++k) {
    const PathEvent& e = path.events[k];
    ++out.expected;
    auto& tally = out.by_type[e.type + (e.detail.empty() ? "" : "/" + e.detail)];
    ++tally[0];
    int best = -1;
    double best_error = std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < specials.size(); ++j) {
      if (used[j] || specials[j].type != libcont::special_point_type(e.type)) continue;
      const double err = std::abs(specials[j].lambda - e.value);
      if (err < best_error) {
        best_error = err;
        best = static_cast<int>(j);
      }
    }
    if (best < 0 || best_error > tolerance) {
      std::string what = "missed " + e.type + (e.detail.empty() ? "" : "/" + e.detail) + " at " +
                         number(e.value) + " (" + name_of(e.before) + (e.transition() ? "->" + name_of(e.after) : "") + ")";
      if (best >= 0) what += "; nearest reported " + point_text(specials[best]) + ", off by " + number(best_error, 3);
      fail(what);
      continue;
    }
    used[best] = true;
    match[k] = best;
    ++out.found;
    ++tally[1];
    if (best_error > out.worst_error) {
      out.worst_error = best_error;
      out.worst_point = e.type + "@" + number(e.value);
    }
    out.worst_relative = std::max(out.worst_relative, best_error / c.span());
    if (e.type == "grazing" && specials[best].detail != e.detail)
      fail("grazing at " + number(e.value) + " reported as " + specials[best].detail + ", expected " + e.detail);
    if (best < last_matched && !order_reported) {
      fail("special points out of the closed form's order at " + number(e.value));
      order_reported = true;
    }
    last_matched = std::max(last_matched, best);
  }
  // Where the closed form's coverage ends along the branch: after its interior grazing.
  int coverage_row = std::numeric_limits<int>::max();
  if (path.end == "coverage" && match.back() >= 0) coverage_row = specials[match.back()].after_point + 1;
  for (size_t j = 0; j < specials.size(); ++j) {
    if (used[j]) continue;
    if (specials[j].after_point >= coverage_row) {
      // Past the closed form's families: a fold or period doubling is checked by the map.
      const auto& s = specials[j];
      const int impacts = impacts_of(rows[static_cast<size_t>(s.after_point)]);
      // Two difference steps must agree (to a tenth of the tolerance) for the map's point to
      // count: else the map is too curved there to tell.
      double value = 0, other = 0;
      if (closed_form_point(c, s, impacts, value) && closed_form_point(c, s, impacts, other, 2.5e-7) &&
          std::abs(value - other) <= 0.1 * tolerance) {
        ++out.expected;
        ++out.beyond;
        auto& tally = out.by_type[s.type_name() + " (past an interior grazing)"];
        ++tally[0];
        const double err = std::abs(value - s.lambda);
        if (err > tolerance) {
          fail("reported " + point_text(s) + " past the interior grazing, the closed-form map's is at " +
               number(value) + " (off by " + number(err, 3) + ")");
          continue;
        }
        ++out.found;
        ++tally[1];
        if (err > out.worst_error) {
          out.worst_error = err;
          out.worst_point = s.type_name() + "@" + number(value) + " (closed-form map)";
        }
        out.worst_relative = std::max(out.worst_relative, err / c.span());
        continue;
      }
      // No fold or period doubling of the map near it: one at all between the rows around it?
      const size_t before = static_cast<size_t>(s.after_point);
      double det_before = 0, det_after = 0;
      const bool fold = s.type == SpecialPointType::Fold;
      if ((fold || s.type == SpecialPointType::PeriodDoubling) && before + 1 < rows.size() &&
          closed_form_det(c, rows[before], impacts, fold ? -1.0 : 1.0, det_before) &&
          closed_form_det(c, rows[before + 1], impacts, fold ? -1.0 : 1.0, det_after) &&
          det_before * det_after > 0) {
        fail("reported " + point_text(s) + " past the interior grazing, but the closed-form map's det(DP " +
             (fold ? "- I" : "+ I") + ") is " + number(det_before, 3) + " and " + number(det_after, 3) +
             " at the rows around it: none there");
        continue;
      }
      double estimate = 0;
      if (closed_form_grazing(c, branch, ic, s, value, estimate) && estimate <= 0.1 * tolerance) {
        ++out.expected;
        ++out.beyond;
        auto& tally = out.by_type[s.type_name() + "/" + s.detail + " (past an interior grazing)"];
        ++tally[0];
        const double err = std::abs(value - s.lambda);
        if (err > tolerance) {
          fail("reported " + point_text(s) + " past the interior grazing, the closed-form map's is at " +
               number(value) + " (off by " + number(err, 3) + ", estimate " + number(estimate, 3) + ")");
          continue;
        }
        ++out.found;
        ++tally[1];
        if (err > out.worst_error) {
          out.worst_error = err;
          out.worst_point = point_text(s) + " (closed-form map)";
        }
        out.worst_relative = std::max(out.worst_relative, err / c.span());
        continue;
      }
      ++out.unverified;
      out.unverified_points.push_back(point_text(s));
      continue;
    }
    fail("reported " + point_text(specials[j]) + " (after row " + std::to_string(specials[j].after_point) +
         ") is no point of the closed form's path");
  }

  // --- rows --------------------------------------------------------------------------------
  const double lo = c.lo(), hi = c.hi();
  bool outside_reported = false, map_reported = false, count_reported = false, family_reported = false,
       chord_reported = false, length_reported = false;
  int transitions_before = 0;  // reported folds and grazings before the current row
  size_t next_special = 0;
  std::vector<size_t> by_row(specials.size());
  for (size_t j = 0; j < specials.size(); ++j) by_row[j] = j;
  std::stable_sort(by_row.begin(), by_row.end(), [&](size_t a, size_t b) {
    return specials[a].after_point < specials[b].after_point;
  });
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    const std::string at = "row " + std::to_string(i) + " at " + c.parameter + " = " + number(row.lambda);
    bool grazing_before = false, special_before = false;
    while (next_special < by_row.size() &&
           specials[by_row[next_special]].after_point < static_cast<int>(i)) {
      const auto& s = specials[by_row[next_special]];
      if (s.after_point == static_cast<int>(i) - 1) {
        special_before = true;
        grazing_before |= s.type == SpecialPointType::Grazing;
      }
      if (is_transition(s)) ++transitions_before;
      ++next_special;
    }
    if ((row.lambda < lo || row.lambda > hi) && !outside_reported) {
      fail(at + ": outside the range");
      outside_reported = true;
    }
    const ImpactOscillatorClosedForm cf(c.p.with(c.parameter, row.lambda));
    const Vec2 u(row.u[0], row.u[1]);
    const auto image = cf.poincare_map(row.chart, u, c.n);
    const int impacts = impacts_of(row);
    if (!map_reported) {
      if (!image.ok) {
        fail(at + ": the closed-form map fails (" + image.message + ")");
        map_reported = true;
      } else if ((image.x - u).norm() > 1.1e-9 * (1.0 + u.norm())) {
        fail(at + ": no orbit of the closed-form map, |P(u) - u| = " + number((image.x - u).norm(), 3));
        map_reported = true;
      } else if (image.impacts != impacts) {
        fail(at + ": records " + std::to_string(impacts) + " impacts, the closed form has " +
             std::to_string(image.impacts));
        map_reported = true;
      }
    }
    if (i > 0 && impacts_of(rows[i - 1]) != impacts && !grazing_before && !count_reported) {
      fail(at + ": impact count " + std::to_string(impacts_of(rows[i - 1])) + " -> " +
           std::to_string(impacts) + " without a grazing between");
      count_reported = true;
    }
    // The family: the path's between the transitions reported so far.
    if (static_cast<int>(i) < coverage_row && !family_reported) {
      const Identified id = identify(cf, c.n, row.chart, u, impacts);
      if (transitions_before < static_cast<int>(path.segments.size())) {
        const Family expected = path.segments[static_cast<size_t>(transitions_before)];
        const bool ok = expected == Family::Unknown ||
                        (id.family == expected) ||
                        (id.ambiguous && expected != Family::NonImpacting);
        if (!ok) {
          fail(at + ": an orbit of " + name_of(id.family) + " (" + std::to_string(impacts) +
               " impacts), the closed form's path is on " + name_of(expected) + " there (after " +
               std::to_string(transitions_before) + " transitions)");
          family_reported = true;
        }
      }
    }
    // Continuity.
    if (i > 0 && !grazing_before) {
      const auto& prev = rows[i - 1];
      Vec2 previous(prev.u[0], prev.u[1]);
      bool comparable = true;
      if (prev.chart != row.chart) {
        // The previous row's orbit carried to this row's section (at its own parameter).
        const ImpactOscillatorClosedForm cp(c.p.with(c.parameter, prev.lambda));
        const double T = cp.period();
        const double t1 = prev.chart + ImpactOscillatorClosedForm::wrap(row.chart - prev.chart, T);
        comparable = advance(cp, prev.chart, previous, t1, previous);
      }
      if (comparable) {
        Vector chord(3);
        chord << row.u[0] - previous[0], row.u[1] - previous[1], row.lambda - prev.lambda;
        const double length = chord.norm();
        if (length > 3.0 * traced.max_step && !length_reported) {
          fail(at + ": " + number(length, 3) + " from the row before, over 3 largest steps");
          length_reported = true;
        }
        if (length <= 1e-8 * traced.max_step) {
          ++out.duplicates;  // the same orbit recorded twice: no chord to compare
        } else {
          double cosine = chord.dot(row.tangent) / length;
          if (prev.chart == row.chart) cosine = std::min(cosine, chord.dot(prev.tangent) / length);
          if (cosine < 0.5 && !chord_reported && !special_before) {
            fail(at + ": the chord from the row before is " +
                 number(std::acos(std::clamp(cosine, -1.0, 1.0)) * 180 / 3.14159265358979, 3) +
                 " degrees off the tangents");
            chord_reported = true;
          }
        }
      }
    }
  }

  // --- the end -------------------------------------------------------------------------------
  if (rows.size() >= 2000) fail("stalled: " + std::to_string(rows.size()) + " rows (" + branch.stop_reason + ")");
  const double last = rows.back().lambda;
  if (path.end == "bound") {
    if (!branch.ok() || std::abs(last - path.end_value) > 1e-12 * std::max(1.0, std::abs(path.end_value)))
      fail("ended at " + c.parameter + " = " + number(last) + " (" + (branch.ok() ? "ok" : "not ok") + ": " +
           branch.stop_reason + "), the closed form's path ends on " + number(path.end_value));
  } else if (path.end == "coverage" && !branch.ok()) {
    // Past an interior grazing the closed form does not know where the branch goes, but it
    // goes on (or ends normally).
    fail("ended at " + c.parameter + " = " + number(last) + " (not ok: " + branch.stop_reason +
         "), past the interior grazing at " + number(path.end_value));
  } else if (branch.status == ContinuationStatus::ReachedBound && last != c.lo() && last != c.hi()) {
    fail("ended at " + c.parameter + " = " + number(last) + " (" + branch.stop_reason + "), on neither bound");
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A failure's kind, for the summary: the root cause first.
struct Kind {
  int priority;
  std::string name;
};
inline Kind kind_of(const std::string& f) {
  const auto has = [&](const char* s) { return f.find(s) != std::string::npos; };
  if (has("did not start") || has("no rows")) return {0, "does not start"};
  if (has("stalled")) return {1, "stall (2000 rows)"};
  if (f.rfind("ended at", 0) == 0) {
    if (has("approach to grazing failed")) return {2, "ends early: the approach to a grazing fails"};
    if (has("no orbit of the other family")) return {2, "ends early: no departure from a grazing"};
    if (has("step size below min_step"))
      return {2, std::string("ends early: step size below min_step") + (has("past the interior") ? " past an interior grazing" : "")};
    return {2, "ends early or elsewhere"};
  }
  if (has("the closed form's path is on")) return {3, "jumps to another family"};
  if (has("past the interior grazing, the closed-form map's") || has("at the rows around it: none there"))
    return {5, "reports a point the closed-form map has not (past an interior grazing)"};
  if (has("closed-form map") || has("impacts, the closed form has")) return {4, "a row is no orbit"};
  if (has("is no point of the closed form's path")) return {5, "reports a point the closed form has not"};
  if (f.rfind("missed", 0) == 0)
    return {6, "misses a " + f.substr(7, f.find(' ', 7) - 7) + (has("nearest reported") ? " (located too far)" : "")};
  if (has("reported as")) return {7, "wrong grazing kind"};
  if (has("out of the closed form's order")) return {8, "special points out of order"};
  if (has("without a grazing")) return {9, "impact count changes without a grazing"};
  if (has("degrees off the tangents")) return {10, "chord off the tangents"};
  if (has("largest steps")) return {11, "stride over 3 largest steps"};
  if (has("outside the range")) return {12, "row outside the range"};
  if (has("on neither bound")) return {12, "ends claiming a bound it is not on"};
  return {13, "other"};
}

// The kind of a case's most basic failure; empty if it has none.
inline std::string primary_kind(const Analysis& a) {
  Kind best{1 << 30, ""};
  for (const auto& f : a.failures) {
    const Kind k = kind_of(f);
    if (k.priority < best.priority) best = k;
  }
  return best.name;
}

// ---------------------------------------------------------------------------------------------
// Generated cases. Uniform numbers from std::mt19937's 32-bit output (its sequence is fixed
// by the standard), mapped to [lo, hi] explicitly and rounded to `quantum`, so that a case
// prints exactly as its reproduction and nothing depends on the standard library's
// distributions.
// `quantum` is 10^-k: the value is an integer divided by 10^k, the double nearest to its
// decimal (a product by the quantum would not be), so that it prints and parses back exactly.
inline double quantized(double v, double quantum) {
  const double per_unit = std::round(1.0 / quantum);
  return std::round(v * per_unit) / per_unit;
}
inline double uniform(std::mt19937& engine, double lo, double hi, double quantum) {
  const double u = (static_cast<double>(engine()) + 0.5) / 4294967296.0;
  return quantized(lo + (hi - lo) * u, quantum);
}

// Case `index` of the stream: the continued parameter in turn eta, d, a, c, r; the others
// drawn from r in [0.6, 1], d in [-0.008, 0], c in [0.05, 0.4], a in [0.0015, 0.004],
// eta in [0.5, 2.5]; a range of the continued parameter inside its interval, about half of
// it or more; either direction. A third of the r ranges end on r = 1.
inline Case generated_case(std::mt19937& engine, int index) {
  static const char* names[] = {"omega", "d", "a", "c", "r"};
  Case c;
  c.p.r = uniform(engine, 0.6, 1.0, 1e-4);
  c.p.d = uniform(engine, -0.008, 0.0, 1e-6);
  c.p.c = uniform(engine, 0.05, 0.4, 1e-4);
  c.p.a = uniform(engine, 0.0015, 0.004, 1e-6);
  c.p.eta = uniform(engine, 0.5, 2.5, 1e-4);
  c.parameter = names[index % 5];
  struct Interval {
    double lo, hi, shortest, longest, quantum;
  };
  const Interval in = c.parameter == "omega" ? Interval{0.5, 2.5, 0.5, 1.5, 1e-4}
                      : c.parameter == "d" ? Interval{-0.008, 0.0, 0.003, 0.008, 1e-6}
                      : c.parameter == "a" ? Interval{0.0015, 0.004, 0.001, 0.0025, 1e-6}
                      : c.parameter == "c" ? Interval{0.05, 0.4, 0.1, 0.35, 1e-4}
                                           : Interval{0.6, 1.0, 0.15, 0.4, 1e-4};
  const double length = uniform(engine, in.shortest, in.longest, in.quantum);
  double lo = uniform(engine, in.lo, in.hi - length, in.quantum);
  const bool to_edge = uniform(engine, 0.0, 1.0, 1e-9) < 1.0 / 3.0;
  if (c.parameter == "r" && to_edge) lo = quantized(in.hi - length, in.quantum);
  const double hi = quantized(lo + length, in.quantum);
  const bool upwards = engine() % 2 == 0;
  c.from = upwards ? lo : hi;
  c.to = upwards ? hi : lo;
  c.p[c.parameter] = c.from;
  return c;
}

}  // namespace grazing_campaign
