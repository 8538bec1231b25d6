// Expectiminimax for games with chance (ChanceGame) with a linear evaluation (FeatureGame,
// host/engines/eval): decision nodes take the best move for the side to move, chance nodes the
// average over the chance outcomes, and the horizon is scored by eval::evaluate from the side to
// move's view. Values are negamax: always for the side to move at the node.
//
// Depth counts decision plies: depth 1 scores every legal move by the evaluation after it. The
// outcomes of a chance node are grouped by G::chance_classes (outcomes that allow the same moves
// share one subtree, weighted by how many outcomes they stand for).
//
// Value bounds. Features are bounded (G::feature_max()), weights are at most eval::kMaxWeight, so
// every evaluation lies in [-V, V] with V = eval::evaluation_bound<G>(weights). A won position is
// +W, a lost one -W (a draw 0), with W the smallest power of two above V (win_score()): beyond any
// evaluation, so a sure win is always preferred, and a power of two so that averaging wins gives
// exactly W again (a proven result is recognised exactly). Every node value lies in [L, U] =
// [-W, W], and Star1 (Ballard 1983) prunes chance nodes with exactly these bounds; decision nodes
// use fail-soft alpha-beta with the windows Star1 passes down. V sums the largest value of every
// feature, so it is loose (EWN survival-distance: V = 5136, W = 8192, typical values a few
// hundred): Star1 cut a fifth of the nodes on random EWN mid-game positions at depth 4-5, under a
// tenth from the start position. Without Star1 chance nodes search every class with a full window,
// which makes the whole search plain expectimax (nothing for alpha-beta to cut).
//
// Transposition table: keys from the game's hash hook (game_hooks.hpp; EWN: Zobrist keys over
// cubes, side to move and die, 0 for a chance node). A decision node's outcome is always the
// representative (smallest outcome) of its class: chance nodes set it so, and the root is
// canonicalised the same way, so outcomes that allow the same moves share an entry. Entries keep
// depth, value, bound (exact / lower / upper, from the fail-soft windows) and the best move. A
// value is reused only at the SAME remaining depth: a deeper result would change the value of a
// fixed-depth search (and with chance nodes would mix horizons inside one average), so other
// entries only order moves (the table's move first, then by history where the game has the
// move_index hook). Chance sums are kept in outcome counts in both modes, so with the table and
// Star1 off or on the root value equals a plain fixed-depth expectimax up to rounding (tests:
// within 1e-9).
//
// Determinism: with time_ms == 0 the search is a function of the root and the table contents,
// which depend only on the searches since the last clear(); no clock reading changes a result.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/game.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/engine.hpp"
#include "host/engines/search/game_hooks.hpp"
#include "host/engines/search/tt.hpp"

namespace sp::search {

// What expectimax needs from a game: chance outcomes and evaluation features.
template <class G>
concept ExpectimaxGame = ChanceGame<G> && FeatureGame<G>;

struct ExpectimaxOptions {
  int depth = 4;             // decision plies, 1..kMaxDepth; 0 = up to kMaxDepth within time_ms
  uint32_t time_ms = 0;      // wall-clock budget per move; 0 = none (then depth must be set)
  uint32_t tt_size_mb = 16;  // transposition table size, 1..65536 MiB, allocated at first search
  bool use_tt = true;
  bool use_star1 = true;    // Star1 pruning at chance nodes (alpha-beta windows)
  bool use_history = true;  // history-heuristic move ordering (after the table's best move)
};

// One ply of a principal line: the chance outcome drawn (0-based, as G::set_chance takes it), then
// the move played.
template <class Move>
struct ExpectimaxPly {
  int outcome = 0;
  Move move{};
  bool operator==(const ExpectimaxPly&) const = default;
};

// Statistics of one move decision (search()); the last completed iteration counts.
template <class Move>
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
  Move best{};
  // Principal line: the root's outcome and move, then for each chance node the most likely class
  // (its representative outcome) and that node's best move. It may end early at a table hit.
  std::vector<ExpectimaxPly<Move>> line;
};

