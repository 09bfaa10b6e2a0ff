#pragma once
// A stationary random load with a given one-sided spectral density S(w), as a
// forcing term for any model:
//   F(t) = sum_{l=1..n} a_l cos(w_l t + delta_l),  w_l = l dw,  a_l = sqrt(2 S(w_l) dw),
// with phases delta_l uniform in [0, 2 pi) drawn from a seed. Its variance (over time, or
// over the phases at any fixed t) is sum a_l^2 / 2 = sum S(w_l) dw, a Riemann sum of
// integral_0^inf S dw.
//
// Reproducible: the phases come from std::mt19937_64, whose output sequence the C++
// standard fixes, turned into [0, 1) by its top 53 bits. (std::uniform_real_distribution
// is not used: its algorithm differs between standard libraries, so the same seed would
// give different loads on different platforms.)
//
// The frequencies are multiples of dw, so F is exactly periodic with period 2 pi / dw:
// a random load is a forced system with a long period, and every periodic tool (sections,
// orbits) applies to it as it stands.
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace libcont {

// S(w) = (2 sigma^2 / pi) alpha theta^2 / ((w^2 - theta^2)^2 + alpha^2 w^2): a load of
// standard deviation sigma filtered by a resonance at theta of bandwidth alpha;
// integral_0^inf S dw = sigma^2 exactly.
struct FilteredNoiseSpectrum {
  double sigma = 4242.642;
  double theta = 6.0;
  double alpha = 5.0;

  double operator()(double w) const;
  double variance() const { return sigma * sigma; }
};

// A number in [0, 1) from the top 53 bits of one engine output: the same on every
// platform for the same engine state.
double unit_interval_sample(std::mt19937_64& engine);

struct HarmonicComponent {
  double frequency = 0.0;  // w_l
  double amplitude = 0.0;  // a_l = sqrt(2 S(w_l) dw)
  double phase = 0.0;      // delta_l in [0, 2 pi)
};

class RandomLoading {
 public:
  // Throws InputError for count < 1, step <= 0 or a density that is negative or not
  // finite at some w_l.
  RandomLoading(const std::function<double(double)>& density, int count, double step,
                std::uint64_t seed);

  double operator()(double t) const;  // F(t)
  // sum a_l^2 / 2 = sum S(w_l) dw: the variance of F.
  double variance() const { return variance_; }
  // 2 pi / dw: F(t + period) = F(t).
  double period() const;
  // Not on a temporary: the reference would outlive it (a range-for over
  // RandomLoading(...).components() would read freed memory).
  const std::vector<HarmonicComponent>& components() const& { return components_; }
  const std::vector<HarmonicComponent>& components() const&& = delete;

 private:
  std::vector<HarmonicComponent> components_;
  double step_ = 0.0;
  double variance_ = 0.0;
};

}  // namespace libcont
