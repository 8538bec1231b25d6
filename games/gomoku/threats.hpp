// Victory by continuous fours (VCF): whether the side to move can force a win by making a four
// with every move, so that the opponent always has one square to block, until a move makes two
// winning squares at once (a double four or an open four) that one stone cannot both block.
// Host search uses it as the forced_win hook of alpha-beta (host/engines/search/game_hooks.hpp).
//
// The search is sound under both win rules: a winning square is one where makes_five holds, so
// under the standard rule an overline is no threat. At every step the defender's only moves are
// the block or a five of its own; the attacker's block of a defender's five counts only when it
// is itself a four. A win it reports is a forced win; a position it does not solve within its
// node budget (or its limit of plies) is reported as none. Deterministic: the same position and
// budget give the same answer, unless a StopCheck (a move's clock) stops it first: then it reports
// what it found so far, no win if none. Host only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/stop.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/tactics.hpp"
#include "games/gomoku/zobrist.hpp"

namespace sp::gomoku {

// Up to two squares where `side` would make a winning row, among the empty squares within four
// of (x, y) on its four lines; returns how many were found (0, 1 or 2, stopping at two).
inline int winning_squares_through(const State& s, int side, int x, int y, int (&out)[2]) {
  const int n = s.size;
  const uint64_t* own = s.stones[side];
  const uint64_t* other = s.stones[side ^ 1];
  int found = 0;
  for (int d = 0; d < kDirections; ++d) {
    const int dx = direction_dx(d), dy = direction_dy(d);
    for (int k = -4; k <= 4; ++k) {
      const int xx = x + k * dx, yy = y + k * dy;
      if (k == 0 || !on_board(n, xx, yy)) continue;
      const int sq = yy * n + xx;
      if (test_square(own, sq) || test_square(other, sq)) continue;
      if (!makes_five(own, n, s.rule, xx, yy)) continue;
      out[found++] = sq;
      if (found == 2) return found;
    }
  }
  return found;
}

// Bit-parallel windows of five squares over whole bitboards (the words a board uses, n <= 20).
namespace windows {

// out bit j = in bit j + k (toward lower squares); k >= 0.
inline void shift_down(const uint64_t* in, int k, int words, uint64_t* out) {
  const int q = k >> 6, r = k & 63;
  for (int w = 0; w < words; ++w) {
    const uint64_t lo = w + q < words ? in[w + q] : 0;
    const uint64_t hi = w + q + 1 < words ? in[w + q + 1] : 0;
    out[w] = r ? (lo >> r) | (hi << (64 - r)) : lo;
  }
}

// out bit j = in bit j - k (toward higher squares); k >= 0.
inline void shift_up(const uint64_t* in, int k, int words, uint64_t* out) {
  const int q = k >> 6, r = k & 63;
  for (int w = 0; w < words; ++w) {
    const uint64_t hi = w - q >= 0 ? in[w - q] : 0;
    const uint64_t lo = w - q - 1 >= 0 ? in[w - q - 1] : 0;
    out[w] = r ? (hi << r) | (lo >> (64 - r)) : hi;
  }
}

// The squares where a window of five in direction d starts: its five squares sq, sq + step, ...,
// sq + 4 step lie on the board along the line (step 1 east, n south, n + 1 south-east, n - 1
// south-west).
struct Starts {
  uint64_t bits[kDirections][kWords] = {};
  int step[kDirections] = {};
};

inline Starts make_starts(int n) {
  Starts st;
  const int dx[kDirections] = {1, 0, 1, -1}, dy[kDirections] = {0, 1, 1, 1};
  for (int d = 0; d < kDirections; ++d) {
    st.step[d] = dy[d] * n + dx[d];
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        if (on_board(n, x + 4 * dx[d], y + 4 * dy[d])) set_square(st.bits[d], y * n + x);
  }
  return st;
}

inline const Starts& starts_of(int n) {
  static const Starts small = make_starts(15), large = make_starts(20);
  return n == 15 ? small : large;
}

}  // namespace windows

// The empty squares of the windows of five on the board that hold `least` (2 or 3) or more of
// `side`'s stones and none of the other side's. With 3: every square where a stone of the side
// makes a new four (a superset: winning_squares_through decides); with 2, every square where it
// makes a new three.
inline void window_squares(const State& s, int side, int least, uint64_t (&out)[kWords]) {
  const int n = s.size, words = words_of(n);
  const windows::Starts& st = windows::starts_of(n);
  const uint64_t* own = s.stones[side];
  const uint64_t* opp = s.stones[side ^ 1];
  uint64_t found[kWords] = {};
  for (int d = 0; d < kDirections; ++d) {
    const int step = st.step[d];
    uint64_t a[5][kWords], blocked[kWords], tmp[kWords];
    for (int w = 0; w < words; ++w) {
      a[0][w] = own[w];
      blocked[w] = opp[w];
    }
    for (int i = 1; i < 5; ++i) {
      windows::shift_down(own, i * step, words, a[i]);
      windows::shift_down(opp, i * step, words, tmp);
      for (int w = 0; w < words; ++w) blocked[w] |= tmp[w];
    }
    uint64_t any = 0, three[kWords];
    for (int w = 0; w < words; ++w) {
      // Two or three or more of five bits, bit-sliced: two full adders, sum = t + 2 (c1 + c2).
      const uint64_t x = a[0][w], y = a[1][w], z = a[2][w];
      const uint64_t t1 = x ^ y ^ z, c1 = (x & y) | (z & (x ^ y));
      const uint64_t t = t1 ^ a[3][w] ^ a[4][w];
      const uint64_t c2 = (t1 & a[3][w]) | (a[4][w] & (t1 ^ a[3][w]));
      const uint64_t at_least = least >= 3 ? (c1 & c2) | ((c1 | c2) & t) : c1 | c2;
      three[w] = at_least & ~blocked[w] & st.bits[d][w];
      any |= three[w];
    }
    if (!any) continue;
    for (int i = 0; i < 5; ++i) {
      windows::shift_up(three, i * step, words, tmp);
      for (int w = 0; w < words; ++w) found[w] |= tmp[w];
    }
  }
  for (int w = 0; w < kWords; ++w) out[w] = w < words ? found[w] & empty_word(s, w) : 0;
}

inline void four_squares(const State& s, int side, uint64_t (&out)[kWords]) {
  window_squares(s, side, 3, out);
}

class VcfSearch {
 public:
  // The attacker's first move and the plies to the five (odd: 1 when a five is on the board's
  // squares now, 3 when the first four cannot be blocked, ...); plies 0 when no win was found.
  struct Result {
    int plies = 0;
    Move first{};
    uint32_t nodes = 0;      // attacker positions searched
    bool exhausted = false;  // stopped by the node budget or by the StopCheck
    bool stopped = false;    // stopped by the StopCheck
    static Result of(int plies, Move first, uint32_t nodes, bool exhausted, bool stopped) {
      Result r;
      r.plies = plies;
      if (plies > 0) r.first = first;
      r.nodes = nodes;
      r.exhausted = exhausted;
      r.stopped = stopped;
      return r;
    }
  };

