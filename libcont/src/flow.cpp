#include "libcont/flow.hpp"

#include <cvode/cvode.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "clear_impact_loop.hpp"
#include "cvode_integrator.hpp"
#include "exact_parameter_column.hpp"
#include "exact_segment.hpp"
#include "finite_sum.hpp"
#include "grid_times.hpp"
#include "machine_epsilon.hpp"
#include "modal_tangent.hpp"
#include "root_in_bracket.hpp"
#include "rounding_margin.hpp"
#include "libcont/input_error.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"
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
    case FlowStatus::Cancelled: return "cancelled";
  }
  return "unknown";
}

namespace {
// A window of kStallLimit steps that advances time by less than kStallFraction of the
// time scale (the span of the call or |t|) is a stall: the step size has collapsed (a
// vector field non-finite just ahead, a contact far too stiff for double precision).
// Failing there takes milliseconds; max_steps would take minutes.
constexpr int kStallLimit = 1000;
constexpr double kStallFraction = 1e-12;
}  // namespace

struct Flow::Impl {
  const HybridSystem& system;
  ModelJacobians jacobians;                   // the model's capabilities, looked up once
  const ParameterDerivatives* derivatives;
  FlowOptions options;
  detail::CvodeIntegrator integrator;
  int n;
  int columns;      // integrated columns: the tangent's k, then dx/dp if carried
  int tangent_k;    // k
  int parameter;    // the model's id of p (FlowOptions::parameter_column), or -1
  std::vector<double> packed, sample;
  std::vector<double> event_values;  // h_j at the last accepted point
  std::vector<double> step_end_values;  // h_j at the end of the step being checked
  Vector f_now, dh_dx;
  // The exact path for modes the model declares affine (with the monitors tracked on the
  // exact solution); absent where it is switched off.
  std::unique_ptr<detail::ExactSegment> exact;
  // dx/dp across the exact path's stretches, when carried.
  std::unique_ptr<detail::ExactParameterColumn> exact_parameter;
  // The tangent across the exact path's stretches of a large system, in one step per
  // stretch (the exact path then moves the state alone).
  std::unique_ptr<detail::ModalTangent> modal_tangent;
  // The loop of a one-degree-of-freedom oscillator's clear flights and impacts on the
  // exact path (FlowOptions::clear_impact_loop); absent where it cannot serve.
  std::unique_ptr<detail::ClearImpactLoop> impact_loop;
  Vector exact_start_x, parameter_scratch;
  EventRecord record_;
  SaltationWorkspace saltation_work_;
  Matrix tangent_scratch_;

  Impl(const HybridSystem& s, const FlowOptions& o)
      : system(s), jacobians(s), derivatives(s.parameter_derivatives()), options(o),
        integrator(s, o), n(s.dimension()),
        columns(integrator.tangent_columns()),
        tangent_k(o.tangent ? (o.tangent_columns > 0 ? o.tangent_columns : n) : 0),
        parameter(integrator.parameter()),
        packed(static_cast<size_t>(integrator.size())),
        sample(static_cast<size_t>(integrator.size())), f_now(n), dh_dx(n) {
    if (o.exact_linear_modes) {
      if (tangent_k > 0 && n >= detail::ModalTangent::kFromDimension)
        modal_tangent = std::make_unique<detail::ModalTangent>(s);
      exact = std::make_unique<detail::ExactSegment>(s, o, modal_tangent ? 0 : tangent_k);
      if (parameter >= 0)
        exact_parameter = std::make_unique<detail::ExactParameterColumn>(s, parameter);
      if (o.clear_impact_loop && n == 2 && parameter < 0 && (tangent_k == 0 || tangent_k == 2) &&
          o.extremum_coordinates.empty() && !o.gap_minima)
        impact_loop = std::make_unique<detail::ClearImpactLoop>(s, o, tangent_k == 2);
    }
  }

