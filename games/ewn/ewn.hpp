// EinStein wuerfelt nicht! rules (../shared/reference/ewn.md), written once for host and device.
//
// Board: 25 squares, index = row * 5 + col, row 0 is rank 5 (top), col 0 is file a. Player 0 starts
// top-left and runs to square 24 (e1); player 1 starts bottom-right and runs to square 0 (a5).
// Cubes are numbered 0..5 internally (printed 1..6). The state is 24 bytes of plain integers so a
// kernel keeps it in registers: per side a packed word of six 5-bit squares plus an occupancy
// bitboard.
#pragma once

#include <cstdint>

#include "games/common/hd.hpp"

namespace sp::ewn {

inline constexpr int kSize = 5;
inline constexpr int kSquares = 25;
inline constexpr int kCubes = 6;
inline constexpr int kMaxMoves = 6;  // two movable cubes, three steps each
inline constexpr uint32_t kGone = 31;  // packed square value of a captured cube
inline constexpr uint8_t kNoWinner = 2;
inline constexpr uint8_t kNoDie = 0;
inline constexpr uint8_t kPassSquare = 25;  // Move{kPassSquare, kPassSquare}: no legal move

inline constexpr uint32_t kBoard = (1u << kSquares) - 1;
inline constexpr uint32_t kFileA = 0x0108421u;  // squares 0, 5, 10, 15, 20
inline constexpr uint32_t kFileE = kFileA << 4;
inline constexpr uint32_t kFieldLow = 0x02108421u;  // bit 0 of each of the six 5-bit fields
inline constexpr uint32_t kFieldHigh = kFieldLow << 4;
inline constexpr uint32_t kAllGone = kFieldLow * kGone;

SP_HD constexpr int goal_square(int side) { return side == 0 ? kSquares - 1 : 0; }
SP_HD constexpr int row_of(int sq) { return sq / kSize; }
SP_HD constexpr int col_of(int sq) { return sq % kSize; }

// Steps toward the goal corner (Chebyshev distance), 0 on the goal itself.
SP_HD constexpr int distance_to_goal(int side, int sq) {
  const int r = row_of(sq), c = col_of(sq);
  if (side == 0) return (kSize - 1) - (r < c ? r : c);
  return r > c ? r : c;
}

// Squares one forward step away from any square of b: right/down/down-right for player 0,
// left/up/up-left for player 1.
SP_HD SP_FORCEINLINE uint32_t shift_right(uint32_t b) { return (b << 1) & ~kFileA & kBoard; }
SP_HD SP_FORCEINLINE uint32_t shift_left(uint32_t b) { return (b >> 1) & ~kFileE; }
SP_HD SP_FORCEINLINE uint32_t shift_down(uint32_t b) { return (b << kSize) & kBoard; }
SP_HD SP_FORCEINLINE uint32_t shift_up(uint32_t b) { return b >> kSize; }
SP_HD SP_FORCEINLINE uint32_t forward_steps(int side, uint32_t b) {
  if (side == 0) return shift_right(b) | shift_down(b) | shift_down(shift_right(b));
  return shift_left(b) | shift_up(b) | shift_up(shift_left(b));
}

enum class Substitution : uint8_t { kNextLowerOrHigher, kNearest };

struct Rules {
  bool capture_own = true;
  Substitution substitution = Substitution::kNextLowerOrHigher;
};

struct Move {
  uint8_t from = kPassSquare;
  uint8_t to = kPassSquare;
  SP_HD bool is_pass() const { return from == kPassSquare; }
  SP_HD bool operator==(const Move& o) const { return from == o.from && to == o.to; }
};

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  SP_HD void push(Move m) { moves[size++] = m; }
};

struct State {
  uint32_t cubes[2];  // six 5-bit fields: square of cube c in bits [5c, 5c+5), kGone if captured
  uint32_t occ[2];    // occupancy bitboards
  uint8_t alive[2];   // bit c set while cube c is on the board
  uint8_t side;       // player to move
  uint8_t die;        // 1..6, or kNoDie before the roll
  uint8_t winner;     // 0, 1, or kNoWinner
  uint8_t pad_[3];
};
static_assert(sizeof(State) == 24, "EWN state must stay register-sized");

