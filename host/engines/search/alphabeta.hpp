// Negamax alpha-beta for deterministic games over an evaluation passed in: iterative deepening, a
// Zobrist transposition table (tt.hpp), move ordering (the table's move, then the game's tactical
// moves where it has the hook, then killer moves, then history), principal variation search, and a
// depth or time limit (deadline.hpp). Games with chance use expectimax instead.
//
// Scores are integers for the side to move. The evaluation scores positions at the horizon and is
// clamped to [-kMaxEval, kMaxEval]. A game that ends scores exactly: 0 for a draw, kWin - p for a
// win p plies from the root and -(kWin - p) for a loss, so faster wins and slower losses are
// preferred and every such score lies beyond any evaluation (|score| >= kProven).
//
// Hooks a game may offer (game_hooks.hpp): hash (the table's key), is_tactical (ordered right
// after the table's move), move_index (history ordering), candidate_moves (the moves searched,
// instead of every legal move), is_quiet (quiescence: a horizon position that is not quiet is
// searched a ply further, checkers' forced captures) and forced_win (a threat search). With
// threat_nodes set:
//   - the root is first searched (broad) for a forced win, which is played at once;
//   - each root move is searched (broad) for a forced win of the reply; such a move scores as the
//     loss it is, without a search (unless every move loses: then all are searched);
//   - every position at the horizon is searched (narrow) for a forced win of its side to move,
//     which scores as a win at its length.
//
// Endgame databases (optional, set_endgame). Below a root they do not cover, every position they
// cover scores at once, without search: a draw 0, a win kEndgameWin plus the evaluation (clamped
// to +-kMaxEval / 4, so that of two won positions the one the evaluation prefers is chosen) and a
// loss the negation of the opponent's such win; these scores lie beyond every evaluation and below
// every win the search proves by reaching the end. At a root they cover, the search keeps the root
// moves that preserve its best result (endgame_root.hpp) and searches them as usual, probing
// nothing: the databases know the result, not its distance, and the evaluation makes progress.
//
// Repetition (games with the rule, core/repetition.hpp): a move that completes the rule's
// count of a position, over the game's positions before the root (passed to search) and the
// search path, scores as a draw. The table keys do not carry the path, so a stored value may hold
// a repetition draw that another path to the same key would not meet (checkers' keys carry the
// ply and quiet counters, which narrows this to paths of equal length since the last capture or
// man move).
//
// Transposition table: a stored result settles a node searched to the same or a smaller remaining
// depth (win scores are stored relative to the node). The root never takes a stored value. From a
// cleared table, a fixed-depth search returns the fixed-depth negamax value (tests: brute force)
// whenever no position is met at two different remaining depths; otherwise a deeper stored result
// may stand in for a shallower search, the usual trade of exactness for strength.
//
// Determinism: with time_ms == 0 a search is a function of the root and the table contents, which
// depend only on the searches since the last clear(); killers and history start empty in every
// search.
//
// The clock (time_ms): every part of a search polls it, the threat searches included (through
// their StopCheck, every few dozen nodes) and the first iteration too. When time runs out before
// the first iteration has scored every root move, the move is the best root move scored so far,
// else the first in search order that does not lose to a known forced win.
#pragma once

#include <algorithm>
#include <cassert>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/endgame.hpp"
#include "core/game.hpp"
#include "core/philox.hpp"
#include "core/repetition.hpp"
#include "core/stop.hpp"
#include "host/engines/search/endgame_root.hpp"
#include "host/engines/search/engine.hpp"
#include "host/engines/search/game_hooks.hpp"
#include "host/engines/search/tt.hpp"

