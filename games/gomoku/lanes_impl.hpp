// The lane-parallel Gomoku playouts on 15x15 and 20x20 boards, written once over an Ops vocabulary
// (ops_avx2.hpp, ops_avx512.hpp) and the board size N, and instantiated for both sizes by one
// translation unit per ISA: the uniform kernel here, the weighted one (WeightedLanes) further
// down, both driven by play_blocks. The uniform one plays what uniform_playout of
// games/gomoku/playout.hpp plays, ply by ply, with LineRep's layout per lane: every row, column
// and diagonal of each side as one word (N bits of a uint32_t), and the empty squares per row, in
// memory laid out lane by lane, so that a lane's line is a gather.
//   - The k-th empty square (row-major, as nth_square picks it) is found row by row from the
//     counts, then bit by bit in the row's empty squares: no popcount or bit select per lane.
//   - The winning-row test reads the mover's four lines through the stone and tests them whole,
//     as LineRep::makes_five does.
//   - Stones are placed by scatters on AVX-512, lane by lane on AVX2 (no scatter there).
// Lanes are refilled only at block boundaries (every four plies, one Philox block per lane), as
// in the EWN lanes: a rollout starts on its stream's first block like the scalar playout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/simd/philox_lanes.hpp"
#include "games/gomoku/lanes.hpp"
#include "games/gomoku/playout.hpp"

namespace sp::gomoku::lanes {
// Internal linkage throughout: each ISA's translation unit keeps its own copy, so the linker can
// never pick an AVX-512 body of an inline function for the AVX2 path.
namespace {

using playout_detail::kWindowCentre;
using playout_detail::rows_of_five;

// A side's lines in the lane layout on a board of size N: rows y, columns x (from kCol),
// diagonals x - y + N - 1 (from kDiag), anti-diagonals x + y (from kAnti).
template <int N>
inline constexpr int kDiagonals = 2 * N - 1;
template <int N>
inline constexpr int kCol = N;
template <int N>
inline constexpr int kDiag = 2 * N;
template <int N>
inline constexpr int kAnti = 2 * N + kDiagonals<N>;
template <int N>
inline constexpr int kLines = kAnti<N> + kDiagonals<N>;
template <int N>
inline constexpr uint32_t kRowMask = (1u << N) - 1;
static_assert(kMaxSize <= 32, "a line is one 32-bit word");

// log2 of the lanes: a line's word for lane l of line i is at (i << kLaneShift) + l.
template <class Ops>
inline constexpr int kLaneShift = Ops::kLanes == 16 ? 4 : 3;

// Adds the stone (x, y) to a side's lines, line(i) being line i of them.
template <int N, class LineAt>
SP_FORCEINLINE void add_stone(LineAt&& line, uint32_t x, uint32_t y) {
  line(y) |= 1u << x;
  line(kCol<N> + x) |= 1u << y;
  line(kDiag<N> + x - y + N - 1) |= 1u << x;
  line(kAnti<N> + x + y) |= 1u << x;
}

// The stones of s as each side's lines.
template <int N>
void lines_of(const State& s, uint32_t (&lines)[2][kLines<N>]) {
  for (int side = 0; side < 2; ++side) {
    for (uint32_t& line : lines[side]) line = 0;
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x)
        if (playout_detail::test_at(s.stones[side], y * N + x))
          add_stone<N>([&](uint32_t i) -> uint32_t& { return lines[side][i]; }, x, y);
  }
}

// What both kernels keep per lane besides the board: the playout's registers, its Philox counter
// (draw, rollout, leaf, ply) under the key (k0, k1), its task, and the ply's stones for the
// writes made lane by lane. A kernel's lanes are its board, then this (the second base class):
// with this first, the AVX2 uniform kernel ran 3% slower on 15x15 (measured side by side).
template <int L>
struct LaneCommon {
  alignas(64) uint32_t side[L], left[L], winner[L], plies[L];
  alignas(64) uint32_t exact[L];  // all ones under the standard rule (exactly five)
  alignas(64) uint32_t draw[L], rollout[L], leaf[L], ply[L], k0[L], k1[L];
  alignas(64) uint32_t at_x[L], at_y[L], mover[L];
  alignas(64) uint32_t lane[L];  // 0, 1, ..., L - 1
  uint32_t task[L];
};

template <class Ops, int N>
struct UniformBoard {
  static constexpr int L = Ops::kLanes;
  alignas(64) uint32_t lines[2][kLines<N>][L];  // by side: bit x of row y, bit y of column x, bit
                                                // x of the diagonals
  alignas(64) uint32_t empty[N][L];             // empty squares per row
};

template <class Ops, int N>
struct Lanes : UniformBoard<Ops, N>, LaneCommon<Ops::kLanes> {};

template <class Ops>
struct Regs {
  using V = typename Ops::V;
  V side, left, winner, plies;
};

// Sets lane l up for the feed's next rollout of its current task (the board is the caller's).
template <int N, int L>
void start_playout(LaneCommon<L>& s, int l, rollout::LaneFeed<GomokuGame>& feed) {
  const Task& tk = feed.task();
  s.task[l] = feed.task_index();
  s.side[l] = tk.root.side;
  s.left[l] = static_cast<uint32_t>(N * N - tk.root.ply);
  s.winner[l] = kNoWinner;
  s.plies[l] = 0;
  s.exact[l] = tk.root.rule == WinRule::kStandard ? ~0u : 0u;
  s.draw[l] = 0;
  s.leaf[l] = tk.leaf;
  s.ply[l] = tk.ply;
  s.k0[l] = tk.key.k0;
  s.k1[l] = tk.key.k1;
  s.rollout[l] = feed.take();
}

// Bit i of the result: squares i .. i + 4 of line hold stones (and, where exact, squares i - 1
// and i + 5 do not): rows_of_five of playout.hpp, lane by lane.
template <class Ops>
SP_FORCEINLINE typename Ops::V fives(typename Ops::V line, typename Ops::M exact) {
  typename Ops::V a = Ops::and_(line, Ops::srli(line, 1));
  a = Ops::and_(a, Ops::srli(a, 2));
  a = Ops::and_(a, Ops::srli(line, 4));
  const auto only = Ops::andnot(Ops::srli(line, 5), Ops::andnot(Ops::slli(line, 1), a));
  return Ops::sel(exact, only, a);
}

// One uniform ply of every lane in `act` with the lane's random word; returns the lanes still
// playing.
template <class Ops, int N>
SP_FORCEINLINE typename Ops::M play_ply(Lanes<Ops, N>& s, Regs<Ops>& r, typename Ops::M act,
                                        typename Ops::V word, typename Ops::M exact,
                                        typename Ops::V lane) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int lane_shift = kLaneShift<Ops>;
  const V zero = Ops::zero(), one = Ops::set1(1);

