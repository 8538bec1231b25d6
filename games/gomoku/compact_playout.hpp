// The weighted Gomoku playout as a GPU thread runs it: the same moves as weighted_playout
// (playout.hpp), from three bitboards instead of seven, because on a GPU every bitboard is W 64-bit
// registers of every thread, and registers decide how many threads an SM holds at once.
//
// weighted_playout keeps empty, the mover's stones (and theirs, as BitRep), near1 and near2, and a
// board of threat squares per side. Here:
//   a     near1: the squares within one square of a stone (every stone's own square included);
//   b     near2 & empty: the empty squares within two squares of a stone;
//   m     on a stone, whether it is the mover's; on an empty square, whether it is a threat square
//         of either side (the threat squares form a superset of the empty squares where either
//         side wins).
// A square's class is the pair (a, b): (0, 0) far, (0, 1) near, (1, 1) adjacent, (1, 0) a stone
// (a stone always lies in near1, never in b), so stones = a & ~b, mine = m & stones, theirs =
// stones & ~m, and the threat squares are m & ~stones; when the turn passes, m ^= stones.
// The threat squares of one side are those where it wins, found by walking them (a few squares)
// each ply; a square where neither side wins is dropped, which loses nothing: a square becomes a
// win of a side only by a stone of that side, and add_threats adds it then.
//
// The CPU keeps weighted_playout (LineRep's line words are faster there); a test plays both on the
// same streams and compares every result.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/playout.hpp"

namespace sp::gomoku {

namespace playout_detail {

// board_mask(N, w) for a w known only at run time, without a table.
template <int N>
SP_HD SP_FORCEINLINE uint64_t board_mask_at(int w) {
  constexpr int kW = words_of(N);
  uint64_t m = board_mask(N, 0);
  SP_UNROLL
  for (int k = 1; k < kW; ++k) m = w == k ? board_mask(N, k) : m;
  return m;
}

template <int N>
struct CompactBoards {
  static constexpr int kW = words_of(N);
  uint64_t m[kW], a[kW], b[kW];

  SP_HD SP_FORCEINLINE uint64_t stones_word(int w) const { return a[w] & ~b[w]; }
  SP_HD SP_FORCEINLINE uint64_t empty_word(int w) const {
    return ~stones_word(w) & board_mask(N, w);
  }
  SP_HD SP_FORCEINLINE uint64_t threats_word(int w) const { return m[w] & ~stones_word(w); }
  SP_HD SP_FORCEINLINE bool is_stone(int sq) const { return test_at(a, sq) && !test_at(b, sq); }
  // Squares off the board are never asked.
  SP_HD SP_FORCEINLINE bool is_mine(int sq) const { return test_at(m, sq) && is_stone(sq); }
  SP_HD SP_FORCEINLINE bool is_theirs(int sq) const { return !test_at(m, sq) && is_stone(sq); }

  // (a, b) of s, m its side to move's stones and no threat square yet.
  SP_HD SP_FORCEINLINE void init(const State& s) {
    SP_UNROLL
    for (int w = 0; w < kW; ++w) {
      m[w] = s.side ? s.stones[1][w] : s.stones[0][w];
      a[w] = b[w] = 0;
    }
    SP_UNROLL
    for (int w = 0; w < kW; ++w)
      for (uint64_t stones = s.stones[0][w] | s.stones[1][w]; stones; stones &= stones - 1) {
        const int sq = 64 * w + lsb64(stones);
        set_area_at<N>(a, sq % N, sq / N, 1);
        set_area_at<N>(b, sq % N, sq / N, 2);
      }
    SP_UNROLL
    for (int w = 0; w < kW; ++w) b[w] &= ~(s.stones[0][w] | s.stones[1][w]);
  }

  // A stone of mine on the empty square (x, y): b gains the empty squares within two of it (each
  // row segment masked by the empty squares before the stone), loses the stone's own square, and
  // a gains the squares within one; m's bit there, a threat square's before, is now the stone's.
  SP_HD SP_FORCEINLINE void place(int x, int y) {
    const int sq = y * N + x;
    const int x0 = x - 2 < 0 ? 0 : x - 2, x1 = x + 2 >= N ? N - 1 : x + 2;
    const int y0 = y - 2 < 0 ? 0 : y - 2, y1 = y + 2 >= N ? N - 1 : y + 2;
    const uint64_t bits = (uint64_t{1} << (x1 - x0 + 1)) - 1;
    for (int yy = y0; yy <= y1; ++yy) {
      const int first = yy * N + x0, w = first >> 6, offset = first & 63;
      const auto add = [this](int at, uint64_t segment) {
        or_at(b, at, segment & (~word_at(a, at) | word_at(b, at)) & board_mask_at<N>(at));
      };
      add(w, bits << offset);
      if (offset + (x1 - x0 + 1) > 64) add(w + 1, bits >> (64 - offset));
    }
    SP_UNROLL
    for (int w = 0; w < kW; ++w)
      b[w] &= w == (sq >> 6) ? ~(uint64_t{1} << (sq & 63)) : ~uint64_t{0};
    set_area_at<N>(a, x, y, 1);
    set_at(m, sq);
  }

  SP_HD SP_FORCEINLINE bool makes_five(bool of_theirs, WinRule rule, int x, int y) const {
    return makes_five_with(
        [this, of_theirs](int q) { return of_theirs ? is_theirs(q) : is_mine(q); }, N, rule, x, y);
  }

