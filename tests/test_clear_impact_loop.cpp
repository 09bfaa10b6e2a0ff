// The clear impact loop of the exact path (libcont/src/clear_impact_loop.hpp) against the
// general exact path it stands in for (FlowOptions::clear_impact_loop = false), which the
// other exact-flow tests check against CVODE, closed forms and finite differences: the
// same events (kind, time, states before and after), the same state and tangent, on
// periodic and chaotic motions of the hard moving base; what it leaves to the general path
// (a dip that may graze, sticking) left to it, with the same results; the models and
// options it does not serve.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "../libcont/src/clear_impact_loop.hpp"
#include "libcont/exact_linear_flow.hpp"
#include "libcont/flow.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "systems/moving_base.hpp"

using libcont::EventKind;
using libcont::Matrix;
using libcont::Vector;

namespace {

struct Events : libcont::FlowObserver {
  std::vector<libcont::EventRecord> records;
  std::vector<double> sample_times;
  std::vector<Vector> samples;
  void on_event(const libcont::EventRecord& e) override { records.push_back(e); }
  void on_sample(double t, libcont::ConstVectorRef x, int) override {
    sample_times.push_back(t);
    samples.emplace_back(x);
  }
};

struct Run {
  std::vector<libcont::EventRecord> events;
  libcont::FlowState final_state;
  std::vector<double> sample_times;
  std::vector<Vector> samples;
};

systems::MovingBaseOscillator moving_base(double omega, double d, double r) {
  systems::MovingBaseOscillator system;
  system.set_parameter("omega", omega);
  system.set_parameter("d", d);
  system.set_parameter("r", r);
  return system;
}

// From (t0, x0) over `periods` forcing periods, period by period, with the tangent, and
// samples every period / `per_period` where that is > 0.
Run run(const systems::MovingBaseOscillator& system, bool loop, double t0, const Vector& x0,
        int periods, int per_period = 0) {
  libcont::FlowOptions options;
  options.tangent = true;
  options.clear_impact_loop = loop;
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(t0, x0);
  Events observer;
  const double period = system.forcing_period();
  for (int k = 1; k <= periods; ++k) {
    const libcont::SampleGrid grid{t0, per_period > 0 ? period / per_period : 0.0};
    const libcont::FlowReport report = flow.advance(state, t0 + k * period, &observer, grid);
    REQUIRE(report.ok());
  }
  return {observer.records, state, observer.sample_times, observer.samples};
}

long count(const Run& r, EventKind kind) {
  return std::count_if(r.events.begin(), r.events.end(),
                       [&](const libcont::EventRecord& e) { return e.kind == kind; });
}

// The two runs' events one by one (kind and modes the same, times within time_tolerance
// relative to |t|, states before and after within state_tolerance), and their final
// states and tangents. The impact times differ by rounding of |t| (up to 1e-13 after
// hundreds of periods), the states by their rates times that.
void require_same(const Run& loop, const Run& general, double time_tolerance,
                  double state_tolerance) {
  REQUIRE(loop.events.size() == general.events.size());
  double worst_time = 0.0, worst_state = 0.0;
  for (size_t i = 0; i < loop.events.size(); ++i) {
    const libcont::EventRecord& a = loop.events[i];
    const libcont::EventRecord& b = general.events[i];
    REQUIRE(a.kind == b.kind);
    REQUIRE(a.mode_before == b.mode_before);
    REQUIRE(a.mode_after == b.mode_after);
    worst_time = std::max(worst_time, std::abs(a.t - b.t) / std::max(1.0, std::abs(b.t)));
    worst_state = std::max({worst_state, (a.x_minus - b.x_minus).cwiseAbs().maxCoeff(),
                            (a.x_plus - b.x_plus).cwiseAbs().maxCoeff()});
  }
  INFO("worst time " << worst_time << ", worst state " << worst_state);
  CHECK(worst_time <= time_tolerance);
  CHECK(worst_state <= state_tolerance);
  CHECK(loop.final_state.mode == general.final_state.mode);
  CHECK((loop.final_state.x - general.final_state.x).cwiseAbs().maxCoeff() <= state_tolerance);
  const Matrix& phi = general.final_state.tangent;
  INFO("tangent " << (loop.final_state.tangent - phi).cwiseAbs().maxCoeff());
  CHECK((loop.final_state.tangent - phi).cwiseAbs().maxCoeff() <=
        1e3 * time_tolerance * std::max(1.0, phi.cwiseAbs().maxCoeff()));
}

}  // namespace

