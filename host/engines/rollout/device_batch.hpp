// How a SIMT backend lays out one batch in its staging buffers: the leaves in device order
// (leaf_order.hpp), and per playout variant one segment that its kernel runs, with its own
// rollout offsets starting at 0. Plain host code, so that tests check it without a device.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/leaf_order.hpp"

namespace sp::rollout {

// One kernel's share of a batch: leaves [first, first + leaves) of the device-ordered batch,
// rollouts [0, total) of them, with offsets at offsets_at (leaves + 1 entries: offsets[l] is the
// first rollout of the segment's leaf l, offsets[leaves] = total). uniform: the rollouts of every
// leaf of the segment when they are all equal (then offsets are not needed), else 0.
struct Segment {
  uint32_t first = 0;
  uint32_t leaves = 0;
  uint32_t offsets_at = 0;
  uint32_t uniform = 0;
  uint64_t total = 0;
};

template <sp::Game Game>
using Segments = std::array<Segment, sp::playout_variants<Game>()>;

// Offsets entries a batch of n leaves needs: one more per variant than leaves.
template <sp::Game Game>
constexpr size_t offsets_capacity(size_t max_leaves) {
  return max_leaves + sp::playout_variants<Game>();
}

// Stages leaves: order[k] is the batch index of device leaf k, staged[k] that leaf, and offsets
// (offsets_capacity(leaves.size()) entries at least) the segments' offsets. Returns the segment of
// every variant (leaves == 0 for a variant absent from the batch). Allocates nothing.
template <sp::Game Game>
Segments<Game> stage_batch(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                           std::span<uint32_t> order, Leaf<Game>* staged, uint32_t* offsets) {
  constexpr int kVariants = sp::playout_variants<Game>();
  uint32_t start[kVariants + 1] = {};
  device_order<Game>(leaves, params, order.first(leaves.size()), start);
  Segments<Game> segments{};
  for (int v = 0; v < kVariants; ++v) {
    Segment& seg = segments[v];
    seg.first = start[v];
    seg.leaves = start[v + 1] - start[v];
    seg.offsets_at = start[v] + static_cast<uint32_t>(v);
    seg.uniform = seg.leaves ? leaves[order[seg.first]].rollouts : 0;
    uint32_t offset = 0;
    for (uint32_t l = 0; l < seg.leaves; ++l) {
      const uint32_t k = seg.first + l;
      const Leaf<Game>& leaf = leaves[order[k]];
      staged[k] = leaf;
      offsets[seg.offsets_at + l] = offset;
      offset += leaf.rollouts;
      if (leaf.rollouts != seg.uniform) seg.uniform = 0;
    }
    offsets[seg.offsets_at + seg.leaves] = offset;
    seg.total = offset;
  }
  return segments;
}

}  // namespace sp::rollout
