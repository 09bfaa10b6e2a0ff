// A campaign of generated branches of the moving-base impact oscillator (hard impacts),
// continued through grazings, folds and period doublings, each checked against the closed
// form (grazing_campaign.hpp): every row an orbit of the exact map with its impact count, no
// jump (families change only across recorded folds and grazings, chords along the tangents,
// no stride over 3 largest steps), every special point of the closed form's path within
// 1e-8 and nothing else, the branch ending on the range's bound.
//
// Cases: a fixed seed; r in [0.6, 1], d in [-0.008, 0], c in [0.05, 0.4], a in
// [0.0015, 0.004], eta in [0.5, 2.5] (around the 1/1 resonance); continued in eta, d, a, c
// and r in turn, upwards or downwards, over half their interval or more (generated_case).
// Excluded: cases whose motion settled from rest at `from` (the closed-form map, as trace()
// settles with the library's) is not the non-impacting orbit or a z = 1/1 orbit (z = 2/1,
// 3/1, longer periods, chaotic or sticking motions), those whose transient from rest is
// chaotic (the library's settling and the closed form's end on different attractors), and
// isolas (a closed loop of 1/1 orbits, which the branch would go round until its point
// budget). Two thirds of the cases
// whose closed-form path meets no special point are skipped, so that most cases pass
// grazings and folds. Past an interior grazing the branch follows orbits with two impacts a
// period, which the closed form does not list: its rows are still checked by the exact map,
// its folds and period doublings by the exact map's derivatives (closed_form_point,
// closed_form_det), its grazings by the exact map's orbits extrapolated to the touch
// (closed_form_grazing); a point none of these can settle is counted as unchecked.
//
// The summary (cases, exclusions, special points by type, worst location error, and each
// failing case with its reproduction, grouped by the kind of its most basic failure) goes to
// standard output. A reproduction prints the case's values exactly (generated_case).
// Duplicated rows (the same orbit recorded twice) are counted in it, not failed.
//
// Three test cases: the campaign (one stream, 240 cases, about a minute), four more streams
// ([long], 2000 cases, about ten minutes), and the failing cases the longer one found,
// reduced to short ranges that fail the same way.
#include <catch2/catch.hpp>
#include <array>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "grazing_campaign.hpp"

using namespace grazing_campaign;