namespace sp::search {

struct AlphaBetaOptions {
  int depth = 0;             // plies, 1..kMaxDepth; 0 = as deep as time_ms allows (up to kMaxDepth)
  uint32_t time_ms = 0;      // wall-clock budget per move; 0 = none (then depth must be set)
  uint32_t tt_size_mb = 16;  // transposition table, 1..65536 MiB, allocated at the first search
  bool use_tt = true;
  bool use_pvs = true;  // null-window searches after the first move (principal variation search)
  bool use_killers = true;  // two killer moves per ply
  bool use_history = true;  // history ordering (games with the move_index hook)
  // Games with the is_quiet hook: a horizon position that is not quiet is searched one ply
  // further, and so on until a quiet one (or kMaxDepth plies from the root): checkers' capture
  // sequences, all forced, are played out before the evaluation scores the position.
  bool quiescence = true;
  // Games with the forced_win hook: nodes of the threat search at each horizon position, 0 = off;
  // the root's search gets kRootThreatFactor times as many, each root move's reply
  // kReplyThreatFactor times.
  uint32_t threat_nodes = 0;
  static constexpr uint32_t kRootThreatFactor = 1024;
  static constexpr uint32_t kReplyThreatFactor = 32;
  // Late-move reductions: at a node with at least kLmrDepth plies to go, a move searched after the
  // first kLmrMoves (in order: the table's move, tactical moves, killers, history) that is not
  // tactical, not a killer and leaves a quiet position (games with the is_quiet hook) is searched
  // first with a null window kLmrReduction plies shallower (one more from move kLmrLateMoves on at
  // kLmrDeepDepth plies to go); only when that beats alpha is it searched again at full depth.
  bool lmr = false;
  static constexpr int kLmrDepth = 3, kLmrMoves = 3, kLmrReduction = 1;
  static constexpr int kLmrLateMoves = 8, kLmrDeepDepth = 6;
  // Forced-move extension: a node with a single move searched (checkers: most often a forced
  // capture) does not count a ply, while it lies less than twice the iteration's depth from the
  // root and the search stays within kMaxDepth plies.
  bool forced_extension = false;
  // Time management (with time_ms): a move found better in the iteration that time cut short is
  // played (that iteration searches the last one's best move first, so it was beaten at the
  // greater depth), and iterations go on past half the budget while the root is unstable (the
  // best move changed in one of the last two iterations); without it, the last completed
  // iteration's move is played and no iteration starts past half the budget.
  bool time_management = false;
};

// Statistics of one search; the last completed iteration counts.
template <class Move>
struct AlphaBetaStats {
  int depth = 0;         // deepest completed iteration
  uint64_t nodes = 0;    // all iterations, horizon and terminal nodes included
  uint64_t leaves = 0;   // positions scored by the evaluation
  uint64_t tt_hits = 0;  // nodes settled by the transposition table
  double seconds = 0;
  double nodes_per_second = 0;
  uint64_t endgame_hits = 0;  // positions scored by the endgame databases
  int seldepth = 0;           // the deepest ply searched (extensions and quiescence included)
  int32_t value = 0;          // root value for the side to move
  bool proven = false;        // the value is a game result (|value| >= kProven)
  bool stopped = false;       // the time limit cut an iteration short (its result is dropped unless
                              // `partial`; depth 0: the first one, and best is the best root move
                              // scored before)
  bool partial = false;       // time management: best, value and line come from the iteration that
                              // time cut short (depth + 1), which had found a better move
  Move best{};
  std::vector<Move> line;  // principal variation, starting with best; may end early at a table hit
};

template <DeterministicGame G>
class AlphaBeta {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using MoveList = typename G::MoveList;
  using Rules = typename G::Rules;
  using Score = int32_t;
  // Score of a position for its side to move; deterministic.
  using Evaluator = std::function<Score(const State&)>;
  using Stats = AlphaBetaStats<Move>;

  static constexpr int kMaxDepth = 64;
  static constexpr Score kWin = 1 << 24;
  static constexpr Score kProven = kWin - kMaxDepth - 1;
  static constexpr Score kMaxEval = kWin / 2;
  static constexpr Score kEndgameWin = kMaxEval + kMaxEval / 2;

  // Throws std::invalid_argument for options out of range or a missing evaluation.
  AlphaBeta(Evaluator evaluate, const Rules& rules, const AlphaBetaOptions& options)
      : evaluate_(std::move(evaluate)), rules_(rules), opt_(options) {
    if (!evaluate_) throw std::invalid_argument("alphabeta: an evaluation is required");
    if (opt_.depth < 0 || opt_.depth > kMaxDepth)
      throw std::invalid_argument("alphabeta: depth must be in [0, " + std::to_string(kMaxDepth) +
                                  "], got " + std::to_string(opt_.depth));
    if (opt_.depth == 0 && opt_.time_ms == 0)
      throw std::invalid_argument("alphabeta: set a depth, a time limit or both");
    if (opt_.use_tt && (opt_.tt_size_mb < 1 || opt_.tt_size_mb > 65536))
      throw std::invalid_argument("alphabeta: tt_size_mb must be in [1, 65536], got " +
                                  std::to_string(opt_.tt_size_mb));
    if constexpr (hooks::HasMoveIndex<G>) history_.assign(2 * G::kMoveIndices, 0);
  }

