// Philox4x32-10 known answers, stream identity and the bounded() reduction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "core/hd.hpp"
#include "core/philox.hpp"

namespace sp {
namespace {

// The three "philox4x32 10" lines of Random123's tests/kat_vectors
// (github.com/DEShawResearch/random123): counter (4 words), key (2 words), expected (4 words).
struct Kat {
  Philox4x32 ctr;
  PhiloxKey key;
  uint32_t expected[4];
};
constexpr Kat kKats[] = {
    {{{0x00000000, 0x00000000, 0x00000000, 0x00000000}},
     {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(Philox, Random123KnownAnswers) {
  for (const auto& k : kKats) {
    const Philox4x32 out = philox4x32_10(k.ctr, k.key);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(out.v[i], k.expected[i]) << "word " << i << " of ctr " << k.ctr.v[0];
  }
}

// Published SplitMix64 outputs for state 0 (Vigna's splitmix64.c): the state advances by the
// golden gamma before each mix.
TEST(Philox, SplitMix64KnownAnswers) {
  constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ull;
  EXPECT_EQ(splitmix64(0), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitmix64(kGamma), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(splitmix64(2 * kGamma), 0x06c45d188009454full);
}

TEST(Philox, BlockStreamCounterLayout) {
  // Contract from philox.hpp: block n of a stream is philox(ctr = {n, rollout, leaf, ply},
  // key = stream_key(seed, game)).
  const StreamId id{123456789012345ull, 17, 9, 3, 41};
  BlockStream stream(id);
  const PhiloxKey key = stream_key(id.seed, id.game);
  for (uint32_t n = 0; n < 5; ++n) {
    const Philox4x32 got = stream.next();
    const Philox4x32 want = philox4x32_10(Philox4x32{{n, id.rollout, id.leaf, id.ply}}, key);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], want.v[i]) << "block " << n;
    EXPECT_EQ(stream.blocks_drawn(), n + 1);
  }
  // The hoisted-key constructor gives the same stream.
  BlockStream a(id), b(key, id.ply, id.leaf, id.rollout);
  for (int n = 0; n < 5; ++n) {
    const Philox4x32 x = a.next(), y = b.next();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(x.v[i], y.v[i]);
  }
}

TEST(Philox, WordStreamReadsBlocksInOrder) {
  const StreamId id{5, 6, 7, 8, 9};
  BlockStream blocks(id);
  WordStream words(id), bounded_words(id);
  for (int n = 0; n < 10; ++n) {
    const Philox4x32 b = blocks.next();
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(words.next(), b.v[i]) << "block " << n << " word " << i;
      EXPECT_EQ(bounded_words.below(6), bounded(b.v[i], 6));
    }
  }
}

TEST(Philox, DeterministicForTheSameId) {
  for (uint32_t g = 0; g < 50; ++g) {
    const StreamId id{42, g, g * 3, g * 7, g * 11};
    BlockStream a(id), b(id);
    for (int n = 0; n < 20; ++n) {
      const Philox4x32 x = a.next(), y = b.next();
      for (int i = 0; i < 4; ++i) ASSERT_EQ(x.v[i], y.v[i]);
    }
  }
}

std::tuple<uint32_t, uint32_t, uint32_t, uint32_t> first_block(const StreamId& id) {
  BlockStream s(id);
  const Philox4x32 b = s.next();
  return {b.v[0], b.v[1], b.v[2], b.v[3]};
}

TEST(Philox, EveryIdFieldSelectsADifferentStream) {
  const StreamId base{7, 3, 5, 11, 13};
  std::vector<StreamId> ids = {base};
  for (int field = 0; field < 5; ++field)
    for (uint32_t delta : {1u, 2u, 0x80000000u}) {
      StreamId id = base;
      switch (field) {
        case 0:
          id.seed += delta;
          break;
        case 1:
          id.game += delta;
          break;
        case 2:
          id.ply += delta;
          break;
        case 3:
          id.leaf += delta;
          break;
        default:
          id.rollout += delta;
          break;
      }
      ids.push_back(id);
    }
  for (uint32_t leaf : {kLeafDice, kLeafSetup, kLeafSearch}) {
    StreamId id = base;
    id.leaf = leaf;
    ids.push_back(id);
  }
  // Swapped fields must not alias: (ply, leaf) = (5, 11) vs (11, 5), and so on.
  ids.push_back(StreamId{7, 3, 11, 5, 13});
  ids.push_back(StreamId{7, 3, 5, 13, 11});
  ids.push_back(StreamId{7, 5, 3, 11, 13});
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
  for (const auto& id : ids)
    EXPECT_TRUE(seen.insert(first_block(id)).second)
        << "seed " << id.seed << " game " << id.game << " ply " << id.ply << " leaf " << id.leaf
        << " rollout " << id.rollout;
}

TEST(Philox, NoBlockCollisionsAcrossManyStreams) {
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
  int n = 0;
  for (uint32_t game = 0; game < 20; ++game)
    for (uint32_t rollout = 0; rollout < 50; ++rollout)
      for (uint32_t leaf = 0; leaf < 10; ++leaf) {
        BlockStream s({1, game, 0, leaf, rollout});
        for (int k = 0; k < 4; ++k) {
          const Philox4x32 b = s.next();
          seen.insert({b.v[0], b.v[1], b.v[2], b.v[3]});
          ++n;
        }
      }
  EXPECT_EQ(seen.size(), static_cast<size_t>(n));
}

TEST(Philox, SeedAndGameKeysDiffer) {
  std::set<std::pair<uint32_t, uint32_t>> keys;
  for (uint64_t seed = 0; seed < 30; ++seed)
    for (uint32_t game = 0; game < 30; ++game) {
      const PhiloxKey k = stream_key(seed, game);
      EXPECT_TRUE(keys.insert({k.k0, k.k1}).second) << seed << " " << game;
    }
  // Seeds differing only above bit 32 still give different keys.
  const PhiloxKey a = stream_key(1, 0), b = stream_key(1 + (1ull << 40), 0);
  EXPECT_TRUE(a.k0 != b.k0 || a.k1 != b.k1);
}

double chi_square(const std::vector<uint64_t>& counts) {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  const double expected = static_cast<double>(total) / counts.size();
  double chi = 0;
  for (uint64_t c : counts) chi += (c - expected) * (c - expected) / expected;
  return chi;
}

// Chi-square bounds are far in the tail (p < 1e-4) and the seeds are fixed, so the tests are
// deterministic; a broken generator or reduction lands far above them.
TEST(Philox, DieRollsAreUniform) {
  WordStream rng({2024, 0, 0, kLeafDice, 0});
  std::vector<uint64_t> counts(6, 0);
  for (int i = 0; i < 600000; ++i) {
    const uint32_t die = 1 + rng.below(6);
    ASSERT_GE(die, 1u);
    ASSERT_LE(die, 6u);
    ++counts[die - 1];
  }
  EXPECT_LT(chi_square(counts), 25.0) << "5 degrees of freedom";
}

TEST(Philox, EachWordOfABlockIsUniform) {
  std::vector<std::vector<uint64_t>> counts(4, std::vector<uint64_t>(16, 0));
  BlockStream s({77, 1, 2, 3, 4});
  for (int n = 0; n < 100000; ++n) {
    const Philox4x32 b = s.next();
    for (int i = 0; i < 4; ++i) ++counts[i][b.v[i] >> 28];
  }
  for (int i = 0; i < 4; ++i)
    EXPECT_LT(chi_square(counts[i]), 45.0) << "word " << i << ", 15 degrees of freedom";
}

TEST(Philox, BitsAreBalanced) {
  std::vector<uint64_t> ones(128, 0);
  const int n = 50000;
  for (int r = 0; r < n; ++r) {
    BlockStream s({3, 0, 0, 0, static_cast<uint32_t>(r)});  // neighbouring counters
    const Philox4x32 b = s.next();
    for (int bit = 0; bit < 128; ++bit) ones[bit] += (b.v[bit / 32] >> (bit % 32)) & 1u;
  }
  for (int bit = 0; bit < 128; ++bit) {
    const double z = (ones[bit] - n / 2.0) / std::sqrt(n / 4.0);
    EXPECT_LT(std::fabs(z), 5.0) << "bit " << bit;
  }
}

// Adjacent rollouts (counters one apart) and adjacent games (different keys) give independent
// dice: the joint distribution of the two rolls is uniform over 36 cells.
TEST(Philox, NeighbouringStreamsAreIndependent) {
  std::vector<uint64_t> by_rollout(36, 0), by_game(36, 0);
  for (uint32_t r = 0; r < 200000; ++r) {
    BlockStream a({9, 0, 0, 0, r}), b({9, 0, 0, 0, r + 1});
    ++by_rollout[bounded(a.next().v[0], 6) * 6 + bounded(b.next().v[0], 6)];
    BlockStream c({9, r, 0, 0, 0}), d({9, r + 1, 0, 0, 0});
    ++by_game[bounded(c.next().v[0], 6) * 6 + bounded(d.next().v[0], 6)];
  }
  EXPECT_LT(chi_square(by_rollout), 80.0) << "35 degrees of freedom";
  EXPECT_LT(chi_square(by_game), 80.0) << "35 degrees of freedom";
}

TEST(Bounded, StaysInRangeAtTheExtremes) {
  const uint32_t ns[] = {1,    2,     3,          5,          6,          7,         100,
                         1000, 65536, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
  const uint32_t words[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678};
  for (uint32_t n : ns) {
    EXPECT_EQ(bounded(0, n), 0u) << n;
    EXPECT_EQ(bounded(0xffffffffu, n), n - 1) << n;
    for (uint32_t w : words) EXPECT_LT(bounded(w, n), n) << w << " " << n;
  }
  for (uint32_t w : words) EXPECT_EQ(bounded(w, 1), 0u);
}

// bounded(w, n) is floor(w * n / 2^32): value k starts at the first w with w * n >= k * 2^32,
// i.e. w = ceil(k * 2^32 / n). Found by bisection, which relies only on monotonicity.
TEST(Bounded, PreimagesAreTheExpectedIntervals) {
  for (uint32_t n : {2u, 3u, 6u, 7u, 10u, 1000u}) {
    uint32_t prev = 0;
    for (uint32_t k = 1; k < std::min<uint32_t>(n, 12); ++k) {
      uint64_t lo = 0, hi = 0x100000000ull;  // first w with bounded(w, n) >= k lies in [lo, hi)
      while (lo < hi) {
        const uint64_t mid = (lo + hi) / 2;
        if (bounded(static_cast<uint32_t>(mid), n) >= k)
          hi = mid;
        else
          lo = mid + 1;
      }
      const uint64_t want = ((static_cast<uint64_t>(k) << 32) + n - 1) / n;
      EXPECT_EQ(lo, want) << "n " << n << " k " << k;
      EXPECT_EQ(bounded(static_cast<uint32_t>(lo), n), k);
      EXPECT_EQ(bounded(static_cast<uint32_t>(lo - 1), n), k - 1);
      // Interval lengths differ by at most one: the bias is at most one word per value.
      if (k > 1) {
        const uint64_t len = lo - prev, ideal = 0x100000000ull / n;
        EXPECT_LE(len, ideal + 1);
        EXPECT_GE(len, ideal);
      }
      prev = static_cast<uint32_t>(lo);
    }
  }
}

TEST(Bounded, IsMonotoneInTheWord) {
  WordStream rng({11, 0, 0, 0, 0});
  for (int i = 0; i < 10000; ++i) {
    uint32_t a = rng.next(), b = rng.next();
    if (a > b) std::swap(a, b);
    const uint32_t n = 1 + rng.below(1000);
    EXPECT_LE(bounded(a, n), bounded(b, n));
  }
}

}  // namespace
}  // namespace sp
