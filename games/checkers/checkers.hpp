// English checkers (8x8 draughts, ../shared/reference/checkers.md), written once for host and
// device: three 32-bit boards, every step a masked shift, no tables in memory and no heap.
//
// Squares 0..31 are the PDN squares 1..32 minus one: row r = sq / 4 counted from Black's side (the
// top of a PDN diagram), file 2 * (sq % 4) + 1 on even rows and 2 * (sq % 4) on odd rows. Black
// (side 0) starts on 0..11, moves first, its men step south (to higher squares) and crown on row
// 7; White (side 1) starts on 20..31, steps north and crowns on row 0.
//
// A move is one 32-bit word: the start square, the number of jumps (0 for a plain step) and one
// direction per jump (the step's direction for a plain move). Each distinct jump path is its own
// move, so a king that can take the same pieces clockwise or anticlockwise has two moves.
//
// The draw rules travel in the state (quiet_limit, max_plies), because apply() and is_over() see
// no Rules: a draw after quiet_limit plies in a row without a capture or a man move (a promotion
// is a man move), and at max_plies plies. Threefold repetition (Rules::repetition) needs the
// positions since the last capture or man move, which a state does not hold: whoever plays a game
// move by move keeps them (core/repetition.hpp), and playouts end through the two
// counters alone.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace sp::checkers {

inline constexpr int kSquares = 32;
inline constexpr int kPiecesPerSide = 12;
// A piece jumps within one of two lattices of 8 landing squares joined by 9 possible jumps (each
// over its own square), so a path has at most 9 jumps and one piece at most 16 complete paths
// (brute force over every set of jumps, in the rules test); with 12 pieces, 192 moves at most.
inline constexpr int kMaxJumps = 9;
inline constexpr int kMaxPathsPerPiece = 16;
inline constexpr int kMaxMoves = kPiecesPerSide * kMaxPathsPerPiece;
inline constexpr uint8_t kNoWinner = 2;

// ---- Geometry: a slow reference on (row, file), and the shifts built from it.

enum Direction : int { kSouthWest = 0, kSouthEast = 1, kNorthEast = 2, kNorthWest = 3 };
inline constexpr int kDirections = 4;

SP_HD constexpr int opposite(int d) { return d ^ 2; }
// Men move forward only: Black south-west/south-east, White north-east/north-west.
SP_HD constexpr bool is_forward(int side, int d) { return (d >> 1) == side; }
SP_HD constexpr uint32_t forward_directions(int side) { return side == 0 ? 0x3u : 0xCu; }

constexpr int row_of(int sq) { return sq >> 2; }
constexpr int file_of(int sq) { return 2 * (sq & 3) + (row_of(sq) % 2 == 0 ? 1 : 0); }
// The square on (row, file), or -1 off the board or on a light square.
constexpr int square_at(int row, int file) {
  if (row < 0 || row >= 8 || file < 0 || file >= 8 || (row + file) % 2 == 0) return -1;
  return row * 4 + file / 2;
}
// The square one diagonal step from sq in direction d, or -1: the definition the shifts follow.
constexpr int reference_step(int sq, int d) {
  const int row_step = d == kSouthWest || d == kSouthEast ? 1 : -1;
  const int file_step = d == kSouthEast || d == kNorthEast ? 1 : -1;
  return square_at(row_of(sq) + row_step, file_of(sq) + file_step);
}
// The squares whose step in direction d lands on sq + delta.
constexpr uint32_t step_mask(int d, int delta) {
  uint32_t m = 0;
  for (int sq = 0; sq < kSquares; ++sq)
    if (reference_step(sq, d) >= 0 && reference_step(sq, d) == sq + delta) m |= 1u << sq;
  return m;
}

// A step changes the square number by one of two amounts, by the parity of the row.
inline constexpr uint32_t kSouthWest4 = step_mask(kSouthWest, 4);
inline constexpr uint32_t kSouthWest3 = step_mask(kSouthWest, 3);
inline constexpr uint32_t kSouthEast5 = step_mask(kSouthEast, 5);
inline constexpr uint32_t kSouthEast4 = step_mask(kSouthEast, 4);
inline constexpr uint32_t kNorthEast3 = step_mask(kNorthEast, -3);
inline constexpr uint32_t kNorthEast4 = step_mask(kNorthEast, -4);
inline constexpr uint32_t kNorthWest4 = step_mask(kNorthWest, -4);
inline constexpr uint32_t kNorthWest5 = step_mask(kNorthWest, -5);

