// Checkers' plain reference playout (host only): what a straightforward program looks like, an
// 8x8 board of cells, each ply every legal move collected into a list with its path (the jumps
// found by a recursive search), the chosen one applied cell by cell. It follows the rules
// reference (../shared/reference/checkers.md) and the draw limits that travel in the state, and
// plays the uniform policy only. It is the yardstick of the bitboard playouts, not a path of the
// backends: `selfplay bench` reports their rates as multiples of its rate
// (host/engines/rollout/array_playouts.hpp), and experiments/checkers-playouts measures it beside
// them. It lists the moves in the order of generate_moves and takes one word of the rollout's
// stream per ply, as checkers::playout does, so every uniform playout ends the same way in both.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/array_playouts.hpp"
#include "core/philox.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/playout.hpp"

namespace sp::checkers::plain {

// Cells of an 8x8 board (row 0 = Black's side).
enum Cell : int8_t { kEmpty, kBlackMan, kBlackKing, kWhiteMan, kWhiteKing };

struct Board {
  int8_t cell[8][8];
  int side = 0, ply = 0, quiet = 0;
  int max_plies = Rules{}.max_plies, quiet_limit = Rules{}.quiet_limit;  // quiet_limit 0: never
};

struct Move {
  int8_t row[kMaxJumps + 2], file[kMaxJumps + 2];  // the path: start, then every landing square
  int8_t cap_row[kMaxJumps + 1], cap_file[kMaxJumps + 1];
  int n = 0, captures = 0;
};

// Directions in the order of the bitboard code: SW, SE, NE, NW.
constexpr int kRowStep[4] = {1, 1, -1, -1};
constexpr int kFileStep[4] = {-1, 1, 1, -1};

inline bool on_board(int r, int f) { return r >= 0 && r < 8 && f >= 0 && f < 8; }
inline bool own(int c, int side) {
  return side == 0 ? (c == kBlackMan || c == kBlackKing) : (c == kWhiteMan || c == kWhiteKing);
}
inline bool is_king(int c) { return c == kBlackKing || c == kWhiteKing; }
inline bool may_go(int c, int side, int d) { return is_king(c) || (side == 0 ? d < 2 : d >= 2); }
// PDN square order: row by row, files left to right.
inline void square_of(int sq, int* r, int* f) {
  *r = sq / 4;
  *f = 2 * (sq % 4) + (*r % 2 == 0 ? 1 : 0);
}

// The position of a packed state (bit sq of the boards is PDN square sq + 1).
inline Board board(const State& s) {
  Board b;
  std::memset(b.cell, kEmpty, sizeof b.cell);
  for (int sq = 0; sq < kSquares; ++sq) {
    int r, f;
    square_of(sq, &r, &f);
    const bool king = s.kings >> sq & 1u;
    if (s.pieces[0] >> sq & 1u) b.cell[r][f] = king ? kBlackKing : kBlackMan;
    if (s.pieces[1] >> sq & 1u) b.cell[r][f] = king ? kWhiteKing : kWhiteMan;
  }
  b.side = s.side;
  b.ply = s.ply;
  b.quiet = s.quiet;
  b.max_plies = s.max_plies;
  b.quiet_limit = s.quiet_limit;
  return b;
}

struct Generator {
  Board& b;
  Move* out;
  int n = 0;
  bool jumped[8][8] = {};

  void jumps(Move& m, int piece) {
    const int r = m.row[m.n - 1], f = m.file[m.n - 1];
    bool extended = false;
    for (int d = 0; d < 4; ++d) {
      if (!may_go(piece, b.side, d)) continue;
      const int orow = r + kRowStep[d], ofile = f + kFileStep[d];
      const int lrow = orow + kRowStep[d], lfile = ofile + kFileStep[d];
      if (!on_board(lrow, lfile)) continue;
      const int over = b.cell[orow][ofile];
      if (over == kEmpty || own(over, b.side) || jumped[orow][ofile]) continue;
      if (b.cell[lrow][lfile] != kEmpty) continue;
      extended = true;
      jumped[orow][ofile] = true;
      m.cap_row[m.captures] = static_cast<int8_t>(orow);
      m.cap_file[m.captures++] = static_cast<int8_t>(ofile);
      m.row[m.n] = static_cast<int8_t>(lrow);
      m.file[m.n++] = static_cast<int8_t>(lfile);
      const bool crowns = !is_king(piece) && lrow == (b.side == 0 ? 7 : 0);
      if (crowns)
        out[n++] = m;
      else
        jumps(m, piece);
      --m.n;
      --m.captures;
      jumped[orow][ofile] = false;
    }
    if (!extended && m.captures > 0) out[n++] = m;
  }

