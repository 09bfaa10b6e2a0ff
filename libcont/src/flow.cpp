#include "libcont/flow.hpp"

#include <cvode/cvode.h>

#include <cmath>
#include <limits>

#include "cvode_integrator.hpp"
#include "libcont/saltation.hpp"

namespace libcont {

std::string to_string(FlowStatus status) {
  switch (status) {
    case FlowStatus::Success: return "success";
    case FlowStatus::TerminalEvent: return "terminal event";
    case FlowStatus::StepFailure: return "integrator step failure";
    case FlowStatus::TooManySteps: return "too many steps";
    case FlowStatus::EventStorm: return "event storm";
    case FlowStatus::GrazingEvent: return "grazing event";
    case FlowStatus::BadState: return "bad state";
  }
  return "unknown";
}

struct Flow::Impl {
  const HybridSystem& system;
  FlowOptions options;
  detail::CvodeIntegrator integrator;
  int n;
  std::vector<double> packed, sample;
  Vector f_now, dh_dx;

  Impl(const HybridSystem& s, const FlowOptions& o)
      : system(s), options(o), integrator(s, o), n(s.dimension()),
        packed(static_cast<size_t>(integrator.size())),
        sample(static_cast<size_t>(integrator.size())), f_now(n), dh_dx(n) {}

  void pack(const FlowState& s) {
    Eigen::Map<Vector>(packed.data(), n) = s.x;
    if (options.tangent) Eigen::Map<Matrix>(packed.data() + n, n, n) = s.tangent;
  }
  void unpack(const double* y, double t, FlowState& s) const {
    s.t = t;
    s.x = Eigen::Map<const Vector>(y, n);
    if (options.tangent) s.tangent = Eigen::Map<const Matrix>(y + n, n, n);
  }

  FlowReport fail(FlowReport report, FlowStatus status, std::string message) const {
    report.status = status;
    report.message = std::move(message);
    return report;
  }

  // Applies event j at the current state (which is x- on entry, x+ on exit).
  bool apply(FlowState& state, int j, FlowObserver* observer, FlowReport& report) {
    EventRecord record;
    record.t = state.t;
    record.event = j;
    record.mode_before = state.mode;
    record.x_minus = state.x;
    Vector x = state.x;
    const EventOutcome outcome = system.apply_event(state.mode, j, state.t, x);
    if (!x.allFinite()) {
      report = fail(report, FlowStatus::BadState, "reset of event " +
                                                      system.event_spec(state.mode, j).name +
                                                      " produced a non-finite state");
      return false;
    }
    if (options.tangent) {
      const Matrix s =
          saltation_matrix(system, state.mode, j, outcome, state.t, record.x_minus, x);
      if (!s.allFinite()) {
        report = fail(report, FlowStatus::GrazingEvent,
                      "event " + system.event_spec(state.mode, j).name + " at t = " +
                          std::to_string(state.t) +
                          " crosses its surface with zero rate: saltation matrix undefined");
        return false;
      }
      state.tangent = s * state.tangent;
    }
    state.x = x;
    state.mode = outcome.next_mode;
    ++report.events;
    record.mode_after = outcome.next_mode;
    record.kind = outcome.kind;
    record.x_plus = std::move(x);
    if (observer) observer->on_event(record);
    if (outcome.terminal) {
      report = fail(report, FlowStatus::TerminalEvent, "");
      return false;
    }
    return true;
  }

  // d/dt h_j along the current mode's vector field.
  double crossing_rate(const FlowState& state, int j) {
    double dh_dt = 0.0;
    system.event_gradient(state.mode, j, state.t, state.x, dh_dx, dh_dt);
    system.vector_field(state.mode, state.t, state.x, f_now);
    return dh_dx.dot(f_now) + dh_dt;
  }

  // Whether the trajectory passes through event j's surface in the event's direction.
  // A zero or opposite rate means a tangential touch (numerical noise on a trajectory that
  // leaves the surface with zero speed, e.g. a body released from sticking): no event.
  bool moves_through(const FlowState& state, int j) {
    const double rate = crossing_rate(state, j);
    switch (system.event_spec(state.mode, j).direction) {
      case EventDirection::Falling: return rate < 0.0;
      case EventDirection::Rising: return rate > 0.0;
      case EventDirection::Either: return rate != 0.0;
    }
    return false;
  }

  // Events that are due right at the current instant: the state sits on an event surface
  // (|h| ~ 0) and moves through it in the event's direction. CVODE cannot see a crossing
  // that starts at its initial point, so the flow fires these itself.
  bool fire_due_events(FlowState& state, FlowObserver* observer, FlowReport& report) {
    const double surface_tolerance = 100.0 * options.absolute_tolerance;
    for (int round = 0; round < 64; ++round) {
      bool fired = false;
      for (int j = 0; j < system.event_count(state.mode) && !fired; ++j) {
        const double h = system.event_function(state.mode, j, state.t, state.x);
        if (std::abs(h) > surface_tolerance || !moves_through(state, j)) continue;
        if (!apply(state, j, observer, report)) return false;
        fired = true;
      }
      if (!fired) return true;
    }
    report = fail(report, FlowStatus::EventStorm,
                  "events keep firing at t = " + std::to_string(state.t));
    return false;
  }

