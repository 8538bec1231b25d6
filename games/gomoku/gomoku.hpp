// Gomoku (../shared/reference/gomoku.md) on a 15x15 or 20x20 board, written once for host and
// device: one bitboard per side of up to 400 bits in seven 64-bit words, no tables in memory and
// no heap.
//
// Coordinates are those of the Gomocup protocol: x is the column counted from the left, y the row
// counted from the top, both 0-based. Square y * size + x is bit (y * size + x) % 64 of word
// (y * size + x) / 64, so the rows follow one another through the words without gaps, and a move
// is its (x, y). Black (side 0) moves first.
//
// Win rules: freestyle (five or more in a row, horizontally, vertically or diagonally) and
// standard (exactly five; six or more in a row is no win). A full board without a winner is a
// draw. apply() sees no Rules, so the board size and the win rule travel in the state (as the
// draw limits do in checkers), and apply() decides a win there, looking only along the four lines
// through the stone just placed: no other line changed, and none held a winning row before (the
// game would have ended).
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace sp::gomoku {

inline constexpr int kMaxSize = 20;
inline constexpr int kMaxSquares = kMaxSize * kMaxSize;
inline constexpr int kWords = (kMaxSquares + 63) / 64;  // words of a bitboard: 7
inline constexpr int kMaxMoves = kMaxSquares;
inline constexpr uint8_t kNoWinner = 2;

// The board sizes the rules support (Gomocup plays both).
SP_HD constexpr bool is_board_size(int n) { return n == 15 || n == 20; }

enum class WinRule : uint8_t { kFreestyle = 0, kStandard = 1 };

struct Rules {
  uint8_t size = 15;  // 15 or 20
  WinRule rule = WinRule::kFreestyle;
};

// 120 bytes, no padding (states are compared bytewise). Words past the board's last square are 0.
struct State {
  uint64_t stones[2][kWords] = {};  // by side: 0 Black, 1 White
  uint16_t ply = 0;                 // stones on the board
  uint8_t size = Rules{}.size;
  WinRule rule = Rules{}.rule;
  uint8_t side = 0;            // side to move (after the end: the side that did not win)
  uint8_t winner = kNoWinner;  // the side that made a winning row; kNoWinner while none has
  uint8_t zero[2] = {0, 0};    // always 0
};
static_assert(sizeof(State) == 120, "no padding: states are compared bytewise");

struct Move {
  uint8_t x = 0, y = 0;  // column from the left, row from the top, 0-based
  SP_HD bool operator==(const Move& o) const { return x == o.x && y == o.y; }
};

struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  SP_HD void push(Move m) { moves[size++] = m; }
};

// ---- 64-bit bit primitives

SP_HD SP_FORCEINLINE int count64(uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __popcll(b);
#else
  return __builtin_popcountll(b);
#endif
}

// Index of the n-th (0-based) set bit; precondition n < count64(b). A binary search by the
// popcounts of halves, quarters, ..., never a scan over the bits: what GPUs (and CPUs without
// BMI2) run.
SP_HD SP_FORCEINLINE int nth_set_bit64_by_halves(uint64_t b, int n) {
  int base = 0;
  for (int width = 32; width >= 1; width >>= 1) {
    const uint64_t low = b & ((uint64_t{1} << width) - 1);
    const int c = count64(low);
    const bool upper = n >= c;
    n -= upper ? c : 0;
    b = upper ? b >> width : low;
    base += upper ? width : 0;
  }
  return base;
}

// The same, by PDEP on x86 with BMI2 where the CPU runs it fast (core/hd.hpp).
SP_HD SP_FORCEINLINE int nth_set_bit64(uint64_t b, int n) {
#if defined(SP_HOST_PDEP)
  if (cpu::fast_pdep) return lsb64(_pdep_u64(uint64_t{1} << n, b));
#endif
  return nth_set_bit64_by_halves(b, n);
}

// ---- Geometry

// Words a board of size n uses, and the mask of the board's squares in word w.
SP_HD constexpr int words_of(int n) { return (n * n + 63) / 64; }
SP_HD constexpr uint64_t board_mask(int n, int w) {
  const int first = 64 * w, squares = n * n;
  return first + 64 <= squares ? ~uint64_t{0}
         : first >= squares    ? 0
                               : (uint64_t{1} << (squares - first)) - 1;
}

// The four line directions (dx, dy): east, south, south-east, north-east. A line is walked both
// ways, so these cover all eight.
inline constexpr int kDirections = 4;
SP_HD constexpr int direction_dx(int d) { return d == 1 ? 0 : 1; }
SP_HD constexpr int direction_dy(int d) { return d == 0 ? 0 : d == 3 ? -1 : 1; }

SP_HD SP_FORCEINLINE bool on_board(int n, int x, int y) {
  return static_cast<unsigned>(x) < static_cast<unsigned>(n) &&
         static_cast<unsigned>(y) < static_cast<unsigned>(n);
}

SP_HD SP_FORCEINLINE bool test_square(const uint64_t* b, int sq) {
  return ((b[sq >> 6] >> (sq & 63)) & 1u) != 0;
}
SP_HD SP_FORCEINLINE void set_square(uint64_t* b, int sq) {
  b[sq >> 6] |= uint64_t{1} << (sq & 63);
}

// Sets the squares first .. first + len - 1 of b (one row segment: 1 <= len <= 64).
SP_HD SP_FORCEINLINE void set_squares(uint64_t* b, int first, int len) {
  const int w = first >> 6, offset = first & 63;
  const uint64_t bits = len == 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1;
  b[w] |= bits << offset;
  if (offset + len > 64) b[w + 1] |= bits >> (64 - offset);
}