TEST_CASE("the clear impact loop gives the general exact path's events, state and tangent",
          "[exact-flow]") {
  // Periodic motions (z = 1/1, 1/2, 1/4; one with a gap at rest) over 300 periods, and
  // chaotic ones (eta = 3, 5, 7: lambda_1 about 0.2, so rounding differences grow by
  // e^{0.2 t}) over 10 periods, whose impacts come at every phase and speed.
  // Tolerances: times relative to |t|; states (base amplitude a = 0.0025, velocities up
  // to a omega) absolute.
  struct Case {
    double omega, d, r;
    int periods;
    double time_tolerance, state_tolerance;
  };
  for (const Case c : {Case{2.0, 0.0, 1.0, 300, 1e-14, 1e-13},
                       Case{4.0, 0.0, 1.0, 300, 1e-14, 1e-13},
                       Case{8.0, 0.0, 1.0, 300, 1e-14, 1e-13},
                       Case{4.0, -0.002, 1.0, 300, 1e-14, 1e-13},
                       Case{2.5, -0.002, 0.8, 300, 1e-14, 1e-13},
                       Case{3.0, 0.0, 1.0, 10, 1e-12, 1e-12},
                       Case{5.0, 0.0, 1.0, 10, 1e-12, 1e-12},
                       Case{7.0, 0.0, 1.0, 10, 1e-12, 1e-12}}) {
    INFO("omega = " << c.omega << ", d = " << c.d << ", r = " << c.r);
    const auto system = moving_base(c.omega, c.d, c.r);
    const Run loop = run(system, true, 0.0, Vector::Zero(2), c.periods);
    const Run general = run(system, false, 0.0, Vector::Zero(2), c.periods);
    CHECK(count(loop, EventKind::Impact) >= c.periods / 4);
    require_same(loop, general, c.time_tolerance, c.state_tolerance);
  }
}

TEST_CASE("the clear impact loop leaves sticking and chatter to the general path",
          "[exact-flow]") {
  // The base pressed into the body's rest (d = 0.004) at omega = 1.5, r = 0.5: each period
  // some fourteen impacts chatter down to sticking, which the loop hands over (slow
  // impacts the model may turn into sticking, the stuck mode, the release); the flights
  // and impacts between are its own. The same sequence of impacts, sticking and
  // releases either way. A chatter's short flights amplify rounding (each flight's time
  // follows the last rebound's speed, which shrinks by r at each impact): the times agree
  // to 4e-13 of |t| here, about a hundred times the periodic motions' level.
  const auto system = moving_base(1.5, 0.004, 0.5);
  const Run loop = run(system, true, 0.0, Vector::Zero(2), 60);
  const Run general = run(system, false, 0.0, Vector::Zero(2), 60);
  INFO("impacts " << count(general, EventKind::Impact) << ", sticking "
                   << count(general, EventKind::StickStart));
  CHECK(count(general, EventKind::StickStart) > 10);
  CHECK(count(general, EventKind::Impact) > 100);
  require_same(loop, general, 1e-12, 1e-12);
}

