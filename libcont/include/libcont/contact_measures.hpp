#pragma once
// Contact measures of a force-carrying contact (soft contact, a damper under a bumper): a
// model that has one implements ContactMeasures (HybridSystem::contact_measures()) and
// gives the contact force (>= 0 pushes the bodies apart, 0 out of contact; a Kelvin-Voigt
// force may pull briefly) and the penetration depth (>= 0, 0 out of contact); reports take
// their maxima and contact intervals. in_contact says whether a contact is under way in a
// mode: a contact just begun at zero depth and zero force (a Hertz impact starting at the
// touch) is under way although neither measure is positive yet.
#include "libcont/hybrid_system.hpp"

namespace libcont {

class ContactMeasures {
 public:
  virtual ~ContactMeasures() = default;
  virtual double contact_force(int mode, double t, ConstVectorRef x) const = 0;
  virtual double penetration(int mode, double t, ConstVectorRef x) const = 0;
  // Default: a positive force or depth. A model whose modes say it overrides this.
  virtual bool in_contact(int mode, double t, ConstVectorRef x) const {
    return contact_force(mode, t, x) > 0.0 || penetration(mode, t, x) > 0.0;
  }
};

}  // namespace libcont
