#pragma once
// The whole of a file that vicont reads as input (a config file, a saved run's
// continue.json and CSV files), checked before a byte is read: it is opened without
// blocking (open() on a FIFO with no writer would wait forever) and refused unless it is a
// regular file (a FIFO, a device such as /dev/zero that never ends, a directory), and
// when a bound is given, of at most that many bytes.
#include <filesystem>
#include <string>

namespace vicont {

struct InputFile {
  // Names the file in messages, e.g. "config file 'F'": "cannot read config file 'F': No
  // such file or directory", "config file 'F' is a FIFO, not a regular file".
  std::string name;
  // At most this many bytes (0: no bound); `bounded` says what has at most that many in
  // the message ("config file 'F' has N bytes; a config file has at most 1048576").
  long max_bytes = 0;
  std::string bounded;
};

// Throws libcont::InputError with the messages above.
std::string read_input_file(const std::filesystem::path& path, const InputFile& file);

}  // namespace vicont
