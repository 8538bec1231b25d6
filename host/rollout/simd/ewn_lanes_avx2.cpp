// The lane-parallel EWN playout for AVX2. This file alone is compiled with the ISA's flags
// (host/CMakeLists.txt) and holds only the kernel: the CPU backend calls it after asking the
// processor (simd_path.hpp), so a build that is not native still runs everywhere.
#if defined(__x86_64__) || defined(__i386__)
#include "host/rollout/simd/ewn_lanes_impl.hpp"
#include "host/rollout/simd/ops_avx2.hpp"
#else
#include <cstdlib>

#include "host/rollout/simd/ewn_lanes.hpp"
#endif

namespace sp::rollout::ewn_lanes {

#if defined(__x86_64__) || defined(__i386__)
void run_avx2(const Task* tasks, size_t n, const ewn::Rules& rules, Counts* counts) {
  run_with<simd::Avx2>(tasks, n, rules, counts);
}
#else
// Not an x86 processor: simd_path_supported() is false for this path, so nothing calls it.
void run_avx2(const Task*, size_t, const ewn::Rules&, Counts*) { std::abort(); }
#endif

}  // namespace sp::rollout::ewn_lanes