namespace {

struct Outcome {
  Case c;
  std::string path, listing;
  Analysis analysis;
  std::string kind;
};

Outcome run_case(const Case& c, const ClosedFormPath& path, const Traced& traced) {
  Outcome o;
  o.c = c;
  o.path = path_text(path);
  o.listing = traced.started ? listing(traced.branch) : traced.failure;
  o.analysis = analyse(c, traced, path);
  o.kind = primary_kind(o.analysis);
  return o;
}

void check(const std::vector<Outcome>& outcomes) {
  for (const auto& o : outcomes) {
    INFO(o.c.describe());
    INFO(o.path);
    INFO("library: " << o.listing);
    std::string failures;
    for (const auto& f : o.analysis.failures) failures += "\n  " + f;
    INFO("failures:" << failures);
    CHECK(o.analysis.failures.empty());
  }
}

// The cases of the stream from `seed` (selected as the file's comment says), traced and
// analysed, with the summary on standard output.
std::vector<Outcome> campaign(unsigned seed, int wanted) {
  std::mt19937 engine(seed);
  const auto started = std::chrono::steady_clock::now();

  std::vector<Outcome> outcomes;
  std::map<std::string, int> excluded;
  int candidates = 0, eventless = 0, skipped = 0;
  for (int index = 0; static_cast<int>(outcomes.size()) < wanted && index < 3000; ++index) {
    const Case c = generated_case(engine, index);
    ++candidates;
    const Settled start = settle(c);
    if (start.family == Family::Unknown) {
      ++excluded[start.category];
      continue;
    }
    // A coarse path decides the selection; the full one is checked against.
    const ClosedFormPath coarse = closed_form_path(c, start.family, 250);
    if (coarse.end == "loop") {
      ++excluded["isola (a closed loop of 1/1 orbits)"];
      continue;
    }
    if (coarse.events.empty() && eventless++ % 3 != 0) {
      ++skipped;
      continue;
    }
    const ClosedFormPath path = closed_form_path(c, start.family);
    if (path.end == "loop") {
      ++excluded["isola (a closed loop of 1/1 orbits)"];
      continue;
    }
    const Traced traced = trace(c);
    if (!same_settling(start, traced)) {
      ++excluded["a chaotic transient from rest (the library settles elsewhere than the closed form)"];
      continue;
    }
    outcomes.push_back(run_case(c, path, traced));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // --- summary -----------------------------------------------------------------------------
  int expected = 0, found = 0, unverified = 0, beyond = 0, duplicates = 0, rows = 0, failing = 0;
  double worst = 0, worst_relative = 0;
  std::string worst_case;
  std::map<std::string, int> by_parameter, failing_by_parameter;
  std::map<std::string, std::array<int, 2>> by_type;
  std::map<std::string, std::vector<const Outcome*>> by_kind;
  for (const auto& o : outcomes) {
    const Analysis& a = o.analysis;
    expected += a.expected;
    found += a.found;
    unverified += a.unverified;
    beyond += a.beyond;
    for (const auto& [type, tally] : a.by_type) {
      by_type[type][0] += tally[0];
      by_type[type][1] += tally[1];
    }
    duplicates += a.duplicates;
    rows += a.rows;
    ++by_parameter[o.c.parameter];
    if (a.worst_error > worst) {
      worst = a.worst_error;
      worst_case = a.worst_point + " in " + o.c.describe();
    }
    worst_relative = std::max(worst_relative, a.worst_relative);
    if (!a.failures.empty()) {
      ++failing;
      ++failing_by_parameter[o.c.parameter];
      by_kind[o.kind].push_back(&o);
    }
  }
  std::cout << "\n=== grazing campaign (seed " << seed << "): " << outcomes.size() << " cases of "
            << candidates << " candidates, " << seconds << " s\n";
  std::cout << "  excluded:";
  for (const auto& [why, count] : excluded) std::cout << " " << count << " " << why << ";";
  std::cout << " skipped " << skipped << " of " << eventless << " cases meeting no special point\n";
  std::cout << "  cases by parameter:";
  for (const auto& [name, count] : by_parameter)
    std::cout << " " << name << " " << count << " (" << failing_by_parameter[name] << " failing)";
  std::cout << "\n  rows checked " << rows << ", duplicated rows " << duplicates << "\n";
  std::cout << "  special points expected " << expected << " (of them " << beyond
            << " past an interior grazing, from the closed-form map), located within 1e-8 "
            << found << "; reported past an interior grazing and not checked " << unverified << "\n";
  std::cout << "  by type (expected/located):";
  for (const auto& [type, tally] : by_type) std::cout << " " << type << " " << tally[0] << "/" << tally[1] << ";";
  std::cout << "\n  worst location error " << number(worst, 3) << " (" << worst_case << "), worst relative to the range "
            << number(worst_relative, 3) << "\n";
  std::cout << "  points not checked (past an interior grazing):\n";
  for (const auto& o : outcomes)
    if (!o.analysis.unverified_points.empty()) {
      std::cout << "     " << o.c.describe() << ":";
      for (const auto& p : o.analysis.unverified_points) std::cout << " " << p;
      std::cout << "\n";
    }
  std::cout << "  failing cases " << failing << "\n";
  std::vector<std::pair<std::string, std::vector<const Outcome*>>> kinds(by_kind.begin(), by_kind.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& x, const auto& y) { return x.second.size() > y.second.size(); });
  for (const auto& [kind, list] : kinds) {
    std::cout << "  -- " << kind << ": " << list.size() << "\n";
    for (const Outcome* o : list) {
      std::cout << "     " << o->c.describe() << "\n       " << o->path << "\n       library: " << o->listing << "\n";
      for (const auto& f : o->analysis.failures) std::cout << "       * " << f << "\n";
    }
  }
  std::cout << std::flush;
  WARN("grazing campaign: " << outcomes.size() << " cases, " << failing << " failing; " << found << " of "
                            << expected << " special points within 1e-8, worst error " << number(worst, 3));

  return outcomes;
}

// Case values as printed in a reproduction: r d c a eta; parameter from -> to.
Case make_case(double r, double d, double c, double a, double eta, const char* parameter, double from,
               double to) {
  Case k;
  k.p.r = r;
  k.p.d = d;
  k.p.c = c;
  k.p.a = a;
  k.p.eta = eta;
  k.parameter = parameter;
  k.from = from;
  k.to = to;
  k.p[k.parameter] = from;
  return k;
}

}  // namespace

