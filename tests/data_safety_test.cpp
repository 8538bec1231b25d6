// Never lose a game: one writer per output file (a lock that names its holder and that a killed run
// does not leave held), the states an early kill leaves (a temporary skeleton, a stale lock) never
// block a later run, a file cut short is refused and kept, engines that do not fit leave no file,
// resume compares what decides the games (weights by content, positions_per_game) and names the key
// that differs, SIGPIPE and SIGHUP do not cost the final flush, and resume keeps counts, symbolic
// links and permission bits right. Drives the built CLI; the states are made on purpose, and
// children are awaited on conditions, never on timing.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/base/system/system.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;
using test::read_text;

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
output: {path: unused.h5, positions_per_game: 3, flush_seconds: 0.05}
)";

const char* kMatch = R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {concurrency: 4, seed: 32}
engines:
  player0: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, weights: w.yaml, eval_blend: 0.3}
  player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8}
backend: {name: cpu, threads: 1, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 2, flush_seconds: 0.05}
match: {pairs: 4, sprt: {enabled: false}}
)";

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

// How the tests start the CLI as a child: stdout and stderr to its log file, default signal
// dispositions.
const test::ChildOptions kLogged{.stderr_to_log = true, .default_signals = true};

class DataSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "a");
    write_setup(dir_ / "a");
  }

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

  test::TempDir tmp_;
  const fs::path& dir_ = tmp_.path();
};

// ---- one writer per file

TEST_F(DataSafety, SecondWriterIsRefusedWhileTheLockIsHeldAndNamesTheHolder) {
  const std::string out = file("f.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 4 --quiet --out " + out).code, 0);
  const std::string before = read_text(out);
  {
    FileLock held = io::lock_for_writing(out);  // as a running writer holds it
    const std::string holder = "pid " + std::to_string(getpid()) + " on " + host_name();
    for (const std::string& command :
         {"run " + config() + " --games 8 --quiet --resume --out " + out,
          "run " + config() + " --games 8 --quiet --out " + out,
          "match " + config("a/m.yaml") + " --quiet --resume --out " + out}) {
      SCOPED_TRACE(command);
      const test::CommandResult r = selfplay(command);
      EXPECT_EQ(r.code, 2) << r.out;
      EXPECT_NE(r.out.find(holder), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("being written by another process"), std::string::npos) << r.out;
    }
    EXPECT_EQ(read_text(out), before) << "a refused writer must not touch the file";
    // The same lock refuses a writer in this process too.
    RunOptions resume;
    resume.output = out;
    resume.resume = true;
    const config::Config<EwnGame> cfg =
        with_overrides(config::load_campaign_config<EwnGame>(config()), resume);
    std::atomic<bool> stop{false};
    EXPECT_THROW(run_campaign(cfg, resume, stop), FileLocked);
    const test::CommandResult other =
        selfplay("match " + config("a/m.yaml") + " --quiet --out " + file("m.h5"));
    EXPECT_EQ(other.code, 0) << "another output is not locked: " << other.out;
  }
  const test::CommandResult r =
      selfplay("run " + config() + " --games 8 --quiet --resume --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(games_in(out), 8u);
  EXPECT_FALSE(fs::exists(out + ".lock")) << "a writer removes its lock file when it is done";
}

// The tester's scenario: a second writer while the first is running. The first keeps its file and
// the file holds every game it reports.
TEST_F(DataSafety, ResumeWhileAnotherRunWritesIsRefusedAndTheRunKeepsEveryGame) {
  const std::string out = file("f.h5");
  const std::string log = file("first.log");
  test::Child first(
      {SELFPLAY_BINARY, "run", config(), "--games", "1000000", "--quiet", "--out", out}, log, {},
      kLogged);
  ASSERT_TRUE(wait_until([&] { return games_in(out) >= 2; })) << read_text(log);
  const test::CommandResult second =
      selfplay("run " + config() + " --games 3 --quiet --resume --out " + out);
  EXPECT_EQ(second.code, 2) << second.out;
  EXPECT_NE(second.out.find("pid " + std::to_string(first.pid())), std::string::npos) << second.out;
  first.signal(SIGTERM);
  ASSERT_EQ(first.wait(), 130) << read_text(log);
  const std::string summary = read_text(log);
  const uint64_t n = games_in(out);
  EXPECT_NE(summary.find(" (this run), " + std::to_string(n) + " in the file"), std::string::npos)
      << n << " games in the file; the run said:\n"
      << summary;
}

