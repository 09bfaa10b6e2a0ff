#pragma once
// What PeriodicOrbitProblem records of each point of a branch of periodic orbits, by name:
// BranchPoint::data and SpecialPoint::data hold it as a vector in the order of
// point_data_names() ("A_max:<coordinate>"..., "impacts", "spectral_radius", "min_gap",
// "slowest_impact", "section_clearance", "mu<k>:re", "mu<k>:im"...).
#include <complex>
#include <string>
#include <string_view>
#include <vector>

#include "libcont/types.hpp"

namespace libcont {

struct OrbitPointData {
  std::vector<std::string> coordinates;  // the displacement coordinates (state names)
  std::vector<double> amplitudes;        // A_max of each: half its peak-to-peak range
  int impacts = 0;                       // p: hard impacts and contact entries per orbit
  double spectral_radius = 0.0;          // largest |mu|
  double min_gap = 0.0;                  // smallest gap minimum (inf: none)
  double slowest_impact = 0.0;           // smallest |v_r| at an impact (inf: none)
  double section_clearance = 0.0;        // section to nearest event, in forcing periods
  std::vector<std::complex<double>> multipliers;  // Floquet multipliers, by decreasing modulus
  bool stable() const { return spectral_radius < 1.0; }
  // A_max of a displacement coordinate; InputError for a name without one.
  double amplitude(std::string_view coordinate) const;
};

// From a point's data and the names of its values (PeriodicOrbitProblem::point_data_names,
// OrbitBranch::data_names). Throws InputError when the sizes differ or a name is unknown.
OrbitPointData orbit_point_data(const std::vector<std::string>& names, ConstVectorRef data);
// Whether a point's data, named so, say its orbit is stable: its spectral radius below 1
// (false where they hold none). Without taking the data apart.
bool stable_by_data(const std::vector<std::string>& names, ConstVectorRef data);

}  // namespace libcont
