// Branches of the moving-base impact oscillator (hard impacts) continued through grazing
// (doc/theory.md, 6.3), against the closed form of impact_oscillator_closed_form.hpp: the
// worked examples of continuation through grazing. Each is traced at the defaults of
// `vicont continue` and must give the right curve: every branch row an orbit of the exact
// map with the impact count it claims, no row jumping to another family, every grazing,
// fold and period doubling on the branch found within 1e-8 of its closed-form value (and
// nothing else), the branch ending where the closed form's path does (grazing_campaign.hpp
// describes the checks). The expected values below are the closed form's (special_points),
// to 13 digits.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "grazing_campaign.hpp"
#include "libcont/orbit_branch.hpp"

using namespace grazing_campaign;

namespace {

struct Expected {
  std::string type, detail;
  double value;
};

// The located special point of `type` nearest to `value`, its distance from it.
double located(const ContinuationResult& branch, const std::string& type, double value) {
  double best = 1e300;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::special_point_type(type)) best = std::min(best, std::abs(s.lambda - value));
  return best;
}

// The example's closed-form path (checked to have the expected points, in order), its
// traced branch, and the checks of analyse() (each failure reported).
struct Example {
  ClosedFormPath path;
  Traced traced;
  Analysis analysis;
};
Example run_example(const Case& c, const std::vector<Expected>& expected, double locate = 1e-9,
                    double boundary = -1.0, double tolerance = 1e-8) {
  Example ex;
  const Settled start = settle(c);
  INFO(c.describe());
  INFO("settled: " << name_of(start.family) << " " << start.why);
  REQUIRE(start.family != Family::Unknown);
  ex.path = closed_form_path(c, start.family);
  INFO(path_text(ex.path));
  // The closed form's own path has the example's points.
  REQUIRE(ex.path.events.size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    CHECK(ex.path.events[k].type == expected[k].type);
    CHECK(ex.path.events[k].detail == expected[k].detail);
    CHECK(std::abs(ex.path.events[k].value - expected[k].value) <= 1e-12);
  }
  ex.traced = trace(c, locate, boundary);
  INFO(listing(ex.traced.branch));
  REQUIRE(ex.traced.started);
  CHECK(same_settling(start, ex.traced));
  ex.analysis = analyse(c, ex.traced, ex.path, tolerance);
  for (const auto& f : ex.analysis.failures) {
    INFO(f);
    CHECK(false);
  }
  for (const auto& e : expected) {
    INFO(e.type << " at " << e.value);
    CHECK(located(ex.traced.branch, e.type, e.value) <= tolerance);
  }
  CHECK(ex.traced.branch.special_points.size() ==
        expected.size() + ex.analysis.unverified + ex.analysis.beyond);
  return ex;
}

ImpactOscillatorParameters r08_d006() {
  ImpactOscillatorParameters p;
  p.r = 0.8;
  p.d = -0.006;
  return p;
}

}  // namespace

