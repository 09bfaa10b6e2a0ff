// StroboscopicMap::image, the map's image without its measures, against the full map
// (iterate without the tangent): the same state to the bit, on the explicit pair (where
// its monitors are located only in a step that holds an event), on CVODE (where they are
// kept) and on the exact path (where the scan is kept and their roots are not located).
// On CVODE and on the exact path the monitors move the path: a map that dropped them
// there (on the exact path: a scan without them) would differ, which the checks below
// show, so that the comparison fails if the rule of FlowObserver::wants_monitor_roots
// were wrong there.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "libcont/input_error.hpp"
#include "libcont/poincare_map.hpp"
#include "systems/duffing.hpp"
#include "systems/moving_base.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::FlowOptions;
using libcont::IntegratorMethod;
using libcont::StroboscopicMap;
using libcont::Vector;
using namespace test_support;

namespace {

systems::TwoBodySystem hertz_system(double lambda) {
  systems::TwoBodySystem system;
  system.set_parameter_text("contact", "hertz");
  system.set_parameter("lambda", lambda);
  return system;
}

// Points on and near the settled motion at the section t = 0: the state after each of
// `count` periods from a settled one, each shifted at random by up to 1e-3 of its size.
std::vector<Vector> section_points(const libcont::HybridSystem& system,
                                   const FlowOptions& options, int count, unsigned seed) {
  libcont::FlowState state = settle(system, 0.0, system.default_initial_state(), 100, options);
  libcont::Flow flow(system, options);
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> shift(-1e-3, 1e-3);
  std::vector<Vector> points;
  for (int k = 1; k <= count; ++k) {
    REQUIRE(flow.advance(state, k * system.forcing_period() + 100 * system.forcing_period()).ok());
    Vector x = state.x;
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += shift(random) * state.x.norm();
    points.push_back(x);
  }
  return points;
}

// image(x, n) equals iterate(x, n, false) to the bit at every point, with its steps. Two
// maps, each called in the same sequence: the exact path's caches (expansions,
// decompositions) carry results from call to call at rounding level, so that a flow's
// result depends on the calls before it.
void check_images(const libcont::HybridSystem& system, const FlowOptions& options,
                  const std::vector<Vector>& points, int n) {
  StroboscopicMap full_map(system, options), image_map(system, options);
  for (const Vector& x : points) {
    const auto full = full_map.iterate(x, n, false);
    const auto image = image_map.image(x, n);
    REQUIRE(full.ok());
    REQUIRE(image.ok());
    REQUIRE(image.mode == full.mode);
    REQUIRE(image.report.steps == full.report.steps);
    for (Eigen::Index i = 0; i < x.size(); ++i) REQUIRE(image.x[i] == full.x[i]);
  }
}

// P^n(x) by a flow of its own with `options` and no observer (a first call, as of the
// fresh map it is compared with).
Vector bare_image(const libcont::HybridSystem& system, const FlowOptions& options,
                  const Vector& x, int n) {
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, x);
  REQUIRE(flow.advance(state, n * system.forcing_period()).ok());
  return state.x;
}

}  // namespace

TEST_CASE("the map's image equals the full map's on the explicit pair (two-body Hertz)",
          "[map_image]") {
  for (const double lambda : {0.3, 0.5670025, 0.6, 1.0, 2.0, 3.0}) {
    CAPTURE(lambda);
    auto system = hertz_system(lambda);
    check_images(system, {}, section_points(system, {}, 6, 11), 1);
    check_images(system, {}, section_points(system, {}, 2, 12), 3);
  }
}

TEST_CASE("the map's image equals the full map's with the explicit pair everywhere "
          "(two-body Hertz, free flights integrated too)",
          "[map_image]") {
  // The free flights on the pair as well: the gap minima and the extrema there share
  // steps with the contacts' starts, where the monitors must be located.
  // Long steps (a loose tolerance, no limit below the period) put monitors' roots and
  // events into the same steps.
  for (const double rtol : {1e-11, 1e-6}) {
    FlowOptions options;
    options.method = IntegratorMethod::RungeKutta;
    options.exact_linear_modes = false;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = 100.0 * rtol;
    options.max_step = rtol > 1e-8 ? 2.0 : 0.0;
    for (const double lambda : {0.3, 0.6, 1.0, 2.5}) {
      CAPTURE(rtol, lambda);
      auto system = hertz_system(lambda);
      check_images(system, options, section_points(system, options, 8, 21), 1);
    }
  }
}

