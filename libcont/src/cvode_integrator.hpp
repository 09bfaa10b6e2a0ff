#pragma once
// The one place where libcont touches SUNDIALS' integrators: RAII ownership of the CVODE
// handles and a checked wrapper of the calls the flow needs. Non-stiff modes go to CVODE's
// Adams with fixed-point iteration, or to the explicit Runge-Kutta pair (runge_kutta.hpp)
// where the model's hints ask for the explicit pair (integrator_hints.hpp) or
// IntegratorMethod::RungeKutta does;
// stiff ones to CVODE's BDF with a block-diagonal Newton solver (block_newton_solver.hpp).
// The instances are kept, so switching modes never reallocates. The integrated vector is
// the state x, followed (when the tangent flow is on) by the k columns of Phi and, if
// carried, dx/dp (FlowOptions::parameter_column).
#include <memory>
#include <string>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/integrator_hints.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"

struct _generic_N_Vector;
struct _generic_SUNLinearSolver;
struct _generic_SUNNonlinearSolver;
struct _SUNContext;

namespace libcont::detail {

struct SundialsDeleter {
  void operator()(_generic_N_Vector* v) const;
  void operator()(_generic_SUNLinearSolver* s) const;
  void operator()(_generic_SUNNonlinearSolver* s) const;
  void operator()(_SUNContext* c) const;
};
template <class T>
using SundialsHandle = std::unique_ptr<T, SundialsDeleter>;

struct CvodeMemoryDeleter {
  void operator()(void* mem) const;
};

// Right-hand side context handed to CVODE's C callbacks.
struct ModeContext {
  explicit ModeContext(const HybridSystem& model)
      : system(&model), jacobians(model), derivatives(model.parameter_derivatives()) {}
  const HybridSystem* system;
  // The model's capabilities, looked up once (the callbacks run in the inner loop).
  ModelJacobians jacobians;
  const ParameterDerivatives* derivatives;
  int mode = 0;
  int n = 0;
  // The state's leading coordinates whose rates are the next ones (q' = v), whose rows of
  // D_x f are [0, I, 0] (AnalyticJacobians::kinematic_rows).
  int kinematic_rows = 0;
  bool tangent = false;
  int columns = 0;  // integrated columns: the tangent's k, then dx/dp if carried
  // The model's id of the parameter p whose dx/dp is the last column (derivatives is then
  // not null), or -1.
  int parameter = -1;
  Vector df_dp;     // scratch D_p f, preallocated
  Matrix jacobian;  // scratch D_x f, preallocated
  // Root functions after the mode's events: extrema of coordinates, then minima of gaps.
  int events = 0;
  std::vector<int> extremum_coordinates;
  std::vector<int> gap_events;  // events of this mode whose function is a gap
  // Events whose turning points are watched (EventSpec::guard_turning_points).
  std::vector<int> guarded_events;
  Vector field, gradient;       // scratch, preallocated
};

// What a root found by CVODE stands for.
struct Root {
  // TurningPoint: a guarded event function turns towards its surface (no report; the
  // flow checks the step for a crossing).
  enum class Kind { Event, Extremum, GapMinimum, TurningPoint } kind;
  int index;  // event index, or coordinate, or the gap's or guarded event's index
};

class ExplicitRungeKutta;

class CvodeIntegrator {
 public:
  CvodeIntegrator(const HybridSystem& system, const FlowOptions& options);
  ~CvodeIntegrator();

  // (Re)starts the integration at (t, y) in `mode`: picks Adams or BDF, installs the mode's
  // event functions with their directions. initial_step = 0 lets CVODE choose the first
  // step. Throws nothing; returns false with message().
  // stiff: BDF whatever the mode and method (the fallback after a failed step).
  bool start(double t, const double* y, int mode, double initial_step = 0.0, bool stiff = false);
  // For the starts that follow: whether every monitor root is wanted, or (false) the path
  // alone, where the explicit pair locates its monitors only beside another root
  // (FlowObserver::wants_monitor_roots).
  void set_monitor_roots_wanted(bool wanted) { monitor_roots_wanted_ = wanted; }
  // Whether BDF integrates now (no fallback beyond it).
  bool on_stiff_integrator() const { return active_ == &bdf_; }
  // One internal step towards t_stop (never beyond it). Returns the CVODE flag.
  int step(double t_stop, double& t_reached);
  // Dense output of the last step at t (within it).
  bool interpolate(double t, double* y_out);
  const double* solution() const;
  // The mode's event functions at solution() and the time the last step returned, where
  // the integrator evaluated them there itself (the explicit pair,
  // ExplicitRungeKutta::event_values); null otherwise.
  const double* event_values() const;
  // The roots found by the last step that returned CV_ROOT_RETURN, events first.
  const std::vector<Root>& roots_found();
  long total_steps() const { return steps_before_ + current_steps(); }
  const std::string& message() const { return message_; }
  int size() const { return size_; }
  int tangent_columns() const { return mode_context_.columns; }  // k, then dx/dp if carried
  // The model's id of the parameter whose dx/dp is carried (the last column), or -1.
  int parameter() const { return mode_context_.parameter; }

 private:
  struct Instance {
    std::unique_ptr<void, CvodeMemoryDeleter> memory;
    SundialsHandle<_generic_SUNLinearSolver> linear_solver;
    SundialsHandle<_generic_SUNNonlinearSolver> nonlinear_solver;
  };
  bool check(int flag, const char* call);
  bool create(Instance& instance, bool stiff, double t, const double* y);
  long current_steps() const;
  int set_up_roots(int mode);
  double max_step() const;
  // The model's hint for a mode (Nonstiff without hints).
  ModeIntegration hint(int mode) const;
  // Whether a mode, if not stiff, goes to the Runge-Kutta pair (IntegratorMethod).
  bool uses_runge_kutta(int mode) const;

  const HybridSystem& system_;
  const IntegratorHints* hints_;  // the model's, looked up once; may be null
  FlowOptions options_;
  int size_;
  SundialsHandle<_SUNContext> context_;
  SundialsHandle<_generic_N_Vector> y_, tolerances_, dense_;
  Instance adams_, bdf_;
  Instance* active_ = nullptr;
  std::unique_ptr<ExplicitRungeKutta> runge_kutta_;
  bool runge_kutta_active_ = false;
  bool monitor_roots_wanted_ = true;
  ModeContext mode_context_;
  std::vector<int> root_directions_, root_info_;
  std::vector<Root> roots_;
  long steps_before_ = 0;
  std::string message_;
};

}  // namespace libcont::detail
