// The CPU rollout backend: the same playout code as the kernels, run over the batch as items of a
// WorkPool job, so submit() returns at once and the host prepares the next batch meanwhile, on the
// same threads (one thread budget: see host/base/system/work_pool.hpp).
#pragma once

#include <memory>
#include <span>

#include "host/base/system/work_pool.hpp"
#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

template <sp::Game Game>
std::unique_ptr<Backend<Game>> make_cpu_backend(const BackendOptions& options);

// Runs every rollout of the batch on `pool` (the caller helps) and writes per-leaf statistics.
// Results do not depend on the thread count: each rollout has its own stream and the sums are
// integers.
template <sp::Game Game>
void run_rollouts_cpu(std::span<const Leaf<Game>> leaves, const PlayoutParams<Game>& params,
                      std::span<LeafStats> out, WorkPool& pool);

}  // namespace sp::rollout
