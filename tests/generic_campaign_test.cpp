// The deterministic path through the generic code (issue 9): tic-tac-toe, a game without chance
// and without evaluation features (tests only), plays campaigns and matches through the same
// config loader, driver, engines (MCTS without chance nodes, alpha-beta), HDF5 writer and match
// statistics as EWN, and its records replay legally and do not depend on scheduling.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/match.hpp"
#include "tests/games/tictactoe/host.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

namespace fs = std::filesystem;
using Host = GameHost<TicTacToe>;

// The game-theoretic value of s for its side to move: 1 win, 0 draw, -1 loss (brute force).
int solve(const ttt::State& s) {
  if (ttt::is_over(s)) return s.winner == ttt::kNoWinner ? 0 : (s.winner == s.side ? 1 : -1);
  ttt::MoveList list;
  ttt::generate_moves(s, list);
  int best = -1;
  for (int k = 0; k < list.size; ++k) {
    ttt::State t = s;
    ttt::apply(t, list.moves[k]);
    best = std::max(best, -solve(t));
  }
  return best;
}

const char* const kCampaign = R"(game: tictactoe
rules: {first_player: alternate, opening_moves: 2}
campaign: {games: 16, concurrency: 6, seed: 99}
engines:
  player0: {type: mcts, rollouts_per_move: 64, rollouts_per_leaf: 4, leaves_per_round: 4}
  player1: {type: alphabeta, depth: 9}
backend: {name: cpu, threads: 2, batch_rollouts: 256}
output: {positions_per_game: 2, flush_seconds: 0.05}
)";

class GenericCampaign : public ::testing::Test {
 protected:
  config::Config<TicTacToe> load(const std::string& text) {
    return config::load_campaign_config_text<TicTacToe>(text, "ttt.yaml");
  }

  // Plays cfg into dir/name and returns its records as text: per game its opening, first
  // player, winner and moves, in game id order.
  std::string play(config::Config<TicTacToe> cfg, const std::string& name) {
    cfg.output.path = (tmp_.path() / name).string();
    std::atomic<bool> stop{false};
    const selfplay::RunResult r = selfplay::run_campaign<TicTacToe>(cfg, {}, stop);
    EXPECT_EQ(r.games_played, cfg.games);
    return records(cfg.output.path);
  }

  static std::string records(const std::string& path) {
    io::CampaignReader reader(path);
    auto games = reader.games();
    std::sort(games.begin(), games.end(),
              [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
    std::string out;
    for (const auto& g : games)
      out += std::to_string(g.game_id) + " [" + std::string(io::text_of(g.opening)) + "] first " +
             std::to_string(g.first_player) + " winner " + std::to_string(g.winner) + ": " +
             std::string(io::text_of(g.record)) + "\n";
    return out;
  }

  test::TempDir tmp_;
};

TEST_F(GenericCampaign, GamesReplayLegallyFromTheirOpenings) {
  const auto cfg = load(kCampaign);
  play(cfg, "a.h5");
  io::CampaignReader reader((tmp_.path() / "a.h5").string());
  EXPECT_EQ(reader.meta().game, "tictactoe");
  EXPECT_EQ(reader.meta().rules, "standard");
  EXPECT_TRUE(reader.meta().feature_names.empty());
  auto plies = reader.plies();
  std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
    return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
  });
  const auto games = reader.games();
  ASSERT_EQ(games.size(), 16u);
  int alphabeta_losses = 0, decided_openings = 0;
  for (const auto& g : games) {
    std::string opening;
    ttt::State s = Host::start(cfg.rules, cfg.seed, static_cast<uint32_t>(g.game_id), &opening);
    // What player 1 can hold from the opening: a loss only where the opening already loses.
    const int value1 = s.side == 1 ? solve(s) : -solve(s);
    decided_openings += value1 != 0;
    EXPECT_EQ(io::text_of(g.opening), opening) << "game " << g.game_id;
    EXPECT_EQ(std::count(opening.begin(), opening.end(), ' '), 1) << opening;  // two moves
    EXPECT_EQ(g.first_player, s.side) << "game " << g.game_id;
    int n = 0;
    for (const auto& p : plies) {
      if (p.game_id != g.game_id) continue;
      ASSERT_FALSE(ttt::is_over(s)) << "game " << g.game_id << " goes on after its end";
      EXPECT_EQ(p.ply, n);
      EXPECT_EQ(p.player, s.side);
      ttt::apply(s, Host::parse_move(s, {}, io::text_of(p.move)));  // throws on an illegal move
      EXPECT_TRUE(ttt::state_ok(s));
      ++n;
    }
    EXPECT_EQ(n, g.plies);
    ASSERT_TRUE(ttt::is_over(s)) << "game " << g.game_id << " stops before its end";
    EXPECT_EQ(g.winner, s.winner == ttt::kNoWinner ? -1 : s.winner);
    // Player 1 searches to the end of the game: it never loses a position it can hold, and wins
    // every won one.
    if (value1 >= 0) alphabeta_losses += g.winner == 0;
    if (value1 > 0) {
      EXPECT_EQ(g.winner, 1) << "game " << g.game_id << " was won for player 1";
    }
  }
  EXPECT_EQ(alphabeta_losses, 0);
  EXPECT_LT(decided_openings, 16) << "every opening decided: the test shows nothing";
  // Two sampled positions per game (games have at least 3 plies after a 2-move opening).
  EXPECT_EQ(reader.positions_count(), 2 * games.size());
}

