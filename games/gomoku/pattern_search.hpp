// Gomoku's own alpha-beta, built the way strong Gomoku engines are (the engine of `search:
// pattern`, pattern_engine.hpp): one board with incremental line patterns
// (patterns.hpp) that every node plays and takes back, never copies or rescans, and
//   - threat-aware move generation: the side to move wins at once with a five, and by an open
//     four or a double four when the opponent has no four; against an opponent's four it plays
//     the one block; against an opponent's open three (a square where the opponent would make an
//     open four or a double four) only the squares that meet it: its own fours and the squares
//     where the opponent would make a four, which include every block of the three;
//   - otherwise every empty square within two of a stone, ranked by the threats a stone there
//     makes for either side (attack above defence);
//   - VCF (victory by continuous fours) at the horizon, a defence ply there against an open three,
//     and at the root VCF then VCT (fours and open threes, every defence of the three tried);
//   - principal variation search with a transposition table, killer moves, history, extensions of
//     fours and late-move reductions of quiet moves;
//   - optional, each off by default and measured by itself (experiments/gomoku-strength/):
//     the answer to a four not counted as a ply (forced_extension), futility pruning of quiet
//     moves one ply from the horizon (futility), razoring into the horizon's VCF at one or two
//     plies (razoring), quiet moves past a count by depth left unsearched (move_count_pruning),
//     iterating past half the time while the best move changes (time_management), and late-move
//     reductions by the move score instead of the move's index (score_reductions), and a VCT of
//     the opponent inside the search with its own table (opponent_vct: a move after which the
//     opponent wins by fours and threes is scored as the loss it is, unsearched);
//   - an evaluation that is a linear function of the pattern counts (the features own_to_* and
//     opp_to_* of features.hpp), so its weights live in YAML and `tune` fits them.
//
// Scores are integers for the side to move: kWin - p for a win p plies from the root, -(kWin - p)
// for a loss, the evaluation clamped to [-kMaxEval, kMaxEval] otherwise. The threat searches are
// sound where the board's classes are (a reported VCF is a forced win; VCT trusts that the
// defences of an open three are among the squares above, as engines do).
//
// The clock: `stop` is asked every kStopEvery nodes by every part (threat searches included); a
// stopped iteration is dropped except for a better root move it proved by a full search. `soft`
// is asked between iterations: true means do not start another. Without either the search is
// deterministic: a function of the root, the options and the table. Host only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/stop.hpp"
#include "games/gomoku/features.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/patterns.hpp"

namespace sp::gomoku {

struct PatternSearchOptions {
  int depth = 0;             // plies, 1..kMaxDepth; 0: until soft/stop say so (then one is needed)
  uint32_t tt_size_mb = 16;  // transposition table, 1..65536 MiB
  uint32_t vcf_nodes = 200;  // VCF nodes at each horizon position; 0 = none
  uint32_t root_vcf_nodes = 200'000;  // VCF at the root
  uint32_t root_vct_nodes = 100'000;  // VCT at the root; 0 = none
  int vct_depth = 8;           // attacker moves of a VCT that are open threes (fours are free)
  bool use_reductions = true;  // late-move reductions of quiet moves
  // Off by default (the search as it was); experiments/gomoku-strength/ measures each.
  bool forced_extension = false;    // the one answer to a four does not count a ply
  bool futility = false;            // 1 ply to go: quiet moves that cannot reach alpha skipped
  bool razoring = false;            // 1-2 plies to go, far below alpha: the horizon decides
  bool move_count_pruning = false;  // 1-3 plies to go: quiet moves past a count skipped
  bool time_management = false;     // iterate past `soft` while the best move changes
  bool score_reductions = false;    // late-move reductions by the move's score, not its index
  bool opponent_vct = false;        // moves that leave the opponent a VCT: lost, unsearched
  // Margins of futility and razoring, in evaluation units x 1000 (a to_open_four weighs 5000).
  static constexpr int32_t kFutilityMargin = 1500;
  static constexpr int32_t kRazorMargin[3] = {0, 2500, 5000};
  static constexpr int kMoveCountLimit[4] = {0, 8, 12, 18};  // quiet moves searched, by depth
  // score_reductions: a quiet move whose square scores at least kKeepScore (a three for the
  // side to move, or more) is reduced only from the sixth move on, by one ply; one that scores
  // at least kOnePlyScore (a two of either side) by one ply; the rest by two.
  static constexpr int kKeepScore = 60, kOnePlyScore = 20;
  // opponent_vct: at nodes kOpponentVctDepth or more plies from the horizon, without a four or an
  // open three of the opponent on the board, the opponent's VCT is looked for as if it moved now
  // (a null move), with kOpponentVctNodes nodes and at most kOpponentVctThrees open threes; when
  // it has one, every move is tested the same way and a move that leaves it one is lost. Results
  // are kept in a table of kVctTableEntries positions (its own, 16 bytes an entry).
  static constexpr int kOpponentVctDepth = 2;
  static constexpr uint32_t kOpponentVctNodes = 60;
  static constexpr int kOpponentVctThrees = 3;
  static constexpr size_t kVctTableEntries = size_t{1} << 16;
};

class PatternSearch {
 public:
  using Score = int32_t;
  static constexpr int kMaxDepth = 64;
  static constexpr Score kWin = 1 << 24;
  static constexpr Score kProven = kWin - 4 * kMaxDepth;
  static constexpr Score kMaxEval = kWin / 2;

