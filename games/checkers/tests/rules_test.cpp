// English checkers rules (games/checkers): the shifts against the slow (row, file) reference, the
// move-list bound against a brute force, one small position per rule, perft from the start
// (depths 1-9; 10-12 in checkers_perft_slow_test) and the depth-7 divide of
// ../shared/reference/checkers.md, the list-free k-th move of playouts against generate_moves, the
// weighted policy against a reference from the move list, and the evaluation features.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/features.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/perft.hpp"
#include "games/checkers/playout.hpp"
#include "games/checkers/tests/random_position.hpp"

namespace sp::checkers {
namespace {

std::vector<std::string> move_texts(const State& s) {
  MoveList list;
  generate_moves(s, list);
  std::vector<std::string> out;
  for (int k = 0; k < list.size; ++k) out.push_back(to_string(list.moves[k]));
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

State random_position(uint32_t seed, int plies) { return random_play(77, seed, plies); }

TEST(CheckersGeometry, PdnSquaresLieWhereTheReferenceSaysTheyDo) {
  // Square 1 = b8, 4 = h8, 29 = a1, 32 = g1 (file a = 0, rank 8 = row 0).
  EXPECT_EQ(square_at(0, 1), 0);
  EXPECT_EQ(square_at(0, 7), 3);
  EXPECT_EQ(square_at(7, 0), 28);
  EXPECT_EQ(square_at(7, 6), 31);
  for (int sq = 0; sq < kSquares; ++sq) EXPECT_EQ(square_at(row_of(sq), file_of(sq)), sq);
}

TEST(CheckersGeometry, ShiftsEqualTheReferenceStepOnEverySquare) {
  for (int d = 0; d < kDirections; ++d) {
    uint32_t can_step = 0;
    for (int sq = 0; sq < kSquares; ++sq) {
      const int to = reference_step(sq, d);
      EXPECT_EQ(shift(1u << sq, d), to < 0 ? 0u : 1u << to) << "square " << sq + 1 << " dir " << d;
      if (to >= 0) can_step |= 1u << sq;
      if (to >= 0) {
        EXPECT_EQ(reference_step(to, opposite(d)), sq);
      }
    }
    // Shifting a whole board is shifting each square.
    EXPECT_EQ(shift(0xFFFFFFFFu, d), [&] {
      uint32_t b = 0;
      for (int sq = 0; sq < kSquares; ++sq)
        if (reference_step(sq, d) >= 0) b |= 1u << reference_step(sq, d);
      return b;
    }());
    // The two shift amounts of a direction split the squares that can step that way.
    const uint32_t masks[kDirections][2] = {{kSouthWest4, kSouthWest3},
                                            {kSouthEast5, kSouthEast4},
                                            {kNorthEast3, kNorthEast4},
                                            {kNorthWest4, kNorthWest5}};
    EXPECT_EQ(masks[d][0] & masks[d][1], 0u);
    EXPECT_EQ(masks[d][0] | masks[d][1], can_step);
  }
  EXPECT_EQ(crown_row(0), (1u << 28) | (1u << 29) | (1u << 30) | (1u << 31));
  EXPECT_EQ(back_row(0), 0xFu);
}

// The bound behind kMaxMoves, by brute force: the landing squares of one piece's jumps and the
// jumps between them, every subset of those jumps present (a jump needs an enemy piece in the
// middle and an empty landing square), the complete paths of a king counted. A man jumps forward
// only, two rows a jump: at most three jumps and 2^3 paths, within the same bound.
TEST(CheckersGeometry, OnePieceHasAtMostSixteenJumpPathsOfAtMostNineJumps) {
  int most_paths = 0, longest = 0;
  for (int start = 0; start < kSquares; ++start) {
    // The lattice of squares reachable from start by jumps, and its jumps (a, d).
    std::vector<std::pair<int, int>> jumps;
    std::set<int> lattice{start};
    for (bool grew = true; grew;) {
      grew = false;
      for (int a : std::set<int>(lattice))
        for (int d = 0; d < kDirections; ++d) {
          const int over = reference_step(a, d);
          const int land = over < 0 ? -1 : reference_step(over, d);
          if (land >= 0 && lattice.insert(land).second) grew = true;
        }
    }
    for (int a : lattice)
      for (int d = 0; d < kDirections; ++d) {
        const int over = reference_step(a, d);
        if (over >= 0 && reference_step(over, d) >= 0 && d < 2) jumps.push_back({a, d});
      }
    ASSERT_LE(jumps.size(), 9u);
    for (uint32_t present = 0; present < (1u << jumps.size()); ++present) {
      // A jump is usable both ways; paths use each jump (each middle piece) at most once.
      int paths = 0;
      const auto walk = [&](auto&& self, int at, uint32_t used, int depth) -> void {
        bool extended = false;
        for (size_t j = 0; j < jumps.size(); ++j) {
          if (!((present >> j) & 1u) || ((used >> j) & 1u)) continue;
          const auto [a, d] = jumps[j];
          const int b = reference_step(reference_step(a, d), d);
          if (at != a && at != b) continue;
          extended = true;
          self(self, at == a ? b : a, used | (1u << j), depth + 1);
        }
        if (!extended && depth > 0) ++paths, longest = std::max(longest, depth);
      };
      walk(walk, start, 0, 0);
      most_paths = std::max(most_paths, paths);
    }
  }
  EXPECT_EQ(most_paths, kMaxPathsPerPiece);
  EXPECT_EQ(longest, kMaxJumps);
  EXPECT_GE(kMaxMoves, kPiecesPerSide * most_paths);
  EXPECT_GE(kMaxMoves, kPiecesPerSide * 4);  // plain steps: four per king at most
}

TEST(CheckersRules, TheStartHasSevenMovesForBlack) {
  const State s = initial_state();
  EXPECT_TRUE(state_ok(s));
  EXPECT_EQ(sorted(move_texts(s)), (std::vector<std::string>{"10-14", "10-15", "11-15", "11-16",
                                                             "12-16", "9-13", "9-14"}));
  EXPECT_EQ(to_string(s), "B:W21-32:B1-12");
}

TEST(CheckersRules, CapturesAreCompulsoryAndMenCaptureForwardOnly) {
  // Black man 14 can take 18 (landing on 23); black man 9 could step, but must not.
  State s = parse_position("B:W18:B9,14");
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"14x23"}));
  // A white man behind a black man (south of it) cannot be taken by that man...
  s = parse_position("B:W18:B23");
  EXPECT_EQ(sorted(move_texts(s)), (std::vector<std::string>{"23-26", "23-27"}));
  // ...but a black king takes it.
  s = parse_position("B:W18:BK23");
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"23x14"}));
}

