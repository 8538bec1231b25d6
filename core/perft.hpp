// Perft for every game, through generate_moves and apply only: the number of leaf nodes `depth`
// decision plies deep. A move that ends the game counts at depth 1 and has no children deeper. In
// a chance game every chance outcome is enumerated between two decisions, each a separate branch
// (../shared/reference/ewn.md defines EWN's perft so). Host and tests; the order of divide's moves
// is generate_moves order. Counts are checked: one that passes 2^64 - 1 throws
// std::overflow_error rather than wrapping, so any depth can be asked for.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/game.hpp"

namespace sp {

// Precondition: s is a decision state (not over; in a chance game its outcome drawn); depth >= 1.
template <Game G>
uint64_t perft(const typename G::State& s, const typename G::Rules& rules, int depth);

namespace perft_detail {
inline void add(uint64_t& total, uint64_t nodes) {
  if (__builtin_add_overflow(total, nodes, &total))
    throw std::overflow_error("perft: the count passes 2^64 - 1");
}

// The leaves below the state a move led to, depth decision plies from the move's own ply.
template <Game G>
uint64_t after_move(typename G::State child, const typename G::Rules& rules, int depth) {
  if (depth == 1) return 1;
  if (G::is_over(child)) return 0;
  if constexpr (ChanceGame<G>) {
    uint64_t nodes = 0;
    for (int k = 0; k < G::kChanceOutcomes; ++k) {
      G::set_chance(child, k);
      add(nodes, perft<G>(child, rules, depth - 1));
    }
    return nodes;
  } else {
    return perft<G>(child, rules, depth - 1);
  }
}
}  // namespace perft_detail

template <Game G>
uint64_t perft(const typename G::State& s, const typename G::Rules& rules, int depth) {
  typename G::MoveList list;
  G::generate_moves(s, rules, list);
  if (depth == 1) return static_cast<uint64_t>(list.size);
  uint64_t nodes = 0;
  for (int k = 0; k < list.size; ++k) {
    typename G::State child = s;
    G::apply(child, list.moves[k]);
    perft_detail::add(nodes, perft_detail::after_move<G>(child, rules, depth));
  }
  return nodes;
}

// Per-move counts at the root, in generate_moves order; they sum to perft(s, rules, depth).
// after_each (optional) is called after each root move with the moves done, their number and
// the count so far: progress for long runs.
template <Game G>
std::vector<std::pair<typename G::Move, uint64_t>> perft_divide(
    const typename G::State& s, const typename G::Rules& rules, int depth,
    const std::function<void(int done, int moves, uint64_t nodes)>& after_each = {}) {
  typename G::MoveList list;
  G::generate_moves(s, rules, list);
  std::vector<std::pair<typename G::Move, uint64_t>> out;
  uint64_t total = 0;
  for (int k = 0; k < list.size; ++k) {
    typename G::State child = s;
    G::apply(child, list.moves[k]);
    out.emplace_back(list.moves[k], perft_detail::after_move<G>(child, rules, depth));
    perft_detail::add(total, out.back().second);
    if (after_each) after_each(k + 1, list.size, total);
  }
  return out;
}

}  // namespace sp
