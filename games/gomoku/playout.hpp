// Gomoku playouts (uniform and weighted), the one source of playout code for the CPU backend, the
// CUDA kernels and the engines. Every ply consumes one 32-bit word of the rollout's Philox stream
// (v[0..3] of a block, then the next block) and turns it into a choice with bounded().
//
// No move list and no scan over squares: the empty squares are a bitboard, and the k-th of them is
// found by per-word popcounts and a select of the k-th set bit in its word (PDEP on the CPU).
// The uniform playout so plays exactly generate_moves(s).moves[bounded(word, size)] (the game
// contract test compares the two on every ply). Each board size is its own instantiation, so the
// word count and the geometry are constants.
//
// A thread's boards are small arrays. On a GPU an index known only at run time puts such an array
// in local memory, so word_at/or_at pick a word by selects over constant indices there and index
// directly on the CPU: the same values either way.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/gomoku/gomoku.hpp"

namespace sp::gomoku {

// Weights are fixed point with 8 fractional bits (256 == 1.0): integer arithmetic keeps CPU and GPU
// bit-identical where float contraction (FMA) would not.
inline constexpr uint32_t kWeightOne = 256;
inline constexpr uint32_t kMaxWeight = 100 * kWeightOne;  // largest weight a config may give
static_assert(uint64_t{kMaxWeight} * kMaxSquares < (uint64_t{1} << 32));

inline constexpr uint32_t kDefaultTemperature = 30 * kWeightOne;
inline constexpr uint32_t kMaxTemperature = 100000 * kWeightOne;

enum class PolicyKind : uint8_t { kUniform, kWeighted, kPattern };

// Rollout policy. Weighted: a move that makes a winning row is played when there is one (chosen
// uniformly among them); else a move onto a square where the opponent would make one (blocking
// its four); else an empty square is picked with probability proportional to its weight:
// adjacent_weight when a stone of either side lies within one square of it (in both coordinates),
// near_weight when the nearest stone is two squares away, and 1.0 otherwise (uniformly when all
// weights of the empty squares are 0). Pattern (pattern_playout.hpp): the same wins and blocks,
// else a square with probability proportional to these weights times exp(its move score /
// temperature).
struct Policy {
  PolicyKind kind = PolicyKind::kUniform;
  uint32_t adjacent_weight = 16 * kWeightOne;
  uint32_t near_weight = 4 * kWeightOne;
  uint32_t temperature = kDefaultTemperature;  // pattern: in 1/256 units of a move score
};

struct PlayoutResult {
  uint8_t winner;  // 0, 1, or kNoWinner for a draw
  uint16_t plies;
};

namespace playout_detail {

template <int W>
SP_HD SP_FORCEINLINE uint64_t word_at(const uint64_t (&b)[W], int i) {
#if defined(__CUDA_ARCH__)
  uint64_t v = b[0];
#pragma unroll
  for (int k = 1; k < W; ++k) v = i == k ? b[k] : v;
  return v;
#else
  return b[i];
#endif
}

template <int W>
SP_HD SP_FORCEINLINE void or_at(uint64_t (&b)[W], int i, uint64_t bits) {
#if defined(__CUDA_ARCH__)
#pragma unroll
  for (int k = 0; k < W; ++k) b[k] |= i == k ? bits : 0;
#else
  b[i] |= bits;
#endif
}

template <int W>
SP_HD SP_FORCEINLINE bool test_at(const uint64_t (&b)[W], int sq) {
  return ((word_at(b, sq >> 6) >> (sq & 63)) & 1u) != 0;
}

template <int W>
SP_HD SP_FORCEINLINE void set_at(uint64_t (&b)[W], int sq) {
  or_at(b, sq >> 6, uint64_t{1} << (sq & 63));
}

// Sets on b every square of the board of size N within `radius` squares of (x, y) in both
// coordinates, one row segment at a time (set_area of gomoku.hpp on a thread's registers).
template <int N, int W>
SP_HD SP_FORCEINLINE void set_area_at(uint64_t (&b)[W], int x, int y, int radius) {
  const int x0 = x - radius < 0 ? 0 : x - radius, x1 = x + radius >= N ? N - 1 : x + radius;
  const int y0 = y - radius < 0 ? 0 : y - radius, y1 = y + radius >= N ? N - 1 : y + radius;
  const uint64_t bits = (uint64_t{1} << (x1 - x0 + 1)) - 1;  // a segment is at most 5 squares
  for (int yy = y0; yy <= y1; ++yy) {
    const int first = yy * N + x0, w = first >> 6, offset = first & 63;
    or_at(b, w, bits << offset);
    if (offset + (x1 - x0 + 1) > 64) or_at(b, w + 1, bits >> (64 - offset));
  }
}

template <int W>
SP_HD SP_FORCEINLINE int count_all(const uint64_t (&b)[W]) {
  int c = 0;
  for (int w = 0; w < W; ++w) c += count64(b[w]);
  return c;
}

// The k-th (0-based) set square of the board whose word w is word(w), k < its stones: the word by
// per-word popcounts, picked by selects over constant indices (no branch per word, and on the CPU
// faster than indexing by a prefix-sum search: measured), then the k-th set bit of that word. The
// board is a function so that a set the playout derives (its empty squares of one weight class,
// say) is never stored: on a GPU each stored board is W more 64-bit registers.
template <int W, class WordOf>
SP_HD SP_FORCEINLINE int nth_square_of(const WordOf& word_of, uint32_t k) {
  uint64_t word = word_of(W - 1);
  int base = 64 * (W - 1);
  bool found = false;
  for (int w = 0; w < W - 1; ++w) {
    const uint64_t b = word_of(w);
    const uint32_t c = static_cast<uint32_t>(count64(b));
    const bool here = !found && k < c;
    word = here ? b : word;
    base = here ? 64 * w : base;
    k -= found || here ? 0 : c;
    found = found || here;
  }
  return base + nth_set_bit64(word, static_cast<int>(k));
}

template <int W>
SP_HD SP_FORCEINLINE int nth_square(const uint64_t (&b)[W], uint32_t k) {
  return nth_square_of<W>([&b](int w) { return b[w]; }, k);
}

template <int W>
SP_HD SP_FORCEINLINE void swap_boards(uint64_t (&a)[W], uint64_t (&b)[W]) {
  for (int w = 0; w < W; ++w) {
    const uint64_t t = a[w];
    a[w] = b[w];
    b[w] = t;
  }
}

// A window of one line through (x, y): bit 5 + k for the square k steps away (k in -5..5) in the
// line's direction; squares off the board are 0 in both.
struct Window {
  uint32_t own, empty;
};
inline constexpr int kWindowCentre = 5;

// Whether the stone at the centre of an own window stands in a winning row: the stones in a row
// above the centre are counted up, those below it down.
SP_HD SP_FORCEINLINE bool five_at_centre(uint32_t own, WinRule rule) {
  const int up = lsb(~(own >> (kWindowCentre + 1)));
  const int down = 31 - msb(~(own << (32 - kWindowCentre)));
  const int len = 1 + up + down;
  return rule == WinRule::kStandard ? len == 5 : len >= 5;
}

// A line of up to 32 squares as a word: whether it holds five stones in a row (under the
// standard rule exactly five, not part of six or more).
SP_HD SP_FORCEINLINE uint32_t rows_of_five(uint32_t line, WinRule rule) {
  uint32_t a = line & (line >> 1);  // bit i: squares i, i + 1
  a &= a >> 2;                      // i .. i + 3
  a &= line >> 4;                   // i .. i + 4
  return rule == WinRule::kStandard ? a & ~(line << 1) & ~(line >> 5) : a;
}

// How a playout keeps the stones, two ways behind one interface (the side to move is "mine"; empty
// is always the playout's own board of empty squares, which BitRep reads instead of a board of
// theirs):
//   init(s)             the stones of s
//   place(x, y)         a stone of mine on (x, y)
//   makes_five(theirs, rule, x, y, empty)
//                       whether a stone of mine (of theirs) on (x, y), placed there or not,
//                       stands in a winning row
//   window(d, x, y, empty)  the Window of mine through (x, y) in direction d
//   swap(empty)         the turn passes
// BitRep keeps the mover's bitboard (theirs are the squares neither mine nor empty) and walks the
// lines square by square: its board stays in a GPU thread's registers. LineRep keeps every row,
// column and diagonal of each side as a 32-bit word (about 700 bytes for 15x15, in the CPU's L1
// cache, where a GPU would put them in slow local memory) and reads a line with a shift. They
// answer the same (tests run both on the CPU); the CPU uses LineRep, kernels BitRep.
template <int N>
struct BitRep {
  static constexpr int kW = words_of(N);
  uint64_t mine[kW];

