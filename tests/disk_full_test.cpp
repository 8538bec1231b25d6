// A full disk, a file size limit and unusable files: what readers of the campaign file see
// afterwards, what the CLI says and with which exit code, and that --resume then completes the
// campaign. The disk-full tests mount small tmpfs file systems (root only; skipped otherwise); the
// file-size-limit tests make writes fail with EFBIG instead and run everywhere.
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
#include <set>
#include <string>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/base/hdf5/records.hpp"
#include "tests/test_util.hpp"

namespace sp::io {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// A tmpfs of `size` bytes ("32k") mounted on a fresh directory; unmounted and removed by the
// destructor, so also when the test fails. Mounting needs CAP_SYS_ADMIN (root in CI).
class Tmpfs {
 public:
  explicit Tmpfs(const std::string& size, unsigned long flags = 0) {
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", flags, ("size=" + size).c_str()) == 0) {
      mounted_ = true;
    } else {
      error_ = std::strerror(errno);
    }
  }
  // Unmounts before the mount point goes with point_.
  ~Tmpfs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
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
  test::TempDir point_;
  const std::string dir_ = point_.path().string();
  std::string error_;
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

// HDF5 1.10 itself leaks an object header (424 bytes) when a damaged file's metadata fails its
// checksum; sanitizer builds (LeakSanitizer) must not count that against the command.
constexpr const char* kHdf5LeakSuppression = "leak:libhdf5\n";

// Runs argv with stdout and stderr captured in `log`. file_size_limit > 0: RLIMIT_FSIZE with
// SIGXFSZ ignored, so that writes beyond the limit fail with EFBIG. A command still running after
// 60 s is killed (SIGALRM), so a hang fails the test instead of stalling it. hdf5_leaks: the
// command reads a damaged file (see kHdf5LeakSuppression).
Outcome run(const std::vector<std::string>& argv, const std::string& log,
            rlim_t file_size_limit = 0, bool hdf5_leaks = false) {
  std::vector<std::string> env;
  if (hdf5_leaks) {
    const std::string suppressions = log + ".lsan";
    std::ofstream(suppressions) << kHdf5LeakSuppression;
    const char* options = std::getenv("LSAN_OPTIONS");
    env.push_back("LSAN_OPTIONS=" + (options && *options ? std::string(options) + ":" : "") +
                  "suppressions=" + suppressions + ":print_suppressions=0");
  }
  test::Child child(
      argv, log, env,
      {.stderr_to_log = true, .file_size_limit = file_size_limit, .timeout_seconds = 60});
  const int status = child.wait_status();
  Outcome outcome;
  if (WIFEXITED(status)) outcome.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  outcome.out = test::read_text(log);
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
                         "  flush_seconds: 0.05\n";
  return path;
}

constexpr uint32_t kGames = 400;  // about 700 KB of file

std::vector<std::string> run_args(const std::string& config, const std::string& out,
                                  bool resume = false) {
  std::vector<std::string> args = {SELFPLAY_BINARY, "run", config, "--out", out, "--quiet"};
  if (resume) args.push_back("--resume");
  return args;
}

// Every row of `dataset` read through the HDF5 layer, whatever its length: what any reader sees.
template <class T>
std::vector<T> all_rows(hid_t location, const std::string& name, hid_t memory_type,
                        hsize_t columns = 1) {
  const Dataset dataset = open_dataset(location, name);
  const hsize_t n = rows(dataset.get());
  std::vector<T> out(n * columns);
  read_rows(dataset.get(), memory_type, 0, n, out.data());
  return out;
}

// What readers see in the file a failed run left: no row that was sized but never written
// (game_id or batch == kNoGame, NaN features) in any dataset at its full length, and every /games
// row a complete game, with all its plies and (positions_per_game: 0) a position per ply.
// Returns the games by id.
std::map<uint64_t, GameRow> expect_only_complete_games(const std::string& path) {
  {
    const File file = open_file(path, OpenMode::kReadSwmr);
    const hid_t root = file.get();
    const auto ids = all_rows<uint64_t>(root, "positions/game_id", H5T_NATIVE_UINT64);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), kNoGame), 0)
        << "unwritten /positions/game_id rows";
    const Dataset features = open_dataset(root, "positions/features");
    const hsize_t width = dims(features.get()).at(1);
    const auto values = all_rows<float>(root, "positions/features", H5T_NATIVE_FLOAT, width);
    EXPECT_EQ(std::count_if(values.begin(), values.end(), [](float v) { return std::isnan(v); }), 0)
        << "unwritten /positions/features values";
  }
  const CampaignReader reader(path);
  std::map<uint64_t, GameRow> games;
  int unwritten_games = 0, unwritten_plies = 0, unwritten_perf = 0;
  for (const GameRow& g : reader.games()) {
    if (g.game_id == kNoGame) {
      ++unwritten_games;
      continue;
    }
    EXPECT_TRUE(games.emplace(g.game_id, g).second) << "game " << g.game_id << " twice";
  }
  for (const PerfRow& p : reader.perf()) unwritten_perf += p.batch == kNoGame;
  std::map<uint64_t, uint64_t> plies, positions;
  for (const PlyRow& p : reader.plies()) {
    unwritten_plies += p.game_id == kNoGame;
    ++plies[p.game_id];
  }
  EXPECT_EQ(unwritten_games, 0) << "unwritten /games rows";
  EXPECT_EQ(unwritten_plies, 0) << "unwritten /plies rows";
  EXPECT_EQ(unwritten_perf, 0) << "unwritten /perf rows";
  for (const PositionRow& p : reader.positions()) ++positions[p.game_id];
  for (const auto& [id, g] : games) {
    EXPECT_EQ(plies[id], g.plies) << "plies of game " << id;
    EXPECT_EQ(positions[id], g.plies) << "positions of game " << id;
  }
  return games;
}