  struct Result {
    Move best{};
    Score value = 0;
    int depth = 0;           // deepest completed iteration (0: a threat search decided)
    bool proven = false;     // |value| >= kProven
    bool stopped = false;    // the clock cut an iteration short
    uint64_t nodes = 0;      // every node, threat searches included
    uint64_t leaves = 0;     // positions scored by the evaluation
    std::vector<Move> line;  // principal variation, starting with best
    const char* how = "";    // "vcf", "vct", "search" or "forced"
  };

  // weights: one per pattern feature (features.hpp, kPatternFeatures of them, from own_to_five),
  // in evaluation units; scores are 1000 per unit, as the generic alpha-beta's. move_scores: the
  // move-score table (move_scores.hpp, kMoveScoreEntries values), empty for the hand ladder.
  // Throws std::invalid_argument for options out of range.
  PatternSearch(const std::vector<double>& weights, const PatternSearchOptions& options,
                std::span<const double> move_scores = {})
      : opt_(options), move_scores_(move_scores_from(move_scores)) {
    if (weights.size() != static_cast<size_t>(kPatternFeatures + kCodeFeatures))
      throw std::invalid_argument(
          "pattern search: " + std::to_string(kPatternFeatures + kCodeFeatures) +
          " weights expected");
    for (int i = 0; i < kPatternFeatures; ++i)
      weight_[i] = static_cast<int64_t>(std::llround(1000 * weights[static_cast<size_t>(i)]));
    // The pattern codes: kept on the board move by move when any weighs.
    for (int k = 1; k < patterns::kCodes; ++k)
      for (int view = 0; view < 2; ++view) {
        const double w = weights[static_cast<size_t>(code_feature(k, view) - kFirstPatternFeature)];
        code_weight_[view][k] = static_cast<int32_t>(std::llround(1000 * w));
        codes_ |= code_weight_[view][k] != 0;
      }
    if (opt_.depth < 0 || opt_.depth > kMaxDepth)
      throw std::invalid_argument("pattern search: depth must be in [0, 64]");
    if (opt_.tt_size_mb < 1 || opt_.tt_size_mb > 65536)
      throw std::invalid_argument("pattern search: tt_size_mb must be in [1, 65536]");
  }

  // Forgets the table (a new game).
  void clear() {
    if (table_) std::memset(table_.get(), 0, sizeof(Entry) * (mask_ + 1));
    if (vct_table_)
      std::memset(vct_table_.get(), 0, sizeof(VctEntry) * PatternSearchOptions::kVctTableEntries);
  }

  const PatternSearchOptions& options() const { return opt_; }

