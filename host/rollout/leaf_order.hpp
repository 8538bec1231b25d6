// The order in which a SIMT device runs a batch: leaves grouped by (policy, side to move), so the
// lanes of a warp mostly run one policy's loop for one side instead of diverging between them.
// Statistics do not depend on the order (every rollout's stream is keyed by its leaf's ids, not
// by its position in the batch); the backend un-permutes them before returning.
#pragma once

#include <cstdint>
#include <span>

#include "host/rollout/backend.hpp"

namespace sp::rollout {

// Number of (policy, side) groups.
inline constexpr uint32_t kOrderGroups = 2 * kMaxPolicies;

template <sp::Game Game>
uint32_t order_group(const Leaf<Game>& leaf) {
  return (leaf.policy % kMaxPolicies) * 2 +
         static_cast<uint32_t>(Game::side_to_move(leaf.state) & 1);
}

// order[k] = batch index of the k-th leaf in device order: a stable counting sort by
// order_group. Precondition: order.size() == leaves.size(). Allocates nothing.
template <sp::Game Game>
void device_order(std::span<const Leaf<Game>> leaves, std::span<uint32_t> order) {
  uint32_t start[kOrderGroups + 1] = {};
  for (const Leaf<Game>& leaf : leaves) ++start[order_group(leaf) + 1];
  for (uint32_t g = 0; g < kOrderGroups; ++g) start[g + 1] += start[g];
  for (uint32_t i = 0; i < leaves.size(); ++i) order[start[order_group(leaves[i])]++] = i;
}

// Statistics of the device-ordered batch back in batch order: out[order[k]] = device[k].
inline void to_batch_order(std::span<const uint32_t> order, const LeafStats* device,
                           std::span<LeafStats> out) {
  for (size_t k = 0; k < order.size(); ++k) out[order[k]] = device[k];
}

}  // namespace sp::rollout