// Games of a failed-then-resumed run must be those of an uninterrupted run.
void expect_same_games(const std::map<uint64_t, GameRow>& games,
                       const std::map<uint64_t, GameRow>& reference) {
  for (const auto& [id, g] : games) {
    const auto it = reference.find(id);
    ASSERT_NE(it, reference.end()) << "game " << id << " is not in the reference run";
    EXPECT_EQ(text_of(g.record), text_of(it->second.record)) << "game " << id;
    EXPECT_EQ(text_of(g.opening), text_of(it->second.opening)) << "game " << id;
    EXPECT_EQ(g.winner, it->second.winner) << "game " << id;
    EXPECT_EQ(g.plies, it->second.plies) << "game " << id;
  }
}

class DiskFull : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = write_config(dir_, kGames);
    const Outcome ref = run(run_args(config_, dir_.file("reference.h5")), dir_.file("ref.log"));
    ASSERT_EQ(ref.code, 0) << ref.out;
    reference_ = expect_only_complete_games(dir_.file("reference.h5"));
    ASSERT_EQ(reference_.size(), kGames);
  }

  // Runs the campaign into `path` until writing fails (the callers make it fail mid-campaign),
  // checks the message and the file, then resumes once `make_room` gave space back.
  void fail_then_resume(const std::string& path, const std::string& cause, rlim_t limit,
                        const std::function<void()>& make_room) {
    const Outcome failed = run(run_args(config_, path), dir_.file("failed.log"), limit);
    EXPECT_EQ(failed.code, 1) << failed.out;
    expect_one_error_line(failed);
    const auto games = expect_only_complete_games(path);
    EXPECT_LT(games.size(), kGames);
    expect_same_games(games, reference_);
    EXPECT_EQ(failed.out, "error: cannot write '" + path + "': " + cause + "; the file keeps " +
                              std::to_string(games.size()) +
                              " complete games; continue with: selfplay run " + config_ +
                              " --resume --out " + path + "\n");

    make_room();
    const Outcome resumed = run(run_args(config_, path, true), dir_.file("resumed.log"));
    ASSERT_EQ(resumed.code, 0) << resumed.out;
    const auto all = expect_only_complete_games(path);
    EXPECT_EQ(all.size(), kGames);
    expect_same_games(all, reference_);
  }

  TempDir dir_;
  std::string config_;
  std::map<uint64_t, GameRow> reference_;
};

// The file cannot even be created: one line, exit 1, no crash in HDF5's exit handler, and no
// half-made file that a later run would refuse ("exists") or fail to resume.
TEST_F(DiskFull, CreatingOnAFullDiskLeavesNothingBehind) {
  for (const char* size : {"8k", "16k"}) {
    SCOPED_TRACE(size);
    Tmpfs tmpfs(size);
    SKIP_UNLESS_MOUNTED(tmpfs);
    const std::string path = tmpfs.file("c.h5");
    const Outcome o = run(run_args(config_, path), dir_.file("create.log"));
    EXPECT_EQ(o.code, 1) << o.out;
    expect_one_error_line(o);
    EXPECT_EQ(o.out, "error: cannot create '" + path + "': No space left on device\n");
    EXPECT_TRUE(tmpfs.empty()) << "a failed create left a file behind";

    ASSERT_TRUE(tmpfs.resize("16m"));
    const Outcome fresh = run(run_args(config_, path), dir_.file("fresh.log"));
    EXPECT_EQ(fresh.code, 0) << fresh.out;
    EXPECT_EQ(expect_only_complete_games(path).size(), kGames);
  }
}