// Sets on b every square within `radius` squares of (x, y) in both coordinates (a
// (2 radius + 1)-wide square clipped to the board), row by row.
SP_HD SP_FORCEINLINE void set_area(uint64_t* b, int n, int x, int y, int radius) {
  const int x0 = x - radius < 0 ? 0 : x - radius, x1 = x + radius >= n ? n - 1 : x + radius;
  const int y0 = y - radius < 0 ? 0 : y - radius, y1 = y + radius >= n ? n - 1 : y + radius;
  for (int yy = y0; yy <= y1; ++yy) set_squares(b, yy * n + x0, x1 - x0 + 1);
}

// ---- Winning rows

// Stones in a row from (x, y) (excluded) in direction (dx, dy), at most limit of them; own(sq)
// tells whether square sq holds one.
template <class Own>
SP_HD SP_FORCEINLINE int run_from(const Own& own, int n, int x, int y, int dx, int dy, int limit) {
  int k = 0;
  for (;;) {
    x += dx;
    y += dy;
    if (k == limit || !on_board(n, x, y) || !own(y * n + x)) return k;
    ++k;
  }
}

// Whether a stone on (x, y) (placed there or not) stands in a winning row of the stones own(sq)
// tells: five or more in a row (freestyle) or exactly five (standard) along one of the four lines
// through it.
template <class Own>
SP_HD SP_FORCEINLINE bool makes_five_with(const Own& own, int n, WinRule rule, int x, int y) {
  const bool exact = rule == WinRule::kStandard;
  const int limit = exact ? 5 : 4;  // exact: look one stone further to see a sixth
  for (int d = 0; d < kDirections; ++d) {
    const int dx = direction_dx(d), dy = direction_dy(d);
    const int len =
        1 + run_from(own, n, x, y, dx, dy, limit) + run_from(own, n, x, y, -dx, -dy, limit);
    if (exact ? len == 5 : len >= 5) return true;
  }
  return false;
}

// makes_five_with on the bitboard own.
SP_HD SP_FORCEINLINE bool makes_five(const uint64_t* own, int n, WinRule rule, int x, int y) {
  return makes_five_with([own](int sq) { return test_square(own, sq); }, n, rule, x, y);
}

// Whether own holds a winning row anywhere (a walk from every stone: for invariants and positions
// read from text, not for play).
SP_HD inline bool has_five(const uint64_t* own, int n, WinRule rule) {
  for (int w = 0; w < words_of(n); ++w)
    for (uint64_t b = own[w]; b; b &= b - 1) {
      const int sq = 64 * w + lsb64(b);
      if (makes_five(own, n, rule, sq % n, sq / n)) return true;
    }
  return false;
}

// ---- State

SP_HD SP_FORCEINLINE int square_of(const State& s, Move m) { return m.y * s.size + m.x; }
SP_HD SP_FORCEINLINE Move move_at(int n, int sq) {
  return Move{static_cast<uint8_t>(sq % n), static_cast<uint8_t>(sq / n)};
}

SP_HD SP_FORCEINLINE uint64_t empty_word(const State& s, int w) {
  return ~(s.stones[0][w] | s.stones[1][w]) & board_mask(s.size, w);
}

SP_HD SP_FORCEINLINE int squares_of(const State& s) { return s.size * s.size; }

SP_HD inline bool is_over(const State& s) {
  return s.winner != kNoWinner || s.ply == squares_of(s);
}

// Precondition: is_over(s).
SP_HD inline int winner(const State& s) { return s.winner; }

// The empty squares in row-major order (y, then x). Precondition: !is_over(s).
SP_HD inline void generate_moves(const State& s, MoveList& list) {
  list.size = 0;
  for (int w = 0; w < words_of(s.size); ++w)
    for (uint64_t e = empty_word(s, w); e; e &= e - 1)
      list.push(move_at(s.size, 64 * w + lsb64(e)));
}

// Precondition: m is legal in s (on the board, empty, game not over).
SP_HD inline void apply(State& s, Move m) {
  const int side = s.side;
  set_square(s.stones[side], square_of(s, m));
  ++s.ply;
  if (makes_five(s.stones[side], s.size, s.rule, m.x, m.y)) s.winner = static_cast<uint8_t>(side);
  s.side = static_cast<uint8_t>(side ^ 1);
}

// The empty board, Black to move.
SP_HD inline State initial_state(const Rules& rules = {}) {
  State s;
  s.size = rules.size;
  s.rule = rules.rule;
  return s;
}

// The board and its counters agree: a supported size and rule, sides disjoint and on the board,
// ply = the stones, the side to move never the one with more stones and at most one stone
// behind, and a winner exactly when the side that moved last holds a winning row (the side to
// move never does).
SP_HD inline bool state_ok(const State& s) {
  if (!is_board_size(s.size) || (s.rule != WinRule::kFreestyle && s.rule != WinRule::kStandard))
    return false;
  if (s.side > 1 || s.zero[0] != 0 || s.zero[1] != 0) return false;
  int stones[2] = {0, 0};
  for (int w = 0; w < kWords; ++w) {
    const uint64_t outside = ~board_mask(s.size, w);
    if ((s.stones[0][w] & s.stones[1][w]) || ((s.stones[0][w] | s.stones[1][w]) & outside))
      return false;
    stones[0] += count64(s.stones[0][w]);
    stones[1] += count64(s.stones[1][w]);
  }
  if (s.ply != stones[0] + stones[1]) return false;
  const int mover = s.side, other = s.side ^ 1;
  if (stones[mover] > stones[other] || stones[other] > stones[mover] + 1) return false;
  if (has_five(s.stones[mover], s.size, s.rule)) return false;
  const bool five = has_five(s.stones[other], s.size, s.rule);
  return s.winner == (five ? other : kNoWinner);
}

}  // namespace sp::gomoku
