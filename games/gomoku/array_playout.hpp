// Gomoku's plain reference playout (host only): what a straightforward program looks like, a
// board of cells, each ply the k-th empty square found by walking the cells and a winning row found
// by walking the four lines through the last stone. It follows the rules reference
// (../shared/reference/gomoku.md) on both board sizes and both win rules (which travel in the
// state), and plays the uniform policy only. It is the yardstick of the bitboard playouts, not a
// path of the backends: `selfplay bench` reports their rates as multiples of its rate
// (host/engines/rollout/array_playouts.hpp), and experiments/gomoku-playouts measures it beside
// them. It numbers the empty squares row by row and takes one word of the rollout's stream per ply,
// as gomoku::playout does, so every uniform playout ends the same way in both.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/array_playouts.hpp"
#include "core/philox.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/playout.hpp"

namespace sp::gomoku::plain {

struct Board {
  int8_t cell[kMaxSquares];  // row by row; -1 empty, else the side's stone
  int n = 15, side = 0, stones = 0;
  bool exactly_five = false;  // the standard rule (six or more in a row is no win)
  int winner = kNoWinner;     // of a position that is already over
};

// The position of a packed state (square y * size + x is bit (y * size + x) % 64 of word
// (y * size + x) / 64).
inline Board board(const State& s) {
  Board b;
  std::memset(b.cell, -1, sizeof b.cell);
  b.n = s.size;
  for (int sq = 0; sq < b.n * b.n; ++sq)
    for (int side = 0; side < 2; ++side)
      if (s.stones[side][sq / 64] >> (sq % 64) & 1u) b.cell[sq] = static_cast<int8_t>(side);
  b.side = s.side;
  b.stones = s.ply;
  b.exactly_five = s.rule == WinRule::kStandard;
  b.winner = s.winner;
  return b;
}

// Stones of side in a row from (x, y) (excluded) in direction (dx, dy).
inline int run(const Board& b, int x, int y, int dx, int dy, int side) {
  int k = 0;
  for (x += dx, y += dy; x >= 0 && x < b.n && y >= 0 && y < b.n && b.cell[y * b.n + x] == side;
       x += dx, y += dy)
    ++k;
  return k;
}

// Whether the stone of side on (x, y) stands in a winning row.
inline bool five(const Board& b, int x, int y, int side) {
  static constexpr int kDx[4] = {1, 0, 1, 1}, kDy[4] = {0, 1, 1, -1};
  for (int d = 0; d < 4; ++d) {
    const int row = 1 + run(b, x, y, kDx[d], kDy[d], side) + run(b, x, y, -kDx[d], -kDy[d], side);
    if (b.exactly_five ? row == 5 : row >= 5) return true;
  }
  return false;
}

// A uniform playout: a full board without a winning row is a draw.
inline PlayoutResult playout(Board b, BlockStream& rng) {
  if (b.winner != kNoWinner) return {static_cast<uint8_t>(b.winner), 0};
  uint32_t plies = 0;
  Philox4x32 block{};
  const int squares = b.n * b.n;
  for (;;) {
    if (b.stones == squares) return {kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    uint32_t k = bounded(block.v[plies & 3u], static_cast<uint32_t>(squares - b.stones));
    int sq = 0;
    for (;; ++sq)
      if (b.cell[sq] < 0 && k-- == 0) break;
    b.cell[sq] = static_cast<int8_t>(b.side);
    ++b.stones;
    ++plies;
    if (five(b, sq % b.n, sq / b.n, b.side))
      return {static_cast<uint8_t>(b.side), static_cast<uint16_t>(plies)};
    b.side ^= 1;
  }
}

}  // namespace sp::gomoku::plain

namespace sp::rollout {

template <>
struct ArrayPlayouts<GomokuGame> {
  static constexpr bool kAvailable = true;
  static constexpr const char* kName =
      "a plain program: an array of cells, the k-th empty cell found by a walk";
  using Board = gomoku::plain::Board;
  static Board board(const GomokuGame::State& s) { return gomoku::plain::board(s); }
  static bool handles(const GomokuGame::Policy& p) {
    return p.kind == gomoku::PolicyKind::kUniform;
  }
  static GomokuGame::Result playout(const Board& b, const GomokuGame::Rules&,
                                    const GomokuGame::Policy&, BlockStream& rng) {
    return gomoku::plain::playout(b, rng);
  }
};

}  // namespace sp::rollout