  // The tangent at a start: the first k columns of the identity, then dx0/dp = 0.
  Matrix initial_tangent() const {
    Matrix tangent = Matrix::Zero(n, columns);
    tangent.leftCols(tangent_k).setIdentity();
    return tangent;
  }

  // Whether the exact path takes the current mode: declared affine, and with dx/dp
  // carried, its derivative data given too (else the integrator carries dx/dp).
  bool exact_covers(int mode) {
    return exact && exact->covers(mode) && (!exact_parameter || exact_parameter->covers(mode));
  }

  // Time bookkeeping of the events of one call of advance (event storms).
  struct EventHistory {
    int storm = 0;
    double last_event_time = -std::numeric_limits<double>::infinity();
    double event_gap = std::numeric_limits<double>::infinity();  // between the last two
  };

  // Applies event j at the current state, then the events due right after it; checks for
  // an event storm and the event budget. False: the run ends (report says why).
  bool handle_event(FlowState& state, int j, FlowObserver* observer, FlowReport& report,
                    EventHistory& history) {
    if (!apply(state, j, observer, report)) return false;
    history.storm =
        (state.t - history.last_event_time <= options.storm_time * (1.0 + std::abs(state.t)))
            ? history.storm + 1
            : 0;
    history.event_gap = state.t - history.last_event_time;
    history.last_event_time = state.t;
    if (history.storm > options.storm_event_count) {
      fail(report, FlowStatus::EventStorm,
           std::to_string(history.storm) + " events without progress in time at t = " +
               number_text(state.t));
      return false;
    }
    if (report.events > options.max_events) {
      fail(report, FlowStatus::EventStorm,
           "more than " + std::to_string(options.max_events) + " events");
      return false;
    }
    return fire_due_events(state, observer, report);
  }

  void pack(const FlowState& s) {
    Eigen::Map<Vector>(packed.data(), n) = s.x;
    if (options.tangent) Eigen::Map<Matrix>(packed.data() + n, n, columns) = s.tangent;
  }
  void unpack(const double* y, double t, FlowState& s) const {
    s.t = t;
    s.x = Eigen::Map<const Vector>(y, n);
    if (options.tangent) s.tangent = Eigen::Map<const Matrix>(y + n, n, columns);
  }

  // The report's status and message (`return fail(...)` ends a run, which fills the
  // caller's report).
  static void fail(FlowReport& report, FlowStatus status, std::string message) {
    report.status = status;
    report.message = std::move(message);
  }

  // Applies event j at the current state (which is x- on entry, x+ on exit).
  bool apply(FlowState& state, int j, FlowObserver* observer, FlowReport& report) {
    // Storage kept between events (record, reset state, saltation): no allocation.
    EventRecord& record = record_;
    record.t = state.t;
    record.event = j;
    record.mode_before = state.mode;
    record.x_minus = state.x;
    Vector& x = record.x_plus;
    // Where the exact path holds the crossing and the model decides the outcome from the
    // lifted rate, the reset is applied to the lifted state: no cos and sin of the phase.
    EventOutcome outcome;
    const bool reset_lifted =
        exact && exact->reset_lifted(state.mode, j, state.t, state.x, x, outcome, record.rate);
    if (!reset_lifted) {
      record.rate = std::numeric_limits<double>::quiet_NaN();
      x = state.x;
      outcome = system.apply_event(state.mode, j, state.t, x);
    }
    if (!detail::sum_is_finite(x.data(), x.size())) {
      fail(report, FlowStatus::BadState,
           "reset of event " + system.event_spec(state.mode, j).name +
               " produced a non-finite state");
      return false;
    }
    if (options.tangent) {
      // At a crossing the exact path found, from its lifted state; else from the model's
      // Jacobians.
      const Matrix& s =
          exact && exact->crossing_saltation(state.mode, j, outcome, state.t, record.x_minus, x,
                                             saltation_work_)
              ? saltation_work_.result
              : saltation_matrix(jacobians, state.mode, j, outcome, state.t, record.x_minus, x,
                                 saltation_work_);
      if (!detail::sum_is_finite(s.data(), s.size())) {
        fail(report, FlowStatus::GrazingEvent,
             "event " + system.event_spec(state.mode, j).name + " at t = " +
                 number_text(state.t) +
                 " crosses its surface with zero rate: saltation matrix undefined");
        return false;
      }
      multiply_tangent(s, state.tangent);
      if (parameter >= 0)
        parameter_jump(*derivatives, parameter, state.mode, j, outcome, state.t, record.x_minus,
                       saltation_work_, parameter_scratch, state.tangent.col(columns - 1));
    }
    if (exact && !reset_lifted)
      exact->lift_reset(state.mode, state.t, record.x_minus, outcome.next_mode, x);
    state.x = x;
    state.mode = outcome.next_mode;
    ++report.events;
    record.mode_after = outcome.next_mode;
    record.kind = outcome.kind;
    if (observer) observer->on_event(record);
    if (outcome.terminal) {
      fail(report, FlowStatus::TerminalEvent, "");
      return false;
    }
    return true;
  }

