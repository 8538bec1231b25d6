// Threefold repetition in checkers (issue 12, draws as rule parameters): the rule over a game's
// positions (core/repetition.hpp) draws a king shuffle at the third occurrence, counts
// only since the last capture or man move, and is off at 0; alpha-beta scores a move that
// completes the count as a draw; a campaign's games end by it, the file says which rule was in
// force and `selfplay verify` replays such games; the key is range-checked.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/repetition.hpp"
#include "games/checkers/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/campaign_replay.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using Host = GameHost<CheckersGame>;
using checkers::Rules;
using checkers::State;

Rules with_repetition(int n) {
  Rules r;
  r.repetition = static_cast<uint8_t>(n);
  return r;
}

State play(State s, const std::string& move) {
  checkers::apply(s, checkers::parse_move(s, move));
  return s;
}

// Black's king 1-6-1 and White's 32-27-32 bring the start back every four plies.
const char* const kShuffle[] = {"1-6", "32-27", "6-1", "27-32"};
const char* const kKings = "B:WK32:BK1,K13";

TEST(CheckersRepetition, AKingShuffleIsDrawnAtTheThirdOccurrence) {
  const Rules rules = with_repetition(3);
  State s = checkers::with_rules(checkers::parse_position(kKings), rules);
  PositionHistory<CheckersGame> history(rules);
  history.reset(s);
  for (int ply = 0; ply < 8; ++ply) {
    s = play(s, kShuffle[ply % 4]);
    EXPECT_EQ(history.push(s), ply == 7) << "ply " << ply;
    EXPECT_FALSE(checkers::is_over(s)) << "the state itself does not see the rule";
  }
  EXPECT_EQ(history.occurrences(s), 3);
  EXPECT_EQ(history.positions().size(), 9u) << "every position since the last man move";

  PositionHistory<CheckersGame> twofold(with_repetition(2));
  twofold.reset(checkers::parse_position(kKings));
  State t = checkers::parse_position(kKings);
  for (int ply = 0; ply < 4; ++ply) {
    t = play(t, kShuffle[ply]);
    EXPECT_EQ(twofold.push(t), ply == 3) << "ply " << ply;
  }
}

TEST(CheckersRepetition, OffMeansNoDrawAndAManMoveStartsTheCountAgain) {
  State s = checkers::parse_position(kKings);
  PositionHistory<CheckersGame> off(with_repetition(0));
  off.reset(s);
  for (int ply = 0; ply < 40; ++ply) {
    s = play(s, kShuffle[ply % 4]);
    EXPECT_FALSE(off.push(s)) << "ply " << ply;
  }

  // A man on 9 for Black: after one shuffle (the start seen twice), 9-14 cannot be undone, so the
  // count starts again from the position it leaves, which comes back every four plies: a draw
  // eight plies after the man move.
  const Rules rules = with_repetition(3);
  State m = checkers::parse_position("B:WK32:BK1,9");
  PositionHistory<CheckersGame> history(rules);
  history.reset(m);
  for (int ply = 0; ply < 4; ++ply) EXPECT_FALSE(history.push(m = play(m, kShuffle[ply])));
  EXPECT_EQ(history.occurrences(m), 2);
  EXPECT_FALSE(history.push(m = play(m, "9-14")));
  EXPECT_EQ(history.positions().size(), 1u) << "a man move cannot be undone";
  EXPECT_FALSE(history.push(m = play(m, "32-27")));
  const char* const after[] = {"1-6", "27-32", "6-1", "32-27", "1-6", "27-32", "6-1"};
  for (int ply = 0; ply < 7; ++ply)
    EXPECT_EQ(history.push(m = play(m, after[ply])), ply == 6) << "ply " << ply;
}

// Alpha-beta over the classic weights, for White two kings down after the shuffle has brought the
// start back once (its positions passed as the game's history): 27-32 completes the threefold
// count and draws, every other move loses material value.
TEST(CheckersRepetition, AlphaBetaScoresTheRepeatingMoveAsADraw) {
  const auto weights =
      eval::load_weights<CheckersGame>(test::source_path("configs/checkers/weights/classic.yaml"));
  const auto search = [&](const Rules& rules, bool with_history) {
    search::AlphaBetaOptions options;
    options.depth = 3;
    options.tt_size_mb = 1;
    search::AlphaBeta<CheckersGame> ab(
        [&](const State& s) {
          return static_cast<int32_t>(1000 * eval::evaluate<CheckersGame>(weights, s, rules));
        },
        rules, options);
    std::vector<State> positions{checkers::with_rules(checkers::parse_position(kKings), rules)};
    for (int ply = 0; ply < 7; ++ply)
      positions.push_back(play(positions.back(), kShuffle[ply % 4]));
    const State root = positions.back();  // White to move, its king on 27, Black's on 1 and 13
    EXPECT_EQ(root.side, 1);
    return with_history ? ab.search(root, positions) : ab.search(root);
  };
  const auto drawn = search(with_repetition(3), true);
  EXPECT_EQ(checkers::to_string(drawn.best), "27-32");
  EXPECT_EQ(drawn.value, 0);
  EXPECT_LT(search(with_repetition(3), false).value, -100000) << "no history: nothing repeats";
  EXPECT_LT(search(with_repetition(0), true).value, -100000) << "no rule: nothing repeats";
}

