// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11), the
// counter-based generator behind every random decision in selfplay. A stream is identified by
// (seed, game, ply, leaf, rollout), never by a thread, so any backend, thread count or batch split
// draws the same bits for the same rollout.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace sp {

struct Philox4x32 {
  uint32_t v[4];
};

// Word i (0..3) of a block. On a GPU an index known only at run time would put the block in local
// memory, so the word is picked by selects over constant indices there; the CPU indexes.
SP_HD SP_FORCEINLINE uint32_t word_of(const Philox4x32& b, uint32_t i) {
#if defined(__CUDA_ARCH__)
  const uint32_t low = (i & 1u) ? b.v[1] : b.v[0];
  const uint32_t high = (i & 1u) ? b.v[3] : b.v[2];
  return (i & 2u) ? high : low;
#else
  return b.v[i];
#endif
}

struct PhiloxKey {
  uint32_t k0, k1;
};

namespace philox_detail {
inline constexpr uint32_t kM0 = 0xD2511F53u;
inline constexpr uint32_t kM1 = 0xCD9E8D57u;
inline constexpr uint32_t kW0 = 0x9E3779B9u;
inline constexpr uint32_t kW1 = 0xBB67AE85u;

SP_HD SP_FORCEINLINE void mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umulhi(a, b);
#else
  const uint64_t p = static_cast<uint64_t>(a) * b;
  lo = static_cast<uint32_t>(p);
  hi = static_cast<uint32_t>(p >> 32);
#endif
}
}  // namespace philox_detail

// One Philox4x32-10 block: 128 random bits for the counter c under key k.
SP_HD SP_FORCEINLINE Philox4x32 philox4x32_10(Philox4x32 c, PhiloxKey k) {
  using namespace philox_detail;
#if defined(__CUDA_ARCH__)
#pragma unroll
#elif defined(__GNUC__) && !defined(__CUDACC__)
#pragma GCC unroll 10
#endif
  for (int round = 0; round < 10; ++round) {
    uint32_t hi0, lo0, hi1, lo1;
    mulhilo(kM0, c.v[0], hi0, lo0);
    mulhilo(kM1, c.v[2], hi1, lo1);
    c = Philox4x32{{hi1 ^ c.v[1] ^ k.k0, lo1, hi0 ^ c.v[3] ^ k.k1, lo0}};
    k.k0 += kW0;
    k.k1 += kW1;
  }
  return c;
}

// SplitMix64 finaliser (Steele et al.): a bijective 64-bit mix used to turn (seed, game) into a
// key.
SP_HD SP_FORCEINLINE constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Reserved leaf ids: streams that are not rollouts of a search leaf.
inline constexpr uint32_t kLeafDice = 0xFFFFFFFFu;    // the real dice of a game
inline constexpr uint32_t kLeafSetup = 0xFFFFFFFEu;   // random start arrangements of a game
inline constexpr uint32_t kLeafSearch = 0xFFFFFFFDu;  // chance-node sampling inside a search

// Identity of one random stream. The key mixes (seed, game); the counter carries
// (draw, rollout, leaf, ply), so 2^32 blocks of 128 bits are available per stream.
struct StreamId {
  uint64_t seed = 0;
  uint32_t game = 0;
  uint32_t ply = 0;
  uint32_t leaf = 0;
  uint32_t rollout = 0;
};

SP_HD SP_FORCEINLINE PhiloxKey stream_key(uint64_t seed, uint32_t game) {
  const uint64_t k = splitmix64(splitmix64(seed) ^ game);
  return PhiloxKey{static_cast<uint32_t>(k), static_cast<uint32_t>(k >> 32)};
}

// A stream of blocks. Holds no buffer: callers take a whole block per step (four 32-bit words),
// which keeps the state in registers on the GPU.
class BlockStream {
 public:
  SP_HD explicit BlockStream(const StreamId& id)
      : key_(stream_key(id.seed, id.game)), rollout_(id.rollout), leaf_(id.leaf), ply_(id.ply) {}
  // For hot loops that hoist stream_key(seed, game) out of the per-rollout work.
  SP_HD BlockStream(PhiloxKey key, uint32_t ply, uint32_t leaf, uint32_t rollout)
      : key_(key), rollout_(rollout), leaf_(leaf), ply_(ply) {}

  SP_HD SP_FORCEINLINE Philox4x32 next() {
    return philox4x32_10(Philox4x32{{draw_++, rollout_, leaf_, ply_}}, key_);
  }
  SP_HD uint32_t blocks_drawn() const { return draw_; }

 private:
  PhiloxKey key_;
  uint32_t rollout_, leaf_, ply_;
  uint32_t draw_ = 0;
};

// Word-at-a-time view of a BlockStream for code off the hot path (setups, dice, sampling).
class WordStream {
 public:
  SP_HD explicit WordStream(const StreamId& id) : blocks_(id) {}
  SP_HD uint32_t next() {
    if (used_ == 4) {
      block_ = blocks_.next();
      used_ = 0;
    }
    return block_.v[used_++];
  }
  SP_HD uint32_t below(uint32_t n) { return bounded(next(), n); }

 private:
  BlockStream blocks_;
  Philox4x32 block_{};
  int used_ = 4;
};

}  // namespace sp