  // The best move in root (a game not over) and what the search found.
  // threat: asked during the root's VCT, which gives up when it says so.
  Result search(const State& root, StopCheck stop = {}, StopCheck soft = {},
                StopCheck threat = {}) {
    if (!table_) allocate();
    stop_check_ = stop;
    soft_ = soft;
    threat_ = threat;
    stop_ = false;
    nodes_ = leaves_ = 0;
    std::memset(history_, 0, sizeof(history_));
    std::memset(killers_, 0xFF, sizeof(killers_));
    b_.set(root);
    if (codes_) b_.set_code_weights(code_weight_[0], code_weight_[1]);
    Result r;
    const int me = b_.side_to_move();
    const patterns::CellSet& opp_five = b_.threats(me ^ 1, patterns::kFiveSet);
    // A five now; the one block of a four (or a lost position: block one of two).
    if (const int c = b_.threats(me, patterns::kFiveSet).first(); c >= 0)
      return decided(r, c, kWin - 1, "forced");
    if (opp_five.any()) {
      const int c = opp_five.first();
      return decided(r, c, opp_five.count() >= 2 ? -(kWin - 2) : 0, "forced");
    }
    int first = -1;
    if (opt_.root_vcf_nodes > 0) {
      budget_ = opt_.root_vcf_nodes;
      const int plies = vcf(0, &first);
      if (plies > 0) return decided(r, first, kWin - plies, "vcf");
    }
    if (opt_.root_vct_nodes > 0 && !stop_) {
      budget_ = opt_.root_vct_nodes;
      in_vct_ = true;
      const int plies = vct(0, opt_.vct_depth, &first);
      in_vct_ = false;
      if (plies > 0 && !stop_) return decided(r, first, kWin - plies, "vct");
    }
    stop_ = false;  // a threat search stopped by the clock leaves the move to the main search
    // An open four or two fours to make, the opponent without a four: a win in three plies. The
    // root's VCF finds it first; without one (threat_nodes 0) negamax would score the root
    // without a move (it returns such positions' value at once).
    if (const int c = b_.threats(me, patterns::kWinNextSet).first(); c >= 0)
      return decided(r, c, kWin - 3, "forced");
    if (stop_check_()) stop_ = true;

    const int max_depth = opt_.depth > 0 ? opt_.depth : kMaxDepth;
    root_best_ = -1;
    int changed_at = 0;  // the last iteration whose best move differed from the one before
    for (int d = 1; d <= max_depth; ++d) {
      // With time management a root whose best move changed in the last two iterations goes on
      // past `soft`, until `stop`.
      const bool unstable = opt_.time_management && changed_at > 0 && d - 1 - changed_at < 2;
      if (d > 1 && soft() && (stop_ || !unstable)) break;
      iteration_ = d;
      root_best_ = -1;
      root_improved_ = false;
      const Score v = negamax(d, -kInf, kInf, 0);
      if (stop_) {
        r.stopped = true;
        // A root move the stopped iteration proved better than the last iteration's best by a
        // full search stands; otherwise the last completed iteration decides.
        if (root_best_ >= 0 && (r.depth == 0 || root_improved_)) {  // (see negamax)
          r.best = Board::move_of(root_best_);
          r.line.assign(1, r.best);
        }
        break;
      }
      if (d > 1 && !(Board::move_of(pv_[0][0]) == r.best)) changed_at = d;
      r.depth = d;
      r.value = v;
      r.best = Board::move_of(pv_[0][0]);
      r.line.clear();
      for (int i = 0; i < pv_len_[0]; ++i) r.line.push_back(Board::move_of(pv_[0][i]));
      r.proven = v >= kProven || v <= -kProven;
      if (r.proven) break;
    }
    if (r.depth == 0 && root_best_ < 0) {  // stopped before any root move was scored
      MoveBuffer moves;
      generate(moves, 0, -1);
      r.best = Board::move_of(moves.cell[0]);
      r.line.assign(1, r.best);
    }
    r.how = "search";
    r.nodes = nodes_;
    r.leaves = leaves_;
    return r;
  }

