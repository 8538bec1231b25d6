// Texel tuning of a linear evaluation (chessprogramming.org, "Texel's Tuning Method"): positions
// with their game results R in {0, 1/2, 1} from the side to move's view, the model
// p = sigmoid(K * w . x), K fitted once with the initial weights and then frozen, w fitted by
// minimising the mean squared error (R - p)^2 or the log loss with Adam or gradient descent.
//
// Pure computation on data in memory: no files, no printing. Deterministic: sums run over fixed
// blocks of positions (on OpenMP threads when the data set is large) and the block sums are added
// in block order, so results do not depend on the thread count.
//
// The optimiser works on the logit-scale weights u = K * w, so its learning rate, the L2 penalty
// and its stopping behaviour do not depend on the scale the evaluation is written in
// (centipawn-like hundreds or fractions of one); the weights handed back are u / K, in the initial
// weights' scale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace sp::tune {

// Training positions: row-major features, one result and one game key per row.
struct Positions {
  size_t num_features = 0;
  std::vector<float> features;  // size() * num_features values
  std::vector<float> results;   // in [0, 1]: 1 win, 0 loss, 0.5 draw for the side to move
  std::vector<uint64_t> games;  // which game each row comes from (any 64-bit key)

  size_t size() const { return results.size(); }
  const float* row(size_t i) const { return features.data() + i * num_features; }
  // Appends row i of other. Precondition: other.num_features == num_features.
  void append(const Positions& other, size_t i);
};

enum class Loss { kMse, kLogLoss };
enum class Optimizer { kAdam, kGd };
enum class KSearch { kGolden, kGrid };

// Mean loss of sigmoid(k * w . x) against the results. Precondition: w.size() == num_features,
// p.size() > 0.
double mean_loss(const Positions& p, const std::vector<double>& w, double k, Loss loss);

// ---- split by game

// Whether a game goes to the validation set: a hash of (game, seed) mapped to [0, 1) is below
// fraction. Every position of a game lands on the same side; the choice depends on nothing else.
bool in_validation(uint64_t game, uint64_t seed, double fraction);

struct Split {
  Positions train, validation;
};
// Moves every row of p into train or validation by in_validation(p.games[i], seed, fraction).
Split split_by_game(Positions p, double fraction, uint64_t seed);

// Distinct game keys in p.
size_t count_games(const Positions& p);

// ---- K

struct KFitOptions {
  double lo = 1e-5, hi = 10;  // search range, 0 < lo < hi; searched on a log scale
  KSearch method = KSearch::kGolden;
  int grid_points = 100;    // grid: log-spaced points from lo to hi, the best one wins
  double tolerance = 1e-6;  // golden: stop when hi / lo of the bracket is below 1 + tolerance
};

struct KFit {
  double k = 0;
  double loss = 0;           // mean loss at k
  bool at_boundary = false;  // the best K is at (or within one grid step of) an end of the range
};

// The K minimising mean_loss(p, w, K, loss) on [lo, hi]. Golden-section search assumes one
// minimum in the range. Throws sp::InputError when w scores every position 0 (any K fits).
KFit fit_k(const Positions& p, const std::vector<double>& w, Loss loss, const KFitOptions& options);

// ---- weights

struct TexelOptions {
  Loss loss = Loss::kMse;
  Optimizer optimizer = Optimizer::kAdam;
  double learning_rate = 0.01;  // in logit units (K * w) per step
  int epochs = 300;             // full-batch passes; one optimiser step each
  double l2 = 0;                // adds l2 * sum over tuned i of (K * w_i)^2 to the training loss
  int report_every = 10;        // epochs between history entries (the first and last always)
  std::vector<bool> tuned;      // per weight; empty = all
  // Per weight, in the weights' own units; empty = unbounded. Weights outside their bounds at the
  // start are clipped into them first.
  std::vector<double> lower, upper;
  double adam_beta1 = 0.9, adam_beta2 = 0.999, adam_epsilon = 1e-8;
};

struct EpochReport {
  int epoch = 0;               // 0 = before the first step
  double train_loss = 0;       // mean data loss (without the L2 term)
  double validation_loss = 0;  // NaN without validation positions
};

struct TexelResult {
  std::vector<double> weights;
  std::vector<EpochReport> history;  // epoch 0, every report_every-th epoch, and the last
  EpochReport before, after;
  // The minimised objective (training loss plus the L2 term) at the start and at the end.
  double objective_before = 0, objective_after = 0;
  // Empty, or why the fit failed: a loss that is not finite (the run stops at that epoch, which
  // is then the last of history), or a final objective more than kDivergedRise above its start.
  std::string diverged;
};

// How far the final objective may rise above its start (relative) before the fit counts as
// diverged: the optimiser minimises the objective, so an end above the start means the steps
// were too large (a learning rate too high), not a better fit.
inline constexpr double kDivergedRise = 0.01;

// Why a fit whose objective went from `before` to `after` over `epochs` epochs diverged: "" when
// it did not (after at most kDivergedRise above before), else a sentence saying so.
std::string objective_rise(double before, double after, int epochs);

// The minimum of f on [a, b] by golden-section search (one new point per step), narrowing the
// bracket until it is at most `tolerance` wide; assumes one minimum in the range.
struct GoldenMinimum {
  double x = 0, value = 0;
};
GoldenMinimum golden_minimum(const std::function<double(double)>& f, double a, double b,
                             double tolerance);

// Fits the tuned weights by minimising the training loss (plus L2) with K frozen; untuned weights
// keep their values. on_report is called for every history entry as it is made. Sets diverged
// when the fit failed (the weights are then whatever the last step left). Preconditions:
// train.size() > 0, w0.size() == train.num_features, k > 0, validation empty or of the same width.
TexelResult tune_weights(const Positions& train, const Positions& validation,
                         const std::vector<double>& w0, double k, const TexelOptions& options,
                         const std::function<void(const EpochReport&)>& on_report = {});

}  // namespace sp::tune