// The squares one step from the squares of b in direction d (off-board steps vanish).
SP_HD SP_FORCEINLINE uint32_t shift(uint32_t b, int d) {
  switch (d) {
    case kSouthWest:
      return ((b & kSouthWest4) << 4) | ((b & kSouthWest3) << 3);
    case kSouthEast:
      return ((b & kSouthEast5) << 5) | ((b & kSouthEast4) << 4);
    case kNorthEast:
      return ((b & kNorthEast3) >> 3) | ((b & kNorthEast4) >> 4);
    default:
      return ((b & kNorthWest4) >> 4) | ((b & kNorthWest5) >> 5);
  }
}

// The row where side's men crown: row 7 for Black, row 0 for White.
SP_HD constexpr uint32_t crown_row(int side) { return side == 0 ? 0xF0000000u : 0x0000000Fu; }
// Each side's back row (where it starts, and the row the other side's men crown on).
SP_HD constexpr uint32_t back_row(int side) { return crown_row(side ^ 1); }

// ---- State, rules, moves

struct Rules {
  uint16_t max_plies = 400;  // a draw when the game reaches this many plies (>= 1)
  uint8_t quiet_limit = 80;  // a draw after this many plies without capture or man move; 0 = never
  uint8_t repetition = 3;    // a draw when a position occurs this many times (host only); 0 = never
};
static_assert(sizeof(Rules) == 4, "rules travel to the kernels in every batch's parameters");

// 20 bytes, no padding (states are compared bytewise).
struct State {
  uint32_t pieces[2] = {0, 0};  // by side: 0 Black, 1 White
  uint32_t kings = 0;           // kings of both sides; the rest of pieces[] are men
  uint16_t ply = 0;             // plies played since the start position
  uint16_t max_plies = Rules{}.max_plies;
  uint8_t side = 0;   // side to move
  uint8_t quiet = 0;  // plies since the last capture or man move (saturates at 255)
  uint8_t quiet_limit = Rules{}.quiet_limit;
  uint8_t zero = 0;  // always 0
};
static_assert(sizeof(State) == 20, "no padding: states are compared bytewise");

struct Move {
  uint32_t bits = 0;  // from (bits 0-4), jumps (5-8), 2 bits per direction from bit 9
  SP_HD bool operator==(const Move& o) const { return bits == o.bits; }
};

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  SP_HD void push(Move m) { moves[size++] = m; }
};

SP_HD constexpr Move step_move(int from, int d) {
  return Move{static_cast<uint32_t>(from) | static_cast<uint32_t>(d) << 9};
}
SP_HD constexpr int move_from(Move m) { return static_cast<int>(m.bits & 31u); }
SP_HD constexpr int move_jumps(Move m) { return static_cast<int>((m.bits >> 5) & 15u); }
// Direction of jump i (0-based), or of the step of a plain move (i = 0).
SP_HD constexpr int move_direction(Move m, int i) {
  return static_cast<int>((m.bits >> (9 + 2 * i)) & 3u);
}

// What a move does, as boards: the start and end square (equal for a king's loop) and the pieces
// it captures.
struct MoveEffect {
  uint32_t from, to, captured;
};

SP_HD inline MoveEffect effect_of(Move m) {
  const uint32_t from = 1u << move_from(m);
  const int jumps = move_jumps(m);
  if (jumps == 0) return MoveEffect{from, shift(from, move_direction(m, 0)), 0};
  uint32_t at = from, captured = 0;
  for (int i = 0; i < jumps; ++i) {
    const int d = move_direction(m, i);
    const uint32_t over = shift(at, d);
    captured |= over;
    at = shift(over, d);
  }
  return MoveEffect{from, at, captured};
}

SP_HD SP_FORCEINLINE uint32_t occupied(const State& s) { return s.pieces[0] | s.pieces[1]; }
// The pieces of the side to move and of its opponent. Selects, not s.pieces[s.side]: an index
// known only at run time would put a GPU thread's state in local memory.
SP_HD SP_FORCEINLINE uint32_t own_pieces(const State& s) {
  return select(s.side != 0, s.pieces[1], s.pieces[0]);
}
SP_HD SP_FORCEINLINE uint32_t opponent_pieces(const State& s) {
  return select(s.side != 0, s.pieces[0], s.pieces[1]);
}
SP_HD SP_FORCEINLINE uint32_t empty_squares(const State& s) { return ~occupied(s); }