 private:
  using Board = patterns::Board;
  static constexpr Score kInf = kWin + 1;
  enum Bound : uint8_t { kNoBound, kUpper, kLower, kExact };
  struct Entry {
    uint64_t key;
    Score value;
    int16_t cell;
    uint8_t depth;
    uint8_t bound;
  };
  struct VctEntry {
    uint64_t key;   // the position's hash; 0: empty
    int32_t plies;  // the side to move's VCT: plies to its win, 0 if none was found
  };
  struct MoveBuffer {
    int cell[kMaxSquares];
    int score[kMaxSquares];
    int size = 0;
    void push(int c, int s) {
      cell[size] = c;
      score[size++] = s;
    }
  };

  void allocate() {
    const size_t bytes = size_t{opt_.tt_size_mb} << 20;
    size_t n = 1;
    while (2 * n * sizeof(Entry) <= bytes) n *= 2;
    table_.reset(new Entry[n]());
    mask_ = n - 1;
    if (opt_.opponent_vct) vct_table_.reset(new VctEntry[PatternSearchOptions::kVctTableEntries]());
  }

  Result& decided(Result& r, int cell, Score v, const char* how) {
    r.best = Board::move_of(cell);
    r.value = v;
    r.proven = v >= kProven || v <= -kProven;
    r.line.assign(1, r.best);
    r.how = how;
    r.nodes = nodes_;
    return r;
  }

  StopCheck soft_, threat_;
  bool soft() {
    if (stop_check_()) stop_ = true;
    return stop_ || soft_();
  }

  // Counts a node; asks the clock every kStopEvery nodes.
  bool tick() {
    if ((++nodes_ & (StopCheck::kStopEvery - 1)) == 0) {
      if (stop_check_())
        stop_ = true;
      else if (in_vct_ && threat_())
        budget_ = 0;  // the root's VCT has had its share of the time
    }
    return stop_;
  }

  // ---- Evaluation

  Score evaluate() {
    ++leaves_;
    float f[kPatternFeatures];
    pattern_features(b_, b_.side_to_move(), f);
    int64_t v = 0;
    for (int i = 0; i < kPatternFeatures; ++i) v += weight_[i] * static_cast<int64_t>(f[i]);
    v += b_.code_score();
    return static_cast<Score>(std::clamp<int64_t>(v, -kMaxEval, kMaxEval));
  }

  // ---- Move generation

  // How much a stone on c does, for ordering: a table per pattern code of the side to move's
  // square (attack) and of the opponent's (defence): move_scores.hpp.
  int square_score(int c, int me) const {
    return move_scores_.attack[b_.code(me, c)] + move_scores_.defend[b_.code(me ^ 1, c)];
  }

  // The moves of the side to move at a node `ply` plies from the root, best first (tt_cell first
  // when it is among them). Precondition: the side to move has no five and the opponent at most
  // one four (handled by the caller).
  void generate(MoveBuffer& out, int ply, int tt_cell) const {
    const int me = b_.side_to_move(), op = me ^ 1;
    out.size = 0;
    const patterns::CellSet& opp_five = b_.threats(op, patterns::kFiveSet);
    if (opp_five.any()) {
      out.push(opp_five.first(), 0);
      return;
    }
    patterns::CellSet moves;
    if (b_.threats(op, patterns::kWinNextSet).any()) {
      const patterns::CellSet& a = b_.threats(me, patterns::kFourSet);
      const patterns::CellSet& d = b_.threats(op, patterns::kFourSet);
      for (int i = 0; i < patterns::kCellWords; ++i) moves.w[i] = a.w[i] | d.w[i];
    } else if (b_.stones() == 0) {
      moves.set(Board::cell(b_.size() / 2, b_.size() / 2));
    } else {
      moves = b_.near();
    }
    moves.for_each([&](int c) {
      int s = square_score(c, me);
      if (c == tt_cell) {
        s = 1 << 30;
      } else if (ply < kMaxDepth && (c == killers_[ply][0] || c == killers_[ply][1])) {
        s += 150 + (c == killers_[ply][0] ? 1 : 0);
      } else {
        s += std::min(history_[me][c] >> 4, 100);
      }
      out.push(c, s);
    });
    // Insertion sort, best first; ties keep cell order (deterministic).
    for (int i = 1; i < out.size; ++i) {
      const int c = out.cell[i], s = out.score[i];
      int j = i;
      for (; j > 0 && out.score[j - 1] < s; --j) {
        out.cell[j] = out.cell[j - 1];
        out.score[j] = out.score[j - 1];
      }
      out.cell[j] = c;
      out.score[j] = s;
    }
  }

