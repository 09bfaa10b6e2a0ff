#include "sweep_output.hpp"

#include <cmath>
#include <ostream>
#include <stdexcept>

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

// The columns that say which point a row belongs to (the same for all its rows).
std::string point_columns(const libcont::SweepPoint& p, const Swept& swept) {
  std::string text = libcont::to_string(p.key.pass) + ',' +
                     std::to_string(p.key.initial_condition) + ',' + std::to_string(p.key.index);
  if (swept.grid()) text += ',' + std::to_string(p.key.second_index);
  text += ',' + number_text(p.parameter);
  if (swept.grid()) text += ',' + number_text(p.second_parameter);
  return text;
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

SweepCsvWriter::SweepCsvWriter(const std::filesystem::path& directory, const SweepFiles& files,
                               const libcont::HybridSystem& system, const std::string& parameter,
                               size_t rows, const std::string& second_parameter)
    : dimension_(system.dimension()),
      parameter_(parameter),
      second_parameter_(second_parameter),
      rows_(rows) {
  const auto open = [](const std::filesystem::path& target) {
    auto staged = std::make_unique<Staged>(target);
    staged->out.open(staged->file.temporary_path(), std::ios::binary);
    if (!staged->out)
      throw OutputError("could not create '" + staged->file.temporary_path().string() + "'");
    return staged;
  };
  points_ = open(directory / files.points);
  samples_ = open(directory / files.samples);
  impacts_ = open(directory / files.impacts);
  const Swept swept{parameter_, second_parameter_};
  write_point_header(points_->out, swept);
  points_->out << ",status,p,n,a_i,a_e,vr_count,vr_mean,vr_rms,vr_min,vr_max,vr_slowest";
  for (const auto& name : exponent_columns(dimension_)) points_->out << ',' << name;
  points_->out << ",exponent_sum,averaged_periods";
  for (const auto& name : exponent_columns(dimension_)) points_->out << ',' << name << "_error";
  points_->out << ",exponent_sum_error\n";
  write_point_header(samples_->out, swept);
  samples_->out << ",k";
  for (const auto& name : system.state_names()) samples_->out << ',' << name;
  samples_->out << '\n';
  write_point_header(impacts_->out, swept);
  impacts_->out << ",k,v_r\n";
}

void SweepCsvWriter::add(size_t position, const libcont::SweepPoint& point) {
  if (position >= rows_ || position < next_ || held_.count(position))
    throw std::logic_error("sweep output: point " + std::to_string(position) +
                           " given twice or out of range");
  if (position != next_) {
    held_.emplace(position, point);
    return;
  }
  write_rows(point);
  ++next_;
  for (auto it = held_.begin(); it != held_.end() && it->first == next_; it = held_.erase(it)) {
    write_rows(it->second);
    ++next_;
  }
}

void SweepCsvWriter::write_rows(const libcont::SweepPoint& p) {
  const std::string columns = point_columns(p, Swept{parameter_, second_parameter_});
  std::ostream& out = points_->out;
  const auto& v = p.velocities;
  out << columns << ',' << libcont::to_string(p.status) << ',' << p.p << ',' << p.n << ','
      << number_text(p.impacts_per_period) << ',' << number_text(p.energy_per_period) << ','
      << v.count << ',' << number_text(v.mean) << ',' << number_text(v.rms) << ','
      << number_text(v.min) << ',' << number_text(v.max) << ',' << number_text(v.slowest);
  for (int i = 0; i < dimension_; ++i)
    out << ',' << number_text(i < p.exponents.size() ? p.exponents[i] : std::nan(""));
  out << ',' << number_text(p.exponents.size() ? p.exponent_sum : std::nan("")) << ','
      << p.averaged_periods;
  for (int i = 0; i < dimension_; ++i)
    out << ',' << number_text(i < p.exponent_errors.size() ? p.exponent_errors[i] : std::nan(""));
  out << ',' << number_text(p.exponent_sum_error) << '\n';
  for (size_t k = 0; k < p.samples.size(); ++k) {
    samples_->out << columns << ',' << k + 1;
    for (Eigen::Index i = 0; i < p.samples[k].size(); ++i)
      samples_->out << ',' << number_text(p.samples[k][i]);
    samples_->out << '\n';
  }
  for (size_t k = 0; k < p.impact_velocities.size(); ++k)
    impacts_->out << columns << ',' << k + 1 << ',' << number_text(p.impact_velocities[k])
                  << '\n';
}

void SweepCsvWriter::finish() {
  for (auto& [position, point] : held_) write_rows(point);
  held_.clear();
  for (Staged* staged : {points_.get(), samples_.get(), impacts_.get()}) {
    staged->out.close();
    if (!staged->out)
      throw OutputError("could not write '" + staged->file.temporary_path().string() + "'");
    staged->file.commit();
  }
}

void write_sweep_csv_files(const std::filesystem::path& directory, const SweepFiles& files,
                           const libcont::HybridSystem& system, const std::string& parameter,
                           const std::vector<libcont::SweepPoint>& points,
                           const std::string& second_parameter) {
  SweepCsvWriter writer(directory, files, system, parameter, points.size(), second_parameter);
  for (size_t i = 0; i < points.size(); ++i) writer.add(i, points[i]);
  writer.finish();
}

}  // namespace vicont