  // Searches root (game not over) by iterative deepening to options.depth, or until time_ms runs
  // out (depth 1 always completes), a result is proven or the whole game tree has been seen.
  // game_positions: the game's positions since its last irreversible move, oldest first, ending
  // with root (PositionHistory::positions); empty when they are not known. The repetition rule
  // counts them.
  Stats search(const State& root, std::span<const State> game_positions = {}) {
    assert(!G::is_over(root));
    // The clock starts first: the first search's table allocation (zeroing up to GiBs) is part of
    // the move's time.
    deadline_.start(opt_.time_ms);
    before_root_ =
        game_positions.empty() ? game_positions : game_positions.first(game_positions.size() - 1);
    repetition_limit_ = repetition_limit<G>(rules_);
    if (opt_.use_tt && !table_.allocated()) table_.allocate(opt_.tt_size_mb);
    std::fill(history_.begin(), history_.end(), 0);
    for (auto& k : killers_) k[0].set = k[1].set = false;
    nodes_ = leaves_ = tt_hits_ = endgame_hits_ = 0;
    seldepth_ = 0;
    next_poll_ = kPollNodes;
    stop_ = false;

    Stats st;
    root_losses_.clear();
    root_moves_.size = 0;
    probe_below_ = endgame_ != nullptr;
    if (endgame_) {
      MoveList kept;
      hooks::searched_moves<G>(root, rules_, kept);
      if (keep_endgame_moves<G>(*endgame_, root, kept)) {
        root_moves_ = kept;
        probe_below_ = false;
      }
      // The table's values from searches that probed below hold the databases' scores, which
      // would settle this search's nodes as equal wins: the first covered root starts afresh.
      if (!probe_below_ && probed_last_ && opt_.use_tt) table_.clear();
      probed_last_ = probe_below_;
    }
    if constexpr (hooks::HasForcedWin<G>) {
      if (opt_.threat_nodes > 0) {
        Move first{};
        const int plies =
            G::forced_win(root, opt_.threat_nodes * AlphaBetaOptions::kRootThreatFactor, kMaxDepth,
                          true, &first, clock_stop());
        if (plies > 0) {
          st.depth = plies;
          st.value = kWin - plies;
          st.proven = true;
          st.best = first;
          st.line.assign(1, first);
          st.seconds = deadline_.seconds();
          return st;
        }
        // The root moves after which the opponent has a forced win: scored, never searched.
        MoveList moves;
        hooks::searched_moves<G>(root, rules_, moves);
        for (int i = 0; i < moves.size && !stop_; ++i) {
          if (deadline_.half_spent()) break;  // leave the search its time
          State child = root;
          G::apply(child, moves.moves[i]);
          if (G::is_over(child)) continue;
          const int reply =
              G::forced_win(child, opt_.threat_nodes * AlphaBetaOptions::kReplyThreatFactor,
                            kMaxDepth - 1, true, nullptr, clock_stop());
          if (reply > 0 && !stop_) root_losses_.push_back(RootLoss{moves.moves[i], reply});
        }
        // When every move loses, search them all: the opponent may not find its win.
        if (static_cast<int>(root_losses_.size()) == moves.size) root_losses_.clear();
      }
    }
    const int max_depth = opt_.depth > 0 ? opt_.depth : kMaxDepth;
    root_scored_ = false;
    int changed_at = 0;  // the last iteration whose best move differed from the one before
    for (int d = 1; d <= max_depth && !stop_; ++d) {
      iteration_ = d;
      depth_limited_ = false;
      iteration_scored_ = false;
      const Score v = negamax(root, d, -kInf, kInf, 0);
      if (stop_) {
        // The cut iteration searched the last best move first: a move that scored above it there
        // is the better move at the greater depth.
        if (opt_.time_management && iteration_scored_ && st.depth > 0 && pv_len_[0] >= 1 &&
            iteration_first_ == st.best && !(pv_[0][0] == st.best)) {
          st.partial = true;
          st.value = iteration_value_;
          st.proven = iteration_value_ >= kProven || iteration_value_ <= -kProven;
          st.best = pv_[0][0];
          st.line.assign(pv_[0], pv_[0] + pv_len_[0]);
        }
        break;
      }
      assert(pv_len_[0] >= 1);
      if (d > 1 && !(pv_[0][0] == st.best)) changed_at = d;
      st.depth = d;
      st.value = v;
      st.proven = v >= kProven || v <= -kProven;
      st.best = pv_[0][0];
      st.line.assign(pv_[0], pv_[0] + pv_len_[0]);
      if (st.proven || !depth_limited_) break;  // deeper iterations cannot change anything
      // The next iteration could not finish; with time management an unstable root goes on, as a
      // better move found before the end is played.
      const bool unstable = opt_.time_management && changed_at > 0 && d - changed_at < 2;
      if (unstable ? deadline_.expired() : deadline_.half_spent()) break;
    }
    if (stop_) {
      st.stopped = true;
      if (st.depth == 0) {
        st.best = fallback(root);
        st.line.assign(1, st.best);
      }
    }
    st.nodes = nodes_;
    st.leaves = leaves_;
    st.tt_hits = tt_hits_;
    st.endgame_hits = endgame_hits_;
    st.seldepth = seldepth_;
    st.seconds = deadline_.seconds();
    st.nodes_per_second = st.seconds > 0 ? static_cast<double>(st.nodes) / st.seconds : 0;
    return st;
  }

