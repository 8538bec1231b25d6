// Self-play campaigns end to end: the same seed gives the same game records whatever the
// concurrency, batch size, thread count or backend; the first mover's share of wins between random
// players matches the reference; a campaign killed with SIGKILL and resumed equals an
// uninterrupted one; SIGINT stops cleanly; h5py reads the file.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;

const char* kConfig = R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {games: 24, concurrency: 8, seed: 77}
engines:
  player0: {type: mcts, rollouts_per_move: 160, rollouts_per_leaf: 8, leaves_per_round: 4}
  player1: {type: mcts, rollouts_per_move: 120, rollouts_per_leaf: 4, leaves_per_round: 2, chance: round_robin, policy: heavy}
backend: {name: cpu, threads: 2, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 3, flush_seconds: 0.05}
)";

using test::Child;

class Campaign : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_ / "campaign.yaml") << kConfig; }

  config::Config<EwnGame> config() const {
    return config::load_campaign_config<EwnGame>((dir_ / "campaign.yaml").string());
  }

  std::string run(config::Config<EwnGame> cfg, const std::string& name) {
    cfg.output.path = (dir_ / name).string();
    std::atomic<bool> stop{false};
    RunOptions options;
    run_campaign(cfg, options, stop);
    return cfg.output.path;
  }

  test::TempDir tmp_;
  const fs::path& dir_ = tmp_.path();
};

// Game records keyed by game id, without wall-clock fields.
struct Records {
  std::map<uint64_t, std::string> games;
  std::map<uint64_t, std::string> plies;
  std::map<uint64_t, std::string> positions;
  bool operator==(const Records&) const = default;
};

Records read_records(const std::string& path) {
  io::CampaignReader reader(path);
  Records r;
  for (const auto& g : reader.games()) {
    r.games[g.game_id] = std::string(io::text_of(g.opening)) + " first " +
                         std::to_string(g.first_player) + " winner " + std::to_string(g.winner) +
                         " plies " + std::to_string(g.plies) + " " +
                         std::string(io::text_of(g.record));
  }
  for (const auto& p : reader.plies())
    r.plies[p.game_id] += std::to_string(p.ply) + ":" + std::to_string(p.chance) +
                          std::string(io::text_of(p.move)) + "/" + std::to_string(p.visits) + "/" +
                          std::to_string(p.root_value) + "/" + std::to_string(p.rollouts) + " ";
  const auto positions = reader.positions();
  const auto features = reader.features();
  const size_t f = reader.meta().feature_names.size();
  for (size_t i = 0; i < positions.size(); ++i) {
    std::string row = std::to_string(positions[i].ply) + "/" + std::to_string(positions[i].result);
    for (size_t k = 0; k < f; ++k) row += "," + std::to_string(features[i * f + k]);
    r.positions[positions[i].game_id] += row + " ";
  }
  return r;
}

TEST_F(Campaign, WritesEveryGameWithPliesAndPositions) {
  const auto cfg = config();
  const Records r = read_records(run(cfg, "a.h5"));
  ASSERT_EQ(r.games.size(), 24u);
  EXPECT_EQ(r.plies.size(), 24u);
  EXPECT_EQ(r.positions.size(), 24u);
  io::CampaignReader reader(cfg.output.path == "unused.h5" ? (dir_ / "a.h5").string()
                                                           : cfg.output.path);
  EXPECT_EQ(reader.meta().seed, 77u);
  EXPECT_EQ(reader.meta().game, "ewn");
  EXPECT_NE(reader.meta().config_text.find("rollouts_per_move: 160"), std::string::npos);
  uint64_t plies = 0;
  for (const auto& g : reader.games()) {
    plies += g.plies;
    EXPECT_TRUE(g.winner == 0 || g.winner == 1);
    EXPECT_EQ(g.first_player, g.game_id % 2);  // alternate
  }
  EXPECT_EQ(reader.plies_count(), plies);
  EXPECT_EQ(reader.positions_count(), 24u * 3u);
}

