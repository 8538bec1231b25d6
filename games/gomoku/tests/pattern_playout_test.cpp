// Pattern-weighted playouts (pattern_playout.hpp): the playout's line table against the search's,
// its classes and codes kept move by move against the search's pattern board and against a fresh
// start, its weights against exp(score / temperature), and its draws in proportion to them.
// (rules_test.cpp plays the playout on both representations and as the kernel runs it.)

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "core/philox.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/pattern_playout.hpp"
#include "games/gomoku/patterns.hpp"
#include "games/gomoku/playout.hpp"
#include "games/gomoku/playout_variants.hpp"

namespace sp::gomoku {
namespace {

namespace pd = pattern_playout_detail;

Rules rules_of(int size, WinRule rule) { return Rules{static_cast<uint8_t>(size), rule}; }

// Every line of the search's table (freestyle, five squares either way) has the class the
// playout's table (four either way) gives its inner eight squares: under freestyle the fifth square
// never matters.
TEST(GomokuPatternPlayout, TheLineTableIsTheSearchsUnderFreestyle) {
  const patterns::LineTable& search = patterns::line_table(WinRule::kFreestyle);
  int checked = 0, strong = 0;
  for (uint32_t i = 0; i < 59049; ++i) {
    uint32_t key = 0, rest = i, own = 0, blocked = 0;
    for (int f = 0; f < 2 * patterns::kReach; ++f, rest /= 3) {
      const uint32_t cell = rest % 3;
      key |= cell << (2 * f);
      // fields 0..4: offsets -5..-1, fields 5..9: offsets 1..5; the playout's bits 0..7: offsets
      // -4..-1 and 1..4, so fields 1..8 less one
      if (f == 0 || f == 9) continue;
      const int bit = f - 1;
      if (cell == patterns::kOwnCell) own |= 1u << bit;
      if (cell == patterns::kBlockedCell) blocked |= 1u << bit;
    }
    const uint32_t mine = pd::line_class(own, blocked);
    ASSERT_EQ(mine, static_cast<uint32_t>(search[key])) << "key " << key;
    ++checked;
    strong += mine >= patterns::kOpenThree;
  }
  EXPECT_EQ(checked, 59049);
  EXPECT_GT(strong, 1000);  // the table is not all "none"
}

// A random game of `plies` moves on the rules' board, played through a pattern state: after
// every move its classes, weights and totals equal those of a state started afresh from the
// position, and under freestyle its codes are those of the search's pattern board.
void check_incremental(Rules rules, uint32_t seed, uint32_t temperature) {
  WordStream rng({seed, 1, 0, 0, 0});
  State s = initial_state(rules);
  constexpr int N = 15;
  ASSERT_EQ(rules.size, N);
  constexpr int W = words_of(N);
  uint64_t empty[W];
  playout_detail::empty_squares(s, N, empty);
  playout_detail::LineRep<N> rep;
  rep.init(s);
  Policy policy;
  policy.kind = PolicyKind::kPattern;
  policy.temperature = temperature;
  pd::PatternState<N> ps;
  ps.init(s, rep, empty, policy);
  int compared_codes = 0, nonzero = 0;
  for (int ply = 0; ply < 120 && !is_over(s); ++ply) {
    // A square near the stones, as playouts play them.
    MoveList list;
    generate_moves(s, list);
    Move m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
    for (int tries = 0; tries < 20 && s.ply > 0; ++tries) {
      const int sq = m.y * N + m.x;
      if (playout_detail::test_at(ps.near2, sq)) break;
      m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
    }
    const int me = s.side;
    apply(s, m);
    playout_detail::clear_square(empty, m.y * N + m.x);
    rep.place(m.x, m.y);
    ps.place(rep, empty, me, m.x, m.y);
    rep.swap(empty);
    if (is_over(s)) break;

    playout_detail::LineRep<N> fresh_rep;
    fresh_rep.init(s);
    pd::PatternState<N> fresh;
    fresh.init(s, fresh_rep, empty, policy);
    ASSERT_EQ(ps.total[0], fresh.total[0]) << "ply " << ply;
    ASSERT_EQ(ps.total[1], fresh.total[1]) << "ply " << ply;
    for (int w = 0; w < W; ++w) {
      ASSERT_EQ(ps.near1[w], fresh.near1[w]);
      ASSERT_EQ(ps.near2[w], fresh.near2[w]);
    }
    const patterns::Board board(s);
    for (int q = 0; q < N * N; ++q) {
      if (!playout_detail::test_at(empty, q)) continue;
      ASSERT_EQ(ps.cls[q], fresh.cls[q]) << "ply " << ply << " square " << q;
      ASSERT_EQ(ps.weight[0][q], fresh.weight[0][q]);
      ASSERT_EQ(ps.weight[1][q], fresh.weight[1][q]);
      if (rules.rule != WinRule::kFreestyle) continue;
      for (int side = 0; side < 2; ++side) {
        const int code = pd::kTables.code[(ps.cls[q] >> (12 * side)) & 0xFFFu];
        ASSERT_EQ(code, board.code(side, patterns::Board::cell(q % N, q / N)))
            << "ply " << ply << " square " << q << " side " << side;
        ++compared_codes;
        nonzero += code != 0;
      }
    }
  }
  if (rules.rule == WinRule::kFreestyle) {
    EXPECT_GT(compared_codes, 1000);
    EXPECT_GT(nonzero, 100);
  }
}

TEST(GomokuPatternPlayout, ClassesKeptMoveByMoveAreAFreshStartsAndTheSearchsCodes) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    check_incremental(rules_of(15, WinRule::kFreestyle), seed, kDefaultTemperature);
    check_incremental(rules_of(15, WinRule::kStandard), seed + 100, 13 * kWeightOne + 5);
  }
}

