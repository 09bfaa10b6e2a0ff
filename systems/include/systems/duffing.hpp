#pragma once
// The forced Duffing oscillator, a smooth system without contacts:
//   m x'' + c x' + k x + k3 x^3 = a cos(omega t),
// state (x, v = x'). k3 > 0 hardens the spring, k3 < 0 softens it (then the potential has
// a barrier at |x| = sqrt(-k/k3), beyond which orbits escape). Its folds, their curve in
// (omega, a) and the cusp where two folds meet are known from harmonic balance in the limit
// of small amplitudes (doc/theory.md, 6.4; tests/test_duffing_curves.cpp): the smooth
// system on which the two-parameter curves and their codimension-two points are checked.
// Declared as a structure without contacts (libcont/impacting_structure.hpp): one mode, no
// events; the cubic spring is the additional force, with its Jacobian written out; a is a
// declared forcing parameter, so continuation in it gets dF/da from the flow.
#include "libcont/impacting_structure.hpp"

namespace systems {

class DuffingOscillator : public libcont::ImpactingStructure {
 public:
  DuffingOscillator();
  std::string name() const override { return "duffing"; }
  void configure() override;
  // x: a structure without contacts has no coordinate that some contact involves.
  std::vector<int> displacement_coordinates() const override { return {0}; }

 protected:
  bool has_additional_force() const override { return cubic_ != 0.0; }
  // -k3 x^3 and its derivative -3 k3 x^2 (none in v).
  void additional_force(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                        libcont::VectorRef force) const override;
  void additional_force_jacobian(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                                 libcont::MatrixRef d_dq, libcont::MatrixRef d_dv) const override;

 private:
  double cubic_ = 0.0;  // k3
};

}  // namespace systems
