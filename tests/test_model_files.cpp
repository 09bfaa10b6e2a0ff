// Model files (doc/models/model-files.md): the shipped examples restate built-in models and
// must give the very same bits, run by run (simulate, Lyapunov spectrum, orbit, branch);
// the chain generator against the built-in chain; the forcing parameters' derivative
// against differences; the expressions; and every error names its item.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "libcont/hertz_friction_contact.hpp"
#include "libcont/impacting_structure.hpp"
#include "libcont/input_error.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "systems/catalogue.hpp"
#include "systems/model_file.hpp"
#include "test_support.hpp"

using libcont::HybridSystem;
using libcont::InputError;
using libcont::Vector;
using test_support::Recorder;
using test_support::Settings;

namespace {

std::unique_ptr<HybridSystem> example(const std::string& file) {
  return systems::model_from_file(std::string(LIBCONT_MODELS_DIR) + "/" + file);
}

void apply(HybridSystem& system, const Settings& settings) {
  std::vector<HybridSystem::ParameterAssignment> batch;
  for (const auto& [name, value] : settings) batch.push_back({name, value, ""});
  system.set_parameters(batch);
}

// A built-in model and its model file, each with its own settings (the same unless a
// built-in choice such as the cantilever's set has no counterpart in the file).
struct Twins {
  std::unique_ptr<HybridSystem> builtin, file;
};

Twins twins(const std::string& name, const std::string& file, const Settings& builtin_settings,
            const Settings& file_settings) {
  Twins t{systems::make_system(name), example(file)};
  apply(*t.builtin, builtin_settings);
  apply(*t.file, file_settings);
  return t;
}

// The same trajectory to the last bit: state, tangent, every event and its time.
void check_same_flow(const Twins& t, const Vector& x0, int periods) {
  REQUIRE(t.file->state_names() == t.builtin->state_names());
  REQUIRE(t.file->mode_count() == t.builtin->mode_count());
  for (int mode = 0; mode < t.builtin->mode_count(); ++mode)
    CHECK(t.file->mode_name(mode) == t.builtin->mode_name(mode));
  REQUIRE(t.file->forcing_period() == t.builtin->forcing_period());
  libcont::FlowOptions options;
  options.tangent = true;
  // An autonomous system: `periods` time units.
  const double period = t.builtin->forcing_period();
  const double end = periods * (period > 0.0 ? period : 1.0);
  const auto run = [&](const HybridSystem& system, Recorder& events) {
    libcont::Flow flow(system, options);
    libcont::FlowState state = flow.initial_state(0.0, x0);
    REQUIRE(flow.advance(state, end, &events).ok());
    return state;
  };
  Recorder builtin_events, file_events;
  const libcont::FlowState a = run(*t.builtin, builtin_events);
  const libcont::FlowState b = run(*t.file, file_events);
  CHECK(b.x == a.x);
  CHECK(b.tangent == a.tangent);
  CHECK(b.mode == a.mode);
  REQUIRE(file_events.events.size() == builtin_events.events.size());
  CHECK(!builtin_events.events.empty());
  for (size_t i = 0; i < builtin_events.events.size(); ++i) {
    CHECK(file_events.events[i].t == builtin_events.events[i].t);
    CHECK(file_events.events[i].kind == builtin_events.events[i].kind);
  }
}

void check_same_lyapunov(const Twins& t, const Vector& x0) {
  libcont::LyapunovOptions options;
  options.transient_periods = 100;
  options.periods = 100;
  const auto a = libcont::LyapunovSpectrum(*t.builtin, options).compute(0.0, x0);
  const auto b = libcont::LyapunovSpectrum(*t.file, options).compute(0.0, x0);
  REQUIRE(a.ok());
  CHECK(b.exponents == a.exponents);
  CHECK(b.p == a.p);
  CHECK(b.n == a.n);
  CHECK(b.energy_per_period == a.energy_per_period);
}

void check_same_orbit(const Twins& t) {
  const auto a = libcont::find_periodic_orbit(*t.builtin);
  const auto b = libcont::find_periodic_orbit(*t.file);
  REQUIRE(a.found());
  REQUIRE(b.found());
  CHECK(b.shooting.x == a.shooting.x);
  CHECK(b.shooting.monodromy == a.shooting.monodromy);
  CHECK(b.shooting.p == a.shooting.p);
  CHECK(b.period == a.period);
  CHECK(b.phase == a.phase);
}

// The branch from the orbit at `from`: every row and special point the same.
void check_same_branch(const Twins& t, const std::string& parameter, double from, double to,
                       int least_special_points) {
  t.builtin->set_parameter(parameter, from);
  t.file->set_parameter(parameter, from);
  const auto start_a = libcont::find_periodic_orbit(*t.builtin);
  const auto start_b = libcont::find_periodic_orbit(*t.file);
  REQUIRE(start_a.found());
  const libcont::OrbitBranch a = libcont::trace_orbit_branch(*t.builtin, start_a, {parameter, from, to});
  const libcont::OrbitBranch b = libcont::trace_orbit_branch(*t.file, start_b, {parameter, from, to});
  CHECK(b.status == a.status);
  REQUIRE(b.points.size() == a.points.size());
  for (size_t i = 0; i < a.points.size(); ++i) {
    CHECK(b.points[i].lambda == a.points[i].lambda);
    CHECK(b.points[i].u == a.points[i].u);
  }
  CHECK(static_cast<int>(a.special_points.size()) >= least_special_points);
  REQUIRE(b.special_points.size() == a.special_points.size());
  for (size_t i = 0; i < a.special_points.size(); ++i) {
    CHECK(b.special_points[i].type == a.special_points[i].type);
    CHECK(b.special_points[i].lambda == a.special_points[i].lambda);
    CHECK(b.special_points[i].u == a.special_points[i].u);
  }
}

// The same parameters at the defaults: names, rules, descriptions, values, what is a
// choice, optional or required.
void check_same_parameters(const std::string& name, const std::string& file) {
  const auto builtin = systems::make_system(name);
  const auto restated = example(file);
  const auto& a = builtin->parameters().all();
  const auto& b = restated->parameters().all();
  REQUIRE(b.size() == a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO(a[i].name);
    CHECK(b[i].name == a[i].name);
    CHECK(b[i].constraint == a[i].constraint);
    CHECK(b[i].description == a[i].description);
    CHECK(restated->parameters().value_text(b[i]) == builtin->parameters().value_text(a[i]));
    CHECK(b[i].choices == a[i].choices);
    CHECK(b[i].optional == a[i].optional);
    CHECK(b[i].required == a[i].required);
  }
}

// Throws InputError whose message contains every one of `parts`.
void check_refused(const std::string& text, const std::vector<std::string>& parts) {
  INFO(text);
  try {
    systems::model_from_json_text(text, "bad.json");
    FAIL("accepted");
  } catch (const InputError& error) {
    const std::string message = error.what();
    INFO(message);
    CHECK(message.rfind("bad.json: ", 0) == 0);
    for (const auto& part : parts) CHECK(message.find(part) != std::string::npos);
  }
}

// A one-dof model around `body` (the keys after "parameters").
std::string one_dof(const std::string& body) {
  return R"({"parameters": {"m": {"default": 1, "rule": "positive"}, "k": 2, "a": 0.1},
             )" + body + "}";
}

}  // namespace