// Pieces of the side to move that may move in direction d at all: men forward, kings anywhere.
SP_HD SP_FORCEINLINE uint32_t movers_toward(const State& s, int d) {
  const uint32_t own = own_pieces(s);
  return is_forward(s.side, d) ? own : own & s.kings;
}

// Pieces of the side to move with a plain step in direction d.
SP_HD SP_FORCEINLINE uint32_t steppers(const State& s, int d) {
  return movers_toward(s, d) & shift(empty_squares(s), opposite(d));
}

// Pieces of the side to move that can start a capture by jumping in direction d.
SP_HD SP_FORCEINLINE uint32_t jumpers(const State& s, int d) {
  const int back = opposite(d);
  const uint32_t landing_behind = shift(empty_squares(s), back) & opponent_pieces(s);
  return movers_toward(s, d) & shift(landing_behind, back);
}

SP_HD SP_FORCEINLINE uint32_t all_jumpers(const State& s) {
  return jumpers(s, kSouthWest) | jumpers(s, kSouthEast) | jumpers(s, kNorthEast) |
         jumpers(s, kNorthWest);
}

SP_HD SP_FORCEINLINE uint32_t all_steppers(const State& s) {
  return steppers(s, kSouthWest) | steppers(s, kSouthEast) | steppers(s, kNorthEast) |
         steppers(s, kNorthWest);
}

SP_HD SP_FORCEINLINE bool has_move(const State& s) {
  return (all_jumpers(s) | all_steppers(s)) != 0;
}

// A draw rule has ended the game (when the side to move still has a move; otherwise it lost).
SP_HD SP_FORCEINLINE bool draw_reached(const State& s) {
  return (s.quiet_limit != 0 && s.quiet >= s.quiet_limit) || s.ply >= s.max_plies;
}

SP_HD inline bool is_over(const State& s) { return !has_move(s) || draw_reached(s); }

// Precondition: is_over(s). A side without a move loses; otherwise a draw rule ended the game.
SP_HD inline int winner(const State& s) { return has_move(s) ? kNoWinner : s.side ^ 1; }

// Calls visit(move, to, captured) for every complete jump path of the side to move's piece on
// square from, depth first with the directions in order SW, SE, NE, NW at every jump; returns true
// as soon as visit does. A path ends where no further jump is possible or where a man crowns. The
// start square counts as empty (a king may come back to it); jumped pieces stay on the board until
// the move ends, so none is jumped twice. Everything lives in registers: the path's directions are
// the stack, and a jump is undone by stepping back twice.
template <class Visit>
SP_HD SP_FORCEINLINE bool for_each_jump_path(const State& s, int from, Visit&& visit) {
  const int side = s.side;
  const uint32_t start = 1u << from;
  const bool king = (s.kings & start) != 0;
  const uint32_t directions = king ? 0xFu : forward_directions(side);
  const uint32_t opp = opponent_pieces(s);
  const uint32_t empty = empty_squares(s) | start;
  const uint32_t crown = king ? 0u : crown_row(side);
  uint32_t at = start, captured = 0, path = 0;
  uint32_t extended = 0;  // bit k: the path continued from depth k
  int depth = 0, d = 0;   // d: the next direction to try at this depth
  for (;;) {
    if (d < kDirections) {
      const uint32_t over = ((directions >> d) & 1u) ? shift(at, d) & opp & ~captured : 0u;
      const uint32_t land = shift(over, d) & empty;
      if (!land) {
        ++d;
        continue;
      }
      extended |= 1u << depth;
      path |= static_cast<uint32_t>(d) << (2 * depth);
      captured |= over;
      ++depth;
      if (!(land & crown)) {
        at = land;
        extended &= ~(1u << depth);
        d = 0;
        continue;
      }
      // A man that crowns ends its move there.
      const Move m{static_cast<uint32_t>(from) | static_cast<uint32_t>(depth) << 5 | path << 9};
      if (visit(m, land, captured)) return true;
      --depth;
      captured &= ~over;
      path &= ~(3u << (2 * depth));
      ++d;
      continue;
    }
    if (depth > 0 && !((extended >> depth) & 1u)) {
      const Move m{static_cast<uint32_t>(from) | static_cast<uint32_t>(depth) << 5 | path << 9};
      if (visit(m, at, captured)) return true;
    }
    if (depth == 0) return false;
    --depth;
    const int back = static_cast<int>((path >> (2 * depth)) & 3u);
    const uint32_t over = shift(at, opposite(back));
    at = shift(over, opposite(back));
    captured &= ~over;
    path &= ~(3u << (2 * depth));
    d = back + 1;
  }
}

