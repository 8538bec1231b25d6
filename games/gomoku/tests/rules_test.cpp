// Gomoku rules (games/gomoku): winning rows in all four directions and against the edges, exactly
// five against six or more under both rules, the bitboards against a plain array implementation
// over random games (every move, the winner and the legal moves), the two stone representations of
// playouts (the CPU's line words, the GPU's bitboard walks) against each other, the weighted
// policy's wins and blocks, and the search helpers (candidate moves, tactical moves).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/playout.hpp"
#include "games/gomoku/playout_variants.hpp"
#include "games/gomoku/tactics.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/bench.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "host/engines/search/mcts.hpp"

namespace sp::gomoku {
namespace {

Rules rules_of(int size, WinRule rule) { return Rules{static_cast<uint8_t>(size), rule}; }

// A plain array implementation of the rules: cells, walks in both ways along each line.
struct ArrayBoard {
  int n;
  WinRule rule;
  std::vector<int> cell;  // -1 empty, else the side
  int side = 0, winner = kNoWinner, stones = 0;

  ArrayBoard(int size, WinRule r) : n(size), rule(r), cell(size * size, -1) {}
  bool over() const { return winner != kNoWinner || stones == n * n; }
  int run(int x, int y, int dx, int dy, int who) const {
    int k = 0;
    for (x += dx, y += dy; x >= 0 && x < n && y >= 0 && y < n && cell[y * n + x] == who;
         x += dx, y += dy)
      ++k;
    return k;
  }
  void play(int x, int y) {
    cell[y * n + x] = side;
    ++stones;
    const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (const auto& d : dirs) {
      const int len = 1 + run(x, y, d[0], d[1], side) + run(x, y, -d[0], -d[1], side);
      if (rule == WinRule::kStandard ? len == 5 : len >= 5) winner = side;
    }
    side ^= 1;
  }
};

// Plays the squares (x, y) in order from the empty board; Black plays the even ones.
State play(const Rules& rules, const std::vector<std::pair<int, int>>& squares) {
  State s = initial_state(rules);
  for (const auto& [x, y] : squares) {
    EXPECT_FALSE(is_over(s)) << to_string(s);
    apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    EXPECT_TRUE(state_ok(s)) << to_string(s);
  }
  return s;
}

// Black's five squares from (x0, y0) in direction d, completed by the stone at index `last`
// (0..4); White answers far away on row `away`. Returns the position after Black's fifth stone.
State five_in_a_row(const Rules& rules, int x0, int y0, int d, int last, int away) {
  std::vector<std::pair<int, int>> order;
  int white = 0;
  for (int i = 0; i < 5; ++i) {
    if (i == last) continue;
    order.push_back({x0 + i * direction_dx(d), y0 + i * direction_dy(d)});
    order.push_back({2 * white++, away});
  }
  order.push_back({x0 + last * direction_dx(d), y0 + last * direction_dy(d)});
  return play(rules, order);
}

TEST(GomokuRules, FiveInAllFourDirectionsAndAgainstTheEdges) {
  for (int size : {15, 20})
    for (WinRule rule : {WinRule::kFreestyle, WinRule::kStandard}) {
      const Rules r = rules_of(size, rule);
      const int e = size - 5;  // last start square of a row along an edge
      // Starts (x, y, direction): for east, south, south-east and north-east in turn, rows along
      // the edges, into the corners, and in the middle.
      const std::vector<std::array<int, 3>> rows = {
          {0, 0, 0},        {e, 0, 0}, {e, size - 1, 0}, {3, 7, 0}, {0, 0, 1},
          {size - 1, e, 1}, {6, 4, 1}, {0, 0, 2},        {e, e, 2}, {0, e, 2},
          {e, 0, 2},        {4, 5, 2}, {0, size - 1, 3}, {e, 4, 3}, {0, 4, 3},
          {e, size - 1, 3}, {5, 9, 3}};
      for (const auto& [x0, y0, d] : rows)
        for (int last = 0; last < 5; ++last) {
          // White's stones go on a row the five does not touch.
          int away = 0;
          for (int i = 0; i < 5; ++i)
            if (y0 + i * direction_dy(d) == away) away = size - 1 - (away == size - 1 ? 1 : 0);
          for (int i = 0; i < 5; ++i)
            if (y0 + i * direction_dy(d) == away) away = size / 2;
          const State s = five_in_a_row(r, x0, y0, d, last, away);
          EXPECT_TRUE(is_over(s)) << to_string(s);
          EXPECT_EQ(winner(s), 0) << to_string(s);
          EXPECT_EQ(s.side, 1);
        }
    }
}

TEST(GomokuRules, FourIsNoWinAndTheEdgeEndsARow) {
  // Four in a row against the left edge, and four wrapping from the end of one row to the next
  // (squares 11..14 of row 0 and 0 of row 1 are consecutive bits, not a row).
  const State s = play(Rules{}, {{0, 0}, {0, 5}, {1, 0}, {2, 5}, {2, 0}, {4, 5}, {3, 0}, {6, 5}});
  EXPECT_FALSE(is_over(s));
  const State wrap =
      play(Rules{}, {{11, 0}, {0, 5}, {12, 0}, {2, 5}, {13, 0}, {4, 5}, {14, 0}, {6, 5}, {0, 1}});
  EXPECT_FALSE(is_over(wrap)) << to_string(wrap);
  const State diagonal_wrap =
      play(Rules{}, {{12, 0}, {0, 9}, {13, 1}, {2, 9}, {14, 2}, {4, 9}, {0, 4}, {6, 9}, {1, 5}});
  EXPECT_FALSE(is_over(diagonal_wrap)) << to_string(diagonal_wrap);
}

TEST(GomokuRules, ExactlyFiveAgainstOverlines) {
  // Black: a b c d _ f on row 1, then e fills the gap: six in a row.
  const std::vector<std::pair<int, int>> six = {{0, 0}, {0, 5}, {1, 0}, {2, 5}, {2, 0}, {4, 5},
                                                {3, 0}, {6, 5}, {5, 0}, {8, 5}, {4, 0}};
  const State free = play(Rules{15, WinRule::kFreestyle}, six);
  EXPECT_TRUE(is_over(free));
  EXPECT_EQ(winner(free), 0);
  const State standard = play(Rules{15, WinRule::kStandard}, six);
  EXPECT_FALSE(is_over(standard)) << "six in a row is no win under the standard rule";
  // Under the standard rule the overline stays no win, but exactly five in another line through
  // the same stone wins.
  const State five_and_six = play(Rules{15, WinRule::kStandard}, {{0, 0},
                                                                  {0, 8},
                                                                  {1, 0},
                                                                  {2, 8},
                                                                  {2, 0},
                                                                  {4, 8},
                                                                  {3, 0},
                                                                  {6, 8},
                                                                  {5, 0},
                                                                  {8, 8},
                                                                  {4, 1},
                                                                  {10, 8},
                                                                  {4, 2},
                                                                  {12, 8},
                                                                  {4, 3},
                                                                  {14, 8},
                                                                  {4, 4},
                                                                  {1, 10},
                                                                  {4, 0}});
  EXPECT_TRUE(is_over(five_and_six)) << to_string(five_and_six);
  EXPECT_EQ(winner(five_and_six), 0);
  // Five stones with a sixth of the other side next to them: exactly five either way.
  const State blocked =
      play(Rules{15, WinRule::kStandard},
           {{0, 3}, {5, 3}, {1, 3}, {2, 8}, {2, 3}, {4, 8}, {3, 3}, {6, 8}, {4, 3}});
  EXPECT_TRUE(is_over(blocked));
  EXPECT_EQ(winner(blocked), 0);
  // The six stones of the freestyle game read under each rule.
  EXPECT_FALSE(makes_five(free.stones[0], 15, WinRule::kStandard, 4, 0));
  EXPECT_TRUE(makes_five(free.stones[0], 15, WinRule::kFreestyle, 4, 0));
}

TEST(GomokuRules, AFullBoardIsADraw) {
  // Black on the squares with (x + 2y) mod 4 in {0, 1}: runs of two along rows, diagonals and
  // anti-diagonals, alternating colours down columns, so no line ever holds three alike; 113 of
  // the 225 squares of 15x15 (Black moves first and last), 200 of 400 on 20x20.
  for (int size : {15, 20}) {
    State s = initial_state(rules_of(size, WinRule::kFreestyle));
    std::vector<Move> stones[2];
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        stones[(x + 2 * y) % 4 < 2 ? 0 : 1].push_back(
            Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    ASSERT_EQ(stones[0].size(), stones[1].size() + (size % 2));
    for (int i = 0; i < size * size; ++i) {
      ASSERT_FALSE(is_over(s)) << to_string(s);
      apply(s, stones[i % 2][i / 2]);
      ASSERT_TRUE(state_ok(s)) << to_string(s);
    }
    EXPECT_TRUE(is_over(s)) << to_string(s);
    EXPECT_EQ(winner(s), kNoWinner);
    EXPECT_EQ(s.ply, size * size);
    // And from its last position the playouts draw at once.
    State before = parse_position(to_string(s));
    EXPECT_EQ(std::memcmp(&before, &s, sizeof s), 0);
    BlockStream rng({1, 2, 3, 4, 5});
    const PlayoutResult r = playout(s, Policy{}, rng);
    EXPECT_EQ(r.winner, kNoWinner);
    EXPECT_EQ(r.plies, 0);
  }
}

TEST(GomokuRules, BitboardsAgreeWithAnArrayImplementationOverRandomGames) {
  int decided = 0, games = 0;
  for (int size : {15, 20})
    for (WinRule rule : {WinRule::kFreestyle, WinRule::kStandard})
      for (uint32_t game = 0; game < 150; ++game, ++games) {
        WordStream rng({77, game, static_cast<uint32_t>(size), static_cast<uint32_t>(rule), 0});
        State s = initial_state(rules_of(size, rule));
        ArrayBoard ref(size, rule);
        while (!is_over(s)) {
          ASSERT_FALSE(ref.over());
          MoveList list;
          generate_moves(s, list);
          // The legal moves are the reference's empty squares, in row-major order.
          std::vector<int> want;
          for (int sq = 0; sq < size * size; ++sq)
            if (ref.cell[sq] < 0) want.push_back(sq);
          ASSERT_EQ(list.size, static_cast<int>(want.size()));
          for (int k = 0; k < list.size; ++k)
            ASSERT_EQ(list.moves[k].y * size + list.moves[k].x, want[k]);
          // Mostly near the last stones, so that rows form; sometimes anywhere.
          const Move m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
          apply(s, m);
          ref.play(m.x, m.y);
          ASSERT_TRUE(state_ok(s)) << to_string(s);
          ASSERT_EQ(s.winner, ref.winner) << to_string(s);
          ASSERT_EQ(s.side, ref.side);
          ASSERT_EQ(is_over(s), ref.over());
        }
        decided += s.winner != kNoWinner;
      }
  EXPECT_GT(decided, games / 2);
}

// Random positions of random games on both sizes and rules (not over).
std::vector<State> random_positions(uint64_t seed, int count) {
  std::vector<State> out;
  for (uint32_t i = 0; static_cast<int>(out.size()) < count; ++i) {
    WordStream rng({seed, i, 0, kLeafSetup, 0});
    const int size = rng.below(2) ? 20 : 15;
    const WinRule rule = rng.below(2) ? WinRule::kStandard : WinRule::kFreestyle;
    State s = initial_state(rules_of(size, rule));
    const int plies = static_cast<int>(rng.below(static_cast<uint32_t>(size * size)));
    for (int p = 0; p < plies; ++p) {
      MoveList list;
      generate_moves(s, list);
      State t = s;
      apply(t, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
      if (is_over(t)) break;
      s = t;
    }
    out.push_back(s);
  }
  return out;
}

template <int N, template <int> class Rep>
PlayoutResult run_playout(const State& s, const Policy& p, BlockStream& rng) {
  if (p.kind == PolicyKind::kPattern) return pattern_playout<N, Rep<N>>(s, p, rng);
  return p.kind == PolicyKind::kWeighted ? weighted_playout<N, Rep<N>>(s, p, rng)
                                         : uniform_playout<N, Rep<N>>(s, rng);
}

template <template <int> class Rep>
PlayoutResult playout_with(const State& s, const Policy& p, BlockStream& rng) {
  return s.size == 20 ? run_playout<20, Rep>(s, p, rng) : run_playout<15, Rep>(s, p, rng);
}

// Uniform, weighted, weighted with odd and with zero weights, and pattern at two temperatures
// (one odd): what the playout comparisons run on.
std::vector<Policy> compared_policies() {
  Policy weighted;
  weighted.kind = PolicyKind::kWeighted;
  Policy odd = weighted;
  odd.adjacent_weight = 0;
  odd.near_weight = 3 * kWeightOne + 17;
  Policy zero = weighted;
  zero.adjacent_weight = zero.near_weight = 0;
  Policy pattern;
  pattern.kind = PolicyKind::kPattern;
  Policy hot = pattern;
  hot.temperature = 37 * kWeightOne + 91;
  return {Policy{}, weighted, odd, zero, pattern, hot};
}

TEST(GomokuRules, LineWordsAndBitboardWalksPlayTheSamePlayouts) {
  const std::vector<Policy> policies = compared_policies();
  int index = 0;
  for (const State& s : random_positions(5, 300)) {
    for (const Policy& p : policies) {
      const StreamId id{9, static_cast<uint32_t>(index++), 0, 0, 0};
      BlockStream a(id), b(id);
      const PlayoutResult lines = playout_with<playout_detail::LineRep>(s, p, a);
      const PlayoutResult walks = playout_with<playout_detail::BitRep>(s, p, b);
      ASSERT_EQ(lines.winner, walks.winner) << to_string(s);
      ASSERT_EQ(lines.plies, walks.plies) << to_string(s);
    }
  }
}

template <int V>
PlayoutResult kernel_playout_of(const State& s, const Policy& p, BlockStream& rng) {
  return kernel_playout<V>(s, p, rng);
}

// The kernels' playouts (playout_variants.hpp: BitRep for uniform and pattern, CompactBoards for
// weighted) play exactly the CPU's playouts, on every variant, rule and weight setting, from
// positions of all stages (threats of both sides included) and from positions that are over.
TEST(GomokuRules, KernelPlayoutsEqualTheCpuPlayouts) {
  const std::vector<Policy> policies = compared_policies();
  int variants[kPlayoutVariants] = {}, index = 0, wins = 0;
  for (const State& s : random_positions(7, 400)) {
    for (const Policy& p : policies) {
      for (uint32_t r = 0; r < 3; ++r) {
        const StreamId id{21, static_cast<uint32_t>(index++), 4, 5, r};
        BlockStream a(id), b(id);
        const PlayoutResult cpu = playout(s, p, a);
        const int v = playout_variant(s, p);
        ++variants[v];
        const PlayoutResult kernel = v == 0   ? kernel_playout_of<0>(s, p, b)
                                     : v == 1 ? kernel_playout_of<1>(s, p, b)
                                     : v == 2 ? kernel_playout_of<2>(s, p, b)
                                     : v == 3 ? kernel_playout_of<3>(s, p, b)
                                     : v == 4 ? kernel_playout_of<4>(s, p, b)
                                              : kernel_playout_of<5>(s, p, b);
        ASSERT_EQ(cpu.winner, kernel.winner) << to_string(s) << " variant " << v;
        ASSERT_EQ(cpu.plies, kernel.plies) << to_string(s) << " variant " << v;
        wins += cpu.winner != kNoWinner;
      }
    }
  }
  for (int v = 0; v < kPlayoutVariants; ++v) EXPECT_GT(variants[v], 500) << "variant " << v;
  EXPECT_GT(wins, index / 2);
  // A state that is over: its winner, no plies.
  State over = initial_state();
  for (uint8_t x = 0; x < 5; ++x) {
    apply(over, Move{x, 0});
    if (!is_over(over)) apply(over, Move{x, 1});
  }
  ASSERT_TRUE(is_over(over));
  BlockStream rng({1, 2, 3, 4, 5});
  const PlayoutResult done = kernel_playout_of<1>(over, policies[1], rng);
  EXPECT_EQ(done.winner, 0);
  EXPECT_EQ(done.plies, 0);
}

template <int N>
void compare_windows(const State& s) {
  playout_detail::LineRep<N> lines;
  playout_detail::BitRep<N> bits;
  lines.init(s);
  bits.init(s);
  uint64_t empty[words_of(N)];
  playout_detail::empty_squares(s, N, empty);
  for (int turn = 0; turn < 2; ++turn) {
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        for (int d = 0; d < kDirections; ++d) {
          const playout_detail::Window a = lines.window(d, x, y, empty);
          const playout_detail::Window b = bits.window(d, x, y, empty);
          ASSERT_EQ(a.own, b.own) << to_string(s) << " " << square_name(x, y) << " d" << d;
          ASSERT_EQ(a.empty, b.empty) << to_string(s) << " " << square_name(x, y) << " d" << d;
        }
    lines.swap(empty);
    bits.swap(empty);
  }
}

TEST(GomokuRules, BothRepresentationsReadTheSameWindows) {
  for (const State& s : random_positions(6, 60)) {
    if (s.size == 20)
      compare_windows<20>(s);
    else
      compare_windows<15>(s);
  }
}

TEST(GomokuRules, NthSetBitByHalvesMatchesTheBitScan) {
  WordStream rng({3, 1, 4, 1, 5});
  for (int i = 0; i < 20000; ++i) {
    uint64_t b = (uint64_t{rng.next()} << 32) | rng.next();
    if (i % 3 == 0) b &= (uint64_t{rng.next()} << 32) | rng.next();  // sparser words
    if (b == 0) continue;
    const int n = static_cast<int>(rng.below(static_cast<uint32_t>(count64(b))));
    uint64_t c = b;
    for (int k = 0; k < n; ++k) c &= c - 1;
    EXPECT_EQ(nth_set_bit64_by_halves(b, n), lsb64(c)) << std::hex << b << " " << std::dec << n;
    EXPECT_EQ(nth_set_bit64(b, n), lsb64(c));
  }
}

// The winning squares of side in s, by trying every empty square.
std::set<int> winning_squares_slow(const State& s, int side) {
  std::set<int> out;
  MoveList list;
  generate_moves(s, list);
  for (int k = 0; k < list.size; ++k)
    if (makes_five(s.stones[side], s.size, s.rule, list.moves[k].x, list.moves[k].y))
      out.insert(list.moves[k].y * s.size + list.moves[k].x);
  return out;
}

TEST(GomokuRules, WeightedPlayoutsTakeWinsAndBlockFours) {
  Policy weighted;
  weighted.kind = PolicyKind::kWeighted;
  int wins = 0, blocks = 0;
  for (const State& s : random_positions(8, 3000)) {
    const std::set<int> mine = winning_squares_slow(s, s.side);
    const std::set<int> theirs = winning_squares_slow(s, s.side ^ 1);
    if (mine.empty() && theirs.size() != 1) continue;
    for (uint32_t r = 0; r < 4; ++r) {
      BlockStream rng({4, static_cast<uint32_t>(wins + blocks), 0, 0, r});
      const PlayoutResult res = playout(s, weighted, rng);
      if (!mine.empty()) {
        EXPECT_EQ(res.plies, 1) << to_string(s);
        EXPECT_EQ(res.winner, s.side) << to_string(s);
      } else {
        // The one square where the opponent would win is taken: it cannot win on the next ply.
        EXPECT_FALSE(res.plies == 2 && res.winner == (s.side ^ 1)) << to_string(s);
      }
    }
    (mine.empty() ? blocks : wins) += 1;
  }
  EXPECT_GT(wins, 20);
  EXPECT_GT(blocks, 20);
  // Uniform playouts do let such wins pass: the property above is the policy's.
}

TEST(GomokuRules, CandidateMovesAndTacticalMoves) {
  EXPECT_EQ(to_string([] {
              MoveList l;
              candidate_moves(initial_state(), l);
              EXPECT_EQ(l.size, 1);
              return l.moves[0];
            }()),
            "h8");
  for (const State& s : random_positions(12, 400)) {
    MoveList cand, legal;
    candidate_moves(s, cand);
    generate_moves(s, legal);
    ASSERT_GE(cand.size, 1) << to_string(s);
    std::set<int> legal_set;
    for (int k = 0; k < legal.size; ++k)
      legal_set.insert(legal.moves[k].y * s.size + legal.moves[k].x);
    std::set<int> cand_set;
    for (int k = 0; k < cand.size; ++k) cand_set.insert(cand.moves[k].y * s.size + cand.moves[k].x);
    for (int sq : cand_set) EXPECT_TRUE(legal_set.count(sq)) << to_string(s);
    const std::set<int> mine = winning_squares_slow(s, s.side);
    const std::set<int> theirs = winning_squares_slow(s, s.side ^ 1);
    if (!mine.empty()) {
      EXPECT_EQ(cand_set, mine) << to_string(s);
    } else if (!theirs.empty()) {
      EXPECT_EQ(cand_set, theirs) << to_string(s);
    } else if (s.ply > 0) {
      // Every empty square within two squares of a stone, and only those.
      for (int sq : legal_set) {
        bool near = false;
        for (int side = 0; side < 2; ++side)
          for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
              const int x = sq % s.size + dx, y = sq / s.size + dy;
              near =
                  near || (on_board(s.size, x, y) && test_square(s.stones[side], y * s.size + x));
            }
        EXPECT_EQ(cand_set.count(sq) == 1, near) << to_string(s) << " " << sq;
      }
    }
    // Winning squares are tactical for both sides.
    for (int sq : mine) EXPECT_TRUE(is_tactical(s, move_at(s.size, sq))) << to_string(s);
    for (int sq : theirs) EXPECT_TRUE(is_tactical(s, move_at(s.size, sq))) << to_string(s);
  }
  // A square next to a lone stone is no threat; the end of an open three of either side is.
  State s = play_moves(initial_state(), "h8a1i8a2j8");
  EXPECT_TRUE(is_tactical(s, Move{10, 7}));  // White blocks Black's three (k8)
  EXPECT_TRUE(is_tactical(s, Move{6, 7}));   // g8
  EXPECT_FALSE(is_tactical(s, Move{7, 9}));  // h10
  s = play_moves(initial_state(), "h8i9");
  EXPECT_FALSE(is_tactical(s, Move{8, 7}));
}

// The window features of s by name (own_x: the side to move's), those that are not 0 (the
// pattern features, own_to_x, are tested in gomoku_patterns_test.cpp).
std::map<std::string, float> features_of(const State& s) {
  EXPECT_TRUE(state_ok(s)) << to_string(s);
  float f[kNumFeatures];
  extract_features(s, f);
  std::map<std::string, float> out;
  for (int k = 0; k < kFirstPatternFeature; ++k)
    if (f[k] != 0) out[std::string(kFeatureNames[k])] = f[k];
  return out;
}

// Black to move with the pattern `row` on row 8 of 15x15 (x Black, o White, . empty, from column
// a); White's other stones on squares no window of five shares (a1, o1, a15, o15, h1, h15) until
// both sides have as many.
State row8(const std::string& row, WinRule rule = WinRule::kFreestyle) {
  State s = initial_state(Rules{15, rule});
  int stones[2] = {0, 0};
  for (size_t x = 0; x < row.size(); ++x)
    if (row[x] != '.') {
      const int side = row[x] == 'x' ? 0 : 1;
      set_square(s.stones[side], 7 * 15 + static_cast<int>(x));
      ++stones[side];
    }
  const int apart[][2] = {{0, 0}, {14, 0}, {0, 14}, {14, 14}, {7, 0}, {7, 14}};
  for (int i = 0; stones[1] < stones[0]; ++i, ++stones[1])
    set_square(s.stones[1], apart[i][1] * 15 + apart[i][0]);
  s.ply = static_cast<uint16_t>(stones[0] + stones[1]);
  return s;
}

TEST(GomokuRules, FeaturesCountThreatPatterns) {
  using F = std::map<std::string, float>;
  EXPECT_EQ(features_of(row8("...xxxx")), (F{{"own_open_four", 1}}));
  EXPECT_EQ(features_of(row8("xxxx")), (F{{"own_four", 1}}));
  EXPECT_EQ(features_of(row8("...xx.xx")), (F{{"own_four", 1}}));
  EXPECT_EQ(features_of(row8("....xxx")), (F{{"own_open_three", 1}}));
  EXPECT_EQ(features_of(row8("...oxxx")), (F{{"own_three", 1}}));
  EXPECT_EQ(features_of(row8(".......x.x")), (F{{"own_two", 1}}));
  // X X X X _ X: two fours under freestyle; under the standard rule every window that holds four of
  // them would make six, so nothing counts.
  EXPECT_EQ(features_of(row8("xxxx.x.o")), (F{{"own_four", 2}}));
  EXPECT_EQ(features_of(row8("xxxx.x.o", WinRule::kStandard)), F{});
  // The opponent's patterns, from the side to move's view: White to move.
  const State s = play_moves(initial_state(), "d8a1e8o1f8a15");
  float f[kNumFeatures];
  extract_features(s, f);
  EXPECT_EQ(f[6], 1) << "own_open_three: Black's d8-f8 with Black to move";
  EXPECT_EQ(f[7], 0);
  const State t = play_moves(initial_state(), "d8a1e8o1f8a15g8");
  extract_features(t, f);
  EXPECT_EQ(f[3], 1) << "opp_open_four: Black's d8-g8 with White to move";
  EXPECT_EQ(f[2], 0);
}

// Alpha-beta through the candidate_moves hook: a win in one, the block of a four, and the win an
// open three forces (an open four next, then five whatever the opponent blocks), proven at depth 3
// where a search of every legal move would need some ten million nodes.
TEST(GomokuRules, AlphaBetaFindsWinsAndBlocksThroughTheCandidateMoves) {
  search::AlphaBetaOptions options;
  options.depth = 3;
  options.tt_size_mb = 1;
  search::AlphaBeta<GomokuGame> search([](const State&) { return 0; }, Rules{}, options);
  using Search = search::AlphaBeta<GomokuGame>;

  const State four = play_moves(initial_state(), "d8a1e8o1f8a15g8o15");  // Black: d8-g8
  auto st = search.search(four);
  EXPECT_GE(st.value, Search::kWin - 1) << to_string(st.best);
  EXPECT_TRUE(st.best == (Move{2, 7}) || st.best == (Move{7, 7})) << to_string(st.best);

  const State block = play_moves(initial_state(), "d8a1e8o1f8a15g8");  // White to move
  search.clear();
  st = search.search(block);
  EXPECT_LE(st.value, -(Search::kWin - 2)) << "an open four cannot be stopped";
  EXPECT_TRUE(st.best == (Move{2, 7}) || st.best == (Move{7, 7})) << to_string(st.best);

  const State three = play_moves(initial_state(), "d8a1e8o1f8a15");  // Black to move
  search.clear();
  st = search.search(three);
  EXPECT_EQ(st.value, Search::kWin - 3) << to_string(st.best);
  EXPECT_TRUE(st.proven);
  EXPECT_LT(st.nodes, 5000u);
}

// Every node of the tree, reached from `s` by child indices (children in candidate_moves order):
// an expanded node has exactly the candidate moves of its state as children. Counts the expanded
// nodes in *expanded.
void expect_candidate_children(const search::Mcts<GomokuGame>& tree, std::vector<int>& path,
                               const State& s, int* expanded) {
  const auto n = tree.node_stats(path);
  if (n.children == 0) return;
  ++*expanded;
  MoveList cand, legal;
  candidate_moves(s, cand);
  generate_moves(s, legal);
  ASSERT_EQ(n.children, cand.size) << "after " << path.size() << " plies: " << to_string(s) << " ("
                                   << legal.size << " legal moves)";
  for (int c = 0; c < n.children; ++c) {
    State child = s;
    apply(child, cand.moves[c]);
    path.push_back(c);
    expect_candidate_children(tree, path, child, expanded);
    path.pop_back();
  }
}

// MCTS takes the candidate_moves hook as alpha-beta does: with four stones near the centre its
// root has the 40 or so squares within two of them as children, not the 221 empty squares, and so
// has every node it expands below (there: the block when a side threatens five).
TEST(GomokuRules, MctsExpandsOnlyTheCandidateMoves) {
  const State root = play_moves(initial_state(), "h8i9g7h9");
  search::MctsParams p;
  p.rollouts_per_move = 4000;
  p.rollouts_per_leaf = 4;
  search::Mcts<GomokuGame> tree(p, Rules{});
  tree.begin(root, search::SearchIds{0, 4, 7});
  rollout::PlayoutParams<GomokuGame> params;
  params.seed = 7;
  std::vector<rollout::Leaf<GomokuGame>> leaves;
  std::vector<rollout::LeafStats> stats;
  WorkPool pool(1);
  while (!tree.finished()) {
    leaves.clear();
    tree.select_leaves(leaves);
    stats.assign(leaves.size(), rollout::LeafStats{});
    rollout::run_rollouts_cpu<GomokuGame>(leaves, params, stats, pool);
    tree.backup(stats);
  }
  MoveList cand;
  candidate_moves(root, cand);
  EXPECT_EQ(tree.root_children(), cand.size);
  EXPECT_LT(cand.size, 60);
  std::vector<int> path;
  int expanded = 0;
  expect_candidate_children(tree, path, root, &expanded);
  EXPECT_GT(expanded, 10) << "the search went below the root";
  const Move best = tree.best_move();
  EXPECT_TRUE(std::find(cand.moves, cand.moves + cand.size, best) != cand.moves + cand.size);
}

// The playout signature of `selfplay bench --game gomoku` (4096 empty 15x15 boards x 16 uniform
// playouts, fixed seed: their total plies), pinned: a change to the rules, the playouts or the
// generator changes it.
TEST(GomokuRules, PlayoutSignatureIsPinned) {
  rollout::BackendOptions options;
  options.threads = 2;
  options.max_leaves = rollout::kSignatureLeaves;
  options.max_rollouts = rollout::kSignatureLeaves * rollout::kSignatureRollouts;
  auto backend = rollout::make_backend<GomokuGame>("cpu", options);
  const rollout::Totals t = rollout::run_signature<GomokuGame>(
      *backend, [](uint64_t, uint32_t) { return initial_state(); });
  EXPECT_EQ(t.plies, 7150806u);
  EXPECT_EQ(t.rollouts, uint64_t{rollout::kSignatureLeaves} * rollout::kSignatureRollouts);
}

}  // namespace
}  // namespace sp::gomoku
