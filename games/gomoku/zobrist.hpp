// Zobrist keys of Gomoku positions for the transposition tables of host search: one key per
// (side, square), one for White to move, and a mix of the board size and the win rule. Host
// only.
#pragma once

#include <cstdint>

#include "core/philox.hpp"
#include "games/gomoku/gomoku.hpp"

namespace sp::gomoku {

struct ZobristKeys {
  uint64_t stone[2][kMaxSquares];  // [side][square index y * size + x]
  uint64_t white_to_move;
};

// From a fixed seed, so keys (and with them table collisions, which decide what a search returns
// once its table fills) are the same in every run and build: they must not change.
constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys t{};
  uint64_t x = 0x474D4B552D7A6F62ull;  // "GMKU-zob"
  for (auto& side : t.stone)
    for (uint64_t& k : side) k = x = splitmix64(x);
  t.white_to_move = x = splitmix64(x);
  return t;
}

inline constexpr ZobristKeys kZobristKeys = make_zobrist_keys();

inline uint64_t zobrist_key(const State& s) {
  const ZobristKeys& z = kZobristKeys;
  uint64_t h = s.side ? z.white_to_move : 0;
  for (int side = 0; side < 2; ++side)
    for (int w = 0; w < kWords; ++w)
      for (uint64_t b = s.stones[side][w]; b; b &= b - 1) h ^= z.stone[side][64 * w + lsb64(b)];
  return h ^ splitmix64(uint64_t{s.size} | uint64_t{static_cast<uint8_t>(s.rule)} << 8);
}

}  // namespace sp::gomoku
