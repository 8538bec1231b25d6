// Perft (core/perft.hpp) against reference tables: EWN's from ../shared/reference/ewn.md
// (the die enumerated between decisions), tic-tac-toe's the well-known counts of games in progress
// after d plies (a finished game counts at its last ply only). EWN's own perft
// (games/ewn/perft.hpp) agrees with the generic one.
#include <gtest/gtest.h>

#include "core/perft.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/perft.hpp"
#include "tests/games/tictactoe/game.hpp"

namespace sp {
namespace {

// Reference counts from ../shared/reference/ewn.md.
struct PerftCase {
  const char* position;
  uint64_t nodes[6];
};
constexpr PerftCase kCases[] = {
    {"ABC2/DE3/F3f/3ed/2cba 0 1", {3, 54, 1134, 21570, 460914, 9155640}},
    {"ABC2/DE3/F3f/3ed/2cba 0 6", {3, 54, 972, 18555, 350291, 6999679}},
};

TEST(Perft, ReferenceTableThroughLibrary) {
  for (const auto& c : kCases) {
    const ewn::State s = ewn::parse_position(c.position);
    for (int d = 1; d <= 6; ++d) {
      EXPECT_EQ(perft<EwnGame>(s, ewn::Rules{}, d), c.nodes[d - 1]) << c.position << " depth " << d;
      if (d <= 5) {
        EXPECT_EQ(ewn::perft(s, ewn::Rules{}, d), c.nodes[d - 1]) << c.position;
      }
    }
  }
}

TEST(Perft, DivideSumsToPerft) {
  const ewn::State s = ewn::parse_position(kCases[0].position);
  uint64_t total = 0;
  const auto divide = perft_divide<EwnGame>(s, ewn::Rules{}, 4);
  ASSERT_EQ(divide.size(), 3u);
  const auto own = ewn::perft_divide(s, ewn::Rules{}, 4);
  for (size_t i = 0; i < divide.size(); ++i) {
    total += divide[i].second;
    EXPECT_EQ(divide[i].first, own[i].first);
    EXPECT_EQ(divide[i].second, own[i].second);
  }
  EXPECT_EQ(total, 21570u);
}

// The variants change the tree, and the generic perft follows the rules it is given.
TEST(Perft, VariantsAgreeWithEwnPerft) {
  const ewn::State s = ewn::parse_position("4a/5/5/2BE1/2AF1 0 4");
  ewn::Rules no_own, nearest;
  no_own.capture_own = false;
  nearest.substitution = ewn::Substitution::kNearest;
  for (const ewn::Rules& r : {ewn::Rules{}, no_own, nearest})
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft<EwnGame>(s, r, d), ewn::perft(s, r, d)) << d;
  EXPECT_NE(perft<EwnGame>(s, no_own, 3), perft<EwnGame>(s, ewn::Rules{}, 3));
}

// Without chance: games in progress after d plies, finished games counted once (at 5 plies the
// first wins appear, so 15120 includes them and depth 6 continues only the others).
TEST(Perft, TicTacToeWithoutChance) {
  constexpr uint64_t kNodes[9] = {9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
  const ttt::State s = ttt::initial_state(0);
  for (int d = 1; d <= 9; ++d) EXPECT_EQ(perft<TicTacToe>(s, ttt::Rules{}, d), kNodes[d - 1]) << d;
  uint64_t total = 0;
  for (const auto& [move, nodes] : perft_divide<TicTacToe>(s, ttt::Rules{}, 4)) total += nodes;
  EXPECT_EQ(total, 3024u);
}

}  // namespace
}  // namespace sp