SP_HD SP_FORCEINLINE int square_of(const State& s, int side, int cube) {
  return static_cast<int>((s.cubes[side] >> (5 * cube)) & 31u);
}

// The 5-bit field of a side's packed squares that equals sq, as a mask with all five bits set, or 0
// when no cube of that side stands on sq. The zero-field test flags the lowest field equal to sq
// exactly (higher flags can be borrow artefacts, so only the lowest is kept); alive cubes occupy
// distinct squares and captured ones hold kGone, so at most one field matches.
SP_HD SP_FORCEINLINE uint32_t field_on(uint32_t packed, int sq) {
  const uint32_t x = packed ^ (kFieldLow * static_cast<uint32_t>(sq));
  const uint32_t flag = lowest_bit((x - kFieldLow) & ~x & kFieldHigh);
  return (flag >> 4) * 31u;
}

// Cube index (0..5) of the field mask from field_on; precondition field != 0.
SP_HD SP_FORCEINLINE int cube_of_field(uint32_t field) { return (lsb(field) * 13) >> 6; }  // 5c/5

// Cube index standing on sq among one side's packed fields, or -1.
SP_HD SP_FORCEINLINE int cube_on(uint32_t packed, int sq) {
  const uint32_t field = field_on(packed, sq);
  return field ? cube_of_field(field) : -1;
}

SP_HD inline State empty_state() {
  State s{};
  s.cubes[0] = s.cubes[1] = kAllGone;
  s.occ[0] = s.occ[1] = 0;
  s.alive[0] = s.alive[1] = 0;
  s.side = 0;
  s.die = kNoDie;
  s.winner = kNoWinner;
  return s;
}

// Places cube (0..5) of side on sq; precondition: the cube is off the board and sq is empty.
SP_HD inline void place(State& s, int side, int cube, int sq) {
  s.cubes[side] = (s.cubes[side] & ~(31u << (5 * cube))) | (static_cast<uint32_t>(sq) << (5 * cube));
  s.occ[side] |= 1u << sq;
  s.alive[side] |= static_cast<uint8_t>(1u << cube);
}

// Start squares of a side in arrangement order: player 0 row-major from a5 (a5 b5 c5 a4 b4 a3);
// player 1 the point reflection (e1 d1 c1 e2 d2 e3), so equal arrangements are mirror images.
SP_HD constexpr int start_square(int side, int slot) {
  constexpr int kTopLeft[kCubes] = {0, 1, 2, 5, 6, 10};
  return side == 0 ? kTopLeft[slot] : (kSquares - 1) - kTopLeft[slot];
}

// Arrangement: cube number (0..5) placed on each start slot; a permutation of 0..5.
struct Arrangement {
  uint8_t cube_at_slot[kCubes] = {0, 1, 2, 3, 4, 5};
};

SP_HD inline State initial_state(const Arrangement& p0, const Arrangement& p1, int first_player) {
  State s = empty_state();
  for (int slot = 0; slot < kCubes; ++slot) {
    place(s, 0, p0.cube_at_slot[slot], start_square(0, slot));
    place(s, 1, p1.cube_at_slot[slot], start_square(1, slot));
  }
  s.side = static_cast<uint8_t>(first_player);
  return s;
}

// Cubes (bit mask over 0..5) that may move for a roll of die (1..6). Branch-free on the common
// path: the rolled die is random, so a branch on it would mispredict in every playout.
SP_HD SP_FORCEINLINE uint32_t movable_cubes(uint32_t alive, int die, Substitution sub) {
  const uint32_t exact = 1u << (die - 1);
  const uint32_t lower = highest_bit(alive & (exact - 1));
  const uint32_t higher = lowest_bit(alive & ~(exact | (exact - 1)));
  uint32_t pair = lower | higher;
  if (sub == Substitution::kNearest && lower && higher) {
    const int dl = (die - 1) - lsb(lower), dh = lsb(higher) - (die - 1);
    pair = dl < dh ? lower : dh < dl ? higher : pair;
  }
  return select((alive & exact) != 0, exact, pair);
}

