// What a search hands the rollouts and gets back: one leaf to play out from, with its stream id
// parts, and the counts of its playouts; and the identity of a search its leaves' streams are keyed
// by. Shared by the engines (core/engine.hpp), the trees and the rollout backends of host/.
#pragma once

#include <cstdint>

#include "core/game.hpp"

namespace sp::rollout {

// One leaf: the state to play out from, its stream id parts, how many rollouts to run and with
// which of the batch's policies. Rollout r of this leaf draws from StreamId{seed, game, ply, leaf,
// r}.
template <sp::Game Game>
struct Leaf {
  typename Game::State state;
  uint32_t game = 0;
  uint32_t ply = 0;
  uint32_t leaf = 0;
  uint32_t rollouts = 1;
  uint32_t policy = 0;  // index into PlayoutParams::policies
};

// Per-leaf outcome counts; wins by absolute player, draws include capped playouts.
struct LeafStats {
  uint32_t wins[2] = {0, 0};
  uint32_t draws = 0;
  uint32_t rollouts = 0;
  uint64_t plies = 0;
  bool operator==(const LeafStats&) const = default;
};

}  // namespace sp::rollout

namespace sp::search {

// Identity of a search for the stream keys of its leaves: rollouts of leaf l at ply p of game g
// draw from StreamId{seed, g, p, l, r}.
struct SearchIds {
  uint32_t game = 0;
  uint32_t ply = 0;
  uint64_t seed = 0;
};

}  // namespace sp::search
