// EinStein wuerfelt nicht! rules (../shared/reference/ewn.md), written once for host and device.
//
// Board: 25 squares, index = row * 5 + col, row 0 is rank 5 (top), col 0 is file a. Player 0 starts
// top-left and runs to square 24 (e1); player 1 starts bottom-right and runs to square 0 (a5).
// Cubes are numbered 0..5 internally (printed 1..6). The state is 24 bytes of plain integers so a
// kernel keeps it in registers: one 64-bit word of twelve 5-bit squares (both sides), occupancy
// bitboards and a 12-bit alive mask. Small lookup tables (movable cubes, forward steps) are built
// at compile time from obviously correct reference functions; tests compare them.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace sp::ewn {

inline constexpr int kSize = 5;
inline constexpr int kSquares = 25;
inline constexpr int kCubes = 6;
inline constexpr int kMaxMoves = 6;    // two movable cubes, three steps each
inline constexpr uint32_t kGone = 31;  // packed square value of a captured cube
inline constexpr uint8_t kNoWinner = 2;
inline constexpr uint8_t kNoDie = 0;
inline constexpr uint8_t kPassSquare = 25;  // Move{kPassSquare, kPassSquare}: no legal move

inline constexpr uint32_t kBoard = (1u << kSquares) - 1;
inline constexpr uint32_t kFileA = 0x0108421u;  // squares 0, 5, 10, 15, 20
inline constexpr uint32_t kFileE = kFileA << 4;
// Field f = 6 * side + cube of State::squares holds that cube's square (bits 5f .. 5f+4).
inline constexpr uint64_t kFieldLow = 0x0084210842108421ull;  // bit 0 of each of the 12 fields
inline constexpr uint64_t kFieldHigh = kFieldLow << 4;
inline constexpr uint64_t kAllGone = kFieldLow * kGone;

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
  uint64_t squares;  // twelve 5-bit fields, field 6 * side + cube; kGone once captured
  uint32_t occ[2];   // occupancy bitboards by side
  uint16_t alive;    // bit 6 * side + cube set while that cube is on the board
  uint8_t side;      // player to move
  uint8_t die;       // 1..6, or kNoDie before the roll
  uint8_t winner;    // 0, 1, or kNoWinner
  uint8_t pad_[3];
};
static_assert(sizeof(State) == 24, "EWN state must stay register-sized");

SP_HD SP_FORCEINLINE constexpr int field_index(int side, int cube) { return 6 * side + cube; }

SP_HD SP_FORCEINLINE int square_of(const State& s, int side, int cube) {
  return static_cast<int>((s.squares >> (5 * field_index(side, cube))) & 31u);
}

// Alive cubes of one side as a 6-bit mask (bit c: cube c).
SP_HD SP_FORCEINLINE uint32_t alive_of(const State& s, int side) {
  return (static_cast<uint32_t>(s.alive) >> (6 * side)) & 63u;
}

// The 5-bit field of the packed squares that equals sq, as a mask with all five bits set, or 0 when
// no cube stands on sq. The zero-field test flags the lowest field equal to sq exactly (higher
// flags can be borrow artefacts, so only the lowest is kept); cubes on the board occupy distinct
// squares and captured ones hold kGone, so at most one field matches.
SP_HD SP_FORCEINLINE uint64_t field_on(uint64_t squares, int sq) {
  const uint64_t x = squares ^ (kFieldLow * static_cast<uint64_t>(sq));
  const uint64_t flag = lowest_bit64((x - kFieldLow) & ~x & kFieldHigh);
  return (flag >> 4) * 31u;
}

// Field index (0..11) of a mask from field_on; 12 for an empty mask, so that clearing alive bit
// 12 is a harmless no-op.
SP_HD SP_FORCEINLINE int field_of_mask(uint64_t field) {
  return (lsb64(field | (uint64_t{1} << 60)) * 13) >> 6;  // (5f) * 13 / 64 == f for f <= 12
}

// Cube index of side standing on sq, or -1.
SP_HD SP_FORCEINLINE int cube_on(const State& s, int side, int sq) {
  if (!(s.occ[side] & (1u << sq))) return -1;
  return field_of_mask(field_on(s.squares, sq)) - 6 * side;
}

SP_HD inline State empty_state() {
  State s{};
  s.squares = kAllGone;
  s.occ[0] = s.occ[1] = 0;
  s.alive = 0;
  s.side = 0;
  s.die = kNoDie;
  s.winner = kNoWinner;
  return s;
}

