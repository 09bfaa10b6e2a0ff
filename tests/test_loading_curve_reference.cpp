// The two-body Hertz loading curve, lambda 0.1 -> 3, as bench/bench_loading_curve.cpp
// traces it (library defaults, the bench's continuation settings), against the
// independent references of bench/loading_curve_reference.json: the grazing of the linear
// response in closed form, the folds and Neimark-Sacker points by scipy's variational
// shooting (bench/loading_curve_reference.py), A_max(x1) at lambda = 1, 2, 3. Every
// reference point must be found, within 1e-9 in lambda (the grazing 2e-9: the engine
// locates it 0.7e-9 past the closed form, inside its location tolerance of 2.9e-9 in
// arclength; doc/performance.md), with no other special point, and A_max to 8 digits.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "libcont/periodic_orbit_problem.hpp"
#include "libcont/pseudo_arclength.hpp"
#include "libcont/shooting.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

namespace {

struct Reference {
  double grazing = 0.0;
  std::vector<double> folds, neimark_sacker;
  std::map<int, double> amplitude;  // A_max(x1) at lambda = 1, 2, 3
};

// The few fields of the reference file (written by json.dump: one number per line in
// its lists).
Reference read_reference() {
  std::ifstream file(LIBCONT_BENCH_DIR "/loading_curve_reference.json");
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  const std::string s = text.str();
  const auto numbers = [&](const std::string& key) {
    const std::regex list("\"" + key + "\": \\[([^\\]]*)\\]");
    std::smatch m;
    std::vector<double> values;
    if (std::regex_search(s, m, list)) {
      std::stringstream items(m[1].str());
      std::string item;
      while (std::getline(items, item, ',')) values.push_back(std::stod(item));
    }
    return values;
  };
  Reference r;
  std::smatch m;
  REQUIRE(std::regex_search(s, m, std::regex("\"grazing\": ([-0-9.eE+]+)")));
  r.grazing = std::stod(m[1].str());
  r.folds = numbers("fold");
  r.neimark_sacker = numbers("neimark-sacker");
  for (const int lambda : {1, 2, 3})  // null where not computed: not checked
    if (std::regex_search(s, m, std::regex("\"" + std::to_string(lambda) + "\": ([-0-9.eE+]+)")))
      r.amplitude[lambda] = std::stod(m[1].str());
  return r;
}

systems::TwoBodySystem hertz_system(double lambda) {
  systems::TwoBodySystem system;
  system.set_parameter_text("contact", "hertz");
  system.set_parameter("lambda", lambda);
  return system;
}

// The orbit at lambda = 0.1 (no contact) from a transient, the loading curve's start.
libcont::Vector start_orbit(systems::TwoBodySystem& system) {
  const auto settled = test_support::settle(system, 0.0, system.default_initial_state(), 300);
  const auto start = libcont::Shooting(system, 1).solve(settled.x);
  REQUIRE(start.converged);
  return start.x;
}

// The continuation options of bench/bench_loading_curve.cpp: lambda 0.1 -> 3, steps and
// location on the range's scale as vicont continue's.
libcont::ContinuationOptions bench_options() {
  libcont::ContinuationOptions options;
  options.lambda_min = 0.1;
  options.lambda_max = 3.0;
  options.direction = 1;
  options.max_step = 0.145;
  options.initial_step = 0.029;
  options.min_step = 2.9e-8;
  options.locate_tolerance = 2.9e-9;
  return options;
}

}  // namespace

