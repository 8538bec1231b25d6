// The lane-parallel EWN playout for AVX-512. This file alone is compiled with the ISA's flags
// (listed in games/CMakeLists.txt, flagged in host/CMakeLists.txt) and holds only the kernel: the
// CPU backend calls it after asking the processor (simd_path.hpp), so a build that is not native
// still runs everywhere.
#if defined(__x86_64__) || defined(__i386__)
#include "core/simd/ops_avx512.hpp"
#include "games/ewn/lanes_impl.hpp"
#else
#include <cstdlib>

#include "games/ewn/lanes.hpp"
#endif

namespace sp::ewn::lanes {

#if defined(__x86_64__) || defined(__i386__)
void run_avx512(const Task* tasks, size_t n, const Rules& rules, Counts* counts) {
  run_with<rollout::simd::Avx512>(tasks, n, rules, counts);
}
#else
// Not an x86 processor: simd_path_supported() is false for this path, so nothing calls it.
void run_avx512(const Task*, size_t, const Rules&, Counts*) { std::abort(); }
#endif

}  // namespace sp::ewn::lanes
