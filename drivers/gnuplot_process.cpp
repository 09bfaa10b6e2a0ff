#include "gnuplot_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "exit_codes.hpp"

namespace vicont {

GnuplotProcess::GnuplotProcess() {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw OutputError(std::string("cannot start gnuplot: pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) {
    const int error = errno;
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    throw OutputError(std::string("cannot start gnuplot: fork: ") + std::strerror(error));
  }
  if (pid_ == 0) {
    // The child: only async-signal-safe calls until exec (vicont may run threads).
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(1);  // vicont ended before the line above took hold
    // Signals vicont ignores (SIGPIPE) stay ignored across exec; gnuplot gets the defaults.
    ::signal(SIGPIPE, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    if (::dup2(pipe_ends[0], STDIN_FILENO) < 0 || null < 0 || ::dup2(null, STDOUT_FILENO) < 0 ||
        ::dup2(null, STDERR_FILENO) < 0)
      ::_exit(126);
    char name[] = "gnuplot";
    char* const argv[] = {name, nullptr};
    ::execvp(name, argv);
    ::_exit(127);
  }
  ::close(pipe_ends[0]);
  input_ = pipe_ends[1];
}

GnuplotProcess::~GnuplotProcess() {
  if (pid_ > 0) finish();
}

void GnuplotProcess::send(const std::string& text) {
  size_t written = 0;
  while (input_ >= 0 && written < text.size()) {
    const ssize_t n = ::write(input_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;  // EPIPE: gnuplot is gone
    written += static_cast<size_t>(n);
  }
}

int GnuplotProcess::finish() {
  if (input_ >= 0) ::close(input_);
  input_ = -1;
  if (pid_ <= 0) return -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace vicont
