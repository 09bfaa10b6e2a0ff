#pragma once
// Brute-force bifurcation diagram (doc/sweeps.md): for each value of one parameter, a
// transient, then the quantities of the settled motion — Poincare samples, z = p/n,
// a_i, a_e, the relative velocities at impact and the Lyapunov spectrum (one
// LyapunovSpectrum run per point).
//
// A second swept parameter (SweepOptions::second_parameter) makes the sweep a grid
// p1 x p2, the brute-force parameter-plane map: each value of p2 is one row, swept along
// p1 exactly as a one-parameter sweep is (doc/sweeps.md, "Grids"). Each cell is a
// SweepPoint; SweepPoint::regime() and largest_exponent() are what a map colours it by.
//
// Each point starts either from fixed initial conditions, or from the previous point's
// final state (following the attractor, so that hysteresis shows when sweeping up and
// down; in a grid, along p1 within each row). Several initial conditions per point
// expose coexisting attractors.
//
// What runs in parallel (SweepOptions::threads): independent chains. Following the
// attractor makes the points of one (direction, initial condition, grid row) chain
// sequential, so such a sweep has one task per chain; with fixed initial conditions every
// point is a task of its own. A point's numbers depend only on its system, parameter
// values, start state and options, never on the thread or the order: results are
// bit-identical to the serial run whatever the thread count (and whatever the split over
// processes, SweepOptions::partition).
#include <limits>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "libcont/lyapunov_spectrum.hpp"

namespace libcont {

enum class SweepDirection { Up, Down, Both };

// How a point was reached: by sweeping up or down while following the attractor, or
// from fixed initial conditions (where the direction changes nothing).
enum class SweepPass { Up, Down, Fixed };
std::string to_string(SweepPass pass);

// Which point: pass, initial condition, the grid index of the swept parameter (0 = its
// lowest value) and, in a grid, that of the second parameter (its row; 0 = its lowest
// value, and always 0 in a one-parameter sweep).
struct SweepPointKey {
  SweepPass pass = SweepPass::Fixed;
  int initial_condition = 0;
  int index = 0;
  int second_index = 0;
  friend bool operator==(const SweepPointKey&, const SweepPointKey&) = default;
};

struct SweepOptions {
  std::string parameter;     // any named parameter of the system
  double from = 0.0, to = 0.0;
  int steps = 2;             // parameter values, both ends included (1: just `from`)
  // A grid: the second parameter's `second_steps` values from `second_from` to
  // `second_to` (both ends included, evenly spaced); empty name: a one-parameter sweep.
  // `direction` and following the attractor act along the first parameter, row by row.
  std::string second_parameter;
  double second_from = 0.0, second_to = 0.0;
  int second_steps = 1;
  SweepDirection direction = SweepDirection::Up;
  // Start each point from the previous point's final state (following the attractor);
  // false: every point from the initial conditions.
  bool follow_attractor = false;
  // Initial conditions, each a full state; empty: the system's default_initial_state().
  std::vector<Vector> initial_states;
  double phase = 0.0;        // t0 of the Poincare section t = t0 (mod T)
  LyapunovOptions lyapunov;  // transient and averaged periods, largest n, flow options
  int kept_samples = 100;    // last Poincare samples and impact velocities kept per point
  int threads = 1;
  // Distributed runs: this process computes only the tasks t with
  // t % partition_size == partition_rank (MPI ranks, say); the others are left out.
  int partition_rank = 0, partition_size = 1;

