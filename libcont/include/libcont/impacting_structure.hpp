#pragma once
// A mechanical structure with unilateral contacts, written as a declaration: coordinates q
// with velocities v = q', a constant mass matrix M and
//   M q'' = -K q - C v + f0 + f_cos cos(w t) + f_sin sin(w t) + f_add(t, q, v) + contact forces,
// and a list of UnilateralContact (unilateral_contact.hpp). A model derives from it, adds
// its parameters, and in configure() calls declare(structure, contacts). Everything else a
// HybridSystem needs is generated from that declaration:
//   - the state: q, v, then the internal coordinates of the contact laws that have them
//     (a rheological damper's node);
//   - the modes: every combination of open and closed contacts (2^c modes, c <= 8), a
//     contact whose law has regimes (regime_contact_law.hpp) counting as many states as
//     its law has regimes; a closed hard contact is a constraint w . q = s(t), enforced by
//     the force that keeps it (the accelerations are projected in the metric of M), a
//     closed soft contact adds its force along w, a law with regimes the force of its
//     regime;
//   - the events (one per open/closed contact and mode, one per switch of a law's regime):
//     the gap falling (impact, contact start), the gap rising (separation), the holding
//     force falling (release from sticking), the law's switching conditions;
//   - the resets: impulses along M^-1 w that give the restitution law's relative velocity
//     (with every stuck contact kept), the end of chattering in sticking, the release; their
//     Jacobians; positions put exactly on the surface at an impact;
//   - the optional capabilities (hybrid_system.hpp): Jacobians of the vector fields, event
//     functions and resets, affine data of every mode whose forces are linear (the exact
//     flow), parameter derivatives of the forcing, the impact measures, contact force and
//     penetration of soft contacts, the energy account of soft contacts, and the integrator
//     each mode wants.
// Forces that are not linear (a pendulum's gravity, a random load) come from
// additional_force(); the modes are then integrated.
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcont/affine_modes.hpp"
#include "libcont/contact_measures.hpp"
#include "libcont/energy_account.hpp"
#include "libcont/hybrid_system.hpp"
#include "libcont/impact_measures.hpp"
#include "libcont/integrator_hints.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "libcont/unilateral_contact.hpp"

namespace libcont {

// The linear part of a structure. Empty matrices and vectors mean zero; names default to
// q1.. and v1.. (x and v for one coordinate).
struct LinearStructure {
  std::vector<std::string> coordinates;  // names of q
  std::vector<std::string> velocities;   // names of v
  Matrix mass, stiffness, damping;       // M (symmetric positive definite), K, C
  Vector constant_force, cosine_force, sine_force;  // f0, f_cos, f_sin
  double frequency = 0.0;  // w: of the forcing and of every surface motion

