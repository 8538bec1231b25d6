// How experiments/checkers-ballots scores a ballot: our alpha-beta (host/search/alphabeta.hpp)
// from the ballot's position to a fixed depth, with a fresh transposition table so that the score
// is a function of the ballot, the weights and the depth alone, evaluated as the alphabeta engine
// of a campaign evaluates (host/selfplay/driver.hpp: 1/1000 of an evaluation unit). Shared by the
// generator and the test that re-checks the shipped deck.
#pragma once

#include <algorithm>
#include <cmath>

#include "games/checkers/ballots.hpp"
#include "games/checkers/game.hpp"
#include "host/eval/weights.hpp"
#include "host/search/alphabeta.hpp"

namespace sp::checkers {

struct BallotScore {
  double black = 0;     // Black's score in evaluation units (a man = 100 with classic.yaml)
  bool proven = false;  // the search found a won or lost game (black is then +-1e9)
  int depth = 0;        // the depth completed
  uint64_t nodes = 0;
};

// The generator's rule: a ballot is kept unless its score says one side is lost.
inline bool keeps(const BallotScore& s, double threshold) {
  return !s.proven && std::abs(s.black) <= threshold;
}

class BallotScorer {
 public:
  using Search = search::AlphaBeta<CheckersGame>;

  BallotScorer(const eval::Weights& weights, int depth)
      : weights_(weights), search_(evaluator(), Rules{}, options(depth)) {}
  BallotScorer(const BallotScorer&) = delete;  // the search's evaluator points at weights_
  BallotScorer& operator=(const BallotScorer&) = delete;

  BallotScore score(const Ballot& ballot) {
    search_.clear();
    const Search::Stats st = search_.search(ballot_position(ballot));
    BallotScore out;
    out.proven = st.proven;
    // White is to move after three plies: Black's score is the negated value (0, not -0).
    out.black = st.proven ? (st.value < 0 ? 1e9 : -1e9) : 0.0 - st.value / 1000.0;
    out.depth = st.depth;
    out.nodes = st.nodes;
    return out;
  }

 private:
  Search::Evaluator evaluator() const {
    return [this](const State& s) {
      const double v = std::round(1000 * eval::evaluate<CheckersGame>(weights_, s, Rules{}));
      return static_cast<Search::Score>(std::clamp<double>(v, -Search::kMaxEval, Search::kMaxEval));
    };
  }
  static search::AlphaBetaOptions options(int depth) {
    search::AlphaBetaOptions o;
    o.depth = depth;
    o.tt_size_mb = 64;
    return o;
  }

  eval::Weights weights_;
  Search search_;
};

}  // namespace sp::checkers