TEST_CASE("Model files: moving-base as a model file is the built-in, to the bit",
          "[model-files]") {
  const std::vector<Settings> cases = {
      {},
      {{"omega", "2.6"}, {"r", "0.8"}, {"d", "0.001"}},
      {{"model", "soft"}, {"r", "0.7"}, {"omega", "3.1"}},
      {{"model", "soft"}, {"cs", "0.5"}, {"ks", "1e5"}, {"m", "1.3"}, {"c", "0.1"}},
      {{"model", "soft"}, {"relation", "approximate"}, {"r", "0.6"}, {"a", "0.004"}},
  };
  for (const auto& settings : cases) {
    const Twins t = twins("moving-base", "moving_base.json", settings, settings);
    std::string described;
    for (const auto& [name, value] : settings) described += name + "=" + value + " ";
    INFO("settings: " << described);
    check_same_flow(t, t.builtin->default_initial_state(), 30);
    check_same_lyapunov(t, t.builtin->default_initial_state());
    check_same_orbit(t);
  }
  check_same_parameters("moving-base", "moving_base.json");
}

TEST_CASE("Model files: the 2-dof cantilever as a model file is the built-in, to the bit",
          "[model-files]") {
  // Its set (a choice) picks m1, m2 and l2 unless they are given, as the built-in's does.
  const std::vector<Settings> cases = {
      {{"e", "0.05"}, {"omega", "1.2"}, {"r", "0.8"}},
      {{"e", "0.03"}, {"omega", "0.9"}, {"model", "soft"}, {"r", "0.7"}},
      {{"e", "0.04"}, {"nu", "0.1"}, {"d", "0.001"}, {"l", "1.2"}, {"E", "0.5"}},
      {{"set", "2"}, {"e", "0.05"}, {"omega", "1.1"}},
      {{"set", "2"}, {"m1", "0.5"}, {"e", "0.05"}, {"model", "soft"}},
  };
  for (const auto& settings : cases) {
    const Twins t = twins("cantilever-2dof", "cantilever.json", settings, settings);
    check_same_flow(t, Vector::Zero(4), 20);
    check_same_lyapunov(t, Vector::Zero(4));
    check_same_orbit(t);
    CHECK(t.file->displacement_coordinates() == t.builtin->displacement_coordinates());
  }
  check_same_parameters("cantilever-2dof", "cantilever.json");
}