// A score's factor is 2^16 exp(score / temperature) within the table's rounding, up to the cap;
// a square's weight is its distance weight times the factor of its score.
TEST(GomokuPatternPlayout, WeightsAreTheDistanceWeightTimesTheExponentialOfTheScore) {
  for (uint32_t t : {kWeightOne, 100 * kWeightOne, 933 * kWeightOne + 77}) {
    const uint64_t scale = pd::exponent_scale(t);
    EXPECT_EQ(pd::factor_of(0, scale), pd::kZeroScoreFactor);
    EXPECT_EQ(pd::factor_of(-50, scale), pd::kZeroScoreFactor);
    uint32_t last = 0;
    int capped = 0;
    for (int s = 0; s < 40000; s += 7) {
      const uint32_t f = pd::factor_of(s, scale);
      EXPECT_GE(f, last) << "score " << s;
      last = f;
      const double want = 65536.0 * std::exp(s / (t / 256.0));
      if (want < 65536.0 * 250) {
        EXPECT_NEAR(f, want, want * 0.005 + 1) << "score " << s;
      } else {
        ++capped;
      }
      EXPECT_LT(f, 1u << 24);
    }
    EXPECT_GT(capped, 0);
  }
  // Classes of an open three and a two for side 0, nothing for side 1: side 0 to move weighs the
  // attack entry of the code, side 1 the defend entry.
  const uint32_t cls = patterns::kOpenThree | (patterns::kTwo << 3);
  const int code = patterns::code_of(patterns::kOpenThree, patterns::kTwo, 0, 0);
  const uint64_t scale = pd::exponent_scale(200 * kWeightOne);
  const uint64_t adjacent = 16 * kWeightOne;
  uint32_t w0 = 0, w1 = 0;
  pd::weights_of(cls, 16 * kWeightOne, scale, w0, w1);
  EXPECT_EQ(w0, adjacent * pd::factor_of(kLadderMoveScores.attack[code], scale) >> 16);
  EXPECT_EQ(w1, adjacent * pd::factor_of(kLadderMoveScores.defend[code], scale) >> 16);
  EXPECT_GT(w0, w1);
  EXPECT_GT(w1, adjacent);
  // A very high temperature leaves the distance weights: the weighted playout's policy.
  pd::weights_of(cls, 4 * kWeightOne, pd::exponent_scale(kMaxTemperature), w0, w1);
  EXPECT_NEAR(w0, 4 * kWeightOne, 4 * kWeightOne / 50);
}

