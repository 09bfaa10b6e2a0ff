#pragma once
// A progress bar with an estimate of the time left, for runs made of many equal pieces
// (sweep points, basin cells): on stderr, only when stderr is a terminal (logs and pipes
// stay clean), redrawn at most a few times a second, erased when done.
//
//   sweep [##########..........] 40/81 points, 12 s, about 15 s left
#include <chrono>
#include <string>

namespace vicont {

class ProgressBar {
 public:
  // `total`: pieces to do in this run; `unit`: their name ("points", "cells").
  ProgressBar(std::string label, int total, std::string unit);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // One more piece done. Not thread-safe: call it from one thread at a time.
  void advance();

 private:
  void draw(bool force);
  std::string label_, unit_;
  int total_ = 0, done_ = 0;
  bool shown_ = false, enabled_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// "12 s", "4 min 05 s", "2 h 03 min": a duration for people.
std::string duration_text(double seconds);

}  // namespace vicont
