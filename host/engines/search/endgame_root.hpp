// The root moves a search keeps when the endgame databases cover the root (alphabeta.hpp,
// mcts.hpp). A search that scored every covered position from the databases would see nothing but
// equal wins below such a root and wander. So a won root keeps the one winning move nearest its
// conversion (a capture or a crowning that keeps the win first, else the lowest level: the
// databases' levels fall along it, so the win is converted) and a lost root the one that holds out
// longest; a drawn root (or databases without levels) keeps the moves that preserve its result,
// which the search then searches as usual, with the evaluation and without probing below.
#pragma once

#include "core/endgame.hpp"
#include "core/game.hpp"

namespace sp::search {

// Keeps in `moves` (the root's searched moves, order kept) those whose databases value is the best
// the root has (a win over a draw over a loss) and returns true; returns false and leaves `moves`
// as they are when the databases do not cover the root and every move.
template <DeterministicGame G>
bool keep_endgame_moves(const EndgameProbe<typename G::State>& tables,
                        const typename G::State& root, typename G::MoveList& moves) {
  if (tables.pieces(root) > tables.max_pieces() || tables.probe(root) == EndgameValue::kUnknown)
    return false;
  // The mover's result after each move: 2 a win, 1 a draw, 0 a loss.
  int result[G::kMaxMoves];
  int best = -1;
  for (int i = 0; i < moves.size; ++i) {
    typename G::State child = root;
    G::apply(child, moves.moves[i]);
    const EndgameValue v = tables.probe(child);
    if (v == EndgameValue::kUnknown) return false;
    result[i] = v == EndgameValue::kLoss ? 2 : v == EndgameValue::kDraw ? 1 : 0;
    if (result[i] > best) best = result[i];
  }
  // Won or lost: the one move nearest (won) or farthest (lost) from a conversion.
  if (best != 1) {
    int chosen = -1, chosen_plies = 0;
    for (int i = 0; i < moves.size; ++i) {
      if (result[i] != best) continue;
      typename G::State child = root;
      G::apply(child, moves.moves[i]);
      const int plies = tables.plies_after(root, child);
      if (plies < 0) {
        chosen = -1;  // no levels: keep every move of the best result
        break;
      }
      if (chosen < 0 || (best == 2 ? plies < chosen_plies : plies > chosen_plies))
        chosen = i, chosen_plies = plies;
    }
    if (chosen >= 0) {
      moves.moves[0] = moves.moves[chosen];
      moves.size = 1;
      return true;
    }
  }
  int kept = 0;
  for (int i = 0; i < moves.size; ++i)
    if (result[i] == best) moves.moves[kept++] = moves.moves[i];
  moves.size = kept;
  return true;
}

}  // namespace sp::search
