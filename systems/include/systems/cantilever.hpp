#pragma once
// Two-degree-of-freedom cantilever beam with impacts. A light beam (E I,
// length l) carries m1 at its free end and m2 at l2 from the clamp:
//   M x'' + nu M x' + KB x = (e omega^2 sin(omega t), 0),  M = diag(m1, m2),
//   KB = (1/W) [[12 EI l2^3, -6 EI l2^2 (3l - l2)], [-6 EI l2^2 (3l - l2), 12 EI l^3]],
//   W = 4 l^3 l2^3 - l2^4 (3l - l2)^2,
// state (x1, x2, v1, v2). m1 hits a base that lies d below its equilibrium: gap
// h = x1 + d >= 0 (d = 0 in the source).
// model = hard: Newton restitution v1+ = -r v1- (the light beam passes no impulse to
//   m2); a chattering sequence ends with m1 held on the base (mode "stick") until the
//   holding force would turn tensile.
// model = soft: while h < 0 the force k_s (-h) + c_s (-h') acts on m1 (mode "contact"),
//   measured from the base (for d = 0 exactly the source's k_s x1 + c_s x1'). c_s follows
//   from r and m1 by the chosen energy relation (doc/theory.md, 9) unless given.
// set = 1 | 2 picks the source's masses and l2 (2DOF-1: 0.92, 0.08, 0.34; 2DOF-2: 0.28,
// 0.72, 0.31); m1, m2, l2 given explicitly override the set. The forcing amplitude e has
// no default (the source does not give it): a run refuses to start without it.
// Declared as a structure with one unilateral contact (libcont/impacting_structure.hpp).
#include "libcont/impacting_structure.hpp"

namespace systems {

class CantileverBeam : public libcont::ImpactingStructure {
 public:
  enum Mode { Free = 0, Attached = 1 };  // Attached: "stick" (hard) or "contact" (soft)

  CantileverBeam();
  std::string name() const override { return "cantilever-2dof"; }
  // Loading curves report the amplitudes of both masses, not only of m1 that touches the
  // base.
  std::vector<int> displacement_coordinates() const override { return {0, 1}; }
  void configure() override;

  bool hard() const { return contacts().front().hard(); }
  double contact_damping() const { return contacts().front().damping(); }
  const libcont::Matrix& mass_matrix() const { return structure().mass; }
  const libcont::Matrix& stiffness_matrix() const { return structure().stiffness; }
  double force(double t) const;  // e omega^2 sin(omega t) on m1
};

}  // namespace systems
