// A checkers position after random legal moves from the start, for tests that want many varied
// positions.
#pragma once

#include <cstdint>

#include "core/philox.hpp"
#include "games/checkers/checkers.hpp"

namespace sp::checkers {

// The position after `plies` random legal moves from the start (fewer if the game would end),
// drawn from (stream, seed), with draw limits that do not end it.
inline State random_play(uint64_t stream, uint32_t seed, int plies) {
  WordStream rng({stream, seed, 0, kLeafSetup, 0});
  State s = initial_state(Rules{2000, 0});
  for (int p = 0; p < plies; ++p) {
    MoveList list;
    generate_moves(s, list);
    if (list.size == 0) break;
    State t = s;
    apply(t, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
    if (!has_move(t)) break;
    s = t;
  }
  return s;
}

}  // namespace sp::checkers
