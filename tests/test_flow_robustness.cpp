// Flow robustness: bad input and numerical trouble come back as a status with a
// message, never as a crash, a hang or silently wrong numbers; events due at the initial
// instant are fired.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "libcont/flow.hpp"
#include "libcont/input_error.hpp"
#include "libcont/shooting.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::EventKind;
using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowState;
using libcont::FlowStatus;
using libcont::Vector;
using systems::MovingBaseOscillator;
using test_support::make_system;
using test_support::Recorder;
using test_support::vec2;

namespace {

// x' = rate on one state; one event h = x - level, falling or rising. Behaviour at the
// event chosen per test: terminal (the HybridSystem default), a reset that puts x back
// on the surface (so the event is due again at once: an event storm), or one that puts x
// at a value that is not finite (`broken`).
class Ramp : public libcont::HybridSystem {
 public:
  enum class OnEvent { Terminal, ResetOntoSurface, ResetNotFinite };
  double broken = std::numeric_limits<double>::quiet_NaN();
  Ramp(double rate, double level, OnEvent on_event, double nan_after = 1e300)
      : rate_(rate), level_(level), on_event_(on_event), nan_after_(nan_after) {}
  std::string name() const override { return "ramp"; }
  std::vector<std::string> state_names() const override { return {"x"}; }
  void vector_field(int, double t, libcont::ConstVectorRef, libcont::VectorRef dxdt) const override {
    dxdt[0] = t > nan_after_ ? std::numeric_limits<double>::quiet_NaN() : rate_;
  }
  int event_count(int) const override { return 1; }
  libcont::EventSpec event_spec(int, int) const override {
    return {"level", rate_ > 0 ? libcont::EventDirection::Rising : libcont::EventDirection::Falling,
            on_event_ == OnEvent::Terminal ? EventKind::Terminal : EventKind::Impact};
  }
  double event_function(int, int, double, libcont::ConstVectorRef x) const override {
    return x[0] - level_;
  }
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override {
    if (on_event_ == OnEvent::Terminal) return HybridSystem::apply_event(mode, event, t, x);
    x[0] = on_event_ == OnEvent::ResetNotFinite ? broken : level_;
    return {0, EventKind::Impact, false};
  }

 private:
  double rate_, level_;
  OnEvent on_event_;
  double nan_after_;
};

Vector scalar(double v) { return Vector::Constant(1, v); }

}  // namespace

TEST_CASE("A non-finite or mis-sized initial state is reported as BadState", "[flow]") {
  const MovingBaseOscillator system;
  Flow flow(system);
  for (const Vector& bad : {vec2(std::nan(""), 0.0), vec2(0.0, std::numeric_limits<double>::infinity()),
                            Vector(Vector::Zero(3))}) {
    FlowState state = flow.initial_state(0.0, bad);
    const auto report = flow.advance(state, 1.0);
    CHECK(report.status == FlowStatus::BadState);
    CHECK_FALSE(report.ok());
    CHECK_FALSE(report.message.empty());
    CHECK(state.t == 0.0);
  }
  FlowState state = flow.initial_state(std::nan(""), vec2(0.001, 0.0));
  CHECK(flow.advance(state, 1.0).status == FlowStatus::BadState);
}

TEST_CASE("An end time before the start time is an error, equal times a no-op", "[flow]") {
  const MovingBaseOscillator system;
  Flow flow(system);
  FlowState state = flow.initial_state(2.0, vec2(0.001, 0.0));
  const auto report = flow.advance(state, 1.0);
  CHECK_FALSE(report.ok());
  CHECK_FALSE(report.message.empty());
  CHECK(state.t == 2.0);
  CHECK(state.x == vec2(0.001, 0.0));

  const auto same = flow.advance(state, 2.0);
  CHECK(same.status == FlowStatus::Success);
  CHECK(state.t == 2.0);
  CHECK(state.x == vec2(0.001, 0.0));
}