  // Searches root (game not over) for a VCF of its side to move, visiting at most node_budget
  // attacker positions and looking for wins of at most max_plies plies (>= 1); stop is asked
  // every StopCheck::kStopEvery positions.
  Result solve(const State& root, uint32_t node_budget, int max_plies, StopCheck stop = {}) {
    Result r;
    if (is_over(root) || max_plies < 1) return r;
    s_ = root;
    budget_ = node_budget;
    nodes_ = 0;
    exhausted_ = stopped_ = false;
    stop_ = stop;
    const int attacker = root.side;
    // No square of a window with three of the attacker's stones: no five and no four to make.
    uint64_t wins[kWords], any = 0;
    four_squares(root, attacker, wins);
    for (int w = 0; w < kWords; ++w) any |= wins[w];
    if (!any) return r;
    winning_squares(root, attacker, wins);
    for (int w = 0; w < kWords; ++w)
      if (wins[w]) {
        r.plies = 1;
        r.first = move_at(root.size, 64 * w + lsb64(wins[w]));
        return r;
      }
    // The defender's winning squares now: two or more cannot all be blocked.
    winning_squares(root, attacker ^ 1, wins);
    int forced = -1, defender_wins = 0;
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = wins[w]; b; b &= b - 1) {
        forced = 64 * w + lsb64(b);
        ++defender_wins;
      }
    if (defender_wins >= 2) return r;
    if (++generation_ == 0) {  // a new generation invalidates the table's entries at once
      failed_.assign(failed_.size(), Failed{});
      generation_ = 1;
    }
    if (failed_.empty()) failed_.resize(kFailedEntries);
    key_ = zobrist_key(root);
    return Result::of(node(forced, (max_plies - 1) / 2, 0), first_, nodes_, exhausted_, stopped_);
  }

