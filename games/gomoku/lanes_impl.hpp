// The lane-parallel uniform Gomoku playout on 15x15 boards, written once over an Ops vocabulary
// (ops_avx2.hpp, ops_avx512.hpp) and instantiated by one translation unit per ISA. It plays what
// uniform_playout of games/gomoku/playout.hpp plays, ply by ply, with LineRep's layout per lane:
// every row, column and diagonal of each side as one word, and the empty squares per row, in
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

#include "games/gomoku/lanes.hpp"
#include "host/rollout/simd/philox_lanes.hpp"

namespace sp::gomoku::lanes {
// Internal linkage throughout: each ISA's translation unit keeps its own copy, so the linker can
// never pick an AVX-512 body of an inline function for the AVX2 path.
namespace {

// A side's lines in the lane layout: rows y, columns x, diagonals x - y + 14, anti-diagonals x + y.
inline constexpr int kDiagonals = 2 * kSize - 1;
inline constexpr int kCol = kSize, kDiag = 2 * kSize, kAnti = 2 * kSize + kDiagonals;
inline constexpr int kLines = kAnti + kDiagonals;
inline constexpr uint32_t kRowMask = (1u << kSize) - 1;

template <class Ops>
struct Lanes {
  static constexpr int L = Ops::kLanes;
  alignas(64) uint32_t lines[2][kLines][L];  // by side: bit x of row y, bit y of column x, bit x
                                             // of the diagonals
  alignas(64) uint32_t empty[kSize][L];      // empty squares per row
  alignas(64) uint32_t side[L];              // the side to move
  alignas(64) uint32_t left[L];              // empty squares
  alignas(64) uint32_t winner[L];
  alignas(64) uint32_t plies[L];
  alignas(64) uint32_t exact[L];  // all ones under the standard rule (exactly five)
  alignas(64) uint32_t draw[L];   // the Philox counter: (draw, rollout, leaf, ply) under (k0, k1)
  alignas(64) uint32_t rollout[L];
  alignas(64) uint32_t leaf[L];
  alignas(64) uint32_t ply[L];
  alignas(64) uint32_t k0[L];
  alignas(64) uint32_t k1[L];
  alignas(64) uint32_t at_x[L], at_y[L], mover[L];  // the ply's stones, placed lane by lane
  alignas(64) uint32_t lane[L];                     // 0, 1, ..., L - 1
  uint32_t task[L];
};

template <class Ops>
struct Regs {
  using V = typename Ops::V;
  V side, left, winner, plies;
};

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

// One ply of every lane in `act` with the lane's random word; returns the lanes still playing.
template <class Ops>
SP_FORCEINLINE typename Ops::M step(Lanes<Ops>& s, Regs<Ops>& r, typename Ops::M act,
                                    typename Ops::V word, typename Ops::M exact,
                                    typename Ops::V lane, int lane_shift) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  const V zero = Ops::zero(), one = Ops::set1(1);

  // bounded(word, left), then the k-th empty square: its row from the counts, its column in the
  // row's empty squares.
  V k = Ops::mulhi(word, r.left);
  V y = zero;
  M found = Ops::mnot(act);  // idle lanes look for nothing
  for (int row = 0; row < kSize; ++row) {
    const V c = Ops::load(s.empty[row]);
    const M here = Ops::mandnot(found, Ops::gt(c, k));
    y = Ops::sel(here, Ops::set1(row), y);
    found = Ops::mor(found, here);
    k = Ops::sel(found, k, Ops::sub(k, c));
  }
  const uint32_t* base = &s.lines[0][0][0];
  const V mine_at = Ops::add(Ops::slli(Ops::mullo(r.side, Ops::set1(kLines)), lane_shift), lane);
  const V theirs_at =
      Ops::add(Ops::slli(Ops::mullo(Ops::xor_(r.side, one), Ops::set1(kLines)), lane_shift), lane);
  const V row_at = Ops::slli(y, lane_shift);
  const V mine = Ops::gather(base, Ops::add(mine_at, row_at));
  const V empty = Ops::andnot(Ops::or_(mine, Ops::gather(base, Ops::add(theirs_at, row_at))),
                              Ops::set1(kRowMask));
  V x = zero;
  M done = Ops::mnot(act);
  for (int i = 0; i < kSize; ++i) {
    const V b = Ops::and_(Ops::srli(empty, i), one);
    const M hit = Ops::mandnot(done, Ops::mand(Ops::eq(k, zero), Ops::nz(b)));
    x = Ops::sel(hit, Ops::set1(i), x);
    done = Ops::mor(done, hit);
    k = Ops::sub(k, b);
  }