TEST(CheckersRules, EveryBranchOfAMultiJumpIsItsOwnMove) {
  // 1x10, then on to 17 over 14 or to 19 over 15: two moves, neither stopping at 10.
  const State s = parse_position("B:W6,14,15:B1");
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"1x10x17", "1x10x19"}));
  State t = s;
  apply(t, parse_move(s, "1x17"));
  EXPECT_EQ(fen(t), "W:W15:B17");
  EXPECT_EQ(t.quiet, 0);
  EXPECT_TRUE(state_ok(t));
}

TEST(CheckersRules, AKingLoopBackToItsSquareCountsOncePerDirection) {
  // A black king on 7 around the white men 10, 11, 18, 19: clockwise and anticlockwise.
  const State s = parse_position("B:W10,11,18,19:BK7");
  EXPECT_EQ(sorted(move_texts(s)), (std::vector<std::string>{"7x14x23x16x7", "7x16x23x14x7"}));
  MoveList list;
  generate_moves(s, list);
  ASSERT_EQ(list.size, 2);
  const MoveEffect a = effect_of(list.moves[0]), b = effect_of(list.moves[1]);
  EXPECT_EQ(a.from, 1u << 6);
  EXPECT_EQ(a.to, a.from);
  EXPECT_EQ(a.captured, b.captured);
  EXPECT_EQ(count(a.captured), 4);
  State t = s;
  apply(t, list.moves[0]);
  EXPECT_TRUE(state_ok(t));
  EXPECT_EQ(fen(t), "W:W:BK7");
  EXPECT_TRUE(is_over(t));
  EXPECT_EQ(winner(t), 0);
  // The short form fits both paths, and so does one with 23, which both pass; 16 before 23 picks
  // the clockwise one.
  EXPECT_THROW(parse_move(s, "7x7"), InputError);
  EXPECT_THROW(parse_move(s, "7x23x7"), InputError);
  const Move clockwise = parse_move(s, "7x16x23x14x7");
  EXPECT_EQ(to_string(clockwise), "7x16x23x14x7");
  EXPECT_TRUE(parse_move(s, "7x16x23x7") == clockwise);
  EXPECT_TRUE(parse_move(s, "7-16-23-7") == clockwise) << "dashes for a capture";
}