 private:
  static constexpr size_t kFailedEntries = size_t{1} << 14;
  static constexpr int kMaxFours = 32;
  struct Failed {
    uint64_t key = 0;
    uint32_t generation = 0;
    int fours = 0;  // the search of this position with this many fours left found no win
  };
  struct Four {
    int square;
    int block;  // the defender's only square; -1: two winning squares (a win)
  };

  // The attacker (s_.side) to move, without a winning square; forced: the defender's single
  // winning square, which the attacker must take (-1: none). Returns the plies to the five, 0
  // for none within `fours` more fours.
  int node(int forced, int fours, int depth) {
    if (fours <= 0 || depth >= kMaxFours) return 0;
    if (++nodes_ > budget_) {
      exhausted_ = true;
      return 0;
    }
    if (nodes_ % StopCheck::kStopEvery == 0 && stop_()) {
      exhausted_ = stopped_ = true;
      return 0;
    }
    Failed& slot = failed_[key_ & (kFailedEntries - 1)];
    if (slot.generation == generation_ && slot.key == key_ && slot.fours >= fours) return 0;

    const int n = s_.size;
    const int attacker = s_.side;
    Four list[kMaxMoves];
    int count = 0;
    const auto consider = [&](int sq) {
      const int x = sq % n, y = sq / n;
      set_square(s_.stones[attacker], sq);
      int wins[2];
      const int found = winning_squares_through(s_, attacker, x, y, wins);
      s_.stones[attacker][sq >> 6] &= ~(uint64_t{1} << (sq & 63));
      if (found == 0) return false;
      list[count++] = Four{sq, found == 2 ? -1 : wins[0]};
      return found == 2;
    };
    if (forced >= 0) {
      if (consider(forced)) return finish(forced, 3, depth);
    } else {
      uint64_t squares[kWords];
      four_squares(s_, attacker, squares);
      for (int w = 0; w < kWords; ++w)
        for (uint64_t b = squares[w]; b; b &= b - 1) {
          const int sq = 64 * w + lsb64(b);
          if (consider(sq)) return finish(sq, 3, depth);
        }
    }
    if (fours > 1) {
      const ZobristKeys& z = kZobristKeys;
      for (int i = 0; i < count; ++i) {
        const int sq = list[i].square, block = list[i].block;
        set_square(s_.stones[attacker], sq);
        set_square(s_.stones[attacker ^ 1], block);
        key_ ^= z.stone[attacker][sq] ^ z.stone[attacker ^ 1][block];
        // The block may make the defender's own four: the attacker must then take that square.
        int wins[2];
        const int found = winning_squares_through(s_, attacker ^ 1, block % n, block / n, wins);
        const int plies = found == 2 ? 0 : node(found == 1 ? wins[0] : -1, fours - 1, depth + 1);
        key_ ^= z.stone[attacker][sq] ^ z.stone[attacker ^ 1][block];
        s_.stones[attacker][sq >> 6] &= ~(uint64_t{1} << (sq & 63));
        s_.stones[attacker ^ 1][block >> 6] &= ~(uint64_t{1} << (block & 63));
        if (plies > 0) return finish(sq, plies + 2, depth);
        if (exhausted_) return 0;
      }
    }
    slot = Failed{key_, generation_, fours};
    return 0;
  }

