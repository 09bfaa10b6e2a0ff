#pragma once
// A hybrid system seen without its events: each mode's vector field, its Jacobians, affine
// data and parameter derivatives, but no event ever fires (a flight that reaches a contact
// surface goes on through it). For the tangency of a grazing orbit
// (grazing_curve_problem.hpp): the orbit that touches the surface is an orbit of this flow,
// and so are the nearby orbits a Newton iteration visits, where the real flow would have
// them hit the surface with a speed that goes like the square root of the penetration. The
// view holds a reference to the model and no parameters of its own: set them on the model.
#include "libcont/hybrid_system.hpp"

namespace libcont {

class EventFreeView : public HybridSystem {
 public:
  explicit EventFreeView(const HybridSystem& model) : model_(model) {}

  std::string name() const override { return model_.name() + " (without events)"; }
  std::vector<std::string> state_names() const override { return model_.state_names(); }
  std::vector<std::string> state_units() const override { return model_.state_units(); }
  std::string time_unit() const override { return model_.time_unit(); }
  int mode_count() const override { return model_.mode_count(); }
  std::string mode_name(int mode) const override { return model_.mode_name(mode); }
  double forcing_period() const override { return model_.forcing_period(); }
  void vector_field(int mode, double t, ConstVectorRef x, VectorRef dxdt) const override {
    model_.vector_field(mode, t, x, dxdt);
  }
  int event_count(int) const override { return 0; }
  Vector default_initial_state() const override { return model_.default_initial_state(); }
  // The mode a state starts in stays the model's choice (a state inside a soft contact
  // flows in the contact's field).
  int mode_of(double t, ConstVectorRef x) const override { return model_.mode_of(t, x); }
  std::vector<int> displacement_coordinates() const override {
    return model_.displacement_coordinates();
  }
  const AnalyticJacobians* analytic_jacobians() const override {
    return model_.analytic_jacobians();
  }
  const AffineModes* affine_modes() const override { return model_.affine_modes(); }
  const ParameterDerivatives* parameter_derivatives() const override {
    return model_.parameter_derivatives();
  }
  const IntegratorHints* integrator_hints() const override { return model_.integrator_hints(); }
  const HybridSystem& model() const { return model_; }

 private:
  const HybridSystem& model_;
};

}  // namespace libcont