TEST(CheckersRules, CrowningEndsTheMoveEvenInTheMiddleOfACapture) {
  // 22x31 crowns; the new king could take 27 next, but the move ends on the crown row.
  const State s = parse_position("B:W26,27:B22");
  EXPECT_EQ(move_texts(s), (std::vector<std::string>{"22x31"}));
  State t = s;
  apply(t, parse_move(s, "22x31"));
  EXPECT_EQ(fen(t), "W:W27:BK31");
  // A king already crowned jumps on through the crown row.
  const State k = parse_position("B:W26,27:BK22");
  EXPECT_EQ(move_texts(k), (std::vector<std::string>{"22x31x24"}));
  // A plain step onto the crown row crowns too.
  State m = parse_position("B:W5:B27");
  apply(m, parse_move(m, "27-32"));
  EXPECT_EQ(fen(m), "W:W5:BK32");
}

TEST(CheckersRules, ASideWithoutAMoveLoses) {
  const State blocked = parse_position("B:W32:B28");  // 28's only step, 32, is taken
  EXPECT_TRUE(move_texts(blocked).empty());
  EXPECT_FALSE(has_move(blocked));
  EXPECT_TRUE(is_over(blocked));
  EXPECT_EQ(winner(blocked), 1);
  const State none = parse_position("W:W:B1");
  EXPECT_TRUE(is_over(none));
  EXPECT_EQ(winner(none), 0);
  BlockStream rng({1, 2, 3, 4, 5});
  const PlayoutResult r = playout(blocked, Policy{}, rng);
  EXPECT_EQ(r.winner, 1);
  EXPECT_EQ(r.plies, 0);
  EXPECT_EQ(rng.blocks_drawn(), 0u) << "a finished game draws no random word";
}

TEST(CheckersRules, TheDrawRulesEndTheGame) {
  // Kings only: every move is quiet.
  State s = parse_position("B:WK32:BK1 quiet=0/4");
  for (int p = 0; p < 4; ++p) {
    EXPECT_FALSE(is_over(s)) << p;
    MoveList list;
    generate_moves(s, list);
    apply(s, list.moves[0]);
    EXPECT_TRUE(state_ok(s));
  }
  EXPECT_EQ(s.quiet, 4);
  EXPECT_TRUE(is_over(s));
  EXPECT_EQ(winner(s), kNoWinner);
  // A man's move resets the count.
  State m = parse_position("B:WK32:B1,K5 quiet=3/4");
  apply(m, parse_move(m, "1-6"));
  EXPECT_EQ(m.quiet, 0);
  // The game-length limit, whatever the moves.
  State p = parse_position("B:W29:B1 ply=9/10");
  EXPECT_FALSE(is_over(p));
  apply(p, parse_move(p, "1-6"));
  EXPECT_EQ(p.ply, 10);
  EXPECT_TRUE(is_over(p));
  EXPECT_EQ(winner(p), kNoWinner);
  // Losing by having no move comes first.
  const State lost = parse_position("B:W32:B28 ply=10/10");
  EXPECT_EQ(winner(lost), 1);
}

TEST(CheckersPerft, MatchesTheReferenceToDepthNine) {
  const uint64_t want[] = {1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680};
  const State s = initial_state();
  for (int depth = 0; depth <= 9; ++depth)
    EXPECT_EQ(perft(s, Rules{}, depth), want[depth]) << depth;
}

