// Alpha-beta (host/engines/search/alphabeta.hpp) on tic-tac-toe: the value of every search equals a
// brute-force negamax at the same depth, and the move chosen achieves it, with the table, PVS and
// move ordering each on and off, with and without the game's search hooks; full-depth searches
// solve every position even with a table kept across searches; as an engine it never loses to
// random moves and draws against itself. Quiescence (the is_quiet hook) equals a brute force that
// searches past the horizon until a quiet position, on tic-tac-toe and on checkers' captures.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "tests/engine_loop.hpp"
#include "tests/games/tictactoe/game.hpp"

namespace sp::search {
namespace {

// Tic-tac-toe without the optional search hooks (hash, tactical moves, move index): the search
// falls back to hashing the state's bytes and orders without them.
struct PlainTicTacToe {
  static constexpr const char* kName = "tictactoe-plain";
  using State = TicTacToe::State;
  using Move = TicTacToe::Move;
  using MoveList = TicTacToe::MoveList;
  using Rules = TicTacToe::Rules;
  using Policy = TicTacToe::Policy;
  using Result = TicTacToe::Result;
  static constexpr uint8_t kNoWinner = TicTacToe::kNoWinner;
  static constexpr int kMaxMoves = TicTacToe::kMaxMoves;
  static void generate_moves(const State& s, const Rules& r, MoveList& l) {
    TicTacToe::generate_moves(s, r, l);
  }
  static void apply(State& s, Move m) { TicTacToe::apply(s, m); }
  static bool is_over(const State& s) { return TicTacToe::is_over(s); }
  static int winner(const State& s) { return TicTacToe::winner(s); }
  static int side_to_move(const State& s) { return TicTacToe::side_to_move(s); }
  template <class Sink>
  static void playout_many(const State& s, const Rules& r, const Policy& p, PhiloxKey key,
                           uint32_t ply, uint32_t leaf, uint32_t first, uint32_t last,
                           Sink&& sink) {
    TicTacToe::playout_many(s, r, p, key, ply, leaf, first, last, sink);
  }
  static Result playout(const State& s, const Rules& r, const Policy& p, BlockStream& rng) {
    return TicTacToe::playout(s, r, p, rng);
  }
};
static_assert(DeterministicGame<PlainTicTacToe>);

using Score = int32_t;

// Lines still open for the side to move, minus those open for the other side, by stones on them.
Score evaluate(const ttt::State& s) {
  constexpr Score kWeight[4] = {1, 10, 100, 0};
  const int me = s.side;
  Score score = 0;
  for (uint32_t line : ttt::kLines) {
    const int mine = count(s.occ[me] & line), theirs = count(s.occ[me ^ 1] & line);
    if (theirs == 0) score += kWeight[mine];
    if (mine == 0) score -= kWeight[theirs];
  }
  return score;
}

constexpr Score kWin = AlphaBeta<TicTacToe>::kWin;

// Plain negamax to `depth` plies with the search's scoring: a game that ends p plies from the
// root scores kWin - p for the winner, 0 for a draw; the horizon is scored by evaluate().
Score brute_force(const ttt::State& s, int depth, int ply) {
  if (depth == 0) return evaluate(s);
  ttt::MoveList moves;
  ttt::generate_moves(s, moves);
  Score best = -kWin - 1;
  for (int i = 0; i < moves.size; ++i) {
    ttt::State child = s;
    ttt::apply(child, moves.moves[i]);
    Score v;
    if (ttt::is_over(child))
      v = child.winner == s.side           ? kWin - (ply + 1)
          : child.winner == ttt::kNoWinner ? 0
                                           : -(kWin - (ply + 1));
    else
      v = -brute_force(child, depth - 1, ply + 1);
    best = std::max(best, v);
  }
  return best;
}

// The value of playing m at s, by brute force.
Score brute_force_after(const ttt::State& s, ttt::Move m, int depth) {
  ttt::State child = s;
  ttt::apply(child, m);
  if (ttt::is_over(child))
    return child.winner == s.side ? kWin - 1 : child.winner == ttt::kNoWinner ? 0 : -(kWin - 1);
  return -brute_force(child, depth - 1, 1);
}

// Random positions reached by legal moves, never over, either side to start.
std::vector<ttt::State> random_positions(int n, uint64_t seed) {
  std::vector<ttt::State> out;
  for (uint32_t i = 0; out.size() < static_cast<size_t>(n); ++i) {
    WordStream rng({seed, i, 0, kLeafSetup, 0});
    ttt::State s = ttt::initial_state(static_cast<int>(rng.below(2)));
    const int plies = static_cast<int>(rng.below(8));
    for (int p = 0; p < plies && !ttt::is_over(s); ++p) {
      ttt::MoveList moves;
      ttt::generate_moves(s, moves);
      ttt::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
    }
    if (!ttt::is_over(s)) out.push_back(s);
  }
  return out;
}

AlphaBetaOptions options(int depth, bool tt, bool pvs, bool ordering) {
  AlphaBetaOptions o;
  o.depth = depth;
  o.tt_size_mb = 1;
  o.use_tt = tt;
  o.use_pvs = pvs;
  o.use_killers = o.use_history = ordering;
  return o;
}

template <class G>
class AlphaBetaBruteForce : public ::testing::Test {};
using Games = ::testing::Types<TicTacToe, PlainTicTacToe>;
TYPED_TEST_SUITE(AlphaBetaBruteForce, Games);

TYPED_TEST(AlphaBetaBruteForce, SameValueAsNegamaxAtEveryDepthAndTheMoveAchievesIt) {
  struct Variant {
    bool tt, pvs, ordering;
  };
  const Variant variants[] = {{true, true, true},
                              {false, true, true},
                              {true, false, true},
                              {true, true, false},
                              {false, false, false}};
  int proven = 0, compared = 0;
  for (const ttt::State& s : random_positions(80, 3)) {
    const int empties = count(ttt::empty_squares(s));
    for (int depth = 1; depth <= empties; ++depth) {
      const Score want = brute_force(s, depth, 0);
      for (const Variant& v : variants) {
        AlphaBeta<TypeParam> search(evaluate, {}, options(depth, v.tt, v.pvs, v.ordering));
        const auto st = search.search(s);
        const std::string where = ttt::to_string(s) + " depth " + std::to_string(depth) + " tt " +
                                  std::to_string(v.tt) + " pvs " + std::to_string(v.pvs) +
                                  " ordering " + std::to_string(v.ordering);
        ASSERT_EQ(st.value, want) << where;
        EXPECT_EQ(brute_force_after(s, st.best, depth), want)
            << where << " best " << ttt::to_string(st.best);
        ASSERT_FALSE(st.line.empty());
        EXPECT_TRUE(st.line[0] == st.best);
        EXPECT_EQ(st.proven,
                  want >= AlphaBeta<TypeParam>::kProven || want <= -AlphaBeta<TypeParam>::kProven);
        proven += st.proven;
        ++compared;
      }
    }
  }
  EXPECT_GT(proven, 0);
  EXPECT_GT(compared, 1000);
}

TEST(AlphaBeta, FullDepthSolvesEveryPositionWithATableKeptAcrossSearches) {
  AlphaBeta<TicTacToe> search(evaluate, {}, options(9, true, true, true));
  uint64_t hits = 0;
  for (const ttt::State& s : random_positions(300, 4)) {
    const int empties = count(ttt::empty_squares(s));
    const auto st = search.search(s);
    hits += st.tt_hits;
    const Score want = brute_force(s, empties, 0);
    ASSERT_EQ(st.value, want) << ttt::to_string(s);
    EXPECT_EQ(brute_force_after(s, st.best, empties), want) << ttt::to_string(s);
  }
  EXPECT_GT(hits, 0u);
}

TEST(AlphaBeta, TheTableAndOrderingCutTheTree) {
  const ttt::State empty = ttt::initial_state();
  const auto nodes = [&](bool tt, bool pvs, bool ordering) {
    AlphaBeta<TicTacToe> search(evaluate, {}, options(9, tt, pvs, ordering));
    const auto st = search.search(empty);
    EXPECT_EQ(st.value, 0);  // a draw
    return st.nodes;
  };
  const uint64_t all = nodes(true, true, true);
  EXPECT_LT(all, nodes(false, true, true));
  EXPECT_LT(nodes(false, false, true), nodes(false, false, false));
}

TEST(AlphaBeta, SearchesAreDeterministic) {
  const ttt::State s = ttt::parse_position(".../.x./... o");
  AlphaBeta<TicTacToe> a(evaluate, {}, options(6, true, true, true)),
      b(evaluate, {}, options(6, true, true, true));
  const auto x = a.search(s), y = b.search(s);
  EXPECT_EQ(x.value, y.value);
  EXPECT_EQ(x.nodes, y.nodes);
  EXPECT_EQ(x.tt_hits, y.tt_hits);
  ASSERT_EQ(x.line.size(), y.line.size());
  for (size_t i = 0; i < x.line.size(); ++i) EXPECT_TRUE(x.line[i] == y.line[i]);
}

TEST(AlphaBeta, TimeLimitedSearchCompletesAnIteration) {
  AlphaBetaOptions o;
  o.depth = 0;
  o.time_ms = 50;
  o.tt_size_mb = 1;
  AlphaBeta<TicTacToe> search(evaluate, {}, o);
  const auto st = search.search(ttt::initial_state());
  EXPECT_GE(st.depth, 1);
  EXPECT_FALSE(st.line.empty());
  EXPECT_LT(st.best.square, ttt::kSquares);
}

TEST(AlphaBeta, RejectsBadOptions) {
  const auto make = [](AlphaBetaOptions o) { AlphaBeta<TicTacToe> s(evaluate, {}, o); };
  AlphaBetaOptions o = options(4, true, true, true);
  o.depth = 65;
  EXPECT_THROW(make(o), std::invalid_argument);
  o.depth = 0;
  o.time_ms = 0;
  EXPECT_THROW(make(o), std::invalid_argument);
  o = options(4, true, true, true);
  o.tt_size_mb = 0;
  EXPECT_THROW(make(o), std::invalid_argument);
  EXPECT_THROW(AlphaBeta<TicTacToe>(nullptr, {}, options(4, true, true, true)),
               std::invalid_argument);
}

rollout::PlayoutParams<TicTacToe> params(uint64_t seed) {
  rollout::PlayoutParams<TicTacToe> p;
  p.seed = seed;
  return p;
}

TEST(AlphaBetaEngine, NeverLosesToRandomMoves) {
  int wins = 0;
  for (uint32_t game = 0; game < 40; ++game) {
    AlphaBetaEngine<TicTacToe> ab(evaluate, {}, options(9, true, true, true), "lines");
    RandomEngine<TicTacToe> random{TicTacToe::Rules{}};
    const int ab_side = static_cast<int>(game % 2);
    Engine<TicTacToe>* players[2];
    players[ab_side] = &ab;
    players[ab_side ^ 1] = &random;
    const auto played = test::play_game<TicTacToe>(
        players, ttt::initial_state(static_cast<int>((game / 2) % 2)), params(500 + game), game);
    ASSERT_TRUE(ttt::is_over(played.final));
    EXPECT_NE(played.final.winner, ab_side ^ 1)
        << "game " << game << ": " << ttt::to_string(played.final);
    wins += played.final.winner == ab_side;
  }
  EXPECT_GT(wins, 20);
}

// A budget keeps back a tenth for the move's cost around the search, at most 30 ms: the deadline
// expires at 90 ms of 100, 470 of 500, 1970 of 2000, half of that for half_spent; never without
// a budget.
TEST(Deadline, ExpiresAtTheBudgetLessItsReserve) {
  Deadline::Clock::time_point t{};
  Deadline d;
  d.set_clock([&] { return t; });
  for (const auto& [budget, stop] : {std::pair{100u, 90}, {500u, 470}, {2000u, 1970}, {1u, 1}}) {
    t = {};
    d.start(budget);
    t += std::chrono::milliseconds(stop - 1);
    EXPECT_FALSE(d.expired()) << budget;
    EXPECT_EQ(d.half_spent(), 2 * (stop - 1) >= stop) << budget;
    t += std::chrono::milliseconds(1);
    EXPECT_TRUE(d.expired()) << budget;
    EXPECT_TRUE(d.half_spent()) << budget;
  }
  d.start(0);
  t += std::chrono::hours(1);
  EXPECT_FALSE(d.expired());
  EXPECT_FALSE(d.half_spent());
}

// An engine that answers one square whatever the position, legal or not.
class FixedSquareEngine final : public Engine<TicTacToe> {
 public:
  explicit FixedSquareEngine(uint8_t square) : square_(square) {}
  std::string describe() const override { return "fixed square"; }
  void new_game() override {}
  void begin(const State&, const SearchIds&) override {}
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  Move decision(MoveStats* stats) override {
    if (stats) *stats = MoveStats{};
    return ttt::Move{square_};
  }
  void observe(Move, const State&) override {}