  // ---- Threat searches (the side to move attacks)

  // What a threat search settles before it tries a move: 1 (a five now) or 3 (an open or double
  // four, the opponent having no four) with the move in *first, 0 (the opponent has two fours to
  // block: no win), -1 to search on; *blocks: the opponent's fours (0 or 1 then).
  int attacker_wins_at_once(int* first, int* blocks) const {
    const int me = b_.side_to_move();
    if (const int c = b_.threats(me, patterns::kFiveSet).first(); c >= 0) {
      if (first) *first = c;
      return 1;
    }
    *blocks = b_.threats(me ^ 1, patterns::kFiveSet).count();
    if (*blocks >= 2) return 0;
    if (*blocks == 0)
      if (const int c = b_.threats(me, patterns::kWinNextSet).first(); c >= 0) {
        if (first) *first = c;
        return 3;
      }
    return -1;
  }

  // VCF: plies to a win by continuous fours for the side to move (0: none found), its first move
  // in *first. Spends budget_.
  int vcf(int depth, int* first) {
    if (tick() || budget_ == 0) return 0;
    --budget_;
    const int me = b_.side_to_move();
    int blocks = 0;
    if (const int won = attacker_wins_at_once(first, &blocks); won >= 0) return won;
    if (depth >= kMaxDepth - 2) return 0;
    const patterns::CellSet& opp_five = b_.threats(me ^ 1, patterns::kFiveSet);
    int cells[kMaxSquares], n = 0;
    if (blocks == 1) {
      const int c = opp_five.first();
      if (!b_.threats(me, patterns::kFourSet).test(c)) return 0;  // the block must be a four
      cells[n++] = c;
    } else {
      b_.threats(me, patterns::kFourSet).for_each([&](int c) { cells[n++] = c; });
      // Fours that also make an open three first.
      std::stable_sort(cells, cells + n,
                       [&](int a, int b) { return b_.combo(me, a) > b_.combo(me, b); });
    }
    for (int i = 0; i < n && !stop_; ++i) {
      b_.play(cells[i]);
      const int reply = b_.threats(me, patterns::kFiveSet).first();
      int plies = 0;
      if (reply >= 0) {
        if (b_.threats(me, patterns::kFiveSet).count() >= 2) {
          plies = 3;  // two fives to block
        } else {
          b_.play(reply);
          const int rest = vcf(depth + 2, nullptr);
          b_.undo();
          if (rest > 0) plies = rest + 2;
        }
      }
      b_.undo();
      if (plies > 0) {
        if (first) *first = cells[i];
        return plies;
      }
    }
    return 0;
  }

  // VCT: plies to a win by fours and open threes for the side to move (0: none found), at most
  // `threes` of its moves open threes.
  int vct(int depth, int threes, int* first) {
    if (tick() || budget_ == 0) return 0;
    const int me = b_.side_to_move();
    int blocks = 0;
    if (const int won = attacker_wins_at_once(first, &blocks); won >= 0) return won;
    if (depth >= kMaxDepth - 4) return 0;
    const patterns::CellSet& opp_five = b_.threats(me ^ 1, patterns::kFiveSet);
    --budget_;
    int cells[kMaxSquares], n = 0;
    if (blocks == 1) {
      cells[n++] = opp_five.first();  // forced; it must leave or make a threat (vct_defend)
    } else {
      b_.threats(me, patterns::kFourSet).for_each([&](int c) { cells[n++] = c; });
      if (threes > 0)
        b_.threats(me, patterns::kOpenThreeSet).for_each([&](int c) {
          if (!b_.threats(me, patterns::kFourSet).test(c)) cells[n++] = c;
        });
      std::stable_sort(cells, cells + n,
                       [&](int a, int b) { return square_score(a, me) > square_score(b, me); });
    }
    for (int i = 0; i < n && !stop_ && budget_ > 0; ++i) {
      const bool four = b_.threats(me, patterns::kFourSet).test(cells[i]);
      if (!four && blocks == 0 && threes == 0) continue;
      b_.play(cells[i]);
      const int rest = vct_defend(depth + 1, four || blocks == 1 ? threes : threes - 1);
      b_.undo();
      if (rest > 0) {
        if (first) *first = cells[i];
        return rest + 1;
      }
    }
    return 0;
  }

