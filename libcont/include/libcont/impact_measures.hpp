#pragma once
// Impact measures (doc/theory.md, 8): the normal relative velocity at the contact of an
// event (v_r) and the kinetic energy of the impacting body (a_e), for impact statistics and
// event listings. A model with contacts implements ImpactMeasures and returns it from
// HybridSystem::impact_measures(); for a model without, the statistics count its impacts
// with zero velocities and energies.
#include "libcont/hybrid_system.hpp"

namespace libcont {

class ImpactMeasures {
 public:
  virtual ~ImpactMeasures() = default;
  virtual double kinetic_energy(double t, ConstVectorRef x) const = 0;
  virtual double relative_velocity(int mode, int event, double t, ConstVectorRef x) const = 0;
};

// The model's impact measures, or zero ones for a model that has none.
inline const ImpactMeasures& impact_measures_or_zero(const HybridSystem& system) {
  struct Zero : ImpactMeasures {
    double kinetic_energy(double, ConstVectorRef) const override { return 0.0; }
    double relative_velocity(int, int, double, ConstVectorRef) const override { return 0.0; }
  };
  static const Zero zero;
  const ImpactMeasures* given = system.impact_measures();
  return given ? *given : zero;
}

}  // namespace libcont
