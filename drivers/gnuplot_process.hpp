#pragma once
// gnuplot run as a child that reads a script on its stdin, its output dropped (stdout may
// carry the one JSON object of --json; errors come back through a status file the script
// prints, plots.cpp). Unlike a popen() through a shell, the child is gnuplot itself and
// is told by the kernel to end when vicont ends (PR_SET_PDEATHSIG): killed by SIGINT or
// SIGTERM halfway through a plot, vicont leaves no gnuplot drawing on behind it.
#include <string>
#include <sys/types.h>

namespace vicont {

class GnuplotProcess {
 public:
  // Starts gnuplot; OutputError if it cannot be started at all (no fork, no pipe). A
  // gnuplot missing from PATH shows as a child that exits at once (finish() says 127).
  GnuplotProcess();
  // Waits for the child if finish() was not called.
  ~GnuplotProcess();
  GnuplotProcess(const GnuplotProcess&) = delete;
  GnuplotProcess& operator=(const GnuplotProcess&) = delete;

  // Sends script text; a child that has gone away is no error here (finish() and the
  // status file tell).
  void send(const std::string& text);
  // Closes gnuplot's stdin and waits for it; returns its exit status (or 128 + signal).
  int finish();

 private:
  pid_t pid_ = -1;
  int input_ = -1;  // write end of the pipe to gnuplot's stdin
};

}  // namespace vicont
