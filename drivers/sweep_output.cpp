#include "sweep_output.hpp"

#include <cmath>
#include <ostream>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

// The parameters of the sweep: the second is empty unless the sweep is a grid.
struct Swept {
  const std::string& first;
  const std::string& second;
  bool grid() const { return !second.empty(); }
};

// The columns that say which point a row belongs to.
void write_point_columns(std::ostream& out, const libcont::SweepPoint& p, const Swept& swept) {
  out << libcont::to_string(p.key.pass) << ',' << p.key.initial_condition << ',' << p.key.index;
  if (swept.grid()) out << ',' << p.key.second_index;
  out << ',' << number_text(p.parameter);
  if (swept.grid()) out << ',' << number_text(p.second_parameter);
}

void write_point_header(std::ostream& out, const Swept& swept) {
  out << "direction,initial_condition,index";
  if (swept.grid()) out << ",index2";
  out << ',' << swept.first;
  if (swept.grid()) out << ',' << swept.second;
}

}  // namespace

std::vector<std::string> exponent_columns(int dimension) {
  std::vector<std::string> names;
  for (int i = 1; i <= dimension; ++i) names.push_back("lambda_" + std::to_string(i));
  return names;
}

void write_sweep_csv_files(const std::filesystem::path& directory, const SweepFiles& files,
                           const libcont::HybridSystem& system, const std::string& parameter,
                           const std::vector<libcont::SweepPoint>& points,
                           const std::string& second_parameter) {
  const int dimension = system.dimension();
  const Swept swept{parameter, second_parameter};
  write_file_atomically(directory / files.points, [&](std::ostream& out) {
    write_point_header(out, swept);
    out << ",status,p,n,a_i,a_e,vr_count,vr_mean,vr_rms,vr_min,vr_max,vr_slowest";
    for (const auto& name : exponent_columns(dimension)) out << ',' << name;
    out << ",exponent_sum,averaged_periods\n";
    for (const auto& p : points) {
      write_point_columns(out, p, swept);
      const auto& v = p.velocities;
      out << ',' << libcont::to_string(p.status) << ',' << p.p << ',' << p.n << ','
          << number_text(p.impacts_per_period) << ',' << number_text(p.energy_per_period) << ','
          << v.count << ',' << number_text(v.mean) << ',' << number_text(v.rms) << ','
          << number_text(v.min) << ',' << number_text(v.max) << ',' << number_text(v.slowest);
      for (int i = 0; i < dimension; ++i)
        out << ',' << number_text(i < p.exponents.size() ? p.exponents[i] : std::nan(""));
      out << ',' << number_text(p.exponents.size() ? p.exponent_sum : std::nan("")) << ','
          << p.averaged_periods << '\n';
    }
  });
  write_file_atomically(directory / files.samples, [&](std::ostream& out) {
    write_point_header(out, swept);
    out << ",k";
    for (const auto& name : system.state_names()) out << ',' << name;
    out << '\n';
    for (const auto& p : points)
      for (size_t k = 0; k < p.samples.size(); ++k) {
        write_point_columns(out, p, swept);
        out << ',' << k + 1;
        for (Eigen::Index i = 0; i < p.samples[k].size(); ++i)
          out << ',' << number_text(p.samples[k][i]);
        out << '\n';
      }
  });
  write_file_atomically(directory / files.impacts, [&](std::ostream& out) {
    write_point_header(out, swept);
    out << ",k,v_r\n";
    for (const auto& p : points)
      for (size_t k = 0; k < p.impact_velocities.size(); ++k) {
        write_point_columns(out, p, swept);
        out << ',' << k + 1 << ',' << number_text(p.impact_velocities[k]) << '\n';
      }
  });
}

}  // namespace vicont
