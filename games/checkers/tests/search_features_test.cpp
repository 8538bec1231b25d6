// The alpha-beta search features that are off by default (issue 46, item 3), on checkers:
// - forced_extension: equals a brute-force negamax (with quiescence) in which a position with a
//   single move does not count a ply, bounded at twice the iteration's depth;
// - lmr: equals a reference alpha-beta with the same reductions (a reduced move that beats alpha
//   is searched again at full depth); fewer nodes at equal depth; most gains of material kept;
// - time_management: with an injected clock that runs out at a chosen read, the search plays the
//   move the cut iteration found better than the last completed one, and only then;
// - the config keys: read, shown, refused for Gomoku's pattern search, and part of a run's
//   identity only when on (files written before them resume).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/host.hpp"
#include "games/checkers/notation.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "tests/test_util.hpp"

namespace sp::search {
namespace {

using G = CheckersGame;
using State = checkers::State;
using Score = int32_t;
constexpr Score kWin = AlphaBeta<G>::kWin;

Score material(const State& s) {
  const int me = s.side;
  const uint32_t mine = s.pieces[me], theirs = s.pieces[me ^ 1];
  return 100 * (count(mine) - count(theirs)) +
         200 * (count(mine & s.kings) - count(theirs & s.kings));
}

// Material and the side to move's mobility (so that deeper iterations change their minds).
Score lively(const State& s) {
  checkers::MoveList moves;
  G::generate_moves(s, {}, moves);
  return material(s) + 7 * moves.size;
}

bool legal(const State& s, checkers::Move m) {
  checkers::MoveList moves;
  G::generate_moves(s, {}, moves);
  return std::find(moves.moves, moves.moves + moves.size, m) != moves.moves + moves.size;
}

// Positions of random games from the start, not over, `plies` random plies (4..4+spread).
std::vector<State> random_positions(int n, uint64_t seed, int spread) {
  std::vector<State> out;
  for (uint32_t game = 0; static_cast<int>(out.size()) < n; ++game) {
    WordStream rng({seed, game, 0, kLeafSetup, 0});
    State s = checkers::initial_state();
    const int plies = 4 + static_cast<int>(rng.below(static_cast<uint32_t>(spread)));
    for (int p = 0; p < plies && !G::is_over(s); ++p) {
      checkers::MoveList moves;
      G::generate_moves(s, {}, moves);
      G::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
    }
    if (!G::is_over(s)) out.push_back(s);
  }
  return out;
}

AlphaBetaOptions fixed(int depth, bool tt) {
  AlphaBetaOptions o;
  o.depth = depth;
  o.tt_size_mb = 4;
  o.use_tt = tt;
  return o;
}

// Negamax with quiescence in which a position with one move does not count a ply while it lies
// less than 2 * iteration plies from the root.
Score extended_brute_force(const State& s, int depth, int ply, int iteration) {
  checkers::MoveList moves;
  G::generate_moves(s, {}, moves);
  if (moves.size == 1 && ply < 2 * iteration && ply + 1 < AlphaBeta<G>::kMaxDepth) ++depth;
  Score best = -kWin - 1;
  for (int i = 0; i < moves.size; ++i) {
    State child = s;
    G::apply(child, moves.moves[i]);
    Score v;
    if (G::is_over(child)) {
      const int w = G::winner(child);
      v = w == s.side ? kWin - (ply + 1) : (w == 0 || w == 1) ? -(kWin - (ply + 1)) : 0;
    } else if (depth == 1 && G::is_quiet(child)) {
      v = -material(child);
    } else {
      v = -extended_brute_force(child, depth > 1 ? depth - 1 : 1, ply + 1, iteration);
    }
    best = std::max(best, v);
  }
  return best;
}

TEST(SearchFeatures, ForcedExtensionEqualsABruteForceThatExtendsSingleMoves) {
  int forced = 0, differ = 0, tested = 0;
  for (const State& s : random_positions(60, 21, 30)) {
    checkers::MoveList moves;
    G::generate_moves(s, {}, moves);
    for (int depth = 1; depth <= 3; ++depth) {
      AlphaBetaOptions o = fixed(depth, false);
      o.forced_extension = true;
      AlphaBeta<G> search(material, {}, o);
      const auto st = search.search(s);
      const Score want = extended_brute_force(s, depth, 0, depth);
      ASSERT_EQ(st.value, want) << checkers::fen(s) << " depth " << depth;
      EXPECT_TRUE(legal(s, st.best));
      AlphaBeta<G> plain(material, {}, fixed(depth, false));
      differ += plain.search(s).value != want;
      ++tested;
    }
    forced += moves.size == 1;
  }
  EXPECT_GT(differ, 10) << "the extension changed some values (of " << tested << ")";
  EXPECT_GT(forced, 3) << "some roots have a single move";
}

// Extensions never take a search past kMaxDepth plies (its arrays by ply): endgames of few
// pieces, where iterations go deep fast and captures force single moves, searched for 300 ms
// with the extension, and king against king to the full depth (it gets there at once, whatever
// the machine's load). Before the bound (an extension whenever ply + 1 < kMaxDepth), a 100 ms
// match crashed, and this test saw ply 66.
TEST(SearchFeatures, ForcedExtensionStaysWithinTheDepthLimit) {
  for (const char* fen :
       {"B:WK30,K26:BK5,K1", "W:WK22,K31:BK9,K13", "B:WK27,K32:BK5,K6", "W:WK18,K19:BK10,K11"}) {
    const State s = checkers::parse_position(fen);
    AlphaBetaOptions o;
    o.time_ms = 300;
    o.forced_extension = true;
    AlphaBeta<G> search(material, {}, o);
    const auto st = search.search(s);
    EXPECT_LE(st.seldepth, AlphaBeta<G>::kMaxDepth) << fen;
    EXPECT_TRUE(legal(s, st.best)) << fen;
  }
  const State kings = checkers::parse_position("B:WK30:BK5");
  AlphaBetaOptions o = fixed(AlphaBeta<G>::kMaxDepth, true);
  o.forced_extension = true;
  AlphaBeta<G> search(material, {}, o);
  const auto st = search.search(kings);
  EXPECT_LE(st.seldepth, AlphaBeta<G>::kMaxDepth);
  EXPECT_GE(st.seldepth, 40) << "the search went deep";
  EXPECT_TRUE(legal(kings, st.best));
}

// At depth 8 over positions of random games: reductions cut the nodes, keep the depth and mostly
// the value.
TEST(SearchFeatures, LateMoveReductionsCutNodesAndKeepTheMovesThatBeatAlpha) {
  uint64_t nodes_plain = 0, nodes_lmr = 0;
  int same = 0, tested = 0;
  for (const State& s : random_positions(24, 5, 20)) {
    AlphaBeta<G> plain(material, {}, fixed(8, true));
    AlphaBetaOptions o = fixed(8, true);
    o.lmr = true;
    AlphaBeta<G> reduced(material, {}, o);
    const auto a = plain.search(s), b = reduced.search(s);
    nodes_plain += a.nodes;
    nodes_lmr += b.nodes;
    EXPECT_TRUE(legal(s, b.best)) << checkers::fen(s);
    EXPECT_EQ(b.depth, 8);
    same += a.value == b.value;
    ++tested;
  }
  EXPECT_LT(nodes_lmr * 10, nodes_plain * 8) << "reductions cut at least a fifth of the nodes";
  EXPECT_GT(same * 2, tested) << "and mostly keep the value";
}

// Fail-soft alpha-beta with quiescence and late-move reductions as AlphaBetaOptions describes
// them, in generation order (what the search orders by with no table, killers or history: in
// checkers a position's moves are all captures or none), full windows.
Score reduced_alpha_beta(const State& s, int depth, Score alpha, Score beta) {
  using O = AlphaBetaOptions;
  checkers::MoveList moves;
  G::generate_moves(s, {}, moves);
  Score best = -kWin - 1;
  for (int i = 0; i < moves.size && alpha < beta; ++i) {
    const checkers::Move m = moves.moves[i];
    State child = s;
    G::apply(child, m);
    Score v;
    if (G::is_over(child)) {
      const int w = G::winner(child);
      v = w == s.side ? kWin - 1 : (w == 0 || w == 1) ? -(kWin - 1) : 0;  // depth <= 1 ply off
    } else if (depth == 1 && G::is_quiet(child)) {
      v = -lively(child);
    } else {
      const int next = depth > 1 ? depth - 1 : 1;
      const bool late =
          depth >= O::kLmrDepth && i >= O::kLmrMoves && !G::is_tactical(s, m) && G::is_quiet(child);
      const int reduce =
          late ? O::kLmrReduction + (i >= O::kLmrLateMoves && depth >= O::kLmrDeepDepth) : 0;
      v = reduce > 0 ? -reduced_alpha_beta(child, next - reduce, -alpha - 1, -alpha) : alpha + 1;
      if (v > alpha) v = -reduced_alpha_beta(child, next, -beta, -alpha);
    }
    best = std::max(best, v);
    alpha = std::max(alpha, v);
  }
  return best;
}

// With no table, killers, history or PVS, the reduced search's value is the reference's: the
// reductions fall on the moves described, and a reduced move that beats alpha is searched again.
TEST(SearchFeatures, LateMoveReductionsEqualAReferenceAlphaBeta) {
  int differ = 0, tested = 0;
  for (const State& s : random_positions(40, 31, 30)) {
    for (int depth = 3; depth <= 6; ++depth) {
      AlphaBetaOptions o = fixed(depth, false);
      o.use_pvs = o.use_killers = o.use_history = false;
      o.lmr = true;
      AlphaBeta<G> search(lively, {}, o);
      const Score got = search.search(s).value;
      const Score want = reduced_alpha_beta(s, depth, -kWin - 1, kWin + 1);
      if (got < AlphaBeta<G>::kProven && got > -AlphaBeta<G>::kProven) {
        ASSERT_EQ(got, want) << checkers::fen(s) << " depth " << depth;
      }
      o.lmr = false;
      AlphaBeta<G> plain(lively, {}, o);
      differ += plain.search(s).value != got;
      ++tested;
    }
  }
  EXPECT_GT(differ, 5) << "reductions changed some values (of " << tested << ")";
}

// Gains the full-width search sees are mostly kept: over quiet positions of random games where the
// depth-6 search (no table: nothing tells a late winning move apart but the search) wins a man or
// more, the reduced search at the same depth finds all of it in at least three in four.
TEST(SearchFeatures, LateMoveReductionsFindGainsOfLateMoves) {
  int cases = 0, found = 0;
  for (const State& s : random_positions(400, 17, 40)) {
    if (!G::is_quiet(s)) continue;
    AlphaBeta<G> plain(material, {}, fixed(6, false));
    const auto a = plain.search(s);
    if (a.value < 100 || a.value >= AlphaBeta<G>::kProven) continue;
    AlphaBetaOptions o = fixed(6, false);
    o.lmr = true;
    AlphaBeta<G> reduced(material, {}, o);
    const auto b = reduced.search(s);
    ++cases;
    found += b.value >= a.value;
  }
  EXPECT_GT(cases, 20) << "positions with a gain were met";
  EXPECT_GE(found * 4, cases * 3) << found << " of " << cases;
}

// The clock runs out at its k-th read. Time management on and off search the same nodes until
// then (the clock reads t0 until it expires); on plays the cut iteration's better move when it
// found one, off the last completed iteration's.
TEST(SearchFeatures, TimeManagementPlaysTheBetterMoveOfTheCutIteration) {
  const std::vector<State> roots = random_positions(6, 9, 20);
  const Deadline::Clock::time_point t0{};
  int partial = 0, runs = 0;
  for (const State& s : roots) {
    for (int k = 4; k <= 400; k += 17) {
      AlphaBeta<G>::Stats r[2];
      for (const bool tm : {false, true}) {
        AlphaBetaOptions o;
        o.time_ms = 1000;
        o.time_management = tm;
        AlphaBeta<G> search(lively, {}, o);
        int reads = 0;
        search.set_clock([&] {
          ++reads;
          return reads >= k ? t0 + std::chrono::hours(1) : t0;
        });
        r[tm] = search.search(s);
      }
      ++runs;
      const auto &off = r[0], &on = r[1];
      EXPECT_FALSE(off.partial);
      EXPECT_EQ(on.depth, off.depth) << "the same iterations completed";
      EXPECT_EQ(on.nodes, off.nodes);
      EXPECT_TRUE(legal(s, on.best));
      if (on.partial) {
        ++partial;
        EXPECT_TRUE(on.stopped);
        EXPECT_FALSE(on.best == off.best) << "a partial result is a different move";
        EXPECT_TRUE(on.line[0] == on.best);
        // The cut iteration scored the old best first: the new one is better at that depth.
        State after_new = s, after_old = s;
        G::apply(after_new, on.best);
        G::apply(after_old, off.best);
        if (!G::is_over(after_new) && !G::is_over(after_old) && on.depth >= 1) {
          AlphaBeta<G> a(lively, {}, fixed(on.depth, false)), b(lively, {}, fixed(on.depth, false));
          EXPECT_GE(-a.search(after_new).value, -b.search(after_old).value)
              << checkers::fen(s) << " k " << k;
        }
      } else {
        EXPECT_TRUE(on.best == off.best) << checkers::fen(s) << " k " << k;
      }
    }
  }
  EXPECT_GT(partial, 0) << "some cut iterations had found a better move (" << runs << " runs)";
}

TEST(SearchFeatures, ConfigKeysAreReadShownAndJoinTheIdentityOnlyWhenOn) {
  const std::string text =
      "game: checkers\nengines:\n  player0: {type: alphabeta, depth: 3, lmr: true, "
      "forced_extension: true, time_management: true}\n  player1: {type: alphabeta, depth: 3}\n";
  auto cfg = config::load_campaign_config_text<G>(text, "f.yaml");
  EXPECT_TRUE(cfg.engines[0].lmr && cfg.engines[0].forced_extension &&
              cfg.engines[0].time_management);
  EXPECT_FALSE(cfg.engines[1].lmr || cfg.engines[1].forced_extension ||
               cfg.engines[1].time_management);
  EXPECT_TRUE(cfg.engines[0].pvs && cfg.engines[0].killers && cfg.engines[0].history);
  cfg.engines[1].pvs = cfg.engines[1].killers = cfg.engines[1].history = false;
  const char* keys[] = {"lmr", "forced_extension", "time_management", "pvs", "killers", "history"};
  const std::string on = selfplay::run_identity<G>(cfg, false);
  for (const char* key : keys) EXPECT_NE(on.find(key), std::string::npos) << key << "\n" << on;
  cfg.engines[0].lmr = cfg.engines[0].forced_extension = cfg.engines[0].time_management = false;
  cfg.engines[1].pvs = cfg.engines[1].killers = cfg.engines[1].history = true;
  const std::string off = selfplay::run_identity<G>(cfg, false);
  for (const char* key : keys) EXPECT_EQ(off.find(key), std::string::npos) << key << "\n" << off;
  const auto bad = [](const std::string& yaml) {
    try {
      config::load_campaign_config_text<G>(yaml, "bad.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string why = bad("game: checkers\nengines:\n  player0: {type: mcts, lmr: true}\n");
  EXPECT_NE(why.find("lmr"), std::string::npos) << why;
  EXPECT_NE(why.find("bad.yaml"), std::string::npos) << why;
}

}  // namespace
}  // namespace sp::search
