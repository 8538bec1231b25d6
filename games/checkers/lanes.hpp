// Checkers' lane-parallel CPU playouts (host only; core/simd/lane_playouts.hpp): one
// thread advances 8 (AVX2) or 16 (AVX-512) playouts at once, each exactly as checkers::playout
// plays it on its own stream, so the statistics are bit-identical to the scalar path's. Both
// policies, uniform and weighted, run in lanes: plain steps, single-jump captures and forced jump
// chains are picked and played in the vector registers, captures whose jump paths branch lane by
// lane with the scalar code of playout.hpp. The CUDA kernels keep the scalar playout.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "core/simd/lane_playouts.hpp"
#include "games/checkers/game.hpp"

namespace sp::checkers::lanes {

using Task = rollout::LaneTask<CheckersGame>;
using Counts = rollout::LaneCounts;

// Plays every rollout of tasks[0, n) with its task's policy (uniform or weighted, mixed freely) and
// sets counts[i] to task i's totals. Precondition: the processor has the ISA of the function
// (rollout::simd_path_supported). One translation unit each (lanes_avx2.cpp, lanes_avx512.cpp),
// compiled with the ISA's flags.
void run_avx2(const Task* tasks, size_t n, Counts* counts);
void run_avx512(const Task* tasks, size_t n, Counts* counts);

}  // namespace sp::checkers::lanes

namespace sp::rollout {

template <>
struct LanePlayouts<CheckersGame> {
  static constexpr bool kAvailable = true;

  static constexpr const char* kScalarCases = "";
  static bool handles(const CheckersGame::State&, const CheckersGame::Policy&) { return true; }
  // The draw limits travel in the states: the rules are not needed.
  static void run(SimdPath path, const LaneTask<CheckersGame>* tasks, size_t n,
                  const CheckersGame::Rules&, LaneCounts* counts) {
    switch (path) {
      case SimdPath::kAvx2:
        return checkers::lanes::run_avx2(tasks, n, counts);
      case SimdPath::kAvx512:
        return checkers::lanes::run_avx512(tasks, n, counts);
      default:
        throw std::logic_error("checkers lanes: no lane-parallel scalar path");
    }
  }
};

}  // namespace sp::rollout
