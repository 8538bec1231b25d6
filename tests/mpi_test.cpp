// Campaigns, matches and the research loop on several MPI ranks (label mpi): the built CLI launched
// with `mpirun --oversubscribe -np R` on this machine, its records compared with a single-process
// run. Skipped, with the reason, when mpirun is absent or the binary was built without MPI.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/mpi/dealer.hpp"
#include "host/play/ranks/ranked_run.hpp"
#include "host/play/ranks/ranks.hpp"
#include "host/research/improve/lineage.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

namespace fs = std::filesystem;
using test::Child;
using test::run_command;
using test::source_path;
using test::TempDir;

#ifndef SELFPLAY_MPIEXEC
#define SELFPLAY_MPIEXEC ""
#endif

// Why the MPI tests cannot run here, or "".
std::string skip_reason() {
#ifndef SELFPLAY_HAVE_MPI
  return "this build has no MPI support (SELFPLAY_MPI=OFF, or no libopenmpi-dev)";
#else
  if (std::string(SELFPLAY_MPIEXEC).empty() || !fs::exists(SELFPLAY_MPIEXEC))
    return "mpirun is not installed (Debian: openmpi-bin)";
  return "";
#endif
}

#define SKIP_WITHOUT_MPI()                                                        \
  do {                                                                            \
    if (const std::string why = skip_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// As root, OpenMPI wants to be told; this 2-core machine needs --oversubscribe for 3 ranks.
std::vector<std::string> mpirun_args(int ranks) {
  return {SELFPLAY_MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks)};
}

std::string shell_quote(const std::string& s) { return "'" + s + "'"; }

// Runs `selfplay args` on `ranks` ranks (0: without mpirun); stdout and stderr together. A run
// that hangs is killed after a minute (exit 124 or 137), failing the test instead of the suite.
test::CommandResult selfplay(int ranks, const std::vector<std::string>& args) {
  std::string command = "timeout --kill-after=5 60 ";
  if (ranks > 0)
    for (const std::string& a : mpirun_args(ranks)) command += shell_quote(a) + " ";
  command += shell_quote(SELFPLAY_BINARY);
  for (const std::string& a : args) command += " " + shell_quote(a);
  return run_command(command + " 2>&1");
}

// Every game of the files as a line (id, winner, opening, record), sorted by id; duplicates kept,
// so that a game played twice shows.
std::string records(const std::vector<std::string>& files, uint64_t below = UINT64_MAX) {
  std::vector<std::pair<uint64_t, std::string>> lines;
  for (const std::string& f : files) {
    io::CampaignReader reader(f);
    for (const auto& g : reader.games())
      if (g.game_id != io::kNoGame && g.game_id < below)
        lines.emplace_back(g.game_id, std::to_string(g.game_id) + " winner " +
                                          std::to_string(g.winner) + " opening " +
                                          std::string(io::text_of(g.opening)) + ": " +
                                          std::string(io::text_of(g.record)) + "\n");
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& [id, line] : lines) out += line;
  return out;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The line of a report that starts with `prefix`, or "".
std::string line_of(const std::string& text, const std::string& prefix) {
  const std::string lines = "\n" + text;
  const size_t at = lines.find("\n" + prefix);
  if (at == std::string::npos) return "";
  return lines.substr(at + 1, lines.find('\n', at + 1) - at - 1);
}

const std::string kCampaign = source_path("tests/configs/pinned/ewn-campaign.yaml");

TEST(MpiCampaign, TwoAndThreeRanksGiveTheRecordsOfOneProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string single = dir.file("single.h5");
  const auto one = selfplay(0, {"run", kCampaign, "--out", single, "--quiet"});
  ASSERT_EQ(one.code, 0) << one.out;
  const std::string expected = records({single});
  ASSERT_EQ(count_of(expected, "\n"), 24u);
  for (const int ranks : {2, 3}) {
    const std::string out = dir.file("r" + std::to_string(ranks) + ".h5");
    const auto r = selfplay(ranks, {"run", kCampaign, "--out", out, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.out;
    const std::vector<std::string> parts = selfplay::rank_files(out);
    ASSERT_EQ(parts.size(), static_cast<size_t>(ranks)) << r.out;
    EXPECT_EQ(records(parts), expected) << ranks << " ranks";
    // The main output is the index over the rank files, read as one file.
    EXPECT_EQ(records({out}), expected) << ranks << " ranks";
    EXPECT_EQ(io::CampaignReader(out).index_parts().size(), static_cast<size_t>(ranks));
    // Every rank played (the dealing spreads the ids), and only rank 0 printed the summary.
    for (const std::string& part : parts)
      EXPECT_GT(io::CampaignReader(part).games_count(), 0u) << part;
    EXPECT_EQ(count_of(r.out, "games played"), 1u) << r.out;
    EXPECT_NE(r.out.find("24 (this run), 24 in the file"), std::string::npos) << r.out;
  }
}

// Fewer games than one rank plays at once: rank 0 deals to itself a share at a time like to the
// others, instead of starting every id before another rank has asked (which left rank 1 idle).
TEST(MpiCampaign, FewerGamesThanARanksSlotsStillSpreadOverTheRanks) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::string config = test::read_text(kCampaign);
  const std::string from = "concurrency: 8", to = "concurrency: 64";
  ASSERT_NE(config.find(from), std::string::npos);
  config.replace(config.find(from), from.size(), to);
  const std::string path = dir.write("wide.yaml", config).string();
  const std::string out = dir.file("wide.h5");
  const auto r = selfplay(2, {"run", path, "--out", out, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<std::string> parts = selfplay::rank_files(out);
  ASSERT_EQ(parts.size(), 2u);
  uint64_t total = 0;
  for (const std::string& part : parts) {
    const uint64_t games = io::CampaignReader(part).games_count();
    EXPECT_GE(games, 4u) << part << ": the ids were not spread";
    total += games;
  }
  EXPECT_EQ(total, 24u);
}

TEST(MpiCampaign, OneRankIsTheSingleProcessRun) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string single = dir.file("single.h5"), out = dir.file("np1.h5");
  ASSERT_EQ(selfplay(0, {"run", kCampaign, "--out", single, "--quiet"}).code, 0);
  const auto r = selfplay(1, {"run", kCampaign, "--out", out, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  // One ordinary file, no rank files, no index: MPI was not started.
  EXPECT_TRUE(selfplay::rank_files(out).empty());
  EXPECT_TRUE(io::CampaignReader(out).index_parts().empty());
  EXPECT_EQ(records({out}), records({single}));
  EXPECT_EQ(line_of(r.out, "games played"), "games played        24 (this run), 24 in the file");
}

// A binary built without MPI, started as one of several ranks, says so instead of running every
// rank as a whole campaign of its own.
TEST(MpiCampaign, ABuildWithoutMpiRefusesToRunAsOneOfSeveralRanks) {
#ifdef SELFPLAY_HAVE_MPI
  GTEST_SKIP() << "this build has MPI support: the refusal is that of a build without it";
#endif
  TempDir dir;
  const auto r =
      run_command("OMPI_COMM_WORLD_SIZE=2 " + shell_quote(SELFPLAY_BINARY) + " run " +
                  shell_quote(kCampaign) + " --out " + shell_quote(dir.file("c.h5")) + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("error: started as one of 2 ranks (OMPI_COMM_WORLD_SIZE=2), but this "
                       "selfplay was built without MPI support"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir.file("c.h5")));
}

// --device sets backend.device (on every rank alike; without it ranks pick by node-local rank).
TEST(DeviceFlag, OverridesBackendDeviceAndTakesOnlyDeviceOrdinals) {
  TempDir dir;
  const std::string out = dir.file("c.h5");
  const auto r =
      selfplay(0, {"run", kCampaign, "--out", out, "--games", "2", "--device", "3", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string config = io::CampaignReader(out).meta().config_text;
  EXPECT_NE(config.find("device: 3"), std::string::npos) << config;
  const auto bad = selfplay(0, {"match", kCampaign, "--device", "64"});
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--device"), std::string::npos) << bad.out;
}

TEST(MpiCampaign, ResumeWithOtherRankCountsCompletesTheMissingGames) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string single = dir.file("single.h5"), out = dir.file("c.h5");
  ASSERT_EQ(selfplay(0, {"run", kCampaign, "--out", single, "--quiet"}).code, 0);
  // 10 games on 3 ranks, then on to 24 with 2 ranks: rank 2's file stays and counts.
  auto r = selfplay(3, {"run", kCampaign, "--out", out, "--games", "10", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  r = selfplay(2, {"run", kCampaign, "--out", out, "--resume", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("14 (this run), 24 in the file"), std::string::npos) << r.out;
  EXPECT_EQ(records(selfplay::rank_files(out)), records({single}));
  EXPECT_EQ(records({out}), records({single}));  // the index, rewritten over the 3 files
  EXPECT_EQ(io::CampaignReader(out).index_parts().size(), 3u);
  // Without --resume the files are refused, naming them.
  r = selfplay(2, {"run", kCampaign, "--out", out, "--quiet"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("continue the campaign with --resume"), std::string::npos) << r.out;
}

// The pid of the process with OMPI_COMM_WORLD_RANK=rank whose environment holds `mark`.
pid_t rank_pid(int rank, const std::string& mark) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    const std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (env.find(mark) != std::string::npos &&
        env.find(std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0') !=
            std::string::npos)
      return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

TEST(MpiCampaign, AKilledRankLosesOnlyItsGamesInProgressAndResumeCompletes) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string single = dir.file("single.h5"), out = dir.file("c.h5");
  ASSERT_EQ(selfplay(0, {"run", kCampaign, "--out", single, "--quiet"}).code, 0);
  // A campaign far longer than the test waits: rank 1 is killed once it has written a game.
  const std::string mark = "SELFPLAY_MPI_TEST_MARK=" + dir.path().string();
  std::vector<std::string> args = mpirun_args(3);
  for (const std::string& a :
       {std::string("-x"), mark.substr(0, mark.find('=')), std::string(SELFPLAY_BINARY),
        std::string("run"), kCampaign, std::string("--out"), out, std::string("--games"),
        std::string("100000"), std::string("--quiet")})
    args.push_back(a);
  const std::string log = dir.file("mpirun.log");
  test::ChildOptions options;
  options.stderr_to_log = true;
  options.timeout_seconds = 120;
  Child mpirun(args, log, {mark}, options);
  const std::string part1 = selfplay::rank_file(out, 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  uint64_t written = 0;
  while (written == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      if (fs::exists(part1)) written = io::CampaignReader(part1).games_count();
    } catch (const std::exception&) {
    }
  }
  ASSERT_GT(written, 0u) << "rank 1 wrote no game in 60 s";
  const pid_t victim = rank_pid(1, mark);
  ASSERT_GT(victim, 0);
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  const int code = mpirun.wait();
  const std::string said = test::read_text(log);
  EXPECT_NE(code, 0) << said;
  EXPECT_NE(said.find("rank 1"), std::string::npos) << said;
  // Each file holds whole games; the resume (2 ranks, the first 24 ids) completes them.
  const auto r =
      selfplay(2, {"run", kCampaign, "--out", out, "--resume", "--games", "24", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(records(selfplay::rank_files(out), 24), records({single}));
  EXPECT_EQ(records({out}, 24), records({single}));
}

// A tiny EWN research loop: the champion, expectimax at depth 1, makes its own data.
std::string tiny_loop(const TempDir& dir) {
  const std::string weights = source_path("configs/ewn/weights/survival-distance.yaml");
  const std::string engine = "{type: expectimax, weights: \"" + weights + "\", depth: 1}";
  return dir
      .write("loop.yaml", "game: ewn\nseed: 11\nchampion: " + engine +
                              "\nselfplay:\n  campaign: {games: 40, concurrency: 4}\n"
                              "  engines: {player0: " +
                              engine + ", player1: " + engine +
                              "}\n  backend: {name: cpu, threads: 1}\n"
                              "  output: {positions_per_game: 8}\n"
                              "tune: {epochs: 60, require_validation_gain: false}\n"
                              "gate:\n  pairs: 24\n  sprt: {elo0: 0, elo1: 60}\n"
                              "  anchor_every: 1\n  anchor_pairs: 8\n"
                              "stop: {generations: 3, rejections: 0}\n")
      .string();
}

// Every column of a lineage but the times, and the weights, as text (NaNs compare equal).
std::string lineage_text(const std::string& path) {
  const improve::Lineage l = improve::read_lineage(path);
  std::string out;
  for (size_t i = 0; i < l.rows.size(); ++i) {
    const improve::LineageRow& r = l.rows[i];
    out += std::to_string(r.generation) + " parent " + std::to_string(r.parent) + " champion " +
           std::to_string(r.champion) + " " + r.weights_hash + " games " + std::to_string(r.games) +
           " rollouts " + std::to_string(r.rollouts) + " positions " +
           std::to_string(r.train_positions) + "/" + std::to_string(r.validation_positions) +
           " loss " + std::to_string(r.validation_loss) + " wdl " + std::to_string(r.wins) + "/" +
           std::to_string(r.draws) + "/" + std::to_string(r.losses) + " llr " +
           std::to_string(r.llr) + " verdict " + std::to_string(r.verdict) + " " +
           improve::reason_of(r) + " anchor " + std::to_string(r.anchor_pairs) + " " +
           std::to_string(r.anchor_elo) + ":";
    for (const double w : l.weights[i]) out += " " + std::to_string(w);
    out += "\n";
  }
  return out;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(MpiImprove, TwoRanksGiveTheLineageChampionAndRecordsOfOneProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string config = tiny_loop(dir);
  const std::string single = dir.file("single");
  const auto one = selfplay(0, {"improve", config, "--out", single, "--quiet"});
  ASSERT_EQ(one.code, 0) << one.out;
  const std::string expected = lineage_text(single + "/lineage.h5");
  ASSERT_EQ(count_of(expected, "\n"), 4u) << expected;  // generation 0 and three more
  const std::string ranked = dir.file("ranked");
  const auto two = selfplay(2, {"improve", config, "--out", ranked, "--quiet"});
  ASSERT_EQ(two.code, 0) << two.out;
  EXPECT_EQ(lineage_text(ranked + "/lineage.h5"), expected);
  EXPECT_EQ(file_text(ranked + "/champion.yaml"), file_text(single + "/champion.yaml"));
  // Both ranks played every campaign and match: rank files beside each, the same records.
  for (const std::string step : {"campaign", "gate"}) {
    const std::string out = ranked + "/gen-001/" + step + ".h5";
    const std::vector<std::string> parts = selfplay::rank_files(out);
    ASSERT_EQ(parts.size(), 2u) << out;
    for (const std::string& part : parts) {
      EXPECT_GT(io::CampaignReader(part).games_count(), 0u) << part;
    }
    if (std::string(step) == "campaign") {
      EXPECT_EQ(records({out}), records({single + "/gen-001/" + step + ".h5"}));
    }
  }
  // Only rank 0 printed the closing table.
  EXPECT_EQ(count_of(two.out, "stopped by generations"), 1u) << two.out;
}

TEST(MpiImprove, AnInterruptedRankedLoopResumesAsOneProcessToTheSameLineage) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string config = tiny_loop(dir);
  const std::string single = dir.file("single");
  ASSERT_EQ(selfplay(0, {"improve", config, "--out", single, "--quiet"}).code, 0);
  // Two ranks play one generation, then one process continues the loop over their files.
  const std::string loop = dir.file("loop");
  const auto first =
      selfplay(2, {"improve", config, "--out", loop, "--generations", "1", "--quiet"});
  ASSERT_EQ(first.code, 0) << first.out;
  const auto rest = selfplay(0, {"improve", config, "--out", loop, "--resume", "--quiet"});
  ASSERT_EQ(rest.code, 0) << rest.out;
  EXPECT_EQ(lineage_text(loop + "/lineage.h5"), lineage_text(single + "/lineage.h5"));
  EXPECT_EQ(file_text(loop + "/champion.yaml"), file_text(single + "/champion.yaml"));
}

TEST(MpiMatch, RanksReachTheSprtDecisionAndPairsOfOneProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  // A strong and a weak MCTS: the SPRT accepts H1 after a few pairs of 200.
  const std::string config = dir.write("m.yaml", R"(game: ewn
rules: {capture_own: true, substitution: next_lower_or_higher, first_player: alternate, setup: random}
campaign: {concurrency: 8, seed: 4242}
engines:
  player0: {type: mcts, rollouts_per_move: 200, rollouts_per_leaf: 8, leaves_per_round: 4}
  player1: {type: mcts, rollouts_per_move: 20, rollouts_per_leaf: 4, leaves_per_round: 1}
backend: {name: cpu, threads: 1, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 2, flush_seconds: 0.05}
match: {pairs: 200, sprt: {enabled: true, elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05}}
)")
                                 .string();
  const std::string single = dir.file("single.h5");
  const auto one = selfplay(0, {"match", config, "--out", single, "--quiet"});
  ASSERT_EQ(one.code, 0) << one.out;
  const std::string decision = line_of(one.out, "SPRT: H1 accepted after ");
  ASSERT_FALSE(decision.empty()) << one.out;
  const auto expected_pairs = io::CampaignReader(single).match_pairs();
  ASSERT_LT(expected_pairs.size(), 200u);
  for (const int ranks : {2, 3}) {
    const std::string out = dir.file("r" + std::to_string(ranks) + ".h5");
    const auto r = selfplay(ranks, {"match", config, "--out", out, "--quiet"});
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(line_of(r.out, "SPRT: "), decision) << r.out;
    EXPECT_EQ(line_of(r.out, "pairs counted").substr(0, 30),
              line_of(one.out, "pairs counted").substr(0, 30));
    EXPECT_EQ(count_of(r.out, "pairs counted"), 1u) << r.out;
    // Rank 0 dealt only a window past the first pair not yet counted, and the decision stopped
    // the dealing: whatever the load and however far a rank lagged, at most the counted games and
    // one window were played (before the window, a loaded machine played all 400).
    const std::string played = line_of(r.out, "games played");
    ASSERT_FALSE(played.empty()) << r.out;
    const uint64_t window = dist::match_window_games(ranks, 8, selfplay::dealer_reserve(8));
    EXPECT_LE(std::stoul(played.substr(std::string("games played").size())),
              2 * expected_pairs.size() + window)
        << played;
    EXPECT_LT(2 * expected_pairs.size() + window, 400u) << "the bound must be able to fail";
    // The pair rows (rank 0's file) and the counted games' records are those of one process.
    const std::vector<std::string> parts = selfplay::rank_files(out);
    ASSERT_EQ(parts.size(), static_cast<size_t>(ranks));
    EXPECT_EQ(io::CampaignReader(parts[0]).match_pairs(), expected_pairs);
    EXPECT_EQ(io::CampaignReader(out).match_pairs(), expected_pairs);  // through the index
    const uint64_t counted_games = 2 * expected_pairs.size();
    EXPECT_EQ(records(parts, counted_games), records({single}, counted_games));
  }
}

}  // namespace
}  // namespace sp
