// The games whose CPU playouts have a lane-parallel (SIMD) path, as specializations of
// LanePlayouts<Game>; the CPU backend (cpu_backend_impl.hpp) plays a game's batches through it
// when the game has one and the path in use is not scalar. A game without one keeps the scalar
// playout_many of games/. A specialization provides:
//   kAvailable = true; Task, Counts (with wins[2], draws, plies);
//   handles(policy): whether the lanes play this policy (else its leaves go the scalar way);
//   task(state, policy, key, ply, leaf, first, last): rollouts [first, last) of one leaf;
//   run(path, tasks, n, rules, counts): counts[i] = task i's totals, path avx2 or avx512.
#pragma once

#include "host/rollout/simd/simd_path.hpp"

namespace sp::rollout {

template <class Game>
struct LanePlayouts {
  static constexpr bool kAvailable = false;
};

}  // namespace sp::rollout

#include "host/rollout/simd/ewn_lane_playouts.hpp"