  // The defender's side of vct: the attacker (who just moved) wins against every defence?
  // Plies to its win counted from here, 0 if some defence holds.
  int vct_defend(int depth, int threes) {
    if (tick() || budget_ == 0) return 0;
    const int me = b_.side_to_move(), att = me ^ 1;
    if (b_.threats(me, patterns::kFiveSet).any()) return 0;  // the defender wins first
    const patterns::CellSet& att_five = b_.threats(att, patterns::kFiveSet);
    const int fives = att_five.count();
    if (fives >= 2) return 2;
    int cells[kMaxSquares], n = 0;
    if (fives == 1) {
      cells[n++] = att_five.first();
    } else {
      if (!b_.threats(att, patterns::kWinNextSet).any()) return 0;  // no threat left
      const patterns::CellSet& a = b_.threats(att, patterns::kFourSet);
      const patterns::CellSet& d = b_.threats(me, patterns::kFourSet);
      for (int i = 0; i < patterns::kCellWords; ++i)
        for (uint64_t x = a.w[i] | d.w[i]; x; x &= x - 1) cells[n++] = 64 * i + lsb64(x);
    }
    int longest = 0;
    for (int i = 0; i < n; ++i) {
      b_.play(cells[i]);
      const int rest = vct(depth + 1, threes, nullptr);
      b_.undo();
      if (rest == 0) return 0;
      longest = std::max(longest, rest);
    }
    return longest + 1;
  }

  // The side to move's VCT as opponent_vct looks for it (kOpponentVctNodes nodes, at most
  // kOpponentVctThrees open threes): plies to its win, 0 if none was found; through vct_table_.
  // A search the clock stopped is not kept.
  int table_vct() {
    const uint64_t key = b_.hash();
    VctEntry& e = vct_table_[key & (PatternSearchOptions::kVctTableEntries - 1)];
    if (e.key == key) return e.plies;
    budget_ = PatternSearchOptions::kOpponentVctNodes;
    const int plies = vct(0, PatternSearchOptions::kOpponentVctThrees, nullptr);
    if (stop_) return 0;
    e.key = key;
    e.plies = plies;
    return plies;
  }

  // ---- Alpha-beta

