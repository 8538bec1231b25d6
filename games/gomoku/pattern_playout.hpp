// Pattern-weighted Gomoku playouts (`policy: pattern`): the weighted playout's policy refined by
// how the pattern search scores squares. Like the weighted playout it plays a winning move when
// there is one, else blocks the opponent's winning square; otherwise it draws an empty square
// with probability proportional to its distance weight (the weighted playout's: adjacent_weight
// next to a stone, near_weight two squares from one, else 1) times exp(score / temperature),
// score = attack[the mover's pattern code of the square] + defend[the opponent's code of it] from
// the move-score table the pattern search orders its moves by (move_scores.hpp, the ladder): the
// softmax that `selfplay tune`'s move-score fit models. A very high temperature plays the weighted
// playout's policy.
//
// The codes come from line classes (patterns.hpp) kept up to date move by move: a stone changes
// the class of at most 8 squares in each of its 4 directions, for both sides, and no other. A
// class is read from a table by the four squares either way of the square, as freestyle counts
// rows (patterns.hpp reads a fifth square, which tells an overline under the standard rule: under
// that rule a class next to six in a row can differ from the search's; the wins and blocks above
// follow the rule exactly). Weights are integers (the score's factor 2^16 for 0, exp by a table of
// 2^(i/256), at most 2^8 times that), so the CPU and a GPU draw the same squares. A thread keeps
// the classes and both sides' weights of every square (12 bytes a square, in local memory on a
// GPU) and draws by a walk over the empty squares: a playout costs about 6 times a scalar weighted
// one (10 times a ply; experiments/gomoku-strength/README.md, "Pattern playouts").
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/pattern_codes.hpp"
#include "games/gomoku/playout.hpp"