  // Forgets the transposition table; allocates it when no search has yet, so that a new game's
  // first search does not spend its time on it.
  void clear() {
    if (opt_.use_tt && !table_.allocated())
      table_.allocate(opt_.tt_size_mb);
    else
      table_.clear();
  }

  const AlphaBetaOptions& options() const { return opt_; }
  // The time limit of the following searches (AlphaBetaOptions::time_ms). Precondition: ms > 0
  // or a depth is set.
  void set_time_ms(uint32_t ms) {
    assert(ms > 0 || opt_.depth > 0);
    opt_.time_ms = ms;
  }

  // Endgame databases that score the positions they cover (null: none).
  void set_endgame(std::shared_ptr<const EndgameProbe<State>> tables) {
    endgame_ = std::move(tables);
  }
  bool has_endgame() const { return endgame_ != nullptr; }

  // The clock the time limit reads (tests inject one; nullptr: steady_clock).
  void set_clock(Deadline::Now now) { deadline_.set_clock(std::move(now)); }
  // A flag that ends the following searches at once when set (Deadline::set_interrupt).
  void set_interrupt(const std::atomic<bool>* flag) { deadline_.set_interrupt(flag); }

 private:
  static constexpr Score kInf = kWin + 1;
  // A few ms at most even for wide games with costly evaluations and threat searches (Gomoku).
  static constexpr uint64_t kPollNodes = 256;
  struct Killer {
    Move move{};
    bool set = false;
  };

  // Win scores relative to the node in the table, relative to the root in the search.
  static Score to_table(Score v, int ply) {
    return v >= kProven ? v + ply : v <= -kProven ? v - ply : v;
  }
  static Score from_table(Score v, int ply) {
    return v >= kProven ? v - ply : v <= -kProven ? v + ply : v;
  }

  // Counts a node and polls the clock every kPollNodes nodes. Leaves and terminal children count
  // nodes without a tick, so the poll is due by a count, not by a multiple of it (a multiple can
  // be stepped over for thousands of nodes).
  void tick() {
    ++nodes_;
    if (!deadline_.polled() || nodes_ < next_poll_) return;
    next_poll_ = nodes_ + kPollNodes;
    if (deadline_.expired()) stop_ = true;
  }

  // The clock as the threat searches ask it: it sets stop_ when time is out. No budget (and no
  // interrupt): none.
  StopCheck clock_stop() {
    if (!deadline_.polled()) return {};
    return StopCheck{[](void* self) {
                       AlphaBeta& search = *static_cast<AlphaBeta*>(self);
                       if (!search.stop_ && search.deadline_.expired()) search.stop_ = true;
                       return search.stop_;
                     },
                     this};
  }

  // The move of a search stopped before its first iteration scored every root move: the best
  // root move scored, else the first in search order that no known forced win refutes.
  Move fallback(const State& root) const {
    if (root_scored_) return root_best_;
    MoveList moves;
    root_or_searched_moves(root, 0, moves);
    order(moves, root, nullptr, 0);
    for (int i = 0; i < moves.size; ++i)
      if (root_loss(moves.moves[i]) == 0) return moves.moves[i];
    return moves.moves[0];
  }

