#include "pending_files.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <system_error>

#include "exit_codes.hpp"

namespace vicont::pending_files {

namespace {

struct Waiting {
  std::filesystem::path temporary, target;
};

// Sweep points finish on several threads; their files may be committed concurrently.
std::mutex mutex;
bool holding = false;
std::vector<Waiting> waiting;

std::filesystem::path normal(const std::filesystem::path& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).lexically_normal();
}

}  // namespace

void hold() {
  std::lock_guard lock(mutex);
  holding = true;
}

bool held() {
  std::lock_guard lock(mutex);
  return holding;
}

void add(const std::filesystem::path& temporary, const std::filesystem::path& target) {
  std::lock_guard lock(mutex);
  const auto same = std::find_if(waiting.begin(), waiting.end(), [&](const Waiting& w) {
    return normal(w.target) == normal(target);
  });
  if (same != waiting.end()) {
    std::error_code ignored;
    std::filesystem::remove(same->temporary, ignored);
    waiting.erase(same);
  }
  waiting.push_back({temporary, target});
}

std::vector<std::pair<std::filesystem::path, std::filesystem::path>> below(
    const std::filesystem::path& directory) {
  std::lock_guard lock(mutex);
  const auto base = normal(directory);
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> result;
  for (const auto& w : waiting) {
    const auto relative = normal(w.target).lexically_relative(base);
    if (!relative.empty() && *relative.begin() != "..") result.emplace_back(relative, w.temporary);
  }
  return result;
}

std::filesystem::path current(const std::filesystem::path& target) {
  std::lock_guard lock(mutex);
  for (const auto& w : waiting)
    if (normal(w.target) == normal(target)) return w.temporary;
  return target;
}

void publish() {
  std::vector<Waiting> files;
  {
    std::lock_guard lock(mutex);
    files.swap(waiting);
    holding = false;
  }
  std::string failure;
  for (const auto& w : files) {
    std::error_code error;
    std::filesystem::rename(w.temporary, w.target, error);
    if (!error) continue;
    if (failure.empty())
      failure = "could not move '" + w.temporary.string() + "' to '" + w.target.string() +
                "': " + error.message();
    // As an unpublished StagedFile: no temporary left behind.
    std::filesystem::remove(w.temporary, error);
  }
  if (!failure.empty()) throw OutputError(failure);
}

}  // namespace vicont::pending_files
