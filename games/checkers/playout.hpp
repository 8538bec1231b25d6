// Checkers playouts (uniform and weighted), the one source of playout code for the CPU backend,
// the CUDA kernels and the engines. Every ply consumes one 32-bit word of the rollout's Philox
// stream (v[0..3] of a block, then the next block) and turns it into a choice with bounded().
//
// No move list: a ply counts the legal moves (popcounts of the step boards, or the jump paths)
// and walks to the chosen one in generate_moves order, so it picks exactly
// generate_moves(s).moves[bounded(word, size)] (the game contract test compares the two on every
// ply) while a GPU thread keeps nothing but registers.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/checkers/checkers.hpp"

namespace sp::checkers {

// Weights are fixed point with 8 fractional bits (256 == 1.0): integer arithmetic keeps CPU and GPU
// bit-identical where float contraction (FMA) would not.
inline constexpr uint32_t kWeightOne = 256;
inline constexpr uint32_t kMaxWeight = 100 * kWeightOne;  // largest weight a config may give
// One move's weight saturates here, so kMaxMoves of them still sum below 2^32.
inline constexpr uint32_t kMaxMoveWeight = 1u << 24;
static_assert(uint64_t{kMaxMoveWeight} * kMaxMoves < (uint64_t{1} << 32));

enum class PolicyKind : uint8_t { kUniform, kWeighted };

// Rollout policy. Weighted: a move's weight is 1.0, times advance_weight for a man's step (men
// only step forward, so this favours advancing men over king moves), times crown_weight for a
// move that crowns a man, times capture_weight for every piece a capture takes beyond the first
// (captures are compulsory, so this only favours longer jumps over shorter ones); a move is picked
// with probability proportional to its weight.
struct Policy {
  PolicyKind kind = PolicyKind::kUniform;
  uint32_t advance_weight = 2 * kWeightOne;
  uint32_t crown_weight = 4 * kWeightOne;
  uint32_t capture_weight = 2 * kWeightOne;
};

struct PlayoutResult {
  uint8_t winner;  // 0, 1, or kNoWinner for a draw
  uint16_t plies;
};

namespace playout_detail {

SP_HD SP_FORCEINLINE uint32_t scale(uint32_t w, uint32_t factor) {
  const uint64_t x = (static_cast<uint64_t>(w) * factor) >> 8;
  return x == 0 ? 1u : x > kMaxMoveWeight ? kMaxMoveWeight : static_cast<uint32_t>(x);
}

// Weight of a jump path of `jumps` jumps; crowns when a man ends it on its crown row.
SP_HD SP_FORCEINLINE uint32_t capture_weight(const Policy& p, int jumps, bool crowns) {
  uint32_t w = kWeightOne;
  for (int i = 1; i < jumps; ++i) w = scale(w, p.capture_weight);
  return crowns ? scale(w, p.crown_weight) : w;
}

// The step boards of the side to move, by direction, and how many steps there are.
struct Steps {
  uint32_t from[kDirections];
  uint32_t total;
};

SP_HD SP_FORCEINLINE Steps step_boards(const State& s) {
  Steps st;
  st.total = 0;
  for (int d = 0; d < kDirections; ++d) {
    st.from[d] = steppers(s, d);
    st.total += static_cast<uint32_t>(count(st.from[d]));
  }
  return st;
}

// Number of capture moves of the side to move, jumpers = all_jumpers(s) != 0.
SP_HD SP_FORCEINLINE uint32_t count_captures(const State& s, uint32_t jumpers) {
  uint32_t n = 0;
  while (jumpers)
    for_each_jump_path(s, pop_lsb(jumpers), [&](Move, uint32_t, uint32_t) {
      ++n;
      return false;
    });
  return n;
}

// Plays capture number k (0-based, in generate_moves order).
SP_HD SP_FORCEINLINE void play_capture(State& s, uint32_t jumpers, uint32_t k) {
  while (jumpers) {
    const int from = pop_lsb(jumpers);
    uint32_t to = 0, captured = 0;
    const bool found = for_each_jump_path(s, from, [&](Move, uint32_t t, uint32_t c) {
      if (k-- != 0) return false;
      to = t, captured = c;
      return true;
    });
    if (found) {
      apply_effect(s, 1u << from, to, captured);
      return;
    }
  }
}

// Plays step number k (0-based, in generate_moves order: by direction, then square).
SP_HD SP_FORCEINLINE void play_step(State& s, const Steps& st, uint32_t k) {
  // Every index into st.from is a constant once the loop is unrolled, so a GPU thread keeps the
  // boards in registers (an index chosen at run time would put them in local memory).
  uint32_t board = st.from[kDirections - 1];
  int d = kDirections - 1;
  bool found = false;
  for (int i = 0; i < kDirections - 1; ++i) {
    const uint32_t n = static_cast<uint32_t>(count(st.from[i]));
    const bool here = !found && k < n;
    board = select(here, st.from[i], board);
    d = here ? i : d;
    k -= found || here ? 0 : n;
    found = found || here;
  }
  const uint32_t from = 1u << nth_set_bit(board, static_cast<int>(k));
  apply_effect(s, from, shift(from, d), 0);
}

// Weighted choice among the steps: weight by kind of piece and whether it crowns.
SP_HD SP_FORCEINLINE void play_weighted_step(State& s, const Policy& p, const Steps& st,
                                             uint32_t word) {
  const uint32_t man = scale(kWeightOne, p.advance_weight);
  const uint32_t crowning_man = scale(man, p.crown_weight);
  const uint32_t men = own_pieces(s) & ~s.kings;
  const uint32_t crown = crown_row(s.side);
  const auto weight_of = [&](uint32_t b, int d) {
    const uint32_t pre_crown = shift(crown, opposite(d));
    return kWeightOne * static_cast<uint32_t>(count(b & ~men)) +
           man * static_cast<uint32_t>(count(b & men & ~pre_crown)) +
           crowning_man * static_cast<uint32_t>(count(b & men & pre_crown));
  };
  uint32_t total = 0;
  for (int d = 0; d < kDirections; ++d) total += weight_of(st.from[d], d);
  uint32_t r = bounded(word, total);
  // The direction, with constant indices into st.from as in play_step.
  uint32_t board = st.from[kDirections - 1];
  int d = kDirections - 1;
  bool found = false;
  for (int i = 0; i < kDirections - 1; ++i) {
    const uint32_t w = weight_of(st.from[i], i);
    const bool here = !found && r < w;
    board = select(here, st.from[i], board);
    d = here ? i : d;
    r -= found || here ? 0 : w;
    found = found || here;
  }
  const uint32_t pre_crown = shift(crown, opposite(d));
  uint32_t from = lowest_bit(board);
  while (board) {
    from = lowest_bit(board);
    board ^= from;
    const uint32_t w = !(from & men) ? kWeightOne : (from & pre_crown) ? crowning_man : man;
    if (r < w) break;
    r -= w;
  }
  apply_effect(s, from, shift(from, d), 0);
}

// Weighted choice among the captures: two walks over the paths, the total, then the pick.
SP_HD SP_FORCEINLINE void play_weighted_capture(State& s, const Policy& p, uint32_t jumpers,
                                                uint32_t word) {
  const uint32_t men = own_pieces(s) & ~s.kings;
  const uint32_t crown = crown_row(s.side);
  uint32_t total = 0;
  for (uint32_t j = jumpers; j;) {
    const int from = pop_lsb(j);
    const bool man = (men >> from) & 1u;
    for_each_jump_path(s, from, [&](Move m, uint32_t to, uint32_t) {
      total += capture_weight(p, move_jumps(m), man && (to & crown));
      return false;
    });
  }
  uint32_t r = bounded(word, total);
  while (jumpers) {
    const int from = pop_lsb(jumpers);
    const bool man = (men >> from) & 1u;
    uint32_t to = 0, captured = 0;
    const bool found = for_each_jump_path(s, from, [&](Move m, uint32_t t, uint32_t c) {
      const uint32_t w = capture_weight(p, move_jumps(m), man && (t & crown));
      if (r >= w) {
        r -= w;
        return false;
      }
      to = t, captured = c;
      return true;
    });
    if (found) {
      apply_effect(s, 1u << from, to, captured);
      return;
    }
  }
}

// Plays one ply chosen by word among the moves of s: captures when jump (all_jumpers(s)) is not
// empty, else the steps st. Precondition: s has a move.
SP_HD SP_FORCEINLINE void play(State& s, const Policy& policy, uint32_t jump, const Steps& st,
                               uint32_t word) {
  if (policy.kind == PolicyKind::kUniform) {
    if (jump)
      play_capture(s, jump, bounded(word, count_captures(s, jump)));
    else
      play_step(s, st, bounded(word, st.total));
  } else {
    if (jump)
      play_weighted_capture(s, policy, jump, word);
    else
      play_weighted_step(s, policy, st, word);
  }
}

}  // namespace playout_detail

// Plays s to the end (a side without a move loses; the state's draw rules end it otherwise).
// A state that is already over returns its winner and 0 plies.
SP_HD inline PlayoutResult playout(State s, const Policy& policy, BlockStream& rng) {
  uint32_t plies = 0;
  Philox4x32 block{};
  for (;;) {
    const uint32_t jump = all_jumpers(s);
    const playout_detail::Steps st =
        jump ? playout_detail::Steps{} : playout_detail::step_boards(s);
    if (!jump && st.total == 0)
      return PlayoutResult{static_cast<uint8_t>(s.side ^ 1), static_cast<uint16_t>(plies)};
    if (draw_reached(s)) return PlayoutResult{kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    playout_detail::play(s, policy, jump, st, word_of(block, plies & 3u));
    ++plies;
  }
}

}  // namespace sp::checkers