  SP_HD SP_FORCEINLINE void init(const State& s) {
    for (int w = 0; w < kW; ++w) mine[w] = s.side ? s.stones[1][w] : s.stones[0][w];
  }
  SP_HD SP_FORCEINLINE void place(int x, int y) { set_at(mine, y * N + x); }
  SP_HD SP_FORCEINLINE bool makes_five(bool of_theirs, WinRule rule, int x, int y,
                                       const uint64_t (&empty)[kW]) const {
    const uint64_t(&own)[kW] = mine;
    return makes_five_with(
        [&own, &empty, of_theirs](int q) {
          return of_theirs ? !test_at(own, q) && !test_at(empty, q) : test_at(own, q);
        },
        N, rule, x, y);
  }
  SP_HD SP_FORCEINLINE Window window(int d, int x, int y, const uint64_t (&empty)[kW]) const {
    const int dx = direction_dx(d), dy = direction_dy(d);
    Window w{0, 0};
    for (int k = -5; k <= 5; ++k) {
      const int cx = x + k * dx, cy = y + k * dy;
      if (!on_board(N, cx, cy)) continue;
      w.own |= static_cast<uint32_t>(test_at(mine, cy * N + cx)) << (kWindowCentre + k);
      w.empty |= static_cast<uint32_t>(test_at(empty, cy * N + cx)) << (kWindowCentre + k);
    }
    return w;
  }
  SP_HD SP_FORCEINLINE void swap(const uint64_t (&empty)[kW]) {
    for (int w = 0; w < kW; ++w) mine[w] = ~(mine[w] | empty[w]) & board_mask(N, w);
  }
};

template <int N>
struct LineRep {
  static constexpr int kW = words_of(N);
  static constexpr int kDiagonals = 2 * N - 1;
  // By side: row[y] and the diagonals hold bit x of (x, y), col[x] bit y. diag: x - y constant
  // (index x - y + N - 1), anti: x + y constant (index x + y).
  uint32_t row[2][N], col[2][N], diag[2][kDiagonals], anti[2][kDiagonals];
  int me;  // the side to move's index