TEST_CASE("Model files: branches and their special points are the built-in's",
          "[model-files][continuation]") {
  SECTION("moving-base, hard: the period-one branch in eta and its period doubling") {
    const Twins t = twins("moving-base", "moving_base.json", {}, {});
    check_same_branch(t, "omega", 4.0, 4.7, 1);
  }
  SECTION("moving-base, soft: in r") {
    const Settings soft = {{"model", "soft"}, {"omega", "4"}};
    const Twins t = twins("moving-base", "moving_base.json", soft, soft);
    check_same_branch(t, "r", 0.9, 0.7, 0);
  }
  SECTION("moving-base, soft: in eta, its period doubling") {
    const Settings soft = {{"model", "soft"}, {"r", "0.8"}};
    const Twins t = twins("moving-base", "moving_base.json", soft, soft);
    check_same_branch(t, "omega", 4.0, 4.9, 1);
  }
  SECTION("moving-base, hard: a grazing passed in d") {
    const Settings s = {{"omega", "2.8"}, {"r", "0.8"}};
    const Twins t = twins("moving-base", "moving_base.json", s, s);
    check_same_branch(t, "d", -0.002, 0.004, 1);
  }
  SECTION("cantilever, hard: in eta") {
    const Settings s = {{"e", "0.05"}, {"r", "0.8"}};
    const Twins t = twins("cantilever-2dof", "cantilever.json", s, s);
    check_same_branch(t, "omega", 1.2, 1.4, 0);
  }
}

TEST_CASE("Model files: the chain generator is the built-in chain", "[model-files]") {
  const std::string text = R"({
    "parameters": {"m": {"default": 1, "rule": "positive"}, "k": 1, "c": 0.05, "F0": 1,
                   "omega": 0.5, "d": 1, "r": {"default": 0.8, "rule": "unit-interval"}},
    "coordinates": ["x1", "x2", "x3"], "velocities": ["v1", "v2", "v3"],
    "chain": {"n": 3, "mass": "m", "stiffness": "k", "damping": "c", "ends": "fixed-free"},
    "forcing": {"frequency": "omega", "cos": {"x1": "F0"}},
    "contacts": [{"name": "stop", "normal": {"x3": -1}, "surface": "-d", "law": "hard",
                  "restitution": "r", "closed_name": "held"}]})";
  for (const Settings& settings : std::vector<Settings>{{}, {{"k", "1.7"}, {"F0", "1.4"}, {"d", "0.6"}}}) {
    Twins t{systems::make_system("chain"), systems::model_from_json_text(text, "chain.json")};
    t.builtin->set_parameter("N", 3);
    apply(*t.builtin, settings);
    apply(*t.file, settings);
    check_same_flow(t, Vector::Zero(6), 15);
  }
}

// The two-body system with its harmonic load, restated: two coordinates, a gap x2 - x1
// closed by a Hertz contact or a Newton impact, lambda a forcing parameter in both.
const char* two_body_text = R"({
  "parameters": {"m1": 1000, "m2": 100, "w1": 6.283, "w2": 4.727, "xi1": 0.036, "xi2": 0.2,
                 "D": 0.05, "F0": 400, "omega": 6, "lambda": 1, "K": 1e9,
                 "r": {"default": 1, "rule": "unit-interval"}},
  "derived": {"k1": "m1*w1*w1", "k2": "m2*w2*w2", "c1": "2*m1*xi1*w1", "c2": "2*m2*xi2*w2"},
  "coordinates": ["x1", "x2"], "velocities": ["v1", "v2"], "initial_state": {"x2": "D"},
  "mass": [["m1", 0], [0, "m2"]],
  "stiffness": [["k1 + k2", "-k2"], ["-k2", "k2"]],
  "damping": [["c1 + c2", "-c2"], ["-c2", "c2"]],
  "forcing": {"frequency": "omega", "constant": ["-k2*D", "k2*D"], "cos": ["lambda*F0", 0]},
  "contacts": [{"name": "bodies", "normal": [-1, 1], LAW}]})";

