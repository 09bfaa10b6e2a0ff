#pragma once
// The exact path's loop for the commonest vibro-impact model: one degree of freedom (two
// states) in an affine mode with the closed form and no real pair of rates (an
// underdamped or critically damped oscillator under harmonic forcing), with one affine
// event falling onto its surface whose impact resets the state affinely back into the
// same mode. Between impacts the state is the periodic particular solution plus a free
// deviation, x = Pi q + y (q = (1, cos w t, sin w t)), y(t0 + s) = E(s) y(t0) with E the
// 2 x 2 closed form; the gap h = c_x . y + gamma . q is scanned in the exact path's steps
// by the step's E and the forcing's rotation, its crossing solved by the general path's
// bracketed Newton on the same closed form, the state and the tangent at the crossing
// formed from the flight's start by one E, and the impact applied as the general path
// applies it to its lifted state: the model's outcome from the lifted rate, the affine
// reset, the gap closed on the surface, the saltation matrix from the reset.
//
// Only clear cases are taken: a flight that starts clearly off the surface or clearly
// leaving it, a crossing whose rate is clear of rounding, an outcome the model decides
// from that rate as an impact back into the mode, a rebound clearly leaving, no turn
// towards the surface that the Hermite screen cannot clear, nothing non-finite. Anything
// else (a dip that may graze, a slow impact that may stick, a hop back within the first
// scan step after an impact, the budgets, a cancel) hands the flight back to the general
// path from its start, which takes it with all its checks. The results agree with the
// general path's to rounding (tests/test_clear_impact_loop.cpp); the loop exists for
// speed: per impact it forms a few numbers where the general path lifts its state and
// checks it several times (doc/performance.md, benchmark 1b).
#include <cmath>
#include <cstdint>
#include <limits>

#include "libcont/exact_linear_flow.hpp"
#include "libcont/flow.hpp"

namespace libcont::detail {

class ClearImpactLoop {
 public:
  // tangent: whether the states carry the full 2 x 2 tangent (no parameter column).
  ClearImpactLoop(const HybridSystem& system, const FlowOptions& options, bool tangent);

  // Whether the loop serves `mode` (its data taken again where the model's parameters
  // changed).
  bool serves(int mode);

  enum class Stop { ReachedEnd, HandOver };
  // From `state` (in a mode serves() accepted) towards t_end. ReachedEnd: state at t_end.
  // HandOver: state at the start of the flight the general path is to take (the state
  // given where that is the first). Impacts go to the observer and count in
  // report.events, scan steps in report.steps; the hand-overs are counted (hand_overs()).
  // The samples of `grid` within a flight the loop takes go to the observer from the
  // flight's closed form, before the impact that ends it.
  Stop run(FlowState& state, double t_end, FlowObserver* observer, const SampleGrid& grid,
           FlowReport& report);

  long hand_overs() const { return hand_overs_; }

 private:
  // What serves() takes from the model for the mode, in the model's units.
  struct ModeData {
    int mode = -1;
    std::uint64_t revision = 0;
    bool served = false;
    double w = 0.0, step = 0.0;
    double A[4], B[6], P[6];  // column-major: A, (b0, b_cos, b_sin), Pi (x_p = P q)
    double cx[2], cq[3];      // h = cx . x + cq . q
    double gamma[3];          // P^T cx + cq: h = cx . y + gamma . q
    double rc[2];             // A^T cx: h' = rc . y + gamma . q'
    double R[10];             // the impact's reset x+ = R (x, q), column-major 2 x 5
    double lifted_c[5];       // (cx, cq / s): the event in the lifted state's scale
    double forcing_scale = 1.0;
    double E_step[4], cos_step = 1.0, sin_step = 0.0;
    // A jump over kJumpSteps steps where the gap cannot fall to the surface within it: E
    // and the rotation over the jump, and the terms of the bound on the gap's rate,
    // |h'| <= |rc . u| + |rs . u| + rate_forcing with rs = (A + mu I)^T rc / nu (jumps:
    // false where that bound does not hold, a growing deviation, mu < 0, or nu = 0).
    bool jumps = false;
    double E_jump[4], cos_jump = 1.0, sin_jump = 0.0;
    double rs[2], rate_forcing = 0.0;
  };
  // Two steps: fewer instructions than longer jumps, which a gap allows less often, and
  // than single ones, which save only the checks (doc/performance.md, eighteenth block).
  static constexpr int kJumpSteps = 2;
  // Fills m_ for `mode` from the model; false where the loop cannot serve it.
  bool prepare(int mode);
  // Takes the flight from `state` up to its impact (state just after it) or to t_end;
  // HandOver leaves state unchanged. last_event_time: the run's last impact (a storm is
  // looked for within one run).
  enum class Flight { Impact, End, HandOver };
  Flight fly(FlowState& state, double t_end, FlowObserver* observer, const SampleGrid& grid,
             FlowReport& report, double& last_event_time);
  // The grid's samples in (t0, t1] of the flight from (t0, deviation y0).
  void emit_samples(double t0, double y0, double y1, double t1, const SampleGrid& grid,
                    FlowObserver& observer);

  // cos and sin of w t, kept for the last t asked (a flight starts where the last one
  // ended, at its crossing or at the run's end, whose phase it formed).
  void phase(double t, double& c, double& s) {
    if (t != phase_t_) {
      phase_t_ = t;
      phase_cos_ = std::cos(m_.w * t);
      phase_sin_ = std::sin(m_.w * t);
    }
    c = phase_cos_;
    s = phase_sin_;
  }

  const HybridSystem& system_;
  const AffineModes* affine_;
  FlowOptions options_;
  bool tangent_;
  ExactLinearFlow flow_;
  AffineMode data_;
  ModeData m_;
  Vector coefficients_;
  Matrix reset_;
  EventRecord record_;
  Vector sample_;
  double phase_t_ = std::numeric_limits<double>::quiet_NaN(), phase_cos_ = 1.0, phase_sin_ = 0.0;
  long hand_overs_ = 0;
};

}  // namespace libcont::detail
