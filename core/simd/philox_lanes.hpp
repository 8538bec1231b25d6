// Philox4x32-10 for a vector of streams at once, lane by lane equal to sp::philox4x32_10
// (core/philox.hpp): each lane has its own counter and key.
#pragma once

#include "core/philox.hpp"

namespace sp::rollout::simd {

template <class Ops>
struct PhiloxLanes {
  using V = typename Ops::V;
  V v[4];
};

template <class Ops>
SP_FORCEINLINE PhiloxLanes<Ops> philox_lanes(PhiloxLanes<Ops> c, typename Ops::V k0,
                                             typename Ops::V k1) {
  using namespace philox_detail;
  using V = typename Ops::V;
  const V m0 = Ops::set1(kM0), m1 = Ops::set1(kM1), w0 = Ops::set1(kW0), w1 = Ops::set1(kW1);
#pragma GCC unroll 10
  for (int round = 0; round < 10; ++round) {
    V hi0, lo0, hi1, lo1;
    Ops::mulhilo(m0, c.v[0], hi0, lo0);
    Ops::mulhilo(m1, c.v[2], hi1, lo1);
    c = PhiloxLanes<Ops>{
        {Ops::xor_(Ops::xor_(hi1, c.v[1]), k0), lo1, Ops::xor_(Ops::xor_(hi0, c.v[3]), k1), lo0}};
    k0 = Ops::add(k0, w0);
    k1 = Ops::add(k1, w1);
  }
  return c;
}

}  // namespace sp::rollout::simd
