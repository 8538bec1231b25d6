// The rollout kernel, templated on the game. One thread per playout: thread i of the flattened
// batch runs rollout r of leaf l, where offsets[l] <= i < offsets[l + 1] and r = i - offsets[l],
// with the same stream id as the CPU backend, so results are bit-identical.
//
// Reduction: consecutive rollouts mostly belong to the same leaf, so each warp groups its lanes by
// leaf (__match_any_sync), sums each group with __reduce_add_sync and lets one lane per group add
// the group's totals to the leaf: a handful of atomics per warp per leaf, no global counter.
#pragma once

#include <cstdint>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "host/engines/rollout/backend.hpp"

namespace sp::cuda {

// A kernel with a register hint is built for blocks of at most this many threads
// (__launch_bounds__); the backend never launches larger blocks.
inline constexpr int kMaxKernelBlock = 256;

// Leaf index of flattened rollout i: offsets has n_leaves + 1 entries, offsets[0] = 0,
// offsets[n_leaves] = total > i. The last leaf l with offsets[l] <= i, so leaves without
// rollouts are skipped.
__device__ __forceinline__ uint32_t leaf_of(const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                                            uint32_t i) {
  uint32_t lo = 0, hi = n_leaves;  // answer in [lo, hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (__ldg(offsets + mid) <= i)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// leaf_of for the 32 lanes of a warp, lane k asking for rollout i = base + k (clamped to the last
// rollout by the caller): one binary search for base's leaf, at the same addresses in every lane
// (broadcast loads, no divergence), then each lane counts the leaf boundaries it has passed among
// the next 32, which the lanes hold in registers, in five shuffle steps. Leaves without rollouts
// can put more than 32 boundaries inside one warp's range; a lane past that window searches on
// its own. Every lane of the warp must call it.
__device__ __forceinline__ uint32_t warp_leaf_of(const uint32_t* __restrict__ offsets,
                                                 uint32_t n_leaves, uint32_t base, uint32_t i,
                                                 uint32_t lane) {
  constexpr unsigned kAll = 0xFFFFFFFFu;
  const uint32_t first = leaf_of(offsets, n_leaves, base);
  const uint32_t b = first + 1 + lane;  // boundary `lane`: where leaf first + lane ends
  const uint32_t bound = b <= n_leaves ? __ldg(offsets + b) : 0xFFFFFFFFu;
  uint32_t passed = 0;  // boundaries 0 .. passed - 1 are <= i (they are sorted)
  for (uint32_t step = 16; step > 0; step >>= 1)
    if (__shfl_sync(kAll, bound, static_cast<int>(passed + step - 1)) <= i) passed += step;
  const uint32_t last = __shfl_sync(kAll, bound, 31);
  if (passed == 31 && last <= i) return leaf_of(offsets, n_leaves, i);
  return first + passed;
}

// The grid-stride loop of variant V's kernel (every leaf of the range it is given is of variant
// V, so the kernel holds that path's registers only). params is __grid_constant__: the policy is
// picked by a run-time index, which would otherwise make every thread copy the whole parameter
// block to local memory.
template <class Game, int V>
__device__ __forceinline__ void rollouts(const rollout::Leaf<Game>* __restrict__ leaves,
                                         const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                                         uint32_t uniform_rollouts, uint32_t total,
                                         const rollout::PlayoutParams<Game>& params,
                                         rollout::LeafStats* __restrict__ out) {
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t warp_base = (blockIdx.x * blockDim.x + threadIdx.x) - lane;
  const uint32_t stride = gridDim.x * blockDim.x;
  // base is warp-uniform so every lane takes part in the warp intrinsics on every iteration.
  for (uint32_t base = warp_base; base < total; base += stride) {
    const uint32_t i = base + lane;
    const bool active = i < total;
    const unsigned active_mask = __ballot_sync(0xFFFFFFFFu, active);
    const uint32_t clamped = active ? i : total - 1;
    const uint32_t l = uniform_rollouts ? clamped / uniform_rollouts
                                        : warp_leaf_of(offsets, n_leaves, base, clamped, lane);
    if (!active) continue;
    const uint32_t r = uniform_rollouts ? i - l * uniform_rollouts : i - __ldg(offsets + l);
    const rollout::Leaf<Game>& leaf = leaves[l];
    BlockStream rng(stream_key(params.seed, leaf.game), leaf.ply, leaf.leaf, r);
    const auto res = variant_playout<Game, V>(
        leaf.state, params.rules, params.policies[leaf.policy % rollout::kMaxPolicies], rng);

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
      atomicAdd(reinterpret_cast<unsigned long long*>(&s.plies),
                static_cast<unsigned long long>(plies));
    }
  }
}

// The kernel of variant V, with __launch_bounds__ when the game gives a register hint for it
// (kernel_min_blocks, core/game.hpp): bounds change the allocator's choices, for better
// or worse, so a variant without a hint is built without them.
template <class Game, int V>
__global__ void rollout_kernel(const rollout::Leaf<Game>* __restrict__ leaves,
                               const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                               uint32_t uniform_rollouts, uint32_t total,
                               const __grid_constant__ rollout::PlayoutParams<Game> params,
                               rollout::LeafStats* __restrict__ out) {
  rollouts<Game, V>(leaves, offsets, n_leaves, uniform_rollouts, total, params, out);
}

template <class Game, int V>
__global__ void __launch_bounds__(kMaxKernelBlock, kernel_min_blocks<Game, V>())
    bounded_rollout_kernel(const rollout::Leaf<Game>* __restrict__ leaves,
                           const uint32_t* __restrict__ offsets, uint32_t n_leaves,
                           uint32_t uniform_rollouts, uint32_t total,
                           const __grid_constant__ rollout::PlayoutParams<Game> params,
                           rollout::LeafStats* __restrict__ out) {
  rollouts<Game, V>(leaves, offsets, n_leaves, uniform_rollouts, total, params, out);
}

// The kernel that runs variant V.
template <class Game, int V>
constexpr auto kernel_of() {
  if constexpr (kernel_min_blocks<Game, V>() > 0)
    return &bounded_rollout_kernel<Game, V>;
  else
    return &rollout_kernel<Game, V>;
}

}  // namespace sp::cuda
