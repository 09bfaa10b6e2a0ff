#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "libcont/input_error.hpp"

namespace vicont {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string read_input_file(const std::filesystem::path& path, const InputFile& file) {
  const std::string& name = file.name;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw libcont::InputError("cannot read " + name + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0)
    throw libcont::InputError("cannot read " + name + ": " + std::strerror(errno));
  if (!S_ISREG(status.st_mode))
    throw libcont::InputError(name + " is " + kind_of(status.st_mode) + ", not a regular file");
  if (file.max_bytes > 0 && status.st_size > file.max_bytes)
    throw libcont::InputError(name + " has " + std::to_string(status.st_size) + " bytes; " +
                              file.bounded + " has at most " + std::to_string(file.max_bytes));
  std::string contents;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw libcont::InputError("error reading " + name + ": " + std::strerror(errno));
    if (got == 0) break;
    contents.append(buffer, static_cast<size_t>(got));
    // A file growing while read is held to the same bound.
    if (file.max_bytes > 0 && contents.size() > static_cast<size_t>(file.max_bytes))
      throw libcont::InputError(name + " has more than " + std::to_string(file.max_bytes) +
                                " bytes");
  }
  return contents;
}

}  // namespace vicont
