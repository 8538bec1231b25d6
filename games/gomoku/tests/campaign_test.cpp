// What only Gomoku has in a campaign (issue 13): records do not depend on the thread count with
// random openings, which reach the games; every board size takes the SIMD path; the `rules:` keys
// are checked (renju refused with its own message). The shipped campaign config of every game
// without chance runs, replays and verifies in shipped_campaign_test (typed).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "games/gomoku/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/campaign_replay.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using Host = GameHost<GomokuGame>;

const char* const kSmall = R"(game: gomoku
rules: {board_size: 15, rule: standard, opening: random, opening_moves: 3}
campaign: {games: 6, concurrency: 3, seed: 11, paired: true}
engines:
  player0: {type: mcts, rollouts_per_move: 96, rollouts_per_leaf: 8, policy: weighted}
  player1: {type: alphabeta, depth: 2, weights: WEIGHTS}
backend: {name: cpu, threads: 2, batch_rollouts: 64}
output: {positions_per_game: 3, flush_seconds: 0.05}
)";

config::Config<GomokuGame> small_config(std::string text = kSmall) {
  return test::config_with_weights<GomokuGame>(std::move(text),
                                               "configs/gomoku/weights/classic.yaml");
}

std::string play(const config::Config<GomokuGame>& cfg, const std::string& path) {
  return test::play_campaign<GomokuGame>(cfg, path);
}

TEST(GomokuCampaign, RecordsDoNotDependOnThreadsAndRandomOpeningsReachTheGames) {
  test::TempDir tmp;
  const auto cfg = small_config();
  const std::string a = play(cfg, tmp.file("a.h5"));
  auto other = cfg;
  other.backend.threads = 1;
  other.concurrency = 2;
  EXPECT_EQ(play(other, tmp.file("b.h5")), a);
  EXPECT_GT(test::replay_stored_games<GomokuGame>(tmp.file("a.h5"), cfg), 6 * 5);
  io::CampaignReader reader(tmp.file("a.h5"));
  EXPECT_EQ(reader.meta().rules, "board_size=15 rule=standard");
  std::set<std::string> openings;
  for (const auto& g : reader.games()) {
    const std::string opening(io::text_of(g.opening));
    const gomoku::State start = gomoku::play_moves(gomoku::initial_state(cfg.rules.rules), opening);
    EXPECT_EQ(start.ply, 3) << opening;
    openings.insert(opening);
    EXPECT_EQ(g.first_player, 1) << "three opening stones leave White to move";
  }
  EXPECT_EQ(openings.size(), 3u) << "one opening per pair";
}

// The log names the backend's SIMD path, and every leaf takes it on both board sizes: the log
// never says that some chunks play the scalar path (the backend's fallback for leaves a game's
// lanes refuse, tested in lane_fallback_test.cpp), so 20x20 runs in lanes as 15x15 does.
TEST(GomokuCampaign, EveryBoardSizeTakesTheSimdPath) {
  test::TempDir tmp;
  for (const int size : {20, 15}) {
    const std::string config =
        tmp.write("g" + std::to_string(size) + ".yaml",
                  "game: gomoku\nrules: {board_size: " + std::to_string(size) +
                      ", rule: freestyle, opening: empty}\n"
                      "campaign: {games: 1, concurrency: 1, seed: 3}\nengines:\n"
                      "  player0: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 8, "
                      "policy: weighted}\n"
                      "  player1: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 8, "
                      "policy: uniform}\n"
                      "backend: {name: cpu, threads: 1}\noutput: {path: g.h5, positions_per_game: "
                      "0}\n")
            .string();
    const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " run " + config + " --out " +
                                     tmp.file("g" + std::to_string(size) + ".h5") + " 2>&1");
    ASSERT_EQ(r.code, 0) << r.out;
    if (r.out.find("scalar playouts)") != std::string::npos)
      GTEST_SKIP() << "this processor has no AVX2: every leaf plays scalar anyway";
    EXPECT_TRUE(r.out.find("avx2 playouts)") != std::string::npos ||
                r.out.find("avx512 playouts)") != std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("play the scalar path, not "), std::string::npos) << size << ": " << r.out;
  }
}

TEST(GomokuCampaign, BadRulesAreRefusedWithTheKeyAndWhy) {
  const auto refused = [](const std::string& rules, const std::string& want) {
    std::string text = kSmall;
    const std::string old = "{board_size: 15, rule: standard, opening: random, opening_moves: 3}";
    text.replace(text.find(old), old.size(), rules);
    try {
      small_config(text);
      ADD_FAILURE() << rules << " accepted";
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  refused("{rule: renju}", "key 'rules.rule': renju is not supported; use freestyle or standard");
  refused("{rule: exact}", "key 'rules.rule': \"exact\" is no rule");
  refused("{board_size: 19}", "rules.board_size");
  refused("{opening_moves: 0}", "rules.opening_moves");
  refused("{opening_moves: 21}", "rules.opening_moves");
  refused("{opening: pos}", "rules.opening");
}

}  // namespace
}  // namespace sp
