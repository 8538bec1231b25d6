// `selfplay play --game gomoku`: the terminal loop of host/play/terminal/human_game.hpp with
// Gomoku's hooks (games/gomoku/host.hpp), driven by scripted streams: the board with its
// coordinates, the coordinate format in place of the some 200 legal moves, the squares that win or
// stop a five, a bad move answered with what is wrong, the engine's move.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "games/gomoku/host.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

using Host = GameHost<GomokuGame>;

std::string play(const std::string& input) {
  const auto cfg = config::load_campaign_config_text<GomokuGame>(
      "game: gomoku\ncampaign: {seed: 4}\nengines:\n  player0: {type: mcts, rollouts_per_move: "
      "64, rollouts_per_leaf: 8}\nbackend: {name: cpu, threads: 1}\n",
      "play.yaml");
  std::istringstream in(input);
  std::ostringstream out;
  auto backend = rollout::make_backend<GomokuGame>("cpu", play_backend_options(cfg));
  HumanGame<GomokuGame> game(cfg, *backend, /*human_first=*/true, in, out);
  game.run();
  return out.str();
}

TEST(GomokuPlay, TheCoordinatesStandInForTheLegalMovesAndABadMoveSaysWhy) {
  const std::string out = play("p3\nh16\nh8\nboard\nquit\n");
  EXPECT_EQ(out.find("Legal moves:"), std::string::npos) << "no list of 225 squares";
  EXPECT_NE(out.find("Moves: any of the 225 empty squares, a column a-o from the left and a row "
                     "1-15 from the top (h8 is the centre)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Moves: any of the 223 empty squares"), std::string::npos)
      << "after h8 and the engine's reply\n"
      << out;
  EXPECT_NE(out.find("Invalid move \"p3\": column 1: column 'p' is not on the 15x15 board (a-o)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Invalid move \"h16\": column 2: row 16 is not on the 15x15 board (1-15)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("Engine plays "), std::string::npos) << out;
  // The board has its coordinates around it: letters above and below, row numbers both sides.
  EXPECT_NE(out.find("    a b c d e f g h i j k l m n o\n  1 . . ."), std::string::npos) << out;
  EXPECT_NE(out.find(" 15\n    a b c d e f g h i j k l m n o\n"), std::string::npos) << out;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    EXPECT_LT(line.size(), 160u) << "a line as long as a list of moves: " << line.substr(0, 80);
}

TEST(GomokuPlay, TheHintNamesTheSquaresThatWinOrStopAFive) {
  // Black's four d8-g8, open at both ends; White's stones far away.
  gomoku::State s = gomoku::play_moves(gomoku::initial_state(), "d8a1e8o1f8a15g8");
  EXPECT_EQ(Host::moves_hint(s),
            "Moves: any of the 218 empty squares, a column a-o from the left and a row 1-15 from "
            "the top (h8 is the centre)\nBlack threatens five at: c8, h8 (it wins there next move "
            "unless blocked)\n");
  gomoku::apply(s, gomoku::Move{0, 7});  // White a8 elsewhere: Black to move, with two wins
  EXPECT_NE(Host::moves_hint(s).find("\nFive in a row at: c8, h8\n"), std::string::npos)
      << Host::moves_hint(s);
}

}  // namespace
}  // namespace sp::selfplay
