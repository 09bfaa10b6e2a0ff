#pragma once
// An embedded explicit Runge-Kutta pair for non-stiff modes: Verner's 6(5) pair, 8 stages,
// the 6th-order solution propagated (its coefficients are SUNDIALS ARKODE's table
// ARKODE_VERNER_8_5_6, loaded from the library). One step method, so nothing to restart
// after an event: where CVODE's Adams climbs back from order 1 after every event and loses
// its high orders on motions that are not smooth to high order, such as a Hertz contact
// (force ~ z^(3/2), whose fourth derivative is singular where the contact begins), this
// pair takes large steps at once (two-body Hertz: a third of Adams' steps per period, at
// a smaller monodromy error).
//
// Why not Fehlberg's 7(8) pair (ARKODE_FEHLBERG_13_7_8, which this class used first): its
// error estimate h 41/840 (k1 + k11 - k12 - k13) vanishes where f depends on t alone
// (stages 11 and 12 repeat the nodes t and t + h of stages 1 and 13), and the tangent
// through a Hertz contact, Phi' = J(t) Phi with J following the contact, is nearly such a
// component: the estimate underrated its error, and the monodromy came out 7e-7 to 2e-5
// wrong per period at rtol 1e-11 (two-body, lambda = 0.6 .. 3; Adams 7e-9 to 5e-7, this
// pair 2.5e-8 to 3.8e-8), erratically with the step pattern.
//
// Root finding as CVODE's: root functions with directions are checked at the ends of
// each step and a root is located on the dense output to rounding in time, returned on
// its far side; the dense output re-steps from the step's start (exact to the method's
// order), and the state returned at a root is integrated to it by controlled steps.
// Functions that start at zero count from the side they move to.
#include <string>
#include <vector>

#include "libcont/types.hpp"

struct ARKodeButcherTableMem;

namespace libcont::detail {

// A linear combination of the stages: sum of weight[m] k_{stage[m]}.
struct StageCombination {
  std::vector<int> stage;
  std::vector<double> weight;
};

class ExplicitRungeKutta {
 public:
  // f: dy/dt, false where it is not finite; g: the root functions, those asked for by
  // `which`: kAllRoots, kWithoutMonitors (all but the monitors of start()), or the index of
  // one function. Those not asked for may be left as they are.
  using Field = bool (*)(void* context, double t, const double* y, double* dydt);
  using RootFunctions = void (*)(void* context, double t, const double* y, double* g, int which);
  static constexpr int kAllRoots = -1, kWithoutMonitors = -2;

  ExplicitRungeKutta(int size, Vector absolute_tolerances, double relative_tolerance,
                     double max_step);
  ~ExplicitRungeKutta();
  ExplicitRungeKutta(const ExplicitRungeKutta&) = delete;
  ExplicitRungeKutta& operator=(const ExplicitRungeKutta&) = delete;

  // directions: per root function, +1 rising, -1 falling, 0 either. The first `events`
  // functions are events, where the field may lose smoothness (a contact's end): the state
  // at their roots is integrated to by graded steps. The others are monitors of a smooth
  // motion (extrema, gap minima), whose states the dense output gives to the method's order.
  // root_time: integrate in s = sqrt(t - t_start) instead of t, for a start where the
  // field is singular like sqrt(t - t_start) in its derivatives: a Hertz contact's
  // stiffness 3/2 K z^(1/2) as the contact begins, which the tangent meets in its own
  // field. Smooth in s, the stages then cost the singularity nothing; in t the tangent's
  // first step had an error growing like h^(3/2) (a first step of 1e-11 s, each next one
  // 1.1 times longer: a third of a contact's steps). Times seen from outside stay t.
  // monitors > 0: the `monitors` functions right after the events are located only in a
  // step where another function (an event, a turning point) changes sign too, for a
  // caller that wants the path and not their roots (find_root says why the path stays the
  // same to the bit).
  void start(double t, const double* y, double step_guess, Field f, RootFunctions g,
             void* context, const std::vector<int>& directions, int events,
             bool root_time = false, int monitors = 0);

  enum class Result { Step, StopTime, Root, Failure };
  // One step towards t_stop (never beyond it), or the next root inside the last one.
  Result step(double t_stop, double& t_reached);
  // The solution at t inside the last step.
  bool interpolate(double t, double* y);
  const double* solution() const { return returned_.data(); }
  // The events' root functions (the first `events` of start()) at solution() and the time
  // the last Step or Root result reported, as the pair evaluated them there for its own
  // sign tests; null where it did not (a stop time, reported as given rather than as the
  // pair's own time, which may differ from it in its last bits).
  const double* event_values() const { return event_values_known_ ? g_reference_.data() : nullptr; }
  // Nonzero for the functions with a root at the time the last Root result returned.
  const std::vector<int>& root_info() const { return root_info_; }
  long steps() const { return steps_; }  // accepted since start()
  long rejected_steps() const { return rejected_; }  // since start()
  const std::string& message() const { return message_; }

