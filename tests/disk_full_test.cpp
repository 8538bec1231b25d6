// Unusable files and output paths: what the CLI says and with which exit code. The read-only
// folder is a tmpfs mounted read-only (root only; skipped otherwise).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "host/io/campaign_file.hpp"
#include "host/io/h5.hpp"
#include "host/io/records.hpp"

namespace sp::io {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "sp_disk_full_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// A tmpfs of `size` bytes ("32k") mounted on a fresh directory; unmounted and removed by the
// destructor, so also when the test fails. Mounting needs CAP_SYS_ADMIN (root in CI).
class Tmpfs {
 public:
  explicit Tmpfs(const std::string& size, unsigned long flags = 0) {
    std::string pattern = (fs::temp_directory_path() / "sp_tmpfs_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", flags, ("size=" + size).c_str()) == 0) {
      mounted_ = true;
    } else {
      error_ = std::strerror(errno);
    }
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
    ::rmdir(dir_.c_str());
  }
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }
  // Gives the file system a new size, keeping its files: "space is back".
  bool resize(const std::string& size) {
    return ::mount("tmpfs", dir_.c_str(), "tmpfs", MS_REMOUNT, ("size=" + size).c_str()) == 0;
  }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }
  bool empty() const { return fs::is_empty(dir_); }

 private:
  std::string dir_, error_;
  bool mounted_ = false;
};

#define SKIP_UNLESS_MOUNTED(tmpfs)                                                         \
  if (!(tmpfs).mounted())                                                                  \
  GTEST_SKIP() << "cannot mount a tmpfs (" << (tmpfs).error()                              \
               << "); the disk-full tests need root (CAP_SYS_ADMIN), the file-size-limit " \
                  "tests cover the same paths without it"

struct Outcome {
  int code = -1;    // exit status, -1 when killed by a signal
  int signal = 0;   // the signal that killed it
  std::string out;  // stdout and stderr together
};

// Runs argv with stdout and stderr captured in `log`. file_size_limit > 0: RLIMIT_FSIZE with
// SIGXFSZ ignored, so that writes beyond the limit fail with EFBIG. A command still running after
// 60 s is killed (SIGALRM), so a hang fails the test instead of stalling it.
Outcome run(const std::vector<std::string>& argv, const std::string& log,
            rlim_t file_size_limit = 0) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
    if (file_size_limit > 0) {
      signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{file_size_limit, file_size_limit};
      setrlimit(RLIMIT_FSIZE, &limit);
    }
    alarm(60);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  Outcome outcome;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return outcome;
  if (WIFEXITED(status)) outcome.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  outcome.out = text.str();
  return outcome;
}