// "depth 4 nodes 1234 nps 2.1M value 123.4 line 3:b4-c3 5:d2-c1" on one line; ply_text(ply) gives
// the text of each ply of the line (EWN: the die, then the move, as in "3:b4-c3").
template <class Move, class PlyText>
std::string to_string(const ExpectimaxStats<Move>& st, PlyText&& ply_text) {
  char head[160];
  std::snprintf(head, sizeof head, "depth %d nodes %llu nps %.3gM value %.6g%s%s", st.depth,
                static_cast<unsigned long long>(st.nodes), st.nodes_per_second / 1e6, st.value,
                st.proven ? " (proven)" : "", st.stopped ? " (time)" : "");
  std::string out = head;
  out += " line";
  for (const ExpectimaxPly<Move>& p : st.line) out += " " + std::string(ply_text(p));
  return out;
}

namespace expectimax_detail {

// The outcome drawn at decision state s: the k for which set_chance(s, k) leaves s as it is.
template <ChanceGame G>
int outcome_of(const typename G::State& s) {
  for (int k = 0; k < G::kChanceOutcomes; ++k) {
    typename G::State t = s;
    G::set_chance(t, k);
    if (std::memcmp(&t, &s, sizeof t) == 0) return k;
  }
  assert(false && "a decision state has one of the game's outcomes");
  return 0;
}

template <class G>
constexpr int history_size() {
  if constexpr (hooks::HasMoveIndex<G>)
    return G::kMoveIndices;
  else
    return 1;
}

}  // namespace expectimax_detail

template <ExpectimaxGame G>
class Expectimax {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using MoveList = typename G::MoveList;
  using Rules = typename G::Rules;
  using Stats = ExpectimaxStats<Move>;

  static constexpr int kMaxDepth = 64;

  // Throws std::invalid_argument for options out of range or weights of the wrong size.
  Expectimax(eval::Weights weights, const Rules& rules, const ExpectimaxOptions& options)
      : weights_(std::move(weights)), rules_(rules), opt_(options) {
    if (weights_.w.size() != static_cast<size_t>(G::kNumFeatures))
      throw std::invalid_argument("expectimax: weights '" + weights_.name + "' have " +
                                  std::to_string(weights_.w.size()) + " entries, expected " +
                                  std::to_string(G::kNumFeatures));
    if (opt_.depth < 0 || opt_.depth > kMaxDepth)
      throw std::invalid_argument("expectimax: depth must be in [0, " + std::to_string(kMaxDepth) +
                                  "], got " + std::to_string(opt_.depth));
    if (opt_.depth == 0 && opt_.time_ms == 0)
      throw std::invalid_argument("expectimax: set a depth, a time limit or both");
    if (opt_.use_tt && (opt_.tt_size_mb < 1 || opt_.tt_size_mb > 65536))
      throw std::invalid_argument("expectimax: tt_size_mb must be in [1, 65536], got " +
                                  std::to_string(opt_.tt_size_mb));
    // A power of two: sums of +-W over outcome counts divide back to exactly +-W, so a proven
    // result is recognised exactly.
    const double bound = eval::evaluation_bound<G>(weights_);
    while (win_ <= bound) win_ *= 2;
    // Allocated with the engine, not at its first search, so that a table too large for memory
    // fails before a campaign creates its file.
    if (opt_.use_tt) table_.allocate(opt_.tt_size_mb);
  }

  // Searches root (outcome drawn, game not over) by iterative deepening to options.depth, or until
  // time_ms runs out (depth 1 always completes), a result is proven or the tree is exhausted.
  Stats search(const State& root_in) {
    assert(!G::is_over(root_in) && !G::needs_chance(root_in));
    for (auto& side : history_) std::fill(std::begin(side), std::end(side), 0);
    deadline_.start(opt_.time_ms);
    nodes_ = leaves_ = tt_hits_ = 0;
    stop_ = false;

    const State root = canonical(root_in);
    const int root_outcome = expectimax_detail::outcome_of<G>(root_in);
    Stats st;
    const int max_depth = opt_.depth > 0 ? opt_.depth : kMaxDepth;
    for (int d = 1; d <= max_depth; ++d) {
      iteration_ = d;
      depth_limited_ = false;
      const double v = decision(root, d, -kInf, kInf, 0);
      if (stop_) {
        st.stopped = true;
        break;
      }
      st.depth = d;
      st.value = v;
      st.proven = std::abs(v) >= win_;
      assert(pv_len_[0] >= 1);
      st.best = pv_[0][0].move;
      st.line.clear();
      for (int i = 0; i < pv_len_[0]; ++i)
        st.line.push_back({i == 0 ? root_outcome : pv_[0][i].outcome, pv_[0][i].move});
      if (st.proven || !depth_limited_) break;  // deeper iterations cannot change anything
      if (deadline_.half_spent()) break;        // the next iteration could not finish
    }
    st.nodes = nodes_;
    st.leaves = leaves_;
    st.tt_hits = tt_hits_;
    st.seconds = deadline_.seconds();
    st.nodes_per_second = st.seconds > 0 ? static_cast<double>(st.nodes) / st.seconds : 0;
    return st;
  }