// Destination squares for the cube on sq.
SP_HD SP_FORCEINLINE uint32_t cube_targets(const State& s, const Rules& rules, int side, int sq) {
  uint32_t t = forward_steps(side, 1u << sq);
  if (!rules.capture_own) t &= ~s.occ[side];
  return t;
}

// Legal moves for the side to move and s.die, in canonical order: cubes by number, then
// destination squares ascending. Precondition: s.die is rolled and the game is not over. Empty
// only when no cube can move (possible with capture_own off), in which case a single pass is listed.
SP_HD inline void generate_moves(const State& s, const Rules& rules, MoveList& list) {
  list.size = 0;
  const int side = s.side;
  uint32_t movers = movable_cubes(s.alive[side], s.die, rules.substitution);
  while (movers) {
    const int from = square_of(s, side, pop_lsb(movers));
    uint32_t t = cube_targets(s, rules, side, from);
    while (t) list.push(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(pop_lsb(t))});
  }
  if (list.size == 0) list.push(Move{});
}

// Moves cube of side to sq, capturing whatever stands there (enemy or own cube), and settles the
// winner. Branch-free: a capture is a no-op mask update when nothing stands on sq.
SP_HD SP_FORCEINLINE void move_cube(State& s, int side, int cube, int to) {
  const int opp = side ^ 1;
  const uint32_t to_bit = 1u << to;
  const uint32_t from_bit = 1u << square_of(s, side, cube);
  // Enemy victim: its field becomes kGone and its alive bit clears.
  const uint32_t enemy = field_on(s.cubes[opp], to);
  s.cubes[opp] |= enemy;
  s.occ[opp] &= ~to_bit;
  s.alive[opp] &= static_cast<uint8_t>(~(static_cast<uint32_t>(enemy != 0) << cube_of_field(enemy | 0x80000000u)));
  // Own victim (only possible with capture_own): same, on the mover's side.
  const uint32_t own = field_on(s.cubes[side], to);
  s.cubes[side] |= own;
  s.alive[side] &= static_cast<uint8_t>(~(static_cast<uint32_t>(own != 0) << cube_of_field(own | 0x80000000u)));
  s.occ[side] = (s.occ[side] & ~from_bit) | to_bit;
  s.cubes[side] = (s.cubes[side] & ~(31u << (5 * cube))) | (static_cast<uint32_t>(to) << (5 * cube));
  const bool won = to == goal_square(side) || s.alive[opp] == 0;
  s.winner = won ? static_cast<uint8_t>(side) : s.winner;
}

// Plays m (legal for s) and hands the turn over with the die unrolled.
SP_HD inline void apply(State& s, Move m) {
  if (!m.is_pass()) move_cube(s, s.side, cube_on(s.cubes[s.side], m.from), m.to);
  s.side ^= 1;
  s.die = kNoDie;
}

SP_HD inline bool is_over(const State& s) { return s.winner != kNoWinner; }

// True when m ends the game in favour of the mover (reaches the goal or takes the last enemy cube).
SP_HD SP_FORCEINLINE bool is_winning_move(const State& s, int side, int to) {
  if (to == goal_square(side)) return true;
  const uint32_t opp = s.occ[side ^ 1];
  return opp == (1u << to);
}

// Internal consistency: packed squares, occupancy and alive masks agree, no two cubes share a
// square, the side and die are in range. Called after every apply in tests.
SP_HD inline bool state_ok(const State& s) {
  if (s.side > 1 || s.die > 6 || s.winner > kNoWinner) return false;
  if (s.occ[0] & s.occ[1]) return false;
  for (int side = 0; side < 2; ++side) {
    if ((s.cubes[side] >> 30) != 0 || s.alive[side] > 63 || (s.occ[side] & ~kBoard)) return false;
    uint32_t occ = 0;
    for (int c = 0; c < kCubes; ++c) {
      const int sq = square_of(s, side, c);
      const bool alive = (s.alive[side] >> c) & 1u;
      if (alive != (sq != static_cast<int>(kGone))) return false;
      if (!alive) continue;
      if (sq >= kSquares || (occ & (1u << sq))) return false;
      occ |= 1u << sq;
    }
    if (occ != s.occ[side]) return false;
  }
  return true;
}

}  // namespace sp::ewn
