#pragma once
// Result files are never seen half-written (results already computed are never
// lost): every file is first written under a temporary name in the target's own directory
// and then renamed over the target. rename() within one file system is atomic, so a
// reader, a crash or a Ctrl-C leaves either the old complete file or the new one.
// This is the one place that does it; CSV, JSON, gnuplot scripts and PNGs all use it.
// While a run holds its files (pending_files.hpp), the rename waits for the run's end.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

#include "exit_codes.hpp"
#include "pending_files.hpp"

namespace vicont {

// When a committed file goes into place: with the run's other files, or at once.
enum class Publication { WithRun, Now };

// A file being prepared under a temporary name; commit() puts it in place. Destroyed
// without commit() (an exception on the way), it removes the temporary file.
class StagedFile {
 public:
  explicit StagedFile(std::filesystem::path target, Publication when = Publication::WithRun)
      : target_(std::move(target)), when_(when) {
    static std::atomic<unsigned> counter{0};
    // Same directory as the target so that the rename never crosses file systems; pid and
    // counter keep concurrent runs and several staged files apart.
    // (Appended piece by piece: GCC 12 warns falsely about "." + std::string, -Wrestrict.)
    std::string name = ".";
    name += target_.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    temporary_ = target_.parent_path() / name;
  }
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile() {
    if (!committed_) {
      std::error_code ignored;
      std::filesystem::remove(temporary_, ignored);
    }
  }

  const std::filesystem::path& temporary_path() const { return temporary_; }
  const std::filesystem::path& target_path() const { return target_; }

  void commit() {
    std::error_code error;
    if (!std::filesystem::exists(temporary_, error) ||
        std::filesystem::file_size(temporary_, error) == 0)
      throw OutputError("could not write '" + target_.string() + "' (nothing was produced)");
    if (when_ == Publication::WithRun && pending_files::held()) {
      pending_files::add(temporary_, target_);
      committed_ = true;
      return;
    }
    std::filesystem::rename(temporary_, target_, error);
    if (error)
      throw OutputError("could not move '" + temporary_.string() + "' to '" + target_.string() +
                        "': " + error.message());
    committed_ = true;
  }

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  Publication when_;
  bool committed_ = false;
};

// Writes `target` atomically with `write(std::ostream&)`.
template <class Writer>
void write_file_atomically(const std::filesystem::path& target, Writer&& write,
                           Publication when = Publication::WithRun) {
  StagedFile staged(target, when);
  {
    std::ofstream out(staged.temporary_path(), std::ios::binary);
    if (!out) throw OutputError("could not create '" + staged.temporary_path().string() + "'");
    write(out);
    out.flush();
    if (!out) throw OutputError("could not write '" + staged.temporary_path().string() + "'");
  }
  staged.commit();
}

}  // namespace vicont