  // bounded(word, left), then the k-th empty square: its row from the counts, its column in the
  // row's empty squares.
  V k = Ops::mulhi(word, r.left);
  V y = zero;
  M found = Ops::mnot(act);  // idle lanes look for nothing
  for (int row = 0; row < N; ++row) {
    const V c = Ops::load(s.empty[row]);
    const M here = Ops::mandnot(found, Ops::gt(c, k));
    y = Ops::sel(here, Ops::set1(row), y);
    found = Ops::mor(found, here);
    k = Ops::sel(found, k, Ops::sub(k, c));
  }
  const uint32_t* base = &s.lines[0][0][0];
  const V mine_at = Ops::add(Ops::slli(Ops::mullo(r.side, Ops::set1(kLines<N>)), lane_shift), lane);
  const V theirs_at = Ops::add(
      Ops::slli(Ops::mullo(Ops::xor_(r.side, one), Ops::set1(kLines<N>)), lane_shift), lane);
  const V row_at = Ops::slli(y, lane_shift);
  const V mine = Ops::gather(base, Ops::add(mine_at, row_at));
  const V empty = Ops::andnot(Ops::or_(mine, Ops::gather(base, Ops::add(theirs_at, row_at))),
                              Ops::set1(kRowMask<N>));
  V x = zero;
  M done = Ops::mnot(act);
  for (int i = 0; i < N; ++i) {
    const V b = Ops::and_(Ops::srli(empty, i), one);
    const M hit = Ops::mandnot(done, Ops::mand(Ops::eq(k, zero), Ops::nz(b)));
    x = Ops::sel(hit, Ops::set1(i), x);
    done = Ops::mor(done, hit);
    k = Ops::sub(k, b);
  }

  // The mover's four lines through the stone, with it (LineRep::makes_five).
  const V bx = Ops::sllv(one, x), by = Ops::sllv(one, y);
  const V col_at = Ops::slli(Ops::add(x, Ops::set1(kCol<N>)), lane_shift);
  const V diag_at = Ops::slli(Ops::add(Ops::sub(x, y), Ops::set1(kDiag<N> + N - 1)), lane_shift);
  const V anti_at = Ops::slli(Ops::add(Ops::add(x, y), Ops::set1(kAnti<N>)), lane_shift);
  const V row = Ops::or_(mine, bx);
  const V col = Ops::or_(Ops::gather(base, Ops::add(mine_at, col_at)), by);
  const V diag = Ops::or_(Ops::gather(base, Ops::add(mine_at, diag_at)), bx);
  const V anti = Ops::or_(Ops::gather(base, Ops::add(mine_at, anti_at)), bx);
  const V lines = Ops::or_(Ops::or_(fives<Ops>(row, exact), fives<Ops>(col, exact)),
                           Ops::or_(fives<Ops>(diag, exact), fives<Ops>(anti, exact)));
  const M won = Ops::mand(act, Ops::nz(lines));

