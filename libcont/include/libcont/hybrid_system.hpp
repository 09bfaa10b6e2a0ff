#pragma once
// A hybrid (piecewise-smooth) dynamical system (doc/theory.md, 1): state x in R^n, time t, named
// parameters, modes with smooth vector fields, event functions h_j(t, x) that fire on a
// zero crossing in a stated direction, and at an event a reset map x+ = g(t, x-) and/or a
// change of mode. A model implements this interface once; the flow, the Poincare maps,
// shooting and the Lyapunov spectrum all work on it.
//
// Jacobians: a model may give them analytically; by default they are derived by central
// finite differences (see autodiff_system.hpp for exact derivatives by Eigen AutoDiff).
#include <string>
#include <vector>

#include "libcont/parameters.hpp"
#include "libcont/types.hpp"

namespace libcont {

// Sign of the crossing that fires an event: Falling fires when h goes from + to -.
enum class EventDirection { Falling = -1, Either = 0, Rising = 1 };

// What an event means physically; used for impact statistics (doc/theory.md, 8) and reports.
enum class EventKind {
  Impact,        // hard impact: a velocity jump by a restitution law
  ContactStart,  // soft contact begins (mode switch, no jump)
  ContactEnd,    // soft contact ends
  StickStart,    // sticking begins (chattering sequence ended)
  StickEnd,      // sticking ends: the contact force would turn tensile
  ModeSwitch,    // any other switch
  Terminal       // integration stops here
};

struct EventSpec {
  std::string name;
  EventDirection direction = EventDirection::Falling;
  EventKind kind = EventKind::ModeSwitch;
  // The event function may cross zero and come back within one integrator step: a
  // turning point just beyond the surface (a slider that barely yields, a bounce that
  // barely reaches a bumper). Root finding sees only signs at step ends, so the flow then
  // also stops at the function's turning points towards the surface and finds such a
  // brief crossing there.
  bool guard_turning_points = false;
};

// What applying an event did. `kind` may differ from the event's spec: a hard impact
// whose rebound is too slow to separate becomes StickStart (chattering: doc/theory.md, 4).
struct EventOutcome {
  int next_mode = 0;
  EventKind kind = EventKind::ModeSwitch;
  bool terminal = false;
};

// A mode whose vector field is affine in the state with constant and harmonic forcing,
//   x' = A x + b0 + b_cos cos(w t) + b_sin sin(w t),
// has a flow known in closed form (exact_linear_flow.hpp); Flow then needs no integrator
// between events. A, b0, b_cos, b_sin are n x n and n; w >= 0 (b_cos, b_sin unused at 0).
struct AffineMode {
  Matrix A;
  Vector b0, b_cos, b_sin;
  double frequency = 0.0;  // w
};

class HybridSystem {
 public:
  virtual ~HybridSystem() = default;

  virtual std::string name() const = 0;
  virtual std::vector<std::string> state_names() const = 0;
  int dimension() const { return static_cast<int>(state_names().size()); }
  virtual int mode_count() const { return 1; }
  virtual std::string mode_name(int mode) const { return "mode " + std::to_string(mode); }
  // Stiff modes (stiff contact springs) are integrated by BDF, the others by Adams,
  // except those a model calls brief and rough: entered and left every forcing period and
  // smooth only to low order, such as a Hertz contact (force ~ z^(3/2)). Adams restarts
  // from order 1 at every entry and stays at low order there; such modes go to the
  // explicit Runge-Kutta pair (IntegratorMethod::Auto), which does not restart.
  virtual bool is_stiff(int /*mode*/) const { return false; }
  virtual bool is_brief_and_rough(int /*mode*/) const { return false; }
  // Period of the external forcing, 0 for an autonomous system.
  virtual double forcing_period() const { return 0.0; }

