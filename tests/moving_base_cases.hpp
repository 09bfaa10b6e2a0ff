#pragma once
// The moving-base oscillator as several test programs build it: a factory for the sweeps
// and diagrams (one fresh model per task), and the stiff soft-contact case of the exact
// path's tests.
#include <memory>

#include "libcont/sweep.hpp"
#include "systems/moving_base.hpp"
#include "test_support.hpp"

namespace test_support {

// A fresh moving-base oscillator with `settings` per call.
inline libcont::SystemFactory moving_base_factory(const Settings& settings) {
  return [settings] {
    return std::make_unique<systems::MovingBaseOscillator>(
        make_system<systems::MovingBaseOscillator>(settings));
  };
}

// r = 1 with the soft contact's stiffness k_s = 2e5 (the hard law ignores it) at omega = eta.
inline systems::MovingBaseOscillator stiff_moving_base(const char* model, const char* eta = "4") {
  return make_system<systems::MovingBaseOscillator>(
      {{"model", model}, {"ks", "200000"}, {"r", "1"}, {"omega", eta}});
}

}  // namespace test_support
