#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vicont {

namespace {
constexpr int bar_width = 20;
constexpr double redraw_interval_seconds = 0.25;  // enough to look alive, cheap on slow links
}  // namespace

std::string duration_text(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  char buffer[48];
  if (s < 60)
    std::snprintf(buffer, sizeof buffer, "%ld s", s);
  else if (s < 3600)
    std::snprintf(buffer, sizeof buffer, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  return buffer;
}

ProgressBar::ProgressBar(std::string label, int total, std::string unit)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) && total > 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  draw(true);
}

ProgressBar::~ProgressBar() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");  // erase the line so that later messages start clean
  std::fflush(stderr);
}

void ProgressBar::advance() {
  ++done_;
  draw(done_ == total_);
}

void ProgressBar::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && std::chrono::duration<double>(now - last_draw_).count() < redraw_interval_seconds)
    return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const int filled = total_ > 0 ? bar_width * done_ / total_ : 0;
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(bar_width, '.');
  std::string eta;
  if (done_ > 0 && done_ < total_)
    eta = ", about " + duration_text(elapsed / done_ * (total_ - done_)) + " left";
  std::fprintf(stderr, "\r%s [%s] %d/%d %s, %s%s\033[K", label_.c_str(), bar.c_str(), done_,
               total_, unit_.c_str(), duration_text(elapsed).c_str(), eta.c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace vicont