// SIGKILL leaves the lock file behind, but not the lock: the kernel dropped it with the process.
TEST_F(DataSafety, LockLeftByAKilledRunDoesNotBlockResume) {
  const std::string out = file("f.h5");
  test::Child child(
      {SELFPLAY_BINARY, "run", config(), "--games", "1000000", "--quiet", "--out", out},
      file("killed.log"), {}, kLogged);
  ASSERT_TRUE(wait_until([&] { return games_in(out) >= 1; })) << read_text(file("killed.log"));
  child.signal(SIGKILL);
  ASSERT_EQ(child.wait(), 128 + SIGKILL);
  ASSERT_TRUE(fs::exists(out + ".lock"));
  const test::CommandResult r =
      selfplay("run " + config() + " --games 1 --quiet --resume --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(fs::exists(out + ".lock"));

  // A lock file naming a process elsewhere, held by nobody: a fresh run takes it over too.
  std::ofstream(file("g.h5.lock")) << "pid 4194303 on some-other-host\n";
  const test::CommandResult fresh =
      selfplay("run " + config() + " --games 2 --quiet --out " + file("g.h5"));
  EXPECT_EQ(fresh.code, 0) << fresh.out;
  EXPECT_EQ(games_in(file("g.h5")), 2u);
}

// ---- what an early kill leaves

// A file cut short anywhere (a truncated copy, an older version killed while creating it) is
// refused the same way at every size and kept byte for byte: before issue 23 a file of under
// 4 KiB was replaced by a fresh campaign (exit 0).
TEST_F(DataSafety, ResumeOfAnEmptyOrTruncatedFileIsRefusedAndKept) {
  const std::string whole = file("whole.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 2 --quiet --out " + whole).code, 0);
  const std::string bytes = read_text(whole);
  ASSERT_GT(bytes.size(), 8192u);
  const std::string out = file("cut.h5");
  for (const size_t size : {size_t{0}, size_t{8}, size_t{48}, size_t{1000}, size_t{3000},
                            size_t{4095}, size_t{4096}, bytes.size() / 2}) {
    SCOPED_TRACE(std::to_string(size) + "-byte file");
    std::ofstream(out, std::ios::binary | std::ios::trunc) << bytes.substr(0, size);
    const test::CommandResult fresh =
        selfplay("run " + config() + " --games 6 --quiet --out " + out);
    EXPECT_EQ(fresh.code, 2) << fresh.out;
    EXPECT_NE(fresh.out.find("--resume"), std::string::npos) << fresh.out;
    const test::CommandResult r = selfplay("run " + config() + " --games 6 --resume --out " + out);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(out), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("afresh"), std::string::npos) << r.out;
    EXPECT_EQ(read_text(out), bytes.substr(0, size));
  }
  // The same for a match.
  std::ofstream(out, std::ios::binary | std::ios::trunc) << bytes.substr(0, 48);
  const test::CommandResult r =
      selfplay("match " + config("a/m.yaml") + " --quiet --resume --out " + out);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(read_text(out), bytes.substr(0, 48));
}

