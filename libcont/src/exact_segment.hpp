#pragma once
// The exact path of Flow (flow.cpp) through a mode the model declares affine
// (affine_modes.hpp): the state and tangent follow the exact flow
// (exact_linear_flow.hpp) in scan steps, and the events are found on that exact solution:
// a change of sign of an event function between scan points, or a turning point towards
// its surface in between that dips through it (a grazing double crossing inside one step),
// then a safeguarded Newton iteration with the analytic rate D_x h f + D_t h on the
// bracket. The crossing is placed on its far side, to rounding in time, as CVODE's root
// finding does; the event itself is applied by Flow, with the same semantics on both paths.
//
// The monitors (FlowOptions::extremum_coordinates, gap_minima) are tracked the same way,
// as functions of the lifted state z that are linear in it: an extremum of x_i is a root
// of x_i' = (M z)_i (either direction), a minimum of a gap h = c . z a rising root of
// h' = (M^T c) . z; their rates are one more product with M^T. Their roots are reported
// without stopping the run, in time order with the samples and before the event that
// ends the step (roots beyond it are not reported, as on the CVODE path, which restarts
// there).
#include <cstdint>
#include <string>
#include <vector>

#include "event_free_bound.hpp"
#include "root_in_bracket.hpp"
#include "libcont/exact_linear_flow.hpp"
#include "libcont/flow.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/saltation.hpp"

namespace libcont::detail {

class ExactSegment {
 public:
  static constexpr int kReachedEnd = -1;
  static constexpr int kFailed = -2;

  // columns: tangent columns carried (0 without tangent).
  ExactSegment(const HybridSystem& system, const FlowOptions& options, int columns);

  // Whether `mode` follows the exact path; refreshes the mode's data from the model (the
  // caches survive while they are unchanged) and prepares its events and monitors. A mode
  // whose gap minima are asked for while its gap function is not declared affine
  // (AffineModes::affine_event) is left to CVODE.
  bool covers(int mode);

  // Follows the exact flow of state.mode (the mode covers() last accepted) from `state`
  // towards t_end. Returns kReachedEnd (state at t_end), an event index (state just past
  // that event's crossing, in the event's direction), or kFailed (report says why; state
  // is the last good one).
  // after_touch: the state is where a crossing turned out to be a touch; the event
  // functions' values there are taken as they are (no side is inferred from the motion).
  // report.steps grows by the scan steps taken.
  int run(FlowState& state, double t_end, bool after_touch, FlowObserver* observer,
          const SampleGrid& grid, FlowReport& report);
  // Whether run takes the scan with its sizes fixed where the mode's size allows (the
  // default); without, the general scan (the tests compare the two to the bit).
  void use_sized_kernels(bool use) { sized_kernels_ = use; }
  // Whether a run that starts where the last one ended goes on from the lifted state held
  // there (the default); without, every run lifts its start (the tests compare the two).
  void start_from_held(bool use) { start_from_held_ = use; }

  // The saltation matrix of the event at which the last run ended, into work.result (with
  // work.jump and work.crossing_rate, which parameter_jump reads, as saltation_matrix
  // leaves them: saltation.hpp), from the lifted state z at
  // the crossing and the event's affine reset (AffineModes::affine_reset), with no call of
  // the model's fields and Jacobians: with R = (R_x, r) in lifted form,
  //   S = R_x + (f+ - R M z) c_x^T / ((M^T c) . z),
  // f+ = (M+ z+)_x the next mode's field at z+ = (x+, the same forcing values), c the
  // event's affine coefficients (R M z = R_x f- + D_t g). False (work not filled) where the
  // event is not that crossing (mode, event, t and x- must match; once), or the event, its
  // reset or the next mode is not affine: the caller then takes the general one.
  bool crossing_saltation(int mode, int event, const EventOutcome& outcome, double t,
                          const Vector& x_minus, const Vector& x_plus,
                          SaltationWorkspace& work);

