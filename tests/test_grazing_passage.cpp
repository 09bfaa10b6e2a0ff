// Branches of the moving-base impact oscillator (hard impacts) continued through grazing
// (doc/theory.md, section 7), against the closed form of impact_oscillator_closed_form.hpp:
// every branch row is an orbit of the exact map with the impact count it claims, no row
// jumps to another family, and every grazing, fold and period doubling of the closed form in
// the range is found, each within 1e-8 of its closed-form parameter value.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "impact_oscillator_closed_form.hpp"
#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"

using libcont::ContinuationResult;
using libcont::Vector;
using test_support::ImpactOscillatorClosedForm;
using test_support::ImpactOscillatorParameters;

namespace {

systems::MovingBaseOscillator model(const ImpactOscillatorParameters& p) {
  systems::MovingBaseOscillator system;
  for (const char* name : {"m", "k", "c", "a", "d", "r", "eta"}) system.set_parameter(name, p[name]);
  return system;
}

// The branch of the motion settled from rest at `from`, continued towards `to` as
// `vicont continue` does by default (range / 100 first step, / 20 largest, 1e-9 locating).
ContinuationResult trace(const ImpactOscillatorParameters& p, const std::string& parameter,
                         double from, double to, int n = 1, double locate = 1e-9) {
  systems::MovingBaseOscillator system = model(p.with(parameter, from));
  const double phase = 0.5 * system.forcing_period();
  libcont::StroboscopicMap map(system, {}, phase);
  Vector x = Vector::Zero(2);
  x[0] = p.d + 0.5 * std::abs(p.d);  // clear of the base
  for (int k = 0; k < 400; ++k) x = map.iterate(x, 1, false).x;
  const auto shot = libcont::Shooting(system, n, {}, phase).solve(x);
  REQUIRE(shot.converged);
  libcont::PeriodicOrbitProblem problem(system, parameter, n, {}, phase);
  libcont::ContinuationOptions options;
  const double span = std::abs(to - from);
  options.lambda_min = std::min(from, to);
  options.lambda_max = std::max(from, to);
  options.direction = to > from ? 1 : -1;
  options.initial_step = span / 100;
  options.max_step = span / 20;
  options.min_step = span * 1e-8;
  options.locate_tolerance = span * locate;
  options.boundary_tolerance = std::min(1e-10 * span, options.locate_tolerance);
  return libcont::PseudoArclength(problem, options).run(shot.x, from);
}

// Every row an orbit of the closed-form map with the impact count it records, and no jump:
// the count changes only across a recorded grazing.
void check_rows(const ImpactOscillatorParameters& p, const std::string& parameter,
                const ContinuationResult& branch, int n = 1) {
  const Eigen::Index impacts_column = 1;  // after A_max:x
  for (size_t i = 0; i < branch.points.size(); ++i) {
    const auto& row = branch.points[i];
    const ImpactOscillatorClosedForm exact(p.with(parameter, row.lambda));
    const auto image = exact.poincare_map(row.chart, {row.u[0], row.u[1]}, n);
    INFO("row " << i << " at " << parameter << " = " << row.lambda);
    REQUIRE(image.ok);
    // The corrector's own criterion, |F| <= 1e-9 (1 + |u|), held by the exact map too.
    CHECK(std::hypot(image.x[0] - row.u[0], image.x[1] - row.u[1]) <= 1.1e-9 * (1.0 + row.u.norm()));
    CHECK(image.impacts == std::lround(row.data[impacts_column]));
    if (i > 0 && branch.points[i - 1].data[impacts_column] != row.data[impacts_column]) {
      bool grazing_between = false;
      for (const auto& s : branch.special_points)
        grazing_between |= s.type == "grazing" && s.after_point == static_cast<int>(i) - 1;
      CHECK(grazing_between);
    }
  }
}

// The located special point of `type` nearest to `value`, its distance from it.
double located(const ContinuationResult& branch, const std::string& type, double value) {
  double best = 1e300;
  for (const auto& s : branch.special_points)
    if (s.type == type) best = std::min(best, std::abs(s.lambda - value));
  return best;
}

std::string listing(const ContinuationResult& branch) {
  std::string text = branch.stop_reason + "; special points:";
  for (const auto& s : branch.special_points)
    text += " " + s.type + (s.detail.empty() ? "" : "/" + s.detail) + "@" + std::to_string(s.lambda);
  return text;
}

// The closed form's admissible special points in the range, with the library's type names.
struct Expected {
  std::string type;
  double value;
};
std::vector<Expected> expected_points(const ImpactOscillatorParameters& p, const std::string& name,
                                      double from, double to) {
  std::vector<Expected> out;
  for (const auto& s : test_support::special_points(p, name, std::min(from, to), std::max(from, to), 1)) {
    if (!s.admissible) continue;
    if (s.type == "impact-grazing") continue;  // the same point as the non-impacting grazing
    out.push_back({s.type == "interior-grazing" ? "grazing" : s.type, s.value});
  }
  return out;
}

}  // namespace

TEST_CASE("grazing: the whole frequency-response curve through both grazings, d = -0.005",
          "[grazing]") {
  ImpactOscillatorParameters p;
  p.d = -0.005;
  const ContinuationResult branch = trace(p, "eta", 0.5, 2.5);
  INFO(listing(branch));
  REQUIRE(branch.ok);
  CHECK(branch.points.back().lambda == 2.5);
  // The closed form: grazing 0.8335639334664 (non-impacting side), period doubling
  // 0.9452849121490, fold 1.8480105971972, grazing 1.3852573174290 (impacting side).
  const auto expected = expected_points(p, "eta", 0.5, 2.5);
  REQUIRE(expected.size() == 4);
  CHECK(branch.special_points.size() == expected.size());
  for (const auto& e : expected) {
    INFO(e.type << " at " << e.value);
    CHECK(located(branch, e.type, e.value) <= 1e-8);
  }
  // The kinds: first reached from the non-impacting side, then from the impacting side.
  std::vector<std::string> kinds;
  for (const auto& s : branch.special_points)
    if (s.type == "grazing") kinds.push_back(s.detail);
  CHECK(kinds == std::vector<std::string>{"non-impacting-gap", "impact-velocity"});
  CHECK(branch.points.size() < 200);
  check_rows(p, "eta", branch);
}