  // tangent = s tangent. A 2 x 2 written out (Eigen's dynamic product costs several times
  // its eight products; with one addition per entry the sums are Eigen's to the bit).
  void multiply_tangent(const Matrix& s, Matrix& tangent) {
    if (s.rows() == 2 && s.cols() == 2 && tangent.rows() == 2 && tangent.cols() == 2) {
      const double* a = s.data();
      double* t = tangent.data();
      const double t00 = t[0], t10 = t[1], t01 = t[2], t11 = t[3];
      t[0] = a[0] * t00 + a[2] * t10;
      t[1] = a[1] * t00 + a[3] * t10;
      t[2] = a[0] * t01 + a[2] * t11;
      t[3] = a[1] * t01 + a[3] * t11;
      return;
    }
    tangent_scratch_.noalias() = s * tangent;
    tangent.swap(tangent_scratch_);
  }

  // d/dt h_j along the current mode's vector field, and the rounding level of that sum.
  double crossing_rate(const FlowState& state, int j, double& rounding) {
    double dh_dt = 0.0;
    jacobians.event_gradient(state.mode, j, state.t, state.x, dh_dx, dh_dt);
    system.vector_field(state.mode, state.t, state.x, f_now);
    rounding = 16.0 * kEpsilon * (dh_dx.cwiseProduct(f_now).cwiseAbs().sum() + std::abs(dh_dt));
    return dh_dx.dot(f_now) + dh_dt;
  }

  // The exact path's lifted value and rate of event j where it holds the state in lifted
  // form (ExactSegment::lifted_event): false elsewhere.
  bool lifted_event(const FlowState& state, int j, detail::ExactSegment::LiftedEvent& lifted) {
    return exact && exact->lifted_event(state.mode, j, state.t, state.x, lifted);
  }
  // The lifted rate's sign is the model's (rounding_margin.hpp).
  static bool lifted_rate_is_clear(const detail::ExactSegment::LiftedEvent& lifted) {
    return std::abs(lifted.rate) > detail::kRoundingMargin * lifted.rate_terms;
  }

  // Whether the trajectory passes through event j's surface in the event's direction.
  // A rate that is zero, opposite, or indistinguishable from zero in floating point means
  // a tangential touch (numerical noise on a trajectory that leaves the surface with zero
  // speed, e.g. a body released from sticking): no event. Where the exact path holds the
  // state and the lifted rate is clear of rounding, its sign decides as the model's would
  // (no model evaluation, with its cos and sin, at every impact).
  bool moves_through(const FlowState& state, int j) {
    detail::ExactSegment::LiftedEvent lifted;
    if (lifted_event(state, j, lifted) && lifted_rate_is_clear(lifted))
      return passes(lifted.direction, lifted.rate, 0.0);
    double rounding = 0.0;
    const double rate = crossing_rate(state, j, rounding);
    return passes(system.event_direction(state.mode, j), rate, rounding);
  }
  // A rate beyond its rounding level in the event's direction.
  static bool passes(EventDirection direction, double rate, double rounding) {
    switch (direction) {
      case EventDirection::Falling: return rate < -rounding;
      case EventDirection::Rising: return rate > rounding;
      case EventDirection::Either: return std::abs(rate) > rounding;
    }
    return false;
  }

