// Never lose a game: SIGPIPE and SIGHUP do not cost a campaign, a match or an SPSA run its final
// flush. Drives the built CLI; children are awaited on conditions, never on timing.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "games/common/errors.hpp"
#include "host/common/system.hpp"
#include "host/config/load.hpp"
#include "host/io/campaign_file.hpp"
#include "host/io/h5.hpp"
#include "host/selfplay/campaign.hpp"
#include "tests/process_util.hpp"

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;

// Tiny engines: a game takes about a millisecond. player0 scores leaves with the weights file
// w.yaml beside the config (eval_blend), so its contents decide the games.
const char* kCampaign = R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {games: 12, concurrency: 4, seed: 31}
engines:
  player0: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, weights: w.yaml, eval_blend: 0.3}
  player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8}
backend: {name: cpu, threads: 1, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 3, flush_seconds: 0.02}
)";

const char* kMatch = R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {concurrency: 4, seed: 32}
engines:
  player0: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, weights: w.yaml, eval_blend: 0.3}
  player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8}
backend: {name: cpu, threads: 1, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 2, flush_seconds: 0.02}
match: {pairs: 4, sprt: {enabled: false}}
)";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t games_in(const std::string& path) {
  try {
    return io::CampaignReader(path).games_count();
  } catch (const std::exception&) {
    return 0;
  }
}

// Whether a plain (non-SWMR) read-only open works: the writer closed the file, flags cleared.
bool closed_cleanly(const std::string& path) {
  io::init_thread();
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  H5Fclose(file);
  return true;
}

// Waits (polling) until done() holds; false after 30 s.
bool wait_until(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// Starts the CLI with stdout and stderr to `log`; the child gets the default signal dispositions.
pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    for (const int s : {SIGPIPE, SIGHUP, SIGINT, SIGTERM}) signal(s, SIG_DFL);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!freopen(log.c_str(), "w", stdout) || dup2(fileno(stdout), STDERR_FILENO) < 0) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

// The exit code, or 128 + the signal that ended the process.
int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

class DataSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sp_safety_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "a");
    write_setup(dir_ / "a");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A campaign config, a match config and the weights file they name, in `where`.
  static void write_setup(const fs::path& where) {
    std::ofstream(where / "c.yaml") << kCampaign;
    std::ofstream(where / "m.yaml") << kMatch;
    fs::copy_file(SELFPLAY_SOURCE_DIR "/configs/ewn/weights/survival-distance.yaml",
                  where / "w.yaml", fs::copy_options::overwrite_existing);
  }

  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::string config(const std::string& name = "a/c.yaml") const { return file(name); }

  // `selfplay ARGS` with stderr folded into the output.
  test::CommandResult selfplay(const std::string& args) const {
    return test::run_command(std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>&1");
  }

  fs::path dir_;
};

// ---- signals

TEST_F(DataSafety, SigpipeOnTheLogDoesNotKillTheCampaign) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);  // nobody reads: every write to the pipe raises SIGPIPE
  const std::string out = file("f.h5");
  const std::string binary = SELFPLAY_BINARY, yaml = config();
  const pid_t pid = fork();
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    execl(binary.c_str(), binary.c_str(), "run", yaml.c_str(), "--games", "6", "--out", out.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_EQ(games_in(out), 6u);
  EXPECT_TRUE(closed_cleanly(out));
}

TEST_F(DataSafety, SighupStopsRunAndMatchCleanlyLikeSigterm) {
  for (const std::string command : {"run", "match"}) {
    SCOPED_TRACE(command);
    const std::string out = file(command + ".h5");
    const std::string yaml = config(command == "run" ? "a/c.yaml" : "a/m.yaml");
    const std::string count = command == "run" ? "--games" : "--pairs";
    const std::string log = file(command + ".log");
    const pid_t pid =
        spawn({SELFPLAY_BINARY, command, yaml, count, "1000000", "--quiet", "--out", out}, log);
    ASSERT_TRUE(wait_until([&] { return games_in(out) >= 2; })) << read_text(log);
    kill(pid, SIGHUP);
    EXPECT_EQ(wait_exit(pid), 130) << read_text(log);
    EXPECT_TRUE(closed_cleanly(out)) << "the final flush and close must have run";
    EXPECT_NE(read_text(log).find("--resume"), std::string::npos) << read_text(log);
  }
}

TEST_F(DataSafety, SighupStopsSpsaTuningCleanly) {
  std::ofstream(file("tune.yaml"))
      << "method: spsa\nseed: 4\nspsa:\n  match: " + config("a/m.yaml") +
             "\n  iterations: 1000000\n  pairs: 1\n  output: " + file("spsa.h5") +
             "\n  result: " + file("spsa.yaml") + R"(
  parameters:
    - {name: exploration, start: 0.7, min: 0.1, max: 2, c_end: 0.1, r_end: 0.002}
)";
  const pid_t pid = spawn({SELFPLAY_BINARY, "tune", file("tune.yaml")}, file("tune.log"));
  // The trajectory file is created after the handlers are installed.
  ASSERT_TRUE(wait_until([&] {
    return fs::exists(file("spsa.h5.partial")) || fs::exists(file("spsa.h5"));
  })) << read_text(file("tune.log"));
  kill(pid, SIGHUP);
  EXPECT_EQ(wait_exit(pid), 130) << read_text(file("tune.log"));
}

}  // namespace
}  // namespace sp::selfplay