// A draw lands on square q exactly for the numbers from the weights of the empty squares before q
// (board order) to those plus q's weight.
TEST(GomokuPatternPlayout, DrawsFallOnSquaresInProportionToTheirWeights) {
  State s = initial_state(rules_of(15, WinRule::kFreestyle));
  for (const Move m : {Move{7, 7}, Move{8, 8}, Move{7, 8}, Move{6, 6}, Move{7, 9}}) apply(s, m);
  constexpr int N = 15, W = words_of(N);
  uint64_t empty[W];
  playout_detail::empty_squares(s, N, empty);
  playout_detail::LineRep<N> rep;
  rep.init(s);
  Policy policy;
  policy.kind = PolicyKind::kPattern;
  policy.temperature = 50 * kWeightOne;
  pd::PatternState<N> ps;
  ps.init(s, rep, empty, policy);
  int near = 0;
  for (int w = 0; w < W; ++w) near += count64(ps.near2[w] & empty[w]);
  EXPECT_EQ(near, 44);  // the union of the 5x5 squares around the stones, less the 5 stones
  for (int me = 0; me < 2; ++me) {
    uint32_t before = 0;
    int squares = 0;
    std::set<uint32_t> weights;
    for (int q = 0; q < N * N; ++q) {
      if (!playout_detail::test_at(empty, q)) continue;
      const uint32_t w = ps.weight[me][q];
      ASSERT_EQ(ps.draw(me, before, empty), q);
      ASSERT_EQ(ps.draw(me, before + w - 1, empty), q);
      weights.insert(w);
      before += w;
      ++squares;
    }
    EXPECT_EQ(before, ps.total[me]);
    EXPECT_EQ(squares, 15 * 15 - 5);
    EXPECT_GT(weights.size(), 6u);  // the weights differ beyond the three distance classes
  }
  // White (to move) weighs the square that makes an open four for Black (the stones on the
  // column x = 7 rows 7..9: (7, 6) and (7, 10) make four) above a quiet square as near.
  const int four = 6 * N + 7, quiet = 5 * N + 5;
  EXPECT_GT(ps.weight[1][four], 4 * ps.weight[1][quiet]);
  EXPECT_EQ(ps.weight[1][0], kWeightOne);  // a far corner: distance weight 1, no pattern
}

// Pattern playouts are reproducible, differ from weighted ones and end in wins as often.
TEST(GomokuPatternPlayout, PlayoutsAreReproducibleAndEndInWins) {
  Policy pattern;
  pattern.kind = PolicyKind::kPattern;
  State s = initial_state(rules_of(15, WinRule::kFreestyle));
  apply(s, Move{7, 7});
  int wins = 0, shorter = 0;
  uint64_t plies = 0;
  for (uint32_t r = 0; r < 400; ++r) {
    BlockStream a({7, 1, 0, 0, r}), b({7, 1, 0, 0, r});
    const PlayoutResult x = playout(s, pattern, a), y = playout(s, pattern, b);
    ASSERT_EQ(x.winner, y.winner);
    ASSERT_EQ(x.plies, y.plies);
    wins += x.winner != kNoWinner;
    plies += x.plies;
    shorter += x.plies < 60;
  }
  EXPECT_GT(wins, 390);
  EXPECT_GT(shorter, 200);  // tactical playouts end early: most within 60 plies
  EXPECT_LT(plies, 400u * 80);
}

// The pattern playouts' signature: the plies and winners of a fixed workload (both board sizes,
// both rules, three temperatures, positions of every stage), pinned so that a change to what the
// playouts play is seen (as `selfplay bench` pins the uniform and weighted ones).
TEST(GomokuPatternPlayout, SignatureIsPinned) {
  WordStream rng({2026, 12, 7, 0, 0});
  uint64_t signature = 0;
  for (uint32_t i = 0; i < 300; ++i) {
    const int size = i % 3 == 0 ? 20 : 15;
    State s = initial_state(rules_of(size, i % 2 ? WinRule::kStandard : WinRule::kFreestyle));
    const uint32_t stones = rng.below(40);
    for (uint32_t k = 0; k < stones; ++k) {
      MoveList list;
      generate_moves(s, list);
      State t = s;
      apply(t, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
      if (is_over(t)) break;
      s = t;
    }
    Policy p;
    p.kind = PolicyKind::kPattern;
    p.temperature = (i % 3 == 0 ? 30 : i % 3 == 1 ? 100 : 1000) * kWeightOne;
    BlockStream stream({99, i, 0, 0, 0});
    const PlayoutResult r = playout(s, p, stream);
    signature += r.plies * 3 + r.winner;
  }
  EXPECT_EQ(signature, 21409u);
}

}  // namespace
}  // namespace sp::gomoku
