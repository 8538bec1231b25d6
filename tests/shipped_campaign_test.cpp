// Every game without chance of the game list through the generic campaign code, typed: its shipped
// configs/<game>/campaign.yaml (MCTS against alpha-beta) runs with `selfplay run`, every stored
// game replays legally from its opening to its stored result with the stored features
// recomputed, and `selfplay verify` accepts the file; records do not depend on the thread count
// or the games in flight. What only one game has (draw limits, FEN starts, random openings, board
// sizes) is in checkers_campaign_test and gomoku_campaign_test. EWN, which has chance, has its own
// (campaign_test, ewn_pinned_test).
#include <gtest/gtest.h>

#include <cstdio>

#include <string>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "tests/campaign_replay.hpp"
#include "tests/game_types.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

template <class G>
class ShippedCampaign : public ::testing::Test {};
TYPED_TEST_SUITE(ShippedCampaign, test::DeterministicGameTypes<>);

std::string shipped(const std::string& game, const std::string& file) {
  return "configs/" + game + "/" + file;
}

TYPED_TEST(ShippedCampaign, RunsReplaysAndVerifies) {
  using G = TypeParam;
  test::TempDir tmp;
  const std::string config = test::source_path(shipped(G::kName, "campaign.yaml"));
  const std::string out = tmp.file("c.h5");
  const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " run " + config +
                                   " --games 4 --threads 2 --quiet --out " + out + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("games played        4"), std::string::npos) << r.out;
  const auto cfg = config::load_campaign_config<G>(config);
  ASSERT_EQ(cfg.engines[0].type, config::EngineType::kMcts);
  ASSERT_EQ(cfg.engines[1].type, config::EngineType::kAlphaBeta)
      << "the config pits mcts against alphabeta";
  io::CampaignReader reader(out);
  EXPECT_EQ(reader.games_count(), 4u);
  EXPECT_EQ(reader.positions_count(), 4u * cfg.output.positions_per_game);
  // The summary's draws are the file's: games without a winner.
  int draws = 0;
  for (const io::GameRow& g : reader.games()) draws += g.winner != 0 && g.winner != 1;
  char line[64];
  std::snprintf(line, sizeof line, "\ndraws               %.2f%%  [95%% CI ", 100.0 * draws / 4);
  EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  EXPECT_GE(test::replay_stored_games<G>(out, cfg), 4 * 5);
  const auto v = test::run_command(std::string(SELFPLAY_BINARY) + " verify " + out + " 2>&1");
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("verified 4 games"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(": OK"), std::string::npos) << v.out;
}

// The game's own rules at their defaults; MCTS with the weighted playouts against alpha-beta over
// the game's classic weights.
std::string small_yaml(const std::string& game) {
  return "game: " + game +
         "\n"
         "campaign: {games: 6, concurrency: 3, seed: 11, paired: true}\n"
         "engines:\n"
         "  player0: {type: mcts, rollouts_per_move: 96, rollouts_per_leaf: 8, policy: weighted}\n"
         "  player1: {type: alphabeta, depth: 2, weights: WEIGHTS}\n"
         "backend: {name: cpu, threads: 2, batch_rollouts: 64}\n"
         "output: {positions_per_game: 3, flush_seconds: 0.05}\n";
}

TYPED_TEST(ShippedCampaign, RecordsDoNotDependOnThreadsOrGamesInFlight) {
  using G = TypeParam;
  test::TempDir tmp;
  const auto cfg =
      test::config_with_weights<G>(small_yaml(G::kName), shipped(G::kName, "weights/classic.yaml"));
  const std::string a = test::play_campaign<G>(cfg, tmp.file("a.h5"));
  auto other = cfg;
  other.backend.threads = 1;
  other.concurrency = 2;
  EXPECT_EQ(test::play_campaign<G>(other, tmp.file("b.h5")), a);
  EXPECT_GT(test::replay_stored_games<G>(tmp.file("a.h5"), cfg), 6 * 5);
}

}  // namespace
}  // namespace sp
