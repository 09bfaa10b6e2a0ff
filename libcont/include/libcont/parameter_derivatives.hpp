#pragma once
// Derivatives in a parameter p: a model that knows how its equations depend on p gives D_p
// of its vector fields in every mode, of its event functions and resets, and of the data
// of its affine modes, by implementing ParameterDerivatives and returning it from
// HybridSystem::parameter_derivatives(). The flow carries dx/dp beside the tangent with
// them (FlowOptions::parameter_column): continuation in p gets dF/dp of the stroboscopic
// map from one integration instead of a difference of two maps (doc/theory.md, 6.2).
// Only parameters that leave forcing_period() unchanged qualify: the map's duration would
// depend on p, which the column does not account for.
#include <string_view>

#include "libcont/affine_modes.hpp"
#include "libcont/hybrid_system.hpp"

namespace libcont {

class ParameterDerivatives {
 public:
  virtual ~ParameterDerivatives() = default;
  // An id >= 0 for a parameter whose derivatives the model gives, -1 for the others.
  virtual int derivative_parameter(std::string_view name) const = 0;
  // D_p f of a mode's vector field.
  virtual void field_parameter_derivative(int parameter, int mode, double t, ConstVectorRef x,
                                          VectorRef df_dp) const = 0;
  // D_p h of an event function; default: independent of p.
  virtual double event_parameter_derivative(int /*parameter*/, int /*mode*/, int /*event*/,
                                            double /*t*/, ConstVectorRef /*x*/) const {
    return 0.0;
  }
  // D_p g of the reset that apply_event performed (outcome as it returned); default:
  // independent of p.
  virtual void reset_parameter_derivative(int /*parameter*/, int /*mode*/, int /*event*/,
                                          const EventOutcome& /*outcome*/, double /*t*/,
                                          ConstVectorRef /*x_minus*/, VectorRef dg_dp) const {
    dg_dp.setZero();
  }
  // D_p of an affine mode's data A, b0, b_cos, b_sin (frequency excluded: it must not
  // depend on p), members sized as in AffineModes::affine_mode. False: the mode is not
  // affine, or the model does not give the derivatives; the flow then integrates that mode.
  virtual bool affine_parameter_derivative(int /*parameter*/, int /*mode*/,
                                           AffineMode& /*derivative*/) const {
    return false;
  }
};

// The model's id of parameter `name`, -1 where it gives no derivatives in it.
inline int derivative_parameter(const HybridSystem& system, std::string_view name) {
  const ParameterDerivatives* derivatives = system.parameter_derivatives();
  return derivatives ? derivatives->derivative_parameter(name) : -1;
}

}  // namespace libcont
