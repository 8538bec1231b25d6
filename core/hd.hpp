// Host/device portability layer: every rule, bitboard primitive and playout in games/ is written
// once with SP_HD and compiled by g++ (CPU backend) and by nvcc (kernels). Nothing here allocates.
#pragma once

#include <cstdint>

// SP_HOST_PDEP: host code built with BMI2, which may select bits by PDEP when the CPU runs it fast.
#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
#define SP_HOST_PDEP 1
#include <cpuid.h>
#include <immintrin.h>

#include <cstdlib>
#include <cstring>
#endif

// SP_UNROLL before a loop over a thread's small array (a bitboard's words) unrolls it in device
// code: a loop the compiler keeps indexes the array at run time, which puts it in local memory.
#if defined(__CUDA_ARCH__)
#define SP_UNROLL _Pragma("unroll")
#else
#define SP_UNROLL
#endif

#if defined(__CUDACC__)
#define SP_HD __host__ __device__
#define SP_FORCEINLINE __forceinline__
#else
#define SP_HD
#define SP_FORCEINLINE inline __attribute__((always_inline))
#endif

namespace sp {

// Number of set bits.
SP_HD SP_FORCEINLINE int count(uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __popc(b);
#else
  return __builtin_popcount(b);
#endif
}

// Index of the lowest set bit; precondition b != 0.
SP_HD SP_FORCEINLINE int lsb(uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(b)) - 1;
#else
  return __builtin_ctz(b);
#endif
}

// Index of the highest set bit; precondition b != 0.
SP_HD SP_FORCEINLINE int msb(uint32_t b) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(static_cast<int>(b));
#else
  return 31 - __builtin_clz(b);
#endif
}

// Removes the lowest set bit and returns its index; precondition b != 0.
SP_HD SP_FORCEINLINE int pop_lsb(uint32_t& b) {
  const int i = lsb(b);
  b &= b - 1;
  return i;
}

#if defined(SP_HOST_PDEP)
namespace cpu {
// Whether this CPU runs PDEP (and PEXT) in hardware. AMD's CPUs before Zen 3 (family 0x17, Zen 1
// and 2, and Hygon's 0x18) run them in microcode: about 87 ns a call measured on an EPYC of family
// 23 model 49, against a nanosecond on Intel and on Zen 3 and later. SELFPLAY_PDEP=on|off
// overrides the check (tests and measurements); the results are the same either way.
inline bool detect_fast_pdep() noexcept {
  if (const char* env = std::getenv("SELFPLAY_PDEP")) {
    if (std::strcmp(env, "on") == 0) return true;
    if (std::strcmp(env, "off") == 0) return false;
  }
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  if (std::strcmp(vendor, "AuthenticAMD") != 0 && std::strcmp(vendor, "HygonGenuine") != 0)
    return true;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  unsigned family = (a >> 8) & 0xFu;
  if (family == 0xFu) family += (a >> 20) & 0xFFu;
  return family >= 0x19u;
}
// Read once at start-up; every select below asks it (a branch that always goes the same way).
inline const bool fast_pdep = detect_fast_pdep();
}  // namespace cpu
#endif

// How this build selects the n-th set bit on this CPU, for logs: "pdep", "popcount halves (PDEP is
// microcoded on this CPU)" or "popcount halves".
inline const char* bit_select_name() {
#if defined(SP_HOST_PDEP)
  return cpu::fast_pdep ? "pdep" : "popcount halves (PDEP is microcoded on this CPU)";
#else
  return "popcount halves";
#endif
}

// The n-th (0-based) set bit's index; precondition n < count(b). PDEP on x86 with BMI2 where it is
// fast; elsewhere (GPUs included: __fns is emulated and slower) clear n low bits, n <= 5 in every
// caller.
SP_HD SP_FORCEINLINE int nth_set_bit(uint32_t b, int n) {
#if defined(SP_HOST_PDEP)
  if (cpu::fast_pdep) return lsb(_pdep_u32(1u << n, b));
#endif
  for (int i = 0; i < n; ++i) b &= b - 1;
  return lsb(b);
}

// Index of the lowest set bit of a 64-bit word; precondition b != 0.
SP_HD SP_FORCEINLINE int lsb64(uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(b)) - 1;
#else
  return __builtin_ctzll(b);
#endif
}

SP_HD SP_FORCEINLINE uint64_t lowest_bit64(uint64_t b) { return b & (uint64_t{0} - b); }

// Lowest set bit as a mask (0 when b == 0).
SP_HD SP_FORCEINLINE uint32_t lowest_bit(uint32_t b) { return b & (0u - b); }

// cond ? a : b as arithmetic. Compilers often turn a ternary on random data into a branch, which
// mispredicts half the time in a playout; this form cannot be.
SP_HD SP_FORCEINLINE uint32_t select(bool cond, uint32_t a, uint32_t b) {
  return b ^ ((a ^ b) & (0u - static_cast<uint32_t>(cond)));
}

// Highest set bit as a mask (0 when b == 0).
SP_HD SP_FORCEINLINE uint32_t highest_bit(uint32_t b) {
  return (1u << msb(b | 1u)) & (0u - static_cast<uint32_t>(b != 0));
}

// Uniform integer in [0, n) from 32 random bits by multiply-shift (Lemire). The bias is at most
// n / 2^32 per value, far below anything a self-play statistic can resolve, and it needs no loop,
// so every backend consumes exactly the same random words.
SP_HD SP_FORCEINLINE uint32_t bounded(uint32_t random_word, uint32_t n) {
  return static_cast<uint32_t>((static_cast<uint64_t>(random_word) * n) >> 32);
}

}  // namespace sp
