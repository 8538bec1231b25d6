// How experiments/checkers-ballots scores a ballot: the position after it, scored by the shared
// fixed-depth alpha-beta of the opening generators (experiments/common/position_score.hpp) over
// the standard rules. Shared by the generator and the test that re-checks the deck.
#pragma once

#include "experiments/common/position_score.hpp"
#include "games/checkers/ballots.hpp"
#include "games/checkers/game.hpp"

namespace sp::checkers {

// black: Black's score in evaluation units (a man = 100 with classic.yaml).
using BallotScore = experiments::PositionScore;
using experiments::keeps;

class BallotScorer {
 public:
  BallotScorer(const eval::Weights& weights, int depth) : scorer_(weights, Rules{}, depth) {}
  BallotScore score(const Ballot& ballot) { return scorer_.score(ballot_position(ballot)); }

 private:
  experiments::PositionScorer<CheckersGame> scorer_;
};

}  // namespace sp::checkers
