#include "systems/lumped_beam.hpp"

#include <Eigen/Cholesky>

namespace systems {

LumpedBeam lumped_beam(int count, BeamSupports supports, double length, double rigidity,
                       double mass, double tip_mass) {
  const bool cantilever = supports == BeamSupports::ClampedFree;
  const double spacing = length / (cantilever ? count : count + 1);
  const auto flexibility = [&](double a, double b) {
    if (a > b) std::swap(a, b);
    return cantilever ? a * a * (3.0 * b - a) / (6.0 * rigidity)
                      : a * (length - b) * (2.0 * length * b - b * b - a * a) / (6.0 * rigidity * length);
  };
  libcont::Matrix f(count, count);
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < count; ++j) f(i, j) = flexibility((i + 1) * spacing, (j + 1) * spacing);
  LumpedBeam beam;
  // The flexibility matrix is symmetric positive definite: its inverse by Cholesky, made
  // exactly symmetric.
  const libcont::Matrix k = f.llt().solve(libcont::Matrix::Identity(count, count));
  beam.stiffness = 0.5 * (k + k.transpose());
  const double point_mass = mass / (cantilever ? count : count + 1);
  beam.mass = libcont::Matrix::Identity(count, count) * point_mass;
  if (cantilever) beam.mass(count - 1, count - 1) = 0.5 * point_mass + tip_mass;
  return beam;
}

}  // namespace systems