  // An affine event's value and rate at a state the exact path holds in lifted form:
  // where its last run ended (at its crossing or at its end time), or the state a reset
  // applied there left (lift_reset). They are the model's event function and crossing
  // rate up to rounding: the lifted forcing values and the model's cos and sin differ at
  // that level. value_terms = sum |c_i z_i| and rate_terms = sum |c_i| |M_ik z_k| bound
  // that rounding. False where (mode, t, x) is not that state (compared to the bit, at
  // the model's revision) or the event is not affine; the caller asks the model then.
  struct LiftedEvent {
    double value = 0.0, value_terms = 0.0, rate = 0.0, rate_terms = 0.0;
    EventDirection direction = EventDirection::Either;  // the event's, as the model gives it
  };
  bool lifted_event(int mode, int event, double t, const Vector& x, LiftedEvent& out) const;
  // A reset applied at the state lifted_event holds (mode, t, x_minus): the state after
  // it, x_plus in next_mode with the same forcing values, is the one held from then on
  // (the due-event checks after an impact). Anywhere else nothing is held.
  void lift_reset(int mode, double t, const Vector& x_minus, int next_mode,
                  const Vector& x_plus);
  // The reset of `event` at the crossing where the last run ended (mode, t, x_minus as
  // held), where the model decides its outcome from the lifted rate
  // (AffineModes::affine_outcome) and declares that outcome's reset affine: the held
  // forcing values turned back to the clock's t, x+ = R z from them (the model's reset with
  // the lifted cos and sin of the phase), and the state held from then on is (x+, those
  // forcing values), from which the next run starts; rate = the event function's lifted
  // rate at x_minus. False (nothing changed): the caller applies the model's apply_event
  // and lift_reset.
  bool reset_lifted(int mode, int event, double t, const Vector& x_minus, Vector& x_plus,
                    EventOutcome& outcome, double& rate);

  // A run's lifted state follows its steps exactly in time, the clock in rounded sums
  // (t0 + step, t0 + tau). Where a run ends at t0 + tau, reached from t_start in whole
  // steps, its forcing values belong to the time t + lead(t), t the clock's time there.
  // Unchecked, the lead grows by about an ulp of t per step: a lift resets it, a start
  // from the held state turns it back.
  struct RunClock {
    double t_start, t0, step, tau;
    double lead(double t) const;
    // The clock at t with no step taken (t_start = t0 = t, tau = 0): its lead is zero
    // (turn_back_held keeps the held values there; public for its test).
    bool at_own_start(double t) const { return tau == 0.0 && t0 == t && t_start == t; }
  };

 private:
  // A tracked function's value and rate at the start of the current scan interval. The
  // functions are the mode's events (0 .. events - 1), then its monitors.
  struct Reference {
    double time = 0.0;  // within the interval (> 0 only after a start on the surface)
    double value = 0.0;
    double rate = 0.0;
  };
  using Bracket = RootBracket;
  struct Monitor {
    bool extremum;  // else a gap minimum
    int index;      // the coordinate, or the gap's event
  };
  struct MonitorRoot {
    double tau;  // within the interval
    int monitor;
  };