TEST_CASE("the map's image equals the full map's on CVODE, whose steps the monitors move",
          "[map_image]") {
  // Two-body Hertz with Adams through the contacts, and Duffing (one smooth mode, Adams).
  FlowOptions adams;
  adams.method = IntegratorMethod::Adams;
  // The same maps with the monitors' root functions left out of CVODE.
  FlowOptions no_monitors = adams;
  no_monitors.gap_minima = false;
  no_monitors.extremum_coordinates.clear();
  int moved = 0;
  for (const double lambda : {0.6, 1.5}) {
    auto system = hertz_system(lambda);
    const auto points = section_points(system, adams, 4, 31);
    check_images(system, adams, points, 1);
    for (const Vector& x : points)
      moved += bare_image(system, no_monitors, x, 1) != StroboscopicMap(system, adams).image(x, 1).x;
  }
  systems::DuffingOscillator duffing;
  const auto points = section_points(duffing, adams, 4, 41);
  check_images(duffing, adams, points, 1);
  for (const Vector& x : points)
    moved += bare_image(duffing, no_monitors, x, 1) != StroboscopicMap(duffing, adams).image(x, 1).x;
  // Monitors dropped on CVODE would move the image: the comparisons above can fail.
  CHECK(moved > 0);
}

TEST_CASE("the map's image equals the full map's on the exact path (moving base, hard stop)",
          "[map_image]") {
  // Without an observer the exact path would cross event-free scan steps at once, which
  // moves its path at rounding level: the image must listen as the full map does.
  int moved = 0;
  for (const char* omega : {"2.6", "4.0", "7.1"}) {
    CAPTURE(omega);
    auto system = make_system<systems::MovingBaseOscillator>(
        {{"model", "hard"}, {"r", "0.8"}, {"omega", omega}});
    const auto points = section_points(system, {}, 6, 51);
    check_images(system, {}, points, 1);
    FlowOptions monitored;
    monitored.extremum_coordinates = system.displacement_coordinates();
    monitored.gap_minima = true;
    for (const Vector& x : points)
      moved += bare_image(system, monitored, x, 1) != StroboscopicMap(system).image(x, 1).x;
  }
  CHECK(moved > 0);
}

namespace {

// Hears the monitors' roots, or says it wants none; takes nothing else.
struct MonitorListener : libcont::FlowObserver {
  bool wanted = true;
  long roots = 0;
  void on_extremum(int, double, libcont::ConstVectorRef, int) override { ++roots; }
  void on_gap_minimum(int, double, double, libcont::ConstVectorRef, int) override { ++roots; }
  bool wants_monitor_roots() const override { return wanted; }
};

struct PathRun {
  Vector x;
  long steps = 0, events = 0;
  int mode = -1;
};

// `periods` periods from x by a flow of its own with `observer` (null: none).
PathRun run_path(const libcont::HybridSystem& system, const FlowOptions& options, const Vector& x,
                 int periods, libcont::FlowObserver* observer) {
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, x);
  const auto report = flow.advance(state, periods * system.forcing_period(), observer);
  REQUIRE(report.ok());
  return {state.x, report.steps, report.events, state.mode};
}

}  // namespace

TEST_CASE("the map's image equals the full map's on the exact path over many parameters "
          "(hard stop r = 0.8, r = 0.5 with sticking, soft contact)",
          "[map_image]") {
  // The two-body system's free flights on the exact path: the first test above.
  struct Case {
    const char* model;
    const char* r;
    const char* d;
    std::vector<const char*> omegas;
  };
  const std::vector<Case> cases = {
      {"hard", "0.8", "0.01", {"1.5", "2.0", "2.6", "3.3", "4.0", "5.5", "7.1", "9.0"}},
      {"hard", "0.5", "0", {"2.0", "3.0", "4.5", "6.0"}},
      {"soft", "0.8", "0.01", {"1.5", "2.6", "4.0", "7.1"}}};
  for (const Case& c : cases)
    for (const char* omega : c.omegas) {
      CAPTURE(c.model, c.r, c.d, omega);
      auto system = make_system<systems::MovingBaseOscillator>(
          {{"model", c.model}, {"r", c.r}, {"d", c.d}, {"omega", omega}});
      check_images(system, {}, section_points(system, {}, 4, 61), 1);
      check_images(system, {}, section_points(system, {}, 2, 62), 3);
    }
}