  SP_HD SP_FORCEINLINE void add(int side, int x, int y) {
    row[side][y] |= 1u << x;
    col[side][x] |= 1u << y;
    diag[side][x - y + N - 1] |= 1u << x;
    anti[side][x + y] |= 1u << x;
  }
  SP_HD SP_FORCEINLINE void init(const State& s) {
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < N; ++i) row[side][i] = col[side][i] = 0;
      for (int i = 0; i < kDiagonals; ++i) diag[side][i] = anti[side][i] = 0;
      for (int w = 0; w < kW; ++w)
        for (uint64_t b = s.stones[side][w]; b; b &= b - 1) {
          const int sq = 64 * w + lsb64(b);
          add(side, sq % N, sq / N);
        }
    }
    me = s.side;
  }
  SP_HD SP_FORCEINLINE void place(int x, int y) { add(me, x, y); }
  SP_HD SP_FORCEINLINE bool makes_five(bool of_theirs, WinRule rule, int x, int y,
                                       const uint64_t (&)[kW]) const {
    const int side = me ^ static_cast<int>(of_theirs);
    const uint32_t bx = 1u << x;
    return (rows_of_five(row[side][y] | bx, rule) | rows_of_five(col[side][x] | (1u << y), rule) |
            rows_of_five(diag[side][x - y + N - 1] | bx, rule) |
            rows_of_five(anti[side][x + y] | bx, rule)) != 0;
  }
  // The line through (x, y) in direction d: each side's word, the squares of the line on the
  // board, and the position of (x, y) in the words.
  SP_HD SP_FORCEINLINE Window window(int d, int x, int y, const uint64_t (&)[kW]) const {
    uint32_t a, b, on;
    int at = x;
    const uint32_t all = (1u << N) - 1;
    if (d == 0) {
      a = row[me][y], b = row[me ^ 1][y], on = all;
    } else if (d == 1) {
      a = col[me][x], b = col[me ^ 1][x], on = all, at = y;
    } else if (d == 2) {  // x - y = c: x from max(0, c) to min(N - 1, N - 1 + c)
      const int c = x - y;
      a = diag[me][c + N - 1], b = diag[me ^ 1][c + N - 1];
      on = (all >> (c < 0 ? -c : 0)) << (c > 0 ? c : 0) & all;
    } else {  // x + y = t: x from max(0, t - N + 1) to min(N - 1, t)
      const int t = x + y;
      a = anti[me][t], b = anti[me ^ 1][t];
      on = (all >> (t < N - 1 ? N - 1 - t : 0)) & ~((1u << (t > N - 1 ? t - N + 1 : 0)) - 1);
    }
    const uint32_t empty = ~(a | b) & on;
    const auto shifted = [at](uint32_t line) {
      return static_cast<uint32_t>((static_cast<uint64_t>(line) << kWindowCentre) >> at) & 0x7FFu;
    };
    return Window{shifted(a), shifted(empty)};
  }
  SP_HD SP_FORCEINLINE void swap(const uint64_t (&)[kW]) { me ^= 1; }
};