TEST_F(DataSafety, ResumeLeavesAFileItCannotReadAlone) {
  const std::string out = file("precious.h5");
  std::ofstream(out) << "not a campaign, and not empty\n";
  const std::string whole = file("whole.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 2 --quiet --out " + whole).code, 0);
  const std::string big = file("damaged.h5");  // an HDF5 file's start, larger than any skeleton
  std::ofstream(big, std::ios::binary) << read_text(whole).substr(0, 48) << std::string(70000, 'x');
  for (const std::string& path : {out, big}) {
    const std::string before = read_text(path);
    const test::CommandResult r =
        selfplay("run " + config() + " --games 2 --quiet --resume --out " + path);
    EXPECT_NE(r.code, 0) << r.out;
    EXPECT_EQ(read_text(path), before);
  }
}

TEST_F(DataSafety, LeftoverTemporaryFilesBlockNothing) {
  const std::string out = file("f.h5");
  std::ofstream(out + ".create.tmp") << "a skeleton cut short";
  std::ofstream(out + ".resume.tmp") << "a copy cut short";
  const test::CommandResult r = selfplay("run " + config() + " --games 3 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(fs::exists(out + ".create.tmp"));
  std::ofstream(out + ".create.tmp") << "a skeleton cut short";
  const test::CommandResult resumed =
      selfplay("run " + config() + " --games 6 --quiet --resume --out " + out);
  EXPECT_EQ(resumed.code, 0) << resumed.out;
  EXPECT_EQ(games_in(out), 6u);
  EXPECT_FALSE(fs::exists(out + ".resume.tmp"));
}

TEST_F(DataSafety, EnginesThatDoNotFitInMemoryLeaveNoFile) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit allows";
#endif
  std::ofstream(dir_ / "a" / "big.yaml")
      << std::string(kCampaign) +
             "\n# 2 GiB tables for 4 games: within the machine's memory (the estimate\n# passes) "
             "but not under ulimit -v, so building the engines fails\n";
  std::string text = read_text(dir_ / "a" / "big.yaml");
  const std::string player1 = "player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8}";
  text.replace(text.find(player1), player1.size(),
               "player1: {type: expectimax, depth: 1, tt_size_mb: 2048, weights: w.yaml}");
  std::ofstream(dir_ / "a" / "big.yaml") << text;
  const std::string out = file("big.h5");
  const test::CommandResult r =
      test::run_command("ulimit -v 4000000 && '" + std::string(SELFPLAY_BINARY) + "' run " +
                        config("a/big.yaml") + " --quiet --out " + out + " 2>&1");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("tt_size_mb 2048"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out)) << "the engines are built before the file is created";
  EXPECT_FALSE(fs::exists(out + ".lock"));
  EXPECT_FALSE(fs::exists(out + ".create.tmp"));
}

// ---- resume identity

TEST_F(DataSafety, ResumeComparesWeightsByContentNotByPath) {
  const std::string out = file("f.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 4 --quiet --out " + out).code, 0);
  // The config and an identical weights file elsewhere: the same campaign.
  fs::create_directories(dir_ / "b");
  write_setup(dir_ / "b");
  const test::CommandResult moved =
      selfplay("run " + config("b/c.yaml") + " --games 6 --quiet --resume --out " + out);
  EXPECT_EQ(moved.code, 0) << moved.out;
  EXPECT_EQ(games_in(out), 6u);

  // The weights edited in place, same path: another engine.
  std::string weights = read_text(dir_ / "a" / "w.yaml");
  const size_t at = weights.find("own_cubes:");
  ASSERT_NE(at, std::string::npos);
  weights.replace(at, weights.find('\n', at) - at, "own_cubes: 77");
  std::ofstream(dir_ / "a" / "w.yaml") << weights;
  const std::string before = read_text(out);
  const test::CommandResult edited =
      selfplay("run " + config() + " --games 8 --quiet --resume --out " + out);
  EXPECT_EQ(edited.code, 2) << edited.out;
  EXPECT_NE(edited.out.find("engines.player0.weights.own_cubes"), std::string::npos) << edited.out;
  EXPECT_NE(edited.out.find("77 in this run"), std::string::npos) << edited.out;
  EXPECT_EQ(read_text(out), before);

  // positions_per_game decides what the file holds: part of the identity.
  std::string text = read_text(dir_ / "b" / "c.yaml");
  text.replace(text.find("positions_per_game: 3"), 21, "positions_per_game: 5");
  std::ofstream(dir_ / "b" / "c.yaml") << text;
  const test::CommandResult positions =
      selfplay("run " + config("b/c.yaml") + " --games 8 --quiet --resume --out " + out);
  EXPECT_EQ(positions.code, 2) << positions.out;
  EXPECT_NE(positions.out.find("output.positions_per_game (3 in the file, 5 in this run)"),
            std::string::npos)
      << positions.out;
}