  // The table's move first, then tactical moves, killers, and the rest by history; ties keep
  // generation order.
  void order(MoveList& list, const State& s, const Move* tt_move, int ply) const {
    struct Keyed {
      uint64_t key;
      Move move;
    };
    constexpr uint64_t kTable = uint64_t{1} << 62, kTactical = uint64_t{1} << 61,
                       kKiller = uint64_t{1} << 60;
    Keyed keyed[G::kMaxMoves];
    for (int i = 0; i < list.size; ++i) {
      const Move m = list.moves[i];
      uint64_t key = 0;
      if (tt_move && m == *tt_move) {
        key = kTable;
      } else if (is_tactical(s, m)) {
        key = kTactical;
      } else if (opt_.use_killers && ply <= kMaxDepth &&
                 ((killers_[ply][0].set && killers_[ply][0].move == m) ||
                  (killers_[ply][1].set && killers_[ply][1].move == m))) {
        key = kKiller + (killers_[ply][0].set && killers_[ply][0].move == m ? 1 : 0);
      } else if constexpr (hooks::HasMoveIndex<G>) {
        if (opt_.use_history) key = std::min(history_[history_index(s, m)], kKiller - 1);
      }
      keyed[i] = Keyed{key, m};
    }
    std::stable_sort(keyed, keyed + list.size,
                     [](const Keyed& a, const Keyed& b) { return a.key > b.key; });
    for (int i = 0; i < list.size; ++i) list.moves[i] = keyed[i].move;
  }

  static bool is_tactical(const State& s, Move m) {
    if constexpr (hooks::HasTactical<G>)
      return G::is_tactical(s, m);
    else
      return false;
  }

  static size_t history_index(const State& s, Move m) {
    if constexpr (hooks::HasMoveIndex<G>)
      return static_cast<size_t>(G::side_to_move(s)) * G::kMoveIndices + G::move_index(m);
    else
      return 0;
  }

  // The plies of a forced win of the side to move in s, a position at the horizon `ply` plies
  // from the root, found by the game's threat search (0: none, or no such search); short enough
  // that its score stays a proven one.
  int threat_at_horizon(const State& s, int ply) {
    if constexpr (hooks::HasForcedWin<G>) {
      if (opt_.threat_nodes == 0 || ply >= kMaxDepth) return 0;
      return G::forced_win(s, opt_.threat_nodes, kMaxDepth - ply, false, nullptr, clock_stop());
    } else {
      (void)s;
      (void)ply;
      return 0;
    }
  }

  // The plies of the opponent's forced win after root move m, 0 for none found.
  int root_loss(Move m) const {
    for (const RootLoss& l : root_losses_)
      if (l.move == m) return l.plies;
    return 0;
  }

  // A quiet move that refuted the node: remembered as a killer at this ply and in the history.
  void reward(const State& s, Move m, int depth, int ply) {
    if (is_tactical(s, m)) return;
    if (opt_.use_killers && ply <= kMaxDepth &&
        !(killers_[ply][0].set && killers_[ply][0].move == m)) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = Killer{m, true};
    }
    if (opt_.use_history && !history_.empty())
      history_[history_index(s, m)] += uint64_t(depth) * depth;
  }

  // True when child, the position after a move at ply `ply` (whose position is path_[ply]),
  // occurs for the repetition_limit-th time counting the game's history and the search path.
  bool repeats(const State& child, int ply) const {
    if constexpr (RepetitionGame<G>) {
      if (repetition_limit_ <= 0) return false;
      const int reversible = G::reversible_plies(child);
      int seen = 1;
      // Positions with the same side to move lie an even number of plies back, and none before
      // the last irreversible move.
      for (int back = 2; back <= reversible; back += 2) {
        const int at = ply + 1 - back;  // index on the path; negative: before the root
        const State* p = nullptr;
        if (at >= 0) {
          p = &path_[at];
        } else {
          const auto before = static_cast<std::ptrdiff_t>(before_root_.size()) + at;
          if (before < 0) break;
          p = &before_root_[static_cast<size_t>(before)];
        }
        if (G::same_position(*p, child) && ++seen >= repetition_limit_) return true;
      }
    }
    return false;
  }

  // The moves searched at s: at the root, those the endgame databases keep when they cover it.
  void root_or_searched_moves(const State& s, int ply, MoveList& moves) const {
    if (ply == 0 && root_moves_.size > 0) {
      moves = root_moves_;
      return;
    }
    hooks::searched_moves<G>(s, rules_, moves);
  }

  // The databases' score of s for its side to move; false when they do not cover it or the
  // root is covered (probe_below_).
  bool endgame_score(const State& s, Score* out) {
    if (!probe_below_ || endgame_->pieces(s) > endgame_->max_pieces()) return false;
    const EndgameValue v = endgame_->probe(s);
    if (v == EndgameValue::kUnknown) return false;
    ++endgame_hits_;
    if (v == EndgameValue::kDraw) {
      *out = 0;
      return true;
    }
    const Score progress = std::clamp<Score>(evaluate_(s), -kMaxEval / 4, kMaxEval / 4);
    *out = v == EndgameValue::kWin ? kEndgameWin + progress : -kEndgameWin + progress;
    return true;
  }