TEST_CASE("Model files: the two-body system, Hertz and Newton contacts, is the built-in",
          "[model-files]") {
  for (const std::string law : {R"("law": "hertz", "stiffness": "K")", R"("law": "hard", "restitution": "r")"}) {
    std::string text = two_body_text;
    text.replace(text.find("LAW"), 3, law);
    const bool hertz = law.find("hertz") != std::string::npos;
    Twins t{systems::make_system("two-body"), systems::model_from_json_text(text, "two_body.json")};
    t.builtin->set_parameter_text("contact", hertz ? "hertz" : "newton");
    const auto& declared = dynamic_cast<libcont::ImpactingStructure&>(*t.builtin).contacts().front();
    if (hertz) t.file->set_parameter("K", std::get<libcont::HertzContact>(declared.law).stiffness);
    const Settings settings = hertz ? Settings{{"lambda", "0.8"}} : Settings{{"r", "0.7"}, {"omega", "5.5"}};
    apply(*t.builtin, settings);
    apply(*t.file, settings);
    INFO(law);
    check_same_flow(t, t.builtin->default_initial_state(), 10);
    check_same_orbit(t);
    CHECK(libcont::derivative_parameter(*t.file, "lambda") >= 0);
    check_same_branch(t, "lambda", hertz ? 0.8 : 1.0, hertz ? 0.6 : 0.7, 0);
  }
}

TEST_CASE("Model files: a random load is the two-body system's", "[model-files]") {
  std::string text = two_body_text;
  text.replace(text.find("LAW"), 3, R"("law": "hertz", "stiffness": "K")");
  // The harmonic load replaced by the random one, lambda times F(t) on x1.
  const std::string harmonic = R"("frequency": "omega", "constant": ["-k2*D", "k2*D"], "cos": ["lambda*F0", 0])";
  text.replace(text.find(harmonic), harmonic.size(),
               R"("constant": ["-k2*D", "k2*D"], "random": {"on": {"x1": "lambda"}, "sigma": "sigma",
                  "theta": "theta", "alpha": "alpha", "components": "n", "step": "dw", "seed": "seed"})");
  text.replace(text.find(R"("K": 1e9,)"), 9,
               R"("K": 1e9, "sigma": 4242.642, "theta": 6, "alpha": 5, "n": 100, "dw": 0.2, "seed": 1,)");
  Twins t{systems::make_system("two-body"), systems::model_from_json_text(text, "random.json")};
  t.builtin->set_parameter_text("loading", "random");
  const auto& declared = dynamic_cast<libcont::ImpactingStructure&>(*t.builtin).contacts().front();
  t.file->set_parameter("K", std::get<libcont::HertzContact>(declared.law).stiffness);
  const Settings settings = {{"seed", "7"}, {"lambda", "1.2"}, {"n", "40"}};
  apply(*t.builtin, settings);
  apply(*t.file, settings);
  check_same_flow(t, t.builtin->default_initial_state(), 1);
  // lambda scales the load: its derivative is the load itself, as the built-in's.
  const auto* pa = t.builtin->parameter_derivatives();
  const auto* pb = t.file->parameter_derivatives();
  REQUIRE(pb != nullptr);
  const Vector x = (Vector(4) << 0.01, 0.06, 0.1, -0.2).finished();
  Vector fa(4), fb(4);
  pa->field_parameter_derivative(pa->derivative_parameter("lambda"), 0, 3.7, x, fa);
  pb->field_parameter_derivative(pb->derivative_parameter("lambda"), 0, 3.7, x, fb);
  CHECK(fb == fa);
  CHECK(fa.norm() > 0.0);
  check_refused(one_dof(R"("mass": "m", "forcing": {"frequency": 1, "random": {"on": [1]}})"),
                {"forcing.frequency: not with a random load"});
  check_refused(one_dof(R"("mass": "m", "forcing": {"random": {"on": [1], "seed": 1.5}})"),
                {"forcing.random.seed: must be a whole number"});
}

