// Optional hooks a game may offer host search, found at compile time (searches work without them):
//   static uint64_t hash(const State&)           Zobrist key (else a hash of the state's bytes)
//   static bool is_tactical(const State&, Move)  captures or threats, ordered early by alpha-beta
//   static int move_index(Move), kMoveIndices    history index in [0, kMoveIndices) (else no
//                                                history ordering)
//   static bool is_quiet(const State&)           a horizon position alpha-beta may score (else it
//                                                searches one ply further: checkers, where
//                                                captures are forced, is quiet when the side to
//                                                move has no capture)
//   static void candidate_moves(const State&, const Rules&, MoveList&)
//                                                the moves alpha-beta searches and the children
//                                                an MCTS node gets (else every legal move): a
//                                                subset of the legal moves, never empty for a
//                                                state not over, in a fixed order (Gomoku:
//                                                squares near the stones, only the wins or blocks
//                                                when a side threatens five)
//   static int forced_win(const State&, uint32_t node_budget, int max_plies, bool broad,
//                         Move* first, StopCheck stop)
//                                                a forced win of the side to move found by a
//                                                game-specific threat search within the budget:
//                                                its length in plies (at most max_plies) and first
//                                                move, 0 for none; sound (a reported win is
//                                                forced), deterministic unless stop (the move's
//                                                clock, core/stop.hpp, asked every few
//                                                dozen nodes) ends it. broad: a slower, wider
//                                                search (Gomoku: fours only, or fours and threes)
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "core/stop.hpp"

namespace sp::search::hooks {

template <class G>
concept HasHash = requires(const typename G::State& s) {
  { G::hash(s) } -> std::convertible_to<uint64_t>;
};
template <class G>
concept HasTactical = requires(const typename G::State& s, typename G::Move m) {
  { G::is_tactical(s, m) } -> std::convertible_to<bool>;
};
template <class G>
concept HasMoveIndex = requires(typename G::Move m) {
  { G::move_index(m) } -> std::convertible_to<int>;
  { G::kMoveIndices } -> std::convertible_to<int>;
};

template <class G>
concept HasQuiet = requires(const typename G::State& s) {
  { G::is_quiet(s) } -> std::convertible_to<bool>;
};

template <class G>
concept HasCandidateMoves = requires(const typename G::State& s, const typename G::Rules& rules,
                                     typename G::MoveList& list) {
  G::candidate_moves(s, rules, list);
};

template <class G>
concept HasForcedWin = requires(const typename G::State& s, typename G::Move* first,
                                StopCheck stop) {
  { G::forced_win(s, uint32_t{1}, 1, true, first, stop) } -> std::convertible_to<int>;
};

// The moves search considers in s: the game's candidate moves, else its legal moves.
template <Game G>
void searched_moves(const typename G::State& s, const typename G::Rules& rules,
                    typename G::MoveList& list) {
  if constexpr (HasCandidateMoves<G>)
    G::candidate_moves(s, rules, list);
  else
    G::generate_moves(s, rules, list);
}

// The transposition-table key of s: the game's hash, else a hash of its bytes (states are
// canonical byte for byte, see core/game.hpp).
template <Game G>
uint64_t key_of(const typename G::State& s) {
  if constexpr (HasHash<G>) {
    return G::hash(s);
  } else {
    unsigned char bytes[sizeof(typename G::State)];
    std::memcpy(bytes, &s, sizeof(bytes));
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, then mixed
    for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return splitmix64(h);
  }
}

}  // namespace sp::search::hooks
