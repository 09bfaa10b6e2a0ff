#include "sweep_checkpoint.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <tuple>

#include "atomic_file.hpp"
#include "libcont/input_error.hpp"
#include "output.hpp"
#include "sweep_point_text.hpp"

namespace vicont {

namespace {

constexpr const char* point_extension = ".point";

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first line where two manifests differ, for the error message.
std::string first_difference(const std::string& found, const std::string& wanted) {
  const auto a = lines_of(found), b = lines_of(wanted);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "(nothing)";
    const std::string y = i < b.size() ? b[i] : "(nothing)";
    if (x != y) return "'" + x + "' there, '" + y + "' now";
  }
  return "";
}

}  // namespace

SweepCheckpoint::SweepCheckpoint(std::filesystem::path directory, std::string manifest,
                                 bool grid)
    : directory_(std::move(directory)), manifest_(std::move(manifest)), grid_(grid) {}

bool SweepCheckpoint::exists() const { return std::filesystem::exists(manifest_path()); }

void SweepCheckpoint::start_fresh() const {
  prepare_output_directory(directory_);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error))
    if (entry.path().extension() == point_extension) std::filesystem::remove(entry.path(), error);
  if (error)
    throw OutputError("cannot clear the checkpoint '" + directory_.string() + "': " + error.message());
  // A checkpoint is for a run killed halfway: each file in place at once, not at the end.
  write_file_atomically(manifest_path(), [&](std::ostream& out) { out << manifest_; },
                        Publication::Now);
}

std::vector<libcont::SweepPoint> SweepCheckpoint::load(const libcont::Sweep& sweep,
                                                       std::vector<std::string>& notes) const {
  if (!exists()) return {};
  const std::string found = read_text(manifest_path());
  if (found != manifest_)
    throw libcont::InputError("--resume: the checkpoint in '" + directory_.string() +
                              "' was made with other settings (" +
                              first_difference(found, manifest_) +
                              "); run without --resume to start afresh");

  std::map<std::tuple<int, int, int, int>, bool> planned;
  for (const auto& key : sweep.plan())
    planned[{static_cast<int>(key.pass), key.initial_condition, key.index, key.second_index}] =
        true;
  std::vector<libcont::SweepPoint> points;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    if (entry.path().extension() != point_extension) continue;
    std::string problem;
    auto point = parse_point_text(read_text(entry.path()), problem);
    if (point) {
      const auto& key = point->key;
      if (!planned.count(
              {static_cast<int>(key.pass), key.initial_condition, key.index, key.second_index}) ||
          point->parameter != sweep.parameter_value(key.index) ||
          point->second_parameter != sweep.second_parameter_value(key.second_index) ||
          entry.path().stem().string() != point_name(key, grid_))
        problem = "not a point of this sweep";
    }
    if (!problem.empty()) {
      notes.push_back("--resume: skipped '" + entry.path().string() + "': " + problem);
      continue;
    }
    points.push_back(std::move(*point));
  }
  if (error)
    throw OutputError("cannot read the checkpoint '" + directory_.string() + "': " + error.message());
  return points;
}

void SweepCheckpoint::save(const libcont::SweepPoint& point) const {
  const std::string text = point_text(point, grid_);
  write_file_atomically(directory_ / (point_name(point.key, grid_) + point_extension),
                        [&](std::ostream& out) { out << text; }, Publication::Now);
}

}  // namespace vicont
