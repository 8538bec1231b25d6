// The order in which a SIMT device runs a batch: leaves grouped by (playout variant, policy, side
// to move), so that each variant's leaves are one kernel's range and the lanes of a warp mostly
// run one policy's loop for one side instead of diverging between them.
// Statistics do not depend on the order (every rollout's stream is keyed by its leaf's ids, not
// by its position in the batch); the backend un-permutes them before returning.
#pragma once

#include <cstdint>
#include <span>

#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

// Number of (policy, side) groups within a playout variant.
inline constexpr uint32_t kOrderGroups = 2 * kMaxPolicies;

// Number of (variant, policy, side) groups of a game: a variant (core/game.hpp) is a
// kernel of its own, so its leaves must be contiguous.
template <sp::Game Game>
inline constexpr uint32_t kGameOrderGroups = kOrderGroups* sp::playout_variants<Game>();

template <sp::Game Game>
uint32_t order_group(const Leaf<Game>& leaf, const PlayoutParams<Game>& params) {
  const uint32_t policy = leaf.policy % kMaxPolicies;
  const auto variant =
      static_cast<uint32_t>(sp::playout_variant<Game>(leaf.state, params.policies[policy]));
  return variant * kOrderGroups + policy * 2 +
         static_cast<uint32_t>(Game::side_to_move(leaf.state) & 1);
}

// order[k] = batch index of the k-th leaf in device order: a stable counting sort by
// order_group. The leaves of variant v are then k in [variant_start[v], variant_start[v + 1]).
// Preconditions: order.size() == leaves.size(), variant_start.size() ==
// playout_variants<Game>() + 1. Allocates nothing.
template <sp::Game Game>
void device_order(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                  std::span<uint32_t> order, std::span<uint32_t> variant_start) {
  constexpr uint32_t kGroups = kGameOrderGroups<Game>;
  uint32_t start[kGroups + 1] = {};
  for (const Leaf<Game>& leaf : leaves) ++start[order_group(leaf, params) + 1];
  for (uint32_t g = 0; g < kGroups; ++g) start[g + 1] += start[g];
  for (size_t v = 0; v < variant_start.size(); ++v) variant_start[v] = start[v * kOrderGroups];
  for (uint32_t i = 0; i < leaves.size(); ++i) order[start[order_group(leaves[i], params)]++] = i;
}

// Statistics of the device-ordered batch back in batch order: out[order[k]] = device[k].
inline void to_batch_order(std::span<const uint32_t> order, const LeafStats* device,
                           std::span<LeafStats> out) {
  for (size_t k = 0; k < order.size(); ++k) out[order[k]] = device[k];
}

}  // namespace sp::rollout
