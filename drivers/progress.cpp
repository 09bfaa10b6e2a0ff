#include "progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace vicont {

ProgressIndicator::ProgressIndicator(std::string label) : label_(std::move(label)) {
  if (::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

ProgressIndicator::~ProgressIndicator() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ProgressIndicator::run() {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  bool shown = false;
  std::unique_lock lock(mutex_);
  static const char spinner[] = {'|', '/', '-', '\\'};
  for (int tick = 0;; ++tick) {
    if (wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) break;
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    if (seconds < 1.0) continue;
    std::fprintf(stderr, "\r%s %c %.0f s ", label_.c_str(), spinner[tick % 4], seconds);
    std::fflush(stderr);
    shown = true;
  }
  if (shown) {
    std::fprintf(stderr, "\r\033[K");  // erase the line so that later messages start clean
    std::fflush(stderr);
  }
}

}  // namespace vicont