  // The plies by which move m (the i-th in search order at s, depth plies to go), leading to child,
  // is searched shallower first: late-move reductions (AlphaBetaOptions::lmr).
  int reduction(const State& s, Move m, const State& child, int depth, int i, int ply) const {
    using O = AlphaBetaOptions;
    if (!opt_.lmr || depth < O::kLmrDepth || i < O::kLmrMoves || is_tactical(s, m)) return 0;
    if (opt_.use_killers && ply <= kMaxDepth &&
        ((killers_[ply][0].set && killers_[ply][0].move == m) ||
         (killers_[ply][1].set && killers_[ply][1].move == m)))
      return 0;
    if constexpr (hooks::HasQuiet<G>)
      if (!G::is_quiet(child)) return 0;  // the reply is forced (checkers: a capture)
    (void)child;
    return O::kLmrReduction + (i >= O::kLmrLateMoves && depth >= O::kLmrDeepDepth ? 1 : 0);
  }

  // Whether the horizon position s, ply plies from the root, is searched a ply further instead of
  // scored (quiescence).
  bool extends(const State& s, int ply) const {
    if constexpr (hooks::HasQuiet<G>)
      return opt_.quiescence && ply < kMaxDepth && !G::is_quiet(s);
    else
      return false;
  }

  Score negamax(const State& s, int depth, Score alpha, Score beta, int ply) {
    assert(depth >= 1 && !G::is_over(s) && ply + depth <= kMaxDepth);
    tick();
    seldepth_ = std::max(seldepth_, ply);
    pv_len_[ply] = 0;
    if constexpr (RepetitionGame<G>) path_[ply] = s;
    if (stop_) return 0;
    uint64_t key = 0;
    const typename TranspositionTable<Move, Score>::Entry* hit = nullptr;
    Move tt_move{};  // copied: deeper stores may reuse the slot
    if (opt_.use_tt) {
      key = hooks::key_of<G>(s);
      hit = table_.probe(key);
      if (hit) {
        tt_move = hit->move;
        const Score v = from_table(hit->value, ply);
        if (ply > 0 && hit->depth >= depth && bound_settles(hit->bound, v, alpha, beta)) {
          ++tt_hits_;
          depth_limited_ = true;  // the stored subtree may have met the horizon
          return v;
        }
      }
    }
    MoveList moves;
    root_or_searched_moves(s, ply, moves);
    order(moves, s, hit ? &tt_move : nullptr, ply);
    if (ply == 0) iteration_first_ = moves.moves[0];
    // The forced-move extension: this node's single move does not count a ply. Every search keeps
    // ply + depth <= kMaxDepth (the arrays by ply have kMaxDepth + 1 rows); an extension too.
    if (opt_.forced_extension && moves.size == 1 && ply < 2 * iteration_ && ply + depth < kMaxDepth)
      ++depth;

    const int mover = G::side_to_move(s);
    const Score alpha0 = alpha;
    Score best = -kInf;
    Move best_move = moves.moves[0];
    for (int i = 0; i < moves.size; ++i) {
      const Move m = moves.moves[i];
      State child = s;
      G::apply(child, m);
      Score v;
      const int loss = ply == 0 ? root_loss(m) : 0;
      if (loss > 0) {
        ++nodes_;
        v = -(kWin - (1 + loss));
        pv_len_[ply + 1] = 0;
      } else if (G::is_over(child)) {
        ++nodes_;
        const int w = G::winner(child);
        v = w == mover ? kWin - (ply + 1) : (w == 0 || w == 1) ? -(kWin - (ply + 1)) : 0;
        pv_len_[ply + 1] = 0;
      } else if (repeats(child, ply)) {
        ++nodes_;
        v = 0;
        pv_len_[ply + 1] = 0;
      } else if (Score known; endgame_score(child, &known)) {
        ++nodes_;
        v = -known;
        pv_len_[ply + 1] = 0;
      } else if (depth == 1 && !extends(child, ply + 1)) {
        tick();  // a leaf costs an evaluation and a threat search: it polls too
        if (stop_) return 0;
        ++leaves_;
        depth_limited_ = true;
        const int threat = threat_at_horizon(child, ply + 1);
        if (stop_) return 0;  // the threat search ran out of time: this move is not scored
        v = threat > 0 ? -(kWin - (ply + 1 + threat))
                       : -std::clamp<Score>(evaluate_(child), -kMaxEval, kMaxEval);
        pv_len_[ply + 1] = 0;
      } else {
        assert(G::side_to_move(child) != mover);     // negamax: the turn passes with every move
        const int next = depth > 1 ? depth - 1 : 1;  // 1: a quiescence ply past the horizon
        // A late move is searched shallower first, with a null window; refuted there, it stays
        // refuted, else it is searched as any other move.
        const int reduce = reduction(s, m, child, depth, i, ply);
        bool refuted = false;
        if (reduce > 0) {
          v = -negamax(child, next - reduce, -alpha - 1, -alpha, ply + 1);
          refuted = v <= alpha || stop_;
        }
        if (refuted) {
          // settled (or out of time: stop_ is checked below)
        } else if (i == 0 || !opt_.use_pvs) {
          v = -negamax(child, next, -beta, -alpha, ply + 1);
        } else {
          v = -negamax(child, next, -alpha - 1, -alpha, ply + 1);
          if (v > alpha && v < beta && !stop_) v = -negamax(child, next, -beta, -alpha, ply + 1);
        }
        if (stop_) return 0;
      }
      if (v <= best) continue;
      best = v;
      best_move = m;
      if (ply == 0 && iteration_ == 1) root_best_ = m, root_scored_ = true;
      if (v > alpha) {
        if (ply == 0) iteration_scored_ = true, iteration_value_ = v;
        alpha = v;
        pv_[ply][0] = m;
        std::copy(pv_[ply + 1], pv_[ply + 1] + pv_len_[ply + 1], pv_[ply] + 1);
        pv_len_[ply] = 1 + pv_len_[ply + 1];
      }
      if (v >= beta) {
        reward(s, m, depth, ply);
        break;
      }
    }
    if (opt_.use_tt) {
      // After a fail low every move is only bounded: keep the move the table had, if any.
      const Bound bound = best <= alpha0 ? Bound::kUpper
                          : best >= beta ? Bound::kLower
                                         : Bound::kExact;
      table_.store(key, depth, to_table(best, ply), bound,
                   bound == Bound::kUpper && hit ? tt_move : best_move);
    }
    return best;
  }

