// What only checkers has in a campaign (issue 12): under short draw limits records still do not
// depend on the thread count and every game replays; the `rules:` keys of checkers (draw limits, a
// FEN start) reach the games and bad values are refused. The shipped campaign config of every game
// without chance runs, replays and verifies in shipped_campaign_test (typed).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <tuple>
#include <vector>

#include "games/checkers/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/campaign_replay.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using Host = GameHost<CheckersGame>;

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
  return test::config_with_weights<CheckersGame>(std::move(text),
                                                 "configs/checkers/weights/classic.yaml");
}

std::string play(const config::Config<CheckersGame>& cfg, const std::string& path) {
  return test::play_campaign<CheckersGame>(cfg, path);
}

TEST(CheckersCampaign, RecordsDoNotDependOnThreadsAndReplayUnderShortDrawLimits) {
  test::TempDir tmp;
  const auto cfg = small_config();
  const std::string a = play(cfg, tmp.file("a.h5"));
  auto other = cfg;
  other.backend.threads = 1;
  other.concurrency = 2;
  EXPECT_EQ(play(other, tmp.file("b.h5")), a);
  EXPECT_GT(test::replay_stored_games<CheckersGame>(tmp.file("a.h5"), cfg), 6 * 10);
  io::CampaignReader reader(tmp.file("a.h5"));
  EXPECT_EQ(reader.meta().rules, "max_plies=120 quiet_plies=20 repetition=3");
  for (const auto& g : reader.games()) EXPECT_LE(g.plies, 120) << "game " << g.game_id;
}

// output.quiet_positions: every stored position is quiet (no capture to make), and only those
// are left out that were not; off, the sample is drawn among every ply as before.
TEST(CheckersCampaign, QuietPositionsStoreOnlyPositionsWithoutACapture) {
  test::TempDir tmp;
  std::string text = kSmall;
  text.replace(text.find("positions_per_game: 3"), 21, "positions_per_game: 0");
  const auto all = small_config(text);
  play(all, tmp.file("all.h5"));
  text.replace(text.find("positions_per_game: 0"), 21,
               "positions_per_game: 0, quiet_positions: true");
  const auto quiet = small_config(text);
  EXPECT_TRUE(quiet.output.quiet_positions);
  play(quiet, tmp.file("quiet.h5"));
  int quiet_count = 0, loud_count = 0;
  const auto count = [&](const CheckersGame::State& s) {
    (CheckersGame::is_quiet(s) ? quiet_count : loud_count) += 1;
  };
  const int plies =
      test::replay_stored_games<CheckersGame>(tmp.file("all.h5"), all, nullptr, count);
  EXPECT_EQ(quiet_count + loud_count, plies);  // every ply
  EXPECT_GT(loud_count, 10);                   // the games had captures to make
  const int all_quiet = quiet_count;
  quiet_count = loud_count = 0;
  // The same games (positions decide none), their quiet positions only.
  EXPECT_EQ(test::replay_stored_games<CheckersGame>(tmp.file("quiet.h5"), quiet, nullptr, count),
            plies);
  EXPECT_EQ(loud_count, 0);
  EXPECT_EQ(quiet_count, all_quiet);
  // A sample of 3 a game comes from the quiet ones too.
  text.replace(text.find("positions_per_game: 0"), 21, "positions_per_game: 3");
  const auto sampled = small_config(text);
  play(sampled, tmp.file("sampled.h5"));
  quiet_count = loud_count = 0;
  test::replay_stored_games<CheckersGame>(tmp.file("sampled.h5"), sampled, nullptr, count);
  EXPECT_EQ(loud_count, 0);
  EXPECT_EQ(quiet_count, 3 * 6);
}

// The run identity names the table entries a file weighs and no other, so that campaigns of
// files that weigh none resume with the identity they had before the tables existed.
TEST(CheckersCampaign, TheIdentityNamesOnlyTheTableEntriesThatWeigh) {
  const auto hand = small_config();
  const std::string a = selfplay::run_identity(hand, false);
  EXPECT_NE(a.find("own_men"), std::string::npos);
  EXPECT_EQ(a.find("man_open_"), std::string::npos);
  EXPECT_EQ(a.find("quiet_positions"), std::string::npos);
  const auto tables =
      test::config_with_weights<CheckersGame>(kSmall, "configs/checkers/weights/tables.yaml");
  const std::string b = selfplay::run_identity(tables, false);
  EXPECT_NE(b.find("man_open_"), std::string::npos);
  EXPECT_NE(selfplay::identity_difference(a, b), "");
  auto quiet = hand;
  quiet.output.quiet_positions = true;
  EXPECT_NE(selfplay::run_identity(quiet, false).find("quiet_positions: true"), std::string::npos);
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
  EXPECT_GT(test::replay_stored_games<CheckersGame>(tmp.file("fen.h5"), cfg), 0);
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
