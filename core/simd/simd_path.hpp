// Which code path plays the CPU backend's playouts: the scalar playout of games/ or a lane-parallel
// one (AVX2, AVX-512). The processor is asked at run time, so one binary (built native or not)
// uses the fastest path the machine offers; SELFPLAY_SIMD=scalar|avx2|avx512 or
// BackendOptions::simd pins one, which tests use to compare every path the machine supports.
#pragma once

#include <string>
#include <string_view>

namespace sp::rollout {

enum class SimdPath { kAuto, kScalar, kAvx2, kAvx512 };

// "auto", "scalar", "avx2", "avx512".
const char* simd_path_name(SimdPath path);

// Throws sp::InputError naming `what` (an option or variable) and the known names.
SimdPath parse_simd_path(std::string_view name, std::string_view what);

// True when this processor runs the path (scalar and auto always).
bool simd_path_supported(SimdPath path);

// The ISA extensions a path needs, for messages and test skips: "AVX2", "AVX-512 F/BW/DQ/VL".
const char* simd_path_isa(SimdPath path);

// A path named by an option (a config key): parsed, and refused with an sp::InputError naming
// `what` when this processor cannot run it.
SimdPath simd_path_option(std::string_view name, std::string_view what);

// The path to use for a request: kAuto becomes SELFPLAY_SIMD when it is set, else the fastest
// supported path. Throws sp::InputError when the request (or the variable) names a path this
// processor cannot run, or the variable an unknown one.
SimdPath resolve_simd_path(SimdPath requested);

}  // namespace sp::rollout