  bool grid() const { return !second_parameter.empty(); }
};

// What a sweep point's settled motion is, as a parameter-plane map colours it.
enum class SweepRegime {
  Periodic,     // z = p/n with n up to the largest period tried
  Chaotic,      // no period found and a positive largest exponent
  NonPeriodic,  // no period found, largest exponent <= 0 (quasi-periodic, or not settled)
  Failed,       // the integration failed
};
// "periodic", "chaotic", "non-periodic", "failed".
std::string to_string(SweepRegime regime);

struct SweepPoint {
  SweepPointKey key;
  double parameter = 0.0;
  double second_parameter = 0.0;  // its value in a grid (0 in a one-parameter sweep)
  FlowStatus status = FlowStatus::Success;
  std::string message;           // of a failed point
  Vector exponents;              // Lyapunov spectrum, descending
  double exponent_sum = 0.0;
  // Their standard errors by batch means (LyapunovResult::exponent_errors), NaN where none.
  Vector exponent_errors;
  double exponent_sum_error = std::numeric_limits<double>::quiet_NaN();
  int p = 0, n = 0;              // z = p/n; n = 0: not periodic within max_detected_period
  double impacts_per_period = 0; // a_i
  double energy_per_period = 0;  // a_e
  VelocitySummary velocities;    // of every impact of the averaging phase
  int averaged_periods = 0;
  std::vector<Vector> samples;   // the last kept Poincare samples x(t0 + kT)
  std::vector<double> impact_velocities;  // the last kept relative velocities at impact
  Vector final_state;            // where a following chain goes on from
  // Steps retried on BDF (FlowReport::fallbacks) and the time of the first, NaN if none.
  long fallbacks = 0;
  double first_fallback_time = std::numeric_limits<double>::quiet_NaN();
  bool ok() const { return status == FlowStatus::Success || status == FlowStatus::TerminalEvent; }
  // No period up to the largest n tried and a positive largest exponent.
  bool chaotic() const { return ok() && n == 0 && exponents.size() > 0 && exponents[0] > 0.0; }
  // Failed unless ok(); else periodic if n > 0, chaotic(), or non-periodic.
  SweepRegime regime() const;
  // lambda_1, NaN when the point has no exponents (it failed before the averaging).
  double largest_exponent() const;
  // Chaotic, with lambda_1 within three of its standard errors of 0: the average cannot
  // tell it from a quasi-periodic motion or a long transient (n beyond max_detected_period).
  bool chaos_within_error() const;
};

// How the points of a sweep came out; SweepResult::message says it in words.
enum class SweepStatus {
  Complete,      // every point there, none failed
  PointsFailed,  // the integration of some point failed (SweepPoint::status), whether or not
                 // every point is there (SweepResult::complete)
  Stopped,       // none failed, but the sweep stopped before every point was computed
};
// "complete", "points failed", "stopped".
std::string to_string(SweepStatus status);

struct SweepResult {
  std::vector<SweepPoint> points;  // in plan() order; only this partition's points
  int computed = 0;                // points computed by this run
  int reused = 0;                  // points taken from `finished`
  SweepStatus status = SweepStatus::Stopped;
  // The status in words: how many points failed and the first failure (its parameter
  // value, flow status and message), or that points are missing; empty when complete.
  std::string message;
  bool complete = false;           // every point of this partition is in `points`
  int failed() const;              // points whose integration failed
};

// The status, message and `complete` of `result` for its points, out of the `planned` ones
// (Sweep::plan() or this partition's), in the swept `parameter` (and `second_parameter`
// of a grid, empty otherwise: the message names where the first failure was). Sweep::run
// judges its own partition so; a distributed run judges the points gathered from all
// processes so.
void judge_sweep(SweepResult& result, size_t planned, const std::string& parameter,
                 const std::string& second_parameter = "");

// Makes a fresh, fully configured copy of the system (all parameters set except the swept
// one, which the sweep sets). Each point gets its own copy, so threads share nothing.
// Called under a lock: it need not be thread-safe.
using SystemFactory = std::function<std::unique_ptr<HybridSystem>()>;

class Sweep {
 public:
  // Validates the options (InputError naming the item): the parameter exists and takes
  // both end values, the initial states have the system's dimension, counts are sane; in
  // a grid, the second parameter exists, is not the first and takes both its end values.
  Sweep(SystemFactory factory, SweepOptions options);

  // Every point of the sweep in output order: passes (up, then down; or fixed), then
  // initial conditions, then grid rows (the second parameter upwards; one row in a
  // one-parameter sweep), then the parameter in the direction of the pass.
  std::vector<SweepPointKey> plan() const;
  // The points of task t (one chain, or one point), in order; tasks are numbered in
  // plan() order.
  std::vector<std::vector<SweepPointKey>> tasks() const;
  // The tasks this process computes: task t when t % partition_size == partition_rank.
  std::vector<std::vector<SweepPointKey>> partition_tasks() const;
  double parameter_value(int index) const;
  // The second parameter's value in grid row `second_index` (0 in a one-parameter sweep).
  double second_parameter_value(int second_index) const;

  // Called as each point is computed, one call at a time (never concurrently), in the
  // order they finish. Returning false stops the sweep: no new point starts; points
  // already running finish and are still reported.
  using PointCallback = std::function<bool(const SweepPoint&)>;

  // Computes this partition's points. `finished` holds points computed before (a
  // checkpoint): they are not computed again, and a following chain goes on from the
  // final state of such a point exactly as if it had just been computed.
  SweepResult run(const std::vector<SweepPoint>& finished = {},
                  const PointCallback& on_point = {}) const;

  // One point from a given start state (what run() does for each point).
  SweepPoint compute_point(const SweepPointKey& key, ConstVectorRef start) const;

  const SweepOptions& options() const { return options_; }

 private:
  Vector initial_state(int initial_condition) const;
  std::vector<SweepPass> passes() const;

  SystemFactory factory_;
  SweepOptions options_;
  int dimension_ = 0;
  Vector default_state_;
  mutable std::mutex factory_mutex_;
};

}  // namespace libcont