  int finish(int square, int plies, int depth) {
    if (depth == 0) first_ = move_at(s_.size, square);
    return plies;
  }

  State s_;
  uint64_t key_ = 0;
  uint32_t budget_ = 0, nodes_ = 0;
  bool exhausted_ = false, stopped_ = false;
  StopCheck stop_;
  Move first_{};
  std::vector<Failed> failed_;
  uint32_t generation_ = 0;
};

// Whether `side` (in s, whoever is to move) has a move that makes two winning squares at once (an
// open four or a double four): a threat to win that one stone cannot stop.
inline bool has_double_threat(const State& s, int side) {
  uint64_t squares[kWords];
  four_squares(s, side, squares);
  State t = s;
  for (int w = 0; w < kWords; ++w)
    for (uint64_t b = squares[w]; b; b &= b - 1) {
      const int sq = 64 * w + lsb64(b);
      set_square(t.stones[side], sq);
      int wins[2];
      const bool two = winning_squares_through(t, side, sq % s.size, sq / s.size, wins) == 2;
      t.stones[side][sq >> 6] &= ~(uint64_t{1} << (sq & 63));
      if (two) return true;
    }
  return false;
}

// Victory by continuous threats (VCT): a forced win of the side to move by fours and threes. A
// three here is a move after which the attacker has a double threat to make (has_double_threat)
// without having a four. The defender's answers that can matter are then searched, all of them:
// its fours (each forcing the attacker's block, after which it answers again) and its stones on
// the squares of the attacker's windows of three; any other stone leaves the double threat, so
// the attacker wins. Every attacker position is first searched for a VCF, which also settles
// the fours. Sound like VcfSearch; slower, so host search uses it at the root only.
class VctSearch {
 public:
  using Result = VcfSearch::Result;

  // Searches root (game not over) for a VCT of its side to move, using at most about node_budget
  // nodes (attacker and defender positions, the candidates tried and the VCF searches' nodes)
  // and wins of at most max_plies plies; stop is asked every StopCheck::kStopEvery nodes, and
  // by every VCF search inside.
  Result solve(const State& root, uint32_t node_budget, int max_plies, StopCheck stop = {}) {
    Result r;
    if (is_over(root) || max_plies < 1) return r;
    budget_ = node_budget;
    nodes_ = 0;
    next_poll_ = StopCheck::kStopEvery;
    exhausted_ = stopped_ = false;
    stop_ = stop;
    attacker_ = root.side;
    // Deepening by the threes allowed: wins with fewer threes (usually shorter) first.
    int plies = 0;
    for (int threes = 1; threes <= kMaxThrees && plies == 0 && !exhausted_; ++threes)
      plies = attack(root, threes, max_plies, 0);
    return Result::of(plies, first_, nodes_, exhausted_, stopped_);
  }

 private:
  static constexpr int kMaxThrees = 4;        // threes on one line of play
  static constexpr uint32_t kVcfNodes = 200;  // each VCF search inside

  bool spend(uint32_t n) {
    nodes_ += n;
    if (nodes_ > budget_) exhausted_ = true;
    if (nodes_ >= next_poll_) {
      next_poll_ = nodes_ + StopCheck::kStopEvery;
      if (stop_()) exhausted_ = stopped_ = true;
    }
    return exhausted_;
  }

  int vcf(const State& s, int max_plies, Move* first) {
    const Result r = vcf_.solve(s, kVcfNodes, max_plies, stop_);
    if (r.stopped) exhausted_ = stopped_ = true;
    spend(r.nodes);
    if (r.plies > 0 && first) *first = r.first;
    return r.plies;
  }

