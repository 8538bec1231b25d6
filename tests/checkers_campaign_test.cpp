// Checkers through the generic campaign code (issue 12): the shipped configs/checkers/campaign.yaml
// runs with `selfplay run` and every stored game replays legally from its opening to its stored
// result, with the stored features recomputed; records do not depend on the thread count; the
// `rules:` keys of checkers (draw limits, a FEN start) reach the games and bad values are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <tuple>
#include <vector>

#include "games/checkers/host.hpp"
#include "host/config/load.hpp"
#include "host/io/campaign_file.hpp"
#include "host/selfplay/campaign.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using Host = GameHost<CheckersGame>;

// Replays every game of the campaign file at path (written with cfg) through the rules and
// checks each row against the replay. Returns the number of plies replayed.
int replay_all(const std::string& path, const config::Config<CheckersGame>& cfg) {
  io::CampaignReader reader(path);
  EXPECT_EQ(reader.meta().game, "checkers");
  EXPECT_EQ(reader.meta().rules, Host::describe_rules(cfg.rules.rules));
  EXPECT_EQ(reader.meta().feature_names.size(), static_cast<size_t>(checkers::kNumFeatures));
  auto plies = reader.plies();
  std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
    return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
  });
  const auto positions = reader.positions();
  const auto features = reader.features();
  int replayed = 0;
  for (const auto& g : reader.games()) {
    std::string opening;
    checkers::State s =
        Host::start(cfg.rules, cfg.seed, static_cast<uint32_t>(g.game_id), &opening);
    EXPECT_EQ(io::text_of(g.opening), opening) << "game " << g.game_id;
    EXPECT_EQ(g.first_player, s.side) << "game " << g.game_id;
    std::vector<checkers::State> before;  // the position before each ply
    std::string record;
    for (const auto& p : plies) {
      if (p.game_id != g.game_id) continue;
      EXPECT_FALSE(checkers::is_over(s)) << "game " << g.game_id << " goes on after its end";
      EXPECT_EQ(p.ply, before.size());
      EXPECT_EQ(p.player, s.side);
      EXPECT_EQ(p.chance, io::kNoChance);
      before.push_back(s);
      const checkers::Move m = Host::parse_move(s, cfg.rules.rules, io::text_of(p.move));
      EXPECT_EQ(checkers::to_string(m), io::text_of(p.move)) << "moves are stored in full";
      record += (record.empty() ? "" : " ") + checkers::to_string(m);
      checkers::apply(s, m);
      EXPECT_TRUE(checkers::state_ok(s)) << checkers::to_string(s);
      ++replayed;
    }
    EXPECT_EQ(before.size(), g.plies) << "game " << g.game_id;
    EXPECT_TRUE(checkers::is_over(s)) << "game " << g.game_id << " stops before its end";
    const int winner = checkers::winner(s);
    EXPECT_EQ(g.winner, winner == checkers::kNoWinner ? -1 : winner) << "game " << g.game_id;
    if (!g.record_truncated) {
      EXPECT_EQ(io::text_of(g.record), record);
    }
    // The sampled positions: side to move, result and features recomputed from the replay.
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto& row = positions[i];
      if (row.game_id != g.game_id) continue;
      EXPECT_LT(row.ply, before.size());
      if (row.ply >= before.size()) continue;
      const checkers::State& at = before[row.ply];
      EXPECT_EQ(row.side_to_move, at.side);
      const float want = g.winner < 0 ? 0.5f : (g.winner == at.side ? 1.f : 0.f);
      EXPECT_EQ(row.result, want);
      float f[checkers::kNumFeatures];
      checkers::extract_features(at, f);
      for (int k = 0; k < checkers::kNumFeatures; ++k)
        EXPECT_EQ(features[i * checkers::kNumFeatures + k], f[k])
            << "game " << g.game_id << " ply " << row.ply << " " << checkers::kFeatureNames[k];
    }
  }
  return replayed;
}

std::string records(const std::string& path) {
  io::CampaignReader reader(path);
  auto games = reader.games();
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  std::string out;
  for (const auto& g : games)
    out += std::to_string(g.game_id) + " winner " + std::to_string(g.winner) + ": " +
           std::string(io::text_of(g.record)) + "\n";
  return out;
}