  int run() {
    for (int sq = 0; sq < kSquares; ++sq) {
      int r, f;
      square_of(sq, &r, &f);
      const int piece = b.cell[r][f];
      if (!own(piece, b.side)) continue;
      Move m;
      m.row[0] = static_cast<int8_t>(r);
      m.file[0] = static_cast<int8_t>(f);
      m.n = 1;
      b.cell[r][f] = kEmpty;  // the start square is empty during the jumps
      jumps(m, piece);
      b.cell[r][f] = static_cast<int8_t>(piece);
    }
    if (n) return n;
    for (int d = 0; d < 4; ++d)
      for (int sq = 0; sq < kSquares; ++sq) {
        int r, f;
        square_of(sq, &r, &f);
        const int piece = b.cell[r][f];
        if (!own(piece, b.side) || !may_go(piece, b.side, d)) continue;
        const int tr = r + kRowStep[d], tf = f + kFileStep[d];
        if (!on_board(tr, tf) || b.cell[tr][tf] != kEmpty) continue;
        Move& m = out[n++];
        m.row[0] = static_cast<int8_t>(r), m.file[0] = static_cast<int8_t>(f);
        m.row[1] = static_cast<int8_t>(tr), m.file[1] = static_cast<int8_t>(tf);
        m.n = 2;
        m.captures = 0;
      }
    return n;
  }
};

inline void apply(Board& b, const Move& m) {
  const int piece = b.cell[m.row[0]][m.file[0]];
  b.cell[m.row[0]][m.file[0]] = kEmpty;
  for (int i = 0; i < m.captures; ++i) b.cell[m.cap_row[i]][m.cap_file[i]] = kEmpty;
  const int r = m.row[m.n - 1], f = m.file[m.n - 1];
  const bool crowns = !is_king(piece) && r == (b.side == 0 ? 7 : 0);
  b.cell[r][f] = static_cast<int8_t>(crowns ? piece + 1 : piece);
  b.quiet = is_king(piece) && m.captures == 0 ? b.quiet + 1 : 0;
  ++b.ply;
  b.side ^= 1;
}

// A uniform playout: a side without a move loses, the draw limits end the game otherwise.
inline PlayoutResult playout(Board b, BlockStream& rng) {
  Move moves[kMaxMoves];
  uint32_t plies = 0;
  Philox4x32 block{};
  for (;;) {
    Generator g{b, moves};
    const int n = g.run();
    if (n == 0) return {static_cast<uint8_t>(b.side ^ 1), static_cast<uint16_t>(plies)};
    if ((b.quiet_limit != 0 && b.quiet >= b.quiet_limit) || b.ply >= b.max_plies)
      return {kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    apply(b, moves[bounded(block.v[plies & 3u], static_cast<uint32_t>(n))]);
    ++plies;
  }
}

}  // namespace sp::checkers::plain

namespace sp::rollout {

template <>
struct ArrayPlayouts<CheckersGame> {
  static constexpr bool kAvailable = true;
  static constexpr const char* kName =
      "a plain program: an 8x8 array of cells, the moves and jump paths listed each ply";
  using Board = checkers::plain::Board;
  static Board board(const CheckersGame::State& s) { return checkers::plain::board(s); }
  static bool handles(const CheckersGame::Policy& p) {
    return p.kind == checkers::PolicyKind::kUniform;
  }
  static CheckersGame::Result playout(const Board& b, const CheckersGame::Rules&,
                                      const CheckersGame::Policy&, BlockStream& rng) {
    return checkers::plain::playout(b, rng);
  }
};

}  // namespace sp::rollout