// The message is exactly one line "error: ...", free of HDF5's own error stack.
void expect_one_error_line(const Outcome& o) {
  EXPECT_EQ(o.signal, 0) << "killed by signal " << o.signal << ": " << o.out;
  EXPECT_EQ(o.out.rfind("error: ", 0), 0u) << o.out;
  EXPECT_EQ(o.out.find('\n'), o.out.size() - 1) << "not one line:\n" << o.out;
  EXPECT_EQ(o.out.find("HDF5-DIAG"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("#0"), std::string::npos) << o.out;
}

// A campaign of weak, fast MCTS players with every ply stored as a position, so the file grows
// quickly, flushed often, so that the disk fills up between flushes and during them.
std::string write_config(const TempDir& dir, uint32_t games) {
  const std::string path = dir.file("random.yaml");
  std::ofstream(path) << "game: ewn\n"
                         "campaign:\n"
                         "  games: "
                      << games
                      << "\n"
                         "  concurrency: 8\n"
                         "  seed: 7\n"
                         "engines:\n"
                         "  player0:\n"
                         "    rollouts_per_move: 48\n"
                         "  player1:\n"
                         "    rollouts_per_move: 48\n"
                         "backend:\n"
                         "  name: cpu\n"
                         "  threads: 1\n"
                         "output:\n"
                         "  path: unused.h5\n"
                         "  positions_per_game: 0\n"
                         "  flush_seconds: 0.01\n";
  return path;
}

std::vector<std::string> run_args(const std::string& config, const std::string& out,
                                  bool resume = false) {
  std::vector<std::string> args = {SELFPLAY_BINARY, "run", config, "--out", out, "--quiet"};
  if (resume) args.push_back("--resume");
  return args;
}

// Files and paths that are not usable campaign files: exit code 2 and one line naming the
// problem, never HDF5's error stack, a crash or a hang, for every command that takes them.
class BadFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = write_config(dir_, 20);
    const std::string good = dir_.file("good.h5");
    const Outcome o = run(run_args(config_, good), dir_.file("good.log"));
    ASSERT_EQ(o.code, 0) << o.out;
    std::ifstream in(good, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 4096u);
    std::ofstream(dir_.file("truncated.h5"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    std::string damaged = bytes;  // the superblock intact, metadata after it overwritten
    std::mt19937 noise(5);
    for (size_t at = 2048; at + 64 < damaged.size(); at += 2048) {
      for (size_t i = 0; i < 64; ++i) damaged[at + i] = static_cast<char>(noise());
    }
    std::ofstream(dir_.file("damaged.h5"), std::ios::binary) << damaged;
    std::string random(30000, '\0');
    for (char& c : random) c = static_cast<char>(noise());
    std::ofstream(dir_.file("random.h5"), std::ios::binary) << random;
    std::ofstream(dir_.file("empty.h5")).close();
    fs::create_directory(dir_.file("directory.h5"));
    std::ofstream(dir_.file("plain")) << "a file";
  }

  void expect_bad_input(const std::vector<std::string>& args, const std::string& mentions) {
    SCOPED_TRACE(args[1] + " " + args[2] + " ... " + args.back());
    const Outcome o = run(args, dir_.file("bad.log"));
    EXPECT_EQ(o.code, 2) << o.out;
    expect_one_error_line(o);
    EXPECT_NE(o.out.find(mentions), std::string::npos)
        << "expected '" << mentions << "' in " << o.out;
  }

  std::string tune_config(const std::string& input) {
    const std::string path = dir_.file("tune.yaml");
    std::ofstream(path) << "method: texel\n"
                           "data:\n"
                           "  inputs: [\""
                        << input
                        << "\"]\n"
                           "weights:\n"
                           "  initial: " SELFPLAY_SOURCE_DIR
                           "/configs/ewn/weights/survival-distance.yaml\n"
                           "  output: "
                        << dir_.file("tuned.yaml")
                        << "\n"
                           "texel:\n"
                           "  epochs: 1\n";
    return path;
  }

  TempDir dir_;
  std::string config_;
  const std::string match_config_ =
      SELFPLAY_SOURCE_DIR "/configs/ewn/match-mcts-vs-expectimax.yaml";
};

TEST_F(BadFiles, UnusableOutputPaths) {
  const std::string too_long = dir_.file(std::string(300, 'x') + ".h5");
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {dir_.file("directory.h5"), "is a directory"},
      {"/dev/null", "not a regular file"},
      {too_long, "File name too long"},
      {dir_.file("plain") + "/c.h5", "Not a directory"},
  };
  for (const auto& [out, mentions] : outputs) {
    expect_bad_input(run_args(config_, out), mentions);
    expect_bad_input(run_args(config_, out, true), mentions);
    expect_bad_input(
        {SELFPLAY_BINARY, "match", match_config_, "--pairs", "1", "--quiet", "--out", out},
        mentions);
  }
}

TEST_F(BadFiles, ReadOnlyFolder) {
  Tmpfs read_only("64k", MS_RDONLY);
  SKIP_UNLESS_MOUNTED(read_only);
  const std::string out = read_only.file("c.h5");
  expect_bad_input(run_args(config_, out), "Read-only file system");
  expect_bad_input(
      {SELFPLAY_BINARY, "match", match_config_, "--pairs", "1", "--quiet", "--out", out},
      "Read-only file system");
  expect_bad_input(run_args(config_, read_only.file("sub/c.h5")), "Read-only file system");
}

TEST_F(BadFiles, UnreadableCampaignFiles) {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {dir_.file("truncated.h5"), "truncated"},
      {dir_.file("damaged.h5"), "damaged.h5"},
      {dir_.file("random.h5"), "file signature not found"},
      {dir_.file("empty.h5"), "empty file"},
      {dir_.file("directory.h5"), "directory"},
      {"/dev/null", "not a regular file"},
  };
  for (const auto& [file, mentions] : inputs) {
    expect_bad_input(run_args(config_, file, true), mentions);
    expect_bad_input({SELFPLAY_BINARY, "match", match_config_, "--pairs", "1", "--quiet",
                      "--resume", "--out", file},
                     mentions);
    expect_bad_input({SELFPLAY_BINARY, "tune", tune_config(file)}, mentions);
  }
}

// The reader's own errors are typed: H5FileError (bad input) for a file that is not a readable
// campaign, in the constructor or while reading rows.
TEST_F(BadFiles, ReaderThrowsFileErrors) {
  for (const char* name : {"truncated.h5", "damaged.h5", "random.h5", "empty.h5", "directory.h5"}) {
    SCOPED_TRACE(name);
    try {
      const CampaignReader reader(dir_.file(name));
      reader.games();
      reader.plies();
      reader.positions();
      reader.features();
      FAIL() << "no error";
    } catch (const H5FileError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sp::io
