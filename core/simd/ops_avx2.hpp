// 32-bit lane operations on AVX2 (8 lanes), the vocabulary of the lane-parallel playouts. Include
// only from a translation unit compiled for AVX2 (a game's lanes_avx2.cpp): these functions are
// inlined there and nowhere else, so no AVX2 code reaches a processor without it.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/hd.hpp"

namespace sp::rollout::simd {

struct Avx2 {
  static constexpr int kLanes = 8;
  using V = __m256i;
  using M = __m256i;  // all ones in a lane where true

  static SP_FORCEINLINE V set1(uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
  static SP_FORCEINLINE V zero() { return _mm256_setzero_si256(); }
  static SP_FORCEINLINE V load(const uint32_t* p) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
  }
  static SP_FORCEINLINE void store(uint32_t* p, V v) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(p), v);
  }

  static SP_FORCEINLINE V add(V a, V b) { return _mm256_add_epi32(a, b); }
  static SP_FORCEINLINE V sub(V a, V b) { return _mm256_sub_epi32(a, b); }
  static SP_FORCEINLINE V and_(V a, V b) { return _mm256_and_si256(a, b); }
  static SP_FORCEINLINE V or_(V a, V b) { return _mm256_or_si256(a, b); }
  static SP_FORCEINLINE V xor_(V a, V b) { return _mm256_xor_si256(a, b); }
  static SP_FORCEINLINE V andnot(V a, V b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static SP_FORCEINLINE V slli(V a, int n) { return _mm256_slli_epi32(a, n); }    // n a constant
  static SP_FORCEINLINE V srli(V a, int n) { return _mm256_srli_epi32(a, n); }    // n a constant
  static SP_FORCEINLINE V sllv(V a, V n) { return _mm256_sllv_epi32(a, n); }      // 0 where n > 31
  static SP_FORCEINLINE V srlv(V a, V n) { return _mm256_srlv_epi32(a, n); }
  static SP_FORCEINLINE V min(V a, V b) { return _mm256_min_epu32(a, b); }
  static SP_FORCEINLINE V max(V a, V b) { return _mm256_max_epu32(a, b); }
  static SP_FORCEINLINE V mullo(V a, V b) { return _mm256_mullo_epi32(a, b); }

  // High and low halves of the 64-bit products a * b, lane by lane.
  static SP_FORCEINLINE void mulhilo(V a, V b, V& hi, V& lo) {
    const V even = _mm256_mul_epu32(a, b);
    const V odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
    lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  }
  static SP_FORCEINLINE V mulhi(V a, V b) {
    const V even = _mm256_mul_epu32(a, b);
    const V odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  }

  static SP_FORCEINLINE M eq(V a, V b) { return _mm256_cmpeq_epi32(a, b); }
  static SP_FORCEINLINE M gt(V a, V b) { return _mm256_cmpgt_epi32(a, b); }  // signed
  static SP_FORCEINLINE M nz(V a) { return mnot(eq(a, zero())); }
  static SP_FORCEINLINE M mand(M a, M b) { return _mm256_and_si256(a, b); }
  static SP_FORCEINLINE M mor(M a, M b) { return _mm256_or_si256(a, b); }
  static SP_FORCEINLINE M mandnot(M a, M b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static SP_FORCEINLINE M mnot(M a) { return _mm256_xor_si256(a, _mm256_set1_epi32(-1)); }
  // m ? a : b, blending whole 32-bit lanes (blendv_ps): in a native build (AVX-512 BW/VL enabled)
  // GCC 12 gave wrong playouts with the byte blend _mm256_blendv_epi8 here, caught by the
  // bit-identity test; the lane blend is what the masks mean anyway.
  static SP_FORCEINLINE V sel(M m, V a, V b) {
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(b), _mm256_castsi256_ps(a), _mm256_castsi256_ps(m)));
  }
  static SP_FORCEINLINE V vec(M m) { return m; }                          // all ones where m
  static SP_FORCEINLINE M mask(V v) { return _mm256_srai_epi32(v, 31); }  // lanes with the top bit
  static SP_FORCEINLINE unsigned bits(M m) {
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
  }
  static SP_FORCEINLINE M from_bits(unsigned b) {
    const V lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return eq(and_(set1(b), lane_bit), lane_bit);
  }
  static SP_FORCEINLINE V add_where(M m, V a, V b) {
    return sub(a, and_(m, sub(zero(), b)));
  }  // m ? a + b : a
  static SP_FORCEINLINE V xor_where(M m, V a, V b) { return xor_(a, and_(m, b)); }

  // base[idx] lane by lane (idx counts 32-bit words).
  static SP_FORCEINLINE V gather(const uint32_t* base, V idx) {
    return _mm256_i32gather_epi32(reinterpret_cast<const int*>(base), idx, 4);
  }

  static constexpr bool kScatter = false;  // no scatter instruction: store lane by lane

  // Set bits per byte, by a nibble table (vpshufb): no popcount instruction in AVX2.
  static SP_FORCEINLINE V popcount_bytes(V a) {
    const V table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1,
                                     2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const V low = _mm256_set1_epi8(0x0F);
    return _mm256_add_epi8(
        _mm256_shuffle_epi8(table, _mm256_and_si256(a, low)),
        _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi32(a, 4), low)));
  }

  // floor(log2(a)) for 0 < a < 2^24 (exact in a float); garbage for a == 0.
  static SP_FORCEINLINE V log2(V a) {
    return sub(srli(_mm256_castps_si256(_mm256_cvtepi32_ps(a)), 23), set1(127));
  }
};

}  // namespace sp::rollout::simd