TEST_CASE("Two-body Hertz loading curve: special points and A_max against the independent "
          "references",
          "[continuation][two-body][reference]") {
  const Reference reference = read_reference();
  REQUIRE(reference.folds.size() == 2);
  REQUIRE(reference.neimark_sacker.size() == 2);

  auto system = hertz_system(0.1);
  const libcont::Vector start = start_orbit(system);
  libcont::PeriodicOrbitProblem problem(system, "lambda", 1);
  libcont::ContinuationOptions options = bench_options();
  options.user_values = {1.0, 2.0, 3.0};
  const auto branch = libcont::PseudoArclength(problem, options).run(start, 0.1);
  REQUIRE(branch.ok());
  // Next to the grazing, approached from the side without contact, the steps close in on
  // it by the gap's trend (TestFunction::Kind::Approach) instead of failing across it: 151
  // maps with the tangent, against 254 when 24 corrections failed there.
  INFO("maps with the tangent: " << problem.statistics().jacobian_maps);
  CHECK(problem.statistics().jacobian_maps <= 170);

  // Each reference point matched by a special point of its kind, none left over.
  std::vector<std::pair<libcont::SpecialPointType, double>> expected = {
      {libcont::SpecialPointType::Grazing, reference.grazing}};
  for (const double lambda : reference.folds)
    expected.emplace_back(libcont::SpecialPointType::Fold, lambda);
  for (const double lambda : reference.neimark_sacker)
    expected.emplace_back(libcont::SpecialPointType::NeimarkSacker, lambda);
  std::vector<bool> used(branch.special_points.size(), false);
  std::map<int, const libcont::SpecialPoint*> user_points;  // by lambda
  for (size_t i = 0; i < branch.special_points.size(); ++i) {
    const auto& s = branch.special_points[i];
    if (s.type != libcont::SpecialPointType::UserValue) continue;
    used[i] = true;
    CHECK(s.detail.empty());
    CHECK(s.lambda == std::round(s.lambda));  // exactly at the value
    CHECK(user_points.emplace(static_cast<int>(s.lambda), &s).second);  // each once
  }
  CHECK(user_points.size() == 3);
  for (const auto& [type, lambda] : expected) {
    const double tolerance = type == libcont::SpecialPointType::Grazing ? 2e-9 : 1e-9;
    double nearest = 1e300;
    for (size_t i = 0; i < branch.special_points.size(); ++i) {
      const auto& s = branch.special_points[i];
      if (s.type != type || used[i]) continue;
      nearest = std::min(nearest, std::abs(s.lambda - lambda));
      if (std::abs(s.lambda - lambda) <= tolerance) {
        used[i] = true;
        break;
      }
    }
    INFO("reference " << lambda << " (type " << static_cast<int>(type) << "): nearest found "
                      << nearest << " away");
    CHECK(nearest <= tolerance);
  }
  for (size_t i = 0; i < used.size(); ++i) {
    INFO("extra special point " << branch.special_points[i].type_name() << " at lambda = "
                                << branch.special_points[i].lambda);
    CHECK(used[i]);
  }

  // A_max(x1) at lambda = 1, 2, 3: the branch's user points, and by shooting from the
  // nearest branch point (a second method, independent of the continuation's corrector).
  const std::vector<std::string> data_names = problem.point_data_names();
  const auto a_max = std::find(data_names.begin(), data_names.end(), "A_max:x1");
  REQUIRE(a_max != data_names.end());
  const auto a_max_index = a_max - data_names.begin();
  for (const auto& [lambda, amplitude] : reference.amplitude) {
    const auto nearest = std::min_element(
        branch.points.begin(), branch.points.end(), [lambda = lambda](const auto& a, const auto& b) {
          return std::abs(a.lambda - lambda) < std::abs(b.lambda - lambda);
        });
    auto at = hertz_system(lambda);
    libcont::ShootingOptions shooting;
    shooting.relative_tolerance = options.corrector_tolerance;
    const auto orbit = libcont::Shooting(at, 1, shooting, nearest->chart).solve(nearest->u);
    REQUIRE(orbit.converged);
    libcont::StroboscopicMap map(at, libcont::FlowOptions{}, nearest->chart);
    const double value = map.iterate(orbit.x, 1, false).measures.semi_amplitude(0);
    REQUIRE(user_points.count(lambda));
    const double on_branch = user_points.at(lambda)->data[a_max_index];
    INFO(std::setprecision(12) << "A_max(x1) at lambda = " << lambda << ": " << value
                               << " by shooting, " << on_branch
                                  << " at the user point, reference " << amplitude);
    CHECK(std::abs(value - amplitude) <= 1e-8);
    CHECK(std::abs(on_branch - amplitude) <= 1e-8);
    CHECK(std::abs(on_branch - value) <= 1e-9);
  }
}

TEST_CASE("Two-body Hertz loading curve: residual maps at 10 times the flow's tolerance take "
          "fewer steps and find the same special points",
          "[continuation][two-body][reference]") {
  // PeriodicOrbitProblem::residual_tolerance_factor: the chord iterates' maps integrate at
  // 10 times the flow's relative tolerance (the default) or at it (1). The branch's
  // special points agree within 1e-9 and the run takes fewer integration steps.
  const auto trace = [](double factor) {
    auto system = hertz_system(0.1);
    const libcont::Vector start = start_orbit(system);
    libcont::PeriodicOrbitProblem problem(system, "lambda", 1);
    problem.residual_tolerance_factor = factor;
    const auto branch = libcont::PseudoArclength(problem, bench_options()).run(start, 0.1);
    REQUIRE(branch.ok());
    return std::pair{branch.special_points, problem.statistics().steps};
  };
  const auto [loose, loose_steps] = trace(10.0);
  const auto [tight, tight_steps] = trace(1.0);
  INFO("steps " << loose_steps << " against " << tight_steps);
  CHECK(loose_steps < 0.95 * tight_steps);
  REQUIRE(loose.size() == tight.size());
  for (size_t i = 0; i < loose.size(); ++i) {
    INFO(loose[i].type_name() << " at " << loose[i].lambda << " against " << tight[i].lambda);
    CHECK(loose[i].type == tight[i].type);
    CHECK(std::abs(loose[i].lambda - tight[i].lambda) <= 1e-9);
  }
}
