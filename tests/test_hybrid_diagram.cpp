// Hybrid bifurcation diagram (libcont/hybrid_diagram.hpp) of the hard moving-base
// oscillator, r = 1, eta from 2 to 5: the period-1 branch by continuation, its loss of
// stability at a period doubling, and chaotic bands with a positive largest exponent
// where a brute-force sweep following the attractor finds chaos.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>

#include "libcont/hybrid_diagram.hpp"
#include "libcont/period_doubling_switch.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/poincare_map.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/flow.hpp"
#include "libcont/shooting.hpp"
#include "systems/catalogue.hpp"
#include "systems/moving_base.hpp"
#include "moving_base_cases.hpp"
#include "test_support.hpp"

using libcont::HybridDiagram;
using libcont::HybridDiagramOptions;
using libcont::HybridDiagramResult;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

libcont::SystemFactory hard_r1_factory() {
  return moving_base_factory({{"model", "hard"}, {"r", "1"}});
}


}  // namespace

TEST_CASE("hybrid diagram, eta 2 to 5: period-1 branch, its loss of stability, chaotic bands",
          "[diagram][long]") {
  HybridDiagramOptions o;
  o.parameter = "omega";
  o.from = 2.0;
  o.to = 5.0;
  o.steps = 31;
  o.initial_state = vec2(0.0, 0.0);  // at rest on the base, as the reference's sweeps
  o.lyapunov.transient_periods = 300;
  o.lyapunov.periods = 300;
  o.kept_samples = 20;
  o.continuation.initial_step = 0.03;
  o.continuation.max_step = 0.15;
  o.continuation.min_step = 3e-8;
  o.continuation.locate_tolerance = 3e-9;
  const HybridDiagramResult d = HybridDiagram(hard_r1_factory(), o).compute();
  CHECK(d.failed == 0);
  std::ostringstream branches;
  for (const auto& b : d.branches)
    branches << "n = " << b.n << " found at " << b.found_at << ", stable until "
             << b.stable_until << " (" << b.lost_by << "); ";
  INFO("branches: " << branches.str());

  // The period-1 branch from eta = 2, stable up to its period doubling (the window
  // 2.00-2.55 of the reference is where the start at rest finds it; followed, it lasts
  // to the doubling), then continued unstable.
  REQUIRE_FALSE(d.branches.empty());
  const auto& period1 = d.branches.front();
  CHECK(period1.n == 1);
  CHECK(period1.p == 1);
  CHECK(period1.found_at == 2.0);
  CHECK(period1.lost_by == "period-doubling");
  CHECK(period1.stable_until > 2.55);
  CHECK(period1.stable_until < 2.75);
  const auto flip = std::find_if(period1.branch.special_points.begin(),
                                 period1.branch.special_points.end(),
                                 [](const auto& s) { return s.type == libcont::SpecialPointType::PeriodDoubling; });
  REQUIRE(flip != period1.branch.special_points.end());
  const auto radius = std::find(period1.data_names.begin(), period1.data_names.end(),
                                "spectral_radius") - period1.data_names.begin();
  CHECK(std::abs(flip->data[radius] - 1.0) < 1e-3);  // a multiplier at -1
  const auto unstable = std::count_if(period1.branch.points.begin(), period1.branch.points.end(),
                                      [&](const auto& p) {
                                        return !period1.stable(p) && p.lambda > flip->lambda;
                                      });
  CHECK(unstable >= 3);  // the unstable continuation is recorded too
  // Grid points on the stable stretch were not integrated: the branch stands for them.
  for (const auto& p : d.integration)
    CHECK_FALSE((p.parameter > 2.0 && p.parameter < period1.stable_until));

  // Direct integration where no stable orbit was being followed: the exponent sum is
  // -c/m there as everywhere (r = 1), and chaotic points have lambda_1 > 0.
  int chaotic_points = 0;
  for (const auto& p : d.integration) {
    INFO("eta = " << p.parameter << ", exponents " << p.exponents.transpose());
    CHECK(std::abs(p.exponent_sum + 0.23) <= 1e-9);
    chaotic_points += p.chaotic() ? 1 : 0;
  }
  CHECK(chaotic_points >= 3);

  // Where a sweep following the attractor up the same grid finds chaos, the diagram shows
  // a chaotic band too: every run of chaotic sweep points holds a chaotic diagram point.
  libcont::SweepOptions s;
  s.parameter = "omega";
  s.from = o.from;
  s.to = o.to;
  s.steps = o.steps;
  s.follow_attractor = true;
  s.initial_states = {o.initial_state};
  s.lyapunov = o.lyapunov;
  s.threads = 2;
  const auto sweep = libcont::Sweep(hard_r1_factory(), s).run();
  REQUIRE(sweep.complete);
  int bands = 0;
  for (size_t i = 0; i < sweep.points.size();) {
    if (!sweep.points[i].chaotic()) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < sweep.points.size() && sweep.points[end].chaotic()) ++end;
    const double first = sweep.points[i].parameter, last = sweep.points[end - 1].parameter;
    INFO("chaotic band of the sweep: eta " << first << " to " << last);
    CHECK(std::any_of(d.integration.begin(), d.integration.end(), [&](const auto& p) {
      return p.chaotic() && p.parameter >= first && p.parameter <= last;
    }));
    ++bands;
    i = end;
  }
  CHECK(bands >= 2);

  // At eta = 3.3 three stable orbits of period 4 coexist: the z = 2/4 orbit born at the
  // period doubling of the z = 1/2 orbit at eta = 3.30467, a z = 2/4 orbit that turns into
  // the z = 1/2 orbit (its impact signature changes) at eta = 3.337902, and a z = 3/4
  // orbit that ends at a fold at eta = 3.318375. Which of them integration finds depends
  // on a long transient after the fold at eta = 3.1057 (the orbit there vanishes): tiny
  // differences upstream, such as the section a branch is continued on, change it.
  // Whichever it is, continued up, its stable stretch must end at that family's located
  // special point; the z = 2/4 ones must not go on as the z = 1/2 orbit traversed twice.
  // The merge at the period doubling itself is checked from a known start below.
  const auto branch_found_at = [&](double eta, int n) {
    return std::find_if(d.branches.begin(), d.branches.end(), [&](const auto& b) {
      return std::abs(b.found_at - eta) < 1e-9 && b.n == n;
    });
  };
  const auto period4 = branch_found_at(3.3, 4);
  REQUIRE(period4 != d.branches.end());
  INFO("the z = " << period4->p << "/4 branch from 3.3 is stable until "
                  << period4->stable_until << " (" << period4->lost_by << ")");
  if (period4->p == 2) {
    const bool at_doubling = period4->lost_by == "period-doubling" &&
                             std::abs(period4->stable_until - 3.30467) < 1e-5;
    const bool at_signature_change = (period4->lost_by == "impact-signature" ||
                                      period4->lost_by == "grazing") &&
                                     std::abs(period4->stable_until - 3.337902) < 1e-5;
    CHECK((at_doubling || at_signature_change));
  } else {
    CHECK(period4->p == 3);
    CHECK(period4->lost_by == "fold");
    CHECK(std::abs(period4->stable_until - 3.318375) < 1e-5);
    // Direct integration from the branch's last stable orbit agrees: just short of the
    // fold the motion stays on a z = 3/4 orbit near it, just beyond it leaves.
    auto system = hard_r1_factory()();
    const auto settle = [&](double eta) {
      system->set_parameter("omega", eta);
      libcont::Flow flow(*system);
      libcont::FlowState s = flow.initial_state(0.0, period4->last_stable_state);
      flow.advance(s, 3000 * system->forcing_period());
      return s.x;
    };
    const libcont::Vector before = settle(period4->stable_until - 2e-4);
    libcont::StroboscopicMap map(*system);
    const auto closed = map.iterate(before, 4, false);
    REQUIRE(closed.ok());
    CHECK((closed.x - before).norm() < 1e-8);
    CHECK(closed.impacts == 3);
    CHECK((before - period4->last_stable_state).norm() < 0.1 * before.norm());
    const libcont::Vector beyond = settle(period4->stable_until + 2e-4);
    CHECK((beyond - period4->last_stable_state).norm() > 0.2 * before.norm());
  }
  // At 3.4 integration settles on the z = 1/2 orbit, stable up to its period doubling at
  // 4.62916. Its family is the z = 2/2 branch found at 2.7, which regains its stability
  // past its special points: that branch is not continued again, and its stretch from 3.4
  // is recorded on it. (Had the branch ended before, the orbit would start a branch of its
  // own, with the same stretch.)
  const auto period2 = branch_found_at(3.4, 2);
  const auto earlier = branch_found_at(2.7, 2);
  REQUIRE(earlier != d.branches.end());
  if (period2 != d.branches.end()) {
    CHECK(period2->p == 1);
    CHECK(period2->lost_by == "period-doubling");
    CHECK(std::abs(period2->stable_until - 4.62916) < 1e-5);
  } else {
    REQUIRE(earlier->rejoined.size() == 1);
    const auto& again = earlier->rejoined.front();
    CHECK(again.at == Approx(3.4).margin(1e-12));
    CHECK(again.lost_by == "period-doubling");
    CHECK(std::abs(again.stable_until - 4.62916) < 1e-5);
    // The branch passes 3.4 between two stable points.
    bool passes = false;
    const auto& points = earlier->branch.points;
    for (size_t k = 0; k + 1 < points.size(); ++k)
      if ((points[k].lambda - 3.4) * (points[k + 1].lambda - 3.4) <= 0 &&
          earlier->stable(points[k]) && earlier->stable(points[k + 1]))
        passes = true;
    CHECK(passes);
  }
}

