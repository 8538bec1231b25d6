// EWN's lane-parallel CPU playouts (host only; core/simd/lane_playouts.hpp): one thread
// advances 8 (AVX2) or 16 (AVX-512) playouts at once, each exactly as ewn::playout plays it on its
// own stream, so the statistics are bit-identical to the scalar path's. Both policies, uniform and
// weighted, run in lanes. The CUDA kernels keep the scalar playout of playout.hpp.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "core/simd/lane_playouts.hpp"
#include "games/ewn/game.hpp"

namespace sp::ewn::lanes {

using Task = rollout::LaneTask<EwnGame>;
using Counts = rollout::LaneCounts;

// Plays every rollout of tasks[0, n) with its task's policy (uniform or weighted, mixed freely) and
// sets counts[i] to task i's totals. Precondition: the processor has the ISA of the function
// (rollout::simd_path_supported). One translation unit each (lanes_avx2.cpp, lanes_avx512.cpp),
// compiled with the ISA's flags.
void run_avx2(const Task* tasks, size_t n, const Rules& rules, Counts* counts);
void run_avx512(const Task* tasks, size_t n, const Rules& rules, Counts* counts);

}  // namespace sp::ewn::lanes

namespace sp::rollout {

template <>
struct LanePlayouts<EwnGame> {
  static constexpr bool kAvailable = true;

  static constexpr const char* kScalarCases = "";
  static bool handles(const EwnGame::State&, const EwnGame::Policy&) { return true; }
  static void run(SimdPath path, const LaneTask<EwnGame>* tasks, size_t n,
                  const EwnGame::Rules& rules, LaneCounts* counts) {
    switch (path) {
      case SimdPath::kAvx2:
        return ewn::lanes::run_avx2(tasks, n, rules, counts);
      case SimdPath::kAvx512:
        return ewn::lanes::run_avx512(tasks, n, rules, counts);
      default:
        throw std::logic_error("ewn lanes: no lane-parallel scalar path");
    }
  }
};

}  // namespace sp::rollout