TEST_CASE("Model files: the rheological dampers as contacts are the built-in drop onto them",
          "[model-files]") {
  const std::string text = R"({
    "parameters": {"g": 9.81, "m": 100, "k1": 3924, "k2": 1962, "c": 251, "T0": 2000,
                   "x0": -3, "v0": 5},
    "mass": "m", "forcing": {"constant": ["m*g"]}, "initial_state": {"x": "x0", "v": "v0"},
    "contacts": [{"name": "bumper", "normal": [-1], "law": "rheological", "damper": "DAMPER",
                  "k1": "k1", "k2": "k2", "c": "c", "T0": "T0"}]})";
  for (const std::string damper : {"viscoelastic", "viscoplastic", "elastoplastic"}) {
    std::string described = text;
    described.replace(described.find("DAMPER"), 6, damper);
    Twins t{systems::make_system("rheological"), systems::model_from_json_text(described, "drop.json")};
    t.builtin->set_parameter_text("model", damper);
    INFO(damper);
    check_same_flow(t, t.builtin->default_initial_state(), 3);
    CHECK(t.file->default_initial_state() == t.builtin->default_initial_state());
  }
}

TEST_CASE("Model files: Hertz with positional friction as a contact: the built-in impact",
          "[model-files]") {
  auto builtin = systems::make_system("hertz-friction");
  const auto& law = dynamic_cast<libcont::ImpactingStructure&>(*builtin).contacts().front();
  const auto& contact = dynamic_cast<const libcont::HertzFrictionContact&>(*law.regimes());
  const std::string text = R"({"parameters": {"M": 1, "c": 1, "alpha": 1.5, "Kr": 0.5, "v0": 1},
    "mass": "M", "initial_state": {"v": "v0"},
    "contacts": [{"normal": [-1], "law": "hertz-friction", "stiffness": "c", "exponent": "alpha",
                  "restitution": "Kr"}]})";
  auto file = systems::model_from_json_text(text, "impact.json");
  apply(*file, {{"M", libcont::number_text(builtin->parameters()["M"])},
                {"c", libcont::number_text(contact.stiffness())},
                {"alpha", libcont::number_text(contact.exponent())},
                {"Kr", libcont::number_text(contact.restitution())},
                {"v0", libcont::number_text(builtin->parameters()["v0"])}});
  REQUIRE(file->default_initial_state() == builtin->default_initial_state());
  // The built-in run ends when the bodies separate; the file's goes on: the same up to then.
  const auto run = [](const HybridSystem& system, Recorder& events) {
    libcont::Flow flow(system);
    libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
    flow.advance(state, 1.0, &events);
    return state;
  };
  Recorder a, b;
  const auto end_a = run(*builtin, a);
  run(*file, b);
  REQUIRE(a.count(libcont::EventKind::ContactEnd) == 1);
  REQUIRE(b.events.size() >= a.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    CHECK(b.events[i].t == a.events[i].t);
    CHECK(b.events[i].kind == a.events[i].kind);
  }
  CHECK(b.events[a.events.size() - 1].x_plus == end_a.x);
}

TEST_CASE("Model files: the lumped beam generator: static deflections and first frequencies",
          "[model-files]") {
  const auto beam = [](const std::string& supports, int n) {
    return systems::model_from_json_text(
        R"({"parameters": {"L": 2, "EI": 3, "m": 5},
            "beam": {"n": )" + std::to_string(n) + R"(, "length": "L", "EI": "EI", "mass": "m",
                     "supports": ")" + supports + R"("}})",
        "beam.json");
  };
  const double L = 2, EI = 3, m = 5;
  const auto structure = [](const HybridSystem& s) {
    return dynamic_cast<const libcont::ImpactingStructure&>(s).structure();
  };
  // A unit force at the tip (cantilever) or the middle (pinned-pinned, n odd): the beam's
  // deflection there, L^3 / 3 EI and L^3 / 48 EI, whatever n.
  for (int n : {1, 4, 9}) {
    const auto k = structure(*beam("clamped-free", n)).stiffness;
    const Vector tip = k.llt().solve(Vector::Unit(n, n - 1));
    CHECK(tip[n - 1] == Approx(L * L * L / (3 * EI)).epsilon(1e-12));
  }
  for (int n : {1, 5, 9}) {
    const auto k = structure(*beam("pinned-pinned", n)).stiffness;
    const Vector middle = k.llt().solve(Vector::Unit(n, n / 2));
    CHECK(middle[n / 2] == Approx(L * L * L / (48 * EI)).epsilon(1e-12));
  }
  // Euler-Bernoulli: w1 = beta^2 sqrt(EI / (mu L^4)), mu = m / L; beta = 1.8751 (clamped-free)
  // and pi (pinned-pinned). The lumped masses come within 0.2 % at n = 40.
  const double scale = std::sqrt(EI / (m / L * L * L * L * L));
  const auto first = [&](const std::string& supports) {
    return dynamic_cast<const libcont::ImpactingStructure&>(*beam(supports, 40)).natural_frequencies()[0];
  };
  CHECK(first("clamped-free") == Approx(1.87510407 * 1.87510407 * scale).epsilon(2e-3));
  CHECK(first("pinned-pinned") == Approx(std::numbers::pi * std::numbers::pi * scale).epsilon(2e-3));
  check_refused(R"({"beam": {"n": 3, "length": 1, "EI": 1, "mass": 1}, "mass": 1})", {"mass: given with a beam"});
  check_refused(R"({"beam": {"n": 3, "length": 1, "EI": -1, "mass": 1}})", {"beam.EI: must be > 0"});
  check_refused(R"({"beam": {"n": 3, "length": 1, "EI": 1, "mass": 1, "supports": "pinned"}})",
                {"beam.supports: unknown supports 'pinned'"});
}

