// Gomoku's lane-parallel CPU playouts (host only; core/simd/lane_playouts.hpp): one thread
// advances 8 (AVX2) or 16 (AVX-512) uniform or weighted playouts on 15x15 or 20x20 boards at once,
// each exactly as uniform_playout or weighted_playout plays it on its own stream, so the statistics
// are bit-identical to the scalar path's; pattern playouts take the scalar path. The CUDA kernels
// keep their own (scalar) playouts.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "core/simd/lane_playouts.hpp"
#include "games/gomoku/game.hpp"

namespace sp::gomoku::lanes {

using Task = rollout::LaneTask<GomokuGame>;
using Counts = rollout::LaneCounts;

// Plays every rollout of tasks[0, n) with its task's policy on its root's board (15x15 or 20x20:
// each size is its own instantiation of the kernels) and sets counts[i] to task i's totals.
// Precondition: the processor has the ISA of the function (rollout::simd_path_supported). One
// translation unit each (lanes_avx2.cpp, lanes_avx512.cpp), compiled with the ISA's flags.
void run_avx2(const Task* tasks, size_t n, Counts* counts);
void run_avx512(const Task* tasks, size_t n, Counts* counts);

}  // namespace sp::gomoku::lanes

namespace sp::rollout {

template <>
struct LanePlayouts<GomokuGame> {
  static constexpr bool kAvailable = true;

  static constexpr const char* kScalarCases = "pattern playouts";
  static bool handles(const GomokuGame::State&, const GomokuGame::Policy& p) {
    return p.kind != gomoku::PolicyKind::kPattern;
  }
  static void run(SimdPath path, const LaneTask<GomokuGame>* tasks, size_t n,
                  const GomokuGame::Rules&, LaneCounts* counts) {
    switch (path) {
      case SimdPath::kAvx2:
        return gomoku::lanes::run_avx2(tasks, n, counts);
      case SimdPath::kAvx512:
        return gomoku::lanes::run_avx512(tasks, n, counts);
      default:
        throw std::logic_error("gomoku lanes: no lane-parallel scalar path");
    }
  }
};

}  // namespace sp::rollout