  if constexpr (Ops::kScatter) {
    uint32_t* out = &s.lines[0][0][0];
    Ops::scatter(out, Ops::add(mine_at, row_at), row, act);
    Ops::scatter(out, Ops::add(mine_at, col_at), col, act);
    Ops::scatter(out, Ops::add(mine_at, diag_at), diag, act);
    Ops::scatter(out, Ops::add(mine_at, anti_at), anti, act);
    const V empty_at = Ops::add(row_at, lane);
    Ops::scatter(&s.empty[0][0], empty_at, Ops::sub(Ops::gather(&s.empty[0][0], empty_at), one),
                 act);
  } else {
    Ops::store(s.at_x, x);
    Ops::store(s.at_y, y);
    Ops::store(s.mover, r.side);
    for (unsigned m = Ops::bits(act); m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const uint32_t sx = s.at_x[l], sy = s.at_y[l];
      auto& own = s.lines[s.mover[l]];
      add_stone<N>([&](uint32_t i) -> uint32_t& { return own[i][l]; }, sx, sy);
      --s.empty[sy][l];
    }
  }
  r.winner = Ops::sel(won, r.side, r.winner);
  r.plies = Ops::add_where(act, r.plies, one);
  r.left = Ops::sub(r.left, Ops::and_(Ops::vec(act), one));
  r.side = Ops::xor_where(act, r.side, one);
  return Ops::mandnot(Ops::mor(won, Ops::eq(r.left, zero)), act);
}

// The weighted playout (weighted_playout of playout.hpp) in lanes. Besides the lines, each lane
// keeps as row words (bit x of row y) its empty squares, the squares within one and within two
// squares of a stone, and each side's threat squares (by absolute side). Per ply:
//   - Lanes with a threat square of either side on an empty square check them lane by lane with
//     the scalar rule (keep_wins: mine first, then theirs, the failed ones removed for good) and
//     play the k-th checked square; the others, and those whose checks all fail, pick by class.
//   - The class (adjacent, near, far, or any empty square when no weight is left) from the counts
//     of each, all lanes at once; then the k-th square of the class without a division: rows are
//     skipped while the random value exceeds their count times the class weight, then squares.
//   - After the stone, the windows of five through it on its four lines give the new threat
//     squares of the mover (add_threats), all lanes at once; the rare squares found are written
//     lane by lane.
template <class Ops, int N>
struct WeightedBoard {
  static constexpr int L = Ops::kLanes;
  alignas(64) uint32_t lines[2][kLines<N>][L];
  alignas(64) uint32_t empty[N][L];
  alignas(64) uint32_t near1[N][L], near2[N][L];
  alignas(64) uint32_t threats[2][N][L];  // by absolute side
  alignas(64) uint32_t adjacent_weight[L], near_weight[L];
  alignas(64) uint32_t word[L], forced[L], forced_x[L], forced_y[L];  // threat picks
  alignas(64) uint32_t found[4][L];  // new threat squares per direction, as windows
};

template <class Ops, int N>
struct WeightedLanes : WeightedBoard<Ops, N>, LaneCommon<Ops::kLanes> {};

// A task's root in the weighted lanes' layout, built once per task by the scalar playout's own
// set-up (set_area_at, add_threats over LineRep), so that the lanes start from what it starts
// from.
template <int N>
struct WeightedRoot {
  uint32_t lines[2][kLines<N>], empty[N], near1[N], near2[N], threats[2][N];

  void init(const State& root) {
    using namespace playout_detail;
    constexpr int W = words_of(N);
    uint64_t open[W], n1[W] = {}, n2[W] = {}, th[2][W] = {};
    empty_squares(root, N, open);
    LineRep<N> rep;
    rep.init(root);
    for (int turn = 0; turn < 2; ++turn) {
      const int side = root.side ^ turn;
      for (int w = 0; w < W; ++w)
        for (uint64_t stones = root.stones[side][w]; stones; stones &= stones - 1) {
          const int sq = 64 * w + lsb64(stones), x = sq % N, y = sq / N;
          set_area_at<N>(n1, x, y, 1);
          set_area_at<N>(n2, x, y, 2);
          add_threats<N>(rep, open, root.rule, x, y, th[side]);
        }
      rep.swap(open);
    }
    lines_of<N>(root, lines);
    const auto row_of = [](const uint64_t(&b)[W], int y) {
      uint32_t r = 0;
      for (int x = 0; x < N; ++x) r |= static_cast<uint32_t>(test_at(b, y * N + x)) << x;
      return r;
    };
    for (int y = 0; y < N; ++y) {
      empty[y] = row_of(open, y);
      near1[y] = row_of(n1, y);
      near2[y] = row_of(n2, y);
      for (int side = 0; side < 2; ++side) threats[side][y] = row_of(th[side], y);
    }
  }
};

