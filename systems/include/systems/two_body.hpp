#pragma once
// Two-body vibro-impact system with a rigid stop. The main body m1, driven by
// F(t) = lambda F0 cos(omega t), hits the attached body m2 (spring-damper coupled, gap D
// at rest). State (x1, x2, v1, v2); gap x2 - x1, overlap z = x1 - x2.
// contact = newton: restitution between the two free bodies; a chattering sequence ends
//   with the bodies moving together (mode "stick") until the contact force turns tensile.
// contact = hertz: F_con = K z^(3/2) while z > 0 (mode "contact"), K from the elastic
//   constants (libcont/hertz_contact.hpp) unless given. Brief (entered every period) and
//   smooth only to low order, it goes to the explicit Runge-Kutta pair.
// loading = harmonic: F(t) = lambda F0 cos(omega t).
// loading = random: F(t) = lambda sum_l sqrt(2 S(w_l) dw) cos(w_l t + delta_l) with the
//   filtered-noise density (sigma, theta, alpha), n components at w_l = l dw
//   and phases from `seed` (random_loading.hpp); the load repeats after 2 pi / dw, which
//   is then the forcing period.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "libcont/derived_outputs.hpp"
#include "libcont/impacting_structure.hpp"
#include "libcont/random_loading.hpp"

namespace systems {

class TwoBodySystem : public libcont::ImpactingStructure, public libcont::DerivedOutputs {
 public:
  enum Mode { Free = 0, Joined = 1 };  // Joined: "stick" (newton) or "contact" (hertz)

  TwoBodySystem();
  std::string name() const override { return "two-body"; }
  void configure() override;
  double forcing_period() const override;
  libcont::Vector default_initial_state() const override;  // at rest, the coupling unstretched

  // Derivatives in lambda, the load's intensity (continuation of loading curves).

  // Under random loading the load F(t) is an output (a column of the time series).
  const libcont::DerivedOutputs* derived_outputs() const override {
    return random_ ? this : nullptr;
  }
  std::vector<std::string> output_names() const override { return {"F"}; }
  void outputs(int mode, double t, libcont::ConstVectorRef x,
               libcont::VectorRef values) const override;

  // The model reports no energy account (simulate would integrate two more components and
  // so change its runs) and no contact measures: the structure's are withheld.
  const libcont::EnergyAccount* energy_account() const override { return nullptr; }
  const libcont::ContactMeasures* contact_measures() const override { return nullptr; }

  double hertz_stiffness() const { return hertz_stiffness_; }
  double force(double t) const { return lambda_ * unit_load(t); }
  // The random load in force (loading = random), else nothing.
  const std::optional<libcont::RandomLoading>& random_loading() const { return random_; }

 protected:
  bool has_additional_force() const override { return random_.has_value(); }
  void additional_force(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                        libcont::VectorRef f) const override;
  void additional_force_jacobian(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                                 libcont::MatrixRef d_dq, libcont::MatrixRef d_dv) const override;
  void force_parameter_derivative(int parameter, double t, libcont::ConstVectorRef q,
                                  libcont::ConstVectorRef v, libcont::VectorRef df_dp) const override;

 private:
  double unit_load(double t) const;  // F0 cos(omega t), or the random load
  // The load's cosine amplitudes on (x1, x2): lambda F0 on the first mass (none under a
  // random load, which comes from the additional force).
  Eigen::Vector2d harmonic_load() const;
  // Every parameter but lambda, to the bit, and whether it is given: while they stand, a
  // change of lambda only scales the load (set_forces), the structure declared as it is.
  std::vector<std::pair<std::uint64_t, bool>> declaration_parameters() const;

  double f0_ = 400, lambda_ = 1, hertz_stiffness_ = 0;
  std::optional<libcont::RandomLoading> random_;
  std::vector<std::pair<std::uint64_t, bool>> declared_with_;  // empty: not declared
};

}  // namespace systems
