#pragma once
// The limits vicont holds every run to (doc/cli.md, "Limits"), checked before anything is
// computed: a count that cannot be done in memory or in time, or a parameter whose derived
// quantities (the forcing period, a sample step, a number of samples) overflow, is refused
// with a message naming the option or parameter that made it so, instead of running out of
// memory, looping without progress or overflowing a conversion to an integer.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace vicont {

namespace limits {
// Forcing periods integrated in one phase of a run (--transient, --periods).
inline constexpr int periods = 10'000'000;
// n of z = p/n (--max-period, --period): detecting it keeps 2n section points per try.
inline constexpr int detected_period = 1000;
inline constexpr int threads = 1024;
// Points of a sweep (--steps times passes and initial states), cells of a basin map.
inline constexpr double grid_points = 1e6;
// Integration grid of a hybrid diagram (--steps).
inline constexpr int diagram_steps = 100'000;
// Poincare samples and impact velocities kept per sweep point (--samples of sweep,
// diagram), and all of them over a sweep.
inline constexpr int kept_samples = 10'000;
inline constexpr double kept_samples_in_all = 1e8;
// Rows of a time series (simulate, impact --samples).
inline constexpr double samples = 1e7;
// Events a simulation records (simulate --max-events): rows of events.csv.
inline constexpr int max_recorded_events = 10'000'000;
// Branch points of a continuation (--max-points).
inline constexpr int branch_points = 1'000'000;
// The forcing period, in the model's time unit: within these bounds 10^7 periods and
// their 200 samples each stay finite and distinct doubles.
inline constexpr double min_period = 1e-12, max_period = 1e12;
}  // namespace limits

// Throws InputError unless a forced system's forcing period lies within the limits; the
// message names `source`, what set the parameters (e.g. "omega = 1e-308 (--set)"). An
// autonomous system passes.
void check_forcing_period(const libcont::HybridSystem& system, const std::string& source);

// Throws InputError unless the system's default initial state (where every run starts:
// platform's static equilibrium, drop's height H0) is a finite state, naming `source` as
// check_forcing_period does: parameters whose starting state overflows (platform's
// deflection m g / k with k0 = 1e-308) leave nothing to integrate from.
void check_initial_state(const libcont::HybridSystem& system, const std::string& source);

// The forcing period at the ends of a range of `parameter` (each end with the option that
// gave it, "--from"), on fresh systems from `make`, as check_forcing_period.
void check_forcing_period_over(const std::function<std::unique_ptr<libcont::HybridSystem>()>& make,
                               const std::string& parameter,
                               const std::vector<std::pair<double, std::string>>& ends);

// "omega = 1e-308, m = 2": the named parameters of `system` with their values, or "its
// default parameters" when `names` is empty.
std::string parameter_values_text(const libcont::HybridSystem& system,
                                  const std::vector<std::string>& names);

}  // namespace vicont