TEST_F(DataSafety, MatchResumeComparesWeightsByContent) {
  const std::string out = file("m.h5");
  ASSERT_EQ(selfplay("match " + config("a/m.yaml") + " --pairs 2 --quiet --out " + out).code, 0);
  fs::create_directories(dir_ / "b");
  write_setup(dir_ / "b");
  const test::CommandResult moved =
      selfplay("match " + config("b/m.yaml") + " --pairs 3 --quiet --resume --out " + out);
  EXPECT_EQ(moved.code, 0) << moved.out;
  EXPECT_EQ(games_in(out), 6u);
  std::string weights = read_text(dir_ / "b" / "w.yaml");
  const size_t at = weights.find("own_cubes:");
  weights.replace(at, weights.find('\n', at) - at, "own_cubes: 77");
  std::ofstream(dir_ / "b" / "w.yaml") << weights;
  const test::CommandResult edited =
      selfplay("match " + config("b/m.yaml") + " --pairs 4 --quiet --resume --out " + out);
  EXPECT_EQ(edited.code, 2) << edited.out;
  EXPECT_NE(edited.out.find("engines.player0.weights.own_cubes"), std::string::npos) << edited.out;
}

// Files written before the identity was stored are compared through their stored config.
TEST_F(DataSafety, FileWithoutAStoredIdentityStillResumes) {
  const std::string out = file("old.h5");
  const config::Config<EwnGame> cfg = config::load_campaign_config<EwnGame>(config());
  {
    rollout::BackendInfo backend;
    backend.name = "cpu";
    backend.device = "test";
    io::FileMeta meta = file_meta(cfg, backend, config::explain_campaign_config(cfg));
    ASSERT_TRUE(meta.identity.empty());
    io::CampaignWriter::create(out, meta).close();
  }
  EXPECT_TRUE(io::CampaignReader(out).meta().identity.empty());
  const test::CommandResult r =
      selfplay("run " + config() + " --games 3 --quiet --resume --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(games_in(out), 3u);
  EXPECT_EQ(io::CampaignReader(out).meta().identity, run_identity(cfg, false));
}

TEST(ResumeIdentity, DifferenceNamesTheFirstKeyWithBothValues) {
  EXPECT_EQ(identity_difference("a: 1\nb: {c: x}\n", "a: 1\nb: {c: x}\n"), "");
  EXPECT_EQ(identity_difference("a: 1\nb: {c: x}\n", "a: 1\nb: {c: y}\n"),
            "b.c (x in the file, y in this run)");
  EXPECT_EQ(identity_difference("a: 1\n", "a: 1\nd: 2\n"), "d (not in the file, 2 in this run)");
  EXPECT_EQ(identity_difference("a: 1\nd: 2\n", "a: 1\n"), "d (2 in the file, not in this run)");
  EXPECT_EQ(identity_difference("w: ~\n", "w: {x: 1}\n"),
            "w (none in the file, {x: 1} in this run)");
  // A feature appended to the game since the file was written, weighed 0, is the old evaluation.
  const std::string old_weights = "engines: {player0: {type: alphabeta, weights: {a: 1}}}\n";
  EXPECT_EQ(identity_difference(old_weights,
                                "engines: {player0: {type: alphabeta, weights: {a: 1, b: 0}}}\n"),
            "");
  EXPECT_EQ(identity_difference(old_weights,
                                "engines: {player0: {type: alphabeta, weights: {a: 1, b: 2}}}\n"),
            "engines.player0.weights.b (not in the file, 2 in this run)");
  // A key added since the file was written counts as equal at the value added_defaults gives it
  // (the file's config read by this build), and only there.
  const std::string added = "a: 1\ne: {f: false, g: 3}\n";
  EXPECT_EQ(identity_difference("a: 1\ne: {g: 3}\n", "a: 1\ne: {f: false, g: 3}\n", added), "");
  EXPECT_EQ(identity_difference("a: 1\ne: {g: 3}\n", "a: 1\ne: {f: true, g: 3}\n", added),
            "e.f (not in the file, true in this run)");
  EXPECT_EQ(identity_difference("a: 1\ne: {g: 3}\n", "a: 1\ne: {f: false, g: 4}\n", added),
            "e.g (3 in the file, 4 in this run)");
  EXPECT_EQ(identity_difference("a: 1\ne: {g: 3}\n", "a: 1\ne: {f: false, g: 3}\n"),
            "e.f (not in the file, false in this run)");
  // What run_identity leaves out may change; what it keeps may not.
  config::Config<EwnGame> cfg = config::load_campaign_config_text<EwnGame>(
      "engines: {player0: {type: random}, player1: {type: random}}\n", "x.yaml");
  config::Config<EwnGame> other = cfg;
  other.games = 7;
  other.concurrency = 3;
  other.backend.threads = 5;
  other.output.path = "elsewhere.h5";
  other.output.flush_seconds = 9;
  EXPECT_EQ(identity_difference(run_identity(cfg, false), run_identity(other, false)), "");
  other.output.positions_per_game = 9;
  EXPECT_NE(identity_difference(run_identity(cfg, false), run_identity(other, false))
                .find("positions_per_game"),
            std::string::npos);
}

// ---- signals

TEST_F(DataSafety, SigpipeOnTheLogDoesNotKillTheCampaign) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);  // nobody reads: every write to the pipe raises SIGPIPE
  const std::string out = file("f.h5");
  test::Child child(
      {SELFPLAY_BINARY, "run", config(), "--games", "6", "--out", out}, "", {},
      test::ChildOptions{.stderr_to_log = true, .output_fd = fds[1], .default_signals = true});
  close(fds[1]);
  EXPECT_EQ(child.wait(), 0);
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
    test::Child child({SELFPLAY_BINARY, command, yaml, count, "1000000", "--quiet", "--out", out},
                      log, {}, kLogged);
    ASSERT_TRUE(wait_until([&] { return games_in(out) >= 2; })) << read_text(log);
    child.signal(SIGHUP);
    EXPECT_EQ(child.wait(), 130) << read_text(log);
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
  test::Child child({SELFPLAY_BINARY, "tune", file("tune.yaml")}, file("tune.log"), {}, kLogged);
  // The trajectory file is created after the handlers are installed.
  ASSERT_TRUE(wait_until([&] {
    return fs::exists(file("spsa.h5.partial")) || fs::exists(file("spsa.h5"));
  })) << read_text(file("tune.log"));
  child.signal(SIGHUP);
  EXPECT_EQ(child.wait(), 130) << read_text(file("tune.log"));
}

