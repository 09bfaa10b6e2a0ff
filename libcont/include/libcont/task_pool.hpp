#pragma once
// Independent tasks on a few std::threads. Tasks 0..count-1 are handed out in index order
// to whichever thread is free; each runs exactly once. Results stay identical to a serial
// run as long as a task depends only on its index (it writes its own slot, reads no other
// task's output): which thread runs it, and when, then changes nothing.
#include <functional>

#include "libcont/input_error.hpp"

namespace libcont {

// The system refused a thread (too little memory or address space for its stack, a
// process limit): the run asked for more threads than this machine gives it. An
// InputError, since fewer threads cure it; its message says how many could be started.
class ThreadsNotStarted : public InputError {
 public:
  using InputError::InputError;
};

// Runs task(i) for every i in [0, count) on min(threads, count) threads (the calling
// thread is one of them). When `stop` returns true, tasks not yet started are skipped;
// it is called from every thread, so it must be thread-safe (an atomic flag, say).
// An exception thrown by a task stops the handing out of new tasks and is rethrown here
// once every thread has finished (the first one thrown, if several). A thread that cannot
// be started does the same: the threads already running finish their current task, then
// ThreadsNotStarted is thrown (never std::terminate from a joinable thread left behind).
void run_tasks(int count, int threads, const std::function<void(int task)>& task,
               const std::function<bool()>& stop = {});

}  // namespace libcont