// The representation a playout uses here: see BitRep and LineRep.
#if defined(__CUDA_ARCH__)
template <int N>
using PlayoutRep = BitRep<N>;
#else
template <int N>
using PlayoutRep = LineRep<N>;
#endif

template <int W>
SP_HD SP_FORCEINLINE void empty_squares(const State& s, int n, uint64_t (&empty)[W]) {
  for (int w = 0; w < W; ++w) empty[w] = ~(s.stones[0][w] | s.stones[1][w]) & board_mask(n, w);
}

// Takes square sq off the empty squares.
template <int W>
SP_HD SP_FORCEINLINE void clear_square(uint64_t (&empty)[W], int sq) {
  const uint64_t bit = uint64_t{1} << (sq & 63);
  for (int w = 0; w < W; ++w) empty[w] &= w == (sq >> 6) ? ~bit : ~uint64_t{0};
}

// The squares where mine just gained a winning move through its stone on (x, y): for each line
// through it, each window of five squares that holds the stone, four stones of mine and one empty
// square (and under the standard rule no stone of mine just outside, which would make six); that
// empty square is added to threats. Returns whether the stone itself stands in a winning row.
template <int N, class Rep, class Empty, int W>
SP_HD SP_FORCEINLINE bool add_threats(const Rep& rep, const Empty& empty, WinRule rule, int x,
                                      int y, uint64_t (&threats)[W]) {
  const bool exact = rule == WinRule::kStandard;
  bool five = false;
  for (int d = 0; d < kDirections; ++d) {
    const Window win = rep.window(d, x, y, empty);
    const uint32_t o = win.own | (1u << kWindowCentre);
    five = five || five_at_centre(o, rule);
    for (int start = 1; start <= kWindowCentre; ++start) {  // window bits start .. start + 4
      const uint32_t m = 0x1Fu << start;
      if (count(o & m) != 4 || !(win.empty & m)) continue;
      if (exact && (((o >> (start - 1)) & 1u) || ((o >> (start + 5)) & 1u))) continue;
      const int k = lsb(win.empty & m) - kWindowCentre;
      set_at(threats, (y + k * direction_dy(d)) * N + (x + k * direction_dx(d)));
    }
  }
  return five;
}