  // run for a state of N numbers and C tangent columns, fixed at compile time (N = 0:
  // any, taken at run time).
  template <int N, int C>
  int run_sized(FlowState& state, double t_end, bool after_touch, FlowObserver* observer,
                const SampleGrid& grid, FlowReport& report);
  // out = expm(M tau) in, by the cached transition with the sizes fixed where N > 0.
  template <int N, int C>
  static void propagate_block(ExactLinearFlow& flow, double tau, const Matrix& in, Matrix& out);
  // h and dh/dt along the flow at a lifted block's state (column 0); N as in run_sized.
  template <int N = 0>
  double value(int mode, int function, double t, const Matrix& block) const;
  template <int N = 0>
  double rate(int mode, int function, double t, const Matrix& block);
  // The same from the model's event function and gradient (an event not declared affine).
  double model_value(int mode, int function, double t, const Matrix& block) const;
  double model_rate(int mode, int function, double t, const Matrix& block);
  // Builds the expansion about block_ over the current interval for at least `columns`.
  void ensure_expansion(int mode, int columns);
  // h at t0 + tau within the current interval (the state from the interval's expansion,
  // left in point_), and the rate there (after value_at at the same tau).
  double value_at(int mode, int function, double t0, double tau);
  double rate_at(int mode, int function, double t0, double tau);
  // N as in run_sized.
  template <int N = 0>
  Reference start_reference(int mode, int event, double t0, double first_step, bool after_touch);
  Reference reference_later(int mode, int function, double t0, double first_step);
  Reference start_monitor_reference(int mode, int function, double t0, double first_step);
  // Where h keeps its sign at both ends of the interval but turns towards zero in between
  // (rates of opposite signs): false if the cubic Hermite interpolant shows it stays clear
  // of zero, else the turning point `at` (located) and h there.
  bool turning_point(int mode, int function, double t0, const Reference& ref, double tau1,
                     double h1, double r1, double& at, double& h_turn);
  bool find_bracket(int mode, int event, double t0, const Reference& ref, double tau1, double h1,
                    double r1, Bracket& bracket);
  // The roots of monitor `function` in the interval up to `until`, appended to roots_.
  void find_monitor_roots(int mode, int function, double t0, const Reference& ref, double tau1,
                          const Reference& end, double until);
  double locate(int mode, int function, double t0, const Bracket& bracket);
  // The coefficients c of a tracked function that is linear in the lifted state
  // (g = c . z: an affine event, a monitor), or null.
  const double* linear_coefficients(int function) const;
  void report_monitor(const MonitorRoot& root, int mode, double t0, FlowObserver& observer);
  // The tangent columns (the first columns_ of `tangent`, n rows) into a lifted block's
  // columns 1.. (zero forcing rows), and back.
  // N and C as in run_sized (N = 0: n_ and columns_).
  template <int N = 0, int C = 0>
  void load_tangent(const Matrix& tangent, Matrix& block) const;
  template <int N = 0, int C = 0>
  void store_tangent(const Matrix& block, Matrix& tangent) const;
  // Ends the run: state = the current scan point (block_ at t0), report says why.
  int fail(FlowState& state, double t0, FlowStatus status, std::string message,
           FlowReport& report) const;
  // The samples of the grid in (t_from, t_to], from the scan point block_ at t0. Inline
  // where there is no grid (a run without samples calls it at every scan step).
  void emit_samples(double t0, double t_from, double t_to, int mode, const SampleGrid& grid,
                    FlowObserver* observer) {
    if (observer && grid.step > 0.0) emit_grid_samples(t0, t_from, t_to, mode, grid, *observer);
  }
  void emit_grid_samples(double t0, double t_from, double t_to, int mode, const SampleGrid& grid,
                         FlowObserver& observer);
  // Crosses the whole scan steps from t0 in which EventFreeBound shows that no event
  // can occur (their states are those the scan would have computed: the same cached
  // products), updating t0, block_ and the references.
  template <int N, int C>
  void cross_clear_steps(int mode, double& t0, double t_end, double step, const SampleGrid& grid,
                         FlowObserver* observer, FlowReport& report);
  // How scan_two_states stopped: at a step for the general scan to examine (next_ holds
  // its end; ExamineAtEnds: a finite one, and ends_ the events' values and rates there,
  // the sums the general scan forms), or for the general scan to fail.
  enum class ScanStop { Examine, ExamineAtEnds, TooManySteps, Cancelled };
  // The largest number of events scan_two_states keeps in locals.
  static constexpr int kScanEvents = 4;
  // The scan of a mode of two states with C tangent columns, whose events are all affine,
  // with no monitors or samples to report: the event-free stretches (clear_steps: as
  // cross_clear_steps) and the scan steps by the cached transition in which no event
  // changes sign or turns towards its surface, with the block and the events' values and
  // rates in locals from step to step. Stops at the first step that needs more (a
  // change of sign, a turn, the run's last step, a step without its cached transition,
  // anything not finite), with that step taken (interval s from t0, `last` whether it
  // ends the run) into next_ and counted; block_, t0 and the references are the scan's
  // at its start. The same products in the same order as the general scan.
  template <int C>
  ScanStop scan_two_states(int mode, double& t0, double t_end, double step, bool clear_steps,
                           FlowReport& report, double& s, bool& last);