const char* const kKingEnding = R"(game: checkers
rules: {max_plies: 200, quiet_plies: 60, repetition: REPETITION, start: "B:WK32:BK1"}
campaign: {games: 2, concurrency: 2, seed: 5, paired: true}
engines:
  player0: {type: alphabeta, depth: 2, quiescence: false, weights: WEIGHTS}
  player1: {type: alphabeta, depth: 2, quiescence: false, weights: WEIGHTS}
backend: {name: cpu, threads: 1}
output: {positions_per_game: 2, flush_seconds: 0.05}
)";

config::Config<CheckersGame> king_ending(const std::string& repetition) {
  std::string text = kKingEnding;
  text.replace(text.find("REPETITION"), 10, repetition);
  text.replace(text.find("WEIGHTS"), 7, test::source_path("configs/checkers/weights/classic.yaml"));
  text.replace(text.find("WEIGHTS"), 7, test::source_path("configs/checkers/weights/classic.yaml"));
  return config::load_campaign_config_text<CheckersGame>(text, "kings.yaml");
}

// Two lone kings: the engines shuffle, and the games end as draws by repetition long before the
// quiet-ply rule (60) would end them; with the rule off they run to it. (Without quiescence: with
// it, Black's depth-2 search sees the capture lines and hunts White's king into the single corner
// instead of shuffling.)
TEST(CheckersRepetition, CampaignGamesEndByRepetitionAndVerify) {
  test::TempDir tmp;
  const auto run = [&](const config::Config<CheckersGame>& base, const std::string& name) {
    auto cfg = base;
    cfg.output.path = tmp.file(name);
    std::atomic<bool> stop{false};
    selfplay::run_campaign<CheckersGame>(cfg, {}, stop);
    return io::CampaignReader(cfg.output.path).games();
  };
  const auto on = king_ending("3");
  for (const auto& g : run(on, "on.h5")) {
    EXPECT_EQ(g.winner, -1);
    EXPECT_LT(g.plies, 60u) << "game " << g.game_id;
  }
  int repetitions = 0;
  test::replay_stored_games<CheckersGame>(tmp.file("on.h5"), on, &repetitions);
  EXPECT_EQ(repetitions, 2);
  EXPECT_EQ(io::CampaignReader(tmp.file("on.h5")).meta().rules,
            "max_plies=200 quiet_plies=60 repetition=3");
  const auto r =
      test::run_command(std::string(SELFPLAY_BINARY) + " verify " + tmp.file("on.h5") + " 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;

  for (const auto& g : run(king_ending("0"), "off.h5")) {
    EXPECT_EQ(g.winner, -1);
    EXPECT_EQ(g.plies, 60u) << "game " << g.game_id << ": the quiet-ply rule ends it";
  }
}

// A won king ending converted (issue 27): two kings against one in the double corner, Black to
// move. Alpha-beta at depth 10 over strong.yaml (lead trades, king chase, quiescence) wins it well
// inside the 40-move rule; over classic.yaml without quiescence, the engine of before, it shuffles
// until the repetition draw.
TEST(CheckersEndgame, TheStrongEvaluationConvertsTwoKingsAgainstOne) {
  test::TempDir tmp;
  const auto play = [&](const std::string& engine, const std::string& name) {
    std::string text = R"(game: checkers
rules: {max_plies: 400, quiet_plies: 80, repetition: 3, start: "B:WK28:BK14,K15"}
campaign: {games: 1, concurrency: 1, seed: 5}
engines:
  player0: ENGINE
  player1: ENGINE
backend: {name: cpu, threads: 1}
output: {positions_per_game: 0, flush_seconds: 0.05}
)";
    for (size_t at; (at = text.find("ENGINE")) != std::string::npos;) text.replace(at, 6, engine);
    auto cfg = config::load_campaign_config_text<CheckersGame>(text, name + ".yaml");
    cfg.output.path = tmp.file(name + ".h5");
    std::atomic<bool> stop{false};
    selfplay::run_campaign<CheckersGame>(cfg, {}, stop);
    const auto games = io::CampaignReader(cfg.output.path).games();
    EXPECT_EQ(games.size(), 1u);
    return games.empty() ? io::GameRow{} : games[0];
  };
  const io::GameRow strong =
      play("{type: alphabeta, depth: 10, weights: " +
               test::source_path("configs/checkers/weights/strong.yaml") + "}",
           "strong");
  EXPECT_EQ(strong.winner, 0) << strong.record;
  EXPECT_LT(strong.plies, 40u) << strong.record;
  const io::GameRow classic =
      play("{type: alphabeta, depth: 10, quiescence: false, weights: " +
               test::source_path("configs/checkers/weights/classic.yaml") + "}",
           "classic");
  EXPECT_EQ(classic.winner, -1) << "the engine of before draws it: " << classic.record;
}

TEST(CheckersRepetition, TheKeyIsRangeChecked) {
  for (const auto& [value, want] :
       std::vector<std::pair<std::string, std::string>>{{"1", "1 would draw every game"},
                                                        {"256", "rules.repetition"},
                                                        {"-1", "rules.repetition"}}) {
    try {
      king_ending(value);
      ADD_FAILURE() << value << " accepted";
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("rules.repetition"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(Host::rules_of(king_ending("2").rules).repetition, 2);
  EXPECT_EQ(Host::rules_of(config::Config<CheckersGame>{}.rules).repetition, 3)
      << "threefold by default, as the reference rules have it";
}

}  // namespace
}  // namespace sp