 private:
  uint8_t square_;
};

// decide_in_place (terminal play and the protocol servers) returns only moves the rules allow: an
// engine's illegal move throws a logic_error naming the engine, game and ply.
TEST(AlphaBetaEngine, DecideInPlaceRefusesAnIllegalMove) {
  rollout::cpu_detail::CpuBackend<TicTacToe> backend(rollout::BackendOptions{});
  std::vector<rollout::Leaf<TicTacToe>> leaves;
  std::vector<rollout::LeafStats> stats;
  ttt::State s = ttt::initial_state(0);
  ttt::apply(s, ttt::Move{4});
  FixedSquareEngine legal(0), occupied(4);
  EXPECT_EQ(decide_in_place<TicTacToe>(legal, s, SearchIds{3, 1, 7}, backend, params(1), nullptr,
                                       leaves, stats)
                .square,
            0);
  try {
    decide_in_place<TicTacToe>(occupied, s, SearchIds{3, 1, 7}, backend, params(1), nullptr, leaves,
                               stats);
    ADD_FAILURE() << "an occupied square was returned";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("fixed square chose an illegal move in game 3 at ply 1"),
              std::string::npos)
        << e.what();
  }
}

TEST(AlphaBetaEngine, DrawsAgainstItself) {
  for (uint32_t game = 0; game < 2; ++game) {
    AlphaBetaEngine<TicTacToe> a(evaluate, {}, options(9, true, true, true)),
        b(evaluate, {}, options(3, true, true, true));
    Engine<TicTacToe>* players[2] = {&a, &a};
    auto played = test::play_game<TicTacToe>(players, ttt::initial_state(static_cast<int>(game)),
                                             params(1), game);
    EXPECT_EQ(played.final.winner, ttt::kNoWinner) << ttt::to_string(played.final);
    // A shallower search of the same engine type still holds the draw against a full-depth one.
    Engine<TicTacToe>* mixed[2] = {&a, &b};
    played = test::play_game<TicTacToe>(mixed, ttt::initial_state(static_cast<int>(game)),
                                        params(1), game);
    EXPECT_NE(played.final.winner, 1) << ttt::to_string(played.final);
  }
  AlphaBetaEngine<TicTacToe> e(evaluate, {}, options(9, true, true, true), "lines");
  EXPECT_EQ(e.describe(), "alphabeta(lines, depth 9, tt 1 MiB, pvs, killers, history)");
}

// Tic-tac-toe whose search considers only the empty centre and corners while there are any (the
// candidate_moves hook), else every empty square.
struct CornersTicTacToe : PlainTicTacToe {
  static constexpr const char* kName = "tictactoe-corners";
  static void candidate_moves(const State& s, const Rules&, MoveList& list) {
    constexpr uint32_t kCentreAndCorners = 0x155;  // a1, c1, b2, a3, c3
    const uint32_t empty = ttt::empty_squares(s);
    uint32_t chosen = (empty & kCentreAndCorners) ? empty & kCentreAndCorners : empty;
    list.size = 0;
    while (chosen) list.push(Move{static_cast<uint8_t>(pop_lsb(chosen))});
  }
};
static_assert(hooks::HasCandidateMoves<CornersTicTacToe> && !hooks::HasCandidateMoves<TicTacToe>);

// brute_force over the moves of CornersTicTacToe::candidate_moves.
Score brute_force_candidates(const ttt::State& s, int depth, int ply) {
  if (depth == 0) return evaluate(s);
  ttt::MoveList moves;
  CornersTicTacToe::candidate_moves(s, {}, moves);
  Score best = -kWin - 1;
  for (int i = 0; i < moves.size; ++i) {
    ttt::State child = s;
    ttt::apply(child, moves.moves[i]);
    Score v;
    if (ttt::is_over(child))
      v = child.winner == s.side           ? kWin - (ply + 1)
          : child.winner == ttt::kNoWinner ? 0
                                           : -(kWin - (ply + 1));
    else
      v = -brute_force_candidates(child, depth - 1, ply + 1);
    best = std::max(best, v);
  }
  return best;
}

TEST(AlphaBeta, SearchesTheGamesCandidateMovesOnly) {
  int restricted = 0;
  for (const ttt::State& s : random_positions(60, 9)) {
    const int empties = count(ttt::empty_squares(s));
    ttt::MoveList candidates;
    CornersTicTacToe::candidate_moves(s, {}, candidates);
    restricted += candidates.size < empties;
    for (int depth = 1; depth <= empties; ++depth) {
      AlphaBeta<CornersTicTacToe> search(evaluate, {}, options(depth, true, true, true));
      const auto st = search.search(s);
      ASSERT_EQ(st.value, brute_force_candidates(s, depth, 0))
          << ttt::to_string(s) << " depth " << depth;
      EXPECT_TRUE(std::find(candidates.moves, candidates.moves + candidates.size, st.best) !=
                  candidates.moves + candidates.size)
          << ttt::to_string(s) << " best " << ttt::to_string(st.best);
    }
  }
  EXPECT_GT(restricted, 20);
  // A single candidate is played without search, even with other legal moves.
  const ttt::State one = ttt::parse_position("xox/oxo/..o x");
  AlphaBetaEngine<CornersTicTacToe> engine(evaluate, {}, options(4, true, true, true));
  engine.begin(one, SearchIds{});
  EXPECT_EQ(ttt::to_string(engine.decision(nullptr)), "a1");
  EXPECT_EQ(engine.last_stats().depth, 0) << "forced: no search";
}

// Tic-tac-toe with quiet positions: not quiet while the side to move can complete a line.
struct QuietTicTacToe : TicTacToe {
  static constexpr const char* kName = "tictactoe-quiet";
  static bool is_quiet(const State& s) {
    const uint32_t mine = s.occ[s.side], empty = ttt::empty_squares(s);
    for (uint32_t line : ttt::kLines)
      if (count(mine & line) == 2 && (empty & line)) return false;
    return true;
  }
};
static_assert(hooks::HasQuiet<QuietTicTacToe> && !hooks::HasQuiet<TicTacToe>);

// A brute-force negamax with quiescence: at the horizon a position that is not quiet is searched
// one more ply, until a quiet one.
template <class G, class Evaluate>
int32_t quiescent_brute_force(const typename G::State& s, int depth, int ply,
                              const Evaluate& evaluate) {
  constexpr int32_t kW = AlphaBeta<G>::kWin;
  if (depth == 0) {
    if (G::is_quiet(s) || ply >= AlphaBeta<G>::kMaxDepth) return evaluate(s);
    depth = 1;
  }
  typename G::MoveList moves;
  G::generate_moves(s, typename G::Rules{}, moves);
  int32_t best = -kW - 1;
  for (int i = 0; i < moves.size; ++i) {
    typename G::State child = s;
    G::apply(child, moves.moves[i]);
    int32_t v;
    if (G::is_over(child)) {
      const int w = G::winner(child);
      v = w == G::side_to_move(s) ? kW - (ply + 1) : (w == 0 || w == 1) ? -(kW - (ply + 1)) : 0;
    } else {
      v = -quiescent_brute_force<G>(child, depth - 1, ply + 1, evaluate);
    }
    best = std::max(best, v);
  }
  return best;
}

TEST(AlphaBeta, QuiescenceSearchesPastTheHorizonUntilAQuietPosition) {
  int differ = 0;
  for (const ttt::State& s : random_positions(80, 13)) {
    const int empties = count(ttt::empty_squares(s));
    for (int depth = 1; depth <= std::min(empties, 3); ++depth) {
      for (const bool tt : {false, true}) {
        AlphaBetaOptions o = options(depth, tt, true, true);
        AlphaBeta<QuietTicTacToe> search(evaluate, {}, o);
        const Score want = quiescent_brute_force<QuietTicTacToe>(s, depth, 0, evaluate);
        ASSERT_EQ(search.search(s).value, want) << ttt::to_string(s) << " depth " << depth;
        o.quiescence = false;
        AlphaBeta<QuietTicTacToe> plain(evaluate, {}, o);
        const Score flat = plain.search(s).value;
        ASSERT_EQ(flat, brute_force(s, depth, 0)) << "quiescence off is the plain search";
        differ += flat != want;
      }
    }
  }
  EXPECT_GT(differ, 20) << "the extension changed some values";
}

// Checkers: captures are forced, a position is quiet when there is none. Over positions of random
// games, alpha-beta with quiescence (table on and off) scores what the brute force scores, with
// material as the evaluation.
TEST(AlphaBeta, CheckersQuiescencePlaysOutTheCaptures) {
  using G = CheckersGame;
  const auto material = [](const checkers::State& s) -> int32_t {
    const int me = s.side;
    const uint32_t mine = s.pieces[me], theirs = s.pieces[me ^ 1];
    return 100 * (count(mine) - count(theirs)) +
           200 * (count(mine & s.kings) - count(theirs & s.kings));
  };
  int noisy = 0, tested = 0;
  for (uint32_t game = 0; tested < 60; ++game) {
    WordStream rng({7, game, 0, kLeafSetup, 0});
    checkers::State s = checkers::initial_state();
    const int plies = 4 + static_cast<int>(rng.below(30));
    for (int p = 0; p < plies && !G::is_over(s); ++p) {
      checkers::MoveList moves;
      G::generate_moves(s, {}, moves);
      G::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
    }
    if (G::is_over(s)) continue;
    ++tested;
    noisy += !G::is_quiet(s);
    for (int depth = 1; depth <= 2; ++depth)
      for (const bool tt : {false, true}) {
        AlphaBeta<G> search(material, {}, options(depth, tt, true, true));
        ASSERT_EQ(search.search(s).value, quiescent_brute_force<G>(s, depth, 0, material))
            << "game " << game << " depth " << depth;
      }
  }
  EXPECT_GT(noisy, 5) << "some positions start with a capture";
}

// The quiescence plies poll the clock like every other node: an injected clock that runs out after
// a number of reads stops a checkers search within 256 nodes of each read, and the move it
// returns is legal.
TEST(AlphaBeta, CheckersQuiescenceReadsTheClock) {
  using G = CheckersGame;
  const auto material = [](const checkers::State& s) -> int32_t {
    return 100 * (count(s.pieces[s.side]) - count(s.pieces[s.side ^ 1]));
  };
  int reads = 0;
  const Deadline::Clock::time_point t0{};
  AlphaBetaOptions o;
  o.time_ms = 1000;
  AlphaBeta<G> search(material, {}, o);
  search.set_clock([&] {
    ++reads;
    return reads >= 40 ? t0 + std::chrono::hours(1) : t0;
  });
  // 11-15 23-19 8-11 22-18: Black to capture 15x22, White to recapture; exchanges all along.
  checkers::State s = checkers::initial_state();
  for (const char* m : {"11-15", "23-19", "8-11", "22-18"}) G::apply(s, checkers::parse_move(s, m));
  const auto r = search.search(s);
  EXPECT_GT(r.nodes, 1000u);
  EXPECT_LE(r.nodes, 256u * static_cast<uint64_t>(reads + 1));
  checkers::MoveList legal;
  G::generate_moves(s, {}, legal);
  EXPECT_TRUE(std::find(legal.moves, legal.moves + legal.size, r.best) != legal.moves + legal.size);
}

// An interrupt flag (a protocol session's STOP, END or end of input) stops a search that has no
// time budget, within a poll of it, with a legal move; a flag that is never raised changes
// nothing: the same value and nodes as a search without one.
TEST(AlphaBeta, AnInterruptStopsASearchWithoutABudgetAndOthersAreUnchanged) {
  using G = CheckersGame;
  const auto material = [](const checkers::State& s) -> int32_t {
    return 100 * (count(s.pieces[s.side]) - count(s.pieces[s.side ^ 1]));
  };
  const checkers::State start = checkers::initial_state();
  std::atomic<bool> flag{false};
  AlphaBeta<G> plain(material, {}, options(6, true, true, true));
  AlphaBeta<G> flagged(material, {}, options(6, true, true, true));
  flagged.set_interrupt(&flag);
  const auto a = plain.search(start), b = flagged.search(start);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_FALSE(b.stopped);
  // Raised: a search 40 plies deep (hours without the flag) ends after its first iteration at
  // most (depth 1 always completes unless a poll stops it first).
  flag = true;
  AlphaBeta<G> deep(material, {}, options(40, true, true, true));
  deep.set_interrupt(&flag);
  const auto c = deep.search(start);
  EXPECT_LE(c.depth, 1) << "no iteration starts after the interrupt";
  EXPECT_LT(c.nodes, 5000u);
  checkers::MoveList legal;
  G::generate_moves(start, {}, legal);
  EXPECT_TRUE(std::find(legal.moves, legal.moves + legal.size, c.best) != legal.moves + legal.size);
}

}  // namespace
}  // namespace sp::search
