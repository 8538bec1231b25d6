// EWN notation: round trips on random positions, canonical output, and a corpus of malformed
// inputs that must each be rejected with a message naming the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/tests/test_util.hpp"

namespace sp::ewn {
namespace {

// Expands a position string's board into 25 characters ('.' for empty), independently of the
// parser; empty on any syntax the format does not allow.
std::string expand_board(const std::string& text) {
  const size_t space = text.find(' ');
  if (space == std::string::npos) return "";
  std::string out;
  int rank_len = 0, ranks = 1;
  bool last_digit = false;
  for (size_t i = 0; i < space; ++i) {
    const char ch = text[i];
    if (ch == '/') {
      if (rank_len != 5) return "";
      rank_len = 0, ++ranks, last_digit = false;
    } else if (ch >= '1' && ch <= '5') {
      if (last_digit) return "";
      out.append(static_cast<size_t>(ch - '0'), '.');
      rank_len += ch - '0';
      last_digit = true;
    } else {
      out += ch;
      ++rank_len;
      last_digit = false;
    }
  }
  if (ranks != 5 || rank_len != 5 || out.size() != 25) return "";
  return out;
}

char expected_char(const State& s, int square) {
  for (int side = 0; side < 2; ++side)
    for (int c = 0; c < 6; ++c)
      if (((alive_of(s, side) >> c) & 1u) && square_of(s, side, c) == square)
        return static_cast<char>((side == 0 ? 'A' : 'a') + c);
  return '.';
}

// ---- round trips

TEST(EwnNotation, RandomPositionsRoundTripExactly) {
  int with_die = 0, captured = 0;
  for (uint32_t i = 0; i < 5000; ++i) {
    const Rules rules = test::rules_variant(static_cast<int>(i));
    const State s = test::random_midgame(21, i, rules, (i % 3) != 0);
    ASSERT_TRUE(state_ok(s));
    ASSERT_FALSE(is_over(s));
    with_die += s.die != kNoDie;
    captured += alive_of(s, 0) != 63 || alive_of(s, 1) != 63;
    const std::string text = to_string(s);

    // The string describes the state: every square, the side and the die.
    const std::string board = expand_board(text);
    ASSERT_EQ(board.size(), 25u) << text << " is not canonical";
    for (int q = 0; q < 25; ++q)
      EXPECT_EQ(board[q], expected_char(s, q)) << text << " square " << square_name(q);
    EXPECT_EQ(text.substr(text.size() - 4),
              std::string(" ") + static_cast<char>('0' + s.side) + " " +
                  (s.die == kNoDie ? '-' : static_cast<char>('0' + s.die)));

    const State back = parse_position(text);
    test::expect_same_state(back, s, text);
    EXPECT_TRUE(state_ok(back));
    EXPECT_EQ(to_string(back), text) << "to_string is canonical";
  }
  EXPECT_GT(with_die, 1000);
  EXPECT_GT(captured, 1000);
}

TEST(EwnNotation, ReferencePositionParses) {
  const State s = parse_position("ABC2/DE3/F3f/3ed/2cba 0 1");
  test::expect_same_state(s, [] {
    State t = initial_state(Arrangement{}, Arrangement{}, 0);
    t.die = 1;
    return t;
  }());
  EXPECT_EQ(square_of(s, 0, 0), parse_square("a5"));
  EXPECT_EQ(square_of(s, 0, 5), parse_square("a3"));
  EXPECT_EQ(square_of(s, 1, 0), parse_square("e1"));
  EXPECT_EQ(square_of(s, 1, 5), parse_square("e3"));
  const State t = parse_position("5/2a2/5/1A3/5 1 -");
  EXPECT_EQ(t.side, 1);
  EXPECT_EQ(t.die, kNoDie);
  EXPECT_EQ(alive_of(t, 0), 1);
  EXPECT_EQ(alive_of(t, 1), 1);
  EXPECT_EQ(square_of(t, 0, 0), parse_square("b2"));
  EXPECT_EQ(square_of(t, 1, 0), parse_square("c4"));
}

TEST(EwnNotation, SquareNamesFollowFilesAndRanks) {
  EXPECT_EQ(square_name(0), "a5");
  EXPECT_EQ(square_name(4), "e5");
  EXPECT_EQ(square_name(20), "a1");
  EXPECT_EQ(square_name(24), "e1");
  for (int q = 0; q < 25; ++q) {
    const std::string name = square_name(q);
    ASSERT_EQ(name.size(), 2u);
    EXPECT_EQ(name[0], 'a' + q % 5);
    EXPECT_EQ(name[1], '5' - q / 5);
    EXPECT_EQ(parse_square(name), q);
  }
  for (const char* bad : {"", "a", "a55", "f1", "a0", "a6", "A1", "1a", "e 1", "`5"})
    EXPECT_EQ(parse_square(bad), -1) << bad;
}

TEST(EwnNotation, MovesAndPliesRoundTrip) {
  int moves = 0, passes = 0;
  for (uint32_t i = 0; i < 3000; ++i) {
    const Rules rules = test::rules_variant(static_cast<int>(i));
    const State s = test::random_midgame(22, i, rules, true);
    MoveList list;
    generate_moves(s, rules, list);
    for (int k = 0; k < list.size; ++k) {
      const Move m = list.moves[k];
      const std::string text = to_string(m);
      if (m.is_pass()) {
        EXPECT_EQ(text, "pass");
        ++passes;
      } else {
        ASSERT_EQ(text.size(), 5u);
        EXPECT_EQ(text, square_name(m.from) + "-" + square_name(m.to));
        ++moves;
      }
      const Move back = parse_move(s, rules, text);
      EXPECT_EQ(back.from, m.from);
      EXPECT_EQ(back.to, m.to);
      const std::string ply = ply_to_string(s.die, m);
      EXPECT_EQ(ply, std::string(1, static_cast<char>('0' + s.die)) + ":" + text);
    }
  }
  EXPECT_GT(moves, 5000);
  EXPECT_GT(passes, 0);
}

TEST(EwnNotation, AllArrangementsRoundTrip) {
  std::array<int, 6> perm = {0, 1, 2, 3, 4, 5};
  int n = 0;
  do {
    Arrangement a;
    for (int slot = 0; slot < 6; ++slot) a.cube_at_slot[slot] = static_cast<uint8_t>(perm[slot]);
    const std::string text = to_string(a);
    ASSERT_EQ(text.size(), 6u);
    for (int slot = 0; slot < 6; ++slot) EXPECT_EQ(text[slot], '1' + perm[slot]);
    const Arrangement back = parse_arrangement(text);
    EXPECT_TRUE(std::equal(perm.begin(), perm.end(), back.cube_at_slot)) << text;
    ++n;
  } while (std::next_permutation(perm.begin(), perm.end()));
  EXPECT_EQ(n, 720);
}

TEST(EwnNotation, BoardDiagramShowsEveryCube) {
  for (uint32_t i = 0; i < 200; ++i) {
    const State s = test::random_midgame(23, i, Rules{}, false);
    const std::string diagram = board_diagram(s);
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = diagram.find('\n', start)) != std::string::npos; start = nl + 1)
      lines.push_back(diagram.substr(start, nl - start));
    ASSERT_EQ(lines.size(), 6u) << diagram;
    for (int row = 0; row < 5; ++row) {
      EXPECT_EQ(lines[row][0], '5' - row) << diagram;
      std::string cells;
      for (char ch : lines[row].substr(1))
        if (ch != ' ') cells += ch;
      ASSERT_EQ(cells.size(), 5u) << diagram;
      for (int col = 0; col < 5; ++col)
        EXPECT_EQ(cells[col], expected_char(s, row * 5 + col)) << diagram;
    }
    EXPECT_NE(lines[5].find("a b c d e"), std::string::npos);
  }
}

