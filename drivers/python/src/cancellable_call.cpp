#include "cancellable_call.hpp"

#include <chrono>
#include <thread>

namespace py = pybind11;

namespace libcont_python {

CancellableCall::CancellableCall(py::object progress)
    : progress_(std::move(progress)), has_callback_(!progress_.is_none()) {
  if (has_callback_ && !PyCallable_Check(progress_.ptr()))
    throw py::type_error("progress must be a callable taking one dict, or None");
}

void CancellableCall::report(ProgressReport progress) {
  // Without a callback there is nobody to tell: the waiting thread wakes on its own to
  // check for Ctrl-C, and a wake-up per report would cost the work a few per cent.
  if (!has_callback_) return;
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(progress);
  }
  changed_.notify_all();
}

bool CancellableCall::poll() {
  if (cancelled_) return false;
  try {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    std::optional<ProgressReport> pending;
    {
      std::lock_guard lock(mutex_);
      pending.swap(pending_);
    }
    if (pending && !progress_.is_none()) {
      py::dict values;
      for (const auto& [name, value] : *pending) values[py::str(name)] = value;
      progress_(values);
    }
  } catch (py::error_already_set& error) {
    error_.emplace(std::move(error));
    cancelled_ = true;
  }
  return !cancelled_;
}

void CancellableCall::run(const std::function<void()>& work) {
  std::exception_ptr failure;
  std::thread worker;
  {
    py::gil_scoped_release released;
    worker = std::thread([&] {
      try {
        work();
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard lock(mutex_);
        done_ = true;
      }
      changed_.notify_all();
    });
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, std::chrono::milliseconds(50),
                          [&] { return done_ || pending_.has_value(); });
        if (done_) break;
      }
      py::gil_scoped_acquire held;
      poll();
    }
    worker.join();
  }
  poll();  // the last report still reaches the callback
  if (error_) {
    py::error_already_set error = std::move(*error_);
    error_.reset();
    throw error;
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace libcont_python
