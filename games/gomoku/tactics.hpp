// What host search needs to know about threats: the squares where a side would make a winning
// row, the moves worth searching (candidate_moves) and the moves to order first (is_tactical).
// Host only.
#pragma once

#include <cstdint>

#include "games/gomoku/gomoku.hpp"

namespace sp::gomoku {

// The empty squares within `radius` squares (in both coordinates) of a stone of the sides in
// `sides` (bit 0 Black, bit 1 White).
inline void squares_near(const State& s, unsigned sides, int radius, uint64_t (&out)[kWords]) {
  uint64_t zone[kWords] = {};
  for (int side = 0; side < 2; ++side) {
    if (!((sides >> side) & 1u)) continue;
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = s.stones[side][w]; b; b &= b - 1) {
        const int sq = 64 * w + lsb64(b);
        set_area(zone, s.size, sq % s.size, sq / s.size, radius);
      }
  }
  for (int w = 0; w < kWords; ++w) out[w] = zone[w] & empty_word(s, w);
}

// The empty squares where side would make a winning row. Such a square lies next to a stone of
// the side (the row holds both), so only those are tried.
inline void winning_squares(const State& s, int side, uint64_t (&out)[kWords]) {
  uint64_t near[kWords];
  squares_near(s, 1u << side, 1, near);
  for (int w = 0; w < kWords; ++w) {
    out[w] = 0;
    for (uint64_t b = near[w]; b; b &= b - 1) {
      const int sq = 64 * w + lsb64(b);
      if (makes_five(s.stones[side], s.size, s.rule, sq % s.size, sq / s.size))
        out[w] |= lowest_bit64(b);
    }
  }
}

// The moves alpha-beta searches, in row-major order. The side to move's winning moves when it has
// any; else the squares where the opponent would win (any other move loses at once, so nothing is
// lost by searching only these); else every empty square within two squares of a stone, or the
// centre of an empty board. A subset of the legal moves, never empty for a game that is not over.
inline void candidate_moves(const State& s, MoveList& list) {
  list.size = 0;
  uint64_t squares[kWords];
  winning_squares(s, s.side, squares);
  bool any = false;
  for (uint64_t w : squares) any = any || w;
  if (!any) {
    winning_squares(s, s.side ^ 1, squares);
    for (uint64_t w : squares) any = any || w;
  }
  if (!any) {
    if (s.ply == 0) {
      list.push(Move{static_cast<uint8_t>(s.size / 2), static_cast<uint8_t>(s.size / 2)});
      return;
    }
    squares_near(s, 3u, 2, squares);
  }
  for (int w = 0; w < kWords; ++w)
    for (uint64_t b = squares[w]; b; b &= b - 1) list.push(move_at(s.size, 64 * w + lsb64(b)));
}

// Whether m (legal in s) makes a four or a five for the side to move, or takes a square where the
// opponent would make one: some window of five squares through it on one of its lines, free of the
// other side's stones, would hold four or five of that side's stones with m's square.
inline bool is_tactical(const State& s, Move m) {
  const int n = s.size;
  const uint64_t* own = s.stones[s.side];
  const uint64_t* opp = s.stones[s.side ^ 1];
  for (int d = 0; d < kDirections; ++d) {
    const int dx = direction_dx(d), dy = direction_dy(d);
    uint32_t mine = 0, theirs = 0, off = 0;  // offsets -4..4 at bits 0..8, m's square at bit 4
    for (int k = -4; k <= 4; ++k) {
      const int x = m.x + k * dx, y = m.y + k * dy;
      const uint32_t bit = 1u << (k + 4);
      if (!on_board(n, x, y)) {
        off |= bit;
        continue;
      }
      if (test_square(own, y * n + x)) mine |= bit;
      if (test_square(opp, y * n + x)) theirs |= bit;
    }
    for (int start = 0; start <= 4; ++start) {
      const uint32_t window = 0x1Fu << start;
      if (off & window) continue;
      if (!(theirs & window) && count(mine & window) >= 3) return true;
      if (!(mine & window) && count(theirs & window) >= 3) return true;
    }
  }
  return false;
}

}  // namespace sp::gomoku