// ---- malformed input

struct BadInput {
  const char* text;
  const char* fragment;  // must appear in the error message
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "no exception";
}

TEST(EwnNotation, MalformedPositionsAreRejectedWithSpecificMessages) {
  const BadInput cases[] = {
      {"ABC1/DE3/F3f/3ed/2cba 0 1", "rank 5 has 4 squares, expected 5"},
      {"ABC2/DE3/F3f/3ed/2cb 0 1", "rank 1 has 4 squares, expected 5"},
      {"ABC3/DE3/F3f/3ed/2cba 0 1", "rank 5 is longer than 5 squares"},
      {"ABC2/DE3F/F3f/3ed/2cba 0 1", "rank 4 is longer than 5 squares"},
      {"ABC2/DE3/F3f/3ed 0 1", "expected 5 ranks separated by '/', found 4"},
      {"ABC2/DE3/F3f/3ed/2cba/5 0 1", "more than 5 ranks"},
      {"ABC2//F3f/3ed/2cba 0 1", "rank 4 has 0 squares"},
      {"AAC2/DE3/F3f/3ed/2cba 0 1", "column 2: cube 'A' appears twice"},
      {"ABC2/DE3/F3f/3ed/2cbb 0 1", "cube 'b' appears twice"},
      {"ABC2/DE3/F3f/3ed/2cba 0 7", "column 25: die must be 1-6 or -, found '7'"},
      {"ABC2/DE3/F3f/3ed/2cba 0 0", "die must be 1-6 or -, found '0'"},
      {"ABC2/DE3/F3g/3ed/2cba 0 1", "column 12: unexpected character 'g'"},
      {"ABC2/DE3/F3f/3ed/2cbG 0 1", "unexpected character 'G'"},
      {"ABC2/DE3/F3f/6/2cba 0 1", "unexpected character '6'"},
      {"ABC2/DE3/F3f/0ed/2cba 0 1", "unexpected character '0'"},
      {"ABC2/DE21/F3f/3ed/2cba 0 1", "column 9: two digits in a row"},
      {"ABC2/DE3/F3f/3ed/2cba", "missing side to move"},
      {"ABC2/DE3/F3f/3ed/2cba 2 1", "column 23: side to move must be 0 or 1"},
      {"ABC2/DE3/F3f/3ed/2cba 0", "missing die"},
      {"ABC2/DE3/F3f/3ed/2cba 0 ", "missing die"},
      {"ABC2/DE3/F3f/3ed/2cba 01", "missing die"},
      {"ABC2/DE3/F3f/3ed/2cba 0 1 x", "column 26: unexpected text after the die"},
      {"ABC2/DE3/F3f/3ed/2cba 0 12", "unexpected text after the die"},
      {"ABC2/DE3/F3f/3ed/2cba 0 1\n", "unexpected text after the die"},
      {"ABC2/DE3/F4/5/5 0 1", "player 1 has no cubes"},
      {"5/5/5/3ed/2cba 1 1", "player 0 has no cubes"},
      {"1BC2/DE3/F3f/3ed/2cbA 0 1", "player 0 already stands on its goal e1"},
      {"aBC2/DE3/F3f/3ed/2cbA 0 1", "already stands on its goal"},
      {"aBC2/DE3/F3f/3ed/2cb1 0 1", "player 1 already stands on its goal a5"},
      {"", "expected 5 ranks separated by '/', found 1"},
      {" ABC2/DE3/F3f/3ed/2cba 0 1", "expected 5 ranks"},
      {"ABC2/DE3/F3f/3ed/2cba  0 1", "side to move must be 0 or 1"},
      {"abc2/de3/f3F/3ED/2CBA 0 1", "already stands on its goal"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of([&] { parse_position(c.text); });
    EXPECT_NE(message.find(c.fragment), std::string::npos)
        << "input \"" << c.text << "\"\n  message: " << message << "\n  expected: " << c.fragment;
    EXPECT_NE(message.find("position \""), std::string::npos) << message;
  }
}

TEST(EwnNotation, ParseMoveRejectsIllegalAndMalformedMoves) {
  // Cube A (a5) moves on a 1; all three of its steps capture its own cubes B, D, E.
  const State s = parse_position("ABC2/DE3/F3f/3ed/2cba 0 1");
  const Rules rules;
  const BadInput cases[] = {
      {"a5-c3", "not legal with die 1; legal: a5-b5, a5-a4, a5-b4"},
      {"b5-c5", "not legal with die 1"},  // cube 2 may not move on a 1
      {"a5-a5", "not legal"},
      {"pass", "not legal with die 1"},
      {"a5b5", "expected <from>-<to>"},
      {"a5-b5x", "expected <from>-<to>"},
      {"", "expected <from>-<to>"},
      {"a5_b5", "expected <from>-<to>"},
      {"f5-b5", "'f5' is not a square"},
      {"a5-b6", "column 4: 'b6' is not a square"},
      {"A5-B5", "'A5' is not a square"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of([&] { parse_move(s, rules, c.text); });
    EXPECT_NE(message.find(c.fragment), std::string::npos)
        << "input \"" << c.text << "\"\n  message: " << message << "\n  expected: " << c.fragment;
    EXPECT_NE(message.find("move \""), std::string::npos) << message;
  }
  EXPECT_EQ(to_string(parse_move(s, rules, "a5-b4")), "a5-b4");
}

TEST(EwnNotation, ParseMoveNeedsRolledDieAndLiveGame) {
  State s = parse_position("ABC2/DE3/F3f/3ed/2cba 0 -");
  EXPECT_NE(error_of([&] { parse_move(s, Rules{}, "a5-b5"); }).find("the die has not been rolled"),
            std::string::npos);
  State won = parse_position("5/1a3/5/3A1/5 0 1");
  apply(won, parse_move(won, Rules{}, "d2-e1"));
  ASSERT_TRUE(is_over(won));
  won.die = 1;
  EXPECT_NE(error_of([&] { parse_move(won, Rules{}, "b4-a5"); }).find("the game is over"),
            std::string::npos);
}

TEST(EwnNotation, PassParsesOnlyWhenItIsTheOnlyMove) {
  Rules no_own;
  no_own.capture_own = false;
  const State blocked = parse_position("4a/5/5/2AB1/2CD1 0 1");
  EXPECT_TRUE(parse_move(blocked, no_own, "pass").is_pass());
  EXPECT_NE(error_of([&] { parse_move(blocked, no_own, "c2-d2"); }).find("legal: pass"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_move(blocked, Rules{}, "pass"); }).find("not legal"),
            std::string::npos);
  for (const char* almost : {"Pass", "pass ", " pass", "skip", "-", "PASS", "pas"})
    EXPECT_NE(error_of([&] { parse_move(blocked, no_own, almost); }).find("expected <from>-<to>"),
              std::string::npos)
        << almost;
}

TEST(EwnNotation, MalformedArrangementsAreRejected) {
  const BadInput cases[] = {
      {"12345", "expected six digits 1-6"},
      {"1234567", "expected six digits 1-6"},
      {"", "expected six digits 1-6"},
      {"123457", "column 6: '7' is not a cube number 1-6"},
      {"023456", "'0' is not a cube number"},
      {"12a456", "column 3: 'a' is not a cube number"},
      {"123455", "column 6: cube 5 appears twice"},
      {"112345", "cube 1 appears twice"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of([&] { parse_arrangement(c.text); });
    EXPECT_NE(message.find(c.fragment), std::string::npos)
        << "input \"" << c.text << "\"\n  message: " << message << "\n  expected: " << c.fragment;
  }
}

}  // namespace
}  // namespace sp::ewn