TEST_CASE("An event due at the initial time is fired", "[flow]") {
  // With d = 0 and x = 0, v = 0 the body touches the base at rest at t = 0 while the base
  // moves up with speed a eta: the first impact is at t = 0 (doc/theory.md §3).
  const double a = 0.0025, eta = 4.0;
  for (const char* r_text : {"1", "0.8"}) {
    const double r = std::stod(r_text);
    const auto system = make_system<MovingBaseOscillator>({{"r", r_text}});
    Flow flow(system);
    FlowState state = flow.initial_state(0.0, vec2(0.0, 0.0));
    Recorder recorder;
    const auto report = flow.advance(state, 0.5, &recorder);
    REQUIRE(report.ok());
    REQUIRE_FALSE(recorder.events.empty());
    const auto& first = recorder.events.front();
    CHECK(first.t == 0.0);
    CHECK(first.kind == EventKind::Impact);
    // v_r- = -a eta, v+ = b' - r v_r- = (1 + r) a eta.
    CHECK(first.x_plus[1] == Approx((1 + r) * a * eta).epsilon(1e-14));
    // The body then flies above the base.
    CHECK(state.x[0] > system.base_position(state.t));
  }
  SECTION("soft model: contact starts at t = 0") {
    const auto system = make_system<MovingBaseOscillator>({{"model", "soft"}});
    Flow flow(system);
    FlowState state = flow.initial_state(0.0, vec2(0.0, 0.0));
    Recorder recorder;
    REQUIRE(flow.advance(state, 0.1, &recorder).ok());
    REQUIRE(recorder.events.size() >= 2);
    CHECK(recorder.events[0].t == 0.0);
    CHECK(recorder.events[0].kind == EventKind::ContactStart);
    CHECK(recorder.events[1].kind == EventKind::ContactEnd);
  }
}