// ---- counts, links and modes on resume

TEST_F(DataSafety, ResumeSummaryCountsEveryGameInTheFile) {
  const std::string out = file("f.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 12 --quiet --out " + out).code, 0);
  const test::CommandResult r = selfplay("run " + config() + " --games 1 --resume --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("games played        0 (this run), 12 in the file"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("12 complete games in"), std::string::npos) << r.out;

  const std::string match = file("m.h5");
  ASSERT_EQ(selfplay("match " + config("a/m.yaml") + " --pairs 4 --quiet --out " + match).code, 0);
  const test::CommandResult m =
      selfplay("match " + config("a/m.yaml") + " --pairs 1 --quiet --resume --out " + match);
  EXPECT_EQ(m.code, 0) << m.out;
  EXPECT_NE(m.out.find("games played        0 (this run), 8 in the file"), std::string::npos)
      << m.out;
}

TEST_F(DataSafety, ResumeThroughASymlinkKeepsTheLinkAndTheMode) {
  fs::create_directories(dir_ / "data");
  const std::string target = file("data/t.h5"), link = file("t.h5");
  fs::create_symlink("data/t.h5", link);  // dangling until the first run creates its target
  ASSERT_EQ(selfplay("run " + config() + " --games 4 --quiet --out " + link).code, 0);
  ASSERT_TRUE(fs::is_symlink(link));
  ASSERT_EQ(games_in(target), 4u);
  ASSERT_EQ(chmod(target.c_str(), 0640), 0);
  const test::CommandResult r =
      selfplay("run " + config() + " --games 8 --quiet --resume --out " + link);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_symlink(link)) << "resume replaced the link by a regular file";
  EXPECT_EQ(games_in(target), 8u);
  struct stat st {};
  ASSERT_EQ(stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_FALSE(fs::exists(file("t.h5.lock")));
  EXPECT_FALSE(fs::exists(target + ".lock"));
}

