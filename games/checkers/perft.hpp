// Perft for checkers (../shared/reference/checkers.md): leaf count `depth` plies deep, each
// distinct jump path a move of its own. Positions the draw rules end have no children. Host only.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "games/checkers/checkers.hpp"

namespace sp::checkers {

// Number of move sequences of `depth` plies from s (1 for depth 0; 0 when s is over earlier).
inline uint64_t perft(const State& s, const Rules& rules, int depth) {
  if (depth == 0) return 1;
  if (draw_reached(s)) return 0;
  if (depth == 1) return static_cast<uint64_t>(count_moves(s));
  MoveList list;
  generate_moves(s, list);
  uint64_t nodes = 0;
  for (int k = 0; k < list.size; ++k) {
    State child = s;
    apply(child, list.moves[k]);
    nodes += perft(child, rules, depth - 1);
  }
  return nodes;
}

// Per-move counts at the root, in generate_moves order; they sum to perft(s, rules, depth).
// Precondition: depth >= 1.
inline std::vector<std::pair<Move, uint64_t>> perft_divide(const State& s, const Rules& rules,
                                                           int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  if (draw_reached(s)) return out;
  MoveList list;
  generate_moves(s, list);
  for (int k = 0; k < list.size; ++k) {
    State child = s;
    apply(child, list.moves[k]);
    out.emplace_back(list.moves[k], perft(child, rules, depth - 1));
  }
  return out;
}

}  // namespace sp::checkers
