#pragma once
// A hybrid (piecewise-smooth) dynamical system (doc/theory.md, 1): state x in R^n, time t, named
// parameters, modes with smooth vector fields, event functions h_j(t, x) that fire on a
// zero crossing in a stated direction, and at an event a reset map x+ = g(t, x-) and/or a
// change of mode. A model implements this interface once; the flow, the Poincare maps,
// shooting and the Lyapunov spectrum all work on it.
//
// The class is the core every model has: name, state, parameters, forcing period, modes,
// vector fields, events and resets (required: name, state_names, vector_field). What only
// some models can give is an optional capability, an interface in its own header that a
// model implements when it has it and hands out through one accessor here (nullptr: not
// given): analytic Jacobians (jacobians.hpp; else central differences), affine modes for
// the exact flow (affine_modes.hpp), derivatives in a parameter (parameter_derivatives.hpp),
// an energy account (energy_account.hpp), impact and contact measures (impact_measures.hpp,
// contact_measures.hpp), derived outputs (derived_outputs.hpp) and the integrator a mode
// wants (integrator_hints.hpp). Users look a capability up once, outside inner loops. A
// model may withhold one for some parameter sets (an ImpactingStructure has an energy
// account only while all its contacts are soft).
#include <span>
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

// The optional capabilities (below, each in its own header).
class AnalyticJacobians;
class AffineModes;
class ParameterDerivatives;
class EnergyAccount;
class ImpactMeasures;
class ContactMeasures;
class DerivedOutputs;
class IntegratorHints;

// The unit of a quotient of two quantities of units `numerator` and `denominator`: "m/s"
// from "m" and "s", "1/s" from "1" and "s", "1" from "1" and "1"; empty when either is.
std::string unit_quotient(const std::string& numerator, const std::string& denominator);

class HybridSystem {
 public:
  virtual ~HybridSystem() = default;

  virtual std::string name() const = 0;
  virtual std::vector<std::string> state_names() const = 0;
  int dimension() const { return static_cast<int>(state_names().size()); }
  virtual int mode_count() const { return 1; }
  virtual std::string mode_name(int mode) const { return "mode " + std::to_string(mode); }
  // Period of the external forcing, 0 for an autonomous system.
  virtual double forcing_period() const { return 0.0; }

  const ParameterSet& parameters() const { return parameters_; }
  // Sets one parameter by name (validated, InputError naming it) and re-derives the model
  // (configure). A value the model's rules refuse, one that leaves the forcing period not
  // finite, or one that makes an affine mode's equations of motion overflow throws
  // InputError naming it (a rule of configure() that names no parameter gets the values
  // just set put before its message), and the old value is kept.
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
  // A stamp of the model's data (ParameterSet::revision): a new one after every change of
  // a parameter, by whatever route, and every reconfiguration through them; a copied model
  // carries its original's. What is derived from the model's modes may be kept while the
  // stamp stands. A model whose data change other than through its parameters calls
  // data_changed().
  std::uint64_t revision() const { return parameters_.revision(); }

  // --- smooth dynamics of a mode -------------------------------------------------------
  virtual void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const = 0;

  // --- events ----------------------------------------------------------------------------
  virtual int event_count(int /*mode*/) const { return 0; }
  virtual EventSpec event_spec(int mode, int event) const;
  // event_spec(mode, event).direction without the rest (its name is a string): the flow
  // asks at every event. A model may answer it more cheaply.
  virtual EventDirection event_direction(int mode, int event) const {
    return event_spec(mode, event).direction;
  }
  virtual double event_function(int mode, int event, double t, ConstVectorRef x) const;
  // Applies the event to x (in: x-, out: x+) and tells the new mode. Default: terminal.
  virtual EventOutcome apply_event(int mode, int event, double t, VectorRef x) const;

  // --- model-level quantities -----------------------------------------------------------
  // A state and mode to start from when the user gives none.
  virtual Vector default_initial_state() const { return Vector::Zero(dimension()); }
  // The mode consistent with a state (e.g. in contact when the gap is negative).
  virtual int mode_of(double /*t*/, ConstVectorRef /*x*/) const { return 0; }
  // Indices of the displacement coordinates (amplitudes of loading curves).
  virtual std::vector<int> displacement_coordinates() const { return {0}; }
  // The units of the state variables and of time, as figures label their axes: SI symbols
  // ("m", "m/s", "s"), "1" for a nondimensional quantity, empty when the model does not
  // say (the parameters' units: Parameter::unit).
  virtual std::vector<std::string> state_units() const { return {}; }
  virtual std::string time_unit() const { return {}; }

  // --- optional capabilities: nullptr where the model does not give one -----------------
  virtual const AnalyticJacobians* analytic_jacobians() const { return nullptr; }
  virtual const AffineModes* affine_modes() const { return nullptr; }
  virtual const ParameterDerivatives* parameter_derivatives() const { return nullptr; }
  virtual const EnergyAccount* energy_account() const { return nullptr; }
  virtual const ImpactMeasures* impact_measures() const { return nullptr; }
  virtual const ContactMeasures* contact_measures() const { return nullptr; }
  virtual const DerivedOutputs* derived_outputs() const { return nullptr; }
  virtual const IntegratorHints* integrator_hints() const { return nullptr; }

 protected:
  void data_changed() { parameters_.mark_changed(); }
  ParameterSet parameters_;

 private:
  // configure() after the parameters of `saved` were changed; on an error the saved values
  // are put back, the model re-derived, the error thrown on. The message text is built
  // only then: continuation sets its parameter at every evaluation.
  void commit(std::span<const ParameterSet::Saved> saved);
};

}  // namespace libcont