  // One coordinate named x (velocity v) of mass m.
  static LinearStructure single(double mass, double stiffness = 0.0, double damping = 0.0);
  int size() const { return static_cast<int>(mass.rows()); }
};

// Derivative of the harmonic forcing in a parameter.
struct ForcingDerivative {
  Vector constant_force, cosine_force, sine_force;  // empty: zero
};

// A parameter the forces depend on, declared so that continuation in it gets dF/dp from the
// flow (ParameterDerivatives::derivative_parameter): with `harmonic`, the derivative of the
// harmonic forcing (the modes stay affine); without, the model's force_parameter_derivative.
// Only parameters that leave M, K, C, the contacts and the frequency unchanged qualify.
struct ForcingParameter {
  std::string name;
  std::optional<ForcingDerivative> harmonic;
};

class ImpactingStructure : public HybridSystem,
                           public AnalyticJacobians,
                           public AffineModes,
                           public ParameterDerivatives,
                           public EnergyAccount,
                           public ImpactMeasures,
                           public ContactMeasures,
                           public IntegratorHints {
 public:
  std::vector<std::string> state_names() const override;
  int mode_count() const override { return static_cast<int>(modes_.size()); }
  std::string mode_name(int mode) const override;
  double forcing_period() const override;

  void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const override;
  int event_count(int mode) const override;
  EventSpec event_spec(int mode, int event) const override;
  EventDirection event_direction(int mode, int event) const override;
  double event_function(int mode, int event, double t, ConstVectorRef x) const override;
  EventOutcome apply_event(int mode, int event, double t, VectorRef x) const override;

  // Soft contacts with a negative gap are closed; a hard one is stuck when the state rests
  // on its surface exactly (gap and gap rate zero) and the holding force pushes; a law with
  // regimes is in the regime it finds for the state (RegimeContactLaw::regime_of).
  int mode_of(double t, ConstVectorRef x) const override;
  std::vector<int> displacement_coordinates() const override;
  // From set_units: q in the coordinates' unit, v in it per time unit, the laws' internal
  // coordinates (a node's position) in the coordinates' unit.
  std::vector<std::string> state_units() const override;
  std::string time_unit() const override { return time_unit_; }

  // --- capabilities -----------------------------------------------------------------------
  const AnalyticJacobians* analytic_jacobians() const override { return this; }
  const AffineModes* affine_modes() const override { return this; }
  // With declared forcing parameters (declare()).
  const ParameterDerivatives* parameter_derivatives() const override {
    return forcing_parameters_.empty() ? nullptr : this;
  }
  // Soft contacts only (of the laws with regimes, those that account), linear forces,
  // symmetric K.
  const EnergyAccount* energy_account() const override;
  const ImpactMeasures* impact_measures() const override { return this; }
  // Any soft contact.
  const ContactMeasures* contact_measures() const override;
  const IntegratorHints* integrator_hints() const override { return this; }

  // Analytic, but for the holding force of a mode that is not affine (differences).
  bool state_jacobian(int mode, double t, ConstVectorRef x, MatrixRef jac) const override;
  // Modes without laws with regimes and without additional force: the linear forces and
  // the closed soft contacts' penetrations shared by the field and D_x f, the phase by D_p f.
  bool field_and_derivatives(int mode, double t, ConstVectorRef x, VectorRef dxdt,
                             MatrixRef jac, int parameter, VectorRef df_dp) const override;
  // q' = v: the structure's coordinates, then their velocities.
  int kinematic_rows() const override { return structure_.size(); }
  bool event_gradient(int mode, int event, double t, ConstVectorRef x, VectorRef dh_dx,
                      double& dh_dt) const override;
  bool reset_jacobian(int mode, int event, const EventOutcome& outcome, double t,
                      ConstVectorRef x_minus, MatrixRef dg_dx, VectorRef dg_dt) const override;
  std::optional<double> divergence(int mode, double t, ConstVectorRef x) const override;

  // Every mode without additional force or law with regimes, whose closed soft contacts are
  // all unclipped Kelvin-Voigt; the open/closed events (gaps, holding forces) there.
  bool affine_mode(int mode, AffineMode& data) const override;
  bool affine_event(int mode, int event, VectorRef coefficients) const override;
  // Hard contacts' projections (impact, sticking and its end) and the identity of a soft
  // contact's start and end; not declared for laws with regimes.
  bool affine_reset(int mode, int event, EventKind kind, MatrixRef reset) const override;
  // An impact of a hard contact whose rebound is clear of sticking (rebounds_clear); the
  // other outcomes need the phase (the stuck state's holding force) or may be changed by a
  // derived model's apply_event.
  bool affine_outcome(int mode, int event, double rate, ConstVectorRef x,
                      EventOutcome& outcome) const override;

  int derivative_parameter(std::string_view name) const override;
  void field_parameter_derivative(int parameter, int mode, double t, ConstVectorRef x,
                                  VectorRef df_dp) const override;
  double event_parameter_derivative(int parameter, int mode, int event, double t,
                                    ConstVectorRef x) const override;
  bool affine_parameter_derivative(int parameter, int mode,
                                   AffineMode& derivative) const override;

  // E = v'Mv/2 + q'Kq/2 - f0.q + the contacts' stored energy; C, the contact dampers and the
  // laws' sliders dissipate; the harmonic forcing and the moving surfaces (through the
  // contact forces) supply.
  double mechanical_energy(int mode, double t, ConstVectorRef x) const override;
  double dissipated_power(int mode, double t, ConstVectorRef x) const override;
  double supplied_power(int mode, double t, ConstVectorRef x) const override;

  // Kinetic energy of the coordinates that some contact involves.
  double kinetic_energy(double t, ConstVectorRef x) const override;
  // The event's contact's gap rate; a law with regimes gives its approach velocity. Final:
  // impact_change takes the gap rate itself.
  double relative_velocity(int mode, int event, double t, ConstVectorRef x) const final;
  // What an impact recorder takes from an impact: the relative velocity just before it and
  // the kinetic energy after it minus before, as relative_velocity and kinetic_energy (a
  // derived model's where it has its own) give them, in one call instead of three through
  // the ImpactMeasures interface, the gap rate on the state's numbers.
  struct ImpactChange {
    double velocity, energy_change;
  };
  // `gap_rate`, where finite, is the gap's rate as the caller has it already
  // (EventRecord::rate: the exact path's, without the phase's cos and sin).
  ImpactChange impact_change(int mode, int event, double t, const Vector& x_minus,
                             const Vector& x_plus,
                             double gap_rate = std::numeric_limits<double>::quiet_NaN()) const;

  // The sum of the closed contacts' forces (a law with regimes: its regime's), the largest
  // penetration (a law with regimes: the depth it reports).
  double contact_force(int mode, double t, ConstVectorRef x) const override;
  double penetration(int mode, double t, ConstVectorRef x) const override;
  // Whether a soft contact is under way in `mode`: closed, or (a law with regimes) in a
  // regime of contact, one that a contact start leads to or a contact end leaves, or that
  // the law's other switches reach from one of those.
  bool in_contact(int mode, double t, ConstVectorRef x) const override;

  // A stiff contact (ContactIntegration) makes its modes Stiff, else a Hertz contact
  // ExplicitPair.
  ModeIntegration integration(int mode) const override;

  const LinearStructure& structure() const { return structure_; }
  const std::vector<UnilateralContact>& contacts() const { return contacts_; }
  // Gap, its rate, and the force that holds a closed hard contact (> 0 compressive, NaN
  // when the contact is not stuck in `mode`).
  double gap(int contact, double t, ConstVectorRef x) const;
  double gap_rate(int contact, double t, ConstVectorRef x) const;
  double holding_force(int mode, int contact, double t, ConstVectorRef x) const;
  // A bound on |holding_force(stuck_mode, contact, t, x_s)| at any t, x_s the stuck state
  // that the contact's projection (its reset to sticking) gives from x; infinity where the
  // stuck mode's force is not linear. The sticking check of an impact needs no more where
  // the rebound is fast.
  double holding_bound(int stuck_mode, int contact, ConstVectorRef x) const;
  // Whether an impact of hard contact j at state x in `mode`, approached at speed
  // approach_speed, rebounds faster than stick_velocity and higher than any holding force
  // the stuck state can have allows (holding_bound): an impact without the sticking check.
  bool rebounds_clear(int mode, int contact, double approach_speed, ConstVectorRef x) const;
  // The contact's state in `mode`: 0 open, 1 closed; a law's regime for a law with regimes
  // (the modes count in a mixed radix, 2 for each open/closed contact).
  int regime(int mode, int contact) const {
    return binary_ ? (mode >> contact) & 1 : (mode / strides_[contact]) % radices_[contact];
  }
  bool closed(int mode, int contact) const { return regime(mode, contact) != 0; }
  // What the contact's law with regimes sees in the state x (its internal coordinates in x).
  ContactInputs law_inputs(int contact, double t, ConstVectorRef x) const;
  // Undamped natural frequencies of the structure without contacts, ascending.
  Vector natural_frequencies() const;

 protected:
  // Sets the structure and its contacts (from configure()); throws InputError for an
  // inconsistent declaration (sizes, a mass matrix that is not positive definite).
  void declare(LinearStructure structure, std::vector<UnilateralContact> contacts,
               std::vector<ForcingParameter> parameters = {});

  // Replaces the constant and harmonic forces f0, f_cos, f_sin (empty: zero) of the declared
  // structure and re-derives only what they enter, the rest of the declaration kept: a load
  // parameter's change without declaring again. The model stands as declare() with these
  // forces would leave it.
  void set_forces(Vector constant_force, Vector cosine_force, Vector sine_force);

  // The units of the coordinates q and of time t ("m" and "s"; "1" and "1" for a
  // nondimensional model), from which state_units() follow. Undeclared: empty.
  void set_units(std::string coordinates, std::string time);

  // Forces beyond the linear ones, in the space of q (added to the right-hand side of
  // M q'' = ...). A model that has them returns true from has_additional_force().
  virtual bool has_additional_force() const { return false; }
  virtual void additional_force(double /*t*/, ConstVectorRef /*q*/, ConstVectorRef /*v*/,
                                VectorRef /*force*/) const {}
  // Their derivatives in q and v; default: central differences.
  virtual void additional_force_jacobian(double t, ConstVectorRef q, ConstVectorRef v,
                                         MatrixRef d_dq, MatrixRef d_dv) const;

  // D_p of the forces in space of q for a declared parameter without a harmonic derivative.
  virtual void force_parameter_derivative(int parameter, double t, ConstVectorRef q,
                                          ConstVectorRef v, VectorRef df_dp) const;

 private:
  // gap and gap_rate on the state's numbers: the reset's hot path, without a reference
  // built (and its empty copy freed) per call.
  double gap_of(int contact, double t, const double* x) const;
  double gap_rate_of(int contact, double t, const double* x) const;
  struct ModeData;
  // Force-space terms of the mode's linear part evaluated at (t, q, v), without the
  // nonlinear contacts and the additional force, and with them.
  void total_force(int mode, double t, ConstVectorRef x, VectorRef force) const;
  // The force of one contact along its normal in `mode` (0 for an open or a hard contact).
  double force_of(int mode, int contact, double t, ConstVectorRef x) const;
  // A constraint set of a reset and what its projection needs: W, B = M^-1 W' G^-1 and
  // I - B W (G = W M^-1 W').
  struct Projection {
    std::vector<int> set;
    Matrix constraints, gain, projector;
    double mobility = 0.0;  // n . M^-1 n of the set's last contact (the impacting one)
  };
  Projection derive_projection(std::vector<int> set) const;
  // Puts x onto the constraints of `p` (positions and velocities, in the metric of M), with
  // the rebound r of the impacting contact (the set's last) when restitution = r > 0.
  void project(const Projection& p, double restitution, double t, VectorRef x) const;
  ModeData derive_mode(int mode) const;
  // The linear forces and the closed soft contacts: their part of the field (Field) and of
  // D_x f (Jacobian, into jac with column stride `stride`), the forcing's phase (cos w t,
  // sin w t) given as the mode's harmonic parts need it.
  template <bool Field, bool Jacobian>
  void smooth_part(const ModeData& md, double t, std::pair<double, double> phase, const double* x,
                   double* dxdt, double* jac, Eigen::Index stride) const;
  // D_p f of a parameter with a harmonic derivative at the phase its parts need.
  void harmonic_derivative(const ModeData& md, int parameter, std::pair<double, double> phase,
                           VectorRef df_dp) const;
  void derive_forces(ModeData& md) const;  // the parts the forces f0, f_cos, f_sin enter

  LinearStructure structure_;
  std::vector<UnilateralContact> contacts_;
  std::string coordinate_unit_, time_unit_;  // set_units
  Matrix mass_inverse_;
  std::vector<ModeData> modes_;
  std::vector<int> contact_coordinates_;  // coordinates that some normal involves
  // Per contact: the number of its states (2, or its law's regimes), the mode stride, and
  // the index in the state of its law's first internal coordinate.
  std::vector<int> radices_, strides_, internal_offsets_;
  int internal_count_ = 0;
  bool binary_ = true;  // every contact open or closed: the mode is a bit mask (on the hot path)
  // The number of internal coordinates of a contact's law.
  int internal_count(int contact) const {
    const int next = contact + 1 < static_cast<int>(internal_offsets_.size())
                         ? internal_offsets_[contact + 1]
                         : 2 * structure_.size() + internal_count_;
    return next - internal_offsets_[contact];
  }
  std::vector<ForcingParameter> forcing_parameters_;
};

// Per mode: the stuck (closed hard) contacts S, the projected inverse mass
// P M^-1 = M^-1 - M^-1 W' G^-1 W M^-1 (G = W M^-1 W'), the linear part as accelerations,
// and the affine data when the mode is affine.
struct ImpactingStructure::ModeData {
  std::vector<int> stuck, soft;  // closed hard and soft contacts
  std::vector<int> with_regimes;  // contacts whose law has regimes (all of them, every mode)
  // The mode's events: the contact, and the law's switch (-1: the open/closed event).
  struct Event {
    int contact = 0, law_switch = -1;
  };
  std::vector<Event> events;
  Matrix acceleration_map;                  // P M^-1 (n x n)
  Matrix holding_map;                       // G^-1 W M^-1 (|S| x n)
  Matrix gram_inverse;                      // G^-1 (|S| x |S|)
  // The stuck contacts' W, their surfaces' motion and M^-1 W' G^-1 (what the forcing needs).
  Matrix constraints, surface_gain;
  Vector surface_cosine, surface_sine;
  // The field without the soft contacts, as accelerations:
  //   a = Aq q + Av v + b0 + bc cos + bs sin (the stuck surfaces' B s''_S folded in),
  // and P M^-1 w_j of each closed soft contact, then of each contact with regimes, whose
  // force is added to it.
  Matrix aq, av;
  Vector b0, bc, bs;
  bool has_cosine = false, has_sine = false;  // bc, bs not zero
  ModeIntegration integration = ModeIntegration::Nonstiff;  // IntegratorHints::integration
  std::vector<Vector> contact_acceleration;
  // Affine modes (no additional force, no law with regimes, every closed soft contact
  // Kelvin-Voigt unclipped):
  // the linear forces with the contacts folded in, in force space and as accelerations.
  bool affine = false;
  Matrix stiffness, damping;
  Vector constant_force, cosine_force, sine_force;
  Matrix affine_aq, affine_av;
  Vector affine_b0, affine_bc, affine_bs;
  // Per declared parameter with a harmonic derivative: D_p of the accelerations and of the
  // holding forces, constant, cosine and sine parts.
  struct Derivative {
    Vector acceleration[3], holding[3];
    bool has_cosine = false, has_sine = false;  // acceleration[1], [2] not zero (w > 0)
  };
  std::vector<Derivative> derivatives;
  // Per contact: the constraint set of its reset (hard contacts only).
  std::vector<ImpactingStructure::Projection> projections;
  // Per stuck contact: holding_bound = 2 (a + b |q| + c |v|) (infinity norms), (a, b, c);
  // empty where the force is not linear (a soft contact, a law with regimes, an additional
  // force).
  std::vector<std::array<double, 3>> holding_bounds;
  double damping_trace = 0.0;  // trace of Av
};

}  // namespace libcont