// Lane l's threat pick (wins first, then blocks), as weighted_playout makes it: sets forced[l]
// and the square when a checked threat square exists.
template <class Ops, int N>
void pick_threat(WeightedLanes<Ops, N>& s, int l) {
  const uint32_t me = s.mover[l];
  const bool exact = s.exact[l] != 0;
  const WinRule rule = exact ? WinRule::kStandard : WinRule::kFreestyle;
  for (uint32_t pass = 0; pass < 2; ++pass) {
    const uint32_t side = me ^ pass;
    const auto& own = s.lines[side];
    uint32_t n = 0;
    for (int y = 0; y < N; ++y) {
      uint32_t t = s.threats[side][y][l] & s.empty[y][l];
      for (uint32_t b = t; b; b &= b - 1) {
        const int x = lsb(b);
        const uint32_t bx = 1u << x;
        const bool five = (rows_of_five(own[y][l] | bx, rule) |
                           rows_of_five(own[kCol<N> + x][l] | (1u << y), rule) |
                           rows_of_five(own[kDiag<N> + x - y + N - 1][l] | bx, rule) |
                           rows_of_five(own[kAnti<N> + x + y][l] | bx, rule)) != 0;
        if (!five) t &= ~bx;
      }
      s.threats[side][y][l] = t;
      n += static_cast<uint32_t>(count(t));
    }
    if (n == 0) continue;
    uint32_t k = bounded(s.word[l], n);
    for (int y = 0; y < N; ++y) {
      const uint32_t t = s.threats[side][y][l];
      const uint32_t c = static_cast<uint32_t>(count(t));
      if (k < c) {
        s.forced[l] = ~0u;
        s.forced_x[l] = static_cast<uint32_t>(nth_set_bit64(t, static_cast<int>(k)));
        s.forced_y[l] = static_cast<uint32_t>(y);
        return;
      }
      k -= c;
    }
  }
}

// The sum of the four bytes of each lane's word.
template <class Ops>
SP_FORCEINLINE typename Ops::V byte_sum(typename Ops::V w) {
  const typename Ops::V bytes = Ops::set1(0xFF);
  return Ops::add(Ops::add(Ops::and_(w, bytes), Ops::and_(Ops::srli(w, 8), bytes)),
                  Ops::add(Ops::and_(Ops::srli(w, 16), bytes), Ops::srli(w, 24)));
}

// Set squares of a row word (N bits), lane by lane: the popcounts of its bytes added up.
template <class Ops, int N>
SP_FORCEINLINE typename Ops::V row_count(typename Ops::V w) {
  const typename Ops::V p = Ops::popcount_bytes(w);
  typename Ops::V sum = p;
  for (int b = 8; b < N; b += 8) sum = Ops::add(sum, Ops::srli(p, b));
  return Ops::and_(sum, Ops::set1(0xFF));
}

// The new threat squares of the mover through its stone on one line, as a window (bit 5 + k: k
// squares along the line; add_threats of playout.hpp): own and theirs are the line's words with
// the stone, `on` the line's squares on the board, `at` the stone's bit in them. `five` gets
// whether the stone stands in a winning row (five_at_centre).
template <class Ops>
SP_FORCEINLINE typename Ops::V line_threats(typename Ops::V own, typename Ops::V theirs,
                                            typename Ops::V on, typename Ops::V at,
                                            typename Ops::M exact, typename Ops::V& five) {
  using V = typename Ops::V;
  const V window = Ops::set1(0x7FF), zero = Ops::zero(), one = Ops::set1(1);
  const V o = Ops::and_(Ops::srlv(Ops::slli(own, kWindowCentre), at), window);
  const V e = Ops::and_(
      Ops::srlv(Ops::slli(Ops::andnot(Ops::or_(own, theirs), on), kWindowCentre), at), window);
  five = Ops::or_(five,
                  Ops::and_(Ops::srlv(Ops::slli(fives<Ops>(own, exact), 4), at), Ops::set1(0x1F)));
  V found = zero;
  for (int start = 1; start <= kWindowCentre; ++start) {
    const V gap = Ops::andnot(o, Ops::set1(0x1Fu << start));  // the window's squares not mine
    const auto single = Ops::eq(Ops::and_(gap, Ops::sub(gap, one)), zero);
    const auto open = Ops::nz(Ops::and_(gap, e));
    const auto six = Ops::mand(
        exact, Ops::nz(Ops::and_(o, Ops::set1((1u << (start - 1)) | (1u << (start + 5))))));
    found = Ops::or_(found, Ops::and_(Ops::vec(Ops::mandnot(six, Ops::mand(single, open))), gap));
  }
  return found;
}