  Score negamax(int depth, Score alpha, Score beta, int ply) {
    if (tick()) return 0;
    pv_len_[ply] = 0;
    const int me = b_.side_to_move(), op = me ^ 1;
    if (b_.threats(me, patterns::kFiveSet).any()) return kWin - (ply + 1);
    const int opp_fives = b_.threats(op, patterns::kFiveSet).count();
    if (opp_fives >= 2) return -(kWin - (ply + 2));
    if (opp_fives == 0 && b_.threats(me, patterns::kWinNextSet).any()) return kWin - (ply + 3);
    if (b_.full()) return 0;
    if (depth <= 0 || ply >= kMaxDepth - 1) return horizon(alpha, beta, ply, 0);

    const uint64_t key = b_.hash();
    Entry& e = table_[key & mask_];
    int tt_cell = -1;
    if (e.key == key && e.bound != kNoBound) {
      tt_cell = e.cell;
      const Score v = from_table(e.value, ply);
      if (ply > 0 && e.depth >= depth &&
          (e.bound == kExact || (e.bound == kLower && v >= beta) ||
           (e.bound == kUpper && v <= alpha)))
        return v;
    }
    // Near the horizon, in a null window, the opponent without a four: a static evaluation far
    // below alpha leaves the position to the horizon's VCF and threat defences (razoring), or
    // one ply from it, without an open three of the opponent, the quiet moves (futility).
    const bool pv_node = beta - alpha > 1;
    Score stand = -kInf;
    if ((opt_.futility || opt_.razoring) && !pv_node && depth <= 2 && opp_fives == 0) {
      stand = evaluate();
      if (opt_.razoring && stand + PatternSearchOptions::kRazorMargin[depth] < alpha) {
        const Score v = horizon(alpha, beta, ply, 0);
        if (stop_) return 0;
        if (v < alpha) return v;
      }
    }
    const bool prune_futile = opt_.futility && depth == 1 && stand > -kInf &&
                              stand + PatternSearchOptions::kFutilityMargin <= alpha &&
                              !b_.threats(op, patterns::kWinNextSet).any();
    const bool count_moves = opt_.move_count_pruning && !pv_node && depth <= 3 && opp_fives == 0;
    // opponent_vct: would the opponent win by fours and threes if it moved now? Then each move is
    // tested: one after which it still does is lost in that many plies, not searched.
    bool test_vct = false;
    if (opt_.opponent_vct && depth >= PatternSearchOptions::kOpponentVctDepth && opp_fives == 0 &&
        !b_.threats(op, patterns::kWinNextSet).any()) {
      b_.pass();
      test_vct = table_vct() > 0;
      b_.pass();
      if (stop_) return 0;
    }
    MoveBuffer moves;
    generate(moves, ply, tt_cell);
    const Score alpha0 = alpha;
    Score best = -kInf;
    int best_cell = moves.cell[0];
    int quiet_seen = 0;
    for (int i = 0; i < moves.size; ++i) {
      const int c = moves.cell[i];
      const patterns::Combo mine = b_.combo(me, c), theirs = b_.combo(op, c);
      const bool four = mine >= patterns::kComboFour;
      const bool quiet = mine < patterns::kComboOpenThree && theirs < patterns::kComboOpenThree &&
                         moves.score[i] < (1 << 30);
      // Quiet moves that cannot matter, once a move has been searched and no loss is on the table.
      if (quiet && i > 0 && best > -kProven) {
        if (prune_futile) {
          best = std::max(best, stand + PatternSearchOptions::kFutilityMargin);
          continue;
        }
        if (count_moves && ++quiet_seen > PatternSearchOptions::kMoveCountLimit[depth]) continue;
      }
      int next = depth - 1;
      if (four && ply < kMaxDepth / 2) ++next;  // the reply is forced: look one ply further
      // The one answer to a four (forced_extension) does not count a ply either.
      if (opt_.forced_extension && opp_fives == 1 && ply < kMaxDepth / 2) ++next;
      int reduced = next;
      if (opt_.use_reductions && quiet && depth >= 3) {
        if (opt_.score_reductions) {
          const int score = square_score(c, me);  // the table's, without killer or history bonus
          const int r = score >= PatternSearchOptions::kKeepScore
                            ? (i >= 6 ? 1 : 0)
                            : (score >= PatternSearchOptions::kOnePlyScore ? 1 : 2);
          if (i >= 1) reduced = std::max(1, next - r);
        } else if (i >= 3) {
          reduced = std::max(1, next - (i >= 10 ? 2 : 1));
        }
      }
      b_.play(c);
      Score v;
      const int lost_in = test_vct ? table_vct() : 0;  // the opponent's VCT after c
      if (lost_in > 0) {
        v = -(kWin - (ply + 1 + lost_in));
        pv_len_[ply + 1] = 0;
      } else if (stop_) {
        v = 0;
      } else if (i == 0) {
        v = -negamax(next, -beta, -alpha, ply + 1);
      } else {
        v = -negamax(reduced, -alpha - 1, -alpha, ply + 1);
        if (v > alpha && reduced < next && !stop_) v = -negamax(next, -alpha - 1, -alpha, ply + 1);
        if (v > alpha && v < beta && !stop_) v = -negamax(next, -beta, -alpha, ply + 1);
      }
      b_.undo();
      if (stop_) return 0;
      if (v > best) {
        best = v;
        best_cell = c;
        if (ply == 0) {  // after the first move, a new best beat it by a full search
          root_improved_ = root_improved_ || i > 0;
          root_best_ = c;
        }
        if (v > alpha) {
          alpha = v;
          pv_[ply][0] = c;
          std::copy(pv_[ply + 1], pv_[ply + 1] + pv_len_[ply + 1], pv_[ply] + 1);
          pv_len_[ply] = 1 + pv_len_[ply + 1];
        }
        if (v >= beta) {
          if (quiet && ply < kMaxDepth) {
            if (killers_[ply][0] != c) {
              killers_[ply][1] = killers_[ply][0];
              killers_[ply][0] = c;
            }
            history_[me][c] += depth * depth;
          }
          break;
        }
      }
    }
    const uint8_t bound = best <= alpha0 ? kUpper : best >= beta ? kLower : kExact;
    if (e.key != key || depth >= e.depth || bound == kExact) {
      e.key = key;
      e.value = to_table(best, ply);
      e.cell = static_cast<int16_t>(bound == kUpper && tt_cell >= 0 ? tt_cell : best_cell);
      e.depth = static_cast<uint8_t>(depth);
      e.bound = bound;
    }
    return best;
  }