TEST_CASE("Model files: linear modes run on the exact flow", "[model-files]") {
  // Every mode of the examples is affine (Newton and Kelvin-Voigt contacts), as the
  // built-in models' are: the flow takes the matrix exponential between events.
  for (const char* file : {"moving_base.json", "cantilever.json", "three_mass_chain.json"}) {
    auto system = example(file);
    if (system->parameters().contains("model")) apply(*system, {{"model", "soft"}});
    const auto* affine = system->affine_modes();
    REQUIRE(affine != nullptr);
    for (int mode = 0; mode < system->mode_count(); ++mode) {
      libcont::AffineMode data;
      const int n = system->dimension();
      data.A = libcont::Matrix::Zero(n, n);
      data.b0 = data.b_cos = data.b_sin = Vector::Zero(n);
      INFO(file << " mode " << system->mode_name(mode));
      CHECK(affine->affine_mode(mode, data));
    }
  }
}

TEST_CASE("Model files: a parameter only the forcing reads is a forcing parameter",
          "[model-files]") {
  const auto chain = example("three_mass_chain.json");
  const auto* derivatives = chain->parameter_derivatives();
  REQUIRE(derivatives != nullptr);
  CHECK(derivatives->derivative_parameter("F0") >= 0);
  CHECK(derivatives->derivative_parameter("k") < 0);      // in the stiffness
  CHECK(derivatives->derivative_parameter("omega") < 0);  // the frequency
  CHECK(systems::model_from_file(std::string(LIBCONT_MODELS_DIR) + "/moving_base.json")
            ->parameter_derivatives() == nullptr);  // k and a are read elsewhere too

  // A nonlinear forcing expression, through a derived value: dF/dp against differences.
  auto system = systems::model_from_json_text(R"j({
    "parameters": {"A": 0.7, "m": 2},
    "derived": {"B": "A^2*sin(A)"},
    "mass": [["m", 0], [0, 1]], "stiffness": [[2, -1], [-1, 2]],
    "forcing": {"frequency": 1.3, "cos": ["B", "exp(A)/2"], "sin": [0, "sqrt(A)"], "constant": ["-A", 0]},
    "contacts": [{"normal": [1, -1], "surface": 0.2, "law": "hard", "restitution": 0.5}]})j",
                                              "forced.json");
  const auto* d = system->parameter_derivatives();
  REQUIRE(d != nullptr);
  const int p = d->derivative_parameter("A");
  REQUIRE(p >= 0);
  const Vector x = (Vector(4) << 0.3, -0.1, 0.2, 0.05).finished();
  const double t = 0.4, h = 1e-6;
  Vector analytic(4), up(4), down(4);
  d->field_parameter_derivative(p, 0, t, x, analytic);
  system->set_parameter("A", 0.7 + h);
  system->vector_field(0, t, x, up);
  system->set_parameter("A", 0.7 - h);
  system->vector_field(0, t, x, down);
  const Vector differences = (up - down) / (2 * h);
  CHECK((analytic - differences).norm() <= 1e-8 * (1.0 + differences.norm()));
  CHECK(analytic.norm() > 0.1);
}