// The sanitizer build, where each case costs several times more and the memory checks are
// what it is for, runs the stream's first 60 cases (tests/CMakeLists.txt).
#ifndef LIBCONT_CAMPAIGN_CASES
#define LIBCONT_CAMPAIGN_CASES 240
#endif

TEST_CASE("grazing campaign: generated branches against the closed form", "[grazing][campaign]") {
  const int cases = LIBCONT_CAMPAIGN_CASES;
  const std::vector<Outcome> outcomes = campaign(20240611u, cases);
  CHECK(outcomes.size() >= static_cast<size_t>(cases * 5 / 6));
  check(outcomes);
}

// Four more streams, 2000 cases (about ten minutes); hidden (run with `test_grazing
// "[wide]"`): the known failing cases below come from it.
TEST_CASE("grazing campaign: more generated branches", "[.][grazing][campaign][wide]") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    const std::vector<Outcome> outcomes = campaign(seed, 500);
    CHECK(outcomes.size() >= 450);
    check(outcomes);
  }
}

// Failing cases of the longer campaign, each reduced to a short range that still failed the
// same way (the values of the summary's reproduction lines), and mended since: a row
// recentered right after a passage held |P(u) - u| = 1.3e-9 .. 2.5e-9 > 1e-9 (1 + |u|) (the
// engine now corrects a recentered point again); an approach to a grazing beyond the range
// landed on the bound in one stride of several largest steps (the passage now declines).
namespace {

void run_cases(const std::vector<Case>& cases) {
  std::vector<Outcome> outcomes;
  for (const Case& c : cases) {
    INFO(c.describe());
    const Settled start = settle(c);
    INFO(start.why);
    REQUIRE(start.family != Family::Unknown);
    const ClosedFormPath path = closed_form_path(c, start.family);
    const Traced traced = trace(c);
    CHECK(same_settling(start, traced));
    outcomes.push_back(run_case(c, path, traced));
  }
  check(outcomes);
}

}  // namespace

TEST_CASE("grazing campaign: reduced failing cases", "[grazing][campaign]") {
  run_cases({
      make_case(0.7828, -0.005984, 0.1886, 0.003482, 0.5064, "omega", 0.5064, 0.9729),
      make_case(0.9071, -0.005278, 0.1516, 0.003021, 0.5135, "omega", 0.5135, 1.0489),
      make_case(0.8201, -0.003498, 0.1054, 0.001577, 0.5674, "omega", 0.5674, 0.8834),
      make_case(0.6148, -0.002442, 0.3871, 0.001873, 0.5874, "a", 0.001873, 0.003707),
      make_case(0.6311, -0.002112, 0.1001, 0.002535, 0.6192, "a", 0.002535, 0.002641),
      // The approach to a grazing beyond the range crosses a period doubling, which its
      // bisection solved to a multiplier of -1 to the last bit: that orbit, taken as the
      // bracket's far end, counted no multiplier outside, and the point was dropped.
      make_case(0.728, -0.004621, 0.0892, 0.003396, 1.126, "d", -0.004621, -2.1e-05),
  });
}

// Still failing (hidden: run with `test_grazing "[known-failing]"`); see doc/theory.md 6.3.
TEST_CASE("grazing campaign: known failing cases", "[.][grazing][campaign][known-failing]") {
  run_cases({
      // Past an interior grazing just inside the range, the other family's orbit on the
      // bound is not found: the branch ends on neither bound.
      make_case(0.8701, -0.000962, 0.069, 0.002827, 0.5209, "c", 0.069, 0.0644),
      // A departure that ends on a fold: the next step turns the tangent by about 80 degrees.
      make_case(0.6198, -0.000303, 0.3949, 0.002238, 1.0702, "omega", 1.0702, 0.5656),
      // Up a cascade of interior grazings and folds (2 to 8 impacts): no orbit of the
      // family with 8 impacts is found beyond the last grazing (the branch went back down
      // the way it came, to its start, until the hand-over after a passage followed the
      // secant of the passage's last orbits where its tangent pointed back).
      make_case(0.6054, -0.000997, 0.3801, 0.002256, 0.6268, "d", -0.000997, -0.000048),
  });
}
