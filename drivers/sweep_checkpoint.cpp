#include "sweep_checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
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

constexpr const char* records_extension = ".points";
// Earlier versions wrote a file per point, NAME.point: one record each, read alike and
// removed by a fresh run.
constexpr const char* single_point_extension = ".point";
// What ends every record (sweep_point_text.hpp).
constexpr const char* record_end = "\nend\n";

bool is_checkpoint_file(const std::filesystem::path& file) {
  return file.extension() == records_extension || file.extension() == single_point_extension;
}

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

// The length of the complete records at the start of `text`: up to the last record end. A
// file's records are appended one after the other, so only its last can be torn.
size_t complete_records_length(const std::string& text) {
  const size_t last = text.rfind(record_end);
  return last == std::string::npos ? 0 : last + std::strlen(record_end);
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
    if (is_checkpoint_file(entry.path())) std::filesystem::remove(entry.path(), error);
  if (error)
    throw OutputError("cannot clear the checkpoint '" + directory_.string() + "': " + error.message());
  // A checkpoint is for a run killed halfway: each file in place at once, not at the end.
  write_file_atomically(manifest_path(), [&](std::ostream& out) { out << manifest_; },
                        Publication::Now);
}

std::vector<libcont::SweepPoint> SweepCheckpoint::load(const libcont::Sweep& sweep,
                                                       std::vector<std::string>& notes) {
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
  // The files in name order, so that the notes come out the same in every run.
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error))
    if (is_checkpoint_file(entry.path())) files.push_back(entry.path());
  if (error)
    throw OutputError("cannot read the checkpoint '" + directory_.string() + "': " + error.message());
  std::sort(files.begin(), files.end());

  std::vector<libcont::SweepPoint> points;
  std::map<std::string, size_t> index_of;  // point name -> its place in `points`
  for (const auto& file : files) {
    const std::string text = read_text(file);
    const size_t complete = complete_records_length(text);
    if (complete < text.size()) {
      torn_files_[file] = complete;
      notes.push_back("--resume: ignored the torn last record of '" + file.string() +
                      "' (a run killed while writing it); its point is computed again");
    }
    for (size_t begin = 0, number = 1; begin < complete; ++number) {
      const size_t end = text.find(record_end, begin) + std::strlen(record_end) - 1;
      const std::string record = text.substr(begin, end - begin + 1);
      begin = end + 1;
      std::string problem;
      auto point = parse_point_text(record, problem);
      if (point) {
        const auto& key = point->key;
        if (!planned.count(
                {static_cast<int>(key.pass), key.initial_condition, key.index, key.second_index}) ||
            point->parameter != sweep.parameter_value(key.index) ||
            point->second_parameter != sweep.second_parameter_value(key.second_index))
          problem = "not a point of this sweep";
      }
      const std::string where = "'" + file.string() + "' (record " + std::to_string(number) + ")";
      if (!problem.empty()) {
        notes.push_back("--resume: skipped " + where + ": " + problem);
        continue;
      }
      // The same point twice (a record written again by a resumed run that did not see it):
      // the numbers do not depend on the run, so the copies agree; one is kept.
      const auto [known, added] = index_of.emplace(point_name(point->key, grid_), points.size());
      if (!added) {
        if (point_text(points[known->second], grid_) != point_text(*point, grid_))
          notes.push_back("--resume: skipped " + where + ": point " + known->first +
                          " was read before with other numbers");
        continue;
      }
      points.push_back(std::move(*point));
    }
  }
  return points;
}

void SweepCheckpoint::open(int rank) {
  char name[32];
  std::snprintf(name, sizeof name, "rank-%04d", rank);
  file_ = directory_ / (std::string(name) + records_extension);
  // load() read the file already and noted a torn tail; a fresh run has no file.
  if (const auto torn = torn_files_.find(file_); torn != torn_files_.end()) {
    std::error_code error;
    std::filesystem::resize_file(file_, torn->second, error);
    if (error)
      throw OutputError("cannot cut the torn record off '" + file_.string() + "': " +
                        error.message());
  }
  descriptor_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (descriptor_ < 0)
    throw OutputError("cannot open the checkpoint '" + file_.string() + "': " +
                      std::strerror(errno));
}

SweepCheckpoint::~SweepCheckpoint() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

// One write per record: a killed process leaves its records whole but for the one being
// written, which resume recognises by its missing end line. The records are not synced
// to the disk: the checkpoint is for a killed process, whose writes the kernel keeps; after
// a machine crash a record lost or torn with the page cache is computed again.
void SweepCheckpoint::save(const libcont::SweepPoint& point) {
  const std::string text = point_text(point, grid_);
  std::lock_guard lock(write_mutex_);
  if (descriptor_ < 0) throw OutputError("the sweep's checkpoint file is not open");
  for (size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(descriptor_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw OutputError("cannot write the checkpoint '" + file_.string() + "': " +
                        std::strerror(errno));
    written += static_cast<size_t>(n);
  }
}

}  // namespace vicont