TEST_CASE("hybrid diagram: a z = 2/4 branch that runs into its birth period doubling ends there",
          "[diagram]") {
  // The z = 2/4 orbit born at the period doubling of the z = 1/2 orbit at eta = 3.30467
  // (test_continuation_period_doubling), reached by branch switching there, at eta = 3.29.
  auto system = hard_r1_factory()();
  system->set_parameter("omega", 4.0);
  libcont::Flow flow(*system);
  libcont::FlowState settled = flow.initial_state(0.0, vec2(0.0, 0.0));
  flow.advance(settled, 200 * system->forcing_period());
  const auto half = libcont::Shooting(*system, 2).solve(settled.x);
  REQUIRE(half.converged);
  libcont::PeriodicOrbitProblem single(*system, "omega", 2);
  libcont::ContinuationOptions c;
  c.direction = -1;
  c.lambda_min = 3.25;
  c.lambda_max = 4.5;
  c.max_step = 0.02;
  const auto branch = libcont::PseudoArclength(single, c).run(half.x, 4.0);
  const auto pd = std::find_if(branch.special_points.begin(), branch.special_points.end(),
                               [](const auto& s) { return s.type == libcont::SpecialPointType::PeriodDoubling; });
  REQUIRE(pd != branch.special_points.end());
  INFO("period doubling of the z = 1/2 orbit at eta = " << pd->lambda);
  libcont::PeriodicOrbitProblem doubled(*system, "omega", 4);
  c.lambda_min = 3.29;
  c.lambda_max = pd->lambda + 0.01;
  c.initial_step = 1e-4;
  c.max_step = 1e-3;
  const auto born = libcont::PseudoArclength(doubled, c).run_from(libcont::doubled_branch_start(single, *pd));
  REQUIRE(born.ok());
  const auto& start = born.points.back();
  REQUIRE(start.lambda == Approx(3.29).margin(1e-12));
  libcont::Vector x;
  REQUIRE(libcont::follow_to_section(*system, {}, start.u, start.chart, 0.0, x, 4));

  HybridDiagramOptions o;
  o.parameter = "omega";
  o.from = 3.29;
  o.to = 3.4;
  o.steps = 12;
  o.initial_state = x;
  o.lyapunov.transient_periods = 300;
  o.lyapunov.periods = 300;
  o.continuation.initial_step = 0.003;
  o.continuation.max_step = 0.01;
  const HybridDiagramResult d = HybridDiagram(hard_r1_factory(), o).compute();
  REQUIRE_FALSE(d.branches.empty());
  const auto& first = d.branches.front();
  INFO("first branch: n = " << first.n << " found at " << first.found_at << ", stable until "
                            << first.stable_until << " (" << first.lost_by << ")");
  CHECK(first.n == 4);
  CHECK(first.found_at == 3.29);
  CHECK(first.lost_by == "period-doubling");
  CHECK(std::abs(first.stable_until - pd->lambda) < 1e-5);
}