  // The Window through (x, y) in direction d of mine (of_theirs false) or theirs.
  SP_HD SP_FORCEINLINE Window window_of(bool of_theirs, int d, int x, int y) const {
    const int dx = direction_dx(d), dy = direction_dy(d);
    Window win{0, 0};
    for (int k = -5; k <= 5; ++k) {
      const int cx = x + k * dx, cy = y + k * dy;
      if (!on_board(N, cx, cy)) continue;
      const int q = cy * N + cx;
      const bool stone = is_stone(q);
      const bool own = stone && (test_at(m, q) != of_theirs);
      win.own |= static_cast<uint32_t>(own) << (kWindowCentre + k);
      win.empty |= static_cast<uint32_t>(!stone) << (kWindowCentre + k);
    }
    return win;
  }

  SP_HD SP_FORCEINLINE void swap() {
    SP_UNROLL
    for (int w = 0; w < kW; ++w) m[w] ^= stones_word(w);
  }
};

// The side of CompactBoards that add_threats reads, mine or theirs, and the board it marks threat
// squares on: m itself (add_threats only marks empty squares). add_threats' board of empty
// squares, the argument after d, x, y, is not needed.
template <int N>
struct CompactSide {
  const CompactBoards<N>& boards;
  bool of_theirs;
  template <class Unused>
  SP_HD SP_FORCEINLINE Window window(int d, int x, int y, const Unused&) const {
    return boards.window_of(of_theirs, d, x, y);
  }
};

}  // namespace playout_detail

// weighted_playout<N> (playout.hpp) from CompactBoards: the same result on the same stream.
template <int N>
SP_HD inline PlayoutResult compact_weighted_playout(const State& s, const Policy& p,
                                                    BlockStream& rng) {
  using namespace playout_detail;
  constexpr int W = words_of(N);
  CompactBoards<N> boards;
  boards.init(s);
  const WinRule rule = s.rule;
  const int none = 0;  // add_threats' empty-board argument, unused by CompactSide
  for (int turn = 0; turn < 2; ++turn) {  // the side to move's stones, then the other side's
    const int side = s.side ^ turn;
    const CompactSide<N> reader{boards, turn == 1};
    SP_UNROLL
    for (int w = 0; w < W; ++w)
      for (uint64_t stones = s.stones[side][w]; stones; stones &= stones - 1) {
        const int sq = 64 * w + lsb64(stones);
        add_threats<N>(reader, none, rule, sq % N, sq / N, boards.m);
      }
  }
  uint32_t left = static_cast<uint32_t>(N * N - s.ply), plies = 0;
  Philox4x32 block{};
  for (;;) {
    if (left == 0) return PlayoutResult{kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    const uint32_t word = word_of(block, plies & 3u);
    // Wins first, then blocks. The threat squares where the mover wins are counted; when there
    // are none, those where the opponent wins, and only those stay threat squares (the others are
    // no win of either side now).
    uint32_t n = 0;
    SP_UNROLL
    for (int w = 0; w < W; ++w)
      for (uint64_t c = boards.threats_word(w); c; c &= c - 1) {
        const int sq = 64 * w + lsb64(c);
        n += boards.makes_five(false, rule, sq % N, sq / N) ? 1u : 0u;
      }
    bool of_theirs = false;
    if (n == 0) {
      of_theirs = true;
      SP_UNROLL
      for (int w = 0; w < W; ++w)
        for (uint64_t c = boards.threats_word(w); c; c &= c - 1) {
          const int sq = 64 * w + lsb64(c);
          if (boards.makes_five(true, rule, sq % N, sq / N))
            ++n;
          else
            boards.m[w] &= ~lowest_bit64(c);
        }
    }
    int sq = 0;
    if (n != 0) {
      // The k-th winning threat square, in the order of the squares.
      uint32_t k = bounded(word, n);
      bool found = false;
      SP_UNROLL
      for (int w = 0; w < W; ++w)
        for (uint64_t c = boards.threats_word(w); c && !found; c &= c - 1) {
          const int q = 64 * w + lsb64(c);
          if (!boards.makes_five(of_theirs, rule, q % N, q / N)) continue;
          if (k == 0) {
            sq = q;
            found = true;
          }
          --k;
        }
    } else {
      uint32_t na = 0, nn = 0;
      SP_UNROLL
      for (int w = 0; w < W; ++w) {
        na += static_cast<uint32_t>(count64(boards.a[w] & boards.b[w]));
        nn += static_cast<uint32_t>(count64(~boards.a[w] & boards.b[w]));
      }
      const WeightClass c = weight_class(p, na, nn, left, word);
      const int kind = c.kind;
      sq = nth_square_of<W>(
          [&boards, kind](int w) {
            const uint64_t a = boards.a[w], b = boards.b[w];
            return kind == 0   ? boards.empty_word(w)
                   : kind == 1 ? a & b
                   : kind == 2 ? ~a & b
                               : ~a & ~b & board_mask(N, w);
          },
          c.index);
    }
    const int x = sq % N, y = sq / N;
    boards.place(x, y);
    --left;
    ++plies;
    const CompactSide<N> reader{boards, false};
    if (add_threats<N>(reader, none, rule, x, y, boards.m))
      return PlayoutResult{static_cast<uint8_t>(s.side ^ ((plies - 1) & 1u)),
                           static_cast<uint16_t>(plies)};
    boards.swap();
  }
}

}  // namespace sp::gomoku