  Evaluator evaluate_;
  Rules rules_;
  AlphaBetaOptions opt_;
  std::shared_ptr<const EndgameProbe<State>> endgame_;  // null: no databases
  bool probe_below_ = false;  // per search: databases set and the root not covered
  bool probed_last_ = false;  // the last search probed below its root
  MoveList root_moves_;       // per search: the root moves the databases keep (size 0: all)
  TranspositionTable<Move, Score> table_;
  std::vector<uint64_t> history_;  // [side * kMoveIndices + move_index]
  Killer killers_[kMaxDepth + 1][2] = {};
  Move pv_[kMaxDepth + 2][kMaxDepth + 1] = {};
  int pv_len_[kMaxDepth + 2] = {};
  Deadline deadline_;
  // The repetition rule: positions on the search path by ply, and the game's before the root.
  State path_[RepetitionGame<G> ? kMaxDepth + 1 : 1] = {};
  std::span<const State> before_root_;
  // Root moves after which the opponent has a forced win (threat_nodes), and its length.
  struct RootLoss {
    Move move;
    int plies;
  };
  std::vector<RootLoss> root_losses_;
  int repetition_limit_ = 0;

  // Per search.
  uint64_t nodes_ = 0, leaves_ = 0, tt_hits_ = 0, endgame_hits_ = 0, next_poll_ = 0;
  int seldepth_ = 0;
  int iteration_ = 0;
  bool stop_ = false;
  Move root_best_{};  // the best root move the first iteration has scored, if root_scored_
  bool root_scored_ = false;
  // The iteration has scored a root move (fully: a search cut by time returns before it scores),
  // the best so far in pv_[0] with value iteration_value_.
  bool iteration_scored_ = false;
  Score iteration_value_ = 0;
  Move iteration_first_{};      // the root move the iteration searched first
  bool depth_limited_ = false;  // the iteration met the horizon (or a table value): go deeper
};

// Alpha-beta as a self-play engine: it decides inside begin() and never asks for rollouts. The
// table lives across the moves of a game and is cleared by new_game(). A forced move (the only
// move searched: the only legal move, or the game's only candidate) is played without search.
template <DeterministicGame G>
class AlphaBetaEngine final : public Engine<G> {
 public:
  using typename Engine<G>::State;
  using typename Engine<G>::Move;
  using typename Engine<G>::Leaf;
  using Search = AlphaBeta<G>;

