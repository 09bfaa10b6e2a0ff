// A program built against the installed libcont package (README.md, "Installing and using
// the package"): two impacting models of its own, each declared in under 30 lines as a
// structure with a unilateral contact (bouncing_ball.hpp, pendulum.hpp). For each, a motion
// settles for 200 forcing periods, the period-one impacting orbit it approaches is found
// by shooting, and the orbit and its Floquet multipliers are printed. Exit status 0 when
// both orbits are found.
//
//   cmake -S examples/user_model -B build-user-model -DCMAKE_PREFIX_PATH=<install prefix>
//   cmake --build build-user-model && build-user-model/user_model
// or with pkg-config:
//   c++ -std=c++20 -O2 user_model.cpp $(pkg-config --cflags --libs libcont) -o user_model
#include <cstdio>

#include "bouncing_ball.hpp"
#include "libcont/floquet.hpp"
#include "libcont/flow.hpp"
#include "libcont/shooting.hpp"
#include "libcont/version.hpp"
#include "pendulum.hpp"

bool report_orbit(const libcont::HybridSystem& system) {
  libcont::Flow flow(system);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  const libcont::FlowReport report = flow.advance(state, 200 * system.forcing_period());
  if (!report.ok()) {
    std::printf("%s: transient failed: %s\n", system.name().c_str(), report.message.c_str());
    return false;
  }
  const libcont::ShootingResult orbit = libcont::Shooting(system, 1).solve(state.x);
  if (!orbit.converged) {
    std::printf("%s: shooting failed: %s\n", system.name().c_str(), orbit.reason.c_str());
    return false;
  }
  const libcont::FloquetMultipliers floquet = libcont::floquet_multipliers(orbit.monodromy);
  std::printf("libcont %s, %s: z = %d/%d orbit at %s = %.9g, %s = %.9g (%s, |mu|max = %.6g)\n",
              libcont::version, system.name().c_str(), orbit.p, orbit.n,
              system.state_names()[0].c_str(), orbit.x[0], system.state_names()[1].c_str(),
              orbit.x[1], floquet.stable ? "stable" : "unstable",
              std::abs(floquet.multipliers[0]));
  return true;
}

int main() {
  const bool ball = report_orbit(BouncingBall());
  const bool pendulum = report_orbit(ImpactPendulum());
  return ball && pendulum ? 0 : 1;
}
