// EWN rules, one rule per small hand-made position (../shared/reference/ewn.md), and the bitboard
// primitives against slow references computed from row/column coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/tests/test_util.hpp"

namespace sp::ewn {
namespace {

using test::move_set;
using test::move_strings;
using Set = std::set<std::string>;

Rules default_rules() { return Rules{}; }
Rules no_own_capture() {
  Rules r;
  r.capture_own = false;
  return r;
}
Rules nearest() {
  Rules r;
  r.substitution = Substitution::kNearest;
  return r;
}

int sq(const char* name) {
  const int s = parse_square(name);
  EXPECT_GE(s, 0) << name;
  return s;
}

// Plays the move named by text (which must be legal) and checks the invariants afterwards.
State play(State s, const Rules& rules, const char* text) {
  const Move m = parse_move(s, rules, text);
  const uint8_t mover = s.side;
  apply(s, m);
  EXPECT_TRUE(state_ok(s)) << text;
  EXPECT_EQ(s.side, mover ^ 1) << text;
  EXPECT_EQ(s.die, kNoDie) << text;
  return s;
}

// ---- slow references from coordinates

uint32_t ref_forward(int side, int square) {
  const int r = square / 5, c = square % 5;
  const int dr[3] = {0, 1, 1}, dc[3] = {1, 0, 1};
  const int sign = side == 0 ? 1 : -1;
  uint32_t out = 0;
  for (int k = 0; k < 3; ++k) {
    const int nr = r + sign * dr[k], nc = c + sign * dc[k];
    if (nr >= 0 && nr < 5 && nc >= 0 && nc < 5) out |= 1u << (nr * 5 + nc);
  }
  return out;
}

uint32_t ref_shift(uint32_t b, int dr, int dc) {
  uint32_t out = 0;
  for (int s = 0; s < 25; ++s) {
    if (!((b >> s) & 1u)) continue;
    const int nr = s / 5 + dr, nc = s % 5 + dc;
    if (nr >= 0 && nr < 5 && nc >= 0 && nc < 5) out |= 1u << (nr * 5 + nc);
  }
  return out;
}

// Fewest forward steps to the goal, by dynamic programming over the move graph.
std::vector<int> ref_distances(int side) {
  std::vector<int> d(25, 1000);
  d[side == 0 ? 24 : 0] = 0;
  for (int k = 0; k < 25; ++k) {
    const int s = side == 0 ? 24 - k : k;  // targets of s are visited before s
    for (int t = 0; t < 25; ++t)
      if ((ref_forward(side, s) >> t) & 1u) d[s] = std::min(d[s], d[t] + 1);
  }
  return d;
}

int ref_cube_on(const State& s, int side, int square) {
  for (int c = 0; c < 6; ++c)
    if (((alive_of(s, side) >> c) & 1u) && square_of(s, side, c) == square) return c;
  return -1;
}

uint32_t ref_movable(uint32_t alive, int die, Substitution sub) {
  const int want = die - 1;
  if ((alive >> want) & 1u) return 1u << want;
  int lower = -1, higher = -1;
  for (int c = want - 1; c >= 0 && lower < 0; --c)
    if ((alive >> c) & 1u) lower = c;
  for (int c = want + 1; c < 6 && higher < 0; ++c)
    if ((alive >> c) & 1u) higher = c;
  if (sub == Substitution::kNearest && lower >= 0 && higher >= 0) {
    if (want - lower < higher - want) return 1u << lower;
    if (higher - want < want - lower) return 1u << higher;
  }
  uint32_t out = 0;
  if (lower >= 0) out |= 1u << lower;
  if (higher >= 0) out |= 1u << higher;
  return out;
}

// ---- movement directions, edges and corners

struct MoveCase {
  const char* position;
  Set moves;
};

TEST(Rules, PlayerZeroMovesRightDownAndDiagonallyDownRight) {
  const State s = parse_position("4a/5/2A2/5/5 0 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"c3-d3", "c3-c2", "c3-d2"}));
}

TEST(Rules, PlayerOneMovesLeftUpAndDiagonallyUpLeft) {
  const State s = parse_position("5/5/2a2/5/A4 1 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"c3-b3", "c3-c4", "c3-b4"}));
}

TEST(Rules, EdgesAndCornersCutMovesOff) {
  const MoveCase cases[] = {
      // player 0
      {"4a/5/4A/5/5 0 1", {"e3-e2"}},                    // right edge
      {"4a/5/5/5/2A2 0 1", {"c1-d1"}},                   // bottom edge
      {"4a/5/5/5/A4 0 1", {"a1-b1"}},                    // bottom-left corner
      {"4A/5/5/5/a4 0 1", {"e5-e4"}},                    // top-right corner
      {"A4/5/5/5/4a 0 1", {"a5-b5", "a5-a4", "a5-b4"}},  // own start corner
      {"4a/5/5/4A/5 0 1", {"e2-e1"}},                    // next to the goal on the e-file
      {"4a/5/5/5/3A1 0 1", {"d1-e1"}},                   // next to the goal on rank 1
      // player 1
      {"4A/5/a4/5/5 1 1", {"a3-a4"}},                    // left edge
      {"2a2/5/5/5/A4 1 1", {"c5-b5"}},                   // top edge
      {"4a/5/5/5/A4 1 1", {"e5-d5"}},                    // top-right corner
      {"4A/5/5/5/a4 1 1", {"a1-a2"}},                    // bottom-left corner
      {"4A/5/5/5/4a 1 1", {"e1-d1", "e1-e2", "e1-d2"}},  // own start corner
      {"1a3/5/5/5/A4 1 1", {"b5-a5"}},                   // next to the goal on rank 5
      {"4A/a4/5/5/5 1 1", {"a4-a5"}},                    // next to the goal on the a-file
  };
  for (const auto& c : cases)
    EXPECT_EQ(move_set(parse_position(c.position), default_rules()), c.moves) << c.position;
}

// Every square, both sides: a lone cube's moves are exactly the on-board forward steps.
TEST(Rules, LoneCubeOnEverySquareMatchesCoordinateReference) {
  for (int side = 0; side < 2; ++side)
    for (int from = 0; from < 25; ++from) {
      if (from == goal_square(side)) continue;
      State s = empty_state();
      place(s, side, 2, from);
      // The opponent's cube sits on its own start corner (this side's goal, skipped as a from).
      place(s, side ^ 1, 0, goal_square(side));
      s.side = static_cast<uint8_t>(side);
      s.die = 3;
      ASSERT_TRUE(state_ok(s));
      Set expected;
      const uint32_t targets = ref_forward(side, from);
      for (int t = 0; t < 25; ++t)
        if ((targets >> t) & 1u) expected.insert(square_name(from) + "-" + square_name(t));
      EXPECT_EQ(move_set(s, default_rules()), expected) << side << " " << square_name(from);
    }
}

TEST(Rules, MovesAreListedByCubeNumberThenDestination) {
  // Cubes 2 (a5) and 5 (c5) both move on a 4: cube 2's moves first, destinations ascending.
  const State s = parse_position("B1E2/5/5/5/4a 0 4");
  EXPECT_EQ(move_strings(s, default_rules()),
            (std::vector<std::string>{"a5-b5", "a5-a4", "a5-b4", "c5-d5", "c5-c4", "c5-d4"}));
}

// ---- captures

TEST(Rules, CapturingOwnCubeIsAllowedByDefault) {
  const State s = parse_position("4a/1AB2/5/5/5 0 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"b4-c4", "b4-b3", "b4-c3"}));
  const State after = play(s, default_rules(), "b4-c4");
  EXPECT_EQ(alive_of(after, 0), 0b000001) << "cube B was captured by its own side";
  EXPECT_EQ(square_of(after, 0, 0), sq("c4"));
  EXPECT_EQ(square_of(after, 0, 1), static_cast<int>(kGone));
  EXPECT_EQ(after.occ[0], 1u << sq("c4"));
  EXPECT_EQ(alive_of(after, 1), 0b000001) << "the opponent is untouched";
  EXPECT_FALSE(is_over(after));
}

TEST(Rules, PlayerOneCapturesOwnCubeByDefault) {
  const State s = parse_position("A4/5/5/2ba1/5 1 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"d2-c2", "d2-d3", "d2-c3"}));
  const State after = play(s, default_rules(), "d2-c2");
  EXPECT_EQ(alive_of(after, 1), 0b000001);
  EXPECT_EQ(square_of(after, 1, 0), sq("c2"));
  EXPECT_FALSE(is_over(after));
}

TEST(Rules, CapturingOwnCubeForbiddenWithVariant) {
  EXPECT_EQ(move_set(parse_position("4a/1AB2/5/5/5 0 1"), no_own_capture()),
            (Set{"b4-b3", "b4-c3"}));
  EXPECT_EQ(move_set(parse_position("A4/5/5/2ba1/5 1 1"), no_own_capture()),
            (Set{"d2-d3", "d2-c3"}));
  EXPECT_THROW(parse_move(parse_position("4a/1AB2/5/5/5 0 1"), no_own_capture(), "b4-c4"),
               InputError);
}

TEST(Rules, CapturingOpponentStillAllowedWithoutOwnCapture) {
  const State s = parse_position("5/1Ab2/5/5/4a 0 1");
  EXPECT_EQ(move_set(s, no_own_capture()), (Set{"b4-c4", "b4-b3", "b4-c3"}));
  const State after = play(s, no_own_capture(), "b4-c4");
  EXPECT_EQ(alive_of(after, 1), 0b000001);
  EXPECT_FALSE(is_over(after));
}

TEST(Rules, BlockedPlayerZeroPassesWithoutOwnCapture) {
  // A (c2) is surrounded by its own B (d2), C (c1) and D (d1).
  const State s = parse_position("4a/5/5/2AB1/2CD1 0 1");
  MoveList list;
  generate_moves(s, no_own_capture(), list);
  ASSERT_EQ(list.size, 1);
  EXPECT_TRUE(list.moves[0].is_pass());
  EXPECT_EQ(to_string(list.moves[0]), "pass");
  State after = s;
  apply(after, list.moves[0]);
  EXPECT_TRUE(state_ok(after));
  State expected = s;
  expected.side = 1;
  expected.die = kNoDie;
  test::expect_same_state(after, expected, "a pass changes only the side and the die");
  // With the default rules the same cube has three captures of its own cubes.
  EXPECT_EQ(move_set(s, default_rules()), (Set{"c2-d2", "c2-c1", "c2-d1"}));
}

TEST(Rules, BlockedPlayerOnePassesWithoutOwnCapture) {
  // The mirror image: a (c4) is surrounded by b (b4), c (c5) and d (b5).
  const State s = parse_position("Adc2/1ba2/5/5/5 1 1");
  EXPECT_EQ(move_strings(s, no_own_capture()), (std::vector<std::string>{"pass"}));
  EXPECT_EQ(move_set(s, default_rules()), (Set{"c4-b4", "c4-c5", "c4-b5"}));
}

TEST(Rules, PartlyBlockedSubstituteStillMoves) {
  // Roll 4 with cubes {1, 2, 5, 6}: B (c2) is blocked by its own E (d2), A (c1) and F (d1);
  // E can still step to e2 and e1.
  const State s = parse_position("4a/5/5/2BE1/2AF1 0 4");
  EXPECT_EQ(move_set(s, no_own_capture()), (Set{"d2-e2", "d2-e1"}));
}

// ---- substitution of a missing cube

TEST(Rules, RollOneWithCubeOneGoneMovesOnlyNextHigher) {
  const State s = parse_position("B1D2/5/F4/5/4a 0 1");  // cubes 2 (a5), 4 (c5), 6 (a3)
  EXPECT_EQ(move_set(s, default_rules()), (Set{"a5-b5", "a5-a4", "a5-b4"}));
  EXPECT_EQ(move_set(s, nearest()), (Set{"a5-b5", "a5-a4", "a5-b4"}));
}

TEST(Rules, RollSixWithCubeSixGoneMovesOnlyNextLower) {
  const State s = parse_position("B1D2/5/E4/5/4a 0 6");  // cubes 2 (a5), 4 (c5), 5 (a3)
  EXPECT_EQ(move_set(s, default_rules()), (Set{"a3-b3", "a3-a2", "a3-b2"}));
  EXPECT_EQ(move_set(s, nearest()), (Set{"a3-b3", "a3-a2", "a3-b2"}));
}

TEST(Rules, OnlyOneNeighbourMeansThatCubeMoves) {
  // Roll 3 with cubes {4, 5}: only the next higher (4), not 5.
  EXPECT_EQ(move_set(parse_position("D1E2/5/5/5/4a 0 3"), default_rules()),
            (Set{"a5-b5", "a5-a4", "a5-b4"}));
  // Roll 4 with cubes {1, 2}: only the next lower (2), not 1.
  EXPECT_EQ(move_set(parse_position("A1B2/5/5/5/4a 0 4"), default_rules()),
            (Set{"c5-d5", "c5-c4", "c5-d4"}));
}

TEST(Rules, TwoNeighboursBothMayMove) {
  const Set both = {"a5-b5", "a5-a4", "a5-b4", "c5-d5", "c5-c4", "c5-d4"};
  // Cubes {2, 5}: a roll of 4 (nearer to 5) and a roll of 3 (nearer to 2) both offer both cubes.
  EXPECT_EQ(move_set(parse_position("B1E2/5/5/5/4a 0 4"), default_rules()), both);
  EXPECT_EQ(move_set(parse_position("B1E2/5/5/5/4a 0 3"), default_rules()), both);
}

TEST(Rules, SubstitutionTakesNextNumbersNotFartherOnes) {
  // Cubes {1, 2, 5, 6}, roll 4: 2 and 5 move; 1 and 6 do not.
  const State s = parse_position("AB1EF/5/5/5/4a 0 4");
  EXPECT_EQ(move_set(s, default_rules()),
            (Set{"b5-c5", "b5-b4", "b5-c4", "d5-e5", "d5-d4", "d5-e4"}));
}

TEST(Rules, PlayerOneSubstitutionWithTwoNeighbours) {
  const State s = parse_position("4A/5/5/5/2b1e 1 4");  // cubes 2 (c1), 5 (e1)
  EXPECT_EQ(move_set(s, default_rules()),
            (Set{"c1-b1", "c1-c2", "c1-b2", "e1-d1", "e1-e2", "e1-d2"}));
  EXPECT_EQ(move_set(s, nearest()), (Set{"e1-d1", "e1-e2", "e1-d2"}));
}

TEST(Rules, NearestVariantPrefersNearerNumberAndKeepsTies) {
  const Set cube2 = {"a5-b5", "a5-a4", "a5-b4"}, cube5 = {"c5-d5", "c5-c4", "c5-d4"};
  Set both = cube2;
  both.insert(cube5.begin(), cube5.end());
  EXPECT_EQ(move_set(parse_position("B1E2/5/5/5/4a 0 4"), nearest()),
            cube5);  // 4: 5 is 1 away, 2 is 2
  EXPECT_EQ(move_set(parse_position("B1E2/5/5/5/4a 0 3"), nearest()),
            cube2);  // 3: 2 is 1 away, 5 is 2
  EXPECT_EQ(move_set(parse_position("B1F2/5/5/5/4a 0 4"), nearest()), both);  // 4: 2 and 6 tie
  // One neighbour only: the nearest rule has nothing to choose.
  EXPECT_EQ(move_set(parse_position("D1E2/5/5/5/4a 0 3"), nearest()),
            (Set{"a5-b5", "a5-a4", "a5-b4"}));
}

TEST(Rules, RolledCubeOnBoardAlwaysMovesItself) {
  // Cubes 1..6 all present: every roll moves exactly that cube.
  const State base = parse_position("ABC2/DE3/F3f/3ed/2cba 0 1");
  for (int die = 1; die <= 6; ++die) {
    State s = base;
    s.die = static_cast<uint8_t>(die);
    MoveList list;
    generate_moves(s, default_rules(), list);
    ASSERT_GT(list.size, 0);
    for (int k = 0; k < list.size; ++k)
      EXPECT_EQ(cube_on(s, 0, list.moves[k].from), die - 1) << die;
  }
}

TEST(Rules, MovableCubesMatchesReferenceForEveryMaskAndDie) {
  for (uint32_t alive = 1; alive < 64; ++alive)
    for (int die = 1; die <= 6; ++die)
      for (Substitution sub : {Substitution::kNextLowerOrHigher, Substitution::kNearest})
        EXPECT_EQ(movable_cubes(alive, die, sub), ref_movable(alive, die, sub))
            << "alive " << alive << " die " << die << " nearest "
            << (sub == Substitution::kNearest);
}

// ---- winning

TEST(Rules, PlayerZeroWinsOnBottomRightCorner) {
  const State s = parse_position("5/1a3/5/3A1/5 0 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"d2-e2", "d2-d1", "d2-e1"}));
  EXPECT_FALSE(is_over(play(s, default_rules(), "d2-e2")));
  EXPECT_FALSE(is_over(play(s, default_rules(), "d2-d1")));
  const State won = play(s, default_rules(), "d2-e1");
  EXPECT_TRUE(is_over(won));
  EXPECT_EQ(won.winner, 0);
  EXPECT_EQ(alive_of(won, 1), 0b000001) << "winning by the corner captures nothing";
}

TEST(Rules, PlayerOneWinsOnTopLeftCorner) {
  const State s = parse_position("5/1a3/5/3A1/5 1 1");
  EXPECT_EQ(move_set(s, default_rules()), (Set{"b4-a4", "b4-b5", "b4-a5"}));
  EXPECT_FALSE(is_over(play(s, default_rules(), "b4-a4")));
  EXPECT_FALSE(is_over(play(s, default_rules(), "b4-b5")));
  const State won = play(s, default_rules(), "b4-a5");
  EXPECT_EQ(won.winner, 1);
}

TEST(Rules, OpponentsOwnCornerIsNotAWin) {
  // Player 1 reaching e5 or a1 (not a5) does not win; player 0 on a1 does not either.
  const State s = parse_position("5/4a/5/5/1A3 1 1");
  EXPECT_FALSE(is_over(play(s, default_rules(), "e4-e5")));
  const State p0 = parse_position("5/3a1/5/A4/5 0 1");
  EXPECT_FALSE(is_over(play(p0, default_rules(), "a2-a1")));
}

TEST(Rules, PlayerZeroWinsByEliminatingLastCube) {
  const State s = parse_position("B4/5/2Aa1/5/5 0 1");
  const State won = play(s, default_rules(), "c3-d3");
  EXPECT_EQ(won.winner, 0);
  EXPECT_EQ(alive_of(won, 1), 0);
  EXPECT_EQ(won.occ[1], 0u);
  for (int c = 0; c < 6; ++c) EXPECT_EQ(square_of(won, 1, c), static_cast<int>(kGone));
}

TEST(Rules, PlayerOneWinsByEliminatingLastCube) {
  const State s = parse_position("5/5/1Aa2/5/4b 1 1");
  const State won = play(s, default_rules(), "c3-b3");
  EXPECT_EQ(won.winner, 1);
  EXPECT_EQ(alive_of(won, 0), 0);
}

TEST(Rules, CapturingNotTheLastCubeDoesNotWin) {
  const State s = parse_position("B4/5/2Aa1/5/4b 0 1");
  const State after = play(s, default_rules(), "c3-d3");
  EXPECT_FALSE(is_over(after));
  EXPECT_EQ(alive_of(after, 1), 0b000010);
  EXPECT_EQ(after.occ[1], 1u << sq("e1"));
}

TEST(Rules, CapturingOwnLastNeighbourNeverEndsTheGame) {
  // Player 0 takes its own cube; player 1 still has cubes and nobody reached a corner.
  const State s = parse_position("4a/2AB1/5/5/5 0 1");
  const State after = play(s, default_rules(), "c4-d4");
  EXPECT_FALSE(is_over(after));
  EXPECT_EQ(alive_of(after, 0), 0b000001);
}

TEST(Rules, CaptureLandingOnGoalCornerWins) {
  const State s = parse_position("4c/5/5/3A1/4b 0 1");
  const State won = play(s, default_rules(), "d2-e1");
  EXPECT_EQ(won.winner, 0);
  EXPECT_EQ(alive_of(won, 1), 0b000100) << "cube b was captured on e1, c remains";
  EXPECT_EQ(square_of(won, 0, 0), sq("e1"));

  const State p1 = parse_position("A4/1a3/5/5/3B1 1 1");
  const State won1 = play(p1, default_rules(), "b4-a5");
  EXPECT_EQ(won1.winner, 1);
  EXPECT_EQ(alive_of(won1, 0), 0b000010);
}

TEST(Rules, ApplyMovesTheCubeAndUpdatesEveryField) {
  const State s = parse_position("ABC2/DE3/F3f/3ed/2cba 0 5");
  const State after = play(s, default_rules(), "b4-c3");
  EXPECT_EQ(square_of(after, 0, 4), sq("c3"));
  EXPECT_EQ(after.occ[0], s.occ[0] ^ (1u << sq("b4")) ^ (1u << sq("c3")));
  EXPECT_EQ(after.occ[1], s.occ[1]);
  EXPECT_EQ(alive_of(after, 0), 63);
  EXPECT_EQ(alive_of(after, 1), 63);
  for (int c = 0; c < 6; ++c)
    if (c != 4) {
      EXPECT_EQ(square_of(after, 0, c), square_of(s, 0, c)) << c;
    }
}

// is_winning_move agrees with what apply() decides, on many random positions.
TEST(Rules, IsWinningMoveAgreesWithApply) {
  int wins = 0;
  for (uint32_t i = 0; i < 3000; ++i) {
    const Rules rules = test::rules_variant(static_cast<int>(i));
    const State s = test::random_midgame(11, i, rules, true);
    MoveList list;
    generate_moves(s, rules, list);
    for (int k = 0; k < list.size; ++k) {
      if (list.moves[k].is_pass()) continue;
      State t = s;
      apply(t, list.moves[k]);
      const bool won = t.winner == s.side;
      wins += won;
      EXPECT_EQ(is_winning_move(s, s.side, list.moves[k].to), won)
          << to_string(s) << " " << to_string(list.moves[k]);
    }
  }
  EXPECT_GT(wins, 50) << "the sample must contain winning moves";
}

// Random games under all four rule variants: every generated move follows the rules and every
// state after apply passes state_ok.
TEST(Rules, RandomGamesKeepInvariants) {
  int passes = 0;
  for (uint32_t g = 0; g < 4000; ++g) {
    const Rules rules = test::rules_variant(static_cast<int>(g));
    WordStream rng({99, g, 0, kLeafDice, 0});
    const Arrangement a0 = random_arrangement(rng), a1 = random_arrangement(rng);
    State s = initial_state(a0, a1, static_cast<int>(g & 1));
    ASSERT_TRUE(state_ok(s));
    for (int ply = 0; ply < 500 && !is_over(s); ++ply) {
      s.die = static_cast<uint8_t>(1 + rng.below(6));
      const int side = s.side;
      MoveList list;
      generate_moves(s, rules, list);
      ASSERT_GE(list.size, 1);
      ASSERT_LE(list.size, kMaxMoves);
      const uint32_t movers = ref_movable(alive_of(s, side), s.die, rules.substitution);
      int expected = 0;
      for (int c = 0; c < 6; ++c)
        if ((movers >> c) & 1u) {
          uint32_t t = ref_forward(side, square_of(s, side, c));
          if (!rules.capture_own) t &= ~s.occ[side];
          expected += count(t);
        }
      if (expected == 0) {
        ASSERT_EQ(list.size, 1);
        ASSERT_TRUE(list.moves[0].is_pass());
        ++passes;
      } else {
        ASSERT_EQ(list.size, expected) << to_string(s);
        int last_cube = -1, last_to = -1;
        for (int k = 0; k < list.size; ++k) {
          const Move m = list.moves[k];
          const int cube = cube_on(s, side, m.from);
          ASSERT_GE(cube, 0);
          EXPECT_TRUE((movers >> cube) & 1u);
          EXPECT_TRUE((ref_forward(side, m.from) >> m.to) & 1u);
          if (!rules.capture_own) {
            EXPECT_FALSE((s.occ[side] >> m.to) & 1u);
          }
          EXPECT_TRUE(cube > last_cube || (cube == last_cube && m.to > last_to))
              << "canonical order";
          last_cube = cube, last_to = m.to;
        }
      }
      const Move m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
      const State before = s;
      apply(s, m);
      ASSERT_TRUE(state_ok(s)) << to_string(before) << " " << to_string(m);
      ASSERT_EQ(s.side, side ^ 1);
      if (!m.is_pass()) {
        EXPECT_TRUE((s.occ[side] >> m.to) & 1u);
        EXPECT_FALSE((s.occ[side ^ 1] >> m.to) & 1u);
        EXPECT_FALSE((s.occ[side] >> m.from) & 1u);
        const int lost_own = count(alive_of(before, side)) - count(alive_of(s, side));
        const int lost_opp = count(alive_of(before, side ^ 1)) - count(alive_of(s, side ^ 1));
        EXPECT_EQ(lost_own, static_cast<int>((before.occ[side] >> m.to) & 1u));
        EXPECT_EQ(lost_opp, static_cast<int>((before.occ[side ^ 1] >> m.to) & 1u));
        const bool should_win = m.to == goal_square(side) || alive_of(s, side ^ 1) == 0;
        EXPECT_EQ(is_over(s), should_win);
        if (should_win) {
          EXPECT_EQ(s.winner, side);
        }
      }
    }
    EXPECT_TRUE(is_over(s)) << "game " << g << " did not end in 500 plies";
  }
  EXPECT_GT(passes, 0) << "games without own captures should sometimes pass";
}

TEST(Rules, StateOkRejectsCorruptStates) {
  const State good = parse_position("ABC2/DE3/F3f/3ed/2cba 0 1");
  ASSERT_TRUE(state_ok(good));
  State s = good;
  s.occ[0] ^= 1u << 12;  // an empty square marked occupied
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.alive =
      static_cast<uint16_t>(s.alive & ~(1u << 6));  // cube a marked dead but still on the board
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.squares = (s.squares & ~uint64_t{31}) | 1u;  // cube A moved onto cube B's square
  s.occ[0] &= ~1u;
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.occ[1] |= 1u;  // both sides on a5
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.side = 2;
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.die = 7;
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.winner = 3;
  EXPECT_FALSE(state_ok(s));
  s = good;
  s.squares = (s.squares & ~uint64_t{31}) | 25u;  // off the board but alive
  s.occ[0] &= ~1u;
  EXPECT_FALSE(state_ok(s));
}

TEST(Rules, InitialStateUsesStartSquares) {
  const State s = initial_state(Arrangement{}, Arrangement{}, 1);
  EXPECT_EQ(to_string(s), "ABC2/DE3/F3f/3ed/2cba 1 -");
  for (int slot = 0; slot < 6; ++slot) {
    // Player 0 starts on row + col <= 2, player 1 on row + col >= 6.
    const int a = start_square(0, slot), b = start_square(1, slot);
    EXPECT_LE(a / 5 + a % 5, 2);
    EXPECT_GE(b / 5 + b % 5, 6);
    EXPECT_EQ(a + b, 24) << "mirror image";
  }
}

// ---- bitboard primitives against coordinate references

TEST(Bitboards, ForwardStepsMatchCoordinateReference) {
  for (int side = 0; side < 2; ++side)
    for (int s = 0; s < 25; ++s)
      EXPECT_EQ(forward_steps(side, 1u << s), ref_forward(side, s))
          << "side " << side << " " << square_name(s);
}

TEST(Bitboards, ShiftsMatchCoordinateReference) {
  WordStream rng({5, 0, 0, 0, 0});
  for (int i = 0; i < 2000; ++i) {
    const uint32_t b = rng.next() & kBoard;
    EXPECT_EQ(shift_right(b), ref_shift(b, 0, 1)) << b;
    EXPECT_EQ(shift_left(b), ref_shift(b, 0, -1)) << b;
    EXPECT_EQ(shift_down(b), ref_shift(b, 1, 0)) << b;
    EXPECT_EQ(shift_up(b), ref_shift(b, -1, 0)) << b;
    for (int side = 0; side < 2; ++side) {
      uint32_t expected = 0;
      for (int s = 0; s < 25; ++s)
        if ((b >> s) & 1u) expected |= ref_forward(side, s);
      EXPECT_EQ(forward_steps(side, b), expected) << "side " << side << " board " << b;
    }
  }
}

TEST(Bitboards, DistanceToGoalMatchesShortestPath) {
  for (int side = 0; side < 2; ++side) {
    const auto d = ref_distances(side);
    for (int s = 0; s < 25; ++s)
      EXPECT_EQ(distance_to_goal(side, s), d[s]) << side << " " << square_name(s);
  }
}

TEST(Bitboards, CubeOnMatchesLinearScanOnRandomPackings) {
  WordStream rng({6, 0, 0, 0, 0});
  for (int i = 0; i < 20000; ++i) {
    // Twelve distinct squares (partial Fisher-Yates), a random subset of the cubes placed.
    int squares[25];
    for (int k = 0; k < 25; ++k) squares[k] = k;
    State st = empty_state();
    const uint32_t alive = rng.below(1u << 12);
    for (int f = 0; f < 12; ++f) {
      const int j = f + static_cast<int>(rng.below(static_cast<uint32_t>(25 - f)));
      std::swap(squares[f], squares[j]);
      if ((alive >> f) & 1u) place(st, f / 6, f % 6, squares[f]);
    }
    ASSERT_TRUE(state_ok(st));
    for (int q = 0; q < 25; ++q) {
      int field = -1;
      for (int side = 0; side < 2; ++side) {
        const int c = ref_cube_on(st, side, q);
        ASSERT_EQ(cube_on(st, side, q), c) << st.squares << " " << q;
        if (c >= 0) field = 6 * side + c;
      }
      ASSERT_EQ(field_on(st.squares, q), field < 0 ? uint64_t{0} : uint64_t{31} << (5 * field))
          << q;
      ASSERT_EQ(field_of_mask(field_on(st.squares, q)), field < 0 ? 12 : field);
    }
  }
}

TEST(Bitboards, RuleTablesMatchTheirReferences) {
  for (int side = 0; side < 2; ++side)
    for (int sq = 0; sq < 25; ++sq) {
      EXPECT_EQ(step_targets(side, sq), forward_steps(side, 1u << sq)) << side << " " << sq;
      EXPECT_EQ(step_targets(side, sq), ref_forward(side, sq)) << side << " " << sq;
      EXPECT_EQ(rule_tables().distance[side][sq], distance_to_goal(side, sq));
    }
  for (int sub = 0; sub < 2; ++sub)
    for (uint32_t alive = 0; alive < 64; ++alive)
      for (int die = 1; die <= 6; ++die)
        EXPECT_EQ(movable_cubes(alive, die, static_cast<Substitution>(sub)),
                  movable_cubes_reference(alive, die, static_cast<Substitution>(sub)));
}

TEST(Bitboards, CubeOnMatchesLinearScanInGames) {
  for (uint32_t i = 0; i < 500; ++i) {
    const State s = test::random_midgame(12, i, Rules{}, false);
    for (int side = 0; side < 2; ++side)
      for (int q = 0; q < 25; ++q) EXPECT_EQ(cube_on(s, side, q), ref_cube_on(s, side, q));
  }
}

TEST(Bitboards, BitPrimitives) {
  WordStream rng({7, 0, 0, 0, 0});
  for (int i = 0; i < 5000; ++i) {
    const uint32_t b = rng.next() | 1u << rng.below(32);  // non-zero
    int n = 0, lo = -1, hi = -1;
    for (int k = 0; k < 32; ++k)
      if ((b >> k) & 1u) {
        ++n;
        if (lo < 0) lo = k;
        hi = k;
      }
    EXPECT_EQ(count(b), n);
    EXPECT_EQ(lsb(b), lo);
    EXPECT_EQ(msb(b), hi);
    EXPECT_EQ(lowest_bit(b), 1u << lo);
    EXPECT_EQ(highest_bit(b), 1u << hi);
    const uint32_t other = rng.next();
    EXPECT_EQ(select(true, b, other), b);
    EXPECT_EQ(select(false, b, other), other);
    uint32_t c = b;
    int seen = 0;
    while (c) {
      const int bit = nth_set_bit(b, seen);
      EXPECT_EQ(pop_lsb(c), bit);
      EXPECT_TRUE((b >> bit) & 1u);
      ++seen;
    }
    EXPECT_EQ(seen, n);
  }
  EXPECT_EQ(lowest_bit(0), 0u);
  EXPECT_EQ(highest_bit(0), 0u);
}

}  // namespace
}  // namespace sp::ewn