TEST_CASE("A terminal event stops the run at the event", "[flow]") {
  const Ramp ramp(2.0, 1.0, Ramp::OnEvent::Terminal);
  Flow flow(ramp);
  FlowState state = flow.initial_state(0.0, scalar(0.0));
  Recorder recorder;
  const auto report = flow.advance(state, 5.0, &recorder);
  CHECK(report.status == FlowStatus::TerminalEvent);
  CHECK(report.ok());
  // x = 2 t reaches 1 at t = 0.5; CVODE locates roots to ~100 eps in time.
  CHECK(state.t == Approx(0.5).epsilon(1e-12));
  REQUIRE(recorder.events.size() == 1);
  CHECK(recorder.events[0].t == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("Events that keep firing without progress in time are an event storm", "[flow]") {
  // x' = -1 and every event puts x back on the surface h = 0 while still falling.
  const Ramp ramp(-1.0, 0.0, Ramp::OnEvent::ResetOntoSurface);
  Flow flow(ramp);
  FlowState state = flow.initial_state(0.0, scalar(0.5));
  const auto report = flow.advance(state, 2.0);
  CHECK(report.status == FlowStatus::EventStorm);
  CHECK_FALSE(report.ok());
  CHECK_FALSE(report.message.empty());
  // The last good state is kept: at the surface, at the storm's time.
  CHECK(state.t == Approx(0.5).epsilon(1e-12));
  CHECK(std::abs(state.x[0]) <= 1e-12);
}

TEST_CASE("A model that turns non-finite ends the run with a failure status", "[flow]") {
  const Ramp ramp(1.0, 100.0, Ramp::OnEvent::Terminal, 0.5);
  Flow flow(ramp);
  FlowState state = flow.initial_state(0.0, scalar(0.0));
  const auto report = flow.advance(state, 2.0);
  INFO("status " << libcont::to_string(report.status) << ": " << report.message << " ("
                  << report.steps << " steps, stopped at t = 0.5 - "
                  << 0.5 - state.t << ")");
  CHECK_FALSE(report.ok());
  CHECK((report.status == FlowStatus::StepFailure || report.status == FlowStatus::BadState));
  CHECK_FALSE(report.message.empty());
  // The last good state is finite and no later than the trouble.
  CHECK(state.x.allFinite());
  CHECK(state.t <= 0.5 + 1e-9);
}

TEST_CASE("A step budget is enforced", "[flow]") {
  const MovingBaseOscillator system;
  FlowOptions options;
  options.max_steps = 50;
  Flow flow(system, options);
  FlowState state = flow.initial_state(0.0, vec2(0.001, 0.0));
  const auto report = flow.advance(state, 1000.0);
  CHECK(report.status == FlowStatus::TooManySteps);
  CHECK(state.t < 1000.0);
  CHECK(state.x.allFinite());
}

TEST_CASE("A run whose cancel flag is set ends with the last good state", "[flow]") {
  std::atomic<bool> cancel{false};
  for (const auto method : {libcont::IntegratorMethod::Auto, libcont::IntegratorMethod::BDF}) {
    // Auto takes the exact path of the moving-base oscillator; BDF goes through CVODE.
    MovingBaseOscillator system;
    FlowOptions options;
    options.method = method;
    options.exact_linear_modes = method == libcont::IntegratorMethod::Auto;
    options.cancel = &cancel;
    Flow flow(system, options);
    FlowState state = flow.initial_state(0.0, vec2(0.001, 0.0));
    cancel = false;
    REQUIRE(flow.advance(state, 10.0).ok());
    const double reached = state.t;
    cancel = true;
    const auto report = flow.advance(state, 1e6);
    INFO((method == libcont::IntegratorMethod::BDF ? "BDF" : "auto"));
    CHECK(report.status == FlowStatus::Cancelled);
    CHECK(libcont::to_string(report.status) == "cancelled");
    CHECK(state.t == reached);
    CHECK(state.x.allFinite());
    // Cleared, the flow goes on from there as if nothing had happened.
    cancel = false;
    FlowState again = state;
    CHECK(flow.advance(again, 20.0).ok());
    CHECK(again.t == 20.0);
  }
}

TEST_CASE("Samples come exactly on the grid and match a direct advance", "[flow]") {
  const MovingBaseOscillator system;
  const double step = system.forcing_period() / 8;
  Flow flow(system);
  FlowState state = flow.initial_state(0.0, vec2(0.0, 0.0));
  Recorder recorder;
  REQUIRE(flow.advance(state, 10 * system.forcing_period(), &recorder, {0.0, step}).ok());
  // Samples at k * step for k = 1 .. 80 (the grid point at the start is not repeated;
  // the last one may coincide with t_end).
  REQUIRE(recorder.samples.size() >= 79);
  for (size_t i = 0; i < recorder.samples.size(); ++i)
    CHECK(recorder.samples[i].t == Approx((i + 1) * step).epsilon(1e-15));
  // The sample at t = 3 T agrees with integrating to 3 T directly: dense output of CVODE is
  // accurate to the integration tolerance (x ~ a = 2.5e-3, tolerances 1e-11 relative).
  const auto& sample = recorder.samples[23];
  REQUIRE(sample.t == Approx(3 * system.forcing_period()).epsilon(1e-15));
  Flow direct(system);
  FlowState other = direct.initial_state(0.0, vec2(0.0, 0.0));
  REQUIRE(direct.advance(other, sample.t).ok());
  CHECK((other.x - sample.x).norm() <= 1e-8 * 0.0025);
}

TEST_CASE("Flow and shooting options are validated, naming the field", "[flow][options]") {
  const auto system = test_support::make_system<systems::MovingBaseOscillator>({});
  const auto rejects = [&](auto change, const std::string& field) {
    libcont::ShootingOptions options;
    change(options);
    INFO("field " << field);
    CHECK_THROWS_WITH(libcont::Shooting(system, 1, options),
                      Catch::Matchers::Contains("'" + field + "'"));
  };
  rejects([](libcont::ShootingOptions& o) { o.flow.relative_tolerance = 0.0; }, "relative_tolerance");
  rejects([](libcont::ShootingOptions& o) { o.flow.absolute_tolerance = std::nan(""); },
          "absolute_tolerance");
  rejects([](libcont::ShootingOptions& o) { o.flow.max_step = -1.0; }, "max_step");
  rejects([](libcont::ShootingOptions& o) { o.flow.max_steps = 0; }, "max_steps");
  rejects([](libcont::ShootingOptions& o) { o.max_iterations = -1; }, "max_iterations");
  rejects([](libcont::ShootingOptions& o) { o.relative_tolerance = -1e-9; }, "relative_tolerance");
  libcont::FlowOptions flow;
  flow.storm_event_count = 0;
  CHECK_THROWS_AS(libcont::Flow(system, flow), libcont::InputError);
  CHECK_NOTHROW(libcont::Shooting(system, 1, libcont::ShootingOptions{}));
}

TEST_CASE("A reset that produces a state that is not finite is reported as BadState", "[flow]") {
  // NaN, +inf and -inf, with and without the tangent (the saltation follows the reset's
  // check): the run stops at the event with the reset's message.
  for (const double broken : {std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()}) {
    for (const bool tangent : {false, true}) {
      INFO("reset to " << broken << ", tangent " << tangent);
      Ramp ramp(1.0, 0.5, Ramp::OnEvent::ResetNotFinite);
      ramp.broken = broken;
      FlowOptions options;
      options.tangent = tangent;
      Flow flow(ramp, options);
      FlowState state = flow.initial_state(0.0, scalar(0.0));
      const auto report = flow.advance(state, 2.0);
      CHECK(report.status == FlowStatus::BadState);
      CHECK(report.message.find("produced a non-finite state") != std::string::npos);
      CHECK(state.t == Approx(0.5).margin(1e-9));
    }
  }
}