  // The mover's four lines through the stone, with it (LineRep::makes_five).
  const V bx = Ops::sllv(one, x), by = Ops::sllv(one, y);
  const V col_at = Ops::slli(Ops::add(x, Ops::set1(kCol)), lane_shift);
  const V diag_at = Ops::slli(Ops::add(Ops::sub(x, y), Ops::set1(kDiag + kSize - 1)), lane_shift);
  const V anti_at = Ops::slli(Ops::add(Ops::add(x, y), Ops::set1(kAnti)), lane_shift);
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
      own[sy][l] |= 1u << sx;
      own[kCol + sx][l] |= 1u << sy;
      own[kDiag + sx - sy + kSize - 1][l] |= 1u << sx;
      own[kAnti + sx + sy][l] |= 1u << sx;
      --s.empty[sy][l];
    }
  }
  r.winner = Ops::sel(won, r.side, r.winner);
  r.plies = Ops::add_where(act, r.plies, one);
  r.left = Ops::sub(r.left, Ops::and_(Ops::vec(act), one));
  r.side = Ops::xor_where(act, r.side, one);
  return Ops::mandnot(Ops::mor(won, Ops::eq(r.left, zero)), act);
}

template <class Ops>
void run_lanes(const Task* tasks, size_t n, Counts* counts) {
  using V = typename Ops::V;
  using M = typename Ops::M;
  constexpr int L = Ops::kLanes;
  constexpr int lane_shift = L == 16 ? 4 : 3;
  static_assert(L == 1 << lane_shift);
  Lanes<Ops> s{};  // idle lanes compute on zeros, never on indeterminate values
  for (int l = 0; l < L; ++l) s.lane[l] = static_cast<uint32_t>(l);
  rollout::LaneFeed<GomokuGame> feed(tasks, n, counts);

  // The current task's root as lines, converted once per task.
  uint32_t root_lines[2][kLines], root_empty[kSize];
  size_t root_task = SIZE_MAX;
  auto start = [&](int l) {
    const Task& tk = feed.task();
    if (feed.task_index() != root_task) {
      root_task = feed.task_index();
      for (auto& side_lines : root_lines)
        for (uint32_t& line : side_lines) line = 0;
      for (int y = 0; y < kSize; ++y) {
        root_empty[y] = kSize;
        for (int x = 0; x < kSize; ++x) {
          const int sq = y * kSize + x;
          for (int side = 0; side < 2; ++side)
            if ((tk.root.stones[side][sq >> 6] >> (sq & 63)) & 1u) {
              root_lines[side][y] |= 1u << x;
              root_lines[side][kCol + x] |= 1u << y;
              root_lines[side][kDiag + x - y + kSize - 1] |= 1u << x;
              root_lines[side][kAnti + x + y] |= 1u << x;
              --root_empty[y];
            }
        }
      }
    }
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < kLines; ++i) s.lines[side][i][l] = root_lines[side][i];
    for (int y = 0; y < kSize; ++y) s.empty[y][l] = root_empty[y];
    s.task[l] = feed.task_index();
    s.side[l] = tk.root.side;
    s.left[l] = static_cast<uint32_t>(kSize * kSize - tk.root.ply);
    s.winner[l] = kNoWinner;
    s.plies[l] = 0;
    s.exact[l] = tk.root.rule == WinRule::kStandard ? ~0u : 0u;
    s.draw[l] = 0;
    s.leaf[l] = tk.leaf;
    s.ply[l] = tk.ply;
    s.k0[l] = tk.key.k0;
    s.k1[l] = tk.key.k1;
    s.rollout[l] = feed.take();
  };

  unsigned busy = 0;
  for (int l = 0; l < L && !feed.empty(); ++l) start(l), busy |= 1u << l;
  const V lane = Ops::load(s.lane);
  while (busy) {
    const V k0 = Ops::load(s.k0), k1 = Ops::load(s.k1);
    const V draw = Ops::load(s.draw);
    const rollout::simd::PhiloxLanes<Ops> block = rollout::simd::philox_lanes<Ops>(
        {{draw, Ops::load(s.rollout), Ops::load(s.leaf), Ops::load(s.ply)}}, k0, k1);
    Ops::store(s.draw, Ops::add(draw, Ops::set1(1)));

    Regs<Ops> r{Ops::load(s.side), Ops::load(s.left), Ops::load(s.winner), Ops::load(s.plies)};
    const M exact = Ops::mask(Ops::load(s.exact));
    M act = Ops::from_bits(busy);
    for (int w = 0; w < 4 && Ops::bits(act); ++w)
      act = step<Ops>(s, r, act, block.v[w], exact, lane, lane_shift);
    Ops::store(s.side, r.side);
    Ops::store(s.left, r.left);
    Ops::store(s.winner, r.winner);
    Ops::store(s.plies, r.plies);

    unsigned finished = Ops::bits(Ops::mnot(act)) & busy;
    while (finished) {
      const int l = __builtin_ctz(finished);
      finished &= finished - 1;
      Counts& c = counts[s.task[l]];
      if (s.winner[l] == kNoWinner)
        ++c.draws;
      else
        ++c.wins[s.winner[l]];
      c.plies += s.plies[l];
      if (feed.empty())
        busy &= ~(1u << l);
      else
        start(l);
    }
  }
}

}  // namespace
}  // namespace sp::gomoku::lanes