TEST(CheckersPerft, DivideAtDepthSevenMatchesTheReference) {
  const std::map<std::string, uint64_t> want = {
      {"9-13", 31825},  {"9-14", 19933},  {"10-14", 20647}, {"10-15", 22848},
      {"11-15", 20633}, {"11-16", 33918}, {"12-16", 29936}};
  std::map<std::string, uint64_t> got;
  for (const auto& [m, n] : perft_divide(initial_state(), Rules{}, 7)) got[to_string(m)] = n;
  EXPECT_EQ(got, want);
}

// The list-free choice of playouts (the k-th move by counting) plays exactly moves[k] of
// generate_moves, on every k of positions from many random games, captures included.
TEST(CheckersPlayout, TheKthMoveWithoutAListIsTheKthMoveOfTheList) {
  int captures = 0, multi = 0;
  for (uint32_t g = 0; g < 300; ++g) {
    const State s = random_position(g, static_cast<int>(g % 90));
    if (!has_move(s)) continue;
    MoveList list;
    generate_moves(s, list);
    const uint32_t jump = all_jumpers(s);
    const playout_detail::Steps st =
        jump ? playout_detail::Steps{} : playout_detail::step_boards(s);
    ASSERT_EQ(jump ? playout_detail::count_captures(s, jump) : st.total,
              static_cast<uint32_t>(list.size));
    ASSERT_EQ(count_moves(s), list.size);
    captures += jump != 0;
    for (int k = 0; k < list.size; ++k) {
      multi += move_jumps(list.moves[k]) > 1;
      State want = s, got = s;
      apply(want, list.moves[k]);
      if (jump)
        playout_detail::play_capture(got, jump, static_cast<uint32_t>(k));
      else
        playout_detail::play_step(got, st, static_cast<uint32_t>(k));
      ASSERT_EQ(fen(got), fen(want)) << to_string(s) << " move " << k;
      ASSERT_TRUE(state_ok(got));
    }
  }
  EXPECT_GT(captures, 20);
  EXPECT_GT(multi, 0);
}

// Host code's table-driven effect (game.hpp) is the shifts' effect on every move.
TEST(CheckersRules, TheTableEffectIsTheShiftEffectOfEveryMove) {
  int moves = 0, jumps = 0;
  for (uint32_t g = 0; g < 400; ++g) {
    const State s = random_position(g, static_cast<int>(g % 120));
    MoveList list;
    generate_moves(s, list);
    for (int k = 0; k < list.size; ++k) {
      const MoveEffect a = effect_of(list.moves[k]), b = effect_by_table(list.moves[k]);
      ASSERT_EQ(a.from, b.from) << to_string(s) << " " << to_string(list.moves[k]);
      ASSERT_EQ(a.to, b.to) << to_string(s) << " " << to_string(list.moves[k]);
      ASSERT_EQ(a.captured, b.captured) << to_string(s) << " " << to_string(list.moves[k]);
      State x = s, y = s;
      apply(x, list.moves[k]);
      CheckersGame::apply(y, list.moves[k]);
      ASSERT_EQ(std::memcmp(&x, &y, sizeof(State)), 0);
      ++moves;
      jumps += move_jumps(list.moves[k]) > 1;
    }
  }
  EXPECT_GT(moves, 1000);
  EXPECT_GT(jumps, 0);
}

// The weight of a move as the Policy comment defines it, from the move alone.
uint32_t reference_weight(const State& s, Move m, const Policy& p) {
  const MoveEffect e = effect_of(m);
  const bool man = (s.pieces[s.side] & ~s.kings & e.from) != 0;
  const bool crowns = man && (e.to & crown_row(s.side));
  double w = 1.0;
  if (move_jumps(m) == 0 && man) w *= p.advance_weight / 256.0;
  for (int i = 1; i < move_jumps(m); ++i) w *= p.capture_weight / 256.0;
  if (crowns) w *= p.crown_weight / 256.0;
  return static_cast<uint32_t>(w * 256.0);
}

