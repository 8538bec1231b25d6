// A played move as a choice among the moves the pattern search would have ordered there, for the
// fit of the move-score table (move_scores.hpp; `selfplay tune` with move_scores.fit). The
// candidates are those of PatternSearch::generate at the root: the squares near the stones, or,
// when the opponent can make an open four or two fours next, only the squares of a four of either
// side. Each candidate is scored attack[own code] + defend[opponent's code], so it is described
// by its two table entries (move_score_entry; -1 for code 0, which scores 0). Host only.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/patterns.hpp"

namespace sp::gomoku {

// The table entries of the squares the pattern search orders in s, in cell order, and the index
// among them of `played`; -1 (and out cleared) when s is no choice of the ordering: a five is on
// the board for either side to make (the search plays or blocks it without ordering), the board
// is empty, fewer than two candidates, or `played` is not among them.
inline int move_choice(const State& s, Move played, std::vector<std::array<int32_t, 2>>& out) {
  out.clear();
  if (s.ply == 0) return -1;
  const patterns::Board b(s);
  const int me = b.side_to_move(), op = me ^ 1;
  if (b.threats(me, patterns::kFiveSet).any() || b.threats(op, patterns::kFiveSet).any()) return -1;
  patterns::CellSet moves;
  if (b.threats(op, patterns::kWinNextSet).any()) {
    const patterns::CellSet& a = b.threats(me, patterns::kFourSet);
    const patterns::CellSet& d = b.threats(op, patterns::kFourSet);
    for (int i = 0; i < patterns::kCellWords; ++i) moves.w[i] = a.w[i] | d.w[i];
  } else {
    moves = b.near();
  }
  const int target = patterns::Board::cell(played.x, played.y);
  int index = -1;
  moves.for_each([&](int c) {
    if (c == target) index = static_cast<int>(out.size());
    const int mine = b.code(me, c), theirs = b.code(op, c);
    out.push_back(
        {mine ? move_score_entry(mine, 0) : -1, theirs ? move_score_entry(theirs, 1) : -1});
  });
  if (index < 0 || out.size() < 2) {
    out.clear();
    return -1;
  }
  return index;
}

}  // namespace sp::gomoku
