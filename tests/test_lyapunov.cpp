// Lyapunov spectrum of the moving-base oscillator by Mueller's method (doc/theory.md, 5) and its
// cross-check against Floquet multipliers (doc/theory.md, 6; doc/reproduction.md).
//
// Exact facts used (r = 1, hard or soft with c_s = 0): every saltation matrix has det 1
// and the field has divergence -c/m in every mode, so the phase volume contracts at the
// rate -c/m exactly: the exponent sum is -c/m = -0.23, and the Floquet multipliers of a
// z = p/n orbit multiply to exp(-c/m n T).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "libcont/flow.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "systems/catalogue.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::LyapunovOptions;
using libcont::LyapunovResult;
using libcont::LyapunovSpectrum;
using libcont::Matrix;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

constexpr double c_over_m = 0.23;

LyapunovResult lyapunov(const MovingBaseOscillator& system, int transient, int periods) {
  LyapunovOptions options;
  options.transient_periods = transient;
  options.periods = periods;
  return LyapunovSpectrum(system, options).compute(0.0, vec2(0.0, 0.0));
}

// The long (5000-period) Benettin run at eta = 4, r = 1, computed once per model and shared
// by the two tests that need it.
const LyapunovResult& z_half_benettin(const std::string& model) {
  static std::map<std::string, LyapunovResult> cache;
  auto it = cache.find(model);
  if (it == cache.end()) {
    const auto system = make_system<MovingBaseOscillator>(
        {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", "4"}});
    it = cache.emplace(model, lyapunov(system, 200, 5000)).first;
  }
  return it->second;
}

}  // namespace

TEST_CASE("Lyapunov exponent sum equals -c/m (r = 1, hard and soft)", "[lyapunov]") {
  // 200 transient + 1000 averaged periods at the default FlowOptions, whose documented
  // promise is an exponent sum within 1e-9 of the exact contraction rate. eta = 4 is the
  // z = 1/2 window, eta = 7.1 a chaotic one (positive largest exponent).
  for (const char* model : {"hard", "soft"}) {
    for (const char* eta : {"4", "7.1"}) {
      INFO("model " << model << ", eta = " << eta);
      const auto system = make_system<MovingBaseOscillator>(
          {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", eta}});
      const LyapunovResult result = lyapunov(system, 200, 1000);
      REQUIRE(result.ok());
      REQUIRE(result.exponents.size() == 2);
      INFO("exponents " << result.exponents.transpose() << ", sum + c/m = "
                        << result.exponent_sum + c_over_m);
      CHECK(std::abs(result.exponent_sum + c_over_m) <= 1e-9);
      CHECK(result.exponents.sum() == Approx(result.exponent_sum).epsilon(1e-12));
      CHECK(result.exponents[0] >= result.exponents[1]);
      CHECK(result.impacts_per_period > 0.0);
      // r = 1 with c_s = 0: impacts conserve kinetic energy relative to the base, but the
      // base moves, so a_e need not vanish; it must be finite.
      CHECK(std::isfinite(result.energy_per_period));
    }
  }
}

TEST_CASE("A batch whose stretches pass 2^-500 keeps its exponents", "[lyapunov]") {
  // The stretches of a batch are multiplied into a mantissa kept within 2^+-500 by a
  // power of two (lyapunov_spectrum.cpp). The non-impacting oscillator (base 1 away, c =
  // 0.23) has both exponents -c/(2m): over a batch of 2500 periods at omega = 4 (3927
  // time units) each column's product comes to e^-452, about 2^-651, passing 2^-500 after
  // some 1900 periods. The sum -c/m holds to rounding (a lost power of two would put it
  // off by 1.8e-4 per 2^1 over a batch).
  const auto system = make_system<MovingBaseOscillator>({{"d", "-1"}, {"omega", "4"}});
  LyapunovOptions options;
  options.transient_periods = 0;
  options.periods = 5000;
  options.batches = 2;
  const LyapunovResult result = LyapunovSpectrum(system, options).compute(0.0, Vector::Zero(2));
  REQUIRE(result.ok());
  CHECK(result.impacts.impacts == 0);
  CHECK(std::abs(result.exponent_sum + c_over_m) <= 1e-12);
  CHECK(result.exponents[0] == Approx(-c_over_m / 2).margin(1e-3));
  CHECK(result.exponents[1] == Approx(-c_over_m / 2).margin(1e-3));
  CHECK(result.batches == 2);
  CHECK(std::abs(result.exponent_sum_error) <= 1e-12);
}

TEST_CASE("z = 1/2 orbit at eta = 4: exponents -0.115 over 5000 periods", "[lyapunov]") {
  // Reference: both exponents -c/(2m) = -0.115 within 1e-3 from Benettin over >= 5000
  // periods (the average converges like 1/t; the source's split pairs are short averages).
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const LyapunovResult& result = z_half_benettin(model);
    REQUIRE(result.ok());
    INFO("exponents " << result.exponents.transpose());
    CHECK(std::abs(result.exponents[0] + 0.115) <= 1e-3);
    CHECK(std::abs(result.exponents[1] + 0.115) <= 1e-3);
    CHECK(result.p == 1);
    CHECK(result.n == 2);
    // One impact (or contact) every two periods.
    CHECK(result.impacts_per_period == Approx(0.5).epsilon(1e-3));
  }
}

TEST_CASE("Floquet cross-check of the z = 1/2 orbit at eta = 4", "[lyapunov]") {
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const auto system = make_system<MovingBaseOscillator>(
        {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", "4"}});
    const double period = system.forcing_period();
    const LyapunovResult& benettin = z_half_benettin(model);
    REQUIRE(benettin.ok());
    REQUIRE(benettin.n == 2);

    // The settled orbit at the Poincare section t0 = 0 (the forcing is T-periodic; the
    // Benettin run ended on a section). That run ended at t ~ 8000, where CVODE locates
    // impacts only to ~100 eps t ~ 2e-10 s, so its last state is off the orbit by ~1e-12
    // m; 40 more maps P^2 from t0 = 0 (each contracting by exp(-0.23 T) = 0.70) settle it
    // to the integration error of the map at the default tolerances (rtol 1e-11, atol
    // 1e-13), measured 9e-12 m (hard) and 5e-11 m (soft, BDF in the contact): 1e-7 a.
    Vector x = benettin.final_state.x;
    for (int i = 0; i < 40; ++i) x = flow_map(system, FlowOptions{}, 0.0, x, 2 * period, false).x;
    const MapResult orbit = flow_map(system, FlowOptions{}, 0.0, x, 2 * period, true);
    REQUIRE(orbit.report.ok());
    INFO("|P^2(x) - x| = " << (orbit.x - x).norm());
    CHECK((orbit.x - x).norm() <= 1e-7 * 0.0025);
    CHECK(orbit.events.events.size() >= 1);

    const Eigen::EigenSolver<Matrix> solver(orbit.jacobian);
    const auto multipliers = solver.eigenvalues();
    Vector floquet_exponents(2);
    for (int i = 0; i < 2; ++i)
      floquet_exponents[i] = std::log(std::abs(multipliers[i])) / (2 * period);
    std::sort(floquet_exponents.begin(), floquet_exponents.end(), std::greater<double>());
    INFO("multipliers " << multipliers.transpose() << ", Floquet exponents "
                        << floquet_exponents.transpose() << ", Benettin "
                        << benettin.exponents.transpose());
    // Stable orbit: both multipliers inside the unit circle.
    CHECK(std::abs(multipliers[0]) < 1.0);
    CHECK(std::abs(multipliers[1]) < 1.0);
    // The two independent computations agree (Benettin converges like 1/t: 1e-3).
    CHECK(std::abs(floquet_exponents[0] - benettin.exponents[0]) <= 1e-3);
    CHECK(std::abs(floquet_exponents[1] - benettin.exponents[1]) <= 1e-3);
    // Product of the multipliers = exp(-c/m * 2T): Liouville plus det S = 1 at every event.
    const std::complex<double> product = multipliers[0] * multipliers[1];
    const double expected = std::exp(-c_over_m * 2 * period);
    CHECK(std::abs(product - expected) <= 1e-8 * expected);
    CHECK(std::abs(orbit.jacobian.determinant() - expected) <= 1e-8 * expected);
    // A complex pair has equal moduli: then both exponents are -c/(2m) (reference: 1e-9
    // from Floquet).
    if (std::abs(multipliers[0].imag()) > 0.0) {
      CHECK(std::abs(floquet_exponents[0] + c_over_m / 2) <= 1e-9);
      CHECK(std::abs(floquet_exponents[1] + c_over_m / 2) <= 1e-9);
    }
  }
}

TEST_CASE("With d = 0 the motion scales with the base amplitude a", "[lyapunov]") {
  // x -> lambda x, a -> lambda a maps solutions to solutions (the gap and every force are
  // linear in both), so z and the exponents do not depend on a and x_r is proportional
  // to a. Tolerances: the integrator's absolute tolerances do
  // not scale with a, so the two runs differ at the integration-error level.
  const auto small = make_system<MovingBaseOscillator>({{"a", "0.0025"}, {"omega", "4"}});
  const auto large = make_system<MovingBaseOscillator>({{"a", "0.01"}, {"omega", "4"}});
  const LyapunovResult r_small = lyapunov(small, 200, 200);
  const LyapunovResult r_large = lyapunov(large, 200, 200);
  REQUIRE(r_small.ok());
  REQUIRE(r_large.ok());
  CHECK(r_small.n == r_large.n);
  CHECK(r_small.p == r_large.p);
  CHECK((r_small.exponents - r_large.exponents).norm() <= 1e-6);
  REQUIRE(r_small.poincare_samples.cols() == r_large.poincare_samples.cols());
  const Vector last_small = r_small.poincare_samples.rightCols(1);
  const Vector last_large = r_large.poincare_samples.rightCols(1);
  CHECK((last_large - 4.0 * last_small).norm() <= 1e-6 * last_large.norm());
}

namespace {

// x' = -L (x - cos t) with L = 1e17: a relaxation so stiff that the explicit pair's stable
// step (about 3/L) lies below the 16 ulps of t it will take. Its solution follows cos t
// to within sin(t) / L.
class StiffRelaxation : public libcont::HybridSystem {
 public:
  static constexpr double rate = 1e17;
  std::string name() const override { return "stiff relaxation"; }
  std::vector<std::string> state_names() const override { return {"x"}; }
  double forcing_period() const override { return 2.0 * std::acos(-1.0); }
  void vector_field(int, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override {
    dxdt[0] = -rate * (x[0] - std::cos(t));
  }
};

}  // namespace

TEST_CASE("A failed step of the explicit pair is taken over by BDF: the run goes on",
          "[lyapunov][flow]") {
  StiffRelaxation system;
  libcont::FlowOptions options;
  options.method = libcont::IntegratorMethod::RungeKutta;
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, Vector::Constant(1, 1.0));
  const libcont::FlowReport report = flow.advance(state, 10.0);
  INFO(report.message);
  REQUIRE(report.ok());
  CHECK(report.fallbacks >= 1);
  CHECK(report.first_fallback_time >= 0.0);
  CHECK(report.first_fallback_time < 10.0);
  CHECK(std::abs(state.x[0] - std::cos(10.0)) <= 1e-9);
  options.method = libcont::IntegratorMethod::BDF;
  libcont::Flow stiff(system, options);
  libcont::FlowState on_bdf = stiff.initial_state(0.0, Vector::Constant(1, 1.0));
  const libcont::FlowReport bdf = stiff.advance(on_bdf, 10.0);
  REQUIRE(bdf.ok());
  CHECK(bdf.fallbacks == 0);
}

TEST_CASE("The explicit pair takes the Hertz contact's onset late in a long run",
          "[lyapunov][flow]") {
  // The two-body system with Hertz contact, as `vicont lyapunov --system two-body --set
  // contact=hertz --periods 2000`: from t = 2671.26 on, every contact's onset asked the
  // explicit pair for a step below 16 ulps of the absolute time, and each one fell back on
  // BDF (92,101 times in 10^5 periods). The pair counts time from the mode's start now;
  // its exponents are those of a run on BDF throughout.
  auto system = systems::make_system("two-body");
  system->set_parameter_text("contact", "hertz");
  LyapunovOptions options;
  options.periods = 2000;
  const Vector start = system->default_initial_state();
  const LyapunovResult automatic = LyapunovSpectrum(*system, options).compute(0.0, start);
  INFO(automatic.report.message);
  REQUIRE(automatic.ok());
  CHECK(automatic.report.fallbacks == 0);
  options.flow.method = libcont::IntegratorMethod::BDF;
  const LyapunovResult stiff = LyapunovSpectrum(*system, options).compute(0.0, start);
  REQUIRE(stiff.ok());
  for (Eigen::Index i = 0; i < stiff.exponents.size(); ++i)
    CHECK(std::abs(automatic.exponents[i] - stiff.exponents[i]) <= 1e-6 * std::abs(stiff.exponents[i]));
}

TEST_CASE("Lyapunov progress counts every period and leaves the result as it is",
          "[lyapunov]") {
  const auto system = make_system<MovingBaseOscillator>({{"omega", "7.1"}});
  LyapunovOptions options;
  options.transient_periods = 30;
  options.periods = 50;
  const LyapunovResult plain = LyapunovSpectrum(system, options).compute(0.0, vec2(0.0, 0.0));
  std::vector<int> seen;
  options.progress = [&](int done, int total) {
    CHECK(total == 80);
    seen.push_back(done);
  };
  const LyapunovResult observed = LyapunovSpectrum(system, options).compute(0.0, vec2(0.0, 0.0));
  REQUIRE(seen.size() == 80);
  for (size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == static_cast<int>(i) + 1);
  // Observing must not change the integration: the same numbers to the last bit.
  REQUIRE(observed.exponents.size() == plain.exponents.size());
  for (Eigen::Index i = 0; i < plain.exponents.size(); ++i)
    CHECK(observed.exponents[i] == plain.exponents[i]);
  CHECK(observed.final_state.x == plain.final_state.x);
  CHECK(observed.impacts.impacts == plain.impacts.impacts);
}

TEST_CASE("Batch-means standard errors predict the spread of independent chaotic runs",
          "[lyapunov]") {
  // eta = 7.1, r = 1 is chaotic. Ten runs from starts 1e-4 apart decorrelate within the
  // transient, so their lambda_1 scatter as independent 1000-period averages do; the
  // standard error each run reports from its own 20 batches must predict that scatter.
  // With ten runs the sample deviation itself is uncertain by about 25 %, the batch
  // estimate by about 16 %: a ratio outside [0.4, 2.5] is an error of the estimate (a
  // missing square root of the batch count alone gives 4.5).
  const auto system = make_system<MovingBaseOscillator>({{"r", "1"}, {"omega", "7.1"}});
  LyapunovOptions options;
  options.transient_periods = 200;
  options.periods = 1000;
  const LyapunovSpectrum spectrum(system, options);
  std::vector<double> largest, errors;
  for (int run = 0; run < 10; ++run) {
    const LyapunovResult r = spectrum.compute(0.0, vec2(1e-4 * run, 0.0));
    REQUIRE(r.ok());
    REQUIRE(r.n == 0);
    REQUIRE(r.batches == 20);
    REQUIRE(r.exponent_errors.size() == 2);
    largest.push_back(r.exponents[0]);
    errors.push_back(r.exponent_errors[0]);
    CHECK(r.exponent_errors[0] > 0.0);
    CHECK(r.exponent_errors[1] > 0.0);
    // The sum contracts at exactly -c/m in every batch (Liouville, det S = 1): its batches
    // agree to rounding while each exponent's scatter.
    CHECK(r.exponent_sum_error <= 1e-10);
  }
  double mean = 0.0, mean_error = 0.0;
  for (size_t k = 0; k < largest.size(); ++k) {
    mean += largest[k] / largest.size();
    mean_error += errors[k] / errors.size();
  }
  double squares = 0.0;
  for (double value : largest) squares += (value - mean) * (value - mean);
  const double scatter = std::sqrt(squares / (largest.size() - 1));
  INFO("lambda_1 mean " << mean << ", scatter of the runs " << scatter
                        << ", mean standard error " << mean_error);
  CHECK(scatter / mean_error >= 0.4);
  CHECK(scatter / mean_error <= 2.5);
}

TEST_CASE("At periodic orbits the Floquet exponents lie within the standard errors",
          "[lyapunov]") {
  // After 1000 averaged periods Benettin's estimate is still off: at a complex pair of
  // multipliers (eta = 4, 6: z = 1/2, 1/3) the split between the two columns turns with the
  // pair's angle, at eta = 2 (z = 1/1) the two real multipliers 0.6973 and 0.6962 align the
  // tangent at the rate of their ratio, 0.9984 per period. The batches see both as scatter;
  // the exact exponents must lie within three standard errors. A complex pair has both
  // exponents -c/(2m) exactly (equal moduli, product e^{-c/m nT}); the real pair's come
  // from the monodromy of the settled orbit.
  for (const char* eta : {"2", "4", "6"}) {
    INFO("eta = " << eta);
    const auto system = make_system<MovingBaseOscillator>({{"r", "1"}, {"omega", eta}});
    const LyapunovResult r = lyapunov(system, 1000, 1000);
    REQUIRE(r.ok());
    REQUIRE(r.n > 0);
    Vector exact = Vector::Constant(2, -c_over_m / 2);
    if (r.n == 1) {
      Vector x = r.final_state.x;
      const double period = system.forcing_period();
      for (int i = 0; i < 40; ++i) x = flow_map(system, FlowOptions{}, 0.0, x, period, false).x;
      const MapResult orbit = flow_map(system, FlowOptions{}, 0.0, x, period, true);
      REQUIRE(orbit.report.ok());
      const Eigen::EigenSolver<Matrix> solver(orbit.jacobian);
      for (int i = 0; i < 2; ++i) {
        REQUIRE(solver.eigenvalues()[i].imag() == 0.0);
        exact[i] = std::log(std::abs(solver.eigenvalues()[i])) / period;
      }
      std::sort(exact.begin(), exact.end(), std::greater<double>());
    }
    INFO("Benettin " << r.exponents.transpose() << ", standard errors "
                     << r.exponent_errors.transpose() << ", exact " << exact.transpose());
    for (int i = 0; i < 2; ++i) {
      CHECK(r.exponent_errors[i] > 0.0);
      CHECK(std::abs(r.exponents[i] - exact[i]) <= 3.0 * r.exponent_errors[i]);
    }
  }
}

TEST_CASE("A standard error needs two batches", "[lyapunov]") {
  const auto system = make_system<MovingBaseOscillator>({{"r", "1"}, {"omega", "2"}});
  // A single averaged period makes a single batch: no error to give.
  const LyapunovResult single = lyapunov(system, 10, 1);
  REQUIRE(single.ok());
  CHECK(single.batches == 1);
  CHECK(std::isnan(single.exponent_errors[0]));
  CHECK(std::isnan(single.exponent_sum_error));
  LyapunovOptions one_batch;
  one_batch.batches = 1;
  CHECK_THROWS_AS(LyapunovSpectrum(system, one_batch), libcont::InputError);
}

TEST_CASE("Sticking collapses the tangent on the exact path as on the general one",
          "[lyapunov]") {
  // r = 0.6, eta = 3: chattering sequences end in sticking about every 4 periods. A stuck
  // body moves with the base whatever its state was before, so the saltation into sticking
  // is zero and both exponents are -inf (doc/theory.md, 5). The general path's saltation
  // from the model's Jacobians gives exactly that; the exact path's from the lifted state
  // must too, not a rounding-level matrix that leaves one finite, arbitrary exponent.
  const auto system = make_system<MovingBaseOscillator>({{"r", "0.6"}, {"omega", "3"}});
  for (const bool exact : {false, true}) {
    INFO((exact ? "exact path" : "general path"));
    LyapunovOptions options;
    options.transient_periods = 300;
    options.periods = 300;
    options.flow.exact_linear_modes = exact;
    const LyapunovResult r = LyapunovSpectrum(system, options).compute(0.0, vec2(0.0, 0.0));
    REQUIRE(r.ok());
    INFO("exponents " << r.exponents.transpose() << ", a_i " << r.impacts_per_period);
    CHECK(r.impacts_per_period > 1.0);
    CHECK(std::isinf(r.exponents[0]));
    CHECK(std::isinf(r.exponents[1]));
    CHECK(r.exponents[0] < 0.0);
    CHECK(std::isnan(r.exponent_errors[0]));
  }
}