  void emit_samples(double t_from, double t_to, const SampleGrid& grid, const FlowState& state,
                    FlowObserver* observer) {
    if (!observer || grid.step <= 0.0) return;
    double k = std::floor((t_from - grid.origin) / grid.step) + 1.0;
    for (double ts = grid.origin + k * grid.step; ts <= t_to; k += 1.0, ts = grid.origin + k * grid.step) {
      if (ts <= t_from) continue;
      if (!integrator.interpolate(ts, sample.data())) return;
      observer->on_sample(ts, Eigen::Map<const Vector>(sample.data(), n), state.mode);
    }
  }

  FlowReport advance(FlowState& state, double t_end, FlowObserver* observer, SampleGrid grid) {
    FlowReport report;
    if (state.x.size() != n || !state.x.allFinite() || !std::isfinite(state.t))
      return fail(report, FlowStatus::BadState, "initial state is not a finite vector of size " +
                                                    std::to_string(n));
    if (options.tangent && (state.tangent.rows() != n || state.tangent.cols() != n))
      state.tangent = Matrix::Identity(n, n);
    if (t_end < state.t) return fail(report, FlowStatus::BadState, "end time before start time");
    const long steps_at_start = integrator.total_steps();
    if (!fire_due_events(state, observer, report)) return report;
    int storm = 0;
    double last_event_time = -std::numeric_limits<double>::infinity();
    double event_gap = std::numeric_limits<double>::infinity();  // between the last two events
    while (state.t < t_end) {
      pack(state);
      // After an event the integrator restarts at first order, whose dense output is
      // linear: a first step longer than the next excursion (a short flight in a
      // chattering sequence) would hide that event or place it wrongly. Start with a step
      // well below the time since the previous event; CVODE grows it within a few steps.
      const double first_step =
          std::isfinite(event_gap) && event_gap > 0.0 ? 1e-3 * event_gap : 0.0;
      if (!integrator.start(state.t, packed.data(), state.mode, first_step))
        return fail(report, FlowStatus::StepFailure, integrator.message());
      while (true) {
        double t = state.t;
        const double t_before = state.t;
        const int flag = integrator.step(t_end, t);
        report.steps = integrator.total_steps() - steps_at_start;
        if (flag < 0)
          return fail(report, FlowStatus::StepFailure,
                      "at t = " + std::to_string(state.t) + ": " + integrator.message());
        const double* y = integrator.solution();
        if (!Eigen::Map<const Vector>(y, integrator.size()).allFinite())
          return fail(report, FlowStatus::BadState,
                      "state became non-finite after t = " + std::to_string(state.t));
        emit_samples(t_before, t, grid, state, observer);
        unpack(y, t, state);
        if (report.steps > options.max_steps)
          return fail(report, FlowStatus::TooManySteps,
                      std::to_string(report.steps) + " steps without reaching t = " +
                          std::to_string(t_end));
        if (flag == CV_ROOT_RETURN) {
          // Monitors are reported and integration goes on; an event (listed first) is
          // applied and the integrator restarted.
          int event = -1;
          for (const detail::Root& root : integrator.roots_found()) {
            if (root.kind == detail::Root::Kind::Event) {
              if (event < 0) event = root.index;
            } else if (observer && root.kind == detail::Root::Kind::Extremum) {
              observer->on_extremum(root.index, state.t, state.x, state.mode);
            } else if (observer) {
              observer->on_gap_minimum(
                  root.index, state.t,
                  system.event_function(state.mode, root.index, state.t, state.x), state.x,
                  state.mode);
            }
          }
          if (event < 0) continue;
          if (!moves_through(state, event)) break;  // a touch: restart past it
          if (!apply(state, event, observer, report)) return report;
          storm = (state.t - last_event_time <= options.storm_time * (1.0 + std::abs(state.t)))
                      ? storm + 1
                      : 0;
          event_gap = state.t - last_event_time;
          last_event_time = state.t;
          if (storm > options.storm_event_count)
            return fail(report, FlowStatus::EventStorm,
                        std::to_string(storm) + " events without progress in time at t = " +
                            std::to_string(state.t));
          if (report.events > options.max_events)
            return fail(report, FlowStatus::EventStorm,
                        "more than " + std::to_string(options.max_events) + " events");
          if (!fire_due_events(state, observer, report)) return report;
          break;  // restart the integrator from the post-event state
        }
        if (flag == CV_TSTOP_RETURN || t >= t_end) {
          state.t = t_end;
          return report;
        }
      }
    }
    return report;
  }
};

Flow::Flow(const HybridSystem& system, FlowOptions options)
    : impl_(std::make_unique<Impl>(system, options)) {}
Flow::~Flow() = default;
Flow::Flow(Flow&&) noexcept = default;
Flow& Flow::operator=(Flow&&) noexcept = default;

FlowState Flow::initial_state(double t, ConstVectorRef x) const {
  FlowState s;
  s.t = t;
  s.x = x;
  s.mode = impl_->system.mode_of(t, x);
  if (impl_->options.tangent) s.tangent = Matrix::Identity(x.size(), x.size());
  return s;
}

FlowReport Flow::advance(FlowState& state, double t_end, FlowObserver* observer,
                         SampleGrid samples) {
  return impl_->advance(state, t_end, observer, samples);
}

const FlowOptions& Flow::options() const { return impl_->options; }
const HybridSystem& Flow::system() const { return impl_->system; }

}  // namespace libcont