namespace sp::gomoku {

namespace pattern_playout_detail {

// A line of 8 squares around an empty square, as a mask: bit i (i < 4) the square 4 - i steps
// back, bit i (i >= 4) the square i - 3 steps forward.
inline constexpr int kLineSquares = 8;
inline constexpr int kLineKeys = 6561;                  // 3^8: each square empty, own or blocked
inline constexpr int kMaxExponent = 8 * 256;            // factors below 2^8 times that of 0
inline constexpr uint64_t kInvLn2 = 24204406;           // round(2^24 / ln 2)
inline constexpr uint64_t kPow2Step = 1076653033;       // round(2^30 * 2^(1/256))
inline constexpr uint32_t kZeroScoreFactor = 1u << 16;  // the factor of a score of 0

struct Tables {
  uint16_t base3[256];      // a mask of 8 squares read as base-3 digits 0 and 1
  uint8_t line[kLineKeys];  // the class (patterns::Line) by base3[own] + 2 * base3[blocked]
  uint16_t code[4096];      // the code of 4 classes, 3 bits each (pattern_codes.hpp)
  int32_t attack[patterns::kCodes];  // the move-score table (move_scores.hpp)
  int32_t defend[patterns::kCodes];
  uint16_t pow2[256];  // round(2^15 * 2^(i / 256))
};

// Whether a stone on the square stands in a row of five or more with the own squares of mask.
SP_HD constexpr bool five_through(uint32_t own) {
  int len = 1;
  for (int i = 3; i >= 0 && ((own >> i) & 1u); --i) ++len;
  for (int i = 4; i < kLineSquares && ((own >> i) & 1u); ++i) ++len;
  return len >= 5;
}

SP_HD constexpr Tables make_tables() {
  Tables t{};
  for (uint32_t m = 0; m < 256; ++m) {
    uint32_t v = 0, p = 1;
    for (int i = 0; i < kLineSquares; ++i, p *= 3) v += ((m >> i) & 1u) * p;
    t.base3[m] = static_cast<uint16_t>(v);
  }
  // The classes as patterns.hpp defines them (its LineTable, freestyle), own squares fewest last:
  // a class reads the classes of the lines with one more own stone, which come first.
  for (int stones = kLineSquares; stones >= 0; --stones)
    for (uint32_t own = 0; own < 256; ++own) {
      int n = 0;
      for (uint32_t b = own; b; b &= b - 1) ++n;
      if (n != stones) continue;
      for (uint32_t blocked = 0; blocked < 256; ++blocked) {
        if (own & blocked) continue;
        const uint32_t empty = ~(own | blocked) & 0xFFu;
        int line = patterns::kNone;
        if (five_through(own)) {
          line = patterns::kFive;
        } else {
          int wins = 0, best = patterns::kNone;
          for (int k = 0; k < kLineSquares; ++k)
            if ((empty >> k) & 1u) {
              const uint32_t with = own | (1u << k);
              wins += five_through(with);
              const int c = t.line[t.base3[with] + 2 * t.base3[blocked]];
              best = c > best ? c : best;
            }
          line = wins >= 2                      ? patterns::kOpenFour
                 : wins == 1                    ? patterns::kFour
                 : best == patterns::kOpenFour  ? patterns::kOpenThree
                 : best == patterns::kFour      ? patterns::kThree
                 : best == patterns::kOpenThree ? patterns::kOpenTwo
                 : best == patterns::kThree     ? patterns::kTwo
                                                : patterns::kNone;
        }
        t.line[t.base3[own] + 2 * t.base3[blocked]] = static_cast<uint8_t>(line);
      }
    }
  for (int i = 0; i < 4096; ++i) t.code[i] = patterns::kCodeTables.of[i];
  for (int k = 0; k < patterns::kCodes; ++k) {
    t.attack[k] = kLadderMoveScores.attack[k];
    t.defend[k] = kLadderMoveScores.defend[k];
  }
  uint64_t f = uint64_t{1} << 30;  // 2^30 * 2^(i / 256)
  for (int i = 0; i < 256; ++i) {
    t.pow2[i] = static_cast<uint16_t>((f + (uint64_t{1} << 14)) >> 15);
    f = (f * kPow2Step + (uint64_t{1} << 29)) >> 30;
  }
  return t;
}

// One copy for the host, one in device global memory (as ewn.hpp's rule tables).
inline constexpr Tables kTables = make_tables();
#if defined(__CUDACC__)
static __device__ const Tables kTablesDevice = make_tables();
#endif

SP_HD SP_FORCEINLINE const Tables& tables() {
#if defined(__CUDA_ARCH__)
  return kTablesDevice;
#else
  return kTables;
#endif
}

// The class of the line of 8 squares with own and blocked (off the board or the other side's).
SP_HD SP_FORCEINLINE uint32_t line_class(uint32_t own, uint32_t blocked) {
  const Tables& t = tables();
  return t.line[t.base3[own] + 2 * t.base3[blocked]];
}

// The exponent scale of a temperature (Policy::temperature, 1/256 units): a score s weighs
// 2^(e / 256) with e = s * scale >> 24, that is e^(s / temperature).
SP_HD SP_FORCEINLINE uint64_t exponent_scale(uint32_t temperature) {
  return (kInvLn2 << 16) / temperature;
}

// The factor of score s, 2^16 e^(s / temperature) as 2^16 * 2^(e / 256) (scores below 0 count
// as 0), at most 2^8 times that of 0.
SP_HD SP_FORCEINLINE uint32_t factor_of(int32_t s, uint64_t scale) {
  const Tables& t = tables();
  uint64_t e = (static_cast<uint64_t>(s < 0 ? 0 : s) * scale) >> 24;
  e = e < kMaxExponent ? e : kMaxExponent - 1;
  return (static_cast<uint32_t>(t.pow2[e & 255u]) << (e >> 8)) << 1;
}

// The squares of the line d through (x, y) on the board, 4 either way, as a line mask.
template <int N>
SP_HD SP_FORCEINLINE uint32_t on_board_mask(int d, int x, int y) {
  const int back = d == 0   ? x
                   : d == 1 ? y
                   : d == 2 ? (x < y ? x : y)
                            : (x < N - 1 - y ? x : N - 1 - y);
  const int fwd = d == 0   ? N - 1 - x
                  : d == 1 ? N - 1 - y
                  : d == 2 ? (N - 1 - x < N - 1 - y ? N - 1 - x : N - 1 - y)
                           : (N - 1 - x < y ? N - 1 - x : y);
  const int b = back < 4 ? back : 4, f = fwd < 4 ? fwd : 4;
  return ((0xFu << (4 - b)) & 0xFu) | (((1u << f) - 1) << 4);
}

// A Window's 11 squares (playout.hpp) as a line mask: offsets -4..-1 and 1..4.
SP_HD SP_FORCEINLINE uint32_t line_mask(uint32_t window) {
  return ((window >> 1) & 0xFu) | ((window >> 2) & 0xF0u);
}

// Both sides' classes of the empty square (x, y) in direction d, placed as PatternState keeps
// them (side m's class at bit 12 m + 3 d); me is the side rep calls mine.
template <int N, class Rep, int W>
SP_HD SP_FORCEINLINE uint32_t classes_at(const Rep& rep, const uint64_t (&empty)[W], int me, int d,
                                         int x, int y) {
  const playout_detail::Window win = rep.window(d, x, y, empty);
  const uint32_t on = on_board_mask<N>(d, x, y);
  const uint32_t mine = line_mask(win.own), open = line_mask(win.empty);
  const uint32_t theirs = ~(mine | open) & on;
  const uint32_t c_mine = line_class(mine, ~(mine | open) & 0xFFu);
  const uint32_t c_theirs = line_class(theirs, (mine | ~on) & 0xFFu);
  const uint32_t c0 = me == 0 ? c_mine : c_theirs, c1 = me == 0 ? c_theirs : c_mine;
  return (c0 << (3 * d)) | (c1 << (12 + 3 * d));
}

// The weights of a square whose classes are cls and whose distance class weighs loc
// (Policy::adjacent_weight, near_weight or kWeightOne), when side 0 moves (w0) and when side 1
// does (w1): loc times 2^(e / 256) for the score's exponent e, the exponent capped so that no
// sum over the board can overflow.
SP_HD SP_FORCEINLINE void weights_of(uint32_t cls, uint32_t loc, uint64_t scale, uint32_t& w0,
                                     uint32_t& w1) {
  const Tables& t = tables();
  const int k0 = t.code[cls & 0xFFFu], k1 = t.code[(cls >> 12) & 0xFFFu];
  w0 = static_cast<uint32_t>(
      (static_cast<uint64_t>(loc) * factor_of(t.attack[k0] + t.defend[k1], scale)) >> 16);
  w1 = static_cast<uint32_t>(
      (static_cast<uint64_t>(loc) * factor_of(t.attack[k1] + t.defend[k0], scale)) >> 16);
}

// What a pattern playout keeps besides the stones: every square's classes and both sides'
// weights, the squares within one and within two squares of a stone, and the sum of the weights
// of the empty squares for each side to move.
template <int N>
struct PatternState {
  static constexpr int kW = words_of(N);
  uint32_t cls[N * N];
  uint32_t weight[2][N * N];
  uint32_t total[2];
  uint64_t near1[kW], near2[kW];
  uint64_t scale;
  uint32_t adjacent, near;  // the policy's distance weights