  // Forgets the transposition table (history is reset by every search anyway).
  void clear() { table_.clear(); }

  double win_score() const { return win_; }
  const eval::Weights& weights() const { return weights_; }
  const ExpectimaxOptions& options() const { return opt_; }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr int kHistorySize = expectimax_detail::history_size<G>();

  // A ply of the principal line as the search keeps it; decision() leaves the outcome to the
  // chance node above (or search() at the root), which knows it.
  struct PlyMove {
    uint8_t outcome = 0;
    Move move{};
  };
  static_assert(G::kChanceOutcomes <= 256, "PlyMove keeps an outcome in a byte");

  // s with its outcome replaced by the representative (smallest outcome) of its class, as chance
  // nodes draw them: outcomes that allow the same moves are one position for the table.
  State canonical(const State& s) const {
    for (int k = 0; k < G::kChanceOutcomes; ++k) {
      State t = s;
      G::set_chance(t, k);
      if (G::same_class(s, t, rules_)) return t;
    }
    return s;
  }

  // The table's move first, then by history score; ties keep generation order.
  void order(MoveList& moves, const Move* tt_move, int side) const {
    int first = 0;
    if (tt_move) {
      for (int i = 0; i < moves.size; ++i)
        if (moves.moves[i] == *tt_move) {
          std::rotate(moves.moves, moves.moves + i, moves.moves + i + 1);
          first = 1;
          break;
        }
    }
    if constexpr (hooks::HasMoveIndex<G>) {
      if (!opt_.use_history) return;
      // A stable insertion sort: the order any stable sort gives, without the temporary buffer
      // std::stable_sort allocates on every call.
      const uint64_t* h = history_[side];
      uint64_t score[G::kMaxMoves];
      for (int i = first; i < moves.size; ++i) {
        const Move m = moves.moves[i];
        const uint64_t v = h[G::move_index(m)];
        int j = i;
        for (; j > first && score[j - 1] < v; --j) {
          moves.moves[j] = moves.moves[j - 1];
          score[j] = score[j - 1];
        }
        moves.moves[j] = m;
        score[j] = v;
      }
    }
  }

  void tick() {
    ++nodes_;
    if (opt_.time_ms == 0 || iteration_ <= 1 || (nodes_ & 1023) != 0) return;
    if (deadline_.expired()) stop_ = true;
  }

