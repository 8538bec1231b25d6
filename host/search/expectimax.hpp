// Expectiminimax for EWN with a linear evaluation: decision nodes take the best move for the side
// to move, chance nodes (die not rolled) the average over the six die values, and the horizon is
// scored by eval::evaluate from the side to move's view. Values are negamax: always for the side
// to move at the node.
//
// Depth counts decision plies: depth 1 scores every legal move by the evaluation after it. The die
// values of a chance node are grouped by EwnGame::chance_classes (values that allow the same moves
// share one subtree, weighted by how many values they stand for).
//
// Value bounds. Features are non-negative and bounded, weights are at most eval::kMaxWeight, so
// every evaluation lies in [-V, V] with V = eval::evaluation_bound(weights). A won position is +W,
// a lost one -W, with W the smallest power of two above V (win_score()): beyond any evaluation,
// so a sure win is always preferred, and a power of two so that averaging wins gives exactly W
// again (a proven result is recognised exactly). Every node value lies in [L, U] = [-W, W], and
// Star1 (Ballard 1983) prunes chance nodes with exactly these bounds; decision nodes use fail-soft
// alpha-beta with the windows Star1 passes down. V sums the largest value of every feature, so it
// is loose (survival-distance: V = 5136, W = 8192, typical values a few hundred): Star1 cut a
// fifth of the nodes on random mid-game positions at depth 4-5, under a tenth from the start
// position. Without Star1 chance nodes search every class with a full window, which makes the
// whole search plain expectimax (nothing for alpha-beta to cut).
//
// Transposition table: Zobrist keys over (side, cube, square), the side to move and the die (0 for
// a chance node; a decision node's die is replaced by the smallest die of its class, so rolls that
// allow the same moves share an entry). Entries keep depth, value, bound (exact / lower / upper,
// from the fail-soft windows) and the best move. A value is reused only at the SAME remaining
// depth: a deeper result would change the value of a fixed-depth search (and with chance nodes
// would mix horizons inside one average), so other entries only order moves. Chance sums are kept
// in die counts in both modes, so with the table and Star1 off or on the root value equals a plain
// fixed-depth expectimax up to rounding (tests: within 1e-9).
//
// Determinism: with time_ms == 0 the search is a function of the root and the table contents,
// which depend only on the searches since the last clear(); no clock reading changes a result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "host/eval/weights.hpp"
#include "host/search/deadline.hpp"
#include "host/search/engine.hpp"
#include "host/search/tt.hpp"

namespace sp::search {

struct ExpectimaxOptions {
  int depth = 4;             // decision plies, 1..kMaxDepth; 0 = up to kMaxDepth within time_ms
  uint32_t time_ms = 0;      // wall-clock budget per move; 0 = none (then depth must be set)
  uint32_t tt_size_mb = 16;  // transposition table size, 1..65536 MiB, allocated at first search
  bool use_tt = true;
  bool use_star1 = true;    // Star1 pruning at chance nodes (alpha-beta windows)
  bool use_history = true;  // history-heuristic move ordering (after the table's best move)
};

// Statistics of one move decision (search()); the last completed iteration counts.
struct ExpectimaxStats {
  int depth = 0;         // deepest completed iteration
  uint64_t nodes = 0;    // decision and chance nodes, horizon nodes included, all iterations
  uint64_t leaves = 0;   // positions scored by the evaluation
  uint64_t tt_hits = 0;  // nodes answered by the transposition table
  double seconds = 0;
  double nodes_per_second = 0;
  double value = 0;      // root value for the side to move, evaluation units, in [-W, W]
  bool proven = false;   // |value| == W: every line ends in the same result
  bool stopped = false;  // the time limit cut an iteration short (its result is dropped)
  ewn::Move best{};
  // Principal line as plies "die:move": the root move, then for each chance node the most likely
  // class (its smallest die) and that node's best move. It may end early at a table hit.
  std::vector<std::string> line;
};

// "depth 4 nodes 1234 nps 2.1M value 123.4 line 3:b4-c3 5:d2-c1" on one line.
std::string to_string(const ExpectimaxStats& stats);

class Expectimax {
 public:
  static constexpr int kMaxDepth = 64;

  // Throws std::invalid_argument for options out of range or weights of the wrong size.
  Expectimax(eval::Weights weights, const ewn::Rules& rules, const ExpectimaxOptions& options);

  // Searches root (die rolled, game not over) by iterative deepening to options.depth, or until
  // time_ms runs out (depth 1 always completes), a result is proven or the tree is exhausted.
  ExpectimaxStats search(const ewn::State& root);

  // Forgets the transposition table (history is reset by every search anyway).
  void clear();

  double win_score() const { return win_; }
  const eval::Weights& weights() const { return weights_; }
  const ExpectimaxOptions& options() const { return opt_; }

 private:
  struct PlyMove {
    uint8_t die = 0;
    ewn::Move move{};
  };

  double decision(const ewn::State& s, int depth, double alpha, double beta, int ply);
  double chance(const ewn::State& s, int depth, double alpha, double beta, int ply);
  uint64_t hash(const ewn::State& s) const;
  void order(ewn::MoveList& moves, ewn::Move tt_move, int side) const;
  void tick();

  eval::Weights weights_;
  ewn::Rules rules_;
  ExpectimaxOptions opt_;
  double win_ = 1;
  TranspositionTable<ewn::Move, double> table_;
  uint64_t history_[2][ewn::kSquares + 1][ewn::kSquares + 1] = {};  // +1: the pass square
  PlyMove pv_[kMaxDepth + 2][kMaxDepth + 1] = {};
  int pv_len_[kMaxDepth + 2] = {};

  // Per search.
  uint64_t nodes_ = 0, leaves_ = 0, tt_hits_ = 0;
  int iteration_ = 0;
  bool stop_ = false;
  bool depth_limited_ = false;  // the iteration met the horizon (or a table value): go deeper
  Deadline deadline_;
};

// Expectimax as a self-play engine: it decides inside begin() and never asks for rollouts. The
// table lives across the moves of a game and is cleared by new_game(). A forced move is played
// without search.
class ExpectimaxEngine final : public Engine<EwnGame> {
 public:
  ExpectimaxEngine(eval::Weights weights, const ewn::Rules& rules,
                   const ExpectimaxOptions& options);

  std::string describe() const override;
  void new_game() override { search_.clear(); }
  void begin(const ewn::State& root, const SearchIds& ids) override;
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  // stats: value = 0.5 + 0.5 * value / W (1 a sure win, 0 a sure loss), tree_nodes = nodes
  // (saturated), leaves = evaluations, visits and rollouts 0.
  ewn::Move decision(MoveStats* stats) override;
  void observe(ewn::Move, const ewn::State&) override {}

  // Verbose statistics of the last decision (depth 0 for a forced move).
  const ExpectimaxStats& last_stats() const { return stats_; }

 private:
  ewn::Rules rules_;
  Expectimax search_;
  ExpectimaxStats stats_;
};

}  // namespace sp::search