// (a), (i): the grazing 0.8335639334664 reached along the non-impacting orbit, the period
// doubling 0.9452849121490, the fold 1.8480105971972, then the grazing 1.3852573174290
// reached from the impacting side, and on along the non-impacting orbit to 2.5.
TEST_CASE("grazing: the whole frequency-response curve through both grazings, d = -0.005",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = -0.005;
  const Example ex = run_example({p, "omega", 0.5, 2.5},
                                 {{"grazing", "non-impacting-gap", 0.8335639334664},
                                  {"period-doubling", "", 0.9452849121490},
                                  {"fold", "", 1.8480105971972},
                                  {"grazing", "impact-velocity", 1.3852573174290}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 2.5);
  CHECK(branch.points.size() < 200);
}

// (b) From the impacting motion settled at 1.2 up to its fold, back along the saddle branch
// to its grazing (reached from the impacting side) and on along the non-impacting orbit.
TEST_CASE("grazing: r = 0.8, d = -0.006, eta 1.2 -> 1.8: fold, grazing from the impacting side",
          "[grazing]") {
  const Example ex = run_example({r08_d006(), "omega", 1.2, 1.8},
                                 {{"fold", "", 1.6948821638824},
                                  {"grazing", "impact-velocity", 1.2730127115854}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 1.8);
}

// (c) The same from 1.3: after the fold the saddle branch leaves the range at 1.3, before
// its grazing; the branch ends on that bound, nothing outside [1.3, 1.8].
TEST_CASE("grazing: r = 0.8, d = -0.006, eta 1.3 -> 1.8: the saddle branch ends on the bound 1.3",
          "[grazing]") {
  const Example ex = run_example({r08_d006(), "omega", 1.3, 1.8}, {{"fold", "", 1.6948821638824}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 1.3);
  for (const auto& row : branch.points) {
    CHECK(row.lambda >= 1.3);
    CHECK(row.lambda <= 1.8);
  }
}

// (d) Downwards from 1.3: the period doubling and the grazing of the impact (impact-velocity),
// then the non-impacting orbit to 0.8.
TEST_CASE("grazing: r = 0.8, d = -0.006, eta 1.3 -> 0.8: period doubling, impact-velocity grazing",
          "[grazing]") {
  const Example ex = run_example({r08_d006(), "omega", 1.3, 0.8},
                                 {{"period-doubling", "", 0.9468773980005},
                                  {"grazing", "impact-velocity", 0.8641219262170}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 0.8);
}

// (e) In the clearance d at eta = 1.3: the fold, back to the grazing, where the
// non-impacting orbit exists on the side the branch came from (a nonsmooth fold), and down
// along it to -0.012, in far fewer than the 2000 points a crawl would take.
TEST_CASE("grazing: r = 0.8, eta = 1.3, d -0.005 -> -0.012: fold and nonsmooth fold at the grazing",
          "[grazing]") {
  ImpactOscillatorParameters p = r08_d006();
  p.eta = 1.3;
  const Example ex = run_example({p, "d", -0.005, -0.012},
                                 {{"fold", "", -0.01072415516573},
                                  {"grazing", "impact-velocity", -0.005705620833855}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == -0.012);
  CHECK(branch.points.size() < 200);
}

// (f) In the restitution coefficient up to its valid range's end r = 1.
TEST_CASE("grazing: eta = 2.675, d = 0, r 0.5 -> 1: period doubling, ends exactly on r = 1",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.eta = 2.675;
  p.d = 0;
  const Example ex = run_example({p, "r", 0.5, 1.0}, {{"period-doubling", "", 0.6901497291167}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 1.0);
}

// (g) In the damping down to its valid range's end c = 0.
TEST_CASE("grazing: eta = 2.675, d = 0, r = 0.5, c 0.23 -> 0: period doubling, ends exactly on c = 0",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.eta = 2.675;
  p.d = 0;
  p.r = 0.5;
  const Example ex = run_example({p, "c", 0.23, 0.0}, {{"period-doubling", "", 0.09848443941201}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 0.0);
}

// (h) An interior grazing: the z = 1/2 orbit's flight touches the base between its impacts.
// Downwards from eta = 4 (n = 2): its period doubling, then at 3.1675052040920 the flight
// touches (below it the z = 1/2 orbit penetrates the base) and the branch goes on along the
// orbits with a second impact, to 3.0. With the locating and boundary tolerances at 1e-13
// the grazing lands within 1e-11 of the closed form.
TEST_CASE("grazing: an interior grazing of the z = 1/2 orbit, d = 0, r = 1, eta 4 -> 3", "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = 0;
  Case c{p, "omega", 4.0, 3.0, 2};
  const Example ex = run_example(c,
                                 {{"period-doubling", "", 3.304665480252},
                                  {"grazing", "interior-tangency", 3.1675052040920}},
                                 1e-13, 1e-13);
  const auto& branch = ex.traced.branch;
  CHECK(located(branch, "grazing", 3.1675052040920) <= 1e-11);
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 3.0);
}

// (i) A grazing beside a fold. The z = 1/2 orbits at d = -1/300 from eta = 2.9375 down:
// their period doubling, then the interior grazing where they gain a second impact (both
// against the closed form); then, on the two-impact orbits (beyond the closed form's
// families), a fold and a period doubling, and near 1.99904 the grazing of the slower
// impact, 1.4e-4 in eta from the fold of the one-impact orbits that leave it. Those four
// are checked against the same branch traced in steps of 0.01 (7 times shorter). At the
// default steps the branch once ended at the grazing ("no orbit of the other family
// leaves"): the one-impact orbits' first guess stepped along c's gradient alone, which
// leaves F far from zero beside the fold; and where their first orbit lay beyond the fold,
// the fold was skipped. The grazing is extrapolated from the approach down to the flow's
// depth floor, where its orders agree to 3e-8 here: it is checked to 5e-8.
TEST_CASE("grazing: a grazing beside a fold, z = 1/2, d = -1/300, eta 2.9375 -> 1.5", "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = -1.0 / 300.0;
  Case c{p, "omega", 2.9375, 1.5, 2};
  const Example ex = run_example(c, {{"period-doubling", "", 2.905609925662},
                                     {"grazing", "interior-tangency", 2.433605193327}});
  const auto& branch = ex.traced.branch;
  CHECK(branch.ok());
  CHECK(branch.points.back().lambda == 2.9375);  // back up along the one-impact orbits
  const Traced fine = trace(c, 1e-9, -1.0, 0.01);
  INFO("steps of 0.01: " << fine.failure << listing(fine.branch));
  REQUIRE(fine.branch.ok());
  const auto types = [](const ContinuationResult& b) {
    std::vector<std::string> t;
    for (const auto& s : b.special_points) t.push_back(libcont::to_string(s.type));
    return t;
  };
  const std::vector<std::string> expected{"period-doubling", "grazing", "fold",
                                          "period-doubling", "grazing", "fold"};
  CHECK(types(fine.branch) == expected);
  REQUIRE(types(branch) == expected);
  for (size_t k = 2; k < expected.size(); ++k) {
    const double value = fine.branch.special_points[k].lambda;
    INFO(expected[k] << " at " << value);
    CHECK(std::abs(branch.special_points[k].lambda - value) <= (expected[k] == "grazing" ? 5e-8 : 1e-8));
  }
  CHECK(libcont::unexplained_stability_changes(branch, ex.traced.data_names).empty());
}

// (i') The same branch traced in steps of 0.002 and 0.001 (5 and 10 times shorter than the
// 0.01 above). The approach to each grazing then takes many steps shorter than its
// geometric ones. Extrapolated through those crowded orbits (and, in steps of 0.002, from
// where the walk stopped after 200 steps), the interior grazing came out 2.6e-7 off the
// closed form and the impact-velocity grazing 2.7e-6 off the one traced in steps of 0.01
// (with the walk going on to the floor through every orbit, in steps of 0.001 the
// impact-velocity grazing came out 5.3e-8 off). Both must be as close as at the default
// steps.
TEST_CASE("grazing: a grazing beside a fold at small steps, z = 1/2, d = -1/300", "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = -1.0 / 300.0;
  const Case c{p, "omega", 2.9375, 1.5, 2};
  const auto grazings = [](const ContinuationResult& b) {
    std::vector<double> at;
    for (const auto& s : b.special_points)
      if (s.type == libcont::SpecialPointType::Grazing) at.push_back(s.lambda);
    return at;
  };
  const Traced fine = trace(c, 1e-9, -1.0, 0.01);
  INFO("steps of 0.01: " << fine.failure << listing(fine.branch));
  REQUIRE(grazings(fine.branch).size() == 2);
  const double interior = 2.433605193327, impact_velocity = grazings(fine.branch)[1];
  for (const double max_step : {0.002, 0.001}) {
    const Traced small = trace(c, 1e-9, -1.0, max_step);
    INFO("steps of " << max_step << ": " << small.failure << listing(small.branch));
    REQUIRE(small.branch.ok());
    const std::vector<double> at = grazings(small.branch);
    REQUIRE(at.size() == 2);
    CHECK(std::abs(at[0] - interior) <= 1e-8);
    CHECK(std::abs(at[1] - impact_velocity) <= 5e-8);
  }
}

// (j) An isola. The z = 2/2 orbits found at eta = 3.1 (d = 0, r = 1) lie on a closed curve,
// beyond the closed form's families, which `vicont diagram --param omega --from 2 --to 5`
// traces from there: up to a fold near 3.1057, down to a grazing near 3.0175 where they gain
// a third impact, a fold and a period doubling near 2.97, back up to a grazing near 3.0528
// where the third impact leaves, a period doubling near 3.0736, and the fold again, where
// the branch ends as a closed loop. At 3.0175 the three-impact orbits leave steeply in eta
// (about 0.8 in eta per unit of the grazing coordinate, against 0.015 in the state): their
// tangent amplifies the error of the impact's effect per unit speed, which, read at the
// first orbit's own speed, turned it round, and the branch ended there ("no orbit of the
// other family leaves"). Against the curve traced the other way round from 3.1, where that
// grazing is reached from the three-impact side: the same six points, each once. (That
// way round the first step, of 0.03, once converged on the coexisting z = 2/2 orbit a
// thousandth away in the state, and the branch ran down to the period-1 orbit: its end
// tangents did not add up to its chord, PseudoArclength::tangents_match_chord.)
TEST_CASE("grazing: an isola, z = 2/2, d = 0, r = 1, traced both ways round from eta = 3.1",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = 0;
  Case up{p, "omega", 3.1, 5.0, 2, 2.0}, down{p, "omega", 3.1, 2.0, 2, 5.0};
  const Traced forward = trace(up), backward = trace(down);
  INFO("up: " << forward.failure << listing(forward.branch));
  INFO("down: " << backward.failure << listing(backward.branch));
  REQUIRE(forward.started);
  REQUIRE(backward.started);
  for (const Traced* t : {&forward, &backward}) {
    CHECK(t->branch.status == ContinuationStatus::ClosedLoop);
    CHECK(libcont::unexplained_stability_changes(t->branch, t->data_names).empty());
  }
  const auto types = [](const ContinuationResult& b) {
    std::vector<std::string> t;
    for (const auto& s : b.special_points) t.push_back(libcont::to_string(s.type));
    return t;
  };
  const std::vector<std::string> expected{"fold",   "grazing", "fold", "period-doubling",
                                          "grazing", "period-doubling"};
  REQUIRE(types(forward.branch) == expected);
  // Down from 3.1 the same points come in the opposite order, from the period doubling
  // near 3.0736 round to the fold near 3.1057.
  const size_t count = expected.size();
  REQUIRE(backward.branch.special_points.size() == count);
  for (size_t k = 0; k < count; ++k) {
    const auto& a = forward.branch.special_points[k];
    const auto& b = backward.branch.special_points[count - 1 - k];
    INFO(expected[k] << " at " << number(a.lambda) << " and " << number(b.lambda));
    CHECK(b.type == a.type);
    // Grazings are extrapolated from the approach (orders agreeing to 3e-8 near a fold).
    CHECK(std::abs(a.lambda - b.lambda) <= (expected[k] == "grazing" ? 5e-8 : 1e-8));
  }
  const auto& to_three = forward.branch.special_points[1];
  CHECK(std::abs(to_three.lambda - 3.0175368) <= 1e-6);
  CHECK(to_three.grazing_kind == GrazingKind::InteriorTangency);
}

// (k) A grazing of another approach than the one the passage followed. The z = 3/4 orbit
// through (x, v) = (1.9875014225e-4, 1.2556123162e-2) on t = 0 at eta = 3.3 (d = 0, r = 1;
// where `vicont diagram --param omega --from 2 --to 5` settles) turns at a fold near
// 3.3184 and comes back towards a grazing. The passage follows the approach nearest to
// the surface at its start, which stops short of grazing; meanwhile another of the
// orbit's gap minima comes down to the surface near 3.2675. The passage declined with the
// branch already next to that grazing, and the engine's steps, each crossing it, failed
// down to min_step ("step size below min_step", the grazing never located). A passage
// declined after the branch came twice as close is tried again from its last point, on
// the approach nearest now: the grazing is located (the orbit's smallest gap there is
// zero) and passed.
//
// (l) A departure onto a strongly curved family. Beyond it the same branch comes down to a
// grazing near 2.90925, where a gap minimum of the four-impact orbits touches the surface;
// below it lie orbits with a fifth impact. Their map is strongly curved: a later impact
// near t = 8.83, at a speed of 1.3e-3, is shallow, and the multipliers reach 7e5 (like
// 1/speed). The first-order start of the five-impact orbits fell on the side without the
// impact (c = -1.0e-11 against 3.2e-11), Newton from there stalled at 2e-4 of the orbit's
// size, and the branch ended ("no orbit of the other family (5 impacts) was found leaving
// the grazing"). Moved along c's gradient onto the target's level first
// (Passage::onto_level), Newton converges, and the branch goes on along the five-impact
// orbits. Their first orbit is checked against one found independently at its omega:
// along the four-impact orbit's unstable direction (multiplier 89, at eta = 2.9096, above
// the grazing) the map's unstable component changes sign within 1e-8 of where the gap
// closes, and plain Newton on P^4 started at that sign change converges. (One test for
// both: the branch is traced once, about 14 s.)
TEST_CASE("grazing: the z = 3/4 branch from eta = 3.3: a second approach grazes, then a "
          "departure onto a strongly curved family", "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = 0;
  Case c{p, "omega", 3.3, 5.0, 4, 2.0, Vec2(1.9875014225193894e-4, 1.2556123162191431e-2)};
  const Traced t = trace(c);
  INFO(c.describe() << ": " << t.failure << listing(t.branch));
  REQUIRE(t.started);
  CHECK(t.branch.points.back().lambda < 3.2);  // not ended at the grazing near 3.2675
  const auto& sp = t.branch.special_points;
  REQUIRE(sp.size() >= 2);
  CHECK(sp[0].type == SpecialPointType::Fold);
  CHECK(std::abs(sp[0].lambda - 3.3183747) <= 1e-6);
  CHECK(sp[1].type == SpecialPointType::Grazing);
  CHECK(sp[1].grazing_kind == GrazingKind::InteriorTangency);
  CHECK(std::abs(sp[1].lambda - 3.2674951) <= 1e-6);
  // Its orbit touches: the flow takes the touch as a gap minimum of zero or as an impact
  // of zero speed, to the location's accuracy.
  const auto column = [&](const char* name) {
    return std::find(t.data_names.begin(), t.data_names.end(), name) - t.data_names.begin();
  };
  const double gap = sp[1].data[column("min_gap")], slowest = sp[1].data[column("slowest_impact")];
  INFO("at the grazing: min_gap " << gap << ", slowest_impact " << slowest);
  CHECK((std::abs(gap) <= 1e-9 || slowest <= 1e-6));
  // The branch goes on beyond it.
  CHECK(sp[1].after_point + 2 < static_cast<int>(t.branch.points.size()));

  // (l)
  REQUIRE(sp.size() >= 3);
  const auto& grazing = sp[2];
  REQUIRE(grazing.type == SpecialPointType::Grazing);
  CHECK(std::abs(grazing.lambda - 2.9092511) <= 1e-6);
  // On along the five-impact orbits, below the grazing.
  REQUIRE(grazing.after_point + 1 < static_cast<int>(t.branch.points.size()));
  const libcont::BranchPoint& first = t.branch.points[static_cast<size_t>(grazing.after_point + 1)];
  INFO("first orbit beyond the grazing at " << number(first.lambda) << ", " << t.impacts(first) << " impacts");
  REQUIRE(t.impacts(first) == 5);
  CHECK(first.lambda < grazing.lambda);
  int five = 0;
  for (const auto& row : t.branch.points)
    if (row.lambda < grazing.lambda && t.impacts(row) == 5) ++five;
  CHECK(five >= 10);
  CHECK(t.branch.points.back().lambda < 2.9);

  // The independent orbit at the first orbit's omega. The four-impact orbit just above the
  // grazing, from the grazing orbit by Newton, and its map's unstable direction with the
  // left eigenvector.
  const double phase = first.chart;
  const auto newton = [](libcont::StroboscopicMap& map, Vector& x, int iterations) {
    libcont::MapEvaluation e;
    for (int k = 0; k < iterations; ++k) {
      e = map.iterate(x, 4, true);
      if (!e.ok()) break;
      x -= (e.jacobian - libcont::Matrix::Identity(2, 2)).fullPivLu().solve(e.x - x);
    }
    return map.iterate(x, 4, true);
  };
  const auto above = model(p.with("omega", 2.9096));
  libcont::StroboscopicMap above_map(above, {}, phase);
  Vector orbit = grazing.u;
  const libcont::MapEvaluation four = newton(above_map, orbit, 20);
  REQUIRE(four.ok());
  REQUIRE((four.x - orbit).norm() <= 1e-14);
  REQUIRE(four.impacts == 4);
  REQUIRE(four.measures.minimum_gap < 1e-4);  // the gap minimum that grazes below
  double graze_time = 0.0;
  for (const auto& a : four.measures.approaches)
    if (a.type == libcont::ContactApproach::Type::GapMinimum) graze_time = a.t;
  Eigen::EigenSolver<libcont::Matrix> right(four.jacobian), left(four.jacobian.transpose());
  const int r = std::abs(right.eigenvalues()[0]) > 1.0 ? 0 : 1, l = std::abs(left.eigenvalues()[0]) > 1.0 ? 0 : 1;
  const Vector unstable = right.eigenvectors().col(r).real().normalized();
  Vector across = left.eigenvectors().col(l).real();
  across /= across.dot(unstable);
  INFO("unstable multiplier " << right.eigenvalues()[r].real());
  REQUIRE(right.eigenvalues()[r].real() > 50.0);

  // At the first orbit's omega: where along that direction the gap minimum becomes an
  // impact, then the sign change of the unstable component beyond it.
  const auto below = model(p.with("omega", first.lambda));
  libcont::StroboscopicMap map(below, {}, phase);
  const auto point = [&](double s) { return Vector(orbit + s * unstable); };
  const auto impacting = [&](double s) {
    const libcont::MapEvaluation e = map.iterate(point(s), 4, false);
    double nearest = 1e300;
    bool impact = false;
    for (const auto& a : e.measures.approaches)
      if (std::abs(a.t - graze_time) < nearest) {
        nearest = std::abs(a.t - graze_time);
        impact = a.type == libcont::ContactApproach::Type::Impact;
      }
    return impact;
  };
  double inside = -1e-4, outside = 1e-4;
  REQUIRE(impacting(inside));
  REQUIRE(!impacting(outside));
  for (int k = 0; k < 60; ++k) {
    const double middle = 0.5 * (inside + outside);
    (impacting(middle) ? inside : outside) = middle;
  }
  const auto component = [&](double depth) {
    const Vector x = point(inside - depth);
    return across.dot(map.iterate(x, 4, false).x - x);
  };
  double shallow = 1e-16, deep = 1e-8;
  INFO("unstable component " << component(shallow) << " and " << component(deep));
  REQUIRE(component(shallow) > 0.0);
  REQUIRE(component(deep) < 0.0);
  for (int k = 0; k < 80; ++k) {
    const double middle = std::sqrt(shallow * deep);
    (component(middle) > 0.0 ? shallow : deep) = middle;
  }
  Vector independent = point(inside - shallow);
  const libcont::MapEvaluation e = newton(map, independent, 15);
  REQUIRE(e.ok());
  INFO("independent five-impact orbit: |P^4(x) - x| = " << (e.x - independent).norm() << ", impacts "
                                                        << e.impacts << ", slowest "
                                                        << e.measures.slowest_impact);
  REQUIRE((e.x - independent).norm() <= 1e-9 * orbit.norm());
  REQUIRE(e.impacts == 5);
  INFO("branch " << first.u.transpose() << ", independent " << independent.transpose());
  CHECK((first.u - independent).norm() <= 1e-9 * orbit.norm());
  Eigen::EigenSolver<libcont::Matrix> multipliers(e.jacobian);
  CHECK(multipliers.eigenvalues().cwiseAbs().maxCoeff() > 1e5);
}

// (m) An approach that does not converge. The grazing at 0.8335639 of (a) approached in
// steps of 0.999 in the grazing coordinate (against the default 0.5): the walk's 2000 steps
// end far from the grazing, where extrapolations of its orbits do not agree. No grazing
// may be placed from them: the branch ends at the walk's last orbit, saying why.
TEST_CASE("grazing: an approach that does not converge places no grazing, d = -0.005",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = -0.005;
  libcont::GrazingPassageOptions slow;
  slow.ratio = 0.999;
  Case c{p, "omega", 0.5, 2.5};
  c.passage = slow;
  const Traced t = trace(c);
  INFO(c.describe() << ": " << t.failure << listing(t.branch));
  REQUIRE(t.started);
  CHECK(t.branch.status == ContinuationStatus::PassageFailed);
  CHECK(t.branch.stop_reason.find("the approach to grazing did not converge") != std::string::npos);
  for (const auto& s : t.branch.special_points) CHECK(s.type != SpecialPointType::Grazing);
  // It ends short of the grazing, on the branch's way to it.
  CHECK(t.branch.points.back().lambda < 0.8335639334664);
  CHECK(t.branch.points.back().lambda > 0.8);
}