  const ParameterSet& parameters() const { return parameters_; }
  // Sets one parameter by name (validated, InputError naming it) and re-derives the model
  // (configure). A value the model's rules refuse, or one that leaves the forcing period
  // not finite, throws InputError naming it, and the old value is kept.
  void set_parameter(std::string_view name, double value);
  void set_parameter_text(std::string_view name, std::string_view text);
  // Several parameters from text, in order, the model re-derived once at the end: rules
  // that relate parameters (a second length below the first) are checked on the final set
  // only, so that their order does not matter. On any error nothing changes; a value bad
  // on its own is named with its origin before the message ("run.ini:3: ...").
  struct ParameterAssignment {
    std::string name, text;
    std::string origin;  // where the assignment came from; empty: nothing is put before
  };
  void set_parameters(const std::vector<ParameterAssignment>& assignments);
  // Re-reads the parameters after a change; throws InputError for an inconsistent set.
  virtual void configure() {}

  // --- smooth dynamics of a mode -------------------------------------------------------
  virtual void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const = 0;
  // D_x f; default: central finite differences.
  virtual void state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const;
  // A mode that is affine with harmonic forcing (AffineMode) returns true and fills `data`
  // (its members come sized n x n and n: filling them does not allocate). It must agree
  // with vector_field exactly; Flow then follows the exact flow in this mode. Default: no.
  virtual bool affine_mode(int /*mode*/, AffineMode& /*data*/) const { return false; }

  // --- events ----------------------------------------------------------------------------
  virtual int event_count(int /*mode*/) const { return 0; }
  virtual EventSpec event_spec(int mode, int event) const;
  virtual double event_function(int mode, int event, double t, ConstVectorRef x) const;
  // In a mode declared affine (affine_mode) an event function may be affine too,
  //   h(t, x) = c_x . x + c_0 + c_cos cos(w t) + c_sin sin(w t)  (w: the mode's frequency);
  // the model then returns true and fills `coefficients` = (c_x, c_0, c_cos, c_sin), size
  // n + 3 (it must agree with event_function exactly). The exact path then evaluates h
  // and its rate as dot products with the lifted state, without calling the model.
  virtual bool affine_event(int /*mode*/, int /*event*/, VectorRef /*coefficients*/) const {
    return false;
  }
  // D_x h and D_t h; default: central finite differences.
  virtual void event_gradient(int mode, int event, double t, ConstVectorRef x, VectorRef dh_dx,
                              double& dh_dt) const;
  // Applies the event to x (in: x-, out: x+) and tells the new mode. Default: terminal.
  virtual EventOutcome apply_event(int mode, int event, double t, VectorRef x) const;
  // D_x g and D_t g of the reset that apply_event performed (outcome as it returned).
  // Default: identity and zero (a mode switch without a jump).
  virtual void reset_jacobian(int mode, int event, const EventOutcome& outcome, double t,
                              ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt) const;

  // --- derivatives in a parameter (optional) ---------------------------------------------
  // A model that knows how its equations depend on a parameter p returns an id >= 0 for
  // it (-1: not given; the default). It then gives D_p of its vector fields in every mode,
  // of its event functions and resets (the defaults below say "independent of p"), and
  // of the data of its affine modes. The flow carries dx/dp beside the tangent with them
  // (FlowOptions::parameter_column): continuation in p gets dF/dp of the stroboscopic map
  // from one integration instead of a difference of two maps (doc/theory.md, 6.2).
  // Only parameters that leave forcing_period() unchanged qualify: the map's duration
  // would depend on p, which the column does not account for.
  virtual int derivative_parameter(std::string_view /*name*/) const { return -1; }
  // D_p f of a mode's vector field. Must be given when derivative_parameter gives an id.
  virtual void field_parameter_derivative(int parameter, int mode, double t, ConstVectorRef x,
                                          VectorRef df_dp) const;
  // D_p h of an event function; default 0.
  virtual double event_parameter_derivative(int /*parameter*/, int /*mode*/, int /*event*/,
                                            double /*t*/, ConstVectorRef /*x*/) const {
    return 0.0;
  }
  // D_p g of the reset that apply_event performed (outcome as it returned); default 0.
  virtual void reset_parameter_derivative(int parameter, int mode, int event,
                                          const EventOutcome& outcome, double t,
                                          ConstVectorRef x_minus, VectorRef dg_dp) const;
  // D_p of an affine mode's data A, b0, b_cos, b_sin (frequency excluded: it must not
  // depend on p), members sized as in affine_mode. False: the mode is not affine, or the
  // model does not give the derivatives; the flow then integrates that mode.
  virtual bool affine_parameter_derivative(int /*parameter*/, int /*mode*/,
                                           AffineMode& /*derivative*/) const {
    return false;
  }