TEST_F(DiskFull, FullDiskMidCampaignKeepsEveryCompleteGameAndResumes) {
  for (const char* size : {"48k", "160k"}) {
    SCOPED_TRACE(size);
    Tmpfs tmpfs(size);
    SKIP_UNLESS_MOUNTED(tmpfs);
    fail_then_resume(tmpfs.file("c.h5"), "No space left on device", 0,
                     [&] { ASSERT_TRUE(tmpfs.resize("16m")); });
  }
}

TEST_F(DiskFull, FileSizeLimitMidCampaignKeepsEveryCompleteGameAndResumes) {
  for (const rlim_t limit : {40 * 1024, 200 * 1024}) {
    SCOPED_TRACE(limit);
    const std::string path = dir_.file("limited" + std::to_string(limit) + ".h5");
    fail_then_resume(path, "File too large", limit, [] {});
  }
}

FileMeta match_meta() {
  FileMeta meta;
  meta.game = "ewn";
  meta.rules = "test";
  meta.config_text = "test";
  meta.seed = 7;
  for (int f = 0; f < 8; ++f) meta.feature_names.push_back("f" + std::to_string(f));
  meta.match = MatchMeta{"a", "b", 1000000, false, 0, 0, 0, 0, 0, 0};
  return meta;
}

