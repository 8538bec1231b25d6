#include "core/simd/simd_path.hpp"

#include <cstdlib>

#include "core/errors.hpp"

namespace sp::rollout {

const char* simd_path_name(SimdPath path) {
  switch (path) {
    case SimdPath::kAuto:
      return "auto";
    case SimdPath::kScalar:
      return "scalar";
    case SimdPath::kAvx2:
      return "avx2";
    case SimdPath::kAvx512:
      return "avx512";
  }
  return "?";
}

SimdPath parse_simd_path(std::string_view name, std::string_view what) {
  for (SimdPath p : {SimdPath::kAuto, SimdPath::kScalar, SimdPath::kAvx2, SimdPath::kAvx512})
    if (name == simd_path_name(p)) return p;
  throw InputError(std::string(what) + ": unknown playout path '" + excerpt(name) +
                   "' (known: auto, scalar, avx2, avx512)");
}

bool simd_path_supported(SimdPath path) {
#if defined(__x86_64__) || defined(__i386__)
  switch (path) {
    case SimdPath::kAuto:
    case SimdPath::kScalar:
      return true;
    case SimdPath::kAvx2:
      return __builtin_cpu_supports("avx2");
    case SimdPath::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }
  return false;
#else
  return path == SimdPath::kAuto || path == SimdPath::kScalar;  // the kernels are x86 only
#endif
}

const char* simd_path_isa(SimdPath path) {
  switch (path) {
    case SimdPath::kAvx2:
      return "AVX2";
    case SimdPath::kAvx512:
      return "AVX-512 F/BW/DQ/VL";
    default:
      return "none";
  }
}

SimdPath simd_path_option(std::string_view name, std::string_view what) {
  const SimdPath path = parse_simd_path(name, what);
  if (!simd_path_supported(path))
    throw InputError(std::string(what) + ": the " + simd_path_name(path) + " path needs " +
                     simd_path_isa(path) + ", which this processor lacks");
  return path;
}

SimdPath resolve_simd_path(SimdPath requested) {
  std::string what = "playout path";
  if (requested == SimdPath::kAuto) {
    const char* env = std::getenv("SELFPLAY_SIMD");
    if (env && *env) {
      what = "SELFPLAY_SIMD";
      requested = parse_simd_path(env, what);
    }
  }
  if (requested == SimdPath::kAuto) {
    if (simd_path_supported(SimdPath::kAvx512)) return SimdPath::kAvx512;
    if (simd_path_supported(SimdPath::kAvx2)) return SimdPath::kAvx2;
    return SimdPath::kScalar;
  }
  if (!simd_path_supported(requested))
    throw InputError(what + ": the " + simd_path_name(requested) + " path needs " +
                     simd_path_isa(requested) + ", which this processor lacks");
  return requested;
}

}  // namespace sp::rollout
