#include "libcont/task_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "libcont/input_error.hpp"

namespace libcont {

void run_tasks(int count, int threads, const std::function<void(int task)>& task,
               const std::function<bool()>& stop) {
  if (threads < 1) throw InputError("threads must be >= 1 (got " + std::to_string(threads) + ")");
  if (count <= 0) return;
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;

  auto work = [&] {
    for (;;) {
      if (failed.load() || (stop && stop())) return;
      const int i = next.fetch_add(1);
      if (i >= count) return;
      try {
        task(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
        return;
      }
    }
  };

  const int helpers = std::min(threads, count) - 1;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(helpers));
  std::string refused;  // why a thread could not be started; empty when all were
  for (int i = 0; i < helpers && refused.empty(); ++i) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error& error) {
      refused = error.what();
      failed = true;  // the started threads finish their current task and return
    }
  }
  if (refused.empty()) work();
  for (auto& thread : pool) thread.join();
  if (!refused.empty())
    throw ThreadsNotStarted("threads: only " + std::to_string(pool.size() + 1) + " of " +
                            std::to_string(helpers + 1) + " could be started (" + refused +
                            "); ask for fewer");
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace libcont
