// Rollout benchmarking shared by `selfplay bench` and the device check program: the fixed
// signature workload, random-setup batches, and a double-buffered throughput measurement.
// No command-line or formatting dependencies, so the device check builds with CUDA alone.
#pragma once

#include <cstdint>
#include <vector>

#include "games/ewn/game.hpp"
#include "host/rollout/backend.hpp"

namespace sp::rollout {

using EwnLeaf = Leaf<EwnGame>;

// The signature workload: 4096 random setups x 16 uniform rollouts with a fixed seed. Its total
// plies depend only on the rules, the playout code and the generator.
inline constexpr uint64_t kSignatureSeed = 20261129;
inline constexpr uint32_t kSignatureLeaves = 4096;
inline constexpr uint32_t kSignatureRollouts = 16;

// Leaves from random setups (player 0 to move, die not rolled); leaf i is game game_offset + i.
std::vector<EwnLeaf> setup_leaves(uint64_t seed, uint32_t n, uint32_t rollouts, uint32_t game_offset);

struct Totals {
  uint64_t rollouts = 0, plies = 0, wins0 = 0, wins1 = 0, draws = 0;
  void add(const std::vector<LeafStats>& stats);
};

// Runs the signature workload on a backend.
Totals run_signature(Backend<EwnGame>& backend);

struct Throughput {
  uint64_t batches = 0, rollouts = 0, plies = 0;
  double compute_s = 0, wall_s = 0;
  double kernel_rate() const { return compute_s > 0 ? rollouts / compute_s : 0; }
  double e2e_rate() const { return wall_s > 0 ? rollouts / wall_s : 0; }
  double plies_rate() const { return wall_s > 0 ? plies / wall_s : 0; }
};

// Keeps up to two batches in flight (double buffering) until min_seconds have passed and at least
// min_batches batches are done. Kernel-level rate: rollouts over the backend's compute time;
// end-to-end: over wall time, host to host.
Throughput measure(Backend<EwnGame>& backend, const PlayoutParams<EwnGame>& params,
                   const std::vector<EwnLeaf>& leaves, double min_seconds, uint64_t min_batches);

// Leaves from random setups, some advanced a few random plies (random side to move, die rolled or
// not), with varied or uniform rollout counts and spread stream ids: the batches of the
// bit-identity checks between backends.
std::vector<EwnLeaf> random_batch(uint64_t seed, size_t n, uint32_t max_rollouts, bool uniform_count);

// A throughput batch of 2^log2 rollouts, rollouts_per_leaf each (fewer when the batch is smaller).
std::vector<EwnLeaf> throughput_batch(uint64_t seed, int log2, uint32_t rollouts_per_leaf);

}  // namespace sp::rollout