// An output path that exists and is not a regular file (a character device, a FIFO, a socket,
// reached directly or through a link) is refused with exit 2 and left as it was: the writers make
// a file beside the target and rename it over, which would replace the node by a file (as root,
// `--out /dev/null` destroyed the machine's /dev/null). A link to a regular file is written
// through: the link stays, its target gets the output.
TEST_F(DataSafety, OutputsThatAreNotRegularFilesAreRefusedAndLeftAsTheyWere) {
  const std::string games = file("g.h5");
  ASSERT_EQ(selfplay("run " + config() + " --games 2 --quiet --out " + games).code, 0);
  const std::string fifo = file("fifo"), socket_path = file("sock");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof(address.sun_path));
  std::copy(socket_path.begin(), socket_path.end(), address.sun_path);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  ::close(sock);
  const std::string to_null = file("null-link"), to_fifo = file("fifo-link");
  fs::create_symlink("/dev/null", to_null);
  fs::create_symlink("fifo", to_fifo);
  const auto kind = [](const std::string& p) { return fs::symlink_status(p).type(); };
  for (const std::string& out : {fifo, socket_path, to_null, to_fifo}) {
    const fs::file_type before = kind(out);
    for (const std::string& command :
         {"export " + games + " --out " + out, "export " + games + " --format html --out " + out,
          "run " + config() + " --games 2 --quiet --out " + out,
          "match " + config("a/m.yaml") + " --quiet --out " + out}) {
      const test::CommandResult r = selfplay(command);
      EXPECT_EQ(r.code, 2) << command << "\n" << r.out;
      EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << r.out;
      EXPECT_EQ(kind(out), before) << command << " replaced " << out;
    }
  }
  EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
  EXPECT_EQ(kind(fifo), fs::file_type::fifo);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  // Through a link to a regular file (or to none yet): the target is written, the link stays.
  fs::create_directories(dir_ / "data");
  const std::string link = file("out.tsv");
  fs::create_symlink("data/out.tsv", link);
  const test::CommandResult r = selfplay("export " + games + " --out " + link);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_GT(fs::file_size(file("data/out.tsv")), 0u);
  // A folder that does not exist is an error (docs/records.md), not a new tree.
  const test::CommandResult missing =
      selfplay("export " + games + " --out " + file("no/dir/x.tsv"));
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("is not an existing folder"), std::string::npos) << missing.out;
  EXPECT_FALSE(fs::exists(file("no")));
}

}  // namespace
}  // namespace sp::selfplay