  // At rest on event j's surface (a rate at rounding level), whether the motion presses
  // through it in the event's direction: the rate a moment later, along the field.
  bool pressed_through(const FlowState& state, int j) {
    detail::ExactSegment::LiftedEvent lifted;
    if (lifted_event(state, j, lifted) && lifted_rate_is_clear(lifted)) return false;
    double rounding = 0.0;
    if (std::abs(crossing_rate(state, j, rounding)) > rounding) return false;
    const double period = system.forcing_period();
    const double moment = 1e-7 * (period > 0.0 ? period : 1.0);
    FlowState later = state;
    later.t += moment;
    later.x += moment * f_now;
    return moves_through(later, j);
  }

  // Events that are due right at the current instant: the state sits on an event surface
  // (|h| ~ 0) and moves through it in the event's direction. CVODE cannot see a crossing
  // that starts at its initial point, so the flow fires these itself. At the start of a
  // run also where it rests on the surface and the motion presses into it (a body put
  // down on a spring, within the tolerance above it): no crossing would ever be seen
  // there. After a reset such a state is a touch instead (a body released from sticking).
  bool fire_due_events(FlowState& state, FlowObserver* observer, FlowReport& report,
                       bool at_start = false) {
    const double surface_tolerance = 100.0 * options.absolute_tolerance;
    for (int round = 0; round < 64; ++round) {
      bool fired = false;
      const int events = system.event_count(state.mode);  // of this round's mode
      for (int j = 0; j < events && !fired; ++j) {
        // Where the exact path holds the state (a period's start, after an impact), without
        // the model's event function: not due if the lifted value is clear of the surface
        // (a period's start), or the lifted rate clear of rounding and not through it (an
        // impact's rebound; then neither moves_through nor pressed_through holds).
        detail::ExactSegment::LiftedEvent lifted;
        if (lifted_event(state, j, lifted) &&
            (std::abs(lifted.value) >
                 surface_tolerance + detail::kRoundingMargin * lifted.value_terms ||
             (lifted_rate_is_clear(lifted) &&
              !passes(lifted.direction, lifted.rate, 0.0))))
          continue;
        const double h = system.event_function(state.mode, j, state.t, state.x);
        if (std::abs(h) > surface_tolerance) continue;
        if (!moves_through(state, j) && !(at_start && pressed_through(state, j))) continue;
        if (!apply(state, j, observer, report)) return false;
        fired = true;
      }
      if (!fired) return true;
    }
    fail(report, FlowStatus::EventStorm, "events keep firing at t = " + number_text(state.t));
    return false;
  }

  void record_event_values(const FlowState& state) {
    event_values.resize(static_cast<size_t>(system.event_count(state.mode)));
    for (size_t j = 0; j < event_values.size(); ++j)
      event_values[j] = system.event_function(state.mode, static_cast<int>(j), state.t, state.x);
  }

