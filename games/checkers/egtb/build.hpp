// Building the checkers endgame databases (`selfplay egtb build`).
//
// build: every material of 2 .. pieces pieces (both sides with pieces), in an order where each
// table's exits are built before it (fewer pieces first, then fewer men: a capture leaves fewer
// pieces, a promotion fewer men), a material and its colour flip together (a move of one leads to
// the other). Retrograde analysis: one pass gives every position its exits' values (captures and
// promotions lead into finished tables) and counts its other moves; then, level by level, each won
// or lost position visits its predecessors (a piece of the side that just moved stepped back, where
// that side had no capture): a loss makes each a win, a win takes one from each one's count of
// moves not yet refuted, and a count reaching zero is a loss (a draw when an exit draws). What is
// left is a draw. Both passes run on the caller's threads. Each finished table is written whole
// (table.hpp); a run finds the tables already there and builds only the rest, so a killed build
// resumes, losing at most the table pair in hand.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/endgame.hpp"
#include "games/checkers/egtb/tables.hpp"

namespace sp::checkers::egtb {

// Every two-sided material of exactly n pieces, in build order.
std::vector<Material> materials_of(int pieces);

// Board configurations of n pieces, side to move not counted, one-sided material included: the
// count the literature publishes (1: 120, 2: 6,972, ..., 5: 148,688,232).
uint64_t configurations(int pieces);

EndgameBuildResult build(const EndgameBuildOptions& options);

}  // namespace sp::checkers::egtb
