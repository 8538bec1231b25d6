// The lane-parallel Gomoku playout for AVX-512. This file alone is compiled with the ISA's flags
// (listed in games/CMakeLists.txt, flagged in host/CMakeLists.txt) and holds only the kernel: the
// CPU backend calls it after asking the processor (simd_path.hpp), so a build that is not native
// still runs everywhere.
#if defined(__x86_64__) || defined(__i386__)
#include "core/simd/ops_avx512.hpp"
#include "games/gomoku/lanes_impl.hpp"
#else
#include <cstdlib>

#include "games/gomoku/lanes.hpp"
#endif

namespace sp::gomoku::lanes {

#if defined(__x86_64__) || defined(__i386__)
void run_avx512(const Task* tasks, size_t n, Counts* counts) {
  run_tasks<rollout::simd::Avx512>(tasks, n, counts);
}
#else
// Not an x86 processor: simd_path_supported() is false for this path, so nothing calls it.
void run_avx512(const Task*, size_t, Counts*) { std::abort(); }
#endif

}  // namespace sp::gomoku::lanes