TEST_CASE("Model files: expressions", "[model-files]") {
  const auto value = [](const std::string& expression) {
    auto system = systems::model_from_json_text(
        R"({"parameters": {"T": 2, "k": 9, "m": 4, "d": 0.5},
            "mass": 1, "forcing": {"constant": [")" + expression + R"("]}})",
        "expr.json");
    return dynamic_cast<libcont::ImpactingStructure&>(*system).structure().constant_force[0];
  };
  CHECK(value("2*pi/T") == 2 * std::numbers::pi / 2);
  CHECK(value("-d") == -0.5);
  CHECK(value("sqrt(k/m)") == 1.5);
  CHECK(value("1 + 2*3") == 7);
  CHECK(value("2^3^2") == 512);  // right-associative
  CHECK(value("-2^2") == -4);    // the power binds first
  CHECK(value("(1+2)*-3") == -9);
  CHECK(value("abs(-k) - exp(0) + cos(0) * sin(0)") == 8);
  CHECK(value(" 1.5e1 / ( m - 1 ) ") == 5);
  CHECK(value("choose(1, 5, 6, k)") == 6);
  CHECK(value("choose(T, 5, 6, k)") == 9);  // T = 2
  CHECK(std::isnan(value("choose(3, 5, 6)")));
  CHECK(std::isnan(value("choose(0.5, 5, 6)")));
}

TEST_CASE("Model files: every error names the file, the item and what was expected",
          "[model-files][errors]") {
  check_refused("{", {"not valid JSON"});
  check_refused("[1]", {"expected a JSON object"});
  check_refused(R"({"name": "two\nlines", "mass": 1})", {"name: expected one line of text"});
  check_refused(R"({"mass": 1e400})", {"not valid JSON", "number overflow"});
  check_refused(one_dof(R"("mass": "m", "stifness": "k")"), {"stifness: unknown key", "stiffness"});
  check_refused(one_dof(R"("stiffness": "k")"), {"no 'mass'"});
  check_refused(one_dof(R"("mass": "m", "forcing": {"frequency": 1, "sin": ["k*"]})"),
                {"forcing.sin[0]: expected a number, a name or '(' at position 3 in \"k*\""});
  check_refused(one_dof(R"("mass": "m", "forcing": {"frequency": 1, "sin": ["kk*a"]})"),
                {"forcing.sin[0]: unknown parameter 'kk' at position 1"});
  check_refused(one_dof(R"j("mass": "sqr(k)")j"), {"mass: unknown function 'sqr'"});
  check_refused(one_dof(R"("mass": "(k")"), {"mass: expected ')'"});
  check_refused(one_dof(R"("mass": "k k")"), {"mass: unexpected 'k' at position 3"});
  check_refused(one_dof(R"("mass": true)"), {"mass: expected a number or an expression"});
  check_refused(one_dof(R"("mass": ")" + std::string(300, '(') + "1" + std::string(300, ')') + R"(")"),
                {"mass: nested more than 200 levels deep"});
  check_refused(one_dof(R"("mass": ")" + std::string(20000, '1') + R"(")"), {"mass: expression longer than 10000"});
  check_refused(one_dof(R"("mass": "m", "stiffness": [[1, 0], [0, 1]])"),
                {"stiffness: is 2 x 2, expected 1 x 1"});
  check_refused(one_dof(R"("mass": [[1, 0], [0]])"), {"mass[1]: has 1 entries", "square"});
  check_refused(one_dof(R"("mass": [[1, "a"], [0, 1]])"), {"mass: the mass matrix is not symmetric"});
  check_refused(one_dof(R"("mass": [[1, 2], [2, 1]])"), {"mass: the mass matrix is not positive definite"});
  check_refused(one_dof(R"("mass": "m", "forcing": {"sin": [1]})"), {"forcing: harmonic forces need a 'frequency'"});
  check_refused(one_dof(R"("mass": "m", "forcing": {"frequency": 1, "cos": [1, 2]})"),
                {"forcing.cos: expected 1 entries"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "hard", "restitution": 1},
                                                       {"normal": [1], "law": "sof"}])"),
                {"contacts[1].law: unknown law 'sof'; expected hard, soft, hertz, impact-model, hertz-friction or rheological"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "hard", "restitutoin": 1}])"),
                {"contacts[0].restitutoin: unknown key for a hard contact"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "hard"}])"),
                {"contacts[0]: a hard contact needs 'restitution'"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "hard", "restitution": "1+a"}])"),
                {"contacts[0] ('contact1')", "restitution coefficient r must lie in [0, 1]"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "soft", "stiffness": "-k"}])"),
                {"contacts[0] ('contact1').stiffness: must be > 0"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": [1], "law": "impact-model", "mass": "m"}])"),
                {"contacts[0].law: impact-model needs a top-level 'impact_model'"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"normal": {"y": 1}, "law": "hard", "restitution": 1}])"),
                {"contacts[0].normal.y: no coordinate 'y'"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"law": "hard", "restitution": 1}])"), {"contacts[0]: no 'normal'"});
  check_refused(one_dof(R"("mass": "m", "contacts": [{"name": "a,b", "normal": [1], "law": "hard", "restitution": 1}])"),
                {"contacts[0].name: 'a,b' is not a name"});
  check_refused(R"({"parameters": {"m": {"default": 1, "rule": "positve"}}, "mass": "m"})",
                {"parameters.m.rule: unknown rule 'positve'"});
  check_refused(R"({"parameters": {"pi": 3}, "mass": 1})", {"parameters.pi: 'pi' is reserved"});
  check_refused(one_dof(R"j("mass": "choose(1)")j"), {"mass: expected ',' and the alternatives"});
  check_refused(R"({"parameters": {"s": {"choices": ["a", "b"], "default": "c"}}, "mass": 1})",
                {"parameters.s.default: 'c' is not one of the choices"});
  check_refused(R"({"parameters": {"s": {"choices": ["a", "b"], "rule": "positive"}}, "mass": 1})",
                {"parameters.s.rule: not for a choice"});
  check_refused(R"({"parameters": {"m": {"otherwise": "k", "default": 1}, "k": 1}, "mass": 1})",
                {"parameters.m: a parameter derived 'otherwise' has no default"});
  check_refused(R"({"parameters": {"m": {"otherwise": "2*k"}, "k": 1}, "mass": 1})",
                {"parameters.m.otherwise: unknown parameter 'k'"});
  check_refused(R"({"mass": [[1, 0], [0, 1]], "coordinates": ["x1", "x 2"]})", {"coordinates[1]: 'x 2' is not a name"});
  check_refused(R"({"mass": 1, "coordinates": ["x"], "velocities": ["x"]})", {"velocities[0]: 'x' is named twice"});
  check_refused(R"({"impact_model": {"restitution": 1.5}, "mass": 1})", {"impact_model: parameter 'r'"});
  check_refused(R"({"parameters": {"m": {"default": -1, "rule": "positive"}}, "mass": 1})",
                {"parameters.m.default: parameter 'm' must be positive (got -1)"});
  check_refused(R"({"parameters": {"m": 1}, "derived": {"m": 2}, "mass": 1})", {"derived.m: 'm' is declared twice"});
  check_refused(R"({"parameters": {"r": 1}, "impact_model": {}, "mass": 1})",
                {"parameters.r: 'r' is also a parameter of impact_model"});
  check_refused(R"({"chain": {"n": 0, "mass": 1, "stiffness": 1}})", {"chain.n: expected a whole number of masses"});
  check_refused(R"({"chain": {"n": 2, "mass": 1, "stiffness": 1, "ends": "fixed"}})", {"chain.ends: unknown ends 'fixed'"});
  CHECK_THROWS_WITH(systems::model_from_file("no/such/model.json"),
                    Catch::Contains("no/such/model.json: cannot read the model file"));
}

