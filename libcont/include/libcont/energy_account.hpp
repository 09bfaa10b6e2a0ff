#pragma once
// An energy account: a model that implements EnergyAccount (HybridSystem::energy_account())
// gives its total mechanical energy E (kinetic, gravitational, every spring including
// contact and damper springs), the power its dampers and sliders dissipate (>= 0) and the
// power external forcing supplies (a driving force, a moving base), such that along every
// mode
//     dE/dt = supplied_power - dissipated_power
// and E is continuous at every event. Models whose resets lose energy (hard impacts) have
// none. energy_balance.hpp integrates the two powers along a trajectory, so a run can
// report E(t0) - E(t) - dissipated + supplied, zero up to integration error.
#include "libcont/hybrid_system.hpp"

namespace libcont {

class EnergyAccount {
 public:
  virtual ~EnergyAccount() = default;
  virtual double mechanical_energy(int mode, double t, ConstVectorRef x) const = 0;
  virtual double dissipated_power(int mode, double t, ConstVectorRef x) const = 0;
  virtual double supplied_power(int mode, double t, ConstVectorRef x) const = 0;
};

}  // namespace libcont
