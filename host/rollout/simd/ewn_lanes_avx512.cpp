// The lane-parallel EWN playout for AVX-512. This file alone is compiled with the ISA's flags
// (host/CMakeLists.txt) and holds only the kernel: the CPU backend calls it after asking the
// processor (simd_path.hpp), so a build that is not native still runs everywhere.
#include "host/rollout/simd/ewn_lanes_impl.hpp"
#include "host/rollout/simd/ops_avx512.hpp"

namespace sp::rollout::ewn_lanes {

void run_avx512(const Task* tasks, size_t n, const ewn::Rules& rules, Counts* counts) {
  run_with<simd::Avx512>(tasks, n, rules, counts);
}

}  // namespace sp::rollout::ewn_lanes
