#include "libcont/random_loading.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "libcont/input_error.hpp"

namespace libcont {

double FilteredNoiseSpectrum::operator()(double w) const {
  const double detuning = w * w - theta * theta;
  return (2.0 * sigma * sigma / std::numbers::pi) * alpha * theta * theta /
         (detuning * detuning + alpha * alpha * w * w);
}

double unit_interval_sample(std::mt19937_64& engine) {
  // 53 bits fill a double's mantissa exactly: k / 2^53 for k in [0, 2^53).
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

RandomLoading::RandomLoading(const std::function<double(double)>& density, int count,
                             double step, std::uint64_t seed)
    : step_(step) {
  if (count < 1)
    throw InputError("random loading: the number of components n must be at least 1 (got " +
                     std::to_string(count) + ")");
  if (!(step > 0.0) || !std::isfinite(step))
    throw InputError("random loading: the frequency step dw must be positive and finite");
  std::mt19937_64 engine(seed);
  components_.reserve(static_cast<size_t>(count));
  for (int l = 1; l <= count; ++l) {
    const double w = l * step;
    const double s = density(w);
    if (!(s >= 0.0) || !std::isfinite(s))
      throw InputError("random loading: the spectral density at w = " + std::to_string(w) +
                       " is negative or not finite");
    const double phase = 2.0 * std::numbers::pi * unit_interval_sample(engine);
    components_.push_back({w, std::sqrt(2.0 * s * step), phase});
    variance_ += s * step;
  }
}

double RandomLoading::operator()(double t) const {
  double f = 0.0;
  for (const auto& c : components_) f += c.amplitude * std::cos(c.frequency * t + c.phase);
  return f;
}

double RandomLoading::period() const { return 2.0 * std::numbers::pi / step_; }

}  // namespace libcont