TEST_CASE("hybrid diagram: the branches' orbits at t = kT, where the integration samples them",
          "[diagram]") {
  // A branch point lies on its own section, which continuation moves off the orbit's
  // events; the integration's Poincare samples lie on t = kT. The branch's stroboscopic
  // states are its orbit there: each column of the n is a point of the orbit's n-fold
  // stroboscopic map, and where the branch starts they are the samples it was found from.
  HybridDiagramOptions o;
  o.parameter = "omega";
  o.from = 3.4;
  o.to = 4.4;  // z = 1/2, stable throughout; its section moves off t = 0 on the way
  o.steps = 3;
  o.initial_state = vec2(0.0, 0.0);
  o.lyapunov.transient_periods = 400;
  o.lyapunov.periods = 100;
  o.kept_samples = 4;
  const HybridDiagramResult d = HybridDiagram(hard_r1_factory(), o).compute();
  REQUIRE_FALSE(d.branches.empty());
  const auto& b = d.branches.front();
  REQUIRE(b.n == 2);
  REQUIRE(b.stroboscopic.size() == b.branch.points.size());
  REQUIRE(b.special_stroboscopic.size() == b.branch.special_points.size());
  REQUIRE(!d.integration.empty());
  const auto& found = d.integration.front();
  REQUIRE(found.parameter == 3.4);
  REQUIRE(found.samples.size() == 4);
  auto system = hard_r1_factory()();
  int moved_sections = 0;
  for (size_t k = 0; k < b.branch.points.size(); ++k) {
    const auto& point = b.branch.points[k];
    const libcont::Matrix& states = b.stroboscopic[k];
    REQUIRE(states.cols() == 2);
    REQUIRE(states.allFinite());
    system->set_parameter("omega", point.lambda);
    const double period = system->forcing_period();
    moved_sections += std::abs(std::remainder(point.chart, 2.0 * period)) > 1e-3 * period;
    // Column k is column 0 carried over k forcing periods from t = 0, and the orbit closes.
    libcont::StroboscopicMap map(*system);
    const auto one = map.iterate(states.col(0), 1, false), two = map.iterate(states.col(0), 2, false);
    REQUIRE((one.ok() && two.ok()));
    const double size = states.col(0).norm();
    CHECK((one.x - states.col(1)).norm() <= 1e-8 * size);
    CHECK((two.x - states.col(0)).norm() <= 1e-8 * size);
  }
  CHECK(moved_sections > 0);  // the branch's sections are not all at t = 0
  // Where the branch was found, its two stroboscopic points are the last samples.
  const libcont::Matrix& first = b.stroboscopic.front();
  for (const auto& sample : found.samples) {
    const double nearest = std::min((first.col(0) - sample).norm(), (first.col(1) - sample).norm());
    CHECK(nearest <= 1e-8 * sample.norm());
  }
}