  // The attacker to move in s: plies to its five, 0 for no win found.
  int attack(const State& s, int threes, int plies_left, int depth) {
    if (spend(1)) return 0;
    Move first{};
    const int fours = vcf(s, plies_left, &first);
    if (fours > 0) {
      if (depth == 0) first_ = first;
      return fours;
    }
    if (threes == 0 || plies_left < 5 || exhausted_) return 0;
    const int n = s.size, a = attacker_, d = a ^ 1;
    // A five of the defender's to stop: the block is the only move, and it must leave a threat.
    uint64_t squares[kWords], wins[kWords];
    winning_squares(s, d, wins);
    int defender_wins = 0;
    for (int w = 0; w < kWords; ++w) defender_wins += count64(wins[w]);
    if (defender_wins >= 2) return 0;
    const bool forced = defender_wins == 1;
    if (forced)
      std::copy(wins, wins + kWords, squares);
    else
      window_squares(s, a, 2, squares);
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = squares[w]; b; b &= b - 1) {
        const int sq = 64 * w + lsb64(b);
        if (spend(1)) return 0;
        State t = s;
        apply(t, move_at(n, sq));
        int through[2];
        // A four is the VCF's (already searched), unless it is the forced block.
        if (!forced && winning_squares_through(t, a, sq % n, sq / n, through) > 0) continue;
        if (!has_double_threat(t, a)) continue;
        if (vcf(t, plies_left - 1, nullptr) > 0) continue;  // the defender wins first
        const int plies = defend(t, threes, plies_left - 1);
        if (plies > 0) {
          if (depth == 0) first_ = move_at(n, sq);
          return plies + 1;
        }
        if (exhausted_) return 0;
      }
    return 0;
  }

  // The defender to move in t, against the attacker's double threat to come: plies to the
  // attacker's five against the defender's best answer, 0 when some answer holds.
  int defend(const State& t, int threes, int plies_left) {
    if (spend(1) || plies_left < 4) return 0;
    const int n = t.size, a = attacker_, d = a ^ 1;
    if (!has_double_threat(t, a)) return 0;
    int worst = 0;
    uint64_t fours[kWords];
    four_squares(t, d, fours);
    uint64_t tried[kWords] = {};
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = fours[w]; b; b &= b - 1) {
        const int sq = 64 * w + lsb64(b);
        if (spend(1)) return 0;
        State u = t;
        apply(u, move_at(n, sq));
        int through[2];
        const int found = winning_squares_through(u, d, sq % n, sq / n, through);
        if (found == 0) continue;                // no four: an ordinary answer, below
        if (is_over(u) || found == 2) return 0;  // a five, or two squares to win
        tried[w] |= lowest_bit64(b);
        apply(u, move_at(n, through[0]));  // the attacker must block
        if (is_over(u)) return 0;
        const int plies = defend(u, threes, plies_left - 2);
        if (plies == 0) return 0;
        worst = std::max(worst, plies + 2);
      }
    uint64_t answers[kWords];
    four_squares(t, a, answers);
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = answers[w] & ~tried[w]; b; b &= b - 1) {
        const int sq = 64 * w + lsb64(b);
        State u = t;
        apply(u, move_at(n, sq));
        if (is_over(u)) return 0;
        const int plies = attack(u, threes - 1, plies_left - 1, 1);
        if (plies == 0) return 0;
        worst = std::max(worst, plies + 1);
      }
    return worst;
  }

  VcfSearch vcf_;
  uint32_t budget_ = 0, nodes_ = 0, next_poll_ = 0;
  bool exhausted_ = false, stopped_ = false;
  StopCheck stop_;
  int attacker_ = 0;
  Move first_{};
};

// The forced_win hook: the plies of a forced win of s's side to move found within node_budget
// nodes and max_plies plies (and before stop says so), 0 when none was; *first (when not null)
// gets its first move. Fours only (VCF), or with `broad` fours and threes (VCT). One search
// object of each kind per thread, so their tables are allocated once.
inline int forced_win(const State& s, uint32_t node_budget, int max_plies, bool broad, Move* first,
                      StopCheck stop = {}) {
  thread_local VcfSearch fours;
  thread_local VctSearch threats;
  const VcfSearch::Result r = broad ? threats.solve(s, node_budget, max_plies, stop)
                                    : fours.solve(s, node_budget, max_plies, stop);
  if (r.plies > 0 && first) *first = r.first;
  return r.plies;
}

}  // namespace sp::gomoku
