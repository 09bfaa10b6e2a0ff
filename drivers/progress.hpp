#pragma once
// A progress line on stderr for long computations, shown only when stderr is a terminal
// (a log file or a pipe must not fill with carriage returns) and only once the work has
// taken more than a second (short runs stay quiet). The line is erased when done.
//
// LyapunovSpectrum::compute reports no progress to its caller, so this can only show that
// the run is alive and for how long it has been going (a spinner and elapsed seconds).
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace vicont {

class ProgressIndicator {
 public:
  explicit ProgressIndicator(std::string label);
  ~ProgressIndicator();
  ProgressIndicator(const ProgressIndicator&) = delete;
  ProgressIndicator& operator=(const ProgressIndicator&) = delete;

 private:
  void run();
  std::string label_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace vicont