TEST_CASE("Model files: a parameter change the structure refuses is named and undone",
          "[model-files][errors]") {
  auto system = systems::model_from_json_text(
      R"({"parameters": {"m": 1, "k": 1}, "mass": "m", "stiffness": "k",
          "contacts": [{"normal": [1], "surface": -1, "law": "hard", "restitution": 0.5}]})",
      "any.json");
  CHECK_THROWS_WITH(system->set_parameter("m", -1.0), Catch::Contains("not positive definite"));
  CHECK(system->parameters()["m"] == 1.0);
  CHECK(system->name() == "any");  // from the source's name without a "name" key
  // A condition between parameters, as the built-in cantilever's l2 < l: the message, and
  // the value kept.
  auto beam = example("cantilever.json");
  CHECK_THROWS_WITH(beam->set_parameter("l2", 1.5),
                    Catch::Contains("conditions[0]: l2 must be shorter than the beam length l (l - l2 = -0.5)"));
  CHECK_FALSE(beam->parameters().given("l2"));  // still derived from the set
  CHECK_THROWS_AS(systems::make_system("cantilever-2dof")->set_parameter("l2", 1.5), InputError);
  CHECK_NOTHROW(apply(*beam, {{"l", "2"}, {"l2", "1.5"}}));  // judged on the final set
  auto required = example("cantilever.json");
  CHECK_THROWS_WITH(libcont::Flow(*required), Catch::Contains("'e'"));
}