// Places cube (0..5) of side on sq; precondition: the cube is off the board and sq is empty.
SP_HD inline void place(State& s, int side, int cube, int sq) {
  const int f = 5 * field_index(side, cube);
  s.squares = (s.squares & ~(uint64_t{31} << f)) | (static_cast<uint64_t>(sq) << f);
  s.occ[side] |= 1u << sq;
  s.alive = static_cast<uint16_t>(s.alive | (1u << field_index(side, cube)));
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

// ---- Reference definitions (plain loops) and the tables built from them at compile time.

// Cubes (mask over 0..5) that may move for a roll of die (1..6), straight from the rules.
SP_HD constexpr uint32_t movable_cubes_reference(uint32_t alive, int die, Substitution sub) {
  const int rolled = die - 1;
  if ((alive >> rolled) & 1u) return 1u << rolled;
  int lower = -1, higher = -1;
  for (int c = rolled - 1; c >= 0 && lower < 0; --c)
    if ((alive >> c) & 1u) lower = c;
  for (int c = rolled + 1; c < kCubes && higher < 0; ++c)
    if ((alive >> c) & 1u) higher = c;
  if (sub == Substitution::kNearest && lower >= 0 && higher >= 0) {
    if (rolled - lower < higher - rolled)
      higher = -1;
    else if (higher - rolled < rolled - lower)
      lower = -1;
  }
  return (lower >= 0 ? 1u << lower : 0u) | (higher >= 0 ? 1u << higher : 0u);
}

// Forward destinations of a cube on sq, from row and column arithmetic.
SP_HD constexpr uint32_t forward_steps_reference(int side, int sq) {
  const int dr = side == 0 ? 1 : -1;
  uint32_t t = 0;
  const int r = row_of(sq), c = col_of(sq);
  const int steps[3][2] = {{0, dr}, {dr, 0}, {dr, dr}};
  for (const auto& st : steps) {
    const int rr = r + st[0], cc = c + st[1];
    if (rr >= 0 && rr < kSize && cc >= 0 && cc < kSize) t |= 1u << (rr * kSize + cc);
  }
  return t;
}

struct RuleTables {
  uint8_t movers[2][64][8];  // [substitution][alive mask][die], die 1..6
  uint32_t steps[2][32];     // [side][square]
  uint8_t distance[2][32];   // [side][square]: steps to the goal corner
};

SP_HD constexpr RuleTables make_rule_tables() {
  RuleTables t{};
  for (int sub = 0; sub < 2; ++sub)
    for (uint32_t alive = 0; alive < 64; ++alive)
      for (int die = 1; die <= 6; ++die)
        t.movers[sub][alive][die] = static_cast<uint8_t>(
            movable_cubes_reference(alive, die, static_cast<Substitution>(sub)));
  for (int side = 0; side < 2; ++side)
    for (int sq = 0; sq < kSquares; ++sq) {
      t.steps[side][sq] = forward_steps_reference(side, sq);
      t.distance[side][sq] = static_cast<uint8_t>(distance_to_goal(side, sq));
    }
  return t;
}

// One copy for the host, one in device global memory (constant memory would serialise the
// divergent lookups of a warp); both come from the same constexpr function.
inline constexpr RuleTables kRuleTables = make_rule_tables();
#if defined(__CUDACC__)
static __device__ const RuleTables kRuleTablesDevice = make_rule_tables();
#endif

SP_HD SP_FORCEINLINE const RuleTables& rule_tables() {
#if defined(__CUDA_ARCH__)
  return kRuleTablesDevice;
#else
  return kRuleTables;
#endif
}

// Cubes (bit mask over 0..5) that may move for a roll of die (1..6).
SP_HD SP_FORCEINLINE uint32_t movable_cubes(uint32_t alive, int die, Substitution sub) {
  return rule_tables().movers[static_cast<int>(sub)][alive & 63u][die];
}

// Squares one forward step from sq (table lookup of forward_steps).
SP_HD SP_FORCEINLINE uint32_t step_targets(int side, int sq) {
  return rule_tables().steps[side][sq];
}

// Destination squares for the cube on sq.
SP_HD SP_FORCEINLINE uint32_t cube_targets(const State& s, const Rules& rules, int side, int sq) {
  uint32_t t = step_targets(side, sq);
  if (!rules.capture_own) t &= ~s.occ[side];
  return t;
}

// Legal moves for the side to move and s.die, in canonical order: cubes by number, then
// destination squares ascending. Precondition: s.die is rolled and the game is not over. Empty
// only when no cube can move (possible with capture_own off), in which case a single pass is
// listed.
SP_HD inline void generate_moves(const State& s, const Rules& rules, MoveList& list) {
  list.size = 0;
  const int side = s.side;
  uint32_t movers = movable_cubes(alive_of(s, side), s.die, rules.substitution);
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
  const uint32_t to_bit = 1u << to;
  const int f = 5 * field_index(side, cube);
  const uint32_t from_bit = 1u << static_cast<int>((s.squares >> f) & 31u);
  const uint64_t victim = field_on(s.squares, to);  // either side's cube, or none
  s.squares |= victim;
  s.alive = static_cast<uint16_t>(s.alive & ~(1u << field_of_mask(victim)));
  s.occ[0] &= ~to_bit;
  s.occ[1] &= ~to_bit;
  s.occ[side] |= to_bit;
  s.occ[side] &= ~from_bit;
  s.squares = (s.squares & ~(uint64_t{31} << f)) | (static_cast<uint64_t>(to) << f);
  const bool won = to == goal_square(side) || alive_of(s, side ^ 1) == 0;
  s.winner = won ? static_cast<uint8_t>(side) : s.winner;
}

// Plays m (legal for s) and hands the turn over with the die unrolled.
SP_HD inline void apply(State& s, Move m) {
  if (!m.is_pass()) move_cube(s, s.side, cube_on(s, s.side, m.from), m.to);
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
  if ((s.occ[0] & s.occ[1]) || (s.squares >> 60) != 0 || (s.alive >> 12) != 0) return false;
  for (int side = 0; side < 2; ++side) {
    if (s.occ[side] & ~kBoard) return false;
    uint32_t occ = 0;
    for (int c = 0; c < kCubes; ++c) {
      const int sq = square_of(s, side, c);
      const bool alive = (alive_of(s, side) >> c) & 1u;
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