TEST_CASE("the exact path without the monitors' roots takes the scan of the path with them",
          "[map_image]") {
  // An observer that wants no roots: the same state, steps and events to the bit as one
  // that hears them all, over runs where roots are found; while no observer at all (the
  // scan crossing event-free steps at once) moves the state, so that a scan changed by
  // the missing monitors would show here.
  long roots = 0;
  int moved = 0;
  for (const char* model : {"hard", "soft"})
    for (const char* omega : {"2.0", "2.6", "4.0", "7.1"}) {
      CAPTURE(model, omega);
      auto system = make_system<systems::MovingBaseOscillator>(
          {{"model", model}, {"r", "0.8"}, {"omega", omega}});
      FlowOptions monitored;  // as the map's flow
      monitored.extremum_coordinates = system.displacement_coordinates();
      monitored.gap_minima = true;
      for (const Vector& x : section_points(system, {}, 3, 71)) {
        MonitorListener hearing, deaf;
        deaf.wanted = false;
        const PathRun with = run_path(system, monitored, x, 5, &hearing);
        const PathRun without = run_path(system, monitored, x, 5, &deaf);
        REQUIRE(deaf.roots == 0);
        roots += hearing.roots;
        REQUIRE(without.mode == with.mode);
        REQUIRE(without.steps == with.steps);
        REQUIRE(without.events == with.events);
        for (Eigen::Index i = 0; i < x.size(); ++i) REQUIRE(without.x[i] == with.x[i]);
        moved += run_path(system, monitored, x, 5, nullptr).x != with.x;
      }
    }
  CHECK(roots > 0);
  CHECK(moved > 0);
}

TEST_CASE("residual images at a looser tolerance: fewer steps, within it; none on the exact path",
          "[map_image]") {
  // Two-body Hertz: the contact is integrated. At 10 times the flow's relative tolerance
  // the residual image takes fewer steps (72 against 95) and stays within 1e-9 of the
  // image's size of the image (2.4e-10 measured: a fraction of the corrector's default
  // tolerance, 1e-9 (1 + |u|)).
  auto hertz = hertz_system(1.0);
  StroboscopicMap loose(hertz), exact(hertz);
  loose.set_residual_tolerance(10.0 * FlowOptions{}.relative_tolerance);
  CHECK_FALSE(loose.residual_is_image());
  for (const Vector& x : section_points(hertz, {}, 4, 21)) {
    const auto image = exact.image(x, 1);
    const auto residual = loose.residual_image(x, 1);
    REQUIRE(image.ok());
    REQUIRE(residual.ok());
    INFO("steps " << residual.report.steps << " against " << image.report.steps
                  << ", difference " << (residual.x - image.x).norm());
    CHECK(residual.report.steps < image.report.steps);
    CHECK((residual.x - image.x).norm() <= 1e-9 * image.x.norm());
    CHECK(residual.x != image.x);
  }
  // Back at the flow's own tolerance it is the image again.
  loose.set_residual_tolerance(FlowOptions{}.relative_tolerance);
  CHECK(loose.residual_is_image());
  CHECK_THROWS_AS(loose.set_residual_tolerance(0.0), libcont::InputError);

  // The hard moving base: every mode on the exact path, no tolerance to loosen; the
  // residual image is the image, to the bit.
  auto base = make_system<systems::MovingBaseOscillator>({{"model", "hard"}, {"omega", "4.0"}});
  StroboscopicMap on_exact_path(base), reference(base);
  on_exact_path.set_residual_tolerance(10.0 * FlowOptions{}.relative_tolerance);
  CHECK(on_exact_path.residual_is_image());
  for (const Vector& x : section_points(base, {}, 3, 22))
    CHECK(on_exact_path.residual_image(x, 1).x == reference.image(x, 1).x);
}