TEST(CheckersCampaign, TheShippedCampaignRunsAndItsGamesReplay) {
  test::TempDir tmp;
  const std::string config = test::source_path("configs/checkers/campaign.yaml");
  const std::string out = tmp.file("c.h5");
  const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " run " + config +
                                   " --games 4 --threads 2 --quiet --out " + out + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("games played        4"), std::string::npos) << r.out;
  const auto cfg = config::load_campaign_config<CheckersGame>(config);
  ASSERT_EQ(cfg.engines[1].type, config::EngineType::kAlphaBeta)
      << "the config pits mcts against alphabeta";
  io::CampaignReader reader(out);
  EXPECT_EQ(reader.games_count(), 4u);
  EXPECT_EQ(reader.positions_count(), 4u * cfg.output.positions_per_game);
  EXPECT_GT(replay_all(out, cfg), 4 * 20);
}

const char* const kSmall = R"(game: checkers
rules: {max_plies: 120, quiet_plies: 20}
campaign: {games: 6, concurrency: 3, seed: 11, paired: true}
engines:
  player0: {type: mcts, rollouts_per_move: 96, rollouts_per_leaf: 8, policy: weighted}
  player1: {type: alphabeta, depth: 3, weights: WEIGHTS}
backend: {name: cpu, threads: 2, batch_rollouts: 64}
output: {positions_per_game: 3, flush_seconds: 0.05}
)";

config::Config<CheckersGame> small_config(std::string text = kSmall) {
  const std::string weights = test::source_path("configs/checkers/weights/classic.yaml");
  text.replace(text.find("WEIGHTS"), 7, weights);
  return config::load_campaign_config_text<CheckersGame>(text, "small.yaml");
}

std::string play(config::Config<CheckersGame> cfg, const std::string& path) {
  cfg.output.path = path;
  std::atomic<bool> stop{false};
  const selfplay::RunResult r = selfplay::run_campaign<CheckersGame>(cfg, {}, stop);
  EXPECT_EQ(r.games_played, cfg.games);
  return records(path);
}

TEST(CheckersCampaign, RecordsDoNotDependOnThreadsAndReplayUnderShortDrawLimits) {
  test::TempDir tmp;
  const auto cfg = small_config();
  const std::string a = play(cfg, tmp.file("a.h5"));
  auto other = cfg;
  other.backend.threads = 1;
  other.concurrency = 2;
  EXPECT_EQ(play(other, tmp.file("b.h5")), a);
  EXPECT_GT(replay_all(tmp.file("a.h5"), cfg), 6 * 10);
  io::CampaignReader reader(tmp.file("a.h5"));
  EXPECT_EQ(reader.meta().rules, "max_plies=120 quiet_plies=20");
  for (const auto& g : reader.games()) EXPECT_LE(g.plies, 120) << "game " << g.game_id;
}

TEST(CheckersCampaign, AFenStartReachesEveryGameAndItsOpening) {
  test::TempDir tmp;
  std::string text = kSmall;
  text.replace(text.find("quiet_plies: 20}"), 16, "quiet_plies: 20, start: \"W:W18,K30:B1,5,K9\"}");
  const auto cfg = small_config(text);
  play(cfg, tmp.file("fen.h5"));
  for (const auto& g : io::CampaignReader(tmp.file("fen.h5")).games()) {
    EXPECT_EQ(io::text_of(g.opening), "W:W18,K30:B1,5,K9");
    EXPECT_EQ(g.first_player, 1) << "White moves first in this FEN";
  }
  EXPECT_GT(replay_all(tmp.file("fen.h5"), cfg), 0);
}

TEST(CheckersCampaign, BadRulesAreRefusedWithTheKeyAndWhy) {
  const auto refused = [](const std::string& rules, const std::string& want) {
    std::string text = kSmall;
    text.replace(text.find("{max_plies: 120, quiet_plies: 20}"), 33, rules);
    try {
      small_config(text);
      ADD_FAILURE() << rules << " accepted";
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  refused("{max_plies: 0}", "rules.max_plies");
  refused("{quiet_plies: 256}", "rules.quiet_plies");
  refused("{start: \"B:W21-32:B1-12 ply=3/400\"}", "without ply= or quiet=");
  refused("{start: \"B:W32:B28\"}", "the side to move has no move");
  refused("{start: \"B:W21-32:B1-13\"}", "more than 12 pieces");
  refused("{start: \"B:WK1,K3,K5,K7,K9,K11,K13,K15,K17,K19,K21,K23:BK2,K4,K6,K8,K10,K12\"}",
          "more than the 63");
  refused("{start: nonsense}", "rules.start");
}

}  // namespace
}  // namespace sp