// The squares of candidates (empty threat squares of mine, or of theirs) where that side really
// wins; the others are removed from candidates for good (under the standard rule a stone of that
// side added since can have turned the row into six, which no later move undoes).
template <int N, class Rep, int W>
SP_HD SP_FORCEINLINE void keep_wins(uint64_t (&candidates)[W], const Rep& rep, bool of_theirs,
                                    WinRule rule, const uint64_t (&empty)[W]) {
  SP_UNROLL
  for (int w = 0; w < W; ++w)
    for (uint64_t b = candidates[w]; b; b &= b - 1) {
      const int sq = 64 * w + lsb64(b);
      if (!rep.makes_five(of_theirs, rule, sq % N, sq / N, empty))
        candidates[w] &= ~lowest_bit64(b);
    }
}

// The threat squares of both sides in s (threats_mine: the side to move's), as add_threats grows
// them from every stone; on_stone(x, y) is called for each stone too (a playout's own sets).
template <int N, class Rep, int W, class OnStone>
SP_HD SP_FORCEINLINE void init_threats(const State& s, Rep& rep, const uint64_t (&empty)[W],
                                       uint64_t (&threats_mine)[W], uint64_t (&threats_theirs)[W],
                                       OnStone&& on_stone) {
  for (int turn = 0; turn < 2; ++turn) {  // the side to move's stones, then the other side's
    const int side = s.side ^ turn;
    SP_UNROLL
    for (int w = 0; w < W; ++w)
      for (uint64_t stones = s.stones[side][w]; stones; stones &= stones - 1) {
        const int sq = 64 * w + lsb64(stones), x = sq % N, y = sq / N;
        on_stone(x, y);
        add_threats<N>(rep, empty, s.rule, x, y, threats_mine);
      }
    rep.swap(empty);
    swap_boards(threats_mine, threats_theirs);
  }
}

// Wins first, then blocks: the checked threat squares of the mover (threats_mine) and, when it
// has none, of the opponent (threats_theirs). Returns how many there are (0: neither side has a
// winning square); of_mine tells whose they are.
template <int N, class Rep, int W>
SP_HD SP_FORCEINLINE uint32_t forced_squares(uint64_t (&threats_mine)[W],
                                             uint64_t (&threats_theirs)[W], const Rep& rep,
                                             WinRule rule, const uint64_t (&empty)[W],
                                             bool& of_mine) {
  for (int w = 0; w < W; ++w) threats_mine[w] &= empty[w];
  keep_wins<N>(threats_mine, rep, false, rule, empty);
  uint32_t n = static_cast<uint32_t>(count_all(threats_mine));
  of_mine = true;
  if (n == 0) {
    for (int w = 0; w < W; ++w) threats_theirs[w] &= empty[w];
    keep_wins<N>(threats_theirs, rep, true, rule, empty);
    n = static_cast<uint32_t>(count_all(threats_theirs));
    of_mine = false;
  }
  return n;
}

// The weighted ply's choice when no side has a win to take or block: of the `left` empty squares,
// na are adjacent to a stone and nn near one (the rest far); word picks a square with probability
// proportional to its class's weight. kind: 0 any empty square (no weight left), 1 adjacent,
// 2 near, 3 far; index: the square's index within that class (all squares of a class weigh the
// same). The one rule of every weighted playout (weighted_playout, compact_weighted_playout).
struct WeightClass {
  int kind;
  uint32_t index;
};
SP_HD SP_FORCEINLINE WeightClass weight_class(const Policy& p, uint32_t na, uint32_t nn,
                                              uint32_t left, uint32_t word) {
  const uint32_t wa = p.adjacent_weight * na, wn = p.near_weight * nn;
  const uint32_t total = wa + wn + kWeightOne * (left - na - nn);
  const uint32_t r = bounded(word, total == 0 ? left : total);
  const int kind = total == 0 ? 0 : r < wa ? 1 : r - wa < wn ? 2 : 3;
  const uint32_t index = kind == 0   ? r
                         : kind == 1 ? r / p.adjacent_weight
                         : kind == 2 ? (r - wa) / p.near_weight
                                     : (r - wa - wn) / kWeightOne;
  return WeightClass{kind, index};
}

}  // namespace playout_detail