  // --- model-level quantities -----------------------------------------------------------
  // A state and mode to start from when the user gives none.
  virtual Vector default_initial_state() const { return Vector::Zero(dimension()); }
  // The mode consistent with a state (e.g. in contact when the gap is negative).
  virtual int mode_of(double /*t*/, ConstVectorRef /*x*/) const { return 0; }
  // Indices of the displacement coordinates (amplitudes of loading curves).
  virtual std::vector<int> displacement_coordinates() const { return {0}; }
  // Kinetic energy of the impacting body (a_e: doc/theory.md, 8).
  virtual double kinetic_energy(double /*t*/, ConstVectorRef /*x*/) const { return 0.0; }
  // Relative normal velocity at the contact of an event (v_r: doc/theory.md, 8).
  virtual double relative_velocity(int /*mode*/, int /*event*/, double /*t*/,
                                   ConstVectorRef /*x*/) const {
    return 0.0;
  }
  // Rate of phase-volume change, trace D_x f, when the model knows it exactly.
  virtual double divergence(int mode, double t, ConstVectorRef x) const;

  // --- energy accounting (optional) -----------------------------------------------------
  // A model that accounts for its energy returns true and gives its total mechanical
  // energy E (kinetic, gravitational, every spring including contact and damper springs),
  // the power its dampers and sliders dissipate (>= 0) and the power external forcing
  // supplies (a driving force, a moving base), such that along every mode
  //     dE/dt = supplied_power - dissipated_power
  // and E is continuous at every event. Models whose resets lose energy (hard impacts)
  // do not account. energy_balance.hpp integrates the two powers along a trajectory, so a
  // run can report E(t0) - E(t) - dissipated + supplied, zero up to integration error.
  virtual bool accounts_energy() const { return false; }
  virtual double mechanical_energy(int mode, double t, ConstVectorRef x) const;  // NaN default
  virtual double dissipated_power(int /*mode*/, double /*t*/, ConstVectorRef /*x*/) const {
    return 0.0;
  }
  virtual double supplied_power(int /*mode*/, double /*t*/, ConstVectorRef /*x*/) const {
    return 0.0;
  }

  // --- contact measures (optional) ------------------------------------------------------
  // A model with a force-carrying contact (soft contact, a damper under a bumper) returns
  // true and gives the contact force (>= 0 pushes the bodies apart, 0 out of contact; a
  // Kelvin-Voigt force may pull briefly) and the penetration depth (>= 0, 0 out of
  // contact); reports take their maxima.
  virtual bool measures_contact() const { return false; }
  virtual double contact_force(int mode, double t, ConstVectorRef x) const;  // NaN default
  virtual double penetration(int mode, double t, ConstVectorRef x) const;    // NaN default

  // --- derived outputs (optional) -------------------------------------------------------
  // Named functions of the state worth reporting beside it (a bumper position, a reaction
  // force); time series get one column each. outputs() fills one value per name.
  virtual std::vector<std::string> output_names() const { return {}; }
  virtual void outputs(int /*mode*/, double /*t*/, ConstVectorRef /*x*/,
                       VectorRef /*values*/) const {}
  // Curves that characterise the model, each a pair (horizontal, vertical) of state or
  // output names: hysteresis loops, force-deflection curves. Reports plot each of them.
  struct CharacteristicCurve {
    std::string name;  // file-name friendly, e.g. "hysteresis_R_y"
    std::string horizontal;
    std::string vertical;
  };
  virtual std::vector<CharacteristicCurve> characteristic_curves() const { return {}; }

 protected:
  ParameterSet parameters_;

 private:
  // configure() after `saved` were changed (`changed`: "eta = 1e-308" for messages); on an
  // error the saved values are put back, the model re-derived, the error thrown on.
  void commit(const std::vector<ParameterSet::Saved>& saved, const std::string& changed);
};

}  // namespace libcont