  SP_HD SP_FORCEINLINE uint32_t distance_weight(int q) const {
    using playout_detail::test_at;
    return test_at(near1, q) ? adjacent : test_at(near2, q) ? near : kWeightOne;
  }
  // Sets the weights of the empty square q from its classes and distance.
  SP_HD SP_FORCEINLINE void reweigh(int q) {
    uint32_t w0 = 0, w1 = 0;
    weights_of(cls[q], distance_weight(q), scale, w0, w1);
    total[0] += w0 - weight[0][q];
    total[1] += w1 - weight[1][q];
    weight[0][q] = w0;
    weight[1][q] = w1;
  }

  // The state of s (rep holds its stones, me is s.side).
  template <class Rep>
  SP_HD SP_FORCEINLINE void init(const State& s, const Rep& rep, const uint64_t (&empty)[kW],
                                 const Policy& p) {
    using playout_detail::set_area_at;
    scale = exponent_scale(p.temperature);
    adjacent = p.adjacent_weight;
    near = p.near_weight;
    uint64_t area4[kW] = {};
    for (int w = 0; w < kW; ++w) near1[w] = near2[w] = 0;
    SP_UNROLL
    for (int w = 0; w < kW; ++w)
      for (uint64_t stones = s.stones[0][w] | s.stones[1][w]; stones; stones &= stones - 1) {
        const int sq = 64 * w + lsb64(stones);
        set_area_at<N>(near1, sq % N, sq / N, 1);
        set_area_at<N>(near2, sq % N, sq / N, 2);
        set_area_at<N>(area4, sq % N, sq / N, 4);
      }
    for (int q = 0; q < N * N; ++q) cls[q] = weight[0][q] = weight[1][q] = 0;
    total[0] = total[1] = 0;
    for (int w = 0; w < kW; ++w)
      for (uint64_t b = empty[w]; b; b &= b - 1) {
        const int q = 64 * w + lsb64(b);
        uint32_t c = 0;
        if ((area4[w] >> (q & 63)) & 1u)
          for (int d = 0; d < kDirections; ++d)
            c |= classes_at<N>(rep, empty, s.side, d, q % N, q / N);
        cls[q] = c;
        reweigh(q);
      }
  }