TEST_CASE("the clear impact loop hands a dip that may graze to the general path",
          "[exact-flow]") {
  // A flight whose gap comes down to 1e-6 of the base's amplitude and turns within the
  // first scan step: the Hermite screen cannot clear it, so the loop gives the flight
  // back untouched, and the general path finds no crossing in it.
  const double omega = 4.0, a = 0.0025;
  const auto system = moving_base(omega, 0.0, 1.0);
  const double tg = 0.3;
  // At tg: just above the base, at its velocity (the gap's minimum), in lifted form, then
  // back a fifth of a scan step along the exact flow.
  libcont::AffineMode mode;
  mode.A.resize(2, 2);
  mode.b0.resize(2), mode.b_cos.resize(2), mode.b_sin.resize(2);
  REQUIRE(system.affine_modes()->affine_mode(0, mode));
  libcont::ExactLinearFlow flow;
  flow.set_mode(mode);
  const double back = 0.2 * flow.scan_step();
  const Vector at_minimum{{system.base_position(tg) + 1e-6 * a, system.base_velocity(tg)}};
  Matrix z(5, 1), earlier(5, 5);
  flow.lift(tg, at_minimum, z.col(0));
  flow.closed_form_transition(-back, earlier);
  const Vector x0 = (earlier * z).col(0).head(2);
  const double t0 = tg - back;
  REQUIRE(system.event_function(0, 0, t0, x0) > 1e-3 * a);  // clearly off the surface

  libcont::FlowOptions options;
  options.tangent = true;
  libcont::detail::ClearImpactLoop loop(system, options, true);
  REQUIRE(loop.serves(0));
  libcont::FlowState state{t0, x0, 0, Matrix::Identity(2, 2)};
  libcont::FlowReport report;
  CHECK(loop.run(state, t0 + 5.0 * system.forcing_period(), nullptr, {}, report) ==
        libcont::detail::ClearImpactLoop::Stop::HandOver);
  CHECK(loop.hand_overs() == 1);
  CHECK(state.t == t0);
  CHECK(state.x == x0);
  CHECK(report.events == 0);

  // Through Flow: the general path takes that flight, the loop the rest.
  const Run with_loop = run(system, true, t0, x0, 20);
  const Run general = run(system, false, t0, x0, 20);
  CHECK(count(general, EventKind::Impact) >= 10);
  require_same(with_loop, general, 1e-14, 1e-13);
}

TEST_CASE("the clear impact loop's jumps never step over a crossing", "[exact-flow]") {
  // The loop jumps two scan steps where a bound on the gap's rate shows the gap cannot
  // reach the surface within them, and skips those steps' crossing and turn checks. Here
  // the body starts at rest at 0.95 of the base's amplitude with the base moving fast
  // (omega = 10, ten times the natural frequency): each peak of the base passes through
  // the body for about 0.6 radian of its phase, less than a jump's one radian, so a jump
  // taken on a wrong bound would carry the scan across the peak, gap positive on both
  // sides, and lose the impact (a bound a fiftieth of this one's does). The same impacts
  // as the general path, which checks every step.
  const double a = 0.0025;
  const auto system = moving_base(10.0, 0.0, 0.8);
  const Vector x0{{0.95 * a, 0.0}};
  const Run loop = run(system, true, 0.0, x0, 200);
  const Run general = run(system, false, 0.0, x0, 200);
  INFO("impacts " << count(general, EventKind::Impact));
  CHECK(count(general, EventKind::Impact) >= 30);
  require_same(loop, general, 1e-13, 1e-13);
}

TEST_CASE("the clear impact loop serves only what it is written for", "[exact-flow]") {
  libcont::FlowOptions options;
  const auto hard = moving_base(4.0, 0.0, 0.8);
  libcont::detail::ClearImpactLoop loop(hard, options, false);
  CHECK(loop.serves(0));    // free flight
  CHECK(!loop.serves(1));   // stuck to the base: no impact surface of its own
  CHECK(loop.serves(0));    // and back
  systems::MovingBaseOscillator soft;
  soft.set_parameter_text("model", "soft");
  libcont::detail::ClearImpactLoop soft_loop(soft, options, false);
  CHECK(!soft_loop.serves(0));  // a soft contact's start is no impact
  libcont::FlowOptions monitored;
  monitored.gap_minima = true;
  libcont::detail::ClearImpactLoop monitored_loop(hard, monitored, false);
  CHECK(!monitored_loop.serves(0));  // the monitors are the general path's
}

TEST_CASE("Lyapunov exponents through the clear impact loop are the general path's",
          "[exact-flow]") {
  // Periodic at omega = 4 (the exponents to rounding), chaotic at omega = 3 (the two runs
  // part after some 40 periods; their averages agree within their standard errors).
  for (const double omega : {4.0, 3.0}) {
    INFO("omega = " << omega);
    const auto system = moving_base(omega, 0.0, 1.0);
    libcont::LyapunovOptions options;
    options.transient_periods = 200;
    options.periods = 2000;
    libcont::LyapunovOptions general_options = options;
    general_options.flow.clear_impact_loop = false;
    const auto loop = libcont::LyapunovSpectrum(system, options).compute(0.0, Vector::Zero(2));
    const auto general =
        libcont::LyapunovSpectrum(system, general_options).compute(0.0, Vector::Zero(2));
    REQUIRE(loop.report.ok());
    REQUIRE(general.report.ok());
    for (int i = 0; i < 2; ++i) {
      const double error = std::hypot(loop.exponent_errors[i], general.exponent_errors[i]);
      const double tolerance = omega == 4.0 ? 1e-10 : 4.0 * error;
      CHECK(std::abs(loop.exponents[i] - general.exponents[i]) <= tolerance);
    }
    // The sum is the phase volume's contraction rate, -c/m plus log r^2 per impact (0 at
    // r = 1): the same in both, to rounding, whatever the trajectory.
    CHECK(std::abs(loop.exponent_sum - general.exponent_sum) <= 1e-10);
  }
}