// The writer itself, in a child process whose file size limit makes a write fail: every later
// call reports CampaignWriteError (one line, the games kept); in the file, /games, /plies,
// /positions, /perf and /match/pairs hold only written rows, and each game is complete.
void write_until_the_limit_and_check(const TempDir& dir, rlim_t size_limit, double flush_seconds) {
  const std::string path = dir.file("match" + std::to_string(size_limit) + ".h5");
  int channel[2];
  ASSERT_EQ(pipe(channel), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(channel[0]);
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{size_limit, size_limit};
    setrlimit(RLIMIT_FSIZE, &limit);
    std::string report = "no error";
    int code = 1;
    try {
      CampaignWriter writer =
          CampaignWriter::create(path, match_meta(), {.flush_seconds = flush_seconds});
      std::mt19937 noise(3);  // incompressible features, so that the file grows
      for (uint64_t id = 0; id < 100000 && code == 1; ++id) {
        GameRow game;
        game.game_id = id;
        game.plies = 9;
        std::vector<PlyRow> plies(game.plies);
        std::vector<PositionRow> positions(game.plies);
        std::vector<float> features;
        for (uint16_t p = 0; p < game.plies; ++p) {
          plies[p].game_id = positions[p].game_id = id;
          plies[p].ply = positions[p].ply = p;
          for (int f = 0; f < 8; ++f) features.push_back(static_cast<float>(noise()));
        }
        try {
          writer.append_game(game, plies, positions, features);
          writer.append_perf(PerfRow{id, 0.5, 64, 4096, 1, 2});
          if (id % 2 == 1) writer.append_match_pair(MatchPairRow{id / 2, 1, 0, 0.5});
          if (id % 16 == 15) writer.flush();
        } catch (const CampaignWriteError& e) {
          code = 10;
          report = std::to_string(e.games_kept()) + " " + e.what();
          try {
            writer.flush();
            code = 11;  // the failure must stick
          } catch (const CampaignWriteError&) {
          }
        }
      }
    } catch (const std::exception& e) {
      code = 12;
      report = e.what();
    }
    if (::write(channel[1], report.data(), report.size()) < 0) code = 13;
    _exit(code);
  }
  ::close(channel[1]);
  std::string report;
  char buffer[4096];
  for (ssize_t n; (n = ::read(channel[0], buffer, sizeof buffer)) > 0;) report.append(buffer, n);
  ::close(channel[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "writer died of signal " << WTERMSIG(status);
  ASSERT_EQ(WEXITSTATUS(status), 10) << report;

  // "<games_kept()> <what()>"
  const uint64_t kept = std::strtoull(report.c_str(), nullptr, 10);
  EXPECT_GT(kept, 0u) << report;
  EXPECT_EQ(report, std::to_string(kept) + " cannot write '" + path +
                        "': File too large; the file keeps " + std::to_string(kept) +
                        " complete games");

  const File file = open_file(path, OpenMode::kReadSwmr);
  const hid_t root = file.get();
  const CampaignReader reader(path);
  const auto games = reader.games();
  EXPECT_EQ(games.size(), kept);
  std::map<uint64_t, int> plies, positions;
  for (const PlyRow& p : reader.plies()) ++plies[p.game_id];
  for (uint64_t id : all_rows<uint64_t>(root, "positions/game_id", H5T_NATIVE_UINT64)) {
    EXPECT_NE(id, kNoGame);
    ++positions[id];
  }
  for (const GameRow& g : games) {
    EXPECT_NE(g.game_id, kNoGame);
    EXPECT_EQ(plies[g.game_id], 9) << g.game_id;
    EXPECT_EQ(positions[g.game_id], 9) << g.game_id;
  }
  EXPECT_EQ(plies.count(kNoGame), 0u);
  for (const PerfRow& p : reader.perf()) EXPECT_NE(p.batch, kNoGame);
  std::set<uint64_t> ids;
  for (const GameRow& g : games) ids.insert(g.game_id);
  for (const MatchPairRow& pair : reader.match_pairs()) {
    EXPECT_NE(pair.pair_id, kNoGame);
    EXPECT_TRUE(ids.count(2 * pair.pair_id) && ids.count(2 * pair.pair_id + 1)) << pair.pair_id;
  }
}

// With flushes only every 16 games (flush_seconds far away) the file grows the same way in every
// run, so a sweep of limits in steps of 256 bytes makes the failing write fall on each step of a
// flush: a dataset's rows, its extent, the file's metadata. This range holds the limits at which
// /games was flushed and /match/pairs was not (130048 bytes with HDF5 1.10.8), where the error
// once counted 16 games fewer than the file kept. Flushes on a timer add the writer's own timing.
TEST(FileSizeLimit, WriterKeepsOnlyWrittenRowsInEveryDataset) {
  TempDir dir;
  for (rlim_t limit = 124 * 1024; limit <= 136 * 1024; limit += 256) {
    SCOPED_TRACE("file size limit " + std::to_string(limit));
    write_until_the_limit_and_check(dir, limit, 1e6);
    if (HasFailure()) return;
  }
  for (rlim_t limit : {40 * 1024, 200 * 1024}) {
    SCOPED_TRACE("file size limit " + std::to_string(limit) + ", flushes on a timer");
    write_until_the_limit_and_check(dir, limit, 0.001);
    if (HasFailure()) return;
  }
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

  void expect_bad_input(const std::vector<std::string>& args, const std::string& mentions,
                        bool damaged = false) {
    SCOPED_TRACE(args[1] + " " + args[2] + " ... " + args.back());
    const Outcome o = run(args, dir_.file("bad.log"), 0, damaged);
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
    const bool damaged = file == dir_.file("damaged.h5");
    // An empty output is what a run killed at its start left: --resume starts it afresh
    // (DataSafety.ResumeOfAnEmptyOrPartialFileStartsAfresh); as an input it is bad.
    if (file != dir_.file("empty.h5")) {
      expect_bad_input(run_args(config_, file, true), mentions, damaged);
      expect_bad_input({SELFPLAY_BINARY, "match", match_config_, "--pairs", "1", "--quiet",
                        "--resume", "--out", file},
                       mentions, damaged);
    }
    expect_bad_input({SELFPLAY_BINARY, "tune", tune_config(file)}, mentions, damaged);
  }
}

// The reader's own errors are typed: H5FileError (bad input) for a file that is not a readable
// campaign, in the constructor or while reading rows. Each file is read in a child that leaves
// with _exit, past LeakSanitizer's exit check (see kHdf5LeakSuppression).
TEST_F(BadFiles, ReaderThrowsFileErrors) {
  for (const char* name : {"truncated.h5", "damaged.h5", "random.h5", "empty.h5", "directory.h5"}) {
    SCOPED_TRACE(name);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int code = 0;
      try {
        const CampaignReader reader(dir_.file(name));
        reader.games();
        reader.plies();
        reader.positions();
        reader.features();
        code = 10;  // no error
      } catch (const H5FileError& e) {
        code = std::string(e.what()).find('\n') == std::string::npos ? 0 : 11;
      } catch (...) {
        code = 12;  // another type
      }
      _exit(code);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "reader died of signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "10: no error, 11: not one line, 12: not H5FileError";
  }
}

}  // namespace
}  // namespace sp::io
