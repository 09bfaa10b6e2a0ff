#pragma once
// Event-driven integration of a hybrid system (doc/theory.md, 1-2) on SUNDIALS CVODE: Adams for
// non-stiff modes, BDF for stiff ones, CVODE's root finding for the events (located to
// near machine precision in time), the tangent flow Phi' = D_x f Phi integrated with the
// state and mapped through the saltation matrix at every event. Chattering (Zeno)
// sequences end in sticking through the model's reset law; a storm of events without
// progress in time is reported, never looped on.
#include <atomic>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/types.hpp"

namespace libcont {

// Auto: what the model's hints select for each mode (integrator_hints.hpp): CVODE's BDF for
// Stiff modes, the explicit Runge-Kutta pair (Verner 6(5), src/runge_kutta.hpp) for
// ExplicitPair modes (a Hertz contact), Adams for Nonstiff ones and without hints.
// RungeKutta: the pair for every non-stiff mode; with its longer steps it is more likely
// than Adams to miss two monitor roots inside one step, so it is not the default for all
// modes.
// Adams: Adams for every mode, stiff ones included. doc/performance.md.
enum class IntegratorMethod { Auto, Adams, BDF, RungeKutta };

struct FlowOptions {
  // Defaults keep the exponent sum of a Lyapunov run within 1e-9 of the exact
  // phase-volume contraction rate over thousands of periods (doc/theory.md).
  double relative_tolerance = 1e-11;
  double absolute_tolerance = 1e-13;          // state components
  double tangent_absolute_tolerance = 1e-11;  // tangent (Phi) components
  bool tangent = false;                       // integrate Phi with the state
  // Columns of Phi carried (n x k): 0 means the full n x n tangent. Fewer columns give
  // tangent-flow products Phi v for matrix-free eigenvalue solvers on large systems.
  int tangent_columns = 0;
  // With the tangent on: one more column after the tangent's k, dx/dp of this parameter
  // (0 at the start, as dx0/dp), from the model's derivatives in p
  // (ParameterDerivatives::derivative_parameter; InputError if it gives none). Empty: none.
  std::string parameter_column;
  IntegratorMethod method = IntegratorMethod::Auto;
  // Modes a model declares affine (AffineModes::affine_mode) follow their exact flow
  // (exact_linear_flow.hpp) instead of CVODE, unless this is false. The monitors are
  // tracked on the exact solution there (gap minima only of gaps declared affine,
  // AffineModes::affine_event; a mode with another gap goes to CVODE when they are asked
  // for). FlowReport::steps then counts the exact path's scan steps.
  bool exact_linear_modes = true;
  // On the exact path, scan steps in which a bound on the events' curvature shows that no
  // event can occur are crossed at once (libcont/src/event_free_bound.hpp); false looks at
  // every scan step (the same crossings, to rounding: for checks and measurements).
  bool skip_event_free_steps = true;
  // On the exact path, a one-degree-of-freedom mode with one rigid impact surface (two
  // states, one affine falling event, an affine impact reset back into the mode) takes its
  // clear flights and impacts in a loop of a few numbers (libcont/src/clear_impact_loop.hpp)
  // and hands anything near grazing, sticking or a storm to the general path; false: the
  // general path takes every flight (the same results to rounding, slower).
  bool clear_impact_loop = true;
  double max_step = 0.0;        // 0: a sixteenth of the forcing period (no missed impacts)
  long max_steps = 5'000'000;   // CVODE steps in one call of advance
  long max_events = 50'000'000; // events in one call of advance
  // Events closer together than this (relative to |t| + 1) count as "without progress";
  // more than storm_event_count of them in a row is an event storm.
  double storm_time = 1e-13;
  int storm_event_count = 1000;
  // Monitors: located by the same root finding as events but reported to the observer
  // without stopping or restarting the integration, in time order with the samples, and
  // only up to the event that ends a step.
  std::vector<int> extremum_coordinates;  // local extrema of these x_i (where dx_i/dt = 0)
  bool gap_minima = false;  // local minima of the gap functions (events of kind Impact or
                            // ContactStart), the test function of grazing
  // Set from another thread to end the run at its next step or event (status Cancelled,
  // the state the last good one): how a front end interrupts a long computation. None:
  // the run is not interruptible. Read only, never changed by the flow.
  const std::atomic<bool>* cancel = nullptr;
  // Throws InputError naming the first field out of range; Flow calls it.
  void validate() const;
};

// The state of a hybrid trajectory at one instant.
struct FlowState {
  double t = 0.0;
  Vector x;
  int mode = 0;
  // Phi (n x k), then dx/dp if FlowOptions::parameter_column; empty unless
  // FlowOptions::tangent.
  Matrix tangent;
};

struct EventRecord {
  double t = 0.0;
  int event = -1;
  int mode_before = 0;
  int mode_after = 0;
  EventKind kind = EventKind::ModeSwitch;
  Vector x_minus;
  Vector x_plus;
  // The event function's rate at x_minus where the exact path applied the reset to its
  // lifted state (the model's rate to rounding); NaN elsewhere.
  double rate = std::numeric_limits<double>::quiet_NaN();
};

// Receives what happens along a trajectory. Samples come on the grid origin + k * step.
class FlowObserver {
 public:
  virtual ~FlowObserver() = default;
  virtual void on_event(const EventRecord& /*event*/) {}
  virtual void on_sample(double /*t*/, ConstVectorRef /*x*/, int /*mode*/) {}
  // Monitors (FlowOptions::extremum_coordinates, gap_minima).
  virtual void on_extremum(int /*coordinate*/, double /*t*/, ConstVectorRef /*x*/, int /*mode*/) {}
  virtual void on_gap_minimum(int /*event*/, double /*t*/, double /*gap*/, ConstVectorRef /*x*/,
                              int /*mode*/) {}
  // false: the path is wanted and not the monitors' roots (a map's image alone). The
  // explicit pair then locates its monitors only in a step that holds another root too,
  // which leaves every step and state as with true (runge_kutta.cpp, find_root), and this
  // observer hears of the others no more. The exact path keeps its scan as with true and
  // does not locate the monitors' roots, which leaves its path the same (exact_segment.cpp,
  // run_sized). CVODE's steps depend on the monitors: it keeps them.
  virtual bool wants_monitor_roots() const { return true; }
};

struct SampleGrid {
  double origin = 0.0;
  double step = 0.0;  // 0: no samples
};

enum class FlowStatus {
  Success,
  TerminalEvent,   // the model stopped the run at an event
  StepFailure,     // CVODE failed (error test or convergence failures, step collapse)
  TooManySteps,
  EventStorm,      // events without progress in time
  GrazingEvent,    // an event with zero transversal rate: the saltation matrix is singular
  BadState,        // NaN or inf in the state
  Cancelled        // FlowOptions::cancel was set
};

std::string to_string(FlowStatus status);

struct FlowReport {
  FlowStatus status = FlowStatus::Success;
  std::string message;  // empty on success
  long steps = 0;
  long events = 0;
  // Steps of the explicit pair or of Adams that failed and were taken over by BDF from the
  // last good state (up to the next event), and when the first of them happened (NaN: none).
  long fallbacks = 0;
  double first_fallback_time = std::numeric_limits<double>::quiet_NaN();
  bool ok() const { return status == FlowStatus::Success || status == FlowStatus::TerminalEvent; }
  // Adds the work of a later part of the same run (steps, events, fallbacks); the status
  // and message stay this report's.
  void add_work(const FlowReport& part);
};

class Flow {
 public:
  // Throws InputError naming a required parameter of the system that is not set.
  Flow(const HybridSystem& system, FlowOptions options = {});
  ~Flow();
  Flow(Flow&&) noexcept;
  Flow& operator=(Flow&&) noexcept;

  // A state at time t in the mode consistent with x; tangent = the first k columns of
  // the identity if enabled (then dx0/dp = 0, if carried).
  FlowState initial_state(double t, ConstVectorRef x) const;

  // Integrates from state.t to t_end. On return `state` holds the state at t_end, or the
  // last good state before a failure (the report says which).
  FlowReport advance(FlowState& state, double t_end, FlowObserver* observer = nullptr,
                     SampleGrid samples = {});

  const FlowOptions& options() const;
  int tangent_columns() const;  // k
  bool carries_parameter() const;  // dx/dp after the k columns of the tangent
  const HybridSystem& system() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace libcont
