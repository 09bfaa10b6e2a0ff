#include "systems/oscillator_chain.hpp"

#include <cmath>
#include <complex>

#include "libcont/input_error.hpp"

using libcont::Constraint;
using libcont::Matrix;
using libcont::Vector;

namespace systems {

OscillatorChain::OscillatorChain() {
  auto& p = parameters_;
  p.add("N", 100.0, Constraint::Positive, "number of masses (integer)");
  p.add("m", 1.0, Constraint::Positive, "mass of each oscillator");
  p.add("k", 1.0, Constraint::Positive, "coupling stiffness");
  p.add("c", 0.05, Constraint::NonNegative, "damping of each mass");
  p.add("F0", 1.0, Constraint::Any, "force amplitude on the first mass");
  p.add("omega", 0.5, Constraint::Positive, "forcing circular frequency");
  p.add_alias("eta", "omega");  // its name in some papers and earlier versions
  p.add("d", 1.0, Constraint::Any, "distance of the stop from the last mass at rest");
  p.add("r", 0.8, Constraint::UnitInterval, "restitution coefficient at the stop");
  p.add("stick_velocity", 1e-9, Constraint::NonNegative,
        "rebound speed below which the last mass is held at the stop");
  // A nondimensional model: time, coordinates and every parameter without units.
  set_units("1", "1");
  p.set_remaining_units("1");
  configure();
}

void OscillatorChain::configure() {
  const auto& p = parameters_;
  const double count = p["N"];
  // The structure keeps dense N x N matrices per mode: N = 1000 takes 2 s and 200 MB to
  // declare, a larger chain would exhaust time and memory instead of being refused.
  if (count != std::floor(count) || count < 1.0 || count > 1000.0)
    throw libcont::InputError("parameter 'N' must be a whole number of masses in [1, 1000]");
  const int n = static_cast<int>(count);
  libcont::LinearStructure structure;
  for (int i = 1; i <= n; ++i) {
    structure.coordinates.push_back("x" + std::to_string(i));
    structure.velocities.push_back("v" + std::to_string(i));
  }
  structure.mass = p["m"] * Matrix::Identity(n, n);
  structure.damping = p["c"] * Matrix::Identity(n, n);
  // Springs between neighbours and from the first mass to the wall; the last mass has only
  // its left neighbour.
  structure.stiffness = Matrix::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    structure.stiffness(i, i) = (i + 1 < n ? 2.0 : 1.0) * p["k"];
    if (i + 1 < n) structure.stiffness(i, i + 1) = structure.stiffness(i + 1, i) = -p["k"];
  }
  structure.cosine_force = p["F0"] * Vector::Unit(n, 0);
  structure.frequency = p["omega"];
  // The stop d beyond the last mass: gap d - x_N = (-e_N) . x - (-d).
  libcont::UnilateralContact stop;
  stop.name = "stop";
  stop.normal = -Vector::Unit(n, n - 1);
  stop.surface.offset = -p["d"];
  stop.law = libcont::NewtonRestitution(p["r"], p["stick_velocity"]);
  stop.closed_name = "held";
  declare(structure, {stop});
}

Eigen::VectorXcd OscillatorChain::free_flight_multipliers() const {
  const auto& p = parameters_;
  const int n = count();
  const double pi = std::acos(-1.0);
  const double decay = p["c"] / (2.0 * p["m"]);
  const double period = forcing_period();
  Eigen::VectorXcd multipliers(2 * n);
  for (int j = 1; j <= n; ++j) {
    const double s = std::sin((2 * j - 1) * pi / (4 * n + 2));
    const double stiffness = 4.0 * s * s * p["k"] / p["m"];  // k kappa_j / m
    // sqrt of the discriminant (c/2m)^2 - k kappa_j / m, real or imaginary.
    const std::complex<double> root = std::sqrt(std::complex<double>(decay * decay - stiffness));
    multipliers[2 * j - 2] = std::exp((-decay + root) * period);
    multipliers[2 * j - 1] = std::exp((-decay - root) * period);
  }
  return multipliers;
}

}  // namespace systems
