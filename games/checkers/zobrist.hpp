// Zobrist keys of checkers positions for the transposition tables of host search: one key per
// (side, man or king, square), one for White to move, and a mix of the draw counters and limits
// (positions that differ in them differ in what is left of the game). Host only.
#pragma once

#include <cstdint>

#include "core/philox.hpp"
#include "games/checkers/checkers.hpp"

namespace sp::checkers {

struct ZobristKeys {
  uint64_t piece[2][2][kSquares];  // [side][0 man, 1 king][square]
  uint64_t white_to_move;
};

// From a fixed seed, so keys (and with them table collisions, which decide what a search returns
// once its table fills) are the same in every run and build: they must not change.
constexpr ZobristKeys make_zobrist_keys() {
  ZobristKeys t{};
  uint64_t x = 0x434B52532D7A6F62ull;  // "CKRS-zob"
  for (auto& side : t.piece)
    for (auto& kind : side)
      for (uint64_t& k : kind) k = x = splitmix64(x);
  t.white_to_move = x = splitmix64(x);
  return t;
}

inline constexpr ZobristKeys kZobristKeys = make_zobrist_keys();

inline uint64_t zobrist_key(const State& s) {
  const ZobristKeys& z = kZobristKeys;
  uint64_t h = s.side ? z.white_to_move : 0;
  for (int side = 0; side < 2; ++side)
    for (uint32_t b = s.pieces[side]; b;) {
      const int sq = pop_lsb(b);
      h ^= z.piece[side][(s.kings >> sq) & 1u][sq];
    }
  const uint64_t counters = uint64_t{s.ply} | uint64_t{s.max_plies} << 16 |
                            uint64_t{s.quiet} << 32 | uint64_t{s.quiet_limit} << 40;
  return h ^ splitmix64(counters);
}

}  // namespace sp::checkers
