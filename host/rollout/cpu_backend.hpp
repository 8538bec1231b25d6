// The OpenMP rollout backend: the same playout code as the kernels, run over the batch by a
// persistent worker thread so that submit() returns at once and the host can prepare the next
// batch meanwhile.
#pragma once

#include <memory>

#include "host/rollout/backend.hpp"

namespace sp::rollout {

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_cpu_backend(const BackendOptions& options);

// Runs every rollout of the batch with `threads` OpenMP threads (0 = all) and writes per-leaf
// statistics. Results do not depend on the thread count: each rollout has its own stream and the
// sums are integers.
template <sp::Game Game>
void run_rollouts_cpu(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                      std::span<LeafStats> out, int threads);

}  // namespace sp::rollout
