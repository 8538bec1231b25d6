// The `null` backend: answers every leaf at once with statistics derived from its ids by a hash,
// without playing anything. It measures what the host side (search, driver, output) can generate:
// a run on it prints the leaves/s and rollouts/s a GPU would have to serve, which predicts a GPU
// campaign's end-to-end rate on a machine without a GPU. Its results are deterministic but carry
// no information about the positions: games played on it are for throughput only.
#pragma once

#include <memory>

#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_null_backend(const BackendOptions& options);

// The statistics the null backend gives a leaf: wins and draws split by a hash of
// (seed, game, ply, leaf), rollouts as asked, 20 plies per rollout.
template <sp::Game Game>
LeafStats null_stats(const Leaf<Game>& leaf, uint64_t seed);

}  // namespace sp::rollout
