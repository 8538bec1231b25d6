// EWN's lane-parallel playouts plugged into the CPU backend (see lane_playouts.hpp): both
// policies, uniform and weighted, run in SIMD lanes.
#pragma once

#include <stdexcept>

#include "games/ewn/game.hpp"
#include "host/rollout/simd/ewn_lanes.hpp"
#include "host/rollout/simd/lane_playouts.hpp"

namespace sp::rollout {

template <>
struct LanePlayouts<EwnGame> {
  static constexpr bool kAvailable = true;
  using Task = ewn_lanes::Task;
  using Counts = ewn_lanes::Counts;

  static bool handles(const EwnGame::Policy&) { return true; }
  static Task task(const EwnGame::State& s, const EwnGame::Policy& policy, PhiloxKey key,
                   uint32_t ply, uint32_t leaf, uint32_t first, uint32_t last) {
    return Task{s, key, ply, leaf, first, last, policy};
  }
  static void run(SimdPath path, const Task* tasks, size_t n, const EwnGame::Rules& rules,
                  Counts* counts) {
    switch (path) {
      case SimdPath::kAvx2:
        return ewn_lanes::run_avx2(tasks, n, rules, counts);
      case SimdPath::kAvx512:
        return ewn_lanes::run_avx512(tasks, n, rules, counts);
      default:
        throw std::logic_error("ewn lanes: no lane-parallel scalar path");
    }
  }
};

}  // namespace sp::rollout