  // The empty square that r (< total[me]) falls on, the squares in board order.
  SP_HD SP_FORCEINLINE int draw(int me, uint32_t r, const uint64_t (&empty)[kW]) const {
    uint32_t sum = 0;
    for (int w = 0; w < kW; ++w)
      for (uint64_t b = empty[w]; b; b &= b - 1) {
        const int q = 64 * w + lsb64(b);
        sum += weight[me][q];
        if (r < sum) return q;
      }
    return -1;  // unreachable when r < total[me]
  }

  // Side me placed a stone on (x, y): rep holds it with me as mine, empty no longer has it.
  template <class Rep>
  SP_HD SP_FORCEINLINE void place(const Rep& rep, const uint64_t (&empty)[kW], int me, int x,
                                  int y) {
    using playout_detail::set_area_at;
    using playout_detail::test_at;
    const int sq = y * N + x;
    total[0] -= weight[0][sq];
    total[1] -= weight[1][sq];
    weight[0][sq] = weight[1][sq] = 0;
    set_area_at<N>(near1, x, y, 1);
    set_area_at<N>(near2, x, y, 2);
    for (int d = 0; d < kDirections; ++d) {
      const int dx = direction_dx(d), dy = direction_dy(d);
      const uint32_t keep = ~(7u << (3 * d) | 7u << (12 + 3 * d));
      for (int k = -4; k <= 4; ++k) {
        const int qx = x + k * dx, qy = y + k * dy, q = qy * N + qx;
        if (k == 0 || !on_board(N, qx, qy) || !test_at(empty, q)) continue;
        cls[q] = (cls[q] & keep) | classes_at<N>(rep, empty, me, d, qx, qy);
        reweigh(q);
      }
    }
    // The squares within two whose distance class may have changed (those on the lines again).
    uint64_t area[kW] = {};
    set_area_at<N>(area, x, y, 2);
    for (int w = 0; w < kW; ++w)
      for (uint64_t b = area[w] & empty[w]; b; b &= b - 1) reweigh(64 * w + lsb64(b));
  }
};

}  // namespace pattern_playout_detail

// Pattern-weighted moves (see the top of this file) to the end, on a board of size N, the stones
// kept as Rep. The wins and blocks are the weighted playout's (threat squares grown by add_threats
// with every stone, checked when read).
template <int N, class Rep = playout_detail::PlayoutRep<N>>
SP_HD inline PlayoutResult pattern_playout(const State& s, const Policy& p, BlockStream& rng) {
  using namespace playout_detail;
  constexpr int W = words_of(N);
  uint64_t empty[W];
  empty_squares(s, N, empty);
  Rep rep;
  rep.init(s);
  const WinRule rule = s.rule;
  pattern_playout_detail::PatternState<N> ps;
  ps.init(s, rep, empty, p);
  uint64_t threats_mine[W] = {}, threats_theirs[W] = {};
  init_threats<N>(s, rep, empty, threats_mine, threats_theirs, [](int, int) {});
  int me = s.side;
  uint32_t left = static_cast<uint32_t>(N * N - s.ply), plies = 0;
  Philox4x32 block{};
  for (;;) {
    if (left == 0) return PlayoutResult{kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    const uint32_t word = word_of(block, plies & 3u);
    bool mine = true;
    const uint32_t n = forced_squares<N>(threats_mine, threats_theirs, rep, rule, empty, mine);
    int sq = 0;
    if (n != 0)
      sq = mine ? nth_square(threats_mine, bounded(word, n))
                : nth_square(threats_theirs, bounded(word, n));
    else if (ps.total[me] == 0)  // every weight 0 (distance weights of 0)
      sq = nth_square(empty, bounded(word, left));
    else
      sq = ps.draw(me, bounded(word, ps.total[me]), empty);
    const int x = sq % N, y = sq / N;
    clear_square(empty, sq);
    rep.place(x, y);
    --left;
    ++plies;
    ps.place(rep, empty, me, x, y);
    if (add_threats<N>(rep, empty, rule, x, y, threats_mine))
      return PlayoutResult{static_cast<uint8_t>(s.side ^ ((plies - 1) & 1u)),
                           static_cast<uint16_t>(plies)};
    rep.swap(empty);
    swap_boards(threats_mine, threats_theirs);
    me ^= 1;
  }
}

}  // namespace sp::gomoku
