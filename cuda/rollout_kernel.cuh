// The rollout kernel, templated on the game. One thread per playout: thread i of the flattened
// batch runs rollout r of leaf l, where offsets[l] <= i < offsets[l + 1] and r = i - offsets[l],
// with the same stream id as the CPU backend, so results are bit-identical.
//
// Reduction: consecutive rollouts mostly belong to the same leaf, so each warp groups its lanes by
// leaf (__match_any_sync), sums each group with __reduce_add_sync and lets one lane per group add
// the group's totals to the leaf: a handful of atomics per warp per leaf, no global counter.
#pragma once

#include <cstdint>

#include "games/common/philox.hpp"
#include "host/rollout/backend.hpp"

namespace sp::cuda {

// Leaf index of flattened rollout i: offsets has n_leaves + 1 entries, offsets[0] = 0.
__device__ __forceinline__ uint32_t leaf_of(const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                                            uint32_t i) {
  uint32_t lo = 0, hi = n_leaves;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (__ldg(offsets + mid) <= i) lo = mid;
    else hi = mid;
  }
  return lo;
}

template <class Game>
__global__ void rollout_kernel(const rollout::Leaf<Game>* __restrict__ leaves,
                               const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                               uint32_t uniform_rollouts, uint32_t total,
                               const rollout::PlayoutParams<Game> params,
                               rollout::LeafStats* __restrict__ out) {
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t warp_base = (blockIdx.x * blockDim.x + threadIdx.x) - lane;
  const uint32_t stride = gridDim.x * blockDim.x;
  // base is warp-uniform so every lane takes part in the warp intrinsics on every iteration.
  for (uint32_t base = warp_base; base < total; base += stride) {
    const uint32_t i = base + lane;
    const bool active = i < total;
    const unsigned active_mask = __ballot_sync(0xFFFFFFFFu, active);
    if (!active) continue;
    const uint32_t l = uniform_rollouts ? i / uniform_rollouts : leaf_of(offsets, n_leaves, i);
    const uint32_t r = uniform_rollouts ? i - l * uniform_rollouts : i - __ldg(offsets + l);
    const rollout::Leaf<Game>& leaf = leaves[l];
    BlockStream rng(stream_key(params.seed, leaf.game), leaf.ply, leaf.leaf, r);
    const auto res = Game::playout(leaf.state, params.rules, params.policies[leaf.policy % rollout::kMaxPolicies], rng);

    const unsigned peers = __match_any_sync(active_mask, l);
    const unsigned w0 = __reduce_add_sync(peers, res.winner == 0 ? 1u : 0u);
    const unsigned w1 = __reduce_add_sync(peers, res.winner == 1 ? 1u : 0u);
    const unsigned n = __popc(peers);
    const unsigned plies = __reduce_add_sync(peers, static_cast<unsigned>(res.plies));
    if (lane == static_cast<uint32_t>(__ffs(static_cast<int>(peers)) - 1)) {
      rollout::LeafStats& s = out[l];
      atomicAdd(&s.wins[0], w0);
      atomicAdd(&s.wins[1], w1);
      atomicAdd(&s.draws, n - w0 - w1);
      atomicAdd(&s.rollouts, n);
      atomicAdd(reinterpret_cast<unsigned long long*>(&s.plies), static_cast<unsigned long long>(plies));
    }
  }
}

}  // namespace sp::cuda