// Weighted totals (at most kMaxWeight on each of the 400 squares of a 20x20 board) stay below
// 2^31, so the signed compares of the ops order them.
static_assert(uint64_t{kMaxWeight} * kMaxSquares < (uint64_t{1} << 31));

// One weighted ply of every lane in `act` with the lane's random word; returns the lanes still
// playing.
template <class Ops, int N>
SP_FORCEINLINE typename Ops::M play_ply(WeightedLanes<Ops, N>& s, Regs<Ops>& r, typename Ops::M act,
                                        typename Ops::V word, typename Ops::M exact,
                                        typename Ops::V lane) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int lane_shift = kLaneShift<Ops>;
  const V zero = Ops::zero(), one = Ops::set1(1), rows = Ops::set1(kRowMask<N>);

  // Threat squares of either side still empty: those lanes check them one by one.
  V any = zero;
  for (int y = 0; y < N; ++y)
    any = Ops::or_(any, Ops::and_(Ops::or_(Ops::load(s.threats[0][y]), Ops::load(s.threats[1][y])),
                                  Ops::load(s.empty[y])));
  Ops::store(s.forced, zero);
  if (const unsigned check = Ops::bits(Ops::mand(act, Ops::nz(any)))) {
    Ops::store(s.word, word);
    Ops::store(s.mover, r.side);
    for (unsigned m = check; m; m &= m - 1) pick_threat(s, __builtin_ctz(m));
  }

  // The class counts: the popcounts of the rows' bytes summed over the rows (at most 8 N < 256
  // a byte). Rows of at most 16 squares share a word: adjacent in the low half, near in the high.
  V na, nn;
  if constexpr (N <= 16) {
    V acc = zero;
    for (int y = 0; y < N; ++y) {
      const V e = Ops::load(s.empty[y]), n1 = Ops::load(s.near1[y]), n2 = Ops::load(s.near2[y]);
      const V adj = Ops::and_(n1, e), near = Ops::and_(Ops::andnot(n1, n2), e);
      acc = Ops::add(acc, Ops::popcount_bytes(Ops::or_(adj, Ops::slli(near, 16))));
    }
    const V bytes = Ops::set1(0xFF);
    na = Ops::add(Ops::and_(acc, bytes), Ops::and_(Ops::srli(acc, 8), bytes));
    nn = Ops::add(Ops::and_(Ops::srli(acc, 16), bytes), Ops::srli(acc, 24));
  } else {
    V acc_adj = zero, acc_near = zero;
    for (int y = 0; y < N; ++y) {
      const V e = Ops::load(s.empty[y]), n1 = Ops::load(s.near1[y]), n2 = Ops::load(s.near2[y]);
      acc_adj = Ops::add(acc_adj, Ops::popcount_bytes(Ops::and_(n1, e)));
      acc_near = Ops::add(acc_near, Ops::popcount_bytes(Ops::and_(Ops::andnot(n1, n2), e)));
    }
    na = byte_sum<Ops>(acc_adj);
    nn = byte_sum<Ops>(acc_near);
  }
  const V aw = Ops::load(s.adjacent_weight), nw = Ops::load(s.near_weight);
  const V wa = Ops::mullo(aw, na), wn = Ops::mullo(nw, nn);
  const V total = Ops::add(Ops::add(wa, wn), Ops::slli(Ops::sub(Ops::sub(r.left, na), nn), 8));
  const M none = Ops::eq(total, zero);
  V rem = Ops::mulhi(word, Ops::sel(none, r.left, total));
  const M c1 = Ops::mandnot(none, Ops::gt(wa, rem));
  rem = Ops::sel(Ops::mor(none, c1), rem, Ops::sub(rem, wa));
  const M c2 = Ops::mandnot(Ops::mor(none, c1), Ops::gt(wn, rem));
  rem = Ops::sel(Ops::mor(Ops::mor(none, c1), c2), rem, Ops::sub(rem, wn));
  const M c3 = Ops::mnot(Ops::mor(Ops::mor(none, c1), c2));
  const V weight = Ops::sel(none, one, Ops::sel(c1, aw, Ops::sel(c2, nw, Ops::set1(kWeightOne))));

  // The row of the square, then its column: skip whole rows, then squares, each worth `weight`.
  V y = zero, pick = zero;
  M found = Ops::mnot(act);
  for (int row = 0; row < N; ++row) {
    const V e = Ops::load(s.empty[row]), n1 = Ops::load(s.near1[row]);
    const V n2 = Ops::load(s.near2[row]);
    const V cls = Ops::sel(
        c1, Ops::and_(n1, e),
        Ops::sel(c2, Ops::and_(Ops::andnot(n1, n2), e), Ops::sel(c3, Ops::andnot(n2, e), e)));
    const V cw = Ops::mullo(row_count<Ops, N>(cls), weight);
    const M here = Ops::mandnot(found, Ops::gt(cw, rem));
    y = Ops::sel(here, Ops::set1(row), y);
    pick = Ops::sel(here, cls, pick);
    found = Ops::mor(found, here);
    rem = Ops::sel(found, rem, Ops::sub(rem, cw));
  }
  V x = zero;
  M done = Ops::mnot(act);
  for (int i = 0; i < N; ++i) {
    const M b = Ops::nz(Ops::and_(Ops::srli(pick, i), one));
    const M hit = Ops::mandnot(done, Ops::mand(b, Ops::gt(weight, rem)));
    x = Ops::sel(hit, Ops::set1(i), x);
    done = Ops::mor(done, hit);
    rem = Ops::sub(rem, Ops::and_(Ops::vec(b), weight));
  }
  const M forced = Ops::mask(Ops::load(s.forced));
  x = Ops::sel(forced, Ops::load(s.forced_x), x);
  y = Ops::sel(forced, Ops::load(s.forced_y), y);

  // The stone: its lines, the empty squares and the areas around it.
  const uint32_t* base = &s.lines[0][0][0];
  const V mine_at = Ops::add(Ops::slli(Ops::mullo(r.side, Ops::set1(kLines<N>)), lane_shift), lane);
  const V theirs_at = Ops::add(
      Ops::slli(Ops::mullo(Ops::xor_(r.side, one), Ops::set1(kLines<N>)), lane_shift), lane);
  const V bx = Ops::sllv(one, x), by = Ops::sllv(one, y);
  const V row_at = Ops::slli(y, lane_shift);
  const V col_at = Ops::slli(Ops::add(x, Ops::set1(kCol<N>)), lane_shift);
  const V diag_at = Ops::slli(Ops::add(Ops::sub(x, y), Ops::set1(kDiag<N> + N - 1)), lane_shift);
  const V anti_at = Ops::slli(Ops::add(Ops::add(x, y), Ops::set1(kAnti<N>)), lane_shift);
  const V row = Ops::or_(Ops::gather(base, Ops::add(mine_at, row_at)), bx);
  const V col = Ops::or_(Ops::gather(base, Ops::add(mine_at, col_at)), by);
  const V diag = Ops::or_(Ops::gather(base, Ops::add(mine_at, diag_at)), bx);
  const V anti = Ops::or_(Ops::gather(base, Ops::add(mine_at, anti_at)), bx);
  const V area1 = Ops::and_(Ops::srli(Ops::sllv(Ops::set1(7), x), 1), rows);
  const V area2 = Ops::and_(Ops::srli(Ops::sllv(Ops::set1(0x1F), x), 2), rows);
  const V act_v = Ops::vec(act);
  for (int yy = 0; yy < N; ++yy) {
    const V d1 = Ops::sub(Ops::set1(yy + 1), y), d2 = Ops::sub(Ops::set1(yy + 2), y);
    const V in1 = Ops::and_(act_v, Ops::vec(Ops::eq(Ops::min(d1, Ops::set1(2)), d1)));
    const V in2 = Ops::and_(act_v, Ops::vec(Ops::eq(Ops::min(d2, Ops::set1(4)), d2)));
    const V at = Ops::and_(act_v, Ops::vec(Ops::eq(y, Ops::set1(yy))));
    Ops::store(s.near1[yy], Ops::or_(Ops::load(s.near1[yy]), Ops::and_(in1, area1)));
    Ops::store(s.near2[yy], Ops::or_(Ops::load(s.near2[yy]), Ops::and_(in2, area2)));
    Ops::store(s.empty[yy], Ops::andnot(Ops::and_(at, bx), Ops::load(s.empty[yy])));
  }

  // The mover's new threat squares and whether it won, line by line.
  const V all = rows;
  const V pos = Ops::sel(Ops::gt(x, y), Ops::sub(x, y), zero);
  const V neg = Ops::sel(Ops::gt(y, x), Ops::sub(y, x), zero);
  const V t = Ops::add(x, y), last = Ops::set1(N - 1);
  const V low = Ops::sel(Ops::gt(last, t), Ops::sub(last, t), zero);
  const V high = Ops::sel(Ops::gt(t, last), Ops::sub(t, last), zero);
  const V diag_on = Ops::and_(Ops::sllv(Ops::srlv(all, neg), pos), all);
  const V anti_on = Ops::andnot(Ops::sub(Ops::sllv(one, high), one), Ops::srlv(all, low));
  V five = zero;
  const V f0 =
      line_threats<Ops>(row, Ops::gather(base, Ops::add(theirs_at, row_at)), all, x, exact, five);
  const V f1 =
      line_threats<Ops>(col, Ops::gather(base, Ops::add(theirs_at, col_at)), all, y, exact, five);
  const V f2 = line_threats<Ops>(diag, Ops::gather(base, Ops::add(theirs_at, diag_at)), diag_on, x,
                                 exact, five);
  const V f3 = line_threats<Ops>(anti, Ops::gather(base, Ops::add(theirs_at, anti_at)), anti_on, x,
                                 exact, five);
  const M won = Ops::mand(act, Ops::nz(five));

  Ops::store(s.at_x, x);
  Ops::store(s.at_y, y);
  Ops::store(s.mover, r.side);
  if constexpr (Ops::kScatter) {
    uint32_t* out = &s.lines[0][0][0];
    Ops::scatter(out, Ops::add(mine_at, row_at), row, act);
    Ops::scatter(out, Ops::add(mine_at, col_at), col, act);
    Ops::scatter(out, Ops::add(mine_at, diag_at), diag, act);
    Ops::scatter(out, Ops::add(mine_at, anti_at), anti, act);
  } else {
    for (unsigned m = Ops::bits(act); m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      auto& own = s.lines[s.mover[l]];
      add_stone<N>([&](uint32_t i) -> uint32_t& { return own[i][l]; }, s.at_x[l], s.at_y[l]);
    }
  }
  const V any_found = Ops::or_(Ops::or_(f0, f1), Ops::or_(f2, f3));
  if (const unsigned add = Ops::bits(Ops::mandnot(won, Ops::mand(act, Ops::nz(any_found))))) {
    Ops::store(s.found[0], f0);
    Ops::store(s.found[1], f1);
    Ops::store(s.found[2], f2);
    Ops::store(s.found[3], f3);
    for (unsigned m = add; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int sx = static_cast<int>(s.at_x[l]), sy = static_cast<int>(s.at_y[l]);
      auto& th = s.threats[s.mover[l]];
      for (int d = 0; d < 4; ++d)
        for (uint32_t b = s.found[d][l]; b; b &= b - 1) {
          const int k = lsb(b) - kWindowCentre;
          const int tx = d == 1 ? sx : sx + k, ty = d == 0 ? sy : d == 3 ? sy - k : sy + k;
          th[ty][l] |= 1u << tx;
        }
    }
  }
  r.winner = Ops::sel(won, r.side, r.winner);
  r.plies = Ops::add_where(act, r.plies, one);
  r.left = Ops::sub(r.left, Ops::and_(act_v, one));
  r.side = Ops::xor_where(act, r.side, one);
  return Ops::mandnot(Ops::mor(won, Ops::eq(r.left, zero)), act);
}

