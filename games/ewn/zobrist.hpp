// Zobrist keys of EWN positions for the transposition tables of host search: one key per (side,
// cube, square), per side to move and per die value (0: not rolled). Host only.
#pragma once

#include <cstdint>

#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"

namespace sp::ewn {

struct ZobristKeys {
  uint64_t cube[2][kCubes][kSquares];
  uint64_t side[2];
  uint64_t die[7];  // 0: not rolled (chance node)
};

// From a fixed seed, so keys (and with them table collisions, which decide what a search returns
// once its table fills) are the same in every run and build: they must not change.
constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys t{};
  uint64_t x = 0x45574E2D7A6F6272ull;  // "EWN-zobr"
  for (auto& side : t.cube)
    for (auto& cube : side)
      for (uint64_t& k : cube) k = x = splitmix64(x);
  for (uint64_t& k : t.side) k = x = splitmix64(x);
  for (uint64_t& k : t.die) k = x = splitmix64(x);
  return t;
}

inline constexpr ZobristKeys kZobristKeys = make_zobrist_keys();

// The key of s: side to move, die (as it stands: search canonicalises it first) and every cube on
// the board. Precondition: state_ok(s).
inline uint64_t zobrist_key(const State& s) {
  const ZobristKeys& z = kZobristKeys;
  uint64_t h = z.side[s.side] ^ z.die[s.die];
  for (int side = 0; side < 2; ++side)
    for (int c = 0; c < kCubes; ++c) {
      const int sq = square_of(s, side, c);
      if (sq < kSquares) h ^= z.cube[side][c][sq];
    }
  return h;
}

}  // namespace sp::ewn