  // What covers() derives from the model for one mode: the events' directions and
  // coefficients, the monitors, the event-free bound. Kept while the model's revision
  // stands (HybridSystem::revision), so that a segment's start in a known mode costs an
  // integer compare instead of fetching and comparing the model's data.
  struct PreparedMode {
    bool ready = false;
    std::uint64_t revision = 0;
    bool covered = false;
    int events = 0;
    // Events declared affine (AffineModes::affine_event): h = c . z, dh/dt = (M^T c) . z.
    std::vector<char> affine_events;
    Matrix event_coefficients, rate_coefficients;  // (n + 3) x events
    // |M|^T |c| per affine event: (|M|^T |c|) . |z| = sum |c_i| |M_ik z_k|, the
    // magnitudes of the terms of its rate (lifted_event).
    Matrix rate_magnitudes;
    // Monitors: g = c . z, g' = (M^T c) . z, columns of these.
    std::vector<Monitor> monitors;
    Matrix monitor_coefficients, monitor_rates;
    std::vector<EventDirection> directions;  // of the tracked functions: events, monitors
    EventFreeBound bound;  // for its events when all are affine
    bool bounded = false;  // the bound exists
    bool affine = false;   // all its events are declared affine
    // The events' affine resets, R = (R_x, r / s) with s the forcing scale (R z = x+), by
    // event and outcome kind as the flow meets them.
    struct Reset {
      int event;
      EventKind kind;
      bool affine;
      Matrix lifted;  // n x (n + 3)
      // R_x = 0: the image does not depend on the state (sticking puts the body on the
      // base whatever its state was).
      bool forgets_state = false;
    };
    std::vector<Reset> resets;
  };
  // Fills `prepared` for `mode` from the model.
  void prepare(int mode, PreparedMode& prepared);
  // The mode's prepared data, prepared again if the model changed; null where the mode is
  // not on the exact path.
  PreparedMode* prepared_for(int mode);
  // The lifted affine reset of an event of a prepared mode, or null.
  const PreparedMode::Reset* lifted_reset(int mode, PreparedMode& prepared, int event,
                                          EventKind kind);

  const HybridSystem& system_;
  // The model's capabilities, looked up once; affine_ may be null (nothing is covered).
  const AffineModes* affine_;
  ModelJacobians jacobians_;
  FlowOptions options_;
  int n_;
  int columns_;
  bool sized_kernels_ = true;
  bool start_from_held_ = true;
  std::vector<ExactLinearFlow> flows_;
  AffineMode data_;
  Matrix block_, next_, point_, sample_;  // lifted blocks [z | Phi]
  Vector field_, gradient_;
  std::vector<Reference> references_, ends_;  // of the tracked functions
  int expanded_columns_ = 0;  // columns of the expansion about block_ over this interval
  std::vector<PreparedMode> prepared_modes_;  // per mode
  const PreparedMode* prepared_ = nullptr;    // the mode covers() last accepted
  std::uint64_t sized_for_ = 0;  // its revision when the work arrays were sized for it
  std::vector<MonitorRoot> roots_;  // found in the current interval
  std::vector<double> bound_values_, bound_rates_;
  double interval_ = 0.0;
  // Where the last run ended at an event, for crossing_saltation: z the lifted state.
  struct Crossing {
    int mode = -1, event = -1;
    double t = 0.0;
    std::uint64_t revision = 0;  // the model's, when the run found the crossing
    Vector z;
  } crossing_;
  Vector lifted_rate_;  // M z at the crossing
  // The state lifted_event holds (mode -1: none), with the model's revision it was
  // lifted at.
  struct HeldState {
    int mode = -1;
    const PreparedMode* prepared = nullptr;  // the mode's, prepared at `revision`
    std::uint64_t revision = 0;
    double t = 0.0;
    bool run_start = false;  // where a run ended: the next run may start from z
    RunClock clock{};        // of the run that ended there
    Vector z;
  } held_;
  // Holds z = block's state column at t in `mode`, the one the run follows, and the
  // run's clock. N as in run_sized.
  template <int N = 0>
  void hold(int mode, double t, const Matrix& block, const RunClock& clock);
  // block_'s state column = the held z with its forcing values turned back by its lead
  // to those of its t (w the forcing's frequency); false where the lead is too large.
  template <int N = 0>
  bool start_from_held(double frequency);
  // The held forcing values (cos, sin columns, in z's scale) turned back by w times the
  // clock's lead; false where the lead is too large.
  bool turn_back_held(double frequency, double& c, double& s) const;
  bool holds(int mode, double t, const Vector& x) const;
  // The held state after a reset from `mode`: (x+, the forcing values in next_mode's
  // scale), in next_mode (prepared as `next`).
  void hold_reset(int mode, int next_mode, const PreparedMode* next, const Vector& x_plus);
};

}  // namespace libcont::detail