// Uniform random moves to the end, on a board of size N, the stones kept as Rep.
template <int N, class Rep = playout_detail::PlayoutRep<N>>
SP_HD inline PlayoutResult uniform_playout(const State& s, BlockStream& rng) {
  using namespace playout_detail;
  constexpr int W = words_of(N);
  uint64_t empty[W];
  empty_squares(s, N, empty);
  Rep rep;
  rep.init(s);
  const WinRule rule = s.rule;
  uint32_t left = static_cast<uint32_t>(N * N - s.ply), plies = 0;
  Philox4x32 block{};
  for (;;) {
    if (left == 0) return PlayoutResult{kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    const int sq = nth_square(empty, bounded(word_of(block, plies & 3u), left)), x = sq % N,
              y = sq / N;
    clear_square(empty, sq);
    rep.place(x, y);
    --left;
    ++plies;
    if (rep.makes_five(false, rule, x, y, empty))
      return PlayoutResult{static_cast<uint8_t>(s.side ^ ((plies - 1) & 1u)),
                           static_cast<uint16_t>(plies)};
    rep.swap(empty);
  }
}

// Weighted moves (see Policy) to the end, on a board of size N, the stones kept as Rep. Besides
// the stones, the playout keeps the squares within one and within two squares of a stone, and per
// side the squares where it may have a winning move (threats: grown by add_threats with every
// stone, checked when read), so that no ply looks at more than the lines through its own stone.
template <int N, class Rep = playout_detail::PlayoutRep<N>>
SP_HD inline PlayoutResult weighted_playout(const State& s, const Policy& p, BlockStream& rng) {
  using namespace playout_detail;
  constexpr int W = words_of(N);
  uint64_t empty[W];
  empty_squares(s, N, empty);
  Rep rep;
  rep.init(s);
  const WinRule rule = s.rule;
  uint64_t near1[W] = {}, near2[W] = {}, threats_mine[W] = {}, threats_theirs[W] = {};
  init_threats<N>(s, rep, empty, threats_mine, threats_theirs, [&](int x, int y) {
    set_area_at<N>(near1, x, y, 1);
    set_area_at<N>(near2, x, y, 2);
  });
  uint32_t left = static_cast<uint32_t>(N * N - s.ply), plies = 0;
  Philox4x32 block{};
  for (;;) {
    if (left == 0) return PlayoutResult{kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    const uint32_t word = word_of(block, plies & 3u);
    // Wins first, then blocks. The set the ply picks from is never stored (nth_square_of): which
    // one it is, is kind.
    bool of_mine = true;
    const uint32_t n = forced_squares<N>(threats_mine, threats_theirs, rep, rule, empty, of_mine);
    int kind = of_mine ? 4 : 5;  // 4 threats_mine, 5 threats_theirs, else the weight class below
    uint32_t k = 0;
    if (n != 0) {
      k = bounded(word, n);
    } else {
      uint32_t na = 0, nn = 0;
      for (int w = 0; w < W; ++w) {
        na += static_cast<uint32_t>(count64(near1[w] & empty[w]));
        nn += static_cast<uint32_t>(count64(near2[w] & ~near1[w] & empty[w]));
      }
      const WeightClass c = weight_class(p, na, nn, left, word);
      kind = c.kind;
      k = c.index;
    }
    const auto pick = [&](int w) {
      return kind == 4   ? threats_mine[w]
             : kind == 5 ? threats_theirs[w]
             : kind == 0 ? empty[w]
             : kind == 1 ? near1[w] & empty[w]
             : kind == 2 ? near2[w] & ~near1[w] & empty[w]
                         : empty[w] & ~near2[w];
    };
    const int sq = nth_square_of<W>(pick, k), x = sq % N, y = sq / N;
    clear_square(empty, sq);
    rep.place(x, y);
    --left;
    ++plies;
    set_area_at<N>(near1, x, y, 1);
    set_area_at<N>(near2, x, y, 2);
    if (add_threats<N>(rep, empty, rule, x, y, threats_mine))
      return PlayoutResult{static_cast<uint8_t>(s.side ^ ((plies - 1) & 1u)),
                           static_cast<uint16_t>(plies)};
    rep.swap(empty);
    swap_boards(threats_mine, threats_theirs);
  }
}

}  // namespace sp::gomoku