  AlphaBetaEngine(typename Search::Evaluator evaluate, const typename G::Rules& rules,
                  const AlphaBetaOptions& options, std::string evaluator_name = "eval")
      : rules_(rules),
        search_(std::move(evaluate), rules, options),
        name_(std::move(evaluator_name)),
        configured_time_ms_(options.time_ms) {}

  std::string describe() const override {
    const AlphaBetaOptions& o = search_.options();
    std::string out = "alphabeta(" + name_;
    if (o.depth > 0) out += ", depth " + std::to_string(o.depth);
    if (o.time_ms > 0) out += ", " + std::to_string(o.time_ms) + " ms";
    out += o.use_tt ? ", tt " + std::to_string(o.tt_size_mb) + " MiB" : ", no tt";
    if (o.use_pvs) out += ", pvs";
    if (o.use_killers) out += ", killers";
    if (o.use_history) out += ", history";
    if (o.lmr) out += ", lmr";
    if (o.forced_extension) out += ", forced extension";
    if (o.time_management) out += ", time management";
    if (o.threat_nodes > 0) out += ", threats " + std::to_string(o.threat_nodes) + " nodes";
    if (search_.has_endgame()) out += ", endgame databases";
    if constexpr (hooks::HasQuiet<G>)
      if (o.quiescence) out += ", quiescence";
    return out + ")";
  }
  void new_game() override {
    search_.clear();
    positions_.clear();
  }
  void begin(const State& root, const SearchIds&) override {
    // The positions observe() recorded lead to this root unless the caller skipped observe.
    const auto known = positions_.positions();
    if (known.empty() || std::memcmp(&known.back(), &root, sizeof(State)) != 0)
      positions_.reset(root);
    typename G::MoveList moves;
    hooks::searched_moves<G>(root, rules_, moves);
    if (moves.size == 1) {
      stats_ = typename Search::Stats{};
      stats_.best = moves.moves[0];
      return;
    }
    stats_ = search_.search(root, positions_.positions());
  }
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  // stats: value 1 for a proven win, 0 for a proven loss, else 0.5 + 0.5 * value / kWin;
  // tree_nodes = nodes (saturated), leaves = evaluations, visits and rollouts 0.
  Move decision(MoveStats* stats) override {
    if (stats) {
      *stats = MoveStats{};
      const double v = stats_.proven ? (stats_.value > 0 ? 1.0 : -1.0)
                                     : static_cast<double>(stats_.value) / Search::kWin;
      stats->value = static_cast<float>(0.5 + 0.5 * v);
      stats->tree_nodes = static_cast<uint32_t>(std::min<uint64_t>(stats_.nodes, UINT32_MAX));
      stats->leaves = static_cast<uint32_t>(std::min<uint64_t>(stats_.leaves, UINT32_MAX));
    }
    return stats_.best;
  }
  // Depth 0 and the move alone for a forced move; else the last completed iteration's depth,
  // value (evaluation units, kWin - plies for a proven win), nodes and principal variation.
  void report(SearchReport<Move>& out, uint32_t) const override {
    out.kind = SearchKind::kAlphaBeta;
    out.depth = stats_.depth;
    out.score = stats_.value;
    out.nodes = stats_.nodes;
    for (const Move& m : stats_.line) out.pv.push_back({-1, m});
    if (out.pv.empty()) out.pv.push_back({-1, stats_.best});
  }
  void observe(Move, const State& after) override { positions_.push(after); }
  void set_time_limit(uint32_t ms) override { search_.set_time_ms(ms ? ms : configured_time_ms_); }
  void set_interrupt(const std::atomic<bool>* flag) override { search_.set_interrupt(flag); }
  // Endgame databases scoring the positions they cover (AlphaBeta::set_endgame).
  void set_endgame(std::shared_ptr<const EndgameProbe<State>> tables) {
    search_.set_endgame(std::move(tables));
  }

  // Statistics of the last decision (depth 0 for a forced move).
  const typename Search::Stats& last_stats() const { return stats_; }

 private:
  typename G::Rules rules_;
  Search search_;
  typename Search::Stats stats_;
  std::string name_;
  uint32_t configured_time_ms_;
  PositionHistory<G> positions_{rules_};  // the game's positions, for the repetition rule
};

}  // namespace sp::search