// Plays the feed's rollouts to their ends in the lanes of s (Lanes or WeightedLanes, whose
// play_ply plays a ply): start(l) sets lane l up for the feed's next rollout. Each round draws
// one Philox block per lane on the lane's stream, as BlockStream::next does, and plays its four
// words as four plies; lanes that finish are counted and refilled at the round's end. (Forced
// inline: left to the compiler, the AVX2 uniform kernel ran 4% slower on 15x15.)
template <class Ops, int N, class LaneState, class Start>
SP_FORCEINLINE void play_blocks(LaneState& s, rollout::LaneFeed<GomokuGame>& feed, Start&& start) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int L = Ops::kLanes;
  static_assert(L == 1 << kLaneShift<Ops>);
  for (int l = 0; l < L; ++l) s.lane[l] = static_cast<uint32_t>(l);
  unsigned busy = 0;
  for (int l = 0; l < L && !feed.empty(); ++l) start(l), busy |= 1u << l;
  const V lane = Ops::load(s.lane);
  while (busy) {
    const V draw = Ops::load(s.draw);
    const rollout::simd::PhiloxLanes<Ops> block = rollout::simd::philox_lanes<Ops>(
        {{draw, Ops::load(s.rollout), Ops::load(s.leaf), Ops::load(s.ply)}}, Ops::load(s.k0),
        Ops::load(s.k1));
    Ops::store(s.draw, Ops::add(draw, Ops::set1(1)));

    Regs<Ops> r{Ops::load(s.side), Ops::load(s.left), Ops::load(s.winner), Ops::load(s.plies)};
    const M exact = Ops::mask(Ops::load(s.exact));
    M act = Ops::from_bits(busy);
    for (int w = 0; w < 4 && Ops::bits(act); ++w)
      act = play_ply<Ops, N>(s, r, act, block.v[w], exact, lane);
    Ops::store(s.side, r.side);
    Ops::store(s.left, r.left);
    Ops::store(s.winner, r.winner);
    Ops::store(s.plies, r.plies);

    const unsigned finished = Ops::bits(Ops::mnot(act)) & busy;
    feed.retire(finished, busy, s.task, s.winner, s.plies, start);
  }
}

