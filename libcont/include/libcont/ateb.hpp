#pragma once
// Ateb functions: Rosenberg's periodic inverses of incomplete beta integrals, the
// exact solutions of x'' + k x^alpha = 0. With
//   eta(u) = integral_0^u dw / sqrt(1 - w^(alpha+1)) = B(u^(alpha+1); 1/(alpha+1), 1/2) / (alpha+1)
// the Ateb sine is defined on its first quarter period by Sa(alpha, 1; (1+alpha)/2 eta(u)) = u,
// that is
//   Sa = [I^-1_{eta/I}(1/(alpha+1), 1/2)]^(1/(alpha+1))   (inverse regularised incomplete beta),
//   I  = eta(1) = sqrt(pi) Gamma(1/(alpha+1)) / ((alpha+1) Gamma((alpha+3)/(2alpha+2))),
// and continued over the whole real line like sin: odd, symmetric about the quarter
// period, period four quarter periods. The Ateb cosine is the sine shifted by a quarter
// period, Ca(phi) = Sa(phi + quarter), like cos: even, Ca(0) = 1. On the first quarter
// this is the mirror Ca((1+alpha)/2 eta) = Sa((1+alpha)/2 (I - eta)) of the published tables.
//
// Note: with these conventions Ca^2 + Sa^(alpha+1) = 1 does NOT hold (only for alpha = 1);
// the identity that does hold is the energy integral of the oscillator,
//   ((1+alpha)/2 dSa/dphi)^2 + |Sa|^(alpha+1) = 1,
// which is why the slopes below are exact too.
//
// Values are exact to a few ulps (Boost.Math's ibeta_inv / ibetac_inv): the phase is reduced
// to a quadrant and the inverse taken from whichever end (p or its complement q = 1 - p)
// is smaller, so that both ends of the quarter keep full relative precision.

namespace libcont {

class AtebFunctions {
 public:
  // Throws InputError unless alpha is finite and > 0.
  explicit AtebFunctions(double alpha);

  double alpha() const { return alpha_; }
  // I(alpha): the quarter period measured in eta (the time-like integral above).
  double quarter_integral() const { return quarter_integral_; }
  // The quarter period in the argument phi of Sa and Ca: (1+alpha)/2 I.
  double quarter_period() const { return quarter_period_; }
  // The period in phi: 4 quarter periods.
  double period() const { return 4.0 * quarter_period_; }

  // Sa(alpha, 1; phi) and Ca(alpha, 1; phi). Throw InputError for a non-finite phi.
  double sine(double phi) const;
  double cosine(double phi) const;
  // d Sa / d phi and d Ca / d phi, exact: (2/(1+alpha)) sqrt(1 - |Sa|^(alpha+1)) with the
  // sign of the quadrant.
  double sine_slope(double phi) const;
  double cosine_slope(double phi) const;

 private:
  struct QuarterValue {
    double value;  // u in [0, 1] of the first quarter
    double slope;  // du / dphi >= 0
  };
  // Sa on the first quarter at the phase fraction p = eta / I in [0, 1], given together
  // with q = 1 - p, each exact wherever it is the smaller one.
  QuarterValue first_quarter(double p, double q) const;
  // Sa (shift 0) or Ca (shift 1) with its slope, for any finite phi.
  QuarterValue evaluate(double phi, int quadrant_shift) const;

  double alpha_;
  double quarter_integral_;
  double quarter_period_;
};

// The source's three-term trigonometric approximation, in eta = 2 phi / (1+alpha):
//   Sa(alpha,1;(1+alpha)/2 eta) ~ sin(pi eta/(2I) + B sin(pi eta/I) + C sin(2 pi eta/I)),
//   Ca(alpha,1;(1+alpha)/2 eta) ~ cos(pi eta/(2I) - B sin(pi eta/I) + C sin(2 pi eta/I)),
//   B = arcsin Sa(alpha,1;(1+alpha)/2 I/2) - pi/4,
//   C = arcsin Sa(alpha,1;(1+alpha)/2 I/4) - pi/8 - B sin(pi/4),
// i.e. exact at the eighth and at the middle of the quarter; periodic and signed like the
// exact functions.
class AtebTrigApproximation {
 public:
  explicit AtebTrigApproximation(const AtebFunctions& exact);

  double b() const { return b_; }
  double c() const { return c_; }
  double sine(double phi) const;
  double cosine(double phi) const;

 private:
  double quarter_period_;
  double b_;
  double c_;
};

}  // namespace libcont