TEST_CASE("the clear impact loop gives the general path's samples", "[exact-flow]") {
  // Samples every seventh of a period over 40 periods (z = 1/2 at omega = 4, and the
  // chattering and sticking motion of the test above): the same times, the same states
  // to rounding, the same events.
  for (const auto& [omega, d, r] : {std::tuple{4.0, 0.0, 1.0}, std::tuple{1.5, 0.004, 0.5}}) {
    INFO("omega = " << omega << ", d = " << d << ", r = " << r);
    const auto system = moving_base(omega, d, r);
    const Run loop = run(system, true, 0.0, Vector::Zero(2), 40, 7);
    const Run general = run(system, false, 0.0, Vector::Zero(2), 40, 7);
    REQUIRE(general.sample_times.size() >= 40 * 7);
    REQUIRE(loop.sample_times == general.sample_times);
    double worst = 0.0;
    for (size_t i = 0; i < loop.samples.size(); ++i)
      worst = std::max(worst, (loop.samples[i] - general.samples[i]).cwiseAbs().maxCoeff());
    CHECK(worst <= 1e-13);
    require_same(loop, general, 1e-12, 1e-12);
  }
}

TEST_CASE("the clear impact loop takes repeated runs from one start alike", "[exact-flow]") {
  // A map's evaluations start again and again at the same time: each run's first impact
  // is as clear as the last run's (no storm is seen across runs), and the results repeat
  // to the bit.
  const auto system = moving_base(4.0, 0.0, 1.0);
  libcont::FlowOptions options;
  options.tangent = true;
  libcont::detail::ClearImpactLoop loop(system, options, true);
  REQUIRE(loop.serves(0));
  const Vector x0{{0.001, 0.0}};  // above the base at t = 0, at rest
  const double t_end = 3.0 * system.forcing_period();
  libcont::FlowState first{0.0, x0, 0, Matrix::Identity(2, 2)};
  libcont::FlowReport first_report;
  REQUIRE(loop.run(first, t_end, nullptr, {}, first_report) ==
          libcont::detail::ClearImpactLoop::Stop::ReachedEnd);
  libcont::FlowState second{0.0, x0, 0, Matrix::Identity(2, 2)};
  libcont::FlowReport second_report;
  REQUIRE(loop.run(second, t_end, nullptr, {}, second_report) ==
          libcont::detail::ClearImpactLoop::Stop::ReachedEnd);
  CHECK(loop.hand_overs() == 0);
  CHECK(first_report.events >= 2);
  CHECK(second_report.events == first_report.events);
  CHECK(second.x == first.x);
  CHECK(second.tangent == first.tangent);
}

TEST_CASE("with the clear impact loop an event due at the start still fires", "[exact-flow]") {
  // On the base and moving into it at t0: the impact is due at once, also in a call of
  // Flow::advance of zero length, with the loop as without it.
  const auto system = moving_base(4.0, 0.0, 0.8);
  const double t0 = 0.1;
  const Vector x0{{system.base_position(t0), system.base_velocity(t0) - 0.01}};
  for (const bool loop : {true, false}) {
    for (const double length : {0.0, 0.5}) {
      INFO("loop " << loop << ", length " << length);
      libcont::FlowOptions options;
      options.clear_impact_loop = loop;
      libcont::Flow flow(system, options);
      libcont::FlowState state = flow.initial_state(t0, x0);
      Events observer;
      REQUIRE(flow.advance(state, t0 + length, &observer).ok());
      REQUIRE(!observer.records.empty());
      CHECK(observer.records.front().kind == EventKind::Impact);
      CHECK(observer.records.front().t == t0);
    }
  }
}