  // Safety net behind CVODE's root finding. CVODE switches off a root function that is
  // zero at the start of a step and stays zero to rounding a little later, and judges a
  // later sign from there: the very short flights at the end of a chattering sequence
  // (apex far below the absolute tolerance) then end unseen and the body passes through
  // the surface. Every accepted step is checked for a crossing in the event's direction;
  // a missed one is located by bisection on CVODE's interpolant and the state is moved to
  // its far side, where CVODE itself would have returned it. Returns the event or -1.
  int missed_crossing(double t_before, FlowState& state) {
    int found = -1;
    step_end_values.resize(event_values.size());
    // The explicit pair's own values where it gives them: the same functions of the same
    // mode, time and state.
    const double* known = integrator.event_values();
    for (size_t j = 0; j < event_values.size() && found < 0; ++j) {
      const int event = static_cast<int>(j);
      step_end_values[j] =
          known ? known[j] : system.event_function(state.mode, event, state.t, state.x);
      if (detail::crosses(system.event_direction(state.mode, event), event_values[j], step_end_values[j]))
        found = event;
    }
    if (found < 0) {
      // All of the mode's values at the step's end (the mode is the one recorded at the
      // integrator's start): what record_event_values would compute again.
      event_values.swap(step_end_values);
      return -1;
    }
    const EventDirection direction = system.event_direction(state.mode, found);
    const double h_before = event_values[static_cast<size_t>(found)];
    double lo = t_before, hi = state.t;
    for (int iteration = 0; iteration < 200 && hi - lo > 4.0 * kEpsilon * std::abs(hi); ++iteration) {
      const double mid = 0.5 * (lo + hi);
      if (!integrator.interpolate(mid, sample.data())) break;
      const double h = system.event_function(state.mode, found, mid,
                                             Eigen::Map<const Vector>(sample.data(), n));
      (detail::crosses(direction, h_before, h) ? hi : lo) = mid;
    }
    if (hi < state.t && integrator.interpolate(hi, sample.data())) unpack(sample.data(), hi, state);
    return found;
  }

  // The monitors' roots that ended the last CVODE step (at state.t).
  void report_monitors(const FlowState& state, FlowObserver& observer) {
    for (const detail::Root& root : integrator.roots_found()) {
      if (root.kind == detail::Root::Kind::Extremum) {
        observer.on_extremum(root.index, state.t, state.x, state.mode);
      } else if (root.kind == detail::Root::Kind::GapMinimum) {
        observer.on_gap_minimum(root.index, state.t,
                                system.event_function(state.mode, root.index, state.t, state.x),
                                state.x, state.mode);
      }
    }
  }

  void emit_samples(double t_from, double t_to, const SampleGrid& grid, const FlowState& state,
                    FlowObserver* observer) {
    if (!observer || grid.step <= 0.0) return;
    detail::for_each_grid_time(grid, t_from, t_to, [&](double ts) {
      if (!integrator.interpolate(ts, sample.data())) return false;
      observer->on_sample(ts, Eigen::Map<const Vector>(sample.data(), n), state.mode);
      return true;
    });
  }

  bool cancelled() const {
    return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
  }
  void cancel_report(FlowReport& report, const FlowState& state) {
    return fail(report, FlowStatus::Cancelled, "cancelled at t = " + number_text(state.t));
  }

