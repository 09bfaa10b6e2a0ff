// The periodic-orbit workflow of the library (periodic_orbit_search.hpp, orbit_branch.hpp):
// a catalogue model's branch found and traced in a few lines gives what `vicont continue`
// gives for the same run (the driver is a user of these functions; the values below are
// its output: tests/cli_orbit_continue.sh and tests/cli_restart.sh check the same points
// to 1e-5); the branch equals a bare run of the engine where nothing stalls; a restart along
// a row's tangent, the doubled branch of a period doubling, a branch through a grazing and
// three period doublings, a stalled branch's status, the progress callback, the named
// point data and the options' validation.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "libcont/input_error.hpp"
#include "libcont/minimal_period.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/orbit_curve.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "systems/catalogue.hpp"

using libcont::ContinuationStatus;
using libcont::OrbitBranch;
using libcont::OrbitBranchOptions;
using libcont::SpecialPointType;

namespace {

struct Expected {
  SpecialPointType type;
  double lambda;
};

// The branch's special points are those expected: as many, of the same types, in the same
// order, at the same parameter values to `tolerance`.
void check_special_points(const OrbitBranch& branch, const std::vector<Expected>& expected,
                          double tolerance = 1e-8) {
  std::string found;
  for (const auto& s : branch.special_points) {
    found += ' ';
    found += to_string(s.type);
    found += '@';
    found += std::to_string(s.lambda);
  }
  INFO("stop: " << branch.stop_reason << "; special points:" << found);
  REQUIRE(branch.special_points.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CHECK(branch.special_points[i].type == expected[i].type);
    CHECK(std::abs(branch.special_points[i].lambda - expected[i].lambda) <= tolerance);
  }
}

// `vicont continue --param eta --from 4 --to 4.7` on the moving-base oscillator (defaults):
// 24 rows of the z = 1/2 orbit, its period doubling PD1, ended on the bound.
constexpr double pd1_eta = 4.629156338156342;
// Its doubled branch's own period doubling (--follow-doubling: doubled-PD1, 15 rows).
constexpr double doubled_pd1_eta = 4.686781820422963;

// The cantilever beam (set 1) at forcing amplitude e: the branch in omega of the orbit of
// period n that the search finds at omega = from, traced towards `to`.
OrbitBranch cantilever_branch(libcont::HybridSystem& system, double e, int n, double from,
                              double to) {
  system.set_parameter("e", e);
  system.set_parameter("omega", from);
  libcont::OrbitSearchOptions search;
  search.period = n;
  return libcont::trace_orbit_branch(system, libcont::find_periodic_orbit(system, search),
                                     {"omega", from, to});
}

// The moving-base oscillator at d = -0.005 (the tutorial's frequency response) and its
// z = 1/1 branch over omega 0.5..2.5, from the orbit the start at rest settles on.
OrbitBranch tutorial_branch(libcont::HybridSystem& system, const OrbitBranchOptions& options) {
  system.set_parameter("d", -0.005);
  system.set_parameter("omega", 0.5);
  return libcont::trace_orbit_branch(system, libcont::find_periodic_orbit(system), options);
}

// The branch's first special point of a type, or none.
const libcont::SpecialPoint* first_of(const OrbitBranch& branch, SpecialPointType type) {
  for (const auto& s : branch.special_points)
    if (s.type == type) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("Workflow: a catalogue model's branch in five lines, as vicont continue traces it",
          "[continuation][workflow]") {
  // The example of doc/library.md, section 9.
  auto system = systems::make_system("moving-base");
  system->set_parameter("omega", 4.0);
  const libcont::OrbitSearchResult orbit = libcont::find_periodic_orbit(*system);
  const libcont::OrbitBranch branch =
      libcont::trace_orbit_branch(*system, orbit, {"omega", 4.0, 4.7});
  // End of the example.

  REQUIRE(orbit.found());
  CHECK(orbit.status == libcont::OrbitSearchStatus::Found);
  CHECK(orbit.period == 2);
  CHECK(orbit.period_detected);
  CHECK(orbit.shooting.p == 1);
  CHECK(orbit.phase > 0.0);  // moved off the impact's section t = 0

  REQUIRE(branch.ok());
  CHECK(branch.status == ContinuationStatus::ReachedBound);
  CHECK(branch.stop_reason == "reached the parameter bound");
  CHECK(branch.points.size() == 24);
  CHECK(branch.section_moves == 0);
  CHECK(branch.period == 2);
  CHECK(branch.points.back().lambda == 4.7);
  check_special_points(branch, {{SpecialPointType::PeriodDoubling, pd1_eta}});
  CHECK(to_string(branch.special_points[0].type) == "period-doubling");
  CHECK_FALSE(branch.special_points[0].grazing_kind.has_value());
  CHECK(branch.special_points[0].detail.empty());

  // The named point data: the orbit's amplitude, impacts and multipliers, stable before the
  // period doubling and not after it.
  const libcont::OrbitPointData first = branch.orbit(branch.points.front());
  CHECK(first.coordinates == std::vector<std::string>{"x"});
  CHECK(first.amplitude("x") == first.amplitudes[0]);
  CHECK(first.impacts == 1);
  CHECK(first.multipliers.size() == 2);
  CHECK(first.stable());
  CHECK(std::abs(std::abs(first.multipliers[0]) - first.spectral_radius) <= 1e-15);
  CHECK_FALSE(branch.orbit(branch.points.back()).stable());
  CHECK_THROWS_AS(first.amplitude("v"), libcont::InputError);

  // Where nothing stalls the workflow is one run of the engine from the found orbit: the
  // same rows and special points to the last bit.
  libcont::PeriodicOrbitProblem problem(*system, "omega", orbit.period, {}, orbit.phase);
  const OrbitBranchOptions options("omega", 4.0, 4.7);
  const libcont::ContinuationResult bare =
      libcont::PseudoArclength(problem, options.continuation()).run(orbit.shooting.x, 4.0);
  REQUIRE(bare.points.size() == branch.points.size());
  for (size_t i = 0; i < bare.points.size(); ++i) {
    CHECK(bare.points[i].lambda == branch.points[i].lambda);
    CHECK(bare.points[i].u == branch.points[i].u);
  }
  REQUIRE(bare.special_points.size() == branch.special_points.size());
  CHECK(bare.special_points[0].lambda == branch.special_points[0].lambda);
  CHECK(bare.status == branch.status);
}

TEST_CASE("Workflow: a restart along a row's tangent and the doubled branch of a period doubling",
          "[continuation][workflow]") {
  auto system = systems::make_system("moving-base");
  system->set_parameter("omega", 4.0);
  const OrbitBranchOptions options("omega", 4.0, 4.7);
  const OrbitBranch branch =
      libcont::trace_orbit_branch(*system, libcont::find_periodic_orbit(*system), options);
  REQUIRE(branch.special_points.size() == 1);

  // From row 10 along its tangent (vicont continue --restart RUN:10 --to 4.7): the same
  // period doubling again.
  const libcont::BranchPoint row = branch.points[10];
  OrbitBranchOptions from_row = options;
  from_row.from = row.lambda;
  const OrbitBranch again = libcont::trace_orbit_branch_from(*system, 2, row, from_row);
  CHECK(again.ok());
  CHECK(again.points.front().lambda == row.lambda);
  check_special_points(again, {{SpecialPointType::PeriodDoubling, pd1_eta}});
  // A tangent given the other way is turned towards `to`: the same branch again.
  libcont::BranchPoint reversed = row;
  reversed.tangent = -reversed.tangent;
  const OrbitBranch turned = libcont::trace_orbit_branch_from(*system, 2, reversed, from_row);
  CHECK(turned.points.size() == again.points.size());
  CHECK(turned.points.back().lambda == 4.7);

  // The doubled (n = 4) branch from PD1 (--follow-doubling), with its own period doubling.
  const OrbitBranch doubled =
      libcont::trace_doubled_branch(*system, 2, branch.special_points[0], options);
  CHECK(doubled.ok());
  CHECK(doubled.period == 4);
  CHECK(doubled.points.size() == 15);
  CHECK(std::abs(doubled.points.front().lambda - pd1_eta) <= 1e-9);
  check_special_points(doubled, {{SpecialPointType::PeriodDoubling, doubled_pd1_eta}});

  // Not a period doubling: no doubled branch, and the status says so.
  libcont::SpecialPoint not_a_flip;
  not_a_flip.type = SpecialPointType::PeriodDoubling;
  not_a_flip.u = row.u;
  not_a_flip.lambda = row.lambda;
  not_a_flip.chart = row.chart;
  const OrbitBranch none = libcont::trace_doubled_branch(*system, 2, not_a_flip, options);
  CHECK(none.status == ContinuationStatus::StartFailed);
  CHECK_FALSE(none.ok());
  CHECK(none.points.empty());
  CHECK(none.stop_reason.find("cannot switch branches") == 0);
}

TEST_CASE("Workflow: through a grazing and three period doublings, as vicont continue",
          "[continuation][workflow][grazing]") {
  // vicont continue --param eta --from 1 --to 3: the z = 2/1 orbit at eta = 1, its grazing
  // GR1 (an impact vanishes with zero speed) and three period doublings, 43 rows (45
  // before the corrector's Broyden update and curvature predictor).
  auto system = systems::make_system("moving-base");
  system->set_parameter("omega", 1.0);
  int calls = 0, last_points = 0;
  bool growing = true;
  OrbitBranchOptions options("omega", 1.0, 3.0);
  options.progress = [&](const libcont::OrbitBranchProgress& p) {
    ++calls;
    growing = growing && p.points >= last_points;
    last_points = p.points;
  };
  const OrbitBranch branch =
      libcont::trace_orbit_branch(*system, libcont::find_periodic_orbit(*system), options);
  CHECK(branch.status == ContinuationStatus::ReachedBound);
  CHECK(branch.points.size() == 43);
  check_special_points(branch, {{SpecialPointType::Grazing, 1.00932195610422},
                                {SpecialPointType::PeriodDoubling, 1.0819352124307249},
                                {SpecialPointType::PeriodDoubling, 1.1857621295485954},
                                {SpecialPointType::PeriodDoubling, 2.6515085071419415}});
  CHECK(branch.special_points[0].grazing_kind == libcont::GrazingKind::ImpactVelocity);
  CHECK(branch.special_points[0].detail == "impact-velocity");
  // One impact fewer beyond the grazing.
  const auto before = static_cast<size_t>(branch.special_points[0].after_point);
  CHECK(branch.orbit(branch.points[before]).impacts == 2);
  CHECK(branch.orbit(branch.points[before + 1]).impacts == 1);
  // Progress after every step: as many rows in the end as the branch has.
  CHECK(calls > 10);
  CHECK(growing);
  CHECK(last_points == static_cast<int>(branch.points.size()));

  // With stop_at_grazing the branch ends on the located grazing, normally. (Tracing left
  // the system at some value of eta: the orbit is sought at eta = 1 again.)
  options.stop_at_grazing = true;
  options.progress = nullptr;
  system->set_parameter("omega", 1.0);
  const OrbitBranch stopped =
      libcont::trace_orbit_branch(*system, libcont::find_periodic_orbit(*system), options);
  CHECK(stopped.ok());
  CHECK(stopped.status == ContinuationStatus::EndedAtBoundary);
  check_special_points(stopped, {{SpecialPointType::Grazing, 1.00932195610422}});
}

TEST_CASE("Workflow: a branch that cannot be continued ends with StepTooSmall",
          "[continuation][workflow]") {
  // vicont continue --param eta --from 1 --to 3 --initial-step 0.01 --min-step 0.002: steps
  // too long to approach the grazing near eta = 1.0093; a quiet section does not help
  // (it is already quiet), 4 rows.
  auto system = systems::make_system("moving-base");
  system->set_parameter("omega", 1.0);
  OrbitBranchOptions options("omega", 1.0, 3.0);
  options.initial_step = 0.01;
  options.min_step = 0.002;
  const OrbitBranch branch =
      libcont::trace_orbit_branch(*system, libcont::find_periodic_orbit(*system), options);
  CHECK_FALSE(branch.ok());
  CHECK(branch.status == ContinuationStatus::StepTooSmall);
  CHECK(to_string(branch.status) == "step too small");
  CHECK(branch.stop_reason.find("step size below min_step") == 0);
  CHECK(branch.points.size() == 4);
  CHECK(branch.section_moves == 0);
}

TEST_CASE("Workflow: options are validated, the bad field named", "[continuation][workflow]") {
  auto system = systems::make_system("moving-base");
  const auto bad = [&](const OrbitBranchOptions& options, const std::string& field) {
    INFO(field);
    CHECK_THROWS_WITH(options.validate(), Catch::Contains(field));
    CHECK_THROWS_AS(libcont::trace_orbit_branch(*system, 1, 0.0, system->default_initial_state(),
                                                options),
                    libcont::InputError);
  };
  const OrbitBranchOptions good("omega", 1.0, 2.0);
  CHECK_NOTHROW(good.validate());
  bad({"", 1.0, 2.0}, "parameter");
  bad({"omega", 1.0, 1.0}, "to");
  OrbitBranchOptions options = good;
  options.max_step = 0.001;
  options.min_step = 0.01;
  bad(options, "min_step");
  options = good;
  options.locate_tolerance = -1.0;
  bad(options, "locate_tolerance");
  options = good;
  options.max_points = 1;
  bad(options, "max_points");
  // An unknown parameter is named by the system.
  CHECK_THROWS_WITH(libcont::trace_orbit_branch(*system, 1, 0.0, system->default_initial_state(),
                                                {"nosuch", 1.0, 2.0}),
                    Catch::Contains("nosuch"));

  options = good;
  options.flow.relative_tolerance = 0.0;
  bad(options, "relative_tolerance");

  libcont::OrbitSearchOptions search;
  search.max_period = 0;
  CHECK_THROWS_WITH(search.validate(), Catch::Contains("max_period"));
  CHECK_THROWS_WITH(libcont::find_periodic_orbit(*system, search), Catch::Contains("max_period"));
  search = {};
  search.shooting.max_halvings = -1;
  CHECK_THROWS_WITH(search.validate(), Catch::Contains("max_halvings"));
  CHECK_THROWS_WITH(libcont::find_periodic_orbit(*systems::make_system("drop")),
                    Catch::Contains("autonomous"));
}

TEST_CASE("Workflow: a doubled branch continued into its birth ends there, at any step",
          "[continuation][workflow]") {
  // The hard moving-base oscillator, r = 1: the z = 2/4 orbit at eta = 3.3 was born at the
  // period doubling of the z = 1/2 orbit. Continued up, it meets the z = 1/2 orbit traversed
  // twice there, where its multiplier touches +1 without crossing: no test function sees
  // it, and a step past it would go on along the z = 1/2 orbit.
  auto system = systems::make_system("moving-base");
  system->set_parameter_text("model", "hard");
  system->set_parameter("r", 1.0);

  // The z = 1/2 orbit's own branch locates its period doubling (a regular sign change).
  system->set_parameter("omega", 3.4);
  libcont::OrbitSearchOptions half;
  half.period = 2;
  const OrbitBranch parent =
      libcont::trace_orbit_branch(*system, libcont::find_periodic_orbit(*system, half),
                                  {"omega", 3.4, 3.25});
  REQUIRE(parent.ok());
  check_special_points(parent, {{SpecialPointType::PeriodDoubling, 3.3046654803}}, 1e-9);
  const double birth = parent.special_points[0].lambda;

  // Given n = 4 at eta = 3.4, the search finds that orbit again, closing after 2 periods.
  system->set_parameter("omega", 3.4);
  libcont::OrbitSearchOptions four;
  four.period = 4;
  const libcont::OrbitSearchResult twice = libcont::find_periodic_orbit(*system, four);
  REQUIRE(twice.found());
  CHECK(twice.period == 2);
  CHECK(twice.period_note.find("closes after 2 periods") != std::string::npos);

  system->set_parameter("omega", 3.3);
  const libcont::OrbitSearchResult orbit = libcont::find_periodic_orbit(*system, four);
  REQUIRE(orbit.found());
  REQUIRE(orbit.period == 4);
  REQUIRE(orbit.shooting.p == 2);
  for (const double step : {0.0, 0.03}) {  // the range's default steps; one past the birth
    INFO("initial step " << step);
    OrbitBranchOptions options("omega", 3.3, 3.4);
    if (step > 0.0) {
      options.initial_step = step;
      options.max_step = 5 * step;
    }
    const OrbitBranch doubled = libcont::trace_orbit_branch(*system, orbit, options);
    CHECK(doubled.ok());
    CHECK(doubled.status == ContinuationStatus::LeftFamily);
    check_special_points(doubled, {{SpecialPointType::PeriodDoubling, birth}}, 1e-9);
    // The last row is the meeting point, the special point there too.
    REQUIRE(doubled.points.size() >= 2);
    CHECK(doubled.special_points[0].after_point + 2 == static_cast<int>(doubled.points.size()));
    CHECK(doubled.points.back().lambda == doubled.special_points[0].lambda);
    CHECK(doubled.points.back().tangent[2] == 0.0);
    CHECK(doubled.stop_reason.find("on the orbit of period 2, at its period doubling") !=
          std::string::npos);
    // There, seen as a z = 2/4 orbit: two impacts and a multiplier +1.
    const libcont::OrbitPointData end = doubled.orbit(doubled.special_points[0]);
    CHECK(end.impacts == 2);
    CHECK(std::abs(end.spectral_radius - 1.0) < 1e-6);
    // Every row before it is a z = 2/4 orbit closing after 4 periods and no fewer, short of
    // the birth; the last closes after 2.
    for (const auto& row : doubled.points) {
      system->set_parameter("omega", row.lambda);
      libcont::StroboscopicMap map(*system, {}, row.chart);
      const bool last = &row == &doubled.points.back();
      CHECK(libcont::minimal_period(map, row.u, 4) == (last ? 2 : 4));
      if (!last) CHECK(row.lambda < birth);
    }
  }
}

TEST_CASE("Workflow: a doubled branch that runs into the grazing it was born from ends there",
          "[continuation][workflow][grazing]") {
  // The moving-base oscillator at d = -0.005 (the tutorial's frequency response): the
  // non-impacting orbit grazes at GR1, the z = 1/1 orbit doubles at PD1. The doubled
  // branch (z = 1/2) goes down in omega to GR1, where its impact and its free lap touch
  // the base at once: it is the grazing z = 0/1 orbit traversed twice, born there. No orbit
  // leaves that grazing on the other side; the branch ends there, as a merge, not a failure.
  auto system = systems::make_system("moving-base");
  const OrbitBranchOptions options("omega", 0.5, 2.5);
  const OrbitBranch branch = tutorial_branch(*system, options);
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* grazing = first_of(branch, SpecialPointType::Grazing);
  const libcont::SpecialPoint* flip = first_of(branch, SpecialPointType::PeriodDoubling);
  REQUIRE(grazing);
  REQUIRE(flip);
  REQUIRE(grazing->lambda < flip->lambda);

  const OrbitBranch doubled = libcont::trace_doubled_branch(*system, 1, *flip, options);
  INFO("stop: " << doubled.stop_reason);
  CHECK(doubled.ok());
  CHECK(doubled.status == ContinuationStatus::LeftFamily);
  REQUIRE_FALSE(doubled.special_points.empty());
  const libcont::SpecialPoint& end = doubled.special_points.back();
  CHECK(end.type == SpecialPointType::Grazing);
  CHECK(std::abs(end.lambda - grazing->lambda) <= 1e-8);
  CHECK(doubled.stop_reason.find("closes after 1 of the branch's 2 forcing periods") !=
        std::string::npos);
  // The end is the parent's grazing orbit: the same state on the same section, and it
  // closes after one period.
  system->set_parameter("omega", end.lambda);
  libcont::StroboscopicMap map(*system, {}, end.chart);
  CHECK(libcont::minimal_period(map, end.u, 2) == 1);
}

TEST_CASE("Steps beside a sharp fold keep to the branch's sheet", "[continuation][workflow]") {
  // The cantilever beam (set 1, e = 0.05): the z = 8/2 orbits from omega = 0.52 turn at
  // eight folds up to the period doubling at 0.5438 where they are born. Beside the sharp
  // fold at 0.5245 the branch approaches a grazing in the impact's speed and declines it;
  // a step of that walk once landed on the fold's far sheet at the same speed (with steps
  // of 0.003, vicont diagram's default for omega 0.5..0.56, and 0.005), and the branch
  // traced its bubble back. Each step must keep to the sheet: the folds in order, every
  // change of stability at one of them, whatever the largest step.
  auto system = systems::make_system("cantilever-2dof");
  system->set_parameter("e", 0.05);
  system->set_parameter("omega", 0.52);
  libcont::OrbitSearchOptions two;
  two.period = 2;
  const libcont::OrbitSearchResult orbit = libcont::find_periodic_orbit(*system, two);
  REQUIRE(orbit.found());
  std::vector<double> folds_at_finest;
  for (const double max_step : {0.001, 0.003, 0.005}) {
    OrbitBranchOptions options("omega", 0.52, 0.56);
    options.max_step = max_step;
    const OrbitBranch branch = libcont::trace_orbit_branch(*system, orbit, options);
    INFO("max_step " << max_step << ": " << branch.points.size() << " points, "
                     << branch.stop_reason);
    REQUIRE(branch.ok());
    std::vector<double> folds;
    for (const auto& s : branch.special_points)
      if (s.type == SpecialPointType::Fold) folds.push_back(s.lambda);
    REQUIRE(folds.size() == 8);
    CHECK(branch.special_points.back().type == SpecialPointType::PeriodDoubling);
    CHECK(std::abs(branch.special_points.back().lambda - 0.54378329) < 1e-7);
    CHECK(libcont::unexplained_stability_changes(branch, branch.data_names).empty());
    if (folds_at_finest.empty()) folds_at_finest = folds;
    for (size_t k = 0; k < folds.size(); ++k) CHECK(std::abs(folds[k] - folds_at_finest[k]) < 1e-8);
  }
}

TEST_CASE("A change of stability between two rows with no special point between them is flagged",
          "[continuation]") {
  // Rows by their spectral radius: stable, stable, unstable (a fold located after row 1),
  // unstable, stable (nothing located: a jump), stable, unstable (a grazing after row 5).
  const std::vector<std::string> names{"A_max:x", "spectral_radius"};
  libcont::ContinuationResult branch;
  for (const double radius : {0.5, 0.9, 1.2, 1.5, 0.7, 0.8, 3.0}) {
    libcont::BranchPoint p;
    p.data = libcont::Vector(2);
    p.data << 1.0, radius;
    branch.points.push_back(p);
  }
  libcont::SpecialPoint fold, grazing;
  fold.type = SpecialPointType::Fold;
  fold.after_point = 1;
  grazing.type = SpecialPointType::Grazing;
  grazing.after_point = 5;
  branch.special_points = {fold, grazing};
  CHECK(libcont::unexplained_stability_changes(branch, names) == std::vector<int>{3});
  // Rows without the spectral radius, or with data of another size, say nothing.
  CHECK(libcont::unexplained_stability_changes(branch, {"A_max:x", "impacts"}).empty());
  branch.points[4].data = libcont::Vector(1);
  CHECK(libcont::unexplained_stability_changes(branch, names).empty());
}

TEST_CASE("A step from the orbit a doubled branch is born on swaps no halves",
          "[continuation][period-doubling]") {
  // At its birth the doubled orbit is the period-1 orbit: its half-lap difference
  // P(x) - x is rounding, with no direction. A step from there to either half of a
  // doubled orbit leaves the birth; it must not read as a swap of the halves (a pass of
  // the tip), or the branch ends where it starts, as it did when a change of the root
  // search's rounding turned that difference against the first step. From the birth
  // moved by +-1e-9 along the halves' difference (closing after one period to 2e-9),
  // both steps stay in the family.
  auto system = systems::make_system("moving-base");
  const OrbitBranchOptions options("omega", 0.5, 2.5);
  const OrbitBranch branch = tutorial_branch(*system, options);
  REQUIRE(branch.ok());
  const libcont::SpecialPoint* flip = first_of(branch, SpecialPointType::PeriodDoubling);
  REQUIRE(flip);
  const OrbitBranch doubled = libcont::trace_doubled_branch(*system, 1, *flip, options);
  REQUIRE(doubled.points.size() > 3);
  const libcont::BranchPoint& to = doubled.points[3];
  REQUIRE(to.chart == flip->chart);

  system->set_parameter("omega", to.lambda);
  libcont::StroboscopicMap map(*system, {}, to.chart);
  libcont::Vector half_lap;
  REQUIRE(libcont::minimal_period(map, to.u, 2, 1e-6, &half_lap) == 2);
  const libcont::Vector along = half_lap.normalized();
  std::string why;
  for (const double side : {-1.0, 1.0}) {
    // A problem of its own for each start: it keeps the periods of the points it was
    // asked about by parameter and section.
    libcont::PeriodicOrbitProblem problem(*system, "omega", 2, {}, to.chart);
    libcont::BranchPoint from;
    from.u = flip->u + side * 1e-9 * along;
    from.lambda = flip->lambda;
    from.chart = flip->chart;
    INFO("from the birth moved by " << side << "e-9");
    CHECK(problem.same_family(from, to, why));
    INFO(why);
  }
}

TEST_CASE("Workflow: a doubled branch whose step passes its birth ends there, not at a fold",
          "[continuation][workflow]") {
  // The cantilever beam (set 1, e = 0.05): the z = 8/2 orbit at omega = 0.53 lies on a
  // bubble of period-2 orbits between two period doublings of the z = 4/1 orbit. Near
  // each end the branch is a parabola in omega whose halves are the same orbits started a
  // period apart; the steps pass its tip instead of landing on it. Without a test of the
  // half-lap difference the tip was labelled a fold and the branch traced the bubble again
  // backwards, up to max_points.
  auto system = systems::make_system("cantilever-2dof");
  // The z = 4/1 orbit's own branch locates its period doublings (regular sign changes).
  const OrbitBranch parent = cantilever_branch(*system, 0.05, 1, 0.515, 0.546);
  REQUIRE(parent.ok());
  std::vector<double> doublings;
  for (const auto& s : parent.special_points)
    if (s.type == SpecialPointType::PeriodDoubling) doublings.push_back(s.lambda);
  REQUIRE(doublings.size() >= 2);
  const double low_birth = doublings.front(), high_birth = doublings.back();
  INFO("births " << low_birth << ", " << high_birth);
  CHECK(std::abs(low_birth - 0.5187834) < 1e-6);
  CHECK(std::abs(high_birth - 0.5437833) < 1e-6);

  system->set_parameter("omega", 0.53);
  libcont::OrbitSearchOptions two;
  two.period = 2;
  const libcont::OrbitSearchResult orbit = libcont::find_periodic_orbit(*system, two);
  REQUIRE(orbit.found());
  REQUIRE(orbit.period == 2);
  struct Case {
    double to, max_step, birth;
  };
  for (const Case c : {Case{0.56, 0.0, high_birth}, Case{0.56, 0.0025, high_birth},
                       Case{0.56, 0.005, high_birth}, Case{0.5, 0.0, low_birth}}) {
    INFO("to " << c.to << ", max step " << c.max_step);
    OrbitBranchOptions options("omega", 0.53, c.to);
    if (c.max_step > 0.0) options.max_step = c.max_step;
    const OrbitBranch doubled = libcont::trace_orbit_branch(*system, orbit, options);
    INFO("stop: " << doubled.stop_reason);
    REQUIRE(doubled.ok());
    CHECK(doubled.status == ContinuationStatus::LeftFamily);
    CHECK(doubled.stop_reason.find("on the orbit of period 1, at its period doubling") !=
          std::string::npos);
    REQUIRE_FALSE(doubled.special_points.empty());
    const libcont::SpecialPoint& end = doubled.special_points.back();
    CHECK(end.type == SpecialPointType::PeriodDoubling);
    CHECK(std::abs(end.lambda - c.birth) <= 1e-8);
    // No fold at the tip, and every row on the near side of it: the bubble is traced once.
    for (const auto& s : doubled.special_points)
      if (s.type == SpecialPointType::Fold) CHECK(std::abs(s.lambda - c.birth) > 1e-5);
    for (const auto& row : doubled.points)
      CHECK((row.lambda - c.birth) * (c.to - 0.53) <= 1e-12);
    CHECK(doubled.points.size() < 400);
  }
}

TEST_CASE("Workflow: a period-doubling curve along which omega cannot move has no turning points",
          "[continuation][workflow][curve]") {
  // The cantilever beam at d = 0 is piecewise linear with its stop at the equilibrium, so
  // its motions scale with the forcing amplitude e: the z = 4/1 orbit's period doubling lies
  // at one omega for every e (checked on a second branch at e = 0.07), and its curve in
  // (omega, e) is a vertical line. Along it the tangent's omega component is rounding noise;
  // its sign changes are no turning points (nine were labelled before).
  auto system = systems::make_system("cantilever-2dof");
  const auto doubling_at = [&](double e) {
    const OrbitBranch branch = cantilever_branch(*system, e, 1, 0.515, 0.522);
    REQUIRE(branch.ok());
    check_special_points(branch, {{SpecialPointType::PeriodDoubling, 0.5187834}}, 1e-6);
    return branch;
  };
  const OrbitBranch stronger = doubling_at(0.07);
  const OrbitBranch branch = doubling_at(0.05);
  const libcont::SpecialPoint& pd = branch.special_points.front();
  CHECK(std::abs(stronger.special_points.front().lambda - pd.lambda) < 1e-9);

  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      *system, branch, pd, libcont::OrbitCurveOptions("e", 0.05, 0.07, 0.5, 0.56));
  INFO("stop: " << curve.stop_reason);
  REQUIRE(curve.ok());
  CHECK(curve.status == ContinuationStatus::ReachedBound);
  REQUIRE(curve.rows.size() >= 10);
  for (const auto& row : curve.rows) CHECK(std::abs(row.first - pd.lambda) < 1e-9);
  CHECK(curve.points.empty());
  CHECK(curve.stop_reason.find("omega stays at") != std::string::npos);
  CHECK(curve.stop_reason.find("does not depend on e") != std::string::npos);
}

TEST_CASE("Workflow: a period-doubling curve whose grazing distance is stationary keeps to itself",
          "[continuation][workflow][curve][grazing]") {
  // The cantilever beam (set 1, e = 0.05): the z = 1/1 orbit doubles its period at
  // omega = 1.1804 and 1.2019 on d = 0, and the period-doubling curve from the second,
  // continued down in d, turns back and reaches d = 0 again at the first. On the way the
  // orbit's grazing distance has a minimum (about 0.25, no grazing near): a walk towards
  // the grazing there, in steps of that distance, ran 0.08 along omega onto another curve
  // (of the doubling at 1.1524) and ended there. The range of omega is that of the branch
  // `vicont continue --from 0.5 --to 1.5` gives, as `vicont curve` takes it.
  auto system = systems::make_system("cantilever-2dof");
  const OrbitBranch branch = cantilever_branch(*system, 0.05, 1, 1.17, 1.21);
  REQUIRE(branch.ok());
  check_special_points(branch, {{SpecialPointType::PeriodDoubling, 1.1804209},
                                {SpecialPointType::PeriodDoubling, 1.2018793}},
                       1e-6);
  const libcont::SpecialPoint& low = branch.special_points[0];
  const libcont::SpecialPoint& high = branch.special_points[1];

  const libcont::OrbitCurve curve = libcont::trace_orbit_curve(
      *system, branch, high, libcont::OrbitCurveOptions("d", 0.0, -0.01, 0.5, 1.5));
  INFO("stop: " << curve.stop_reason);
  REQUIRE(curve.ok());
  CHECK(curve.status == ContinuationStatus::ReachedBound);
  REQUIRE(curve.rows.size() >= 10);
  CHECK(curve.rows.back().second == 0.0);
  CHECK(std::abs(curve.rows.back().first - low.lambda) < 1e-8);
  double largest = 0.0;
  for (size_t k = 1; k < curve.rows.size(); ++k)
    largest = std::max(largest, std::abs(curve.rows[k].first - curve.rows[k - 1].first));
  CHECK(largest < 0.005);
}
