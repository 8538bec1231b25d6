// Checkers notation (games/checkers/notation.hpp): FEN positions in the forms PDN files use, the
// draw counters, moves in full and short forms, and one-line errors that name the column.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "games/checkers/checkers.hpp"
#include "games/checkers/notation.hpp"

namespace sp::checkers {
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

std::string position_error(const std::string& text) {
  return error_of([&] { parse_position(text); });
}

std::string move_error(const State& s, const std::string& text) {
  return error_of([&] { parse_move(s, text); });
}

TEST(CheckersNotation, FenFormsReadTheSamePosition) {
  const State a = parse_position("W:W18,K30,31,32:B1,5,K9");
  EXPECT_EQ(fen(a), "W:W18,K30,31,32:B1,5,K9");
  EXPECT_EQ(a.side, 1);
  EXPECT_EQ(a.pieces[1], (1u << 17) | (1u << 29) | (1u << 30) | (1u << 31));
  EXPECT_EQ(a.kings, (1u << 29) | (1u << 8));
  // Sections in either order, a tag around it, a final '.', ranges.
  for (const char* same : {"W:B1,5,K9:W18,K30,31,32", "[FEN \"W:W18,K30,31,32:B1,5,K9\"]",
                           "W:W18,K30,31,32:B1,5,K9.", "W:W18,K30,31-32:B1,5,K9"})
    EXPECT_EQ(fen(parse_position(same)), fen(a)) << same;
  // Runs of three or more are written as ranges, men and kings apart.
  EXPECT_EQ(fen(parse_position("B:WK1,K2,K3,21,22,23,24:B5,6,K7,8")), "B:WK1-3,21-24:B5,6,K7,8");
  const State start = parse_position("B:W21-32:B1-12"), want = initial_state();
  EXPECT_EQ(std::memcmp(&start, &want, sizeof(State)), 0);
}

TEST(CheckersNotation, DrawCountersFollowTheFenWhenTheyAreNotAFreshStart) {
  State s = initial_state(Rules{200, 40});
  EXPECT_EQ(to_string(s), "B:W21-32:B1-12 ply=0/200 quiet=0/40");
  s.ply = 12, s.quiet = 3;
  const State back = parse_position(to_string(s));
  EXPECT_EQ(std::memcmp(&back, &s, sizeof(State)), 0) << to_string(s);
  EXPECT_EQ(to_string(initial_state()), "B:W21-32:B1-12");
  EXPECT_EQ(parse_position("B:W21-32:B1-12 quiet=5/0").quiet_limit, 0);
}

TEST(CheckersNotation, BadPositionsNameTheColumnAndTheProblem) {
  EXPECT_EQ(position_error("X:W21:B1"),
            "position \"X:W21:B1\": column 1: expected the side to move, 'B' or 'W'");
  EXPECT_NE(position_error("B:W21,21:B1").find("column 7: square 21 is listed twice"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21:B21").find("column 8: square 21 is listed twice"),
            std::string::npos);
  EXPECT_NE(position_error("B:W2:B5").find("column 4: a white man on 2 would have crowned"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21:B33").find("column 8: expected a square number 1-32"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21-32:B1-13").find("Black has more than 12 pieces"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21").find("column 6: expected ':'"), std::string::npos);
  EXPECT_NE(position_error("B:W21:W22").find("column 7: White's pieces are listed twice"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21;22:B1").find("column 6: expected ','"), std::string::npos);
  EXPECT_NE(position_error("B:W21:B1 ply=5/4").find("column 16: more plies played than the limit"),
            std::string::npos);
  EXPECT_NE(position_error("B:W21:B1 plies=5/4").find("column 10: expected ply="),
            std::string::npos);
  EXPECT_NE(position_error("B:W21:B1 quiet=1/0 quiet=1/0").find("column 20: given twice"),
            std::string::npos);
  EXPECT_NE(position_error("[FEN \"B:W21:B1\"").find("expected '\"]'"), std::string::npos);
  EXPECT_NE(position_error("").find("column 1: empty"), std::string::npos);
  // Control bytes in the quoted text are escaped.
  EXPECT_NE(position_error("B:W21:B1\x1b[2J").find("\\x1b"), std::string::npos);
}

TEST(CheckersNotation, MovesInEveryFormAndTheirErrors) {
  const State start = initial_state();
  EXPECT_EQ(to_string(parse_move(start, "11-15")), "11-15");
  EXPECT_EQ(to_string(parse_move(start, "11x15")), "11-15") << "x for a plain move";
  EXPECT_EQ(move_error(start, "11-14"),
            "move \"11-14\": column 1: not a legal move for Black in B:W21-32:B1-12 (legal: "
            "9-13 10-14 11-15 12-16 9-14 10-15 11-16)");
  EXPECT_NE(move_error(start, "33-29").find("column 1: square 33 is not in 1-32"),
            std::string::npos);
  EXPECT_NE(move_error(start, "11/15").find("column 3: expected '-' or 'x' after a square"),
            std::string::npos);
  EXPECT_NE(move_error(start, "11-").find("column 4: expected a square number 1-32"),
            std::string::npos);
  EXPECT_NE(move_error(start, "11").find("column 3: a move names at least two squares"),
            std::string::npos);
  EXPECT_NE(move_error(start, "011-15").find("column 1: square numbers have at most two digits"),
            std::string::npos);
  EXPECT_NE(move_error(start, "").find("empty"), std::string::npos);
  // A capture stopped halfway is not a move; the full path and the short form are.
  const State s = parse_position("B:W6,14,15:B1");
  EXPECT_NE(move_error(s, "1x10").find("not a legal move"), std::string::npos);
  EXPECT_EQ(to_string(parse_move(s, "1x19")), "1x10x19");
  EXPECT_EQ(to_string(parse_move(s, "1x10x17")), "1x10x17");
  // A finished game has no moves to read.
  EXPECT_NE(move_error(parse_position("B:W32:B28"), "28-32").find("the game is over"),
            std::string::npos);
  // The lexer reports without throwing, for a PDN reader to add its line.
  const MoveText bad = lex_move("9x18x");
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.column, 5u);
  const MoveText good = lex_move("9x18x27");
  ASSERT_TRUE(good.ok);
  EXPECT_EQ(good.size, 3);
  EXPECT_EQ(good.squares[2], 26);
}

}  // namespace
}  // namespace sp::checkers
