// EWN playouts (uniform and weighted), the one source of playout code for the CPU backend, the
// CUDA kernels and the engines. Every ply consumes exactly one 32-bit word of the rollout's Philox
// stream, one block per four plies, so results depend only on the stream id. The die is the high
// part of word * 6 and the move choice is drawn from the low part (see split_die), so one word
// serves both with a bias below 2^-28.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/hd.hpp"
#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"

namespace sp::ewn {

// Weights are fixed point with 8 fractional bits (256 == 1.0): integer arithmetic keeps CPU and GPU
// bit-identical where float contraction (FMA) would not.
inline constexpr uint32_t kWeightOne = 256;
inline constexpr uint32_t kMaxWeight = 100 * kWeightOne;  // keeps six products of two below 2^32

enum class PolicyKind : uint8_t { kUniform, kHeavy };

// Rollout policy. Heavy (Lorentz 2011): take a winning move if one exists; otherwise a move's
// weight is goal_weight if it lowers the cube's distance to the goal, times capture_weight if it
// takes an enemy cube (each 1.0 otherwise); pick proportionally to weight.
struct PlayoutPolicy {
  PolicyKind kind = PolicyKind::kUniform;
  uint32_t goal_weight = 2 * kWeightOne;
  uint32_t capture_weight = 2 * kWeightOne;
};

// A game can pass only with capture_own off; with passes it still ends with probability one, but
// the cap bounds a kernel's running time. A capped playout reports kNoWinner (counted as a draw).
inline constexpr int kMaxPlayoutPlies = 4096;

struct PlayoutResult {
  uint8_t winner;  // 0, 1, or kNoWinner when capped
  uint16_t plies;
};

// Die roll (1..6) from the high part of word * 6; *rest receives the low part, uniform over the
// multiples of two below 2^32 and independent of the die up to a bias of 6 / 2^32, from which the
// move is drawn.
SP_HD SP_FORCEINLINE int split_die(uint32_t word, uint32_t* rest) {
  const uint64_t scaled = static_cast<uint64_t>(word) * 6u;
  *rest = static_cast<uint32_t>(scaled);
  return 1 + static_cast<int>(scaled >> 32);
}

namespace playout_detail {

SP_HD SP_FORCEINLINE uint32_t move_weight(const State& s, const PlayoutPolicy& p, int side,
                                          int from, int to) {
  const auto& dist = rule_tables().distance[side];
  uint32_t w = dist[to] < dist[from] ? p.goal_weight : kWeightOne;
  if (s.occ[side ^ 1] & (1u << to)) w = (w * p.capture_weight) >> 8;
  return w;
}

// One ply for Side with one random word; returns true when the game is over.
template <int Side>
SP_HD SP_FORCEINLINE bool step(State& s, const Rules& rules, const PlayoutPolicy& policy,
                               uint32_t word) {
  uint32_t move_word;
  const int rolled = split_die(word, &move_word);
  const int die = s.die != kNoDie ? s.die : rolled;
  const uint32_t movers = movable_cubes(alive_of(s, Side), die, rules.substitution);
  const int c1 = lsb(movers);
  const int c2 = msb(movers);  // == c1 when only one cube may move
  const int sq1 = square_of(s, Side, c1), sq2 = square_of(s, Side, c2);
  const uint32_t t1 = cube_targets(s, rules, Side, sq1);
  const uint32_t t2 = select(c2 != c1, cube_targets(s, rules, Side, sq2), 0u);
  s.side = Side ^ 1;
  s.die = kNoDie;
  const int n1 = count(t1), n = n1 + count(t2);
  if (n == 0) return false;  // pass

  int cube, to;
  if (policy.kind == PolicyKind::kUniform) {
    // Selects without branching on the random index: a mispredict per ply would cost more than
    // the whole ply's arithmetic.
    const int k = static_cast<int>(bounded(move_word, static_cast<uint32_t>(n)));
    const bool second = k >= n1;
    cube = static_cast<int>(select(second, c2, c1));
    to = nth_set_bit(select(second, t2, t1), static_cast<int>(select(second, k - n1, k)));
  } else {
    // Pass 1: a winning move ends the choice; otherwise total weight. Pass 2: walk to the pick.
    uint32_t total = 0;
    int win_cube = -1, win_to = 0;
    for (int i = 0; i < 2; ++i) {
      uint32_t t = i == 0 ? t1 : t2;
      const int c = i == 0 ? c1 : c2, from = i == 0 ? sq1 : sq2;
      while (t) {
        const int dest = pop_lsb(t);
        if (win_cube < 0 && is_winning_move(s, Side, dest)) win_cube = c, win_to = dest;
        total += move_weight(s, policy, Side, from, dest);
      }
    }
    if (win_cube >= 0) {
      cube = win_cube, to = win_to;
    } else {
      uint32_t r = bounded(move_word, total);
      cube = t1 ? c1 : c2, to = lsb(t1 ? t1 : t2);
      bool found = false;
      for (int i = 0; i < 2 && !found; ++i) {
        uint32_t t = i == 0 ? t1 : t2;
        const int c = i == 0 ? c1 : c2, from = i == 0 ? sq1 : sq2;
        while (t && !found) {
          const int dest = pop_lsb(t);
          const uint32_t w = move_weight(s, policy, Side, from, dest);
          if (r < w)
            cube = c, to = dest, found = true;
          else
            r -= w;
        }
      }
    }
  }
  move_cube(s, Side, cube, to);
  return s.winner != kNoWinner;
}

template <int First>
SP_HD SP_FORCEINLINE int run(State& s, const Rules& rules, const PlayoutPolicy& policy,
                             BlockStream& rng) {
  int plies = 0;
  while (plies < kMaxPlayoutPlies) {
    const Philox4x32 b = rng.next();
    if (++plies, step<First>(s, rules, policy, b.v[0])) break;
    if (++plies, step<First ^ 1>(s, rules, policy, b.v[1])) break;
    if (++plies, step<First>(s, rules, policy, b.v[2])) break;
    if (++plies, step<First ^ 1>(s, rules, policy, b.v[3])) break;
  }
  return plies;
}

}  // namespace playout_detail

// Plays s to the end with the given policy and stream. If s.die is set, the first ply uses it
// (its die word is still consumed, keeping every stream's layout the same).
SP_HD inline PlayoutResult playout(State s, const Rules& rules, const PlayoutPolicy& policy,
                                   BlockStream& rng) {
  if (s.winner != kNoWinner) return PlayoutResult{s.winner, 0};
  const int plies = s.side == 0 ? playout_detail::run<0>(s, rules, policy, rng)
                                : playout_detail::run<1>(s, rules, policy, rng);
  return PlayoutResult{s.winner, static_cast<uint16_t>(plies)};
}

// Rollouts first..last-1 of one leaf, K of them interleaved in one thread, each exactly as
// playout() would play it (same stream, same words, same step()). A single playout is one long
// chain of dependent operations, so a CPU core sits mostly idle waiting on it; K independent
// chains let it overlap their latencies. A lane whose game ends takes the next rollout; lanes move
// in lockstep by side (step<Side> is compiled per side), so a new rollout whose root side is not
// the next to move waits one phase. sink(rollout index, result) gets every result.
template <int K, class Sink>
SP_HD inline void playout_interleaved(const State& root, const Rules& rules,
                                      const PlayoutPolicy& policy, PhiloxKey key, uint32_t ply,
                                      uint32_t leaf, uint32_t first, uint32_t last, Sink&& sink) {
  if (first >= last) return;
  if (root.winner != kNoWinner) {
    for (uint32_t r = first; r < last; ++r) sink(r, PlayoutResult{root.winner, 0});
    return;
  }
  struct Lane {
    State s;
    Philox4x32 block;
    uint32_t rollout, draw;
    int word, plies;
    bool active, waiting;
  };
  Lane lanes[K];
  uint32_t next = first;
  int live = 0;
  auto start = [&](Lane& l, int side_to_move_next) {
    if (next >= last) {
      l.active = l.waiting = false;
      return;
    }
    l.s = root;
    l.rollout = next++;
    l.draw = 0;
    l.word = 4;
    l.plies = 0;
    l.active = root.side == side_to_move_next;
    l.waiting = !l.active;
    ++live;
  };
  for (Lane& l : lanes) start(l, root.side);
  auto phase = [&](auto side_tag) {
    constexpr int kSide = decltype(side_tag)::value;
    for (Lane& l : lanes) {
      if (l.waiting) {
        l.waiting = false;
        l.active = true;
        continue;
      }
      if (!l.active) continue;
      if (l.word == 4) {
        l.block = philox4x32_10(Philox4x32{{l.draw++, l.rollout, leaf, ply}}, key);
        l.word = 0;
      }
      const uint32_t w = l.block.v[l.word++];
      ++l.plies;
      if (playout_detail::step<kSide>(l.s, rules, policy, w) || l.plies >= kMaxPlayoutPlies) {
        sink(l.rollout, PlayoutResult{l.s.winner, static_cast<uint16_t>(l.plies)});
        --live;
        start(l, kSide ^ 1);
      }
    }
  };
  int side = root.side;
  while (live > 0) {
    if (side == 0)
      phase(std::integral_constant<int, 0>{});
    else
      phase(std::integral_constant<int, 1>{});
    side ^= 1;
  }
}

// A uniformly random arrangement (Fisher-Yates driven by the stream).
SP_HD inline Arrangement random_arrangement(WordStream& rng) {
  Arrangement a;
  for (int i = kCubes - 1; i > 0; --i) {
    const int j = static_cast<int>(rng.below(static_cast<uint32_t>(i + 1)));
    const uint8_t t = a.cube_at_slot[i];
    a.cube_at_slot[i] = a.cube_at_slot[j];
    a.cube_at_slot[j] = t;
  }
  return a;
}

}  // namespace sp::ewn
