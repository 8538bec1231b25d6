// Perft for EWN as defined in ../shared/reference/ewn.md: leaf count d decision plies deep, every
// die value enumerated between decisions; a game-ending move counts at depth 1 only.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "games/ewn/ewn.hpp"

namespace sp::ewn {

// Precondition: s.die is rolled and the game is not over; depth >= 1.
inline uint64_t perft(const State& s, const Rules& rules, int depth) {
  MoveList list;
  generate_moves(s, rules, list);
  if (depth == 1) return static_cast<uint64_t>(list.size);
  uint64_t nodes = 0;
  for (int k = 0; k < list.size; ++k) {
    State child = s;
    apply(child, list.moves[k]);
    if (is_over(child)) continue;
    for (int die = 1; die <= 6; ++die) {
      child.die = static_cast<uint8_t>(die);
      nodes += perft(child, rules, depth - 1);
    }
  }
  return nodes;
}

// Per-move counts at the root, in generate_moves order.
inline std::vector<std::pair<Move, uint64_t>> perft_divide(const State& s, const Rules& rules,
                                                           int depth) {
  MoveList list;
  generate_moves(s, rules, list);
  std::vector<std::pair<Move, uint64_t>> out;
  for (int k = 0; k < list.size; ++k) {
    uint64_t nodes = 1;
    if (depth > 1) {
      State child = s;
      apply(child, list.moves[k]);
      nodes = 0;
      if (!is_over(child))
        for (int die = 1; die <= 6; ++die) {
          child.die = static_cast<uint8_t>(die);
          nodes += perft(child, rules, depth - 1);
        }
    }
    out.emplace_back(list.moves[k], nodes);
  }
  return out;
}

}  // namespace sp::ewn