TEST(CheckersPlayout, TheWeightedPolicyPicksByTheReferenceWeights) {
  Policy p;
  p.kind = PolicyKind::kWeighted;
  p.advance_weight = 3 * kWeightOne;
  p.crown_weight = 5 * kWeightOne;
  p.capture_weight = 2 * kWeightOne + 128;
  std::map<std::string, int> picks;
  for (uint32_t g = 0; g < 400; ++g) {
    const State s = random_position(1000 + g, static_cast<int>(g % 100));
    if (!has_move(s)) continue;
    MoveList list;
    generate_moves(s, list);
    std::vector<uint32_t> w(list.size);
    uint32_t total = 0;
    for (int k = 0; k < list.size; ++k) total += w[k] = reference_weight(s, list.moves[k], p);
    const uint32_t jump = all_jumpers(s);
    const playout_detail::Steps st =
        jump ? playout_detail::Steps{} : playout_detail::step_boards(s);
    WordStream words({5, g, 0, 0, 0});
    for (int trial = 0; trial < 8; ++trial) {
      const uint32_t word = words.next();
      uint32_t r = bounded(word, total);
      int k = 0;
      while (r >= w[k]) r -= w[k++];
      State want = s, got = s;
      apply(want, list.moves[k]);
      playout_detail::play(got, p, jump, st, word);
      ASSERT_EQ(fen(got), fen(want)) << to_string(s) << " word " << word;
    }
  }
}

TEST(CheckersFeatures, TheStartPositionAndACapture) {
  float f[kNumFeatures];
  extract_features(initial_state(), f);
  // Men, kings, centre (10, 11 for Black; 22, 23 for White), back row, mobility, tempo (rows 1
  // and 2 ahead: 4 + 8), nothing else.
  const float want[kRequiredFeatures] = {12, 12, 0, 0, 2, 2, 4, 4, 7, 7, 12, 12};
  for (int i = 0; i < kRequiredFeatures; ++i) EXPECT_EQ(f[i], want[i]) << kFeatureNames[i];
  // White to move (king 18, man 32 on its back row) against Black's men 14 (centre) and 1 (back
  // row): each side has one move, a capture (18x9 for White, 14x23 for Black).
  extract_features(parse_position("W:WK18,32:B14,1"), f);
  // Tempo: White's man on its back row 0, Black's 3 + 0; the king on 18 has three empty
  // neighbours (22, 23, 15); no man has an empty forward cone.
  const float want2[kRequiredFeatures] = {1, 2, 1, 0, 1, 1, 1, 1, 1, 1, 0, 3, 0, 0, 3};
  for (int i = 0; i < kRequiredFeatures; ++i) EXPECT_EQ(f[i], want2[i]) << kFeatureNames[i];
  // Black to move with its king on 29 behind White's men 25 and 22: the king has no step and no
  // capture (trapped); White's man 22 has nothing in its forward cone (a runaway), and White, a
  // piece ahead with 21 pieces off the board, scores its lead trades (1 x 21).
  extract_features(parse_position("B:W25,22:BK29"), f);
  const float want3[kRequiredFeatures] = {0, 2, 1, 0, 0, 1, 0, 0, 0,  3, 0,
                                          3, 0, 1, 0, 0, 1, 0, 0, 21, 0, 0};
  for (int i = 0; i < kRequiredFeatures; ++i) EXPECT_EQ(f[i], want3[i]) << kFeatureNames[i];
  // White to move, its man on 5 one step from crowning with an empty cone (runaway, tempo 6),
  // against Black's kings 28 and 32, a piece ahead: one step each (24, 27), and the king on 32 is
  // 6 steps from the man, the one on 28 7 (king chase 1).
  extract_features(parse_position("W:W5:BK28,K32"), f);
  const float want4[kRequiredFeatures] = {1, 0, 0, 2, 0, 0, 0, 0, 1,  2, 6,
                                          0, 1, 0, 0, 2, 0, 0, 0, 21, 0, 1};
  for (int i = 0; i < kRequiredFeatures; ++i) EXPECT_EQ(f[i], want4[i]) << kFeatureNames[i];
}

}  // namespace
}  // namespace sp::checkers
