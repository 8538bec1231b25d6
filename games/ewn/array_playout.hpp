// EWN's plain reference playout (host only): what a straightforward program looks like, a 5x5
// board of cells, each ply the board scanned for the mover's cubes, the legal moves for the die
// listed (cubes by number, destinations by square), the chosen move applied cell by cell and the
// win found by testing the goal corner and scanning for an enemy cube. It follows the rules
// reference (../shared/reference/ewn.md) with both variant keys (capture_own, substitution) and
// both policies. It is the yardstick of the packed playouts, not a path of the backends: `selfplay
// bench` reports their rates as multiples of its rate (host/engines/rollout/array_playouts.hpp),
// and experiments/ewn-playouts measures it beside them. Like ewn::playout it takes one word of the
// rollout's stream per ply (the die from the high part of word * 6, the move from the low part)
// and lists moves in the same order, so every playout ends the same way in both.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/array_playouts.hpp"
#include "core/philox.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/playout.hpp"

namespace sp::ewn::plain {

constexpr int kN = 5;

// Cells: 0 empty, 1..6 player 0's cube of that number, -1..-6 player 1's.
struct Board {
  int8_t cell[kN][kN];
  int side = 0;
  int die = 0;             // 1..6 when already rolled, else 0
  int winner = kNoWinner;  // of a position that is already over
};

struct Move {
  int8_t from_row, from_col, to_row, to_col;
};

// The position of a packed state (square sq is row sq / 5, column sq % 5).
inline Board board(const State& s) {
  Board b;
  std::memset(b.cell, 0, sizeof b.cell);
  for (int side = 0; side < 2; ++side)
    for (int cube = 0; cube < kCubes; ++cube)
      if (alive_of(s, side) >> cube & 1u) {
        const int sq = square_of(s, side, cube);
        b.cell[sq / kN][sq % kN] = static_cast<int8_t>(side == 0 ? cube + 1 : -(cube + 1));
      }
  b.side = s.side;
  b.die = s.die;
  b.winner = s.winner;
  return b;
}

// The legal moves of the side to move for die, in order of cube number, then destination square
// (row by row). Returns their number (0: no move, a pass; only without captures of one's own).
inline int legal_moves(const Board& b, const Rules& rules, int die, Move moves[kMaxMoves]) {
  const int sign = b.side == 0 ? 1 : -1;
  bool on[8] = {};
  int row[8], col[8];
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c)
      if (const int v = b.cell[r][c] * sign; v > 0) on[v] = true, row[v] = r, col[v] = c;
  int movers[2], m = 0;
  if (on[die]) {
    movers[m++] = die;
  } else {
    int lower = die - 1, higher = die + 1;
    while (lower >= 1 && !on[lower]) --lower;
    while (higher <= 6 && !on[higher]) ++higher;
    if (rules.substitution == Substitution::kNearest && lower >= 1 && higher <= 6) {
      if (die - lower < higher - die)
        higher = 7;
      else if (higher - die < die - lower)
        lower = 0;
    }
    if (lower >= 1) movers[m++] = lower;
    if (higher <= 6) movers[m++] = higher;
  }
  // Player 0 steps right, down, down-right; player 1 up-left, up, left: each in square order.
  static constexpr int kDr[2][3] = {{0, 1, 1}, {-1, -1, 0}}, kDc[2][3] = {{1, 0, 1}, {-1, 0, -1}};
  int n = 0;
  for (int i = 0; i < m; ++i) {
    const int r = row[movers[i]], c = col[movers[i]];
    for (int d = 0; d < 3; ++d) {
      const int tr = r + kDr[b.side][d], tc = c + kDc[b.side][d];
      if (tr < 0 || tr >= kN || tc < 0 || tc >= kN) continue;
      if (!rules.capture_own && b.cell[tr][tc] * sign > 0) continue;
      moves[n++] = Move{static_cast<int8_t>(r), static_cast<int8_t>(c), static_cast<int8_t>(tr),
                        static_cast<int8_t>(tc)};
    }
  }
  return n;
}

inline bool is_goal(int side, int r, int c) {
  return side == 0 ? r == kN - 1 && c == kN - 1 : r == 0 && c == 0;
}

