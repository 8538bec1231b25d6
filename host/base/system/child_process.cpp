#include "host/base/system/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

#include "core/errors.hpp"
#include "host/base/system/process_tree.hpp"

extern char** environ;

namespace sp {
namespace {

// poll()'s timeout for a deadline: 0 when it has passed, -1 for none (time_point::max()).
int poll_timeout(ChildProcess::Clock::time_point deadline) {
  if (deadline == ChildProcess::Clock::time_point::max()) return -1;
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - ChildProcess::Clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1 << 30));
}

std::string status_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) +
           (name ? std::string(" (SIG") + name + ")" : "");
  }
  return "ended with status " + std::to_string(status);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

std::vector<std::string> split_command(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const size_t end = line.find('\'', i + 1);
      if (end == std::string_view::npos)
        throw InputError("unterminated ' quote at column " + std::to_string(i + 1));
      word.append(line.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\'))
          ++j;
        word += line[j];
      }
      if (j >= line.size())
        throw InputError("unterminated \" quote at column " + std::to_string(i + 1));
      i = j;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) throw InputError("a backslash ends the command");
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw InputError("the command has no program");
  return words;
}

namespace {

// The file a program name runs: a name with '/' as it is, else the first executable regular file
// of that name on PATH (as execvp looks); "" when there is none.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* env = std::getenv("PATH");
  const std::string dirs = env ? env : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string path = (end > start ? dirs.substr(start, end - start) : ".") + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0)
      return path;
    start = end + 1;
  }
  return "";
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: no program");
  const std::string path = find_program(argv[0]);
  if (path.empty())
    throw std::runtime_error("cannot start " + excerpt(argv[0]) + ": " + std::strerror(ENOENT));
  int to_child[2], from_child[2], report[2];
  const auto close_all = [&](std::initializer_list<int*> fds) {
    for (int* fd : fds) close_fd(*fd);
  };
  if (pipe2(to_child, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    const int e = errno;
    close_all({&to_child[0], &to_child[1]});
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(e));
  }
  // The child reports a failed exec here (its errno); the pipe closes unread when exec succeeds.
  if (pipe2(report, O_CLOEXEC) != 0) {
    const int e = errno;
    close_all({&to_child[0], &to_child[1], &from_child[0], &from_child[1]});
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(e));
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  // fork, not posix_spawn: the child asks the kernel to kill it when selfplay dies (a SIGKILL
  // leaves no engine running). Between fork and exec it calls async-signal-safe functions only.
  // PR_SET_PDEATHSIG follows the thread that forked: ChildProcess is made on the driver's thread,
  // which outlives its programs.
  const pid_t pid = spawn_registered([&]() -> pid_t {
    const pid_t child = ::fork();
    if (child != 0) return child;
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // selfplay died before the request was in place
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (const int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (::dup2(to_child[0], STDIN_FILENO) >= 0 && ::dup2(from_child[1], STDOUT_FILENO) >= 0)
      ::execve(path.c_str(), args.data(), environ);
    const int error = errno;
    [[maybe_unused]] const ssize_t n = ::write(report[1], &error, sizeof error);
    ::_exit(127);
  });
  const int fork_error = errno;
  close_all({&to_child[0], &from_child[1], &report[1]});
  in_ = to_child[1];
  out_ = from_child[0];
  int exec_error = 0;
  if (pid > 0) {
    ::setpgid(pid, pid);  // also here, so that the group exists whichever runs first
    ssize_t n;
    while ((n = ::read(report[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
    }
    if (n != sizeof exec_error) exec_error = 0;
  }
  close_fd(report[0]);
  if (pid < 0 || exec_error != 0) {
    close_fd(in_);
    close_fd(out_);
    if (pid > 0) {
      pid_ = pid;
      reap(false, "");
    }
    pid_ = -1;
    reaped_ = true;
    throw std::runtime_error("cannot start " + excerpt(argv[0]) + ": " +
                             std::strerror(pid < 0 ? fork_error : exec_error));
  }
  pid_ = pid;
}

ChildProcess::~ChildProcess() {
  if (!reaped_) kill_now();
  close_fd(in_);
  close_fd(out_);
}

bool ChildProcess::write_line(std::string_view line) {
  if (in_ < 0) return false;
  std::string text(line);
  text += '\n';
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EPIPE: SIGPIPE is ignored by selfplay
    done += static_cast<size_t>(n);
  }
  return true;
}

bool ChildProcess::has_buffered_line() const {
  return eof_ || buf_.find('\n') != std::string::npos;
}

bool ChildProcess::fill(Clock::time_point deadline) {
  pollfd p{out_, POLLIN, 0};
  const int timeout = deadline == Clock::time_point::min() ? 0 : poll_timeout(deadline);
  const int ready = ::poll(&p, 1, timeout);
  if (ready < 0) return true;  // EINTR: the caller checks its deadline and calls again
  if (ready == 0) return true;
  char chunk[4096];
  const ssize_t n = ::read(out_, chunk, sizeof chunk);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  buf_.append(chunk, static_cast<size_t>(n));
  return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const size_t nl = buf_.find('\n');
    if (nl != std::string::npos) {
      line.assign(buf_, 0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buf_.erase(0, nl + 1);
      return Read::kLine;
    }
    if (eof_ || out_ < 0) {
      eof_ = true;
      return Read::kClosed;
    }
    if (!fill(deadline)) {
      eof_ = true;
      continue;  // a last line without '\n' is dropped: the child ended in the middle of it
    }
    if (buf_.find('\n') == std::string::npos && Clock::now() >= deadline) return Read::kTimeout;
  }
}

std::string ChildProcess::reap(bool killed, const std::string& why) {
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  close_fd(in_);
  close_fd(out_);
  ended_ = killed && !why.empty() ? why : status_text(status);
  unregister_child(pid_);
  return ended_;
}

// Whether the child has exited, without reaping it: while it is a zombie its pid (and so its
// process group's id) cannot be reused, so the group can still be killed safely.
bool ChildProcess::exited() const {
  siginfo_t info{};
  info.si_pid = 0;
  while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
    if (errno != EINTR) return true;  // no such child: nothing left to wait for
  }
  return info.si_pid == pid_;
}

std::string ChildProcess::finish(std::chrono::milliseconds grace, std::string_view last_line) {
  if (reaped_) return ended_;
  // Its descendants, before the last line can make it exit: an engine that exits by itself
  // orphans them, and /proc no longer links them to it.
  const std::vector<ProcessId> started = descendants_of(pid_);
  if (!last_line.empty()) write_line(last_line);
  close_fd(in_);  // EOF on its stdin: a well-behaved engine exits
  const Clock::time_point deadline = Clock::now() + grace;
  // Its stdout closes when it exits; lines it still prints are dropped.
  std::string ignored;
  while (read_line(ignored, deadline) == Read::kLine) {
  }
  bool done = exited();
  if (!done && eof_ && Clock::now() < deadline) {
    // It closed its stdout but has not exited yet: wait on a pidfd (no polling loop) for the rest
    // of the grace period.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      while (::poll(&p, 1, poll_timeout(deadline)) < 0 && errno == EINTR) {
      }
      ::close(pidfd);
    } else {
      // Kernels before 5.3 have no pidfd: look again every 5 ms until the grace period ends.
      while (!(done = exited()) && Clock::now() < deadline) ::usleep(5000);
    }
    done = exited();
  }
  // What the child started ends with it, whether it exited by itself or not: its process group (a
  // wrapper script's background jobs), the descendants it had before END and those /proc still
  // links to it (also those that left the group); what it started after END and orphaned by its
  // exit the command line has adopted and ends (process_tree.hpp).
  kill_processes(started);
  if (!done) kill_descendants(pid_);
  ::kill(-pid_, SIGKILL);
  if (done) return reap(false, "");
  ::kill(pid_, SIGKILL);  // in case it left the process group it was started in
  return reap(true, "killed after not exiting within " + std::to_string(grace.count()) + " ms");
}

std::string ChildProcess::kill_now() {
  if (reaped_) return ended_;
  kill_descendants(pid_);
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  return reap(false, "");
}

}  // namespace sp
