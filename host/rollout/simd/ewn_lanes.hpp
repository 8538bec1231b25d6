// Lane-parallel EWN playouts for the CPU backend: one thread advances 8 (AVX2) or 16 (AVX-512)
// playouts at once, each exactly as ewn::playout plays it on its own stream, so the
// statistics are bit-identical to the scalar path's. CPU-only: the CUDA kernels keep the scalar
// playout of games/ewn/playout.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "games/common/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/playout.hpp"

namespace sp::rollout::ewn_lanes {

// Rollouts [first, last) of one leaf: rollout r draws from the stream (key, ply, leaf, r) and plays
// `policy`.
struct Task {
  ewn::State root;
  PhiloxKey key;
  uint32_t ply, leaf, first, last;
  ewn::PlayoutPolicy policy;
};

// One task's totals: wins by absolute player, draws (capped playouts), plies.
struct Counts {
  uint32_t wins[2];
  uint32_t draws;
  uint64_t plies;
};

// Plays every rollout of tasks[0, n) with its task's policy (uniform or weighted, mixed freely) and
// sets counts[i] to task i's totals.
// Finished lanes take the next rollout (of the same task or the next ones), so lanes stay busy
// until the list runs dry. Precondition: the processor has the ISA of the function
// (simd_path_supported).
void run_avx2(const Task* tasks, size_t n, const ewn::Rules& rules, Counts* counts);
void run_avx512(const Task* tasks, size_t n, const ewn::Rules& rules, Counts* counts);

}  // namespace sp::rollout::ewn_lanes
