// Host/device portability layer: every rule, bitboard primitive and playout in games/ is written
// once with SP_HD and compiled by g++ (CPU backend) and by nvcc (kernels). Nothing here allocates.
#pragma once

#include <cstdint>

#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
#include <immintrin.h>
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

// The n-th (0-based) set bit's index; precondition n < count(b). PDEP on x86 with BMI2; elsewhere
// (GPUs included: __fns is emulated and slower) clear n low bits, n <= 5 in every caller.
SP_HD SP_FORCEINLINE int nth_set_bit(uint32_t b, int n) {
#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
  return lsb(_pdep_u32(1u << n, b));
#else
  for (int i = 0; i < n; ++i) b &= b - 1;
  return lsb(b);
#endif
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
