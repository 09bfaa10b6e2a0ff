#pragma once
// A long library call run so that the interpreter stays responsive: the work runs on a
// thread of its own with the GIL released, while the calling (main) thread waits, checks
// for signals (only the main thread sees Ctrl-C) and hands the work's progress reports to
// the user's callback. Ctrl-C, or an exception raised by the callback, cancels the work:
// the library's hooks see cancelled() and stop it (returning false, or by throwing
// Cancelled through the library, which unwinds cleanly), and the Python exception is
// raised once the work has ended.
#include <pybind11/pybind11.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace libcont_python {

// Thrown inside the work by a hook that finds the call cancelled.
struct Cancelled : std::exception {
  const char* what() const noexcept override { return "cancelled"; }
};

// What a hook reports: named numbers, handed to the callback as a dict.
using ProgressReport = std::vector<std::pair<std::string, double>>;

class CancellableCall {
 public:
  // `progress`: None or a callable taking one dict.
  explicit CancellableCall(pybind11::object progress);

  // Runs `work` (which must not touch Python objects) to its end; call with the GIL held.
  // Rethrows the work's exception, or raises the Python error that cancelled it.
  void run(const std::function<void()>& work);

  // For the work's hooks, from any thread.
  bool cancelled() const { return cancelled_.load(); }
  // For FlowOptions::cancel: a flow given it ends at its next step once the call is
  // cancelled (Ctrl-C inside a single long integration).
  const std::atomic<bool>* cancel_flag() const { return &cancelled_; }
  void throw_if_cancelled() const {
    if (cancelled()) throw Cancelled();
  }
  // Queues a report for the callback (the latest one wins if the callback is slower).
  void report(ProgressReport progress);

 private:
  // With the GIL held: signals, then the pending report; false once cancelled.
  bool poll();

  pybind11::object progress_;
  bool has_callback_ = false;  // progress_ is not None: reports wake the waiting thread
  std::atomic<bool> cancelled_{false};
  std::optional<pybind11::error_already_set> error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<ProgressReport> pending_;
  bool done_ = false;
};

}  // namespace libcont_python
