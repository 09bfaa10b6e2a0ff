#pragma once
// A chain of N equal oscillators (mass m, coupling springs k, dampers c on each mass),
// the first attached to a wall and driven by F0 cos(omega t), the last hitting a rigid
// stop at distance d (Newton restitution r; chattering ends with the last mass held at
// the stop). State (x_1..x_N, v_1..v_N). A test system with a large state for the
// matrix-free Floquet multipliers; N = 100 by default.
#include "libcont/hybrid_system.hpp"
#include "libcont/newton_restitution.hpp"

namespace systems {

class OscillatorChain : public libcont::HybridSystem {
 public:
  enum Mode { Free = 0, Held = 1 };

  OscillatorChain();
  std::string name() const override { return "chain"; }
  std::vector<std::string> state_names() const override;
  std::vector<int> displacement_coordinates() const override { return {count_ - 1}; }
  int mode_count() const override { return 2; }
  std::string mode_name(int mode) const override { return mode == Free ? "free" : "held"; }
  double forcing_period() const override;
  void configure() override;

  void vector_field(int mode, double t, libcont::ConstVectorRef x,
                    libcont::VectorRef dxdt) const override;
  void state_jacobian(int mode, double t, libcont::ConstVectorRef x,
                      libcont::MatrixRef jac) const override;
  int event_count(int /*mode*/) const override { return 1; }
  libcont::EventSpec event_spec(int mode, int event) const override;
  double event_function(int mode, int event, double t, libcont::ConstVectorRef x) const override;
  void event_gradient(int mode, int event, double t, libcont::ConstVectorRef x,
                      libcont::VectorRef dh_dx, double& dh_dt) const override;
  libcont::EventOutcome apply_event(int mode, int event, double t,
                                    libcont::VectorRef x) const override;
  void reset_jacobian(int mode, int event, const libcont::EventOutcome& outcome, double t,
                      libcont::ConstVectorRef x_minus, libcont::MatrixRef dg_dx,
                      libcont::VectorRef dg_dt) const override;
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;
  double relative_velocity(int mode, int event, double t,
                           libcont::ConstVectorRef x) const override;

  int count() const { return count_; }

 private:
  // Force on mass i from springs, dampers and forcing (no stop).
  double force(int i, double t, libcont::ConstVectorRef x) const;

  int count_ = 100;
  double m_ = 1, k_ = 1, c_ = 0.05, f0_ = 1, omega_ = 0.5, d_ = 1;
  libcont::NewtonRestitution law_{0.8};
};

}  // namespace systems