  // The run's outcome goes into the caller's report (one object from the start: returning
  // a local from the many exits would move its message string on every call).
  void advance(FlowState& state, double t_end, FlowObserver* observer, SampleGrid grid,
               FlowReport& report) {
    if (state.x.size() != n || !state.x.allFinite() || !std::isfinite(state.t))
      return fail(report, FlowStatus::BadState, "initial state is not a finite vector of size " +
                                                    std::to_string(n));
    if (options.tangent && (state.tangent.rows() != n || state.tangent.cols() != columns))
      state.tangent = initial_tangent();
    if (t_end < state.t) return fail(report, FlowStatus::BadState, "end time before start time");
    const long steps_at_start = integrator.total_steps();
    // The stall window runs across restarts: touches and events that restart the
    // integrator every step must not hide a collapsed step size.
    const double time_scale = std::max(std::abs(state.t), t_end - state.t);
    int window_steps = 0;
    double window_start = state.t;
    // The clear impact loop takes the flights it can; where it hands one over, the general
    // path takes that flight (with its checks at the start), and the loop the next one.
    const bool loop_usable = impact_loop != nullptr;
    const auto loop_reaches_end = [&] {
      return loop_usable && impact_loop->serves(state.mode) &&
             impact_loop->run(state, t_end, observer, grid, report) ==
                 detail::ClearImpactLoop::Stop::ReachedEnd;
    };
    // (Not for a call of zero length: its only work is the events due at the start.)
    if (state.t < t_end && loop_reaches_end()) return;
    if (!fire_due_events(state, observer, report, true)) return;
    integrator.set_monitor_roots_wanted(!observer || observer->wants_monitor_roots());
    EventHistory history;
    long exact_steps = report.steps;  // the loop's, if it took the first flights
    bool after_touch = false;
    bool loop_turn = false;  // the next flight is the loop's
    while (state.t < t_end) {
      if (cancelled()) return cancel_report(report, state);
      if (loop_turn) {
        loop_turn = false;
        const long steps_before = report.steps;
        const bool reached = loop_reaches_end();
        exact_steps += report.steps - steps_before;
        if (reached) return;
        continue;
      }
      if (exact_covers(state.mode)) {
        const long steps_before = report.steps;
        const double t_start = state.t;
        if (exact_parameter) exact_start_x = state.x;
        const int event = exact->run(state, t_end, after_touch, observer, grid, report);
        if (modal_tangent)
          modal_tangent->advance(state.mode, state.t - t_start, state.tangent.leftCols(tangent_k));
        if (exact_parameter)
          exact_parameter->advance(t_start, exact_start_x, state.t, state.tangent.col(columns - 1));
        exact_steps += report.steps - steps_before;
        if (event == detail::ExactSegment::kFailed) return;
        if (event == detail::ExactSegment::kReachedEnd) return;
        after_touch = !moves_through(state, event);
        if (after_touch) continue;  // a touch: go on past it
        if (!handle_event(state, event, observer, report, history)) return;
        loop_turn = loop_usable;
        continue;
      }
      after_touch = false;
      pack(state);
      // After an event the integrator restarts at first order, whose dense output is
      // linear: a first step longer than the next excursion (a short flight in a
      // chattering sequence) would hide that event or place it wrongly. Start with a step
      // well below the time since the previous event; CVODE grows it within a few steps.
      const double first_step = std::isfinite(history.event_gap) && history.event_gap > 0.0
                                    ? 1e-3 * history.event_gap
                                    : 0.0;
      if (!integrator.start(state.t, packed.data(), state.mode, first_step))
        return fail(report, FlowStatus::StepFailure, integrator.message());
      record_event_values(state);
      while (true) {
        double t = state.t;
        const double t_before = state.t;
        const int flag = integrator.step(t_end, t);
        report.steps = exact_steps + integrator.total_steps() - steps_at_start;
        if (flag < 0 && !integrator.on_stiff_integrator()) {
          // The explicit pair or Adams gave up (a contact stiffer than its mode's hint, a
          // kink of the field): BDF goes on from the last good state, to the next event.
          if (report.fallbacks++ == 0) report.first_fallback_time = state.t;
          pack(state);
          if (!integrator.start(state.t, packed.data(), state.mode, 0.0, true))
            return fail(report, FlowStatus::StepFailure, integrator.message());
          continue;
        }
        if (flag < 0)
          return fail(report, FlowStatus::StepFailure,
                      "at t = " + number_text(state.t) + ": " + integrator.message());
        if (cancelled()) return cancel_report(report, state);
        const double* y = integrator.solution();
        if (!detail::sum_is_finite(y, integrator.size()))
          return fail(report, FlowStatus::BadState,
                      "state became non-finite after t = " + number_text(state.t));
        if (++window_steps == kStallLimit) {
          if (t - window_start <= kStallFraction * time_scale) {
            return fail(report, FlowStatus::StepFailure,
                        "integrator stalled at t = " + number_text(t) + ": " +
                            std::to_string(kStallLimit) + " steps advanced time by only " +
                            number_text(t - window_start) +
                            " (is the vector field finite beyond this time, or a contact far "
                            "too stiff?)");
          }
          window_steps = 0;
          window_start = t;
        }
        unpack(y, t, state);
        if (report.steps > options.max_steps)
          return fail(report, FlowStatus::TooManySteps,
                      std::to_string(report.steps) + " steps without reaching t = " +
                          number_text(t_end));
        int event = -1;
        bool monitor_roots = false;
        if (flag == CV_ROOT_RETURN) {
          // Monitors are reported and integration goes on; an event (listed first) is
          // applied and the integrator restarted. A turning point of a guarded event
          // function is not reported: it only ends the step, so that the crossing check
          // below finds a crossing that began and ended within the step.
          for (const detail::Root& root : integrator.roots_found()) {
            if (root.kind == detail::Root::Kind::Event) {
              if (event < 0) event = root.index;
            } else if (root.kind == detail::Root::Kind::Extremum ||
                       root.kind == detail::Root::Kind::GapMinimum) {
              monitor_roots = true;
            }
          }
        }
        if (event < 0) event = missed_crossing(t_before, state);
        // In time order: the samples of the step, then its monitors' roots (at its end),
        // unless a missed crossing ended the step before them.
        emit_samples(t_before, state.t, grid, state, observer);
        if (monitor_roots && observer && state.t == t) report_monitors(state, *observer);
        if (event >= 0) {
          if (!moves_through(state, event)) break;  // a touch: restart past it
          if (!handle_event(state, event, observer, report, history)) return;
          break;  // restart the integrator from the post-event state
        }
        if (flag == CV_TSTOP_RETURN || t >= t_end) {
          state.t = t_end;
          return;
        }
      }
    }
    return;
  }
};

