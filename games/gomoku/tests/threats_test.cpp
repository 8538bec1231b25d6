// Gomoku's threat search (games/gomoku/threats.hpp, victory by continuous fours): hand-made wins
// of 1, 3 and 5 plies, a four that the defender's block answers with a five threat, the standard
// rule's overline, soundness (every win it reports survives every defence, played out by the
// rules), agreement with a plain reference search over random dense positions, and alpha-beta with
// threat_nodes finding a long forced win that the plain search does not see.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "core/philox.hpp"
#include "core/stop.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/notation.hpp"
#include "games/gomoku/threats.hpp"
#include "host/engines/search/alphabeta.hpp"

namespace sp::gomoku {
namespace {

struct Stone {
  int x, y;
};

// The position with these stones, side to move as given (counters consistent with the stones).
State position(const std::vector<Stone>& black, const std::vector<Stone>& white, int side,
               WinRule rule = WinRule::kFreestyle, int size = 15) {
  State s = initial_state(Rules{static_cast<uint8_t>(size), rule});
  for (const Stone& b : black) set_square(s.stones[0], b.y * size + b.x);
  for (const Stone& w : white) set_square(s.stones[1], w.y * size + w.x);
  s.ply = static_cast<uint16_t>(black.size() + white.size());
  s.side = static_cast<uint8_t>(side);
  return s;
}

bool empty_at(const State& s, int sq) {
  return !test_square(s.stones[0], sq) && !test_square(s.stones[1], sq);
}

// Plays a reported win out against every defence: the attacker plays forced_win's move (a VCF, or
// with broad a VCT), the defender every empty square in turn. True when every line ends in the
// attacker's five within `plies` plies.
bool win_survives_every_defence(const State& s, int plies, bool broad = false) {
  if (plies < 1) return false;
  Move first{};
  const int found = forced_win(s, 1u << 20, plies, broad, &first);
  if (found < 1 || found > plies) return false;
  State after = s;
  apply(after, first);
  if (is_over(after)) return winner(after) == s.side;
  if (found < 3) return false;
  for (int sq = 0; sq < squares_of(after); ++sq) {
    if (!empty_at(after, sq)) continue;
    State defended = after;
    apply(defended, move_at(after.size, sq));
    if (is_over(defended)) return false;  // the defender made five, or filled the board
    if (!win_survives_every_defence(defended, plies - 2, broad)) return false;
  }
  return true;
}

// A plain VCF search: every empty square is tried as the attacker's four (placed, then every empty
// square checked for a five by makes_five), the defender must take the single winning square.
// Plies of the shortest win up to max_plies, else 0.
int reference_vcf(const State& s, int max_plies) {
  if (max_plies < 1) return 0;
  const int n = s.size, a = s.side, d = a ^ 1;
  const auto winning = [&](const State& t, int side) {
    std::vector<int> out;
    for (int sq = 0; sq < n * n; ++sq)
      if (empty_at(t, sq) && makes_five(t.stones[side], n, t.rule, sq % n, sq / n))
        out.push_back(sq);
    return out;
  };
  if (!winning(s, a).empty()) return 1;
  if (max_plies < 3) return 0;
  const std::vector<int> defender = winning(s, d);
  if (defender.size() >= 2) return 0;
  int best = 0;
  for (int sq = 0; sq < n * n; ++sq) {
    if (!empty_at(s, sq) || (defender.size() == 1 && sq != defender[0])) continue;
    State t = s;
    set_square(t.stones[a], sq);
    const std::vector<int> wins = winning(t, a);
    if (wins.empty()) continue;
    if (wins.size() >= 2) return 3;
    set_square(t.stones[d], wins[0]);
    const int deeper = reference_vcf(t, max_plies - 2);
    if (deeper > 0 && (best == 0 || deeper + 2 < best)) best = deeper + 2;
  }
  return best;
}

TEST(GomokuThreats, FindsAFiveAnOpenFourAndAFourThatLeadsToADoubleFour) {
  // Black four h8..k8 with l8 empty: five at once.
  Move m{};
  EXPECT_EQ(forced_win(position({{7, 7}, {8, 7}, {9, 7}, {10, 7}}, {{0, 0}, {0, 1}, {0, 2}}, 0),
                       1000, 64, false, &m),
            1);
  EXPECT_TRUE((m == Move{6, 7}) || (m == Move{11, 7}));

  // An open three h8 i8 j8 (g8, k8, f8, l8 empty): g8 or k8 makes an open four.
  const State three = position({{7, 7}, {8, 7}, {9, 7}}, {{0, 0}, {0, 1}}, 0);
  EXPECT_EQ(forced_win(three, 1000, 64, false, &m), 3);
  State after = three;
  apply(after, m);
  int wins[2];
  EXPECT_EQ(winning_squares_through(after, 0, m.x, m.y, wins), 2);
  EXPECT_EQ(forced_win(three, 1000, 2, false, &m), 0) << "a 3-ply win is longer than 2 plies";

  // Closed threes that need two fours: row 7 x=1..3 closed at x=0 by White, column 11 y=1..3
  // closed at y=0. Black's four on row 7 forces a block; the second four crosses it into a double.
  const State two_fours = position({{1, 7}, {2, 7}, {3, 7}, {5, 9}, {5, 10}, {5, 11}},
                                   {{0, 7}, {5, 12}, {14, 14}, {14, 13}, {14, 12}}, 0);
  const int plies = forced_win(two_fours, 100000, 64, false, &m);
  EXPECT_GE(plies, 3);
  EXPECT_TRUE(win_survives_every_defence(two_fours, plies));
}

TEST(GomokuThreats, NoWinWithoutFoursAndNoneAgainstTwoFiveThreats) {
  Move m{};
  // Scattered stones: no four can be made.
  EXPECT_EQ(
      forced_win(position({{1, 1}, {5, 9}, {11, 3}}, {{7, 7}, {3, 12}}, 1), 100000, 64, false, &m),
      0);
  // White (to move after Black's open four) cannot stop two winning squares, even with an open
  // three of its own: its fours are too slow.
  const State open_four =
      position({{5, 5}, {6, 5}, {7, 5}, {8, 5}}, {{2, 10}, {3, 10}, {4, 10}, {9, 9}}, 1);
  EXPECT_EQ(forced_win(open_four, 100000, 64, false, &m), 0);
}

TEST(GomokuThreats, TheAttackerMustAnswerAFourMadeByABlock) {
  // Black's four on row 5 (a6..d6 after d6, closed by the edge) leaves e6 (4, 5) to block. White's
  // block there completes White's four on column 4 (y = 2..5, closed by Black's e2), whose only
  // winning square is e7 (4, 6). Black must take it, and e7 completes Black's open four on the
  // diagonal c5 d6 e7 f8: five plies, and no shorter win.
  const State s = position({{0, 5}, {1, 5}, {2, 5}, {4, 1}, {2, 4}, {5, 7}},
                           {{4, 2}, {4, 3}, {4, 4}, {14, 0}, {12, 0}, {14, 2}}, 0);
  Move m{};
  EXPECT_EQ(forced_win(s, 100000, 3, false, &m), 0);
  EXPECT_EQ(forced_win(s, 100000, 64, false, &m), 5);
  EXPECT_EQ(m, (Move{3, 5}));
  EXPECT_EQ(reference_vcf(s, 5), 5);
  EXPECT_TRUE(win_survives_every_defence(s, 5));
  // With e7 taken by White, the forced answer is gone, and so is the win.
  const State blocked = position({{0, 5}, {1, 5}, {2, 5}, {4, 1}, {2, 4}, {5, 7}},
                                 {{4, 2}, {4, 3}, {4, 4}, {4, 6}, {12, 0}, {14, 2}}, 0);
  EXPECT_EQ(forced_win(blocked, 100000, 64, false, &m), reference_vcf(blocked, 9));
  // Without Black's e2 the block makes White an open four (e2 and e7): Black can stop only one,
  // so the four on row 5 wins nothing.
  const State open = position({{0, 5}, {1, 5}, {2, 5}, {10, 14}, {2, 4}, {5, 7}},
                              {{4, 2}, {4, 3}, {4, 4}, {14, 0}, {12, 0}, {14, 2}}, 0);
  EXPECT_EQ(forced_win(open, 100000, 64, false, &m), 0);
  EXPECT_EQ(reference_vcf(open, 9), 0);
}

TEST(GomokuThreats, AnOverlineIsNoThreatUnderTheStandardRule) {
  // Black b8 c8 d8 e8 and g8: f8 makes six. Freestyle: f8 wins; standard: it does not, and a8
  // makes exactly five.
  const std::vector<Stone> black = {{1, 7}, {2, 7}, {3, 7}, {4, 7}, {6, 7}};
  const std::vector<Stone> white = {{0, 0}, {0, 2}, {0, 4}, {0, 6}};
  Move m{};
  EXPECT_EQ(forced_win(position(black, white, 0, WinRule::kFreestyle), 1000, 64, false, &m), 1);
  EXPECT_TRUE((m == Move{5, 7}) || (m == Move{0, 7}));
  EXPECT_EQ(forced_win(position(black, white, 0, WinRule::kStandard), 1000, 64, false, &m), 1);
  EXPECT_EQ(m, (Move{0, 7}));
  // With a8 taken by White, standard has no five (f8 is an overline), freestyle still has f8.
  std::vector<Stone> white_a8 = white;
  white_a8.push_back({0, 7});
  EXPECT_EQ(forced_win(position(black, white_a8, 0, WinRule::kStandard), 1000, 64, false, &m), 0);
  EXPECT_EQ(forced_win(position(black, white_a8, 0, WinRule::kFreestyle), 1000, 64, false, &m), 1);
}

// Random dense positions in the centre: the threat search agrees with the plain reference on
// whether a win of at most 7 plies exists, and every win it reports, up to 15 plies, survives
// every defence.
TEST(GomokuThreats, AgreesWithAPlainSearchAndEveryWinIsForced) {
  for (const WinRule rule : {WinRule::kFreestyle, WinRule::kStandard}) {
    WordStream rng({2026, static_cast<uint32_t>(rule), 0, kLeafSetup, 0});
    int positions = 0, wins = 0, long_wins = 0;
    while (positions < 150) {
      State s = initial_state(Rules{15, rule});
      const int stones = 14 + static_cast<int>(rng.next() % 16);
      for (int i = 0; i < stones && !is_over(s); ++i) {
        const int x = 3 + static_cast<int>(rng.next() % 9);
        const int y = 3 + static_cast<int>(rng.next() % 9);
        if (empty_at(s, y * 15 + x))
          apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
      }
      if (is_over(s)) continue;
      ++positions;
      Move m{};
      const int found = forced_win(s, 1u << 20, 7, false, &m);
      const int reference = reference_vcf(s, 7);
      ASSERT_EQ(found > 0, reference > 0) << "position " << positions << ": " << to_string(s);
      if (found > 0) {
        ++wins;
        EXPECT_GE(found, reference) << "position " << positions << ": the reference finds the "
                                    << "shortest win";
      }
      const int deep = forced_win(s, 1u << 20, 15, false, &m);
      if (deep > 0) {
        long_wins += deep > 7;
        EXPECT_TRUE(win_survives_every_defence(s, deep)) << "position " << positions;
      }
    }
    std::printf("%s: %d of %d positions with a win of at most 7 plies, %d more of 9 to 15\n",
                rule == WinRule::kStandard ? "standard" : "freestyle", wins, positions, long_wins);
    EXPECT_GE(wins, 10) << "the positions must exercise the search";
    EXPECT_LE(wins, 140);
    EXPECT_GE(long_wins, 1);
  }
}

TEST(GomokuThreats, TheBroadSearchFindsADoubleThreeThatFoursAlonCannot) {
  // Black e8... : twos on row 7 (g8 h8) and column 8 (i6 i7); i8 (8, 7) makes two open threes at
  // once. No four can be made, so there is no VCF; the VCT wins in 5 plies.
  const std::vector<Stone> black = {{6, 7}, {7, 7}, {8, 5}, {8, 6}};
  const std::vector<Stone> white = {{0, 0}, {0, 14}, {14, 0}, {14, 14}};
  const State s = position(black, white, 0);
  Move m{};
  EXPECT_EQ(forced_win(s, 1u << 16, 64, false, &m), 0);
  const int plies = forced_win(s, 1u << 16, 64, true, &m);
  EXPECT_EQ(plies, 5);
  EXPECT_EQ(m, (Move{8, 7}));
  EXPECT_TRUE(win_survives_every_defence(s, plies, true));
  EXPECT_EQ(forced_win(s, 1u << 16, 4, true, &m), 0) << "5 plies do not fit in 4";
  // One two only: a three is blocked, nothing follows.
  EXPECT_EQ(forced_win(position({{6, 7}, {7, 7}}, {{0, 0}, {14, 14}}, 0), 1u << 16, 64, true, &m),
            0);
  // White to move first with a four to make against it: White's VCF comes first, so Black's
  // threes do not matter, and for White the search finds that win.
  std::vector<Stone> white_fours = {{0, 3}, {0, 4}, {0, 5}, {14, 14}};
  const State w = position(black, white_fours, 1);
  EXPECT_GT(forced_win(w, 1u << 16, 64, true, &m), 0);
}

// Random dense positions: every VCT the broad search reports survives every defence.
TEST(GomokuThreats, EveryBroadWinIsForced) {
  WordStream rng({2027, 0, 0, kLeafSetup, 0});
  int positions = 0, wins = 0, beyond_fours = 0;
  while (positions < 60) {
    State s = initial_state(Rules{15, WinRule::kFreestyle});
    const int stones = 8 + static_cast<int>(rng.next() % 10);
    for (int i = 0; i < stones && !is_over(s); ++i) {
      const int x = 4 + static_cast<int>(rng.next() % 7);
      const int y = 4 + static_cast<int>(rng.next() % 7);
      if (empty_at(s, y * 15 + x)) apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    }
    if (is_over(s)) continue;
    ++positions;
    Move m{};
    const int plies = forced_win(s, 1u << 14, 9, true, &m);
    if (plies == 0) continue;
    ++wins;
    beyond_fours += forced_win(s, 1u << 20, 9, false, &m) == 0;
    EXPECT_TRUE(win_survives_every_defence(s, plies, true)) << "position " << positions;
  }
  std::printf("%d of %d positions with a VCT of at most 9 plies, %d without a VCF\n", wins,
              positions, beyond_fours);
  EXPECT_GE(beyond_fours, 3) << "the positions must exercise the threes";
}

TEST(GomokuThreats, AlphaBetaWithThreatNodesSeesAWinBeyondItsDepth) {
  // The two closed threes of the first test: a win by fours that depth 2 cannot see.
  const State s = position({{1, 7}, {2, 7}, {3, 7}, {5, 9}, {5, 10}, {5, 11}},
                           {{0, 7}, {5, 12}, {14, 14}, {14, 13}, {14, 12}}, 0);
  const auto zero = [](const State&) { return 0; };
  search::AlphaBetaOptions plain;
  plain.depth = 2;
  search::AlphaBeta<GomokuGame> without(zero, Rules{}, plain);
  const auto a = without.search(s);
  EXPECT_FALSE(a.proven);
  search::AlphaBetaOptions threats = plain;
  threats.threat_nodes = 64;
  search::AlphaBeta<GomokuGame> with(zero, Rules{}, threats);
  const auto b = with.search(s);
  EXPECT_TRUE(b.proven);
  EXPECT_GT(b.value, 0);
  State after = s;
  apply(after, b.best);
  EXPECT_FALSE(is_over(after));
  EXPECT_TRUE(win_survives_every_defence(s, b.depth));
}

TEST(GomokuThreats, AlphaBetaWithThreatNodesStopsTheOpponentsWinAtTheHorizon) {
  // White to move against the same threat, with an evaluation that likes a White stone on a6
  // (0, 5), far from it: at depth 1 the plain search plays a6 and leaves Black's forced win; with
  // threat_nodes every White move is searched for Black's win at the horizon, and the move chosen
  // leaves none.
  const State s = position({{1, 7}, {2, 7}, {3, 7}, {5, 9}, {5, 10}, {5, 11}},
                           {{0, 7}, {5, 12}, {14, 14}, {14, 13}, {14, 12}}, 1);
  const auto likes_a6 = [](const State& t) {
    const int v = test_square(t.stones[1], 5 * 15 + 0) ? 100 : 0;
    return t.side == 1 ? v : -v;
  };
  search::AlphaBetaOptions plain;
  plain.depth = 1;
  search::AlphaBeta<GomokuGame> without(likes_a6, Rules{}, plain);
  const auto p = without.search(s);
  EXPECT_EQ(p.best, (Move{0, 5}));
  State a = s;
  apply(a, p.best);
  EXPECT_GT(forced_win(a, 1u << 20, 64, false, nullptr), 0);
  search::AlphaBetaOptions threats = plain;
  threats.threat_nodes = 1024;
  search::AlphaBeta<GomokuGame> with(likes_a6, Rules{}, threats);
  const auto r = with.search(s);
  EXPECT_FALSE(r.proven);
  State b = s;
  apply(b, r.best);
  EXPECT_EQ(forced_win(b, 1u << 20, 64, false, nullptr), 0) << to_string(r.best);
}

// ---- The clock: the threat searches stop when their StopCheck says so, and alpha-beta with a
// time limit polls it everywhere (an injected clock decides when time runs out).

// A StopCheck that says stop from its `after`-th question on, counting the questions.
struct CountingStop {
  int asked = 0, after = 1;
  StopCheck check() {
    return StopCheck{[](void* self) {
                       CountingStop& c = *static_cast<CountingStop*>(self);
                       return ++c.asked >= c.after;
                     },
                     this};
  }
};

// A crowded 15x15 middle game, White to move, where the broad search has much to try.
State crowded(uint64_t seed) {
  WordStream rng({seed, 0, 0, kLeafSetup, 0});
  for (;;) {
    State s = initial_state(Rules{15, WinRule::kFreestyle});
    for (int i = 0; i < 40 && !is_over(s); ++i) {
      const int x = 2 + static_cast<int>(rng.below(11)), y = 2 + static_cast<int>(rng.below(11));
      if (empty_at(s, y * 15 + x)) apply(s, Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
    }
    if (!is_over(s)) return s;
  }
}

// Crowded positions with much to search: no forced win for the side to move and at least 20
// candidate moves (no forced block).
std::vector<State> open_middle_games(int count) {
  std::vector<State> out;
  for (uint64_t seed = 3; static_cast<int>(out.size()) < count && seed < 400; ++seed) {
    const State s = crowded(seed);
    MoveList candidates;
    candidate_moves(s, candidates);
    if (candidates.size >= 20 && forced_win(s, 1u << 16, 64, true, nullptr) == 0) out.push_back(s);
  }
  return out;
}

TEST(GomokuThreats, TheSearchesStopWhenTheirStopCheckSays) {
  // A position whose broad search visits many nodes without one; then the same with a stop from
  // the first question: no win, and about one question's worth of nodes.
  State busy{};
  VcfSearch::Result full;
  for (uint64_t seed = 1; full.nodes < 20 * StopCheck::kStopEvery; ++seed) {
    ASSERT_LT(seed, 200u) << "no position that keeps the broad search busy";
    busy = crowded(seed);
    VctSearch vct;
    full = vct.solve(busy, 1u << 16, 64);
  }
  CountingStop stop;
  VctSearch vct;
  const VcfSearch::Result cut = vct.solve(busy, 1u << 16, 64, stop.check());
  EXPECT_TRUE(cut.stopped);
  EXPECT_TRUE(cut.exhausted);
  EXPECT_EQ(cut.plies, 0);
  EXPECT_GE(stop.asked, 1);
  EXPECT_LT(cut.nodes, 4 * StopCheck::kStopEvery) << "of " << full.nodes;
  // VCF alone: asked every kStopEvery positions, stopped at the first question.
  VcfSearch vcf;
  CountingStop never;
  never.after = 1 << 30;
  const VcfSearch::Result all = vcf.solve(busy, 1u << 20, 64, never.check());
  EXPECT_EQ(never.asked, static_cast<int>(all.nodes / StopCheck::kStopEvery));
  EXPECT_FALSE(all.stopped);
  // Without a StopCheck, and with one that never stops, the same answer (deterministic).
  VcfSearch again;
  const VcfSearch::Result plain = again.solve(busy, 1u << 20, 64);
  EXPECT_EQ(plain.plies, all.plies);
  EXPECT_EQ(plain.nodes, all.nodes);
}

// An injected clock: the start of a search reads t0; from the `expire_at`-th read on it reads an
// hour later. Counts its reads.
struct FakeClock {
  int reads = 0, expire_at = 2;
  search::Deadline::Clock::time_point t0{};
  search::Deadline::Now now() {
    return [this] {
      ++reads;
      return reads >= expire_at ? t0 + std::chrono::hours(1) : t0;
    };
  }
};

TEST(GomokuThreats, AlphaBetaOnTheClockStopsInsideTheThreatSearches) {
  const auto zero = [](const State&) { return 0; };
  search::AlphaBetaOptions o;
  o.time_ms = 100;
  o.threat_nodes = 1u << 12;  // a root search of 4M nodes, 128k per reply: seconds without a clock
  const std::vector<State> positions = open_middle_games(3);
  ASSERT_EQ(positions.size(), 3u);
  for (size_t seed = 0; seed < positions.size(); ++seed) {
    const State& s = positions[seed];
    MoveList candidates;
    candidate_moves(s, candidates);
    const auto is_candidate = [&](Move m) {
      for (int i = 0; i < candidates.size; ++i)
        if (candidates.moves[i] == m) return true;
      return false;
    };
    // Time runs out at the first question after the start: the root's threat search stops at
    // once and no iteration starts; the move is the first candidate in search order.
    FakeClock clock;
    search::AlphaBeta<GomokuGame> ab(zero, Rules{}, o);
    ab.set_clock(clock.now());
    const auto r = ab.search(s);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.depth, 0);
    EXPECT_LT(r.nodes, 64u);
    EXPECT_TRUE(is_candidate(r.best)) << to_string(r.best);
    EXPECT_LE(clock.reads, 4) << "reads after time ran out";
    // Later and later: the search always stops within a few reads of the clock, and always
    // returns a candidate (inside the root's replies, the first iteration or a later one).
    for (int expire : {3, 6, 12, 40, 200}) {
      FakeClock later;
      later.expire_at = expire;
      search::AlphaBeta<GomokuGame> b(zero, Rules{}, o);
      b.set_clock(later.now());
      const auto q = b.search(s);
      // Stopped inside an iteration, or between two (half the time spent), or proven.
      EXPECT_TRUE(q.stopped || q.depth > 0) << "seed " << seed << " expire " << expire;
      EXPECT_TRUE(is_candidate(q.best)) << to_string(q.best);
      EXPECT_LE(later.reads, expire + 3) << "seed " << seed << " expire " << expire;
      // The clock is read at least every 256 alpha-beta nodes (leaves included).
      EXPECT_LE(q.nodes, 256u * static_cast<uint64_t>(later.reads + 1))
          << "seed " << seed << " expire " << expire;
    }
  }
}

// Without threat searches only alpha-beta reads the clock: at least every 256 nodes, leaves
// included, however the leaves fall between the interior nodes.
TEST(GomokuThreats, AlphaBetaReadsTheClockEvery256Nodes) {
  const auto centre = [](const State& t) {  // any evaluation that keeps the search going
    const int v = test_square(t.stones[t.side], 7 * 15 + 7) ? 10 : 0;
    return v - static_cast<int>(t.ply % 3);
  };
  search::AlphaBetaOptions o;
  o.time_ms = 1000;
  const std::vector<State> positions = open_middle_games(2);
  ASSERT_EQ(positions.size(), 2u);
  for (size_t seed = 0; seed < positions.size(); ++seed) {
    const State& s = positions[seed];
    FakeClock clock;
    clock.expire_at = 60;
    search::AlphaBeta<GomokuGame> ab(centre, Rules{}, o);
    ab.set_clock(clock.now());
    const auto r = ab.search(s);
    EXPECT_GT(r.nodes, 5000u) << "seed " << seed;
    EXPECT_LE(r.nodes, 256u * static_cast<uint64_t>(clock.reads + 1)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace sp::gomoku