// ../shared/reference/ewn.md: between random players from random setups the first mover wins about
// 53.2% of the games, which last 21.6 plies on average. Both within 4 standard errors of N games
// (first mover: sqrt(0.532 * 0.468 / N) = 0.5 points at N = 10000, so a fair 50% fails; length:
// the games' own standard deviation over sqrt(N)). The seed is fixed, so the result is too.
TEST_F(Campaign, FirstMoverWinsAsOftenAsTheReferenceBetweenRandomPlayers) {
  config::Config<EwnGame> cfg = config::load_campaign_config_text<EwnGame>(R"(
rules: {first_player: alternate, setup: random}
campaign: {games: 10000, concurrency: 64, seed: 5}
engines: {player0: {type: random}, player1: {type: random}}
backend: {name: cpu, threads: 1}
output: {path: unused.h5, positions_per_game: 1, flush_seconds: 1}
)",
                                                                           "random.yaml");
  io::CampaignReader reader(run(cfg, "random.h5"));
  const auto games = reader.games();
  ASSERT_EQ(games.size(), 10000u);
  const double n = static_cast<double>(games.size());
  double first_mover_wins = 0, plies = 0, plies_squared = 0;
  for (const auto& g : games) {
    first_mover_wins += g.winner == g.first_player;
    plies += g.plies;
    plies_squared += static_cast<double>(g.plies) * g.plies;
  }
  const double share = first_mover_wins / n;
  EXPECT_NEAR(share, 0.532, 4 * std::sqrt(0.532 * 0.468 / n));
  const double mean = plies / n, sd = std::sqrt(plies_squared / n - mean * mean);
  EXPECT_NEAR(mean, 21.6, 4 * sd / std::sqrt(n));
}

TEST_F(Campaign, SameRecordsWhateverConcurrencyBatchThreadsOrBackend) {
  config::Config<EwnGame> base = config();
  const Records reference = read_records(run(base, "reference.h5"));
  ASSERT_EQ(reference.games.size(), 24u);

  config::Config<EwnGame> c = base;
  c.concurrency = 1;
  EXPECT_EQ(read_records(run(c, "g1.h5")), reference) << "concurrency 1";
  c = base;
  c.concurrency = 24;
  c.backend.batch_rollouts = 1;  // one slot per batch
  EXPECT_EQ(read_records(run(c, "g24.h5")), reference) << "concurrency 24, tiny batches";
  c = base;
  c.backend.threads = 1;
  c.backend.batch_rollouts = 1u << 20;
  EXPECT_EQ(read_records(run(c, "t1.h5")), reference) << "one thread, large batches";
  c = base;
  c.backend.name = "check";
  EXPECT_EQ(read_records(run(c, "check.h5")), reference) << "check backend";
  c = base;
  c.concurrency = 0;  // auto: 2 x 4096 / 32 = 256 games wanted, the campaign's 24 started
  EXPECT_EQ(read_records(run(c, "auto.h5")), reference) << "concurrency auto";
  c = base;
  c.concurrency = 0;
  c.backend.batch_rollouts = 0;  // the cpu backend's preferred size
  EXPECT_EQ(read_records(run(c, "auto-preferred.h5")), reference)
      << "concurrency auto, preferred batch";

  c = base;
  c.seed = 78;
  EXPECT_NE(read_records(run(c, "seed78.h5")), reference) << "another seed must change the games";
}

// fanout (several leaves a descent) changes the games, and its records still depend on the config
// alone: not on concurrency, batches or threads. Its rounds are leaves_per_round x fanout leaves.
TEST_F(Campaign, FanoutRecordsDoNotDependOnConcurrencyBatchOrThreads) {
  config::Config<EwnGame> base = config();
  const Records plain = read_records(run(base, "plain.h5"));
  for (auto& e : base.engines) e.fanout = 4;
  EXPECT_EQ(max_round_leaves(base), 16u);     // player0: 4 descents x 4 leaves
  EXPECT_EQ(max_round_rollouts(base), 128u);  // of 8 rollouts
  const Records reference = read_records(run(base, "fan.h5"));
  ASSERT_EQ(reference.games.size(), 24u);
  EXPECT_NE(reference, plain) << "fanout 4 must change the searches";
  config::Config<EwnGame> c = base;
  c.concurrency = 1;
  EXPECT_EQ(read_records(run(c, "fan-g1.h5")), reference) << "concurrency 1";
  c = base;
  c.concurrency = 24;
  c.backend.batch_rollouts = 1;
  EXPECT_EQ(read_records(run(c, "fan-g24.h5")), reference) << "concurrency 24, tiny batches";
  c = base;
  c.backend.threads = 1;
  c.backend.batch_rollouts = 1u << 20;
  EXPECT_EQ(read_records(run(c, "fan-t1.h5")), reference) << "one thread, large batches";
}