template <class Ops, int N>
void run_uniform(const Task* tasks, size_t n, Counts* counts) {
  Lanes<Ops, N> s{};  // idle lanes compute on zeros, never on indeterminate values
  rollout::LaneFeed<GomokuGame> feed(tasks, n, counts);
  // The current task's root as lines and empty squares per row, converted once per task.
  uint32_t root_lines[2][kLines<N>] = {}, root_empty[N] = {};
  size_t root_task = SIZE_MAX;
  auto start = [&](int l) {
    if (feed.task_index() != root_task) {
      root_task = feed.task_index();
      lines_of<N>(feed.task().root, root_lines);
      for (int y = 0; y < N; ++y)
        root_empty[y] = static_cast<uint32_t>(N - count(root_lines[0][y] | root_lines[1][y]));
    }
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < kLines<N>; ++i) s.lines[side][i][l] = root_lines[side][i];
    for (int y = 0; y < N; ++y) s.empty[y][l] = root_empty[y];
    start_playout<N>(s, l, feed);
  };
  play_blocks<Ops, N>(s, feed, start);
}

template <class Ops, int N>
void run_weighted(const Task* tasks, size_t n, Counts* counts) {
  WeightedLanes<Ops, N> s{};  // idle lanes compute on zeros, never on indeterminate values
  rollout::LaneFeed<GomokuGame> feed(tasks, n, counts);
  WeightedRoot<N> root;
  size_t root_task = SIZE_MAX;
  auto start = [&](int l) {
    const Task& tk = feed.task();
    if (feed.task_index() != root_task) {
      root_task = feed.task_index();
      root.init(tk.root);
    }
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < kLines<N>; ++i) s.lines[side][i][l] = root.lines[side][i];
      for (int y = 0; y < N; ++y) s.threats[side][y][l] = root.threats[side][y];
    }
    for (int y = 0; y < N; ++y) {
      s.empty[y][l] = root.empty[y];
      s.near1[y][l] = root.near1[y];
      s.near2[y][l] = root.near2[y];
    }
    s.adjacent_weight[l] = tk.policy.adjacent_weight;
    s.near_weight[l] = tk.policy.near_weight;
    start_playout<N>(s, l, feed);
  };
  play_blocks<Ops, N>(s, feed, start);
}