// Legal moves in canonical order: captures (compulsory) by start square ascending, each piece's
// paths in for_each_jump_path order; otherwise plain steps by direction (SW, SE, NE, NW), start
// square ascending within each. Empty only when the side to move has no move.
SP_HD inline void generate_moves(const State& s, MoveList& list) {
  list.size = 0;
  uint32_t jump = all_jumpers(s);
  if (jump) {
    while (jump)
      for_each_jump_path(s, pop_lsb(jump), [&](Move m, uint32_t, uint32_t) {
        list.push(m);
        return false;
      });
    return;
  }
  for (int d = 0; d < kDirections; ++d)
    for (uint32_t b = steppers(s, d); b;) list.push(step_move(pop_lsb(b), d));
}

// Number of legal moves of the side to move (generate_moves(s).size, without the list).
SP_HD inline int count_moves(const State& s) {
  uint32_t jump = all_jumpers(s);
  int n = 0;
  if (!jump) {
    for (int d = 0; d < kDirections; ++d) n += count(steppers(s, d));
    return n;
  }
  while (jump)
    for_each_jump_path(s, pop_lsb(jump), [&](Move, uint32_t, uint32_t) {
      ++n;
      return false;
    });
  return n;
}

// Plays a move given by its effect (see apply). from == to for a king's loop.
SP_HD SP_FORCEINLINE void apply_effect(State& s, uint32_t from, uint32_t to, uint32_t captured) {
  const int side = s.side;
  const bool king = (s.kings & from) != 0;
  const uint32_t own = (own_pieces(s) & ~from) | to, opp = opponent_pieces(s) & ~captured;
  s.pieces[0] = select(side == 0, own, opp);
  s.pieces[1] = select(side == 0, opp, own);
  s.kings &= ~(captured | from);
  s.kings |= select(king || (to & crown_row(side)) != 0, to, 0u);
  const bool reversible = king && captured == 0;
  s.quiet = static_cast<uint8_t>(reversible ? s.quiet + (s.quiet < 255) : 0);
  s.ply = static_cast<uint16_t>(s.ply + (s.ply < 0xFFFF));
  s.side = static_cast<uint8_t>(side ^ 1);
}

// Precondition: m is legal in s.
SP_HD inline void apply(State& s, Move m) {
  const MoveEffect e = effect_of(m);
  apply_effect(s, e.from, e.to, e.captured);
}

// The same position for the repetition rule: the pieces and the side to move (the counters differ
// between repetitions).
SP_HD inline bool same_position(const State& a, const State& b) {
  return a.pieces[0] == b.pieces[0] && a.pieces[1] == b.pieces[1] && a.kings == b.kings &&
         a.side == b.side;
}

SP_HD inline State with_rules(State s, const Rules& rules) {
  s.max_plies = rules.max_plies;
  s.quiet_limit = rules.quiet_limit;
  return s;
}

// The standard start: Black on 1-12, White on 21-32, Black to move.
SP_HD inline State initial_state(const Rules& rules = {}) {
  State s;
  s.pieces[0] = 0x00000FFFu;
  s.pieces[1] = 0xFFF00000u;
  return with_rules(s, rules);
}

// The board is consistent (sides disjoint, kings among the pieces, at most 12 pieces a side, no
// man on the row where it would have crowned) and the counters lie within their limits.
SP_HD inline bool state_ok(const State& s) {
  if (s.side > 1 || s.zero != 0 || s.max_plies == 0 || s.ply > s.max_plies) return false;
  if (s.quiet_limit != 0 && s.quiet > s.quiet_limit) return false;
  if ((s.pieces[0] & s.pieces[1]) || (s.kings & ~occupied(s))) return false;
  if (count(s.pieces[0]) > kPiecesPerSide || count(s.pieces[1]) > kPiecesPerSide) return false;
  for (int side = 0; side < 2; ++side)
    if (s.pieces[side] & ~s.kings & crown_row(side)) return false;
  return true;
}

}  // namespace sp::checkers