TEST(CampaignBatches, TargetAutoConcurrencyAndShortfall) {
  config::Config<EwnGame> c = config::load_campaign_config_text<EwnGame>(kConfig, "batches.yaml");
  // Rounds: player0 4 leaves x 8 rollouts = 32, player1 2 x 4 = 8; the larger counts.
  ASSERT_EQ(max_round_rollouts(c), 32u);
  rollout::BackendInfo info;
  info.preferred_rollouts = 8192;
  EXPECT_EQ(batch_target(c, info), 4096u);  // batch_rollouts set
  c.backend.batch_rollouts = 0;
  EXPECT_EQ(batch_target(c, info), 8192u);  // the backend's size

  c.games = 1000;
  EXPECT_EQ(auto_concurrency(c, 4096, UINT64_MAX), 256u);  // 2 x 4096 / 32
  EXPECT_EQ(auto_concurrency(c, 4097, UINT64_MAX), 257u);  // rounded up
  EXPECT_EQ(auto_concurrency(c, 4096, 100), 100u);         // memory holds 100 games
  EXPECT_EQ(auto_concurrency(c, 1, UINT64_MAX), 1u);
  EXPECT_EQ(auto_concurrency(c, uint64_t{1} << 30, UINT64_MAX), 1000u);  // every game
  c.games = 1'000'000;
  EXPECT_EQ(auto_concurrency(c, uint64_t{1} << 30, UINT64_MAX), 65536u);

  c.concurrency = 128;  // 128 x 32 = 4096: half the games fill half the target
  EXPECT_EQ(batch_shortfall(c, 4096), "");
  c.concurrency = 127;
  const std::string line = batch_shortfall(c, 4096);
  EXPECT_NE(line.find("batches reach at most 2032 rollouts (127 games in flight"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("the target of 4096"), std::string::npos) << line;
  EXPECT_EQ(line.find("campaign.games"), std::string::npos) << line;
  EXPECT_NE(line.find("raise campaign.concurrency (or set it to auto)"), std::string::npos) << line;
  c.games = 100;  // fewer games than concurrency: they are the limit
  c.concurrency = 200;
  EXPECT_NE(batch_shortfall(c, 4096).find("100 games in flight"), std::string::npos);
  EXPECT_NE(batch_shortfall(c, 4096).find("raise campaign.games,"), std::string::npos);
  EXPECT_EQ(batch_shortfall(c, 4096).find("campaign.concurrency"), std::string::npos);
  c.concurrency = 100;  // auto resolved to every game: still the games are the limit
  EXPECT_NE(batch_shortfall(c, 4096).find("raise campaign.games,"), std::string::npos);
  c.engines[0].type = c.engines[1].type = config::EngineType::kRandom;  // no rollouts: no batches
  EXPECT_EQ(batch_shortfall(c, 4096), "");
}

TEST(CampaignBatches, AutoConcurrencyIsResolvedWithTheBackend) {
  config::Config<EwnGame> c = config::load_campaign_config_text<EwnGame>(kConfig, "batches.yaml");
  c.concurrency = 0;
  c.backend.batch_rollouts = 256;
  c.games = 100;
  auto backend = make_campaign_backend(c);
  EXPECT_EQ(c.concurrency, 16u);  // 2 x 256 / 32
  // One cpu thread prefers 4096 rollouts: 256 games, more than the first sizing (4096 leaves)
  // holds, so the backend is recreated with room for all of them. Small trees: memory is no limit.
  c.concurrency = 0;
  c.backend.batch_rollouts = 0;
  c.backend.threads = 1;
  c.games = 1000;
  c.engines[0].node_budget = c.engines[1].node_budget = 1;
  backend = make_campaign_backend(c);
  EXPECT_EQ(c.concurrency, 256u);
  EXPECT_GE(backend->info().max_leaves, size_t{256} * 64);
}

TEST_F(Campaign, PairedGamesShareSetupAndDiceWithSeatsSwapped) {
  config::Config<EwnGame> cfg = config();
  cfg.paired = true;
  cfg.games = 16;
  const std::string path = run(cfg, "paired.h5");
  io::CampaignReader reader(path);
  const auto games = reader.games();
  std::map<uint64_t, io::GameRow> by_id;
  for (const auto& g : games) by_id[g.game_id] = g;
  ASSERT_EQ(by_id.size(), 16u);
  int differ = 0;
  for (uint64_t k = 0; k < 8; ++k) {
    const io::GameRow &a = by_id[2 * k], &b = by_id[2 * k + 1];
    EXPECT_EQ(io::text_of(a.opening), io::text_of(b.opening)) << "pair " << k;
    EXPECT_EQ(a.first_player, b.first_player) << "pair " << k;
    EXPECT_EQ(a.record[0], b.record[0])
        << "the first die of both games comes from the pair's stream";
    differ += io::text_of(a.record) != io::text_of(b.record);
  }
  EXPECT_GT(differ, 0) << "the engines swapped seats, so the games must not all be identical";
  // Unpaired, consecutive games have their own setups.
  cfg.paired = false;
  const auto unpaired = io::CampaignReader(run(cfg, "unpaired.h5")).games();
  std::map<uint64_t, std::string> setups;
  for (const auto& g : unpaired) setups[g.game_id] = std::string(io::text_of(g.opening));
  int same = 0;
  for (uint64_t k = 0; k < 8; ++k) same += setups[2 * k] == setups[2 * k + 1];
  EXPECT_LT(same, 2);
}

TEST_F(Campaign, RefusesToOverwriteAndToResumeADifferentCampaign) {
  config::Config<EwnGame> cfg = config();
  const std::string path = run(cfg, "a.h5");
  const auto size = fs::file_size(path);
  cfg.output.path = path;
  std::atomic<bool> stop{false};
  EXPECT_THROW(run_campaign(cfg, RunOptions{}, stop), InputError);
  EXPECT_EQ(fs::file_size(path), size);
  RunOptions resume;
  resume.resume = true;
  config::Config<EwnGame> other = cfg;
  other.seed = 5;
  EXPECT_THROW(run_campaign(other, resume, stop), InputError);
  // The same campaign resumed has nothing left to do.
  const RunResult r = run_campaign(cfg, resume, stop);
  EXPECT_EQ(r.games_played, 0u);
  EXPECT_EQ(r.games_in_file, 24u);
}

uint64_t games_in(const std::string& path) {
  try {
    return io::CampaignReader(path).games_count();
  } catch (const std::exception&) {
    return 0;
  }
}

// The CLI stops itself (SIGSTOP) right after its `games`-th game is written and flushed: the test
// hook of io::CampaignWriter::append_game.
std::vector<std::string> stop_after(int games) {
  return {"SELFPLAY_TEST_STOP_AFTER_GAMES=" + std::to_string(games)};
}

TEST_F(Campaign, KilledAndResumedEqualsUninterrupted) {
  std::ofstream(dir_ / "long.yaml") << kConfig;
  config::Config<EwnGame> cfg =
      config::load_campaign_config<EwnGame>((dir_ / "long.yaml").string());
  cfg.games = 120;
  const Records reference = read_records(run(cfg, "reference.h5"));
  ASSERT_EQ(reference.games.size(), 120u);

  // Killed with 10 of 120 games in the file, the rest in flight or not started.
  const std::string path = (dir_ / "killed.h5").string();
  const std::string yaml = (dir_ / "long.yaml").string();
  Child child({SELFPLAY_BINARY, "run", yaml, "--games", "120", "--out", path, "--quiet"},
              "/dev/null", stop_after(10));
  ASSERT_TRUE(child.wait_stopped()) << "the campaign ended before its 10th game";
  child.signal(SIGKILL);
  EXPECT_EQ(child.wait(), 128 + SIGKILL);
  ASSERT_EQ(games_in(path), 10u);
  Child resume(
      {SELFPLAY_BINARY, "run", yaml, "--games", "120", "--out", path, "--resume", "--quiet"});
  ASSERT_EQ(resume.wait(), 0);
  EXPECT_EQ(read_records(path), reference);
}

TEST_F(Campaign, SigintStopsCleanlyAndResumeFinishes) {
  std::ofstream(dir_ / "long.yaml") << kConfig;
  const std::string path = (dir_ / "int.h5").string();
  const std::string yaml = (dir_ / "long.yaml").string();
  Child child({SELFPLAY_BINARY, "run", yaml, "--games", "60", "--out", path, "--quiet"},
              "/dev/null", stop_after(5));
  ASSERT_TRUE(child.wait_stopped()) << "the campaign ended before its 5th game";
  // SIGINT arrives while the process is stopped and is handled when it continues.
  child.signal(SIGINT);
  child.signal(SIGCONT);
  EXPECT_EQ(child.wait(), 130);
  // Closed cleanly: a plain (non-SWMR) open works, every game is complete.
  const std::string check =
      "/usr/bin/python3 -c \"import h5py,sys; f=h5py.File('" + path +
      "','r'); g=f['games']; p=f['plies']; "
      "sys.exit(0 if len(g) >= 5 and sum(int(x) for x in g['plies']) == len(p) else 1)\"";
  if (std::system("/usr/bin/python3 -c 'import h5py' 2>/dev/null") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no h5py";
  EXPECT_EQ(std::system(check.c_str()), 0);
}

TEST_F(Campaign, ConfigErrorsExitWithCode2AndWriteNothing) {
  std::ofstream(dir_ / "bad.yaml") << "campaign: {games: -4}\n";
  const std::string out = (dir_ / "never.h5").string();
  EXPECT_EQ(Child({SELFPLAY_BINARY, "run", (dir_ / "bad.yaml").string(), "--out", out}).wait(), 2);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(Child({SELFPLAY_BINARY, "run", (dir_ / "missing.yaml").string(), "--out", out}).wait(),
            2);
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace sp::selfplay
