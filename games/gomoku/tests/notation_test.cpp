// Gomoku notation (games/gomoku/notation.hpp): squares as Gomocup's `pos` openings write them,
// move sequences, position texts that round-trip, and one-line errors that name the column.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/notation.hpp"

namespace sp::gomoku {
namespace {

// The message of the InputError that f throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string move_error(const State& s, const std::string& text) {
  return error_of([&] { parse_move(s, text); });
}

std::string position_error(const std::string& text) {
  return error_of([&] { parse_position(text); });
}

const std::string kEmpty15 = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x";

TEST(GomokuNotation, SquaresAreColumnLetterAndRowNumberFromTheTopLeft) {
  EXPECT_EQ(square_name(0, 0), "a1");
  EXPECT_EQ(square_name(7, 7), "h8");
  EXPECT_EQ(square_name(14, 14), "o15");
  EXPECT_EQ(square_name(19, 19), "t20");
  const State s = initial_state();
  const Move m = parse_move(s, "h8");
  EXPECT_EQ(m.x, 7);
  EXPECT_EQ(m.y, 7);
  EXPECT_TRUE(parse_move(s, "H8") == m) << "capital letters read too";
  EXPECT_TRUE(parse_move(s, "o15") == (Move{14, 14}));
  EXPECT_TRUE(parse_move(initial_state(Rules{20, WinRule::kFreestyle}), "t20") == (Move{19, 19}));
  // Row 1 is the top row: the x, y of the Gomocup protocol (zero-based from the top-left corner).
  const State after = play_moves(s, "b1");
  EXPECT_TRUE(test_square(after.stones[0], 0 * 15 + 1));
  EXPECT_EQ(to_string(after), "1x13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 o");
}

TEST(GomokuNotation, BadMovesNameTheColumnAndTheProblem) {
  const State s = play_moves(initial_state(), "h8i9");
  EXPECT_EQ(move_error(s, ""), "move \"\": column 1: empty; a move is written like h8");
  EXPECT_EQ(move_error(s, "8h"), "move \"8h\": column 1: expected a column letter a-o");
  EXPECT_EQ(move_error(s, "p1"),
            "move \"p1\": column 1: column 'p' is not on the 15x15 board (a-o)");
  EXPECT_EQ(move_error(s, "h"),
            "move \"h\": column 2: expected a row number 1-15 after the column");
  EXPECT_EQ(move_error(s, "h16"),
            "move \"h16\": column 2: row 16 is not on the 15x15 board (1-15)");
  EXPECT_EQ(move_error(s, "h08"), "move \"h08\": column 2: a row number has no leading zero");
  EXPECT_EQ(move_error(s, "h8 "), "move \"h8 \": column 3: unexpected text after the move");
  EXPECT_EQ(move_error(s, "h8"), "move \"h8\": column 1: h8 is taken by a Black stone");
  EXPECT_EQ(move_error(s, "i9"), "move \"i9\": column 1: i9 is taken by a White stone");
  EXPECT_EQ(move_error(s, "h123456789012345678901234567890"),
            "move \"h123456789012345678901234567890\": column 2: row 123 is not on the 15x15 "
            "board (1-15)");
  const State over = play_moves(initial_state(), "a1a2b1b2c1c2d1d2e1");
  EXPECT_EQ(move_error(over, "h8"), "move \"h8\": column 1: the game is over (Black won)");
  EXPECT_NE(move_error(s, "h\x1b[2J").find("\\x1b"), std::string::npos)
      << "control bytes are escaped";
}

TEST(GomokuNotation, MoveSequencesInPosForm) {
  const State s = play_moves(initial_state(), "h8i9g7j10");
  EXPECT_EQ(s.ply, 4);
  EXPECT_EQ(s.side, 0);
  EXPECT_EQ(moves_text({Move{7, 7}, Move{8, 8}, Move{6, 6}, Move{9, 9}}), "h8i9g7j10");
  EXPECT_EQ(error_of([] { play_moves(initial_state(), "h8i9h8"); }),
            "moves \"h8i9h8\": column 5: h8 is taken by a Black stone");
  EXPECT_EQ(error_of([] { play_moves(initial_state(), "h8i9-g7"); }),
            "moves \"h8i9-g7\": column 5: expected a column letter a-o");
  EXPECT_EQ(error_of([] { play_moves(initial_state(), "a1a2b1b2c1c2d1d2e1f1"); }),
            "moves \"a1a2b1b2c1c2d1d2e1f1\": column 19: the game is over (Black won)");
}

TEST(GomokuNotation, PositionsRoundTrip) {
  EXPECT_EQ(to_string(initial_state()), kEmpty15);
  State empty = parse_position(kEmpty15), want = initial_state();
  EXPECT_EQ(std::memcmp(&empty, &want, sizeof(State)), 0);
  const State s = play_moves(initial_state(Rules{15, WinRule::kStandard}), "h8i9g7a1o15");
  const std::string text = to_string(s);
  EXPECT_EQ(text, "o14/15/15/15/15/15/6x8/7x7/8o6/15/15/15/15/15/14x o standard");
  const State back = parse_position(text);
  EXPECT_EQ(std::memcmp(&back, &s, sizeof(State)), 0);
  EXPECT_EQ(parse_position(text.substr(0, text.size() - 9) + " freestyle").rule,
            WinRule::kFreestyle);
  // 20x20, and a finished game: the winner is read from the board.
  const State big = play_moves(initial_state(Rules{20, WinRule::kFreestyle}), "a1a2b1b2c1c2d1d2e1");
  const State big_back = parse_position(to_string(big));
  EXPECT_EQ(std::memcmp(&big_back, &big, sizeof(State)), 0) << to_string(big);
  EXPECT_EQ(big_back.winner, 0);
  EXPECT_EQ(to_string(big),
            "xxxxx15/oooo16/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20 o");
}

TEST(GomokuNotation, BadPositionsNameTheColumnAndTheProblem) {
  EXPECT_EQ(position_error(""),
            "position \"\": column 1: empty; a position is rows joined by '/', then the side to "
            "move");
  EXPECT_EQ(position_error("15/15 x"),
            "position \"15/15 x\": column 6: a board of 2 rows of 15 squares; boards are 15x15 or "
            "20x20");
  EXPECT_NE(position_error("14/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x")
                .find("column 3: the first row has 14 squares; boards are 15x15 or 20x20"),
            std::string::npos);
  EXPECT_NE(position_error("15/14/15/15/15/15/15/15/15/15/15/15/15/15/15 x")
                .find("column 6: row 2 has 14 squares, row 1 has 15"),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/7y7/15/15/15/15/15/15/15 x")
                .find("column 23: expected 'x', 'o', a number of empty squares or '/', got 'y'"),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15")
                .find("expected a space and the side to move"),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b")
                .find("column 46: expected the side to move, 'x' or 'o'"),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x renju")
                .find("column 47: expected nothing more, or \" standard\""),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 x")
                .find("Black has 1 stones and White 0, so Black cannot be to move"),
            std::string::npos);
  EXPECT_NE(position_error("xxxxx10/oooo11/15/15/15/15/15/15/15/15/15/15/15/15/15 x")
                .find("Black has 5 stones and White 4, so Black cannot be to move"),
            std::string::npos);
  EXPECT_NE(position_error("xxxxx10/oooo11/o14/15/15/15/15/15/15/15/15/15/15/15/15 x")
                .find("Black is to move but already has five in a row"),
            std::string::npos);
  EXPECT_NE(position_error("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x").find("rows of"),
            std::string::npos);
  EXPECT_NE(position_error("99/15 x").find("row 1 is longer than 20 squares"), std::string::npos);
  EXPECT_NE(position_error("0/15 x").find("column 1: a run of empty squares is at least 1"),
            std::string::npos);
  // Six in a row is no five under the standard rule: with White to move the game goes on there,
  // and under freestyle Black has won.
  const std::string six = "xxxxxx9/o1o1o1o1o6/15/15/15/15/15/15/15/15/15/15/15/15/15 o";
  EXPECT_EQ(parse_position(six + " standard").winner, kNoWinner);
  EXPECT_EQ(parse_position(six).winner, 0);
}

}  // namespace
}  // namespace sp::gomoku