  double decision(const State& s, int depth, double alpha, double beta, int ply) {
    assert(depth >= 1 && !G::is_over(s) && !G::needs_chance(s));
    tick();
    pv_len_[ply] = 0;
    if (stop_) return 0;
    uint64_t key = 0;
    const typename TranspositionTable<Move, double>::Entry* hit = nullptr;
    Move tt_move{};  // copied: deeper stores may reuse the slot
    if (opt_.use_tt) {
      key = hooks::key_of<G>(s);
      hit = table_.probe(key);
      if (hit) tt_move = hit->move;
      // Never at the root: the root must name its move and line.
      if (hit && ply > 0 && hit->depth == depth &&
          bound_settles(hit->bound, hit->value, alpha, beta)) {
        ++tt_hits_;
        depth_limited_ = true;  // the stored subtree may have met the horizon
        return hit->value;
      }
    }
    MoveList moves;
    G::generate_moves(s, rules_, moves);
    const int mover = G::side_to_move(s);
    order(moves, hit ? &tt_move : nullptr, mover);

    const double alpha0 = alpha;
    double best = -kInf;
    Move best_move = moves.moves[0];
    for (int i = 0; i < moves.size; ++i) {
      const Move m = moves.moves[i];
      State child = s;
      G::apply(child, m);
      double v;
      if (G::is_over(child)) {
        const int w = G::winner(child);
        v = w == mover ? win_ : (w == 0 || w == 1) ? -win_ : 0;
        pv_len_[ply + 1] = 0;
      } else {
        v = -chance(child, depth - 1, -beta, -alpha, ply + 1);
        if (stop_) return 0;
      }
      if (v <= best) continue;
      best = v;
      best_move = m;
      if (v > alpha) {
        alpha = v;
        pv_[ply][0] = PlyMove{0, m};
        std::copy(pv_[ply + 1], pv_[ply + 1] + pv_len_[ply + 1], pv_[ply] + 1);
        pv_len_[ply] = 1 + pv_len_[ply + 1];
      }
      if (v >= beta || v >= win_) break;  // a cutoff, or nothing can beat a sure win
    }
    if constexpr (hooks::HasMoveIndex<G>)
      if (opt_.use_history && best > alpha0)  // a cutoff or a new best line; not a fail low
        history_[mover][G::move_index(best_move)] += uint64_t(depth) * depth;
    if (opt_.use_tt) {
      // After a fail low every move is only bounded: keep the move the table had, if any.
      const Bound bound = best <= alpha0 ? Bound::kUpper
                          : best >= beta ? Bound::kLower
                                         : Bound::kExact;
      table_.store(key, depth, best, bound, bound == Bound::kUpper && hit ? tt_move : best_move);
    }
    return best;
  }

  double chance(const State& s, int depth, double alpha, double beta, int ply) {
    assert(!G::is_over(s) && G::needs_chance(s));
    tick();
    pv_len_[ply] = 0;
    if (stop_) return 0;
    if (depth == 0) {
      ++leaves_;
      depth_limited_ = true;
      return eval::evaluate<G>(weights_, s, rules_);
    }
    uint64_t key = 0;
    if (opt_.use_tt) {
      key = hooks::key_of<G>(s);
      const auto* hit = table_.probe(key);
      if (hit && hit->depth == depth && bound_settles(hit->bound, hit->value, alpha, beta)) {
        ++tt_hits_;
        depth_limited_ = true;
        return hit->value;
      }
    }
    int rep[G::kChanceOutcomes], weight[G::kChanceOutcomes];
    const int n = G::chance_classes(s, rules_, rep, weight);
    int principal = 0;  // the most likely class carries the line
    for (int k = 1; k < n; ++k)
      if (weight[k] > weight[principal]) principal = k;
    PlyMove line[kMaxDepth + 1];
    int line_len = 0;
    const auto keep_line = [&](int k) {
      if (k != principal) return;
      line_len = pv_len_[ply];
      std::copy(pv_[ply], pv_[ply] + line_len, line);
      if (line_len > 0) line[0].outcome = static_cast<uint8_t>(rep[k]);
    };

    double value = 0;
    Bound bound = Bound::kExact;
    if (!opt_.use_star1) {
      double sum = 0;
      for (int k = 0; k < n; ++k) {
        State child = s;
        G::set_chance(child, rep[k]);
        const double v = decision(child, depth, -kInf, kInf, ply);
        if (stop_) return 0;
        keep_line(k);
        sum += weight[k] * v;
      }
      value = sum / G::kChanceOutcomes;
    } else {
      // Star1 with node values in [L, U] = [-W, W]. Sums are kept in outcome counts (sum = the
      // counts times the values of the classes done, rest = the outcomes after class k) so that
      // exact results are computed exactly as above. The chance value (sum + w v + rest') / N
      // with rest' in [L rest, U rest] is <= alpha once v <= a and >= beta once v >= b, so class
      // k is searched in (a, b) clipped to [L, U].
      const double lo = -win_, hi = win_;
      if (alpha >= hi) return hi;  // nothing here can exceed alpha: an upper bound
      if (beta <= lo) return lo;
      constexpr double kOutcomes = G::kChanceOutcomes;
      double sum = 0;
      int rest = G::kChanceOutcomes;
      bool cut = false;
      for (int k = 0; k < n && !cut; ++k) {
        const double w = weight[k];
        rest -= weight[k];
        const double a = (kOutcomes * alpha - sum - hi * rest) / w;
        const double b = (kOutcomes * beta - sum - lo * rest) / w;
        State child = s;
        G::set_chance(child, rep[k]);
        const double v = decision(child, depth, std::max(a, lo), std::min(b, hi), ply);
        if (stop_) return 0;
        keep_line(k);
        // A bound is clamped to the window edge so that the caller, comparing with its own
        // window, never takes it for an exact value when rounding lands it just inside.
        cut = true;
        if (v <= a)
          value = std::min((sum + w * v + hi * rest) / kOutcomes, alpha), bound = Bound::kUpper;
        else if (v >= b)
          value = std::max((sum + w * v + lo * rest) / kOutcomes, beta), bound = Bound::kLower;
        else
          cut = false;
        sum += w * v;
      }
      if (!cut) value = sum / kOutcomes;
    }
    if (opt_.use_tt) table_.store(key, depth, value, bound, Move{});
    std::copy(line, line + line_len, pv_[ply]);
    pv_len_[ply] = line_len;
    return value;
  }

