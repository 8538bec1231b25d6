// What the tests share: paths in the source tree, reading a file, a scratch directory per test,
// and running the built `selfplay` binary, either to capture what it prints (run_command) or as a
// child process the test can stop, signal and wait for (Child).
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ;

namespace sp::test {

// A file or directory of the source tree, from its path relative to the root.
inline std::string source_path(const std::string& relative) {
  return std::string(SELFPLAY_SOURCE_DIR) + "/" + relative;
}

// Threads of this process now (entries of /proc/self/task); -1 when it cannot be read.
inline int os_threads() {
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int n = 0;
  while (const dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
}

// The whole file, byte for byte; "" when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory for one test, named after it, under the system's temporary directory; it is
// removed with its contents when the object goes.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? info->name() : "test";
    for (char& c : name)
      if (c == '/' || c == ' ') c = '_';
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("selfplay_" + name + "_XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes text to `name` inside the directory; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return path_ / name;
  }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int code = -1;    // exit status; -1 when the command did not exit normally or could not start
  std::string out;  // everything it wrote to stdout (redirect stderr in the command to keep it)
};

// Runs a shell command and captures its standard output.
inline CommandResult run_command(const std::string& shell_command) {
  CommandResult r;
  FILE* pipe = popen(shell_command.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Exit code of a wait status: the code of a normal exit, 128 + the signal for a killed process.
inline int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// How a Child is started, beyond its arguments; the defaults suit a CLI the test only waits for.
struct ChildOptions {
  bool stderr_to_log = false;    // stderr to the stdout file (or output_fd) too, not /dev/null
  int output_fd = -1;            // >= 0: stdout goes to this descriptor instead of a file
  bool default_signals = false;  // SIGPIPE, SIGHUP, SIGINT and SIGTERM reset to SIG_DFL
  rlim_t file_size_limit = 0;    // > 0: RLIMIT_FSIZE, SIGXFSZ ignored: writes past it get EFBIG
  unsigned timeout_seconds = 0;  // > 0: SIGALRM after so long, so a hang fails the test
};

// A child process: args[0] is the program (SELFPLAY_BINARY), run with the test's environment plus
// `env` (NAME=value entries, which replace a variable of the same name), its stdout to
// stdout_path and its stderr to /dev/null, unless `options` say otherwise. The destructor kills
// (SIGKILL) and reaps it if the test did not wait for its end, so a failed assertion never leaves
// a process behind.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args, const std::string& stdout_path = "/dev/null",
                 const std::vector<std::string>& env = {}, const ChildOptions& options = {}) {
    // Everything the child needs is built before fork(): after it only exec-safe calls are made.
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e) {
      const std::string_view entry(*e);
      const auto same_name = [&](const std::string& mine) {
        return entry.substr(0, entry.find('=') + 1) == mine.substr(0, mine.find('=') + 1);
      };
      if (std::none_of(env.begin(), env.end(), same_name)) envp.push_back(*e);
    }
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      const int out = options.output_fd >= 0
                          ? options.output_fd
                          : open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = options.stderr_to_log ? out : open("/dev/null", O_WRONLY);
      if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
      if (out > 2) close(out);
      if (err > 2 && err != out) close(err);
      if (options.default_signals)
        for (const int s : {SIGPIPE, SIGHUP, SIGINT, SIGTERM}) ::signal(s, SIG_DFL);
      if (options.file_size_limit > 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{options.file_size_limit, options.file_size_limit};
        setrlimit(RLIMIT_FSIZE, &limit);
      }
      if (options.timeout_seconds > 0) alarm(options.timeout_seconds);
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) const { kill(pid_, sig); }

  // Waits for the end; returns exit_code() of it (127: the program could not be started).
  int wait() { return exit_code(wait_status()); }
  // Waits for the end; returns the wait status, for a test that tells a signal from an exit code.
  int wait_status() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    return status;
  }
  // Waits until the child stops (SIGSTOP) or ends; true when it stopped. After an end it is
  // reaped, and wait() must not be called.
  bool wait_stopped() {
    int status = 0;
    waitpid(pid_, &status, WUNTRACED);
    if (WIFSTOPPED(status)) return true;
    pid_ = 0;
    return false;
  }

 private:
  pid_t pid_ = 0;
};

}  // namespace sp::test
