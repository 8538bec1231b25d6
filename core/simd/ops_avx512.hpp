// 32-bit lane operations on AVX-512 F/DQ (16 lanes, mask registers), the same vocabulary as
// ops_avx2.hpp. Include only from a translation unit compiled for AVX-512 (a game's
// lanes_avx512.cpp).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "core/hd.hpp"

namespace sp::rollout::simd {

struct Avx512 {
  static constexpr int kLanes = 16;
  using V = __m512i;
  using M = __mmask16;

  static SP_FORCEINLINE V set1(uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
  static SP_FORCEINLINE V zero() { return _mm512_setzero_si512(); }
  static SP_FORCEINLINE V load(const uint32_t* p) { return _mm512_load_si512(p); }
  static SP_FORCEINLINE void store(uint32_t* p, V v) { _mm512_store_si512(p, v); }

  static SP_FORCEINLINE V add(V a, V b) { return _mm512_add_epi32(a, b); }
  static SP_FORCEINLINE V sub(V a, V b) { return _mm512_sub_epi32(a, b); }
  static SP_FORCEINLINE V and_(V a, V b) { return _mm512_and_si512(a, b); }
  static SP_FORCEINLINE V or_(V a, V b) { return _mm512_or_si512(a, b); }
  static SP_FORCEINLINE V xor_(V a, V b) { return _mm512_xor_si512(a, b); }
  static SP_FORCEINLINE V andnot(V a, V b) { return _mm512_andnot_si512(a, b); }  // ~a & b
  static SP_FORCEINLINE V slli(V a, int n) { return _mm512_slli_epi32(a, n); }    // n a constant
  static SP_FORCEINLINE V srli(V a, int n) { return _mm512_srli_epi32(a, n); }    // n a constant
  static SP_FORCEINLINE V sllv(V a, V n) { return _mm512_sllv_epi32(a, n); }      // 0 where n > 31
  static SP_FORCEINLINE V srlv(V a, V n) { return _mm512_srlv_epi32(a, n); }
  static SP_FORCEINLINE V min(V a, V b) { return _mm512_min_epu32(a, b); }
  static SP_FORCEINLINE V max(V a, V b) { return _mm512_max_epu32(a, b); }
  static SP_FORCEINLINE V mullo(V a, V b) { return _mm512_mullo_epi32(a, b); }

  static SP_FORCEINLINE void mulhilo(V a, V b, V& hi, V& lo) {
    const V even = _mm512_mul_epu32(a, b);
    const V odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
    hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
    lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  }
  static SP_FORCEINLINE V mulhi(V a, V b) {
    const V even = _mm512_mul_epu32(a, b);
    const V odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
  }

  static SP_FORCEINLINE M eq(V a, V b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static SP_FORCEINLINE M gt(V a, V b) { return _mm512_cmpgt_epi32_mask(a, b); }  // signed
  static SP_FORCEINLINE M nz(V a) { return _mm512_test_epi32_mask(a, a); }
  static SP_FORCEINLINE M mand(M a, M b) { return static_cast<M>(a & b); }
  static SP_FORCEINLINE M mor(M a, M b) { return static_cast<M>(a | b); }
  static SP_FORCEINLINE M mandnot(M a, M b) { return static_cast<M>(~a & b); }
  static SP_FORCEINLINE M mnot(M a) { return static_cast<M>(~a); }
  static SP_FORCEINLINE V sel(M m, V a, V b) {
    return _mm512_mask_blend_epi32(m, b, a);
  }  // m ? a : b
  static SP_FORCEINLINE V vec(M m) { return _mm512_movm_epi32(m); }
  static SP_FORCEINLINE M mask(V v) { return _mm512_movepi32_mask(v); }
  static SP_FORCEINLINE unsigned bits(M m) { return m; }
  static SP_FORCEINLINE M from_bits(unsigned b) { return static_cast<M>(b); }
  static SP_FORCEINLINE V add_where(M m, V a, V b) { return _mm512_mask_add_epi32(a, m, a, b); }
  static SP_FORCEINLINE V xor_where(M m, V a, V b) { return _mm512_mask_xor_epi32(a, m, a, b); }

  static SP_FORCEINLINE V gather(const uint32_t* base, V idx) {
    return _mm512_i32gather_epi32(idx, base, 4);
  }

  // base[idx] = v in the lanes of m (distinct indices).
  static constexpr bool kScatter = true;
  static SP_FORCEINLINE void scatter(uint32_t* base, V idx, V v, M m) {
    _mm512_mask_i32scatter_epi32(base, m, idx, v, 4);
  }

  // Set bits per byte, by a nibble table (vpshufb, AVX-512 BW): the path asks for no VPOPCNTDQ.
  static SP_FORCEINLINE V popcount_bytes(V a) {
    const V table =
        _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    const V low = _mm512_set1_epi8(0x0F);
    return _mm512_add_epi8(
        _mm512_shuffle_epi8(table, _mm512_and_si512(a, low)),
        _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi32(a, 4), low)));
  }

  static SP_FORCEINLINE V log2(V a) {
    return sub(srli(_mm512_castps_si512(_mm512_cvtepi32_ps(a)), 23), set1(127));
  }
};

}  // namespace sp::rollout::simd
