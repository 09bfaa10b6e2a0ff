#pragma once
// Contact stiffness from surface geometry (the source's data sets (a)-(c)): two elastic
// bodies whose initial gap is the axisymmetric power-law profile z = A r^n touch with the
// power-law force F = c delta^alpha,
//   alpha = 1 + 1/n,
//   c = (2n / (n+1)) / (Q1 + Q2) * (kappa_n A)^(-1/n),
//   kappa_n = sqrt(pi) Gamma(n/2 + 1) / Gamma(n/2 + 1/2),   Q_i = (1 - nu_i^2) / E_i
// (the classical solution for a power-law indenter, Shtaerman / Galin). It contains the
// source's cases:
//   n = 2   spheres, A = 1/(2R):  c = (4/3) sqrt(R) / (Q1 + Q2) (Hertz), alpha = 3/2;
//   n = 4   quartic surfaces:     c = (8 / (5 (Q1 + Q2))) (3/(8A))^(1/4),  alpha = 5/4;
//   n = 3/2 singular point:       c = 0.81180... / (A^(2/3) (Q1 + Q2)),    alpha = 5/3.
#include "libcont/hertz_contact.hpp"

namespace libcont {

struct SurfaceProfile {
  double exponent = 2.0;     // n > 0 of z = A r^n
  double coefficient = 0.0;  // A > 0 (m^(1-n))
};

// alpha = 1 + 1/n. Throws InputError for n <= 0.
double profile_force_exponent(const SurfaceProfile& profile);

// c of F = c delta^alpha. Throws InputError naming the bad item: n or A not positive,
// a Young's modulus not positive, a Poisson ratio outside [0, 0.5] (0.5, incompressible
// rubber, is allowed here).
double profile_contact_stiffness(const SurfaceProfile& profile, const ElasticBody& first,
                                 const ElasticBody& second);

}  // namespace libcont
