// A program run as a child process that the parent talks to in lines: its stdin and stdout are
// pipes, its stderr is the parent's. Started in a process group of its own (a Ctrl-C on the
// terminal reaches selfplay, which stops cleanly, not the child), with SIGPIPE back to its default
// and no signal blocked, and killed by the kernel if selfplay dies (PR_SET_PDEATHSIG: a SIGKILLed
// match leaves no engine running; the thread that makes a ChildProcess must outlive it). Reads
// never spin: they sleep in poll() until a line, the end of the pipe or a deadline. The destructor
// kills (SIGKILL: the program, its process group and its descendants, process_tree.hpp) and reaps
// a child that is still running, so no zombie outlives its ChildProcess.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace sp {

// Splits a command line into words as a POSIX shell would, without expansions: blanks separate
// words, 'single quotes' keep everything, "double quotes" keep everything but \" and \\, and a
// backslash outside quotes keeps the next character. Throws InputError for an unterminated quote
// or a trailing backslash, and for a line without words.
std::vector<std::string> split_command(std::string_view line);

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Read { kLine, kTimeout, kClosed };

  // Starts argv[0] (an absolute or relative path; a name without '/' is looked up on PATH) with
  // argv. Throws std::runtime_error when it cannot be started (a missing program, no permission).
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // The read end of the child's stdout, for a caller that polls several children at once.
  int out_fd() const { return out_; }

  // Writes line and '\n'; false when the child no longer reads (its stdin closed or it exited).
  bool write_line(std::string_view line);
  // The next line of the child's stdout without its "\n" or "\r\n", waiting until deadline:
  // kClosed once the child closed its stdout (exited) and every line before that was read.
  Read read_line(std::string& line, Clock::time_point deadline);
  // As read_line without waiting: what has already arrived.
  Read try_read_line(std::string& line) { return read_line(line, Clock::time_point::min()); }
  // True when a line or the end of the pipe is waiting in the buffer (poll() would not wake).
  bool has_buffered_line() const;

  // Writes last_line (when not empty: a protocol's END), closes the child's stdin, gives it until
  // `grace` passes to exit by itself, then kills its process group and the processes it had
  // started when finish began (whatever else it started, even when it exited by itself) and
  // reaps it. Returns how it ended: "exited with status 0", "killed by signal 6", "killed after
  // not exiting within 100 ms". Idempotent: later calls return the same text.
  std::string finish(std::chrono::milliseconds grace, std::string_view last_line = {});
  // Kills the child's process group now and reaps it; returns how it ended.
  std::string kill_now();

 private:
  bool fill(Clock::time_point deadline);  // reads what is available into buf_; false: EOF
  bool exited() const;                    // the child has exited (not yet reaped)
  std::string reap(bool killed, const std::string& why);

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buf_;
  bool eof_ = false;
  bool reaped_ = false;
  std::string ended_;
};

}  // namespace sp