TEST_F(GenericCampaign, RecordsDoNotDependOnThreadsConcurrencyOrBatchSize) {
  const auto cfg = load(kCampaign);
  const std::string a = play(cfg, "a.h5");
  auto other = cfg;
  other.concurrency = 3;
  other.backend.threads = 1;
  other.backend.batch_rollouts = 40;
  const std::string b = play(other, "b.h5");
  EXPECT_EQ(a, b);
  auto seeded = cfg;
  seeded.seed = 100;
  EXPECT_NE(play(seeded, "c.h5"), a) << "the seed decides nothing";
}

TEST_F(GenericCampaign, PerfectPlayDrawsEveryGame) {
  auto cfg = load(R"(game: tictactoe
rules: {first_player: alternate}
campaign: {games: 4, concurrency: 2}
engines:
  player0: {type: alphabeta, depth: 9}
  player1: {type: alphabeta, depth: 9}
backend: {name: cpu, threads: 1}
)");
  play(cfg, "draws.h5");
  for (const auto& g : io::CampaignReader((tmp_.path() / "draws.h5").string()).games()) {
    EXPECT_EQ(g.winner, -1) << "game " << g.game_id;
    EXPECT_EQ(g.plies, 9);
  }
}

TEST_F(GenericCampaign, MatchCountsPairsThroughTheGenericCode) {
  auto cfg = config::load_match_config_text<TicTacToe>(R"(game: tictactoe
rules: {first_player: x}
campaign: {concurrency: 4, seed: 5}
engines:
  player0: {type: alphabeta, depth: 9}
  player1: {type: random}
backend: {name: cpu, threads: 2}
match: {pairs: 8, sprt: {enabled: false}}
)",
                                                       "ttt-match.yaml");
  cfg.output.path = (tmp_.path() / "m.h5").string();
  std::atomic<bool> stop{false};
  const selfplay::MatchResult r = selfplay::run_match<TicTacToe>(cfg, {}, stop);
  EXPECT_EQ(r.counter.penta().pairs(), 8u);
  EXPECT_NE(r.engine_a.find("alphabeta"), std::string::npos) << r.engine_a;
  io::CampaignReader reader(cfg.output.path);
  ASSERT_TRUE(reader.meta().match.has_value());
  const auto pairs = reader.match_pairs();
  ASSERT_EQ(pairs.size(), 8u);
  for (const auto& p : pairs) {  // perfect play never loses against random moves
    EXPECT_GE(p.result_1, 0.5f) << "pair " << p.pair_id;
    EXPECT_GE(p.result_2, 0.5f) << "pair " << p.pair_id;
  }
}

TEST_F(GenericCampaign, EngineTypesAndKeysFollowTheGame) {
  try {
    load("game: tictactoe\nengines:\n  player0: {type: expectimax}\n");
    FAIL() << "expectimax accepted for a game without chance";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("alphabeta"), std::string::npos) << e.what();
  }
  try {
    load("game: tictactoe\nengines:\n  player0: {type: mcts, depth: 3}\n");
    FAIL() << "depth accepted for an mcts engine";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("engines.player0.depth"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("for type alphabeta"), std::string::npos) << e.what();
  }
  // The explained config of an alphabeta engine lists its keys and no rollout key.
  const auto cfg = load("game: tictactoe\nengines:\n  player1: {type: alphabeta, depth: 5}\n");
  const std::string text = config::explain_campaign_config<TicTacToe>(cfg);
  const size_t at = text.find("player1:");
  ASSERT_NE(at, std::string::npos);
  const std::string player1 = text.substr(at);
  EXPECT_NE(player1.find("depth: 5"), std::string::npos) << player1;
  EXPECT_EQ(player1.find("rollouts_per_move"), std::string::npos) << player1;
  EXPECT_EQ(text.find("chance:"), std::string::npos) << "a chance key in a game without chance";
  // And it loads back to the same config.
  EXPECT_EQ(config::explain_campaign_config<TicTacToe>(
                config::load_campaign_config_text<TicTacToe>(text, "explained.yaml")),
            text);
}

}  // namespace
}  // namespace sp
