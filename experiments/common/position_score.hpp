// How the opening generators of experiments/ (checkers-ballots, gomoku-openings) score a start
// position: our alpha-beta (host/engines/search/alphabeta.hpp) to a fixed depth with a fresh
// transposition table, so that the score is a function of the position, the weights and the depth
// alone, evaluated as the alphabeta engine of a campaign evaluates (host/play/selfplay/driver.hpp:
// 1/1000 of an evaluation unit). Shared by the generators and the tests that re-check the shipped
// files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/game.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/alphabeta.hpp"

namespace sp::experiments {

struct PositionScore {
  double black = 0;     // player 0's (Black's) score in evaluation units
  bool proven = false;  // the search found a won or lost game (black is then +-1e9)
  int depth = 0;        // the depth completed
  uint64_t nodes = 0;
};

// The generators' rule: a start is kept unless its score says one side is winning.
inline bool keeps(const PositionScore& s, double threshold) {
  return !s.proven && std::abs(s.black) <= threshold;
}

template <class G>
requires DeterministicGame<G> && FeatureGame<G>
class PositionScorer {
 public:
  using Search = search::AlphaBeta<G>;
  using State = typename G::State;
  using Rules = typename G::Rules;

  PositionScorer(const eval::Weights& weights, const Rules& rules, int depth)
      : weights_(weights), rules_(rules), search_(evaluator(), rules, options(depth)) {}
  PositionScorer(const PositionScorer&) = delete;  // the search's evaluator points at weights_
  PositionScorer& operator=(const PositionScorer&) = delete;

  PositionScore score(const State& s) {
    search_.clear();
    const typename Search::Stats st = search_.search(s);
    // The search's value is the side to move's; player 0's is the negation when player 1 moves
    // (0.0 - v, not -v: a level score is 0, not -0).
    const bool first = G::side_to_move(s) == 0;
    PositionScore out;
    out.proven = st.proven;
    const double mover = st.proven ? (st.value > 0 ? 1e9 : -1e9) : st.value / 1000.0;
    out.black = first ? mover : 0.0 - mover;
    out.depth = st.depth;
    out.nodes = st.nodes;
    return out;
  }

 private:
  typename Search::Evaluator evaluator() const {
    return [this](const State& s) {
      const double v = std::round(1000 * eval::evaluate<G>(weights_, s, rules_));
      return static_cast<typename Search::Score>(
          std::clamp<double>(v, -Search::kMaxEval, Search::kMaxEval));
    };
  }
  static search::AlphaBetaOptions options(int depth) {
    search::AlphaBetaOptions o;
    o.depth = depth;
    o.tt_size_mb = 64;
    return o;
  }

  eval::Weights weights_;
  Rules rules_;
  Search search_;
};

}  // namespace sp::experiments