void FlowReport::add_work(const FlowReport& part) {
  steps += part.steps;
  events += part.events;
  if (part.fallbacks > 0 && fallbacks == 0) first_fallback_time = part.first_fallback_time;
  fallbacks += part.fallbacks;
}

namespace {
void require_option(bool condition, const std::string& field, const std::string& rule) {
  if (!condition) throw InputError("flow option '" + field + "' must be " + rule);
}
}  // namespace

void FlowOptions::validate() const {
  // Written so that a NaN fails every check.
  require_option(relative_tolerance > 0.0 && relative_tolerance < 1.0, "relative_tolerance",
                 "in (0, 1)");
  require_option(absolute_tolerance > 0.0, "absolute_tolerance", "> 0");
  require_option(tangent_absolute_tolerance > 0.0, "tangent_absolute_tolerance", "> 0");
  require_option(tangent_columns >= 0, "tangent_columns", ">= 0");
  require_option(max_step >= 0.0 && std::isfinite(max_step), "max_step", "finite and >= 0 (0: automatic)");
  require_option(max_steps > 0, "max_steps", "> 0");
  require_option(max_events > 0, "max_events", "> 0");
  require_option(storm_time >= 0.0, "storm_time", ">= 0");
  require_option(storm_event_count > 0, "storm_event_count", "> 0");
}

Flow::Flow(const HybridSystem& system, FlowOptions options) {
  options.validate();
  // A model with a parameter that has no default (an amplitude the source does not give)
  // cannot be integrated until it is set: say which, instead of integrating a NaN.
  system.parameters().check_required();
  impl_ = std::make_unique<Impl>(system, options);
}
Flow::~Flow() = default;
Flow::Flow(Flow&&) noexcept = default;
Flow& Flow::operator=(Flow&&) noexcept = default;

FlowState Flow::initial_state(double t, ConstVectorRef x) const {
  FlowState s;
  s.t = t;
  s.x = x;
  s.mode = impl_->system.mode_of(t, x);
  if (impl_->options.tangent) s.tangent = impl_->initial_tangent();
  return s;
}

FlowReport Flow::advance(FlowState& state, double t_end, FlowObserver* observer,
                         SampleGrid samples) {
  FlowReport report;
  impl_->advance(state, t_end, observer, samples, report);
  return report;
}

const FlowOptions& Flow::options() const { return impl_->options; }
const HybridSystem& Flow::system() const { return impl_->system; }
int Flow::tangent_columns() const { return impl_->tangent_k; }
bool Flow::carries_parameter() const { return impl_->parameter >= 0; }

}  // namespace libcont
