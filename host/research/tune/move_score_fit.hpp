// Fitting a move-score table (the scores a search orders its moves by, such as Gomoku's attack and
// defend entries per pattern code, in its game folder's move_scores.hpp) to the moves played in
// stored games. Each position is a choice among the candidates the search would order there, each
// candidate scored by the sum of its table entries s = sum of w[e], and the model gives the played
// move the probability softmax(s / T) among them: the generalized Bradley-Terry model of move
// patterns (R. Coulom, "Computing Elo Ratings of Move Patterns in the Game of Go", 2007). T is
// fitted once with the initial table (as Texel's K, texel.hpp), then frozen; the table is fitted
// by minimising the mean negative log-likelihood of the played moves plus
// l2 * sum over tuned entries of ((w - w0) / T)^2, which holds entries the data rarely see near
// their prior. The search orders by the entries rounded to integers, and so do the reported
// ranks.
//
// Pure computation on data in memory: no files, no printing. Deterministic: sums run over fixed
// blocks of choices (on OpenMP threads when the data set is large), added in block order.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace sp::tune {

// Choices: for each, its candidates' table entries (two per candidate, -1 for none), which
// candidate was played, and the game it comes from (a key as Positions::games).
struct MoveChoices {
  std::vector<uint32_t> first{0};  // choice c's candidates: first[c] .. first[c + 1] - 1
  std::vector<int32_t> entries;    // 2 per candidate
  std::vector<uint32_t> played;    // per choice: the played candidate, counted from first[c]
  std::vector<uint64_t> games;     // per choice

  size_t size() const { return played.size(); }
  size_t candidates() const { return entries.size() / 2; }
  // Appends a choice. Precondition: played < candidates.size().
  void add(std::span<const std::array<int32_t, 2>> candidates, uint32_t played, uint64_t game);
  // Appends choice i of other.
  void append(const MoveChoices& other, size_t i);
};

struct ChoiceSplit {
  MoveChoices train, validation;
};
// Each choice to train or validation by in_validation(game, seed, fraction) (texel.hpp), so
// that every choice of a game lands on the same side.
ChoiceSplit split_choices_by_game(const MoveChoices& c, double fraction, uint64_t seed);

// How well a table predicts the played moves: the mean negative log-likelihood at temperature t,
// and where the search would order the played move with the table rounded to integers (best
// first, ties in candidate order): first, or among the first five.
struct ChoiceStats {
  double loss = 0;
  double top1 = 0, top5 = 0;  // shares of the choices
};
// Precondition: c.size() > 0, every entry of c below w.size(), t > 0.
ChoiceStats choice_stats(const MoveChoices& c, const std::vector<double>& w, double t);

struct TemperatureFit {
  double t = 0;
  double loss = 0;           // mean loss at t
  bool at_boundary = false;  // the best t is within 0.1% (log scale) of an end of the range
};
// The T minimising the mean loss of the table w on [lo, hi] (golden-section search on log T).
// Throws sp::InputError when w gives every candidate of every choice the same score.
TemperatureFit fit_temperature(const MoveChoices& c, const std::vector<double>& w, double lo,
                               double hi);

struct MoveScoreFitOptions {
  double learning_rate = 0.05;  // Adam's step, in units of w / T
  int epochs = 200;             // full-batch passes; one step each
  double l2 = 1e-4;             // adds l2 * sum over tuned entries of ((w - w0) / T)^2
  int report_every = 10;        // epochs between history entries (the first and last always)
  std::vector<bool> tuned;      // per entry; empty = all
  double bound = 1e6;           // |w| at most this
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_epsilon = 1e-8;
};

struct MoveScoreEpoch {
  int epoch = 0;                  // 0 = before the first step
  ChoiceStats train, validation;  // validation: NaN losses without validation choices
};

struct MoveScoreFitResult {
  std::vector<double> weights;          // an entry no step moved keeps its initial value exactly
  std::vector<MoveScoreEpoch> history;  // epoch 0, every report_every-th epoch, and the last
  double objective_before = 0, objective_after = 0;  // training loss plus the L2 term
  std::vector<uint64_t> seen;  // per entry: the training candidates that carry it
  std::string diverged;        // empty, or why the fit failed (as TexelResult::diverged)
};

// Fits the tuned entries with T frozen. Preconditions: train.size() > 0, t > 0, every entry of
// the choices below w0.size().
MoveScoreFitResult fit_move_scores(
    const MoveChoices& train, const MoveChoices& validation, const std::vector<double>& w0,
    double t, const MoveScoreFitOptions& options,
    const std::function<void(const MoveScoreEpoch&)>& on_report = {});

}  // namespace sp::tune