  // A horizon position: a VCF of the side to move scores as the win it is; against an open
  // three (the opponent would make an open four) the defences are searched, up to two defence
  // plies; otherwise the evaluation.
  Score horizon(Score alpha, Score beta, int ply, int defences) {
    const int me = b_.side_to_move(), op = me ^ 1;
    if (opt_.vcf_nodes > 0 && b_.threats(me, patterns::kFourSet).any()) {
      budget_ = opt_.vcf_nodes;
      const int plies = vcf(ply, nullptr);
      if (stop_) return 0;
      if (plies > 0) return kWin - (ply + plies);
    }
    const Score stand = evaluate();
    if (defences >= 2 || ply >= kMaxDepth - 4 || !b_.threats(op, patterns::kWinNextSet).any() ||
        b_.threats(op, patterns::kFiveSet).any())
      return stand;
    // The opponent threatens an open four: try the moves that meet it.
    MoveBuffer moves;
    generate(moves, ply, -1);
    Score best = -kInf;
    for (int i = 0; i < moves.size && i < 8; ++i) {
      b_.play(moves.cell[i]);
      if (tick()) {
        b_.undo();
        return 0;
      }
      const Score v = -horizon_reply(-beta, -std::max(alpha, best), ply + 1, defences + 1);
      b_.undo();
      if (stop_) return 0;
      best = std::max(best, v);
      if (best >= beta) break;
    }
    return best == -kInf ? stand : best;
  }

  // The opponent's move after a defence at the horizon: it wins by its own VCF or scores as it
  // stands (one more defence ply where it must answer a three).
  Score horizon_reply(Score alpha, Score beta, int ply, int defences) {
    const int me = b_.side_to_move(), op = me ^ 1;
    if (b_.threats(me, patterns::kFiveSet).any()) return kWin - (ply + 1);
    if (b_.threats(op, patterns::kFiveSet).count() == 0 &&
        b_.threats(me, patterns::kWinNextSet).any())
      return kWin - (ply + 3);
    return horizon(alpha, beta, ply, defences);
  }

  static Score to_table(Score v, int ply) {
    return v >= kProven ? v + ply : v <= -kProven ? v - ply : v;
  }
  static Score from_table(Score v, int ply) {
    return v >= kProven ? v - ply : v <= -kProven ? v + ply : v;
  }

  PatternSearchOptions opt_;
  MoveScoreTables move_scores_;
  int64_t weight_[kPatternFeatures] = {};
  int32_t code_weight_[2][patterns::kCodes] = {};  // own, opp; code 0 weighs 0
  bool codes_ = false;                             // whether any code weighs
  std::unique_ptr<Entry[]> table_;
  size_t mask_ = 0;
  std::unique_ptr<VctEntry[]> vct_table_;  // opponent_vct's results
  Board b_;
  StopCheck stop_check_;
  bool stop_ = false, in_vct_ = false;
  uint64_t nodes_ = 0, leaves_ = 0;
  uint32_t budget_ = 0;
  int iteration_ = 0;
  int root_best_ = -1;
  bool root_improved_ = false;
  int killers_[kMaxDepth + 1][2];
  int history_[2][patterns::kCells];
  int pv_[kMaxDepth + 2][kMaxDepth + 2] = {};
  int pv_len_[kMaxDepth + 2] = {};
};

}  // namespace sp::gomoku
