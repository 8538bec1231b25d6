// Running a shell command from a test and capturing what it prints, for the tests that drive the
// built `selfplay` binary.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace sp::test {

struct CommandResult {
  int code = -1;    // exit status; -1 when the command did not exit normally or could not start
  std::string out;  // everything it wrote to stdout (redirect stderr in the command to keep it)
};

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

}  // namespace sp::test