// Every board size and policy: the tasks of each (size, policy) group go to its kernel, in order,
// and their counts come back to their places.
template <class Ops>
void run_tasks(const Task* tasks, size_t n, Counts* counts) {
  using Kernel = void (*)(const Task*, size_t, Counts*);
  static constexpr Kernel kKernels[4] = {run_uniform<Ops, 15>, run_weighted<Ops, 15>,
                                         run_uniform<Ops, 20>, run_weighted<Ops, 20>};
  const auto group = [](const Task& t) {
    return (t.root.size == 20 ? 2 : 0) + (t.policy.kind == PolicyKind::kWeighted ? 1 : 0);
  };
  size_t first_other = 1;
  while (first_other < n && group(tasks[first_other]) == group(tasks[0])) ++first_other;
  if (first_other >= n) return kKernels[n == 0 ? 0 : group(tasks[0])](tasks, n, counts);
  for (int g = 0; g < 4; ++g) {
    std::vector<Task> part;
    std::vector<size_t> where;
    for (size_t i = 0; i < n; ++i)
      if (group(tasks[i]) == g) part.push_back(tasks[i]), where.push_back(i);
    if (part.empty()) continue;
    std::vector<Counts> part_counts(part.size());
    kKernels[g](part.data(), part.size(), part_counts.data());
    for (size_t j = 0; j < part.size(); ++j) counts[where[j]] = part_counts[j];
  }
}

}  // namespace
}  // namespace sp::gomoku::lanes
