#pragma once
// Lyapunov spectrum of a nonsmooth system by Mueller's method (doc/theory.md, 5): Benettin's
// algorithm (tangent flow of n vectors, QR re-orthonormalisation, average of log stretch
// factors) with the tangent vectors mapped through the saltation matrix at every event.
// Also returns the settled motion's type z = p/n and the impact statistics a_i, a_e, v_r.
#include <functional>
#include <limits>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/impact_statistics.hpp"

namespace libcont {

struct LyapunovOptions {
  int transient_periods = 1000;  // forcing periods integrated before averaging
  int periods = 1000;            // forcing periods averaged over
  int max_detected_period = 16;  // largest n tried for z = p/n
  double period_tolerance = 1e-6;
  // The averaging periods are cut into this many batches of equal length (the remainder,
  // fewer periods than one batch, counts towards the exponents only); the spread of the
  // batches' exponents gives each exponent's standard error (batch means). At least 2.
  int batches = 20;
  // Time unit for autonomous systems (forcing_period() == 0).
  double autonomous_period = 1.0;
  FlowOptions flow;  // tangent is switched on for the averaging phase
  // Called after each period, transient and averaging alike, with the periods done and
  // the periods in all (transient_periods + periods); none by default. It observes only:
  // the integration is the same with or without it.
  std::function<void(int done, int total)> progress;
};

struct LyapunovResult {
  Vector exponents;               // descending; -inf where sticking collapsed the tangent
  double exponent_sum = 0.0;      // average phase-volume contraction rate
  // Standard errors by batch means (LyapunovOptions::batches), in the exponents' order:
  // the spread of the exponents of the batches divided by the square root of their number.
  // It measures how far the average still moves with the motion's fluctuations, not the
  // bias of a finite average (at a periodic orbit, the tangent's slow alignment). NaN
  // where fewer than two batches were completed or an exponent is -inf.
  Vector exponent_errors;
  double exponent_sum_error = std::numeric_limits<double>::quiet_NaN();
  int batches = 0;                // the batches completed
  int p = 0;                      // impacts per n periods of the settled motion
  int n = 0;                      // period in forcing periods; 0 if not periodic
  double impacts_per_period = 0;  // a_i
  double energy_per_period = 0;   // a_e
  ImpactStatistics impacts;       // of the averaging phase
  // x(t0 + kT) over the averaging phase, column k - 1 for period k: one block for all
  // (a Vector per period cost a heap allocation per period).
  Matrix poincare_samples;
  FlowState final_state;          // last good state
  FlowReport report;
  double averaging_time = 0.0;
  bool ok() const { return report.ok(); }
};

class LyapunovSpectrum {
 public:
  LyapunovSpectrum(const HybridSystem& system, LyapunovOptions options = {});
  // From x0 at time t0 (t0 is the Poincare section phase).
  LyapunovResult compute(double t0, ConstVectorRef x0) const;

 private:
  const HybridSystem& system_;
  LyapunovOptions options_;
};

}  // namespace libcont
