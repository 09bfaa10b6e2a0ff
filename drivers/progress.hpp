#pragma once
// What a run says on stderr besides its errors: a progress line for long computations and
// notes (e.g. an old parameter name that was accepted). Both follow --progress and --quiet
// (doc/cli.md, "Progress and notes"):
//  - by default the progress line is shown only when stderr is a terminal (a log file or a
//    pipe must not fill with carriage returns) and only once the work has taken more than a
//    second; it is redrawn in place a few times a second and erased when done:
//      lyapunov  42%  420/1000 periods  12 s, about 16 s left
//  - --progress shows it whatever stderr is; on a file or a pipe as whole lines, one per
//    tenth of the work (0 %, 10 %, ... 100 %), so that a log shows how a run went;
//  - --quiet shows neither progress nor notes (errors and problems are still printed).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace vicont {

// Set once from the command line or the config file (the targets of --progress and --quiet).
struct StderrSettings {
  bool progress = false;  // show progress even when stderr is no terminal
  bool quiet = false;     // no progress, no notes
};
StderrSettings& stderr_settings();

class RunOptions;
// Declares --progress and --quiet (config file: progress = true, quiet = true).
void add_stderr_options(RunOptions& options);

// "vicont: note: TEXT" on stderr, unless --quiet.
void print_note(const std::string& text);

class Progress {
 public:
  // `total`: the amount of work (periods, points, time, or 1 for a fraction); 0 when it
  // cannot be measured: the line then shows only the elapsed time. `unit` non-empty: the
  // line shows the counts too ("420/1000 periods").
  Progress(std::string label, double total, std::string unit = {});
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // The work done so far. Safe from any thread; the line never goes back (a branch that
  // turns at a fold shows the furthest it got).
  void update(double done);
  void advance();  // one more piece done
  void finish();   // all done: 100 %

 private:
  void run_terminal();
  std::string line(double done, double seconds) const;
  void print_tenth(double done);

  const std::string label_, unit_;
  const double total_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<double> done_{0.0};
  bool terminal_ = false;  // redrawn in place by thread_
  bool lines_ = false;     // whole lines, one per tenth (--progress, no terminal)
  int tenths_printed_ = -1;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// "0.3 s", "12 s", "4 min 05 s", "2 h 03 min": a duration for people.
std::string duration_text(double seconds);

}  // namespace vicont
