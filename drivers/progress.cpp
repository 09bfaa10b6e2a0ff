#include "progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "run_options.hpp"

namespace vicont {

namespace {
constexpr double redraw_interval_seconds = 0.25;  // enough to look alive, cheap on slow links
constexpr double quiet_start_seconds = 1.0;       // runs shorter than this show nothing
}  // namespace

StderrSettings& stderr_settings() {
  static StderrSettings settings;
  return settings;
}

void add_stderr_options(RunOptions& options) {
  options.add_flag("progress", stderr_settings().progress,
                   "show the progress line also when stderr is no terminal (one line per tenth)");
  options.add_flag("quiet", stderr_settings().quiet, "no progress line and no notes on stderr");
}

void print_note(const std::string& text) {
  if (!stderr_settings().quiet) std::cerr << "vicont: note: " << text << std::endl;
}

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  char buffer[48];
  if (seconds < 9.95)  // a short run as "0 s" said nothing
    std::snprintf(buffer, sizeof buffer, "%.1f s", std::max(seconds, 0.0));
  else if (s < 60)
    std::snprintf(buffer, sizeof buffer, "%ld s", s);
  else if (s < 3600)
    std::snprintf(buffer, sizeof buffer, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  return buffer;
}

Progress::Progress(std::string label, double total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(std::max(total, 0.0)),
      start_(std::chrono::steady_clock::now()) {
  const StderrSettings& settings = stderr_settings();
  if (settings.quiet) return;
  terminal_ = ::isatty(STDERR_FILENO);
  lines_ = !terminal_ && settings.progress && total_ > 0.0;
  if (terminal_) thread_ = std::thread([this] { run_terminal(); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Progress::update(double done) {
  double seen = done_.load(std::memory_order_relaxed);
  while (done > seen && !done_.compare_exchange_weak(seen, done, std::memory_order_relaxed)) {
  }
  if (lines_ && done > seen) print_tenth(done);
}

void Progress::advance() {
  double seen = done_.load(std::memory_order_relaxed);
  while (!done_.compare_exchange_weak(seen, seen + 1.0, std::memory_order_relaxed)) {
  }
  if (lines_) print_tenth(seen + 1.0);
}

void Progress::finish() { update(total_); }

std::string Progress::line(double done, double seconds) const {
  std::string text = label_;
  char buffer[96];
  if (total_ > 0.0) {
    const double fraction = std::clamp(done / total_, 0.0, 1.0);
    std::snprintf(buffer, sizeof buffer, "  %3d%%", static_cast<int>(std::floor(100.0 * fraction)));
    text += buffer;
    if (!unit_.empty()) {
      std::snprintf(buffer, sizeof buffer, "  %.0f/%.0f ", std::min(done, total_), total_);
      text += buffer + unit_;
    }
    text += "  " + duration_text(seconds);
    if (fraction >= 0.01 && fraction < 1.0)  // before, an estimate is mostly noise
      text += ", about " + duration_text(seconds / fraction * (1.0 - fraction)) + " left";
  } else {
    text += "  " + duration_text(seconds);
  }
  return text;
}

// One line per tenth of the work: a log shows the run's pace without thousands of lines.
void Progress::print_tenth(double done) {
  const int tenths = static_cast<int>(std::floor(10.0 * std::clamp(done / total_, 0.0, 1.0)));
  std::lock_guard lock(mutex_);
  if (tenths <= tenths_printed_) return;
  tenths_printed_ = tenths;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "%s\n", line(done, seconds).c_str());
  std::fflush(stderr);
}

void Progress::run_terminal() {
  const double delay = stderr_settings().progress ? 0.0 : quiet_start_seconds;
  bool shown = false;
  std::unique_lock lock(mutex_);
  const auto interval = std::chrono::duration<double>(redraw_interval_seconds);
  while (!wake_.wait_for(lock, interval, [this] { return stop_; })) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds < delay) continue;
    std::fprintf(stderr, "\r%s\033[K", line(done_.load(), seconds).c_str());
    std::fflush(stderr);
    shown = true;
  }
  if (shown) {
    std::fprintf(stderr, "\r\033[K");  // erase the line so that later messages start clean
    std::fflush(stderr);
  }
}

}  // namespace vicont