TEST_CASE("hybrid diagram: an orbit settled on again is not continued again",
          "[diagram][long]") {
  // The cantilever beam (set 1, e = 0.05), omega 0.5 to 0.56 on 13 grid values: the z = 4/1
  // orbit loses and regains its stability at four pairs of period doublings, and between
  // them the z = 8/2 orbits form a bubble with four pairs of folds. Integration settles on
  // one or the other at 10 grid values; each family is continued once, and the stable
  // stretches it is settled on again are recorded on its branch.
  // vicont diagram's defaults for the range (the branches' steps from its width).
  HybridDiagramOptions o = HybridDiagramOptions::for_range("omega", 0.5, 0.56);
  CHECK(o.continuation.max_step == Approx(0.003));
  o.steps = 13;
  o.lyapunov.transient_periods = 300;
  o.lyapunov.periods = 300;
  o.kept_samples = 10;
  const libcont::SystemFactory beam = [] {
    auto system = systems::make_system("cantilever-2dof");
    system->set_parameter("e", 0.05);
    return system;
  };
  const HybridDiagramResult d = HybridDiagram(beam, o).compute();
  CHECK(d.failed == 0);
  std::ostringstream text;
  for (const auto& b : d.branches) {
    text << "n = " << b.n << " found at " << b.found_at << " (" << b.branch.points.size()
         << " points), stable until " << b.stable_until << " (" << b.lost_by << ");";
    for (const auto& r : b.rejoined)
      text << " again at " << r.at << " until " << r.stable_until << " (" << r.lost_by << ");";
    text << "\n";
  }
  INFO(text.str());
  // No two branches of one period stand for the same orbit at a grid value.
  REQUIRE(d.branches.size() == 3);
  // The stretches' ends against the special points of the families traced on their own
  // (the z = 4/1 branch over the range, the bubble both ways from omega = 0.53): each
  // stretch ends at the first such point of its kind past where it was settled on again.
  auto system = beam();
  const auto family = [&](int n, double at, double to) {
    system->set_parameter("omega", at);
    libcont::OrbitSearchOptions search;
    search.period = n;
    const libcont::OrbitBranch branch = libcont::trace_orbit_branch(
        *system, libcont::find_periodic_orbit(*system, search), {"omega", at, to});
    REQUIRE(branch.ok());
    return branch.special_points;
  };
  const auto ends = [](std::vector<libcont::SpecialPoint> a, const std::vector<libcont::SpecialPoint>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const auto period1_points = family(1, 0.5, 0.56);
  const auto bubble_points = ends(family(2, 0.53, 0.56), family(2, 0.53, 0.5));
  const auto check_rejoins = [](const libcont::DiagramBranch& b, const std::vector<double>& at,
                                const std::string& kind,
                                const std::vector<libcont::SpecialPoint>& points) {
    REQUIRE(b.rejoined.size() == at.size());
    for (size_t i = 0; i < at.size(); ++i) {
      const auto& r = b.rejoined[i];
      INFO("settled on again at " << r.at << ", stable until " << r.stable_until << " (" << r.lost_by << ")");
      CHECK(std::abs(r.at - at[i]) < 1e-12);
      if (r.lost_by == "range end") {
        CHECK(r.stable_until == 0.56);
        continue;
      }
      CHECK(r.lost_by == kind);
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& p : points)
        if (p.type_name() == kind && p.lambda > r.at)
          nearest = std::min(nearest, std::abs(p.lambda - r.stable_until));
      CHECK(nearest < 1e-7);
    }
  };
  const auto& period1 = d.branches[0];
  CHECK(period1.n == 1);
  CHECK(period1.found_at == 0.5);
  check_rejoins(period1, {0.515, 0.545, 0.555}, "period-doubling", period1_points);
  CHECK(period1.rejoined.back().lost_by == "range end");
  const auto& bubble = d.branches[1];
  CHECK(bubble.n == 2);
  CHECK(std::abs(bubble.found_at - 0.52) < 1e-12);
  check_rejoins(bubble, {0.525, 0.53, 0.54}, "fold", bubble_points);
  // The bubble is traced once, from 0.52 to where it ends on the z = 4/1 orbit.
  CHECK(bubble.branch.status == libcont::ContinuationStatus::LeftFamily);
  CHECK(bubble.branch.points.size() < 400);
}
