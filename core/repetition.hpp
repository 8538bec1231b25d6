// Draws by repetition, for games whose rules have them (checkers: threefold repetition). A state
// carries no history (it must stay small for the kernels and the search), so the rule is kept
// beside the game by whoever plays it out move by move: the self-play driver, `selfplay verify`,
// terminal play and alpha-beta's search path. Playouts and MCTS trees do not see it; they end
// such games through the game's own counters (checkers: quiet_plies and max_plies). Host only.
//
// Optional hooks of G (all three, or the game has no repetition rule):
//   static int repetition_limit(const Rules&)   a draw when a position occurs this many times
//                                               (3: threefold); 0 = no such rule
//   static int reversible_plies(const State&)   0 right after a move that no later move can undo
//                                               (checkers: a capture or a man move), else more
//   static bool same_position(const State&, const State&)
//                                               the same position for the rule: pieces and side
//                                               to move, whatever the ply counters say
#pragma once

#include <concepts>
#include <span>
#include <vector>

#include "core/game.hpp"

namespace sp {

template <class G>
concept RepetitionGame = Game<G> &&
    requires(const typename G::Rules& rules, const typename G::State& s) {
  { G::repetition_limit(rules) } -> std::convertible_to<int>;
  { G::reversible_plies(s) } -> std::convertible_to<int>;
  { G::same_position(s, s) } -> std::convertible_to<bool>;
};

// The repetition limit of a game's rules; 0 for a game without the rule.
template <Game G>
int repetition_limit(const typename G::Rules& rules) {
  if constexpr (RepetitionGame<G>)
    return G::repetition_limit(rules);
  else
    return 0;
}

// The positions of one game since its last irreversible move, and the repetition rule over them.
// Positions before an irreversible move can never come back, so the list stays as short as the
// stretch of reversible moves (bounded by the game's quiet-move rule where it has one).
template <Game G>
class PositionHistory {
 public:
  using State = typename G::State;

  explicit PositionHistory(const typename G::Rules& rules) : limit_(repetition_limit<G>(rules)) {}

  // Starts a game at s: s's position has occurred once.
  void reset(const State& s) {
    positions_.clear();
    push(s);
  }

  // Forgets every position (a game not yet started).
  void clear() { positions_.clear(); }

  // Records s, the position after a move. True when the rule draws the game: s's position has
  // now occurred repetition_limit times (never without the rule).
  bool push(const State& s) {
    if (limit_ <= 0) return false;
    if constexpr (RepetitionGame<G>) {
      if (G::reversible_plies(s) == 0) positions_.clear();
      positions_.push_back(s);
      return occurrences(s) >= limit_;
    }
    return false;
  }

  // How many recorded positions are s's position (s itself included once pushed).
  int occurrences(const State& s) const {
    int n = 0;
    if constexpr (RepetitionGame<G>)
      for (const State& p : positions_) n += G::same_position(p, s) ? 1 : 0;
    return n;
  }

  int limit() const { return limit_; }
  // The positions since the last irreversible move, oldest first.
  std::span<const State> positions() const { return positions_; }

 private:
  int limit_;
  std::vector<State> positions_;
};

}  // namespace sp
