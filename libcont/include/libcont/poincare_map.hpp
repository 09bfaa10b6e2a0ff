#pragma once
// The stroboscopic Poincare map of a T-periodically forced hybrid system:
// P(x) = x(t0 + T) on the section t = t0 (mod T), its n-th iterate, and the
// saltation-corrected Jacobian D P^n = Phi(t0 + nT), with the measures of the path
// (impact signature p, amplitudes of the displacement coordinates, minimum gap).
#include <memory>

#include "libcont/flow.hpp"
#include "libcont/orbit_measures.hpp"

namespace libcont {

struct MapEvaluation {
  Vector x;         // P^n(x0)
  Matrix jacobian;  // D P^n(x0), saltation-corrected; empty unless asked for
  // D_p P^n(x0) with the Jacobian when the options carry p (FlowOptions::parameter_column),
  // else empty.
  Vector parameter_derivative;
  int impacts = 0;  // hard impacts and soft-contact entries along the n periods
  OrbitMeasures measures;  // along the n periods
  int mode = 0;     // mode at the end
  FlowReport report;
  bool ok() const { return report.status == FlowStatus::Success; }
};

class StroboscopicMap {
 public:
  // phase: t0 of the section. The system must be forced (forcing_period() > 0). The
  // flow monitors the extrema of the system's displacement coordinates and gap minima.
  StroboscopicMap(const HybridSystem& system, FlowOptions options = {}, double phase = 0.0);
  ~StroboscopicMap();

  MapEvaluation iterate(ConstVectorRef x, int n, bool with_jacobian = true);
  // P^n(x) alone (x, mode and report; no measures, impacts or Jacobian): the same to the
  // bit as iterate(x, n, false), with less work where the explicit pair integrates
  // (FlowObserver::wants_monitor_roots). For the corrector's residuals.
  MapEvaluation image(ConstVectorRef x, int n);
  // image() integrated at `relative_tolerance` instead of the options' own, for residuals
  // that need less accuracy than the map (set_residual_tolerance; by default the same).
  MapEvaluation residual_image(ConstVectorRef x, int n);
  void set_residual_tolerance(double relative_tolerance);
  // Whether residual_image() is image() (the same tolerance, or no mode integrated).
  bool residual_is_image() const { return !residual_; }
  // The tangent-flow product D P^n(x) v (one tangent column integrated along the path),
  // for matrix-free eigenvalue solvers. False (with report) if the flow fails.
  bool apply_jacobian(ConstVectorRef x, int n, ConstVectorRef v, Vector& product,
                      FlowReport& report);
  // Read from the system at every use: continuation may change the forcing frequency.
  double period() const { return system_.forcing_period(); }
  double phase() const { return phase_; }
  // Moves the section to t = phase (mod T); PeriodicOrbitProblem keeps it off events.
  void set_phase(double phase) { phase_ = phase; }
  const HybridSystem& system() const { return system_; }

 private:
  const HybridSystem& system_;
  double phase_;
  // Advances state by n periods, adding up the work in report; stops at a failure.
  void advance_periods(Flow& flow, FlowState& state, int n, FlowObserver* observer,
                       FlowReport& report) const;
  MapEvaluation image_by(Flow& flow, ConstVectorRef x, int n) const;

  FlowOptions plain_options_;
  double residual_tolerance_ = 0.0;  // the last set_residual_tolerance()
  std::unique_ptr<Flow> plain_, tangent_, product_;
  std::unique_ptr<Flow> residual_;  // none: residual_image() is image()
};

// The trajectory through x at t = from, followed forward to the first t = to (mod nT)
// at or after `from`: a point of a z = p/n orbit on one stroboscopic section carried to
// another. False (with x_to unchanged) if the flow fails.
bool follow_to_section(const HybridSystem& system, const FlowOptions& options, ConstVectorRef x,
                       double from, double to, Vector& x_to, int n = 1);

}  // namespace libcont