  eval::Weights weights_;
  Rules rules_;
  ExpectimaxOptions opt_;
  double win_ = 1;
  TranspositionTable<Move, double> table_;
  uint64_t history_[2][kHistorySize] = {};  // [side][G::move_index]
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
template <ExpectimaxGame G>
class ExpectimaxEngine final : public Engine<G> {
 public:
  using typename Engine<G>::State;
  using typename Engine<G>::Move;
  using typename Engine<G>::Leaf;
  using Search = Expectimax<G>;

  ExpectimaxEngine(eval::Weights weights, const typename G::Rules& rules,
                   const ExpectimaxOptions& options)
      : rules_(rules), search_(std::move(weights), rules, options) {}

  std::string describe() const override {
    const ExpectimaxOptions& o = search_.options();
    std::string out = "expectimax(" + search_.weights().name;
    if (o.depth > 0) out += ", depth " + std::to_string(o.depth);
    if (o.time_ms > 0) out += ", " + std::to_string(o.time_ms) + " ms";
    out += o.use_tt ? ", tt " + std::to_string(o.tt_size_mb) + " MiB" : ", no tt";
    if (o.use_star1) out += ", star1";
    if (o.use_history) out += ", history";
    return out + ")";
  }
  void new_game() override { search_.clear(); }
  void begin(const State& root, const SearchIds&) override {
    typename G::MoveList moves;
    G::generate_moves(root, rules_, moves);
    if (moves.size == 1) {
      stats_ = typename Search::Stats{};
      stats_.best = moves.moves[0];
      stats_.line = {{expectimax_detail::outcome_of<G>(root), moves.moves[0]}};
      return;
    }
    stats_ = search_.search(root);
  }
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  // stats: value = 0.5 + 0.5 * value / W (1 a sure win, 0 a sure loss), tree_nodes = nodes
  // (saturated), leaves = evaluations, visits and rollouts 0.
  Move decision(MoveStats* stats) override {
    if (stats) {
      *stats = MoveStats{};
      stats->value = static_cast<float>(0.5 + 0.5 * stats_.value / search_.win_score());
      stats->tree_nodes = static_cast<uint32_t>(std::min<uint64_t>(stats_.nodes, UINT32_MAX));
      stats->leaves = static_cast<uint32_t>(std::min<uint64_t>(stats_.leaves, UINT32_MAX));
    }
    return stats_.best;
  }
  // The last completed iteration's depth, value (evaluation units, +-W for a sure result), nodes
  // and principal line (each later ply after its chance node's most likely outcome).
  void report(SearchReport<Move>& out, uint32_t) const override {
    out.kind = SearchKind::kExpectimax;
    out.depth = stats_.depth;
    out.score = stats_.value;
    out.nodes = stats_.nodes;
    for (size_t i = 0; i < stats_.line.size(); ++i)
      out.pv.push_back({i == 0 ? -1 : stats_.line[i].outcome, stats_.line[i].move});
    if (out.pv.empty()) out.pv.push_back({-1, stats_.best});
  }
  void observe(Move, const State&) override {}

  // Verbose statistics of the last decision (depth 0 for a forced move).
  const typename Search::Stats& last_stats() const { return stats_; }

 private:
  typename G::Rules rules_;
  Search search_;
  typename Search::Stats stats_;
};

}  // namespace sp::search