 private:
  // Inside, times count from the start (origin_), in root time as its square root: a
  // step far below the rounding of the absolute time can then still be taken, as a Hertz
  // contact's onset asks late in a long run (t = 2671: 16 ulps of t are 9.5e-12, the
  // onset wanted less, and every contact fell back on BDF). The field and the root
  // functions see the absolute time.
  double absolute(double local) const { return origin_ + (root_time_ ? local * local : local); }
  double local(double t) const;
  bool field(double t, const double* y, double* dydt);  // dy/dt at the step time t
  // dt/du at the step time t; inline: every stage asks, and mostly outside root time (1).
  double rate(double t) const {
    if (!to_root_) return root_time_ ? 2.0 * t : 1.0;
    return rate_towards_root(t);
  }
  double rate_towards_root(double t) const;  // rate() inside integrate_to
  double local_towards_root(double u) const;  // the local time at u inside integrate_to
  double absolute_at(double t) const {  // the absolute time at the step time t
    return absolute(to_root_ ? local_towards_root(t) : t);
  }
  void roots(double t, const double* y, double* g, int which = kAllRoots) {
    g_(context_, absolute(t), y, g, which);
  }
  // The functions at the step's end: without the monitors where they are located only
  // beside another root (end_monitors_known_ says whether g_end_ holds them).
  void roots_at_step_end();
  // Completes the monitors' values at the reference and at the step's end.
  void complete_monitors();
  double step_limit(double t) const;
  bool interpolate_local(double t, double* y);
  Result step_local(double t_stop, double& t_reached);
  bool stages(double t, const double* y, double h, double* y_out, double* error);
  template <int N>
  bool stages_of_size(double t, const double* y, double h, double* y_out, double* error);
  double error_norm(const double* y0, const double* y1, const double* error) const;
  double initial_step(const Vector& f) const;  // f at the start
  bool find_root(double& t_root);
  // Whether function i changes sign in its direction from the reference to the step's end.
  bool changes_sign(size_t i) const;
  // Whether function i is a monitor that this step may leave unlocated.
  bool skippable_monitor(size_t i) const {
    return static_cast<int>(i) >= events_ && static_cast<int>(i) < events_ + monitors_;
  }
  bool controlled_step(double& t, Vector& y, const Vector& f, double& h, double t_stop);
  bool integrate_to(double t_root, Vector& y);

  int size_;
  Vector atol_;
  double rtol_, max_step_;
  const ARKodeButcherTableMem* table_;
  Field f_ = nullptr;
  RootFunctions g_ = nullptr;
  void* context_ = nullptr;
  std::vector<int> directions_;
  int events_ = 0;  // the leading root functions that are events
  // The functions after the events that are monitors located only beside another root
  // (start(): monitors); 0: every function is located wherever it changes sign.
  int monitors_ = 0;
  bool root_time_ = false;  // local times are s = sqrt(t - origin_), not t - origin_
  // Inside integrate_to: step times are u = sqrt(root_end_ - t0_) - sqrt(root_end_ - t), t the
  // local time, from 0 to root_span_ = sqrt(root_end_ - t0_).
  bool to_root_ = false;
  double root_end_ = 0.0, root_span_ = 0.0;
  // The last accepted step [t0, t1]; k_ holds the stages (column i: stage i), f0 = column 0.
  double origin_ = 0.0;  // the absolute time of the start; the times below count from it
  double t0_ = 0.0, t1_ = 0.0, h_ = 0.0;
  double start_time_ = 0.0, first_step_ = 0.0;  // of the grading away from the start
  Vector y0_, y1_, f0_, f_start_, f_root_, y_new_, scratch_, scratch_root_, error_;
  Matrix k_;
  std::vector<double> rates_;  // per stage: dt/du, by which the stage sums scale k_
  // The table's nonzero weights: per stage i (a_ij), of the solution (b), of the error (b - d).
  std::vector<StageCombination> stage_terms_;
  StageCombination solution_terms_, error_terms_;
  Vector returned_;  // what solution() reports: y(t1), or y at a returned root
  // Root functions at the reference time (the step's start, or the last returned root)
  // and at the step's end; whether a root remains to be looked for in (reference, t1].
  double t_reference_ = 0.0;
  Vector g_reference_, g_end_, g_mid_;
  // Whether the monitors' values in g_reference_ and g_end_ are current (always without
  // monitors_; else they are evaluated only for a step that holds another root).
  bool reference_monitors_known_ = true, end_monitors_known_ = true;
  bool inside_step_ = false;  // a root was returned inside [t0, t1]: check the rest first
  bool event_values_known_ = false;  // event_values(): g_reference_ at the reported state
  std::vector<int> root_info_;
  std::vector<double> root_times_;
  long steps_ = 0, rejected_ = 0;
  // The last accepted step of the current sequence and its error norm (0: none yet), for
  // the predictive step proposal.
  double previous_step_ = 0.0, previous_error_ = 1.0;
  std::string message_;
};

}  // namespace libcont::detail
