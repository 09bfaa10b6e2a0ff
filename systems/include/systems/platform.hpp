#pragma once
// Vibro-impact platform with a soft (rubber) stop (doc/models/platform.md). A table m1 on a
// vibro-isolation spring k1 carries a rubber block of thickness h; a mould m2 lies loose
// on the block, is thrown off and falls back. y up; y1 is the table measured from the
// static equilibrium of the loaded platform, y2 the bottom of the mould in the same frame;
// the block's compression is z = h - (y2 - y1), in contact while z > 0:
//   m1 y1'' = F0 cos(omega t) - k1 y1 - c1 y1' + m2 g - F_con
//   m2 y2'' = -m2 g - c2 y2' + F_con
// (the spring carries (m1 + m2) g at y1 = 0, so gravity on the table cancels against its
// share of that preload), c1 = 2 xi1 m1 w1 (w1 = sqrt(k1/m1)), c2 = 2 xi2 m2 w2
// (w2 = sqrt(k0/m2)). The contact (doc/models/platform.md gives every reading):
//   contact = linear: F_con = k0 z + c0 z' (mode "contact"), c0 = 2 xi0 m2 w2;
//   contact = hertz:  F_con = K z^(3/2) + c0 z', K from E1, mu1 (rubber), E2, mu2
//     (mould) and A = B = 1/(2R) (libcont/hertz_contact.hpp) unless given;
//   contact = newton: a rigid block, restitution r between the two free bodies; a
//     chattering sequence ends with the mould resting on the block (mode "stick") until
//     the force between them would turn tensile.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
// The state starts by default at the static equilibrium: the mould at rest on the block.
#include "libcont/impacting_structure.hpp"

namespace systems {

class VibroImpactPlatform : public libcont::ImpactingStructure {
 public:
  enum Mode { Free = 0, Joined = 1 };  // Joined: "contact" (linear, hertz), "stick" (newton)

  VibroImpactPlatform();
  std::string name() const override { return "platform"; }
  void configure() override;
  libcont::Vector default_initial_state() const override;  // static equilibrium
  double kinetic_energy(double t, libcont::ConstVectorRef x) const override;  // the mould's

  double hertz_stiffness() const { return hertz_stiffness_; }
  // Compression of the block under the resting mould (0 for the rigid newton block).
  double static_compression() const;

 private:
  double hertz_stiffness_ = 0.0;
};

}  // namespace systems
