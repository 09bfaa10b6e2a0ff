// A program built against the installed libcont package (README.md, "Installing and using
// the package"): it takes the moving-base impact oscillator from the catalogue, lets a
// motion from rest settle for 30 forcing periods with the integrator (CVODE), finds the
// z = 1/2 orbit it approaches by shooting, and prints the orbit and its Floquet
// multipliers. Exit status 0 when the orbit is found.
//
//   cmake -S examples/user_model -B build-user-model -DCMAKE_PREFIX_PATH=<install prefix>
//   cmake --build build-user-model && build-user-model/user_model
// or with pkg-config:
//   c++ -std=c++20 -O2 user_model.cpp $(pkg-config --cflags --libs libcont) -o user_model
#include <complex>
#include <cstdio>
#include <memory>

#include "libcont/floquet.hpp"
#include "libcont/flow.hpp"
#include "libcont/shooting.hpp"
#include "libcont/version.hpp"
#include "systems/catalogue.hpp"

int main() {
  // The model: any libcont::HybridSystem will do; here one from the catalogue.
  const std::unique_ptr<libcont::HybridSystem> system = systems::make_system("moving-base");
  system->set_parameter_text("model", "soft");
  system->set_parameter("ks", 2e5);
  system->set_parameter("r", 1.0);
  system->set_parameter("eta", 4.0);

  // A transient from rest through the integrator (not the exact flow of the affine modes).
  libcont::FlowOptions integrated;
  integrated.exact_linear_modes = false;
  libcont::Flow flow(*system, integrated);
  libcont::FlowState state = flow.initial_state(0.0, libcont::Vector::Zero(2));
  const libcont::FlowReport report = flow.advance(state, 30 * system->forcing_period());
  if (!report.ok()) {
    std::printf("transient failed: %s\n", report.message.c_str());
    return 1;
  }

  // The orbit of two forcing periods it approaches, by shooting from the settled state.
  const libcont::ShootingResult orbit = libcont::Shooting(*system, 2).solve(state.x);
  if (!orbit.converged) {
    std::printf("shooting failed: %s\n", orbit.reason.c_str());
    return 1;
  }
  const libcont::FloquetMultipliers floquet = libcont::floquet_multipliers(orbit.monodromy);
  std::printf("libcont %s, %s: z = %d/%d orbit at x = %.9g, v = %.9g after %d iterations\n",
              libcont::version, system->name().c_str(), orbit.p, orbit.n, orbit.x[0],
              orbit.x[1], orbit.iterations);
  std::printf("multipliers %.6g%+.6gi, %.6g%+.6gi (%s)\n", floquet.multipliers[0].real(),
              floquet.multipliers[0].imag(), floquet.multipliers[1].real(),
              floquet.multipliers[1].imag(), floquet.stable ? "stable" : "unstable");
  return 0;
}