inline int enemy_cubes(const Board& b) {
  const int sign = b.side == 0 ? 1 : -1;
  int n = 0;
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c) n += b.cell[r][c] * sign < 0;
  return n;
}

// Steps to the goal corner (the larger of the row and column distances).
inline int distance(int side, int r, int c) {
  return side == 0 ? kN - 1 - (r < c ? r : c) : (r > c ? r : c);
}

// The heavy policy's pick (PlayoutPolicy): the first winning move in list order, else a move drawn
// by weight.
inline int heavy_pick(const Board& b, const PlayoutPolicy& p, const Move* moves, int n,
                      uint32_t word) {
  const int sign = b.side == 0 ? 1 : -1, enemies = enemy_cubes(b);
  uint32_t weight[kMaxMoves], total = 0;
  for (int i = 0; i < n; ++i) {
    const Move& mv = moves[i];
    const bool capture = b.cell[mv.to_row][mv.to_col] * sign < 0;
    if (is_goal(b.side, mv.to_row, mv.to_col) || (capture && enemies == 1)) return i;
    uint32_t w = distance(b.side, mv.to_row, mv.to_col) < distance(b.side, mv.from_row, mv.from_col)
                     ? p.goal_weight
                     : kWeightOne;
    if (capture) w = (w * p.capture_weight) >> 8;
    weight[i] = w;
    total += w;
  }
  uint32_t r = bounded(word, total);
  for (int i = 0; i < n; ++i) {
    if (r < weight[i]) return i;
    r -= weight[i];
  }
  return 0;
}

// Whether the side that just moved to (r, c) has won: its goal corner, or no enemy cube left.
inline bool won(const Board& b, int side, int r, int c) {
  if (is_goal(side, r, c)) return true;
  const int sign = side == 0 ? 1 : -1;
  for (int rr = 0; rr < kN; ++rr)
    for (int cc = 0; cc < kN; ++cc)
      if (b.cell[rr][cc] * sign < 0) return false;
  return true;
}

inline PlayoutResult playout(Board b, const Rules& rules, const PlayoutPolicy& policy,
                             BlockStream& rng) {
  if (b.winner != kNoWinner) return {static_cast<uint8_t>(b.winner), 0};
  Philox4x32 block{};
  for (int plies = 0; plies < kMaxPlayoutPlies;) {
    if ((plies & 3) == 0) block = rng.next();
    // One word a ply: the die is the high part of word * 6 (a die already rolled is kept, its word
    // still taken), the move is drawn from the low part.
    const uint64_t scaled = static_cast<uint64_t>(block.v[plies & 3]) * 6u;
    ++plies;
    const int die = b.die != 0 ? b.die : 1 + static_cast<int>(scaled >> 32);
    b.die = 0;
    const auto word = static_cast<uint32_t>(scaled);
    Move moves[kMaxMoves];
    const int n = legal_moves(b, rules, die, moves);
    const int side = b.side;
    if (n > 0) {
      const int k = policy.kind == PolicyKind::kUniform
                        ? static_cast<int>(bounded(word, static_cast<uint32_t>(n)))
                        : heavy_pick(b, policy, moves, n, word);
      const Move& mv = moves[k];
      b.cell[mv.to_row][mv.to_col] = b.cell[mv.from_row][mv.from_col];
      b.cell[mv.from_row][mv.from_col] = 0;
      if (won(b, side, mv.to_row, mv.to_col))
        return {static_cast<uint8_t>(side), static_cast<uint16_t>(plies)};
    }
    b.side ^= 1;
  }
  return {kNoWinner, static_cast<uint16_t>(kMaxPlayoutPlies)};
}

}  // namespace sp::ewn::plain

namespace sp::rollout {

template <>
struct ArrayPlayouts<EwnGame> {
  static constexpr bool kAvailable = true;
  static constexpr const char* kName =
      "a plain program: a 5x5 array of cells, the legal moves listed each ply";
  using Board = ewn::plain::Board;
  static Board board(const EwnGame::State& s) { return ewn::plain::board(s); }
  static bool handles(const EwnGame::Policy&) { return true; }
  static EwnGame::Result playout(const Board& b, const EwnGame::Rules& rules,
                                 const EwnGame::Policy& policy, BlockStream& rng) {
    return ewn::plain::playout(b, rules, policy, rng);
  }
};

}  // namespace sp::rollout
