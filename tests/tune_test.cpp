// Weight tuning: on data drawn from known weights (results ~ Bernoulli(sigmoid(K w . x)) with a
// fixed generator) the K fit recovers K and Texel tuning recovers the weights; the validation
// split is by game; losses decrease; bounds hold; configs and inputs fail with clear errors; the
// written weights file loads back exactly; `selfplay run` then `selfplay tune` works end to end.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <omp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/game.hpp"
#include "games/games.hpp"
#include "games/gomoku/game.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/research/tune/dataset.hpp"
#include "host/research/tune/game_features.hpp"
#include "host/research/tune/texel.hpp"
#include "host/research/tune/tune_config.hpp"
#include "host/research/tune/tune_run.hpp"
#include "tests/games/tictactoe/game.hpp"
#include "tests/test_util.hpp"

namespace sp::tune {
namespace {

namespace fs = std::filesystem;

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// Positions with features uniform in [0, 4), `per_game` rows per game, results (win or loss) drawn
// from sigmoid(k * w . x).
Positions synthetic(const std::vector<double>& w, double k, size_t games, size_t per_game,
                    uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Positions p;
  p.num_features = w.size();
  for (size_t g = 0; g < games; ++g)
    for (size_t i = 0; i < per_game; ++i) {
      double z = 0;
      for (const double wj : w) {
        const auto x = static_cast<float>(4 * uniform());
        p.features.push_back(x);
        z += wj * x;
      }
      p.results.push_back(uniform() < sigmoid(k * z) ? 1.0f : 0.0f);
      p.games.push_back(1000 + g);
    }
  return p;
}

// Logit-scale weights that give results from rare to frequent wins, on an evaluation scale of
// "hundreds" (K small), like the shipped weights files.
const std::vector<double> kTrueW = {150, -80, 40, -60, 0};
constexpr double kTrueK = 0.004;

TEST(TexelK, GoldenAndGridRecoverKWithTheTrueWeights) {
  const Positions p = synthetic(kTrueW, kTrueK, 4000, 8, 11);
  for (const Loss loss : {Loss::kMse, Loss::kLogLoss}) {
    KFitOptions golden{1e-5, 1, KSearch::kGolden};
    const KFit a = fit_k(p, kTrueW, loss, golden);
    EXPECT_NEAR(a.k / kTrueK, 1, 0.05) << "golden, loss " << int(loss);
    EXPECT_FALSE(a.at_boundary);
    KFitOptions grid{1e-5, 1, KSearch::kGrid, 200};
    const KFit b = fit_k(p, kTrueW, loss, grid);
    EXPECT_NEAR(b.k / kTrueK, 1, 0.06) << "grid, loss " << int(loss);
    EXPECT_NEAR(b.loss, mean_loss(p, kTrueW, b.k, loss), 1e-12);
    // The fit is a minimum: K a little off either way scores worse.
    EXPECT_LT(a.loss, mean_loss(p, kTrueW, a.k * 1.2, loss));
    EXPECT_LT(a.loss, mean_loss(p, kTrueW, a.k / 1.2, loss));
  }
}

TEST(TexelK, AtTheEndOfATooNarrowRangeIsFlagged) {
  const Positions p = synthetic(kTrueW, kTrueK, 500, 8, 12);
  const KFit fit = fit_k(p, kTrueW, Loss::kMse, {1e-5, 1e-3, KSearch::kGolden});
  EXPECT_TRUE(fit.at_boundary);
  EXPECT_NEAR(fit.k, 1e-3, 1e-5);
}

TEST(TexelK, ZeroWeightsCannotFitK) {
  const Positions p = synthetic(kTrueW, kTrueK, 10, 4, 13);
  EXPECT_THROW(fit_k(p, std::vector<double>(kTrueW.size(), 0.0), Loss::kMse, {}), InputError);
}

TEST(Texel, RecoversTheWeightsFromAnotherStart) {
  const Split s = split_by_game(synthetic(kTrueW, kTrueK, 4000, 8, 21), 0.2, 5);
  const std::vector<double> w0 = {100, -100, 100, -20, 30};
  for (const Loss loss : {Loss::kMse, Loss::kLogLoss}) {
    const double k = fit_k(s.train, w0, loss, {}).k;
    TexelOptions o;
    o.loss = loss;
    o.learning_rate = 0.03;
    o.epochs = 500;
    o.report_every = 50;
    const TexelResult r = tune_weights(s.train, s.validation, w0, k, o);
    // K is frozen at the initial weights' fit, so the logit-scale weights K * w are what the data
    // determines: compare those.
    for (size_t j = 0; j < kTrueW.size(); ++j)
      EXPECT_NEAR(k * r.weights[j], kTrueK * kTrueW[j], 0.04)
          << "weight " << j << " loss " << int(loss);
    EXPECT_LT(r.after.train_loss, r.before.train_loss - 0.01);
    EXPECT_LT(r.after.validation_loss, r.before.validation_loss - 0.01);
    ASSERT_EQ(r.history.size(), 500u / 50 + 1);
    EXPECT_EQ(r.history.front().epoch, 0);
    EXPECT_EQ(r.history.back().epoch, 500);
    for (size_t i = 1; i < r.history.size(); ++i)
      EXPECT_LE(r.history[i].train_loss, r.history[i - 1].train_loss + 1e-12)
          << "epoch " << r.history[i].epoch;
  }
}

TEST(Texel, StartingAtTheTruthStaysThereInTheWeightsUnits) {
  const Positions p = synthetic(kTrueW, kTrueK, 4000, 8, 22);
  const double k = fit_k(p, kTrueW, Loss::kMse, {}).k;
  TexelOptions o;
  o.epochs = 200;
  const TexelResult r = tune_weights(p, Positions{}, kTrueW, k, o);
  for (size_t j = 0; j < kTrueW.size(); ++j)
    EXPECT_NEAR(r.weights[j], kTrueW[j], 12) << "weight " << j;
  EXPECT_TRUE(std::isnan(r.after.validation_loss));
  EXPECT_LE(r.after.train_loss, r.before.train_loss);
}

TEST(Texel, GradientDescentAlsoDecreasesTheLoss) {
  const Positions p = synthetic(kTrueW, kTrueK, 2000, 8, 23);
  const std::vector<double> w0 = {100, -100, 100, -20, 30};
  const double k = fit_k(p, w0, Loss::kLogLoss, {}).k;
  TexelOptions o;
  o.optimizer = Optimizer::kGd;
  o.loss = Loss::kLogLoss;
  o.learning_rate = 0.05;
  o.epochs = 200;
  const TexelResult r = tune_weights(p, Positions{}, w0, k, o);
  EXPECT_LT(r.after.train_loss, r.before.train_loss - 0.005);
  for (size_t i = 1; i < r.history.size(); ++i)
    EXPECT_LE(r.history[i].train_loss, r.history[i - 1].train_loss + 1e-12);
}

TEST(Texel, BoundsHoldAndUntunedWeightsStay) {
  const Positions p = synthetic(kTrueW, kTrueK, 1500, 8, 24);
  const std::vector<double> w0 = {100, -100, 100, -20, 30};
  const double k = fit_k(p, w0, Loss::kMse, {}).k;
  TexelOptions o;
  o.epochs = 250;
  o.learning_rate = 0.05;
  o.tuned = {true, true, true, false, true};
  o.lower = {-1e6, -1e6, 50, -1e6, -1e6};
  o.upper = {90, 1e6, 1e6, 1e6, 1e6};  // the free optimum of weight 0 is far above 90
  const TexelResult r = tune_weights(p, Positions{}, w0, k, o);
  EXPECT_EQ(r.weights[0], 90);
  EXPECT_GE(r.weights[2], 50);
  EXPECT_EQ(r.weights[3], w0[3]);  // exactly: untuned weights are copied, never rescaled
  // Clipped at the start too: a start outside the bounds is moved inside before the first step.
  o.epochs = 0;
  EXPECT_EQ(tune_weights(p, Positions{}, w0, k, o).weights[0], 90);
}

TEST(Texel, L2ShrinksTheWeights) {
  const Positions p = synthetic(kTrueW, kTrueK, 1000, 8, 25);
  const double k = fit_k(p, kTrueW, Loss::kMse, {}).k;
  TexelOptions o;
  o.epochs = 150;
  const TexelResult free = tune_weights(p, Positions{}, kTrueW, k, o);
  o.l2 = 0.05;
  const TexelResult shrunk = tune_weights(p, Positions{}, kTrueW, k, o);
  double a = 0, b = 0;
  for (size_t j = 0; j < kTrueW.size(); ++j)
    a += std::abs(free.weights[j]), b += std::abs(shrunk.weights[j]);
  EXPECT_LT(b, 0.9 * a);
}

TEST(Texel, DivergenceIsReported) {
  const Positions p = synthetic(kTrueW, kTrueK, 1000, 8, 27);
  const std::vector<double> w0 = {100, -100, 100, -20, 30};
  const double k = fit_k(p, w0, Loss::kMse, {}).k;
  TexelOptions o;
  o.epochs = 50;
  const TexelResult fine = tune_weights(p, Positions{}, w0, k, o);
  EXPECT_EQ(fine.diverged, "");
  EXPECT_LT(fine.objective_after, fine.objective_before);
  // Gradient steps far too large: the weights jump to the bounds and the loss ends above its start.
  o.optimizer = Optimizer::kGd;
  o.learning_rate = 1000;
  o.lower.assign(w0.size(), -1e6);
  o.upper.assign(w0.size(), 1e6);
  const TexelResult wild = tune_weights(p, Positions{}, w0, k, o);
  EXPECT_GT(wild.objective_after, wild.objective_before * (1 + kDivergedRise));
  EXPECT_EQ(wild.diverged.rfind("the training objective (loss plus L2) rose from ", 0), 0u)
      << wild.diverged;
  // A loss that is not finite stops the run at once. Loaded data cannot cause one (features are
  // finite and weights bounded), so an infinite feature stands in for whatever might.
  Positions huge = p;
  huge.features[3] = std::numeric_limits<float>::infinity();
  o = TexelOptions{};
  o.epochs = 50;
  const TexelResult broken = tune_weights(huge, Positions{}, w0, k, o);
  EXPECT_EQ(broken.diverged.rfind("the training loss is ", 0), 0u) << broken.diverged;
  EXPECT_LT(broken.history.back().epoch, 50);
  EXPECT_FALSE(std::isfinite(broken.after.train_loss));
}

TEST(Texel, DeterministicWhateverTheThreadCount) {
  const Positions p = synthetic(kTrueW, kTrueK, 30000, 8, 26);  // enough to run in parallel
  const std::vector<double> w0 = {100, -100, 100, -20, 30};
  TexelOptions o;
  o.epochs = 20;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const double k1 = fit_k(p, w0, Loss::kMse, {}).k;
  const std::vector<double> a = tune_weights(p, Positions{}, w0, k1, o).weights;
  omp_set_num_threads(3);
  const double k3 = fit_k(p, w0, Loss::kMse, {}).k;
  const std::vector<double> b = tune_weights(p, Positions{}, w0, k3, o).weights;
  omp_set_num_threads(threads);
  EXPECT_EQ(k1, k3);
  EXPECT_EQ(a, b);  // bit for bit
}

TEST(Split, ByGameNeverByPosition) {
  const Positions p = synthetic(kTrueW, kTrueK, 1000, 7, 31);
  const Split s = split_by_game(p, 0.25, 99);
  EXPECT_EQ(s.train.size() + s.validation.size(), p.size());
  std::set<uint64_t> train(s.train.games.begin(), s.train.games.end());
  std::set<uint64_t> valid(s.validation.games.begin(), s.validation.games.end());
  for (const uint64_t g : valid) EXPECT_EQ(train.count(g), 0u) << "game " << g << " on both sides";
  EXPECT_EQ(train.size() + valid.size(), 1000u);
  EXPECT_EQ(s.validation.size(), valid.size() * 7);  // whole games
  EXPECT_NEAR(static_cast<double>(valid.size()) / 1000, 0.25, 0.05);
  EXPECT_EQ(count_games(s.validation), valid.size());
  // Rows travel with their features and results.
  for (size_t i = 0; i < s.validation.size(); ++i) {
    const uint64_t g = s.validation.games[i];
    const size_t first = (g - 1000) * 7;
    bool found = false;
    for (size_t r = first; r < first + 7 && !found; ++r)
      found = std::equal(p.row(r), p.row(r) + p.num_features, s.validation.row(i)) &&
              p.results[r] == s.validation.results[i];
    EXPECT_TRUE(found) << "validation row " << i;
  }
  // Deterministic in (game, seed); another seed gives another split.
  EXPECT_EQ(split_by_game(p, 0.25, 99).validation.games, s.validation.games);
  EXPECT_NE(split_by_game(p, 0.25, 100).validation.games, s.validation.games);
  EXPECT_EQ(split_by_game(p, 0, 99).validation.size(), 0u);
}

// ---- configs

using test::TempDir;

std::vector<std::string> names_of(const std::vector<FeatureName>& features) {
  std::vector<std::string> out;
  for (const FeatureName& f : features) out.push_back(f.name);
  return out;
}

std::string error_of(const std::string& yaml) {
  try {
    load_tune_config_text(yaml, "t.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TuneConfig, ShippedConfigLoadsAndExplainReadsBack) {
  const TuneConfig c =
      load_tune_config(std::string(SELFPLAY_SOURCE_DIR) + "/configs/ewn/tune.yaml");
  EXPECT_EQ(c.method, Method::kTexel);
  ASSERT_EQ(c.data.inputs.size(), 1u);
  EXPECT_EQ(c.data.inputs[0].pattern, "out/*.h5");
  EXPECT_TRUE(c.weights.tune.empty());
  const TuneConfig d = load_tune_config_text(explain_tune_config(c), "explained.yaml");
  EXPECT_EQ(d.data.inputs, c.data.inputs);
  EXPECT_EQ(d.weights.initial, c.weights.initial);
  EXPECT_EQ(d.texel.learning_rate, c.texel.learning_rate);
  EXPECT_EQ(d.k.min, c.k.min);
}

TEST(TuneConfig, ListsMapsAndTheirRoundTrip) {
  const TuneConfig c = load_tune_config_text(R"(
data: {inputs: [a.h5, "b/*.h5"], validation_fraction: 0.2, positions_per_game: 3}
weights:
  tune: [own_cubes, opp_cubes, own_dist_sum]
  bounds: {own_cubes: [0, 500], opp_cubes: [-500, 0.5]}
k: {method: grid, min: 0.001, max: 0.1, grid_points: 50}
texel: {optimizer: gd, loss: logloss, learning_rate: 0.5, epochs: 7, l2: 0.001, report_every: 2}
seed: 0x10
)",
                                             "t.yaml");
  ASSERT_EQ(c.data.inputs.size(), 2u);
  EXPECT_EQ(c.data.inputs[1].pattern, "b/*.h5");
  EXPECT_EQ(c.data.inputs[1].at.line, 2);
  EXPECT_EQ(names_of(c.weights.tune),
            (std::vector<std::string>{"own_cubes", "opp_cubes", "own_dist_sum"}));
  EXPECT_EQ(c.weights.tune[2].at.line, 4);
  EXPECT_EQ(c.weights.bounds.at("opp_cubes").lo, -500.0);
  EXPECT_EQ(c.weights.bounds.at("opp_cubes").hi, 0.5);
  EXPECT_EQ(c.k.method, KSearch::kGrid);
  EXPECT_EQ(c.texel.optimizer, Optimizer::kGd);
  EXPECT_EQ(c.texel.loss, Loss::kLogLoss);
  EXPECT_EQ(c.seed, 16u);
  const TuneConfig d = load_tune_config_text(explain_tune_config(c), "explained.yaml");
  EXPECT_EQ(d.data.inputs, c.data.inputs);
  EXPECT_EQ(d.weights.tune, c.weights.tune);
  EXPECT_EQ(d.weights.bounds, c.weights.bounds);
  EXPECT_EQ(d.texel.l2, c.texel.l2);
  // A single path is a one-item list.
  EXPECT_EQ(load_tune_config_text("data: {inputs: x.h5}\n", "t.yaml").data.inputs.size(), 1u);
}

TEST(TuneConfig, ErrorsNameFileLineAndKey) {
  const std::string in = "data: {inputs: [x.h5]}\n";
  EXPECT_EQ(error_of("seed: 1\n"),
            "t.yaml:1:1: key 'data.inputs': missing: list at least one campaign HDF5 file or glob");
  EXPECT_EQ(error_of(in + "method: spsa\n"),
            "t.yaml:1:1: key 'spsa.parameters': missing: list at least one parameter to tune");
  EXPECT_EQ(error_of("method: spsa\nspsa: {parameters: [{name: x, start: 0, min: 0, max: 1}]}\n"),
            "t.yaml:2:7: key 'spsa.match': missing: the match config whose engines.player0 is "
            "tuned");
  EXPECT_EQ(
      error_of(in + "method: spsx\n"),
      "t.yaml:2:9: key 'method': must be one of texel, spsa; found 'spsx', did you mean 'spsa'?");
  EXPECT_EQ(error_of("data: {inputs: [x.h5], validaton_fraction: 0.2}\n"),
            "t.yaml:1:24: key 'data.validaton_fraction': unknown key, did you mean "
            "'validation_fraction'?");
  EXPECT_EQ(error_of("data: {inputs: []}\n"),
            "t.yaml:1:16: key 'data.inputs': empty list: give at least one HDF5 file or glob");
  // move_scores: only for a game with a table, and only its entries.
  EXPECT_EQ(error_of(in + "game: ewn\nmove_scores: {fit: true}\n"),
            "t.yaml:3:20: key 'move_scores.fit': ewn has no move-score table (only Gomoku's "
            "pattern search has one)");
  EXPECT_EQ(
      error_of(in + "game: gomoku\nmove_scores: {fit: true, tune: [attack_6000, atack_6000]}\n"),
      "t.yaml:3:46: key 'move_scores.tune': unknown entry \"atack_6000\", did you mean "
      "'attack_6000'?");
  EXPECT_EQ(error_of(in + "game: gomoku\nmove_scores: {fit: true, tune: [\"defend_9*\"]}\n"),
            "t.yaml:3:33: key 'move_scores.tune': the pattern \"defend_9*\" selects no entry of "
            "the move-score table of gomoku (attack_DDDD and defend_DDDD per pattern code)");
  EXPECT_EQ(error_of(in + "game: gomoku\nmove_scores: {fit: true, tune: [\"defend_*\"]}\n"),
            "(no error)");
  EXPECT_EQ(error_of(in + "move_scores: {fit: yes please}\n"),
            "t.yaml:2:20: key 'move_scores.fit': expected true or false, found 'yes please'");
  // With a game: key, feature names are checked as the config is read (else once the inputs say
  // which game it is: TuneRun.FeaturesAreTheInputsGames).
  const std::string ewn = "game: ewn\n";
  EXPECT_EQ(
      error_of(in + "weights: {tune: [own_cubes, own_cube]}\n" + ewn),
      "t.yaml:2:29: key 'weights.tune': unknown feature \"own_cube\", did you mean 'own_cubes'?");
  EXPECT_EQ(error_of(in + "weights: {tune: [own_cubes, own_cube]}\n"), "(no error)");
  EXPECT_EQ(
      error_of(in + "weights: {tune: [zzz_zzz]}\n" + ewn)
          .rfind("t.yaml:2:18: key 'weights.tune': unknown feature \"zzz_zzz\"; the features of "
                 "ewn: own_cubes, opp_cubes, ",
                 0),
      0u);
  // Patterns: * any characters, ? one; one that selects nothing is refused at its line.
  EXPECT_EQ(error_of(in + "weights: {tune: [own_*, \"opp_c?bes\"]}\n" + ewn), "(no error)");
  EXPECT_EQ(error_of(in + "weights: {tune: [own_*], bounds: {own_cubes: [0, 1]}}\n" + ewn),
            "(no error)");
  EXPECT_EQ(error_of(in + "weights: {tune: [own_*], bounds: {opp_cubes: [0, 1]}}\n" + ewn),
            "t.yaml:2:35: key 'weights.bounds.opp_cubes': bounds for 'opp_cubes', which "
            "weights.tune does not select");
  EXPECT_EQ(error_of(in + "weights: {tune: [own_cubes, man_*]}\n" + ewn),
            "t.yaml:2:29: key 'weights.tune': the pattern \"man_*\" selects none of the features "
            "of ewn");
  EXPECT_EQ(error_of(in + "game: ewm\n"),
            "t.yaml:2:7: key 'game': unknown game 'ewm' (did you mean 'ewn'?); known games: " +
                game_names_text());
  EXPECT_EQ(error_of(in + "weights: {tune: [own_cubes, own_cubes]}\n"),
            "t.yaml:2:29: key 'weights.tune': feature 'own_cubes' is listed twice");
  EXPECT_EQ(error_of(in + "weights: {tune: []}\n"),
            "t.yaml:2:17: key 'weights.tune': empty list: name at least one feature, or write all");
  // data.skip_positions_with: names and patterns as weights.tune, but all makes no sense.
  EXPECT_EQ(error_of("data: {inputs: [x.h5], skip_positions_with: [own_cube]}\n" + ewn),
            "t.yaml:1:46: key 'data.skip_positions_with': unknown feature \"own_cube\", did you "
            "mean 'own_cubes'?");
  EXPECT_EQ(error_of("data: {inputs: [x.h5], skip_positions_with: all}\n"),
            "t.yaml:1:45: key 'data.skip_positions_with': all would leave no position: name the "
            "features whose positions to skip");
  EXPECT_EQ(error_of("data: {inputs: [x.h5], skip_positions_with: [own_*, opp_cubes]}\n" + ewn),
            "(no error)");
  EXPECT_EQ(error_of("data: {inputs: [x.h5], skip_positions_with: []}\n" + ewn), "(no error)");
  EXPECT_EQ(error_of(in + "weights: {bounds: {own_cubez: [0, 1]}}\n" + ewn),
            "t.yaml:2:20: key 'weights.bounds.own_cubez': unknown feature \"own_cubez\", did you "
            "mean 'own_cubes'?");
  EXPECT_EQ(error_of(in + "weights: {bounds: {own_cubes: [2, 1]}}\n"),
            "t.yaml:2:31: key 'weights.bounds.own_cubes': lower bound 2.0 exceeds upper bound 1.0");
  EXPECT_EQ(error_of(in + "weights: {bounds: {own_cubes: 3}}\n"),
            "t.yaml:2:31: key 'weights.bounds.own_cubes': expected [lo, hi], two numbers");
  EXPECT_EQ(error_of(in + "weights: {bounds: {own_cubes: [0, .nan]}}\n"),
            "t.yaml:2:35: key 'weights.bounds.own_cubes': expected a number, found '.nan'");
  EXPECT_EQ(error_of(in + "weights:\n  tune: [opp_cubes]\n  bounds: {own_cubes: [0, 1]}\n"),
            "t.yaml:4:12: key 'weights.bounds.own_cubes': bounds for 'own_cubes', which "
            "weights.tune does not select");
  EXPECT_EQ(error_of(in + "k: {min: 0.5, max: 0.1}\n"),
            "t.yaml:2:20: key 'k.max': must exceed k.min (0.5), found 0.1");
  EXPECT_EQ(error_of(in + "data: {validation_fraction: 1}\n"),
            "t.yaml:2:1: key 'data': duplicate key (first set at line 1)");
  EXPECT_EQ(error_of("data: {inputs: [x.h5], validation_fraction: 1}\n"),
            "t.yaml:1:45: key 'data.validation_fraction': must be in [0, 1), found 1");
  EXPECT_EQ(error_of(in + "texel: {learning_rate: 0}\n"),
            "t.yaml:2:24: key 'texel.learning_rate': must be in (0, 1000], found 0");
}

// ---- campaign files

struct SyntheticGame {
  uint64_t id;
  std::vector<io::PositionRow> positions;
  std::vector<float> features;  // positions.size() * F
};

io::FileMeta meta_with(const std::vector<std::string>& names, uint64_t seed = 7) {
  io::FileMeta m;
  m.game = "ewn";
  m.rules = "test";
  m.config_text = "test";
  m.backend = "cpu";
  m.start_time = "2026-01-01T00:00:00Z";
  m.seed = seed;
  m.feature_names = names;
  return m;
}

void write_campaign(const std::string& path, const io::FileMeta& meta,
                    const std::vector<SyntheticGame>& games) {
  io::CampaignWriter w = io::CampaignWriter::create(path, meta);
  for (const SyntheticGame& g : games) {
    io::GameRow row;
    row.game_id = g.id;
    row.seed = meta.seed;
    row.plies = static_cast<uint16_t>(g.positions.size());
    std::vector<io::PositionRow> positions = g.positions;
    for (auto& p : positions) p.game_id = g.id;
    w.append_game(row, {}, positions, g.features);
  }
  w.close();
}

std::vector<std::string> ewn_names() {
  return {ewn::kFeatureNames.begin(), ewn::kFeatureNames.end()};
}

// Games whose positions follow sigmoid(k * w . x) over the EWN features (features uniform in
// [0, 6), not real positions: the statistics are what matters here).
std::vector<SyntheticGame> ewn_games(const std::vector<double>& w, double k, size_t games,
                                     size_t per_game, uint64_t seed, uint64_t first_id = 0) {
  std::mt19937_64 rng(seed);
  const auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<SyntheticGame> out;
  for (size_t g = 0; g < games; ++g) {
    SyntheticGame game{first_id + g, {}, {}};
    for (size_t i = 0; i < per_game; ++i) {
      double z = 0;
      for (const double wj : w) {
        const auto x = static_cast<float>(std::floor(6 * uniform()));
        game.features.push_back(x);
        z += wj * x;
      }
      const float r = uniform() < sigmoid(k * z) ? 1.0f : 0.0f;
      game.positions.push_back({0, static_cast<uint16_t>(i), static_cast<uint8_t>(i % 2), r});
    }
    out.push_back(std::move(game));
  }
  return out;
}

TuneConfig config_for(const std::string& yaml, const std::string& name = "tune.yaml") {
  return load_tune_config_text(yaml, name);
}

std::string input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Dataset, ReadsPositionsInTheWeightsOrderAndCapsPerGame) {
  TempDir dir;
  // The file stores the features in another order; the loader maps them by name.
  const std::vector<std::string> names = {"b", "a", "c"};
  std::vector<SyntheticGame> games;
  for (uint64_t g = 0; g < 5; ++g) {
    SyntheticGame game{g, {}, {}};
    for (uint16_t ply = 0; ply < 10; ++ply) {
      game.positions.push_back({0, ply, 0, ply % 2 ? 1.0f : 0.0f});
      for (float v : {float(g), float(ply), float(g * 100 + ply)})
        game.features.push_back(v);  // b, a, c
    }
    games.push_back(game);
  }
  write_campaign(dir.file("a.h5"), meta_with(names), games);
  const LoadedPositions all = load_positions({dir.file("a.h5")}, {"a", "b", "c"}, 0, 1);
  ASSERT_EQ(all.positions.size(), 50u);
  ASSERT_EQ(all.files.size(), 1u);
  EXPECT_EQ(all.files[0].games, 5u);
  EXPECT_EQ(all.files[0].positions, 50u);
  for (size_t i = 0; i < 50; ++i) {
    const float* x = all.positions.row(i);
    EXPECT_EQ(x[2], x[1] * 100 + x[0]);  // a = ply, b = game
    EXPECT_EQ(all.positions.results[i], static_cast<int>(x[0]) % 2 ? 1.0f : 0.0f);
    EXPECT_EQ(all.positions.games[i], game_key(7, static_cast<uint64_t>(x[1])));
  }
  const LoadedPositions capped = load_positions({dir.file("a.h5")}, {"a", "b", "c"}, 3, 1);
  ASSERT_EQ(capped.positions.size(), 15u);
  std::map<uint64_t, std::set<float>> plies;
  for (size_t i = 0; i < 15; ++i)
    plies[capped.positions.games[i]].insert(capped.positions.row(i)[0]);
  ASSERT_EQ(plies.size(), 5u);
  for (const auto& [g, p] : plies) EXPECT_EQ(p.size(), 3u);
  EXPECT_EQ(load_positions({dir.file("a.h5")}, {"a", "b", "c"}, 3, 1).positions.features,
            capped.positions.features);
  EXPECT_NE(load_positions({dir.file("a.h5")}, {"a", "b", "c"}, 3, 2).positions.features,
            capped.positions.features);
}

// data.skip_positions_with: rows where a named feature is nonzero are left out, before the
// per-game cap draws (else the cap could draw only rows that are then left out).
TEST(Dataset, SkipLeavesOutRowsWithANonzeroFeatureBeforeTheCap) {
  TempDir dir;
  const std::vector<std::string> names = {"a", "b", "c"};
  std::vector<SyntheticGame> games;
  for (uint64_t g = 0; g < 5; ++g) {
    SyntheticGame game{g, {}, {}};
    for (uint16_t ply = 0; ply < 10; ++ply) {
      game.positions.push_back({0, ply, 0, 1.0f});
      for (float v : {float(ply % 4), float(g), 1.0f}) game.features.push_back(v);
    }
    games.push_back(game);
  }
  write_campaign(dir.file("a.h5"), meta_with(names), games);
  // a = ply % 4 is 0 at plies 0, 4, 8: 3 rows a game.
  const LoadedPositions quiet = load_positions({dir.file("a.h5")}, names, 0, 1, {}, {0});
  ASSERT_EQ(quiet.positions.size(), 15u);
  EXPECT_EQ(quiet.files[0].skipped_rows, 35u);
  EXPECT_EQ(quiet.files[0].games, 5u);
  for (size_t i = 0; i < quiet.positions.size(); ++i) EXPECT_EQ(quiet.positions.row(i)[0], 0.0f);
  // The cap draws among the kept rows: 2 of each game's 3.
  const LoadedPositions capped = load_positions({dir.file("a.h5")}, names, 2, 1, {}, {0});
  ASSERT_EQ(capped.positions.size(), 10u);
  for (size_t i = 0; i < capped.positions.size(); ++i) EXPECT_EQ(capped.positions.row(i)[0], 0.0f);
  // Any one nonzero feature of several is enough: b = game leaves game 0 only.
  const LoadedPositions game0 = load_positions({dir.file("a.h5")}, names, 0, 1, {}, {0, 1});
  EXPECT_EQ(game0.positions.size(), 3u);
  EXPECT_EQ(game0.files[0].games, 1u);
  EXPECT_EQ(load_positions({dir.file("a.h5")}, names, 0, 1, {}, {2}).positions.size(), 0u);
  EXPECT_EQ(load_positions({dir.file("a.h5")}, names, 0, 1).files[0].skipped_rows, 0u);
}

// A format-1 campaign (written before format 2) gives its positions as they are, the same ones
// as its format-2 copy.
TEST(Dataset, ReadsFormat1FilesLikeTheirFormat2Copies) {
  TempDir dir;
  const std::string old = test::source_path("tests/data/format1-campaign.h5");
  const std::vector<std::string> names(ewn::kFeatureNames.begin(), ewn::kFeatureNames.end());
  const LoadedPositions a = load_positions({old}, names, 0, 1);
  ASSERT_EQ(a.files.size(), 1u);
  EXPECT_EQ(a.files[0].games, 3u);
  EXPECT_EQ(a.files[0].positions, 55u);
  EXPECT_EQ(a.positions.size(), 55u);
  const std::string copy = dir.file("copy.h5");
  io::convert_to_current(old, copy);
  const LoadedPositions b = load_positions({copy}, names, 0, 1);
  EXPECT_EQ(b.positions.features, a.positions.features);
  EXPECT_EQ(b.positions.results, a.positions.results);
  EXPECT_EQ(b.positions.games, a.positions.games);
}

TEST(Dataset, ErrorsNameTheFileAndWhatIsWrong) {
  TempDir dir;
  const std::vector<std::string> names = {"a", "b"};
  write_campaign(dir.file("other.h5"), meta_with({"a", "x", "y"}), {});
  EXPECT_EQ(input_error([&] { load_positions({dir.file("other.h5")}, names, 0, 1); }),
            dir.file("other.h5") +
                ": the features in /positions/features do not match the weights'; only in the "
                "file: x, y; only in the weights: b");

  SyntheticGame bad{3, {{0, 4, 0, 1.0f}}, {1.0f, std::nanf("")}};
  write_campaign(dir.file("nan.h5"), meta_with(names), {bad});
  EXPECT_EQ(input_error([&] { load_positions({dir.file("nan.h5")}, names, 0, 1); }),
            dir.file("nan.h5") +
                ": /positions row 0 (game 3, ply 4): feature b is nan, not a finite number");

  SyntheticGame bad_result{3, {{0, 4, 0, 2.0f}}, {1.0f, 1.0f}};
  write_campaign(dir.file("result.h5"), meta_with(names), {bad_result});
  EXPECT_EQ(input_error([&] { load_positions({dir.file("result.h5")}, names, 0, 1); }),
            dir.file("result.h5") +
                ": /positions row 0 (game 3, ply 4): result 2.000000 is not in [0, 1] (1 win, 0 "
                "loss, 0.5 draw)");

  EXPECT_EQ(input_error([&] { load_positions({dir.file("missing.h5")}, names, 0, 1); }),
            dir.file("missing.h5") + ": no such file");
  std::ofstream(dir.file("text.h5")) << "not hdf5\n";
  EXPECT_EQ(input_error([&] {
              load_positions({dir.file("text.h5")}, names, 0, 1);
            }).rfind(dir.file("text.h5") + ": not a selfplay campaign file (", 0),
            0u);
  // Valid HDF5, but no campaign in it.
  const hid_t file =
      H5Fcreate(dir.file("plain.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Fclose(file);
  EXPECT_EQ(input_error([&] { load_positions({dir.file("plain.h5")}, names, 0, 1); }),
            "'" + dir.file("plain.h5") + "' is not a selfplay campaign file (no format_version)");
}

TEST(FeaturePatterns, StarsAndQuestionMarks) {
  EXPECT_TRUE(feature_selected("man_open_01", "man_open_01"));
  EXPECT_FALSE(feature_selected("man_open_01", "man_open_011"));
  EXPECT_FALSE(feature_selected("man_open_0", "man_open_01"));
  EXPECT_TRUE(feature_selected("man_*", "man_open_01"));
  EXPECT_TRUE(feature_selected("man_*", "man_"));
  EXPECT_FALSE(feature_selected("man_*", "king_open_01"));
  EXPECT_TRUE(feature_selected("*_end_*", "king_end_32"));
  EXPECT_TRUE(feature_selected("*", "anything"));
  EXPECT_TRUE(feature_selected("king_???_01", "king_end_01"));
  EXPECT_FALSE(feature_selected("king_???_01", "king_open_01"));
  EXPECT_TRUE(feature_selected("a*b*c", "axxbyybzzc"));
  EXPECT_FALSE(feature_selected("a*b*c", "axxbyyczzb"));
  EXPECT_TRUE(is_feature_pattern("man_*"));
  EXPECT_FALSE(is_feature_pattern("man_open_01"));
}

// A file written before features were appended lacks their columns: it reads with them 0 where
// the caller allows it (those features weigh nothing and are not fitted), and is refused
// otherwise.
TEST(Dataset, AFileMayLackAppendedFeaturesThatWeighNothing) {
  TempDir dir;
  write_campaign(dir.file("old.h5"), meta_with({"a", "b"}),
                 {SyntheticGame{1, {{0, 0, 0, 1.0f}, {0, 1, 1, 0.0f}}, {1, 2, 3, 4}}});
  const std::vector<std::string> names = {"a", "b", "c"};
  const LoadedPositions p = load_positions({dir.file("old.h5")}, names, 0, 1, {false, false, true});
  ASSERT_EQ(p.positions.size(), 2u);
  EXPECT_EQ(p.positions.features, (std::vector<float>{1, 2, 0, 3, 4, 0}));
  EXPECT_EQ(input_error([&] { load_positions({dir.file("old.h5")}, names, 0, 1); }),
            dir.file("old.h5") +
                ": the features in /positions/features do not match the weights'; only in the "
                "weights: c");
  EXPECT_EQ(input_error([&] {
              load_positions({dir.file("old.h5")}, names, 0, 1, {false, true, false});
            }),
            dir.file("old.h5") +
                ": the features in /positions/features do not match the weights'; only in the "
                "weights: c");
}

TEST(Dataset, GlobsExpandInOrderOnceEachAndMustMatch) {
  TempDir dir;
  for (const char* name : {"b.h5", "a.h5", "c.txt"}) std::ofstream(dir.file(name)) << "x";
  const TuneConfig c = config_for("data:\n  inputs:\n    - " + dir.file("*.h5") + "\n    - " +
                                  dir.file("a.h5") + "\n");
  EXPECT_EQ(expand_inputs(c), (std::vector<std::string>{dir.file("a.h5"), dir.file("b.h5")}));
  const TuneConfig none = config_for("data:\n  inputs:\n    - " + dir.file("a.h5") + "\n    - " +
                                     dir.file("z*.h5") + "\n");
  EXPECT_EQ(input_error([&] { expand_inputs(none); }),
            "tune.yaml:4:7: key 'data.inputs': '" + dir.file("z*.h5") + "' matches no file");
  const TuneConfig missing = config_for("data: {inputs: [" + dir.file("nope.h5") + "]}\n");
  EXPECT_EQ(input_error([&] { expand_inputs(missing); }),
            "tune.yaml:1:17: key 'data.inputs': no such file: " + dir.file("nope.h5"));
  // A pattern is quoted escaped and cut, whatever it holds.
  for (const std::string tail : {"", "*"}) {
    const TuneConfig odd =
        config_for("data: {inputs: [\"\\e[31m" + std::string(100000, 'x') + tail + "\"]}\n");
    const std::string e = input_error([&] { expand_inputs(odd); });
    EXPECT_EQ(e.find('\x1b'), std::string::npos) << e;
    EXPECT_NE(e.find("\\x1b[31mxxx"), std::string::npos) << e;
    EXPECT_LT(e.size(), 400u) << e;
  }
}

TEST(Dataset, DistinctFilesDropsLinksAndCopiesOnly) {
  TempDir dir;
  std::ofstream(dir.file("a.h5")) << "0123456789";
  std::ofstream(dir.file("b.h5")) << "0123456780";  // same size, other bytes
  std::ofstream(dir.file("c.h5")) << "0123";
  fs::copy_file(dir.file("a.h5"), dir.file("copy.h5"));
  fs::create_hard_link(dir.file("a.h5"), dir.file("hard.h5"));
  const DistinctFiles d =
      distinct_files({dir.file("a.h5"), dir.file("b.h5"), dir.file("copy.h5"), dir.file("c.h5"),
                      dir.file("hard.h5"), dir.file("missing.h5")});
  EXPECT_EQ(d.files, (std::vector<std::string>{dir.file("a.h5"), dir.file("b.h5"), dir.file("c.h5"),
                                               dir.file("missing.h5")}));
  ASSERT_EQ(d.duplicates.size(), 2u);
  EXPECT_EQ(d.duplicates[0].path, dir.file("copy.h5"));
  EXPECT_EQ(d.duplicates[0].same_as, dir.file("a.h5"));
  EXPECT_FALSE(d.duplicates[0].same_inode);
  EXPECT_EQ(d.duplicates[1].path, dir.file("hard.h5"));
  EXPECT_TRUE(d.duplicates[1].same_inode);
  // Larger than one comparison block, differing only in the last byte.
  const std::string big(200000, 'x');
  std::ofstream(dir.file("big1")) << big << 'a';
  std::ofstream(dir.file("big2")) << big << 'b';
  std::ofstream(dir.file("big3")) << big << 'a';
  const DistinctFiles b = distinct_files({dir.file("big1"), dir.file("big2"), dir.file("big3")});
  EXPECT_EQ(b.files.size(), 2u);
  ASSERT_EQ(b.duplicates.size(), 1u);
  EXPECT_EQ(b.duplicates[0].path, dir.file("big3"));
}

// ---- a whole run, in process

const std::vector<double>& ewn_truth() {
  static const std::vector<double> w = [] {
    std::vector<double> w(ewn::kNumFeatures, 0.0);
    w[0] = 120, w[1] = -120, w[4] = -12, w[5] = 12, w[16] = 30, w[17] = -30;
    return w;
  }();
  return w;
}

std::string weights_text(const std::vector<double>& w, const std::string& name) {
  std::string out = "name: " + name + "\nweights:\n";
  for (int i = 0; i < ewn::kNumFeatures; ++i)
    out += "  " + std::string(ewn::kFeatureNames[i]) + ": " + std::to_string(w[i]) + "\n";
  return out;
}

TEST(TuneRun, WritesWeightsThatLoadBackExactly) {
  TempDir dir;
  write_campaign(dir.file("c1.h5"), meta_with(ewn_names(), 1),
                 ewn_games(ewn_truth(), 0.01, 300, 10, 41));
  write_campaign(dir.file("c2.h5"), meta_with(ewn_names(), 2),
                 ewn_games(ewn_truth(), 0.01, 300, 10, 42));
  std::vector<double> w0(ewn::kNumFeatures, 0.0);
  w0[0] = 100, w0[1] = -100;
  std::ofstream(dir.file("initial.yaml")) << weights_text(w0, "start");
  const TuneConfig c =
      config_for("data: {inputs: [\"" + dir.file("c*.h5") + "\"], validation_fraction: 0.2}\n" +
                 "weights:\n  initial: " + dir.file("initial.yaml") +
                 "\n  output: " + dir.file("sub/out.yaml") + "\n  name: fitted\n" +
                 "  tune: [own_cubes, opp_cubes, own_dist_sum, opp_dist_sum]\n" +
                 "  bounds: {own_cubes: [0, 1000]}\n" +
                 "texel: {epochs: 200, learning_rate: 0.02, report_every: 50}\n");
  std::FILE* out = std::tmpfile();
  const TuneReport r = run_tune(c, out);
  std::rewind(out);
  std::string printed(1 << 16, '\0');
  printed.resize(std::fread(printed.data(), 1, printed.size(), out));
  std::fclose(out);

  EXPECT_EQ(r.files.size(), 2u);
  EXPECT_EQ(r.train_positions + r.validation_positions, 6000u);
  EXPECT_EQ(r.train_games + r.validation_games, 600u);
  EXPECT_LT(r.result.after.validation_loss, r.result.before.validation_loss);
  EXPECT_LT(r.result.after.train_loss, r.result.before.train_loss);
  EXPECT_EQ(r.result.weights[2], 0.0);  // untuned
  EXPECT_GE(r.result.weights[0], 0.0);
  const eval::Weights back = eval::load_weights<EwnGame>(dir.file("sub/out.yaml"));
  EXPECT_EQ(back.w, r.result.weights);
  EXPECT_EQ(back.name, "fitted");
  std::ifstream in(dir.file("sub/out.yaml"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string needle :
       {"#   K ", "#   git commit", "#   program       selfplay ", "#   date (UTC)",
        "#   train loss", "c1.h5 (", "c2.h5 (", "#   config        tune.yaml", "(start)"})
    EXPECT_NE(text.find(needle), std::string::npos) << needle << " missing in\n" << text;
  for (const std::string needle :
       {"epoch", "       0", "     200", "own_cubes", "(fixed)", "wrote"})
    EXPECT_NE(printed.find(needle), std::string::npos) << needle << " missing in\n" << printed;
  // No temporary file left behind.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path() / "sub")) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(TuneRun, SkipPositionsWithLeavesOutRowsAndSaysHowMany) {
  TempDir dir;
  // Features are 0..5 uniformly: a sixth of the rows have own_cubes == 0.
  write_campaign(dir.file("c.h5"), meta_with(ewn_names(), 1),
                 ewn_games(ewn_truth(), 0.01, 300, 10, 41));
  std::ofstream(dir.file("initial.yaml")) << weights_text(ewn_truth(), "start");
  const auto config = [&](const std::string& skip) {
    return config_for("data: {inputs: [" + dir.file("c.h5") + "], skip_positions_with: " + skip +
                      "}\nweights: {initial: " + dir.file("initial.yaml") +
                      ", output: " + dir.file("out.yaml") + "}\ntexel: {epochs: 2}\n");
  };
  std::FILE* out = std::tmpfile();
  const TuneReport r = run_tune(config("[own_cubes]"), out);
  std::rewind(out);
  std::string printed(1 << 16, '\0');
  printed.resize(std::fread(printed.data(), 1, printed.size(), out));
  std::fclose(out);
  ASSERT_EQ(r.files.size(), 1u);
  const uint64_t kept = r.train_positions + r.validation_positions;
  EXPECT_EQ(kept + r.files[0].skipped_rows, 3000u);
  EXPECT_GT(kept, 350u);  // about 500
  EXPECT_LT(kept, 650u);
  EXPECT_NE(printed.find(std::to_string(r.files[0].skipped_rows) +
                         " positions left out by data.skip_positions_with"),
            std::string::npos)
      << printed;
  // Leaving out every row is an error at the key, and writes nothing.
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  fs::remove(dir.file("out.yaml"));
  EXPECT_EQ(input_error([&] { run_tune(config("[own_cubes, \"*\"]"), sink.get()); }),
            "tune.yaml:1:" + std::to_string(42 + dir.file("c.h5").size()) +
                ": key 'data.skip_positions_with': empty selection: it leaves out every one of "
                "the 3000 positions of finished games");
  EXPECT_FALSE(fs::exists(dir.file("out.yaml")));
}

// Gomoku's weights files carry the pattern search's move-score table, which Texel does not fit:
// a tuned file keeps the initial file's entries (those that differ from the defaults) as read.
TEST(TuneRun, TheMoveScoreTableIsCarriedToTheOutput) {
  TempDir dir;
  const std::vector<std::string> names(GomokuGame::feature_names().begin(),
                                       GomokuGame::feature_names().end());
  io::FileMeta meta = meta_with(names, 1);
  meta.game = "gomoku";
  std::vector<double> truth(names.size(), 0.0);
  truth[14] = 1;  // own_to_open_four
  write_campaign(dir.file("g.h5"), meta, ewn_games(truth, 0.05, 40, 4, 5));
  std::string initial = "name: start\nweights:\n";
  for (int i = 0; i < GomokuGame::kRequiredFeatures; ++i)
    initial += "  " + names[static_cast<size_t>(i)] + ": " + (i == 14 ? "0.5" : "0") + "\n";
  initial += "move_scores:\n  attack_6000: 1234\n  defend_5000: -7.5\n";
  std::ofstream(dir.file("initial.yaml")) << initial;
  const TuneConfig c = config_for(
      "data: {inputs: [" + dir.file("g.h5") + "]}\nweights: {initial: " + dir.file("initial.yaml") +
      ", output: " + dir.file("out.yaml") + ", tune: [own_to_open_four]}\ntexel: {epochs: 3}\n");
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  run_tune(c, sink.get());
  const eval::Weights out = eval::load_weights<GomokuGame>(dir.file("out.yaml"));
  const eval::Weights in = eval::load_weights<GomokuGame>(dir.file("initial.yaml"));
  ASSERT_EQ(out.move_scores.size(), GomokuGame::move_score_names().size());
  EXPECT_EQ(out.move_scores, in.move_scores);
  int changed = 0;
  for (size_t i = 0; i < out.move_scores.size(); ++i)
    changed += out.move_scores[i] != GomokuGame::move_score_defaults()[i];
  EXPECT_EQ(changed, 2);
  std::ifstream text(dir.file("out.yaml"));
  const std::string written((std::istreambuf_iterator<char>(text)),
                            std::istreambuf_iterator<char>());
  EXPECT_NE(written.find("move_scores:"), std::string::npos);
  EXPECT_NE(written.find("  attack_6000: 1234.0\n"), std::string::npos) << written;
  EXPECT_NE(written.find("  defend_5000: -7.5\n"), std::string::npos) << written;
}

TEST(TuneRun, ErrorsLeaveTheOutputAsItWas) {
  TempDir dir;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  std::ofstream(dir.file("initial.yaml")) << weights_text(ewn_truth(), "start");
  std::ofstream(dir.file("out.yaml")) << "old content\n";
  write_campaign(dir.file("empty.h5"), meta_with(ewn_names()), {{5, {}, {}}});
  write_campaign(dir.file("wrong.h5"), meta_with({"own_cubes", "opp_cubes"}), {});
  const auto run = [&](const std::string& input) {
    const TuneConfig c = config_for("data: {inputs: [" + dir.file(input) +
                                    "]}\nweights: {initial: " + dir.file("initial.yaml") +
                                    ", output: " + dir.file("out.yaml") + "}\n");
    return input_error([&] { run_tune(c, sink.get()); });
  };
  EXPECT_EQ(run("empty.h5"),
            "tune.yaml: key 'data.inputs': empty selection: no positions of finished games in the "
            "1 file matched; campaigns store them with output.positions_per_game (0 = every ply)");
  EXPECT_NE(run("wrong.h5").find("only in the weights: own_lost, opp_lost"), std::string::npos);
  // Every game in the validation set: nothing to train on.
  write_campaign(dir.file("one.h5"), meta_with(ewn_names()), ewn_games(ewn_truth(), 0.01, 1, 5, 3));
  const TuneConfig all_valid = config_for(
      "data: {inputs: [" + dir.file("one.h5") +
      "], validation_fraction: 0.999999}\nweights: {initial: " + dir.file("initial.yaml") +
      ", output: " + dir.file("out.yaml") + "}\n");
  EXPECT_NE(
      input_error([&] { run_tune(all_valid, sink.get()); }).find("key 'data.validation_fraction'"),
      std::string::npos);
  std::ifstream in(dir.file("out.yaml"));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "old content");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 5u);  // initial, out, empty, wrong, one, and nothing else
}

TEST(TuneRun, AtomicWriteReplacesWholeFiles) {
  TempDir dir;
  write_file_atomically(dir.file("x/y.yaml"), "first\n");
  write_file_atomically(dir.file("x/y.yaml"), "second\n");
  std::ifstream in(dir.file("x/y.yaml"));
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), "second\n");
  EXPECT_THROW(write_file_atomically(dir.file("x/y.yaml/z"), "x"), FileWriteError);
  try {
    write_file_atomically(dir.file("x"), "over a directory");
    ADD_FAILURE() << "a directory was replaced";
  } catch (const FileWriteError& e) {
    EXPECT_EQ(e.error(), EISDIR) << e.what();
  }
  EXPECT_TRUE(fs::is_directory(dir.file("x")));
  // A FIFO (or a link to one) is refused, not replaced; a link to a file is written through.
  ASSERT_EQ(mkfifo(dir.file("x/fifo").c_str(), 0644), 0);
  fs::create_symlink("fifo", dir.file("x/fifo-link"));
  for (const char* name : {"x/fifo", "x/fifo-link"}) {
    try {
      write_file_atomically(dir.file(name), "over a FIFO");
      ADD_FAILURE() << name << " was replaced";
    } catch (const FileWriteError& e) {
      EXPECT_EQ(e.error(), EINVAL) << e.what();
      EXPECT_NE(std::string(e.what()).find("it is a FIFO"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(fs::symlink_status(dir.file("x/fifo")).type(), fs::file_type::fifo);
  EXPECT_TRUE(fs::is_symlink(dir.file("x/fifo-link")));
  fs::create_symlink("y.yaml", dir.file("x/y-link"));
  write_file_atomically(dir.file("x/y-link"), "through\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("x/y-link")));
  std::ifstream through(dir.file("x/y.yaml"));
  std::string written;
  std::getline(through, written);
  EXPECT_EQ(written, "through");
  fs::remove(dir.file("x/fifo"));
  fs::remove(dir.file("x/fifo-link"));
  fs::remove(dir.file("x/y-link"));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.file("x"))) ++entries;
  EXPECT_EQ(entries, 1u) << "no temporary file left";
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A campaign file and initial weights in dir, and a config over them writing output.
struct TuneSetup {
  explicit TuneSetup(const TempDir& d) : dir(d) {
    write_campaign(dir.file("c1.h5"), meta_with(ewn_names(), 1),
                   ewn_games(ewn_truth(), 0.01, 200, 10, 51));
    std::vector<double> w0(ewn::kNumFeatures, 0.0);
    w0[0] = 100, w0[1] = -100;
    std::ofstream(dir.file("initial.yaml")) << weights_text(w0, "start");
  }
  TuneConfig config(const std::string& inputs, const std::string& output,
                    const std::string& extra = "") const {
    return config_for("data: {inputs: " + inputs + ", validation_fraction: 0.2}\n" +
                      "weights: {initial: " + dir.file("initial.yaml") + ", output: " + output +
                      "}\ntexel: {epochs: 20" + extra + "}\n");
  }
  const TempDir& dir;
};

TEST(TuneRun, OutputIsCheckedBeforeAnyWork) {
  TempDir dir;
  TuneSetup setup(dir);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  std::ofstream(dir.file("file.txt")) << "x";
  fs::create_directories(dir.file("folder"));
  // The inputs do not exist: an output error reported here means it came first.
  const std::string no_inputs = "[" + dir.file("none*.h5") + "]";
  const auto error = [&](const TuneConfig& c) {
    return input_error([&] { run_tune(c, sink.get()); });
  };
  EXPECT_EQ(error(setup.config(no_inputs, dir.file("folder"))),
            "tune.yaml: key 'weights.output': cannot write " + dir.file("folder") +
                ": it is a directory");
  EXPECT_EQ(error(setup.config(no_inputs, dir.file("file.txt/sub/out.yaml"))),
            "tune.yaml: key 'weights.output': cannot write " + dir.file("file.txt/sub/out.yaml") +
                ": " + dir.file("file.txt") + " is not a directory");
  EXPECT_EQ(error(setup.config(no_inputs, "/dev/null")),
            "tune.yaml: key 'weights.output': cannot write /dev/null: it is not a regular file");
  EXPECT_EQ(
      error(setup.config(no_inputs, dir.file("ok.yaml"), ", log: " + dir.file("folder"))),
      "tune.yaml: key 'texel.log': cannot write " + dir.file("folder") + ": it is a directory");
  if (::geteuid() != 0) {  // root may write anywhere
    fs::create_directories(dir.file("locked"));
    fs::permissions(dir.file("locked"), fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_NE(error(setup.config(no_inputs, dir.file("locked/new/out.yaml")))
                  .find("cannot create files in " + dir.file("locked")),
              std::string::npos);
    fs::permissions(dir.file("locked"), fs::perms::owner_all);
  }
  // A command-line option that set the path is named instead of the key.
  TuneConfig c = setup.config(no_inputs, dir.file("folder"));
  c.overridden_by["weights.output"] = "--out";
  EXPECT_EQ(error(c), "option --out: cannot write " + dir.file("folder") + ": it is a directory");
  // With a writable output the inputs are what fails.
  EXPECT_NE(error(setup.config(no_inputs, dir.file("new/out.yaml"))).find("matches no file"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir.file("new")));
}

TEST(TuneRun, NeverOverwritesAnInput) {
  TempDir dir;
  TuneSetup setup(dir);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  const std::string campaign = file_text(dir.file("c1.h5"));
  const std::string initial = file_text(dir.file("initial.yaml"));
  fs::create_symlink(dir.file("c1.h5"), dir.file("link.h5"));
  const std::string inputs = "[\"" + dir.file("c*.h5") + "\"]";
  const auto error = [&](const TuneConfig& c) {
    return input_error([&] { run_tune(c, sink.get()); });
  };
  // The campaign itself, by another spelling and through a symbolic link.
  EXPECT_EQ(error(setup.config(inputs, dir.path().string() + "/./c1.h5")),
            "tune.yaml: key 'weights.output': " + dir.path().string() +
                "/./c1.h5 is an input of data.inputs (" + dir.file("c1.h5") +
                "); writing it would destroy that input: choose another output file");
  EXPECT_NE(error(setup.config(inputs, dir.file("link.h5"))).find("is an input of data.inputs"),
            std::string::npos);
  EXPECT_NE(error(setup.config(inputs, dir.file("initial.yaml"))).find("is weights.initial"),
            std::string::npos);
  EXPECT_NE(error(setup.config(inputs, dir.file("out.yaml"), ", log: " + dir.file("c1.h5")))
                .find("key 'texel.log': " + dir.file("c1.h5") + " is an input of data.inputs"),
            std::string::npos);
  EXPECT_NE(error(setup.config(inputs, dir.file("out.yaml"), ", log: " + dir.file("out.yaml")))
                .find("key 'texel.log': " + dir.file("out.yaml") + " is weights.output"),
            std::string::npos);
  EXPECT_EQ(file_text(dir.file("c1.h5")), campaign);
  EXPECT_EQ(file_text(dir.file("initial.yaml")), initial);
  EXPECT_FALSE(fs::exists(dir.file("out.yaml")));
}

TEST(TuneRun, ByteIdenticalInputsAreCountedOnce) {
  TempDir dir;
  TuneSetup setup(dir);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  const TuneReport once =
      run_tune(setup.config("[" + dir.file("c1.h5") + "]", dir.file("a.yaml")), sink.get());
  ASSERT_EQ(once.files.size(), 1u);
  fs::create_directories(dir.file("copies"));
  fs::copy_file(dir.file("c1.h5"), dir.file("copies/c2.h5"));
  fs::create_hard_link(dir.file("c1.h5"), dir.file("copies/c3.h5"));
  // Globbed twice, copied, hard-linked: still one file's positions.
  std::FILE* out = std::tmpfile();
  const TuneReport r =
      run_tune(setup.config("[\"" + dir.file("c1.h5") + "\", \"" + dir.file("copies/*.h5") +
                                "\", \"" + dir.file("c*.h5") + "\"]",
                            dir.file("b.yaml")),
               out);
  std::rewind(out);
  std::string printed(1 << 16, '\0');
  printed.resize(std::fread(printed.data(), 1, printed.size(), out));
  std::fclose(out);
  ASSERT_EQ(r.files.size(), 1u);
  ASSERT_EQ(r.duplicates.size(), 2u);
  EXPECT_EQ(r.train_positions, once.train_positions);
  EXPECT_EQ(r.validation_positions, once.validation_positions);
  EXPECT_EQ(r.result.weights, once.result.weights);
  EXPECT_NE(printed.find("input       " + dir.file("copies/c2.h5") + ": the same bytes as " +
                         dir.file("c1.h5") + "; counted once"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("input       " + dir.file("copies/c3.h5") + ": the same file as " +
                         dir.file("c1.h5") + "; counted once"),
            std::string::npos)
      << printed;
  EXPECT_NE(file_text(dir.file("b.yaml")).find("#   not counted   " + dir.file("copies/c2.h5")),
            std::string::npos);
}

// The game is the inputs': its features decide which names weights.tune may use, files of two
// games or of a game other than the config's `game:` are refused, and so is a game without
// features.
TEST(TuneRun, FeaturesAreTheInputsGames) {
  TempDir dir;
  TuneSetup setup(dir);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  io::FileMeta ttt = meta_with(ewn_names(), 2);
  ttt.game = "tictactoe";
  write_campaign(dir.file("ttt.h5"), ttt, ewn_games(ewn_truth(), 0.01, 20, 4, 52));
  const std::string c1 = dir.file("c1.h5"), t = dir.file("ttt.h5");
  const auto config = [&](const std::string& inputs, const std::string& head = "",
                          const std::string& weights = "") {
    return config_for(head + "data: {inputs: [" + inputs +
                      "]}\nweights: {initial: " + dir.file("initial.yaml") +
                      ", output: " + dir.file("out.yaml") + weights + "}\ntexel: {epochs: 5}\n");
  };
  const FeatureLookup known = [](const std::string& game) { return game_features(game); };
  const auto error = [&](const TuneConfig& c, const FeatureLookup& lookup) {
    return input_error([&] { run_tune(c, sink.get(), lookup); });
  };
  // Without a game: key, the names are checked once the inputs' game is known.
  EXPECT_EQ(error(config(c1, "", ", tune: [own_cubes, own_cube]"), known),
            "tune.yaml:2:" +
                std::to_string(50 + dir.file("initial.yaml").size() + dir.file("out.yaml").size()) +
                ": key 'weights.tune': unknown feature \"own_cube\", did you mean 'own_cubes'?");
  EXPECT_EQ(error(config(c1 + ", " + t), known),
            "tune.yaml: key 'data.inputs': the inputs hold different games: " + c1 +
                " is a campaign of ewn, " + t + " of tictactoe; tune one game at a time");
  EXPECT_EQ(error(config(t, "game: ewn\n"), known),
            "tune.yaml:1:7: key 'game': ewn, but " + t + " holds games of tictactoe");
  EXPECT_EQ(error(config(t), known),
            t + ": unknown game 'tictactoe'; known games: " + game_names_text());
  // A game without evaluation features (tic-tac-toe here, through a lookup that knows it).
  EXPECT_TRUE(game_features<TicTacToe>().names.empty());
  EXPECT_EQ(game_features<EwnGame>().names.size(), static_cast<size_t>(ewn::kNumFeatures));
  EXPECT_EQ(error(config(t),
                  [](const std::string& game) {
                    return game == "tictactoe" ? game_features<TicTacToe>() : game_features(game);
                  }),
            "tune.yaml: tictactoe has no evaluation features (FeatureGame): method texel fits the "
            "weights of a game's features (the game of " +
                t + ")");
  // Texel needs both weights files named; neither has a game's path as its default.
  EXPECT_EQ(error(config_for("data: {inputs: [" + c1 + "]}\nweights: {initial: x.yaml}\n"), known),
            "tune.yaml: key 'weights.output': missing: the weights file to write (or --out)");
  EXPECT_EQ(
      error(config_for("data: {inputs: [" + c1 + "]}\nweights: {output: x.yaml}\n"), known),
      "tune.yaml: key 'weights.initial': missing: the weights file of the game to start from");
  EXPECT_FALSE(fs::exists(dir.file("out.yaml")));
  // The inputs' game agrees with game: ewn, and the report names it.
  const TuneReport r = run_tune(config(c1, "game: ewn\n"), sink.get());
  EXPECT_EQ(r.game, "ewn");
  EXPECT_EQ(r.feature_names, ewn_names());
  EXPECT_NE(file_text(dir.file("out.yaml")).find("\n#   game          ewn\n"), std::string::npos);
}

TEST(TuneRun, ADivergedFitWritesNothingUnlessAsked) {
  TempDir dir;
  TuneSetup setup(dir);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  std::ofstream(dir.file("out.yaml")) << "old content\n";
  const std::string wild = ", optimizer: gd, learning_rate: 1000";
  const std::string input = "[" + dir.file("c1.h5") + "]";
  try {
    run_tune(setup.config(input, dir.file("out.yaml"), wild), sink.get());
    ADD_FAILURE() << "no error";
  } catch (const TuneDiverged& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("tune.yaml: the fit diverged (the training objective (loss plus L2) "
                         "rose from ",
                         0),
              0u)
        << what;
    EXPECT_NE(what.find("nothing written to " + dir.file("out.yaml") +
                        ": lower texel.learning_rate, or set texel.write_if_diverged: true"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(file_text(dir.file("out.yaml")), "old content\n");
  const TuneReport r = run_tune(
      setup.config(input, dir.file("out.yaml"), wild + ", write_if_diverged: true"), sink.get());
  EXPECT_NE(r.result.diverged, "");
  const std::string text = file_text(dir.file("out.yaml"));
  EXPECT_NE(text.find("#   WARNING       the fit diverged: "), std::string::npos) << text;
  EXPECT_EQ(eval::load_weights<EwnGame>(dir.file("out.yaml")).w, r.result.weights);
}

// ---- the command line, end to end

using Outcome = ::sp::test::CommandResult;

Outcome selfplay(const std::string& args) {
  const std::string cmd = std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>&1";
  return ::sp::test::run_command(cmd);
}

TEST(TuneCli, RunThenTune) {
  TempDir dir;
  std::ofstream(dir.file("campaign.yaml")) << R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {games: 20, concurrency: 4, seed: 5}
engines:
  player0: {type: mcts, rollouts_per_move: 40, rollouts_per_leaf: 8}
  player1: {type: mcts, rollouts_per_move: 40, rollouts_per_leaf: 8}
backend: {name: cpu, threads: 1}
output: {path: unused.h5, positions_per_game: 0}
)";
  const Outcome run =
      selfplay("run " + dir.file("campaign.yaml") + " --out " + dir.file("games.h5") + " --quiet");
  ASSERT_EQ(run.code, 0) << run.out;
  const std::string initial =
      std::string(SELFPLAY_SOURCE_DIR) + "/configs/ewn/weights/survival-distance.yaml";
  std::ofstream(dir.file("tune.yaml"))
      << "data: {inputs: [\"" + dir.file("*.h5") + "\"], validation_fraction: 0.2}\n" +
             "weights: {initial: " + initial + ", output: " + dir.file("unused.yaml") + "}\n" +
             "texel: {epochs: 30, report_every: 10}\n";
  const Outcome tune =
      selfplay("tune " + dir.file("tune.yaml") + " --out " + dir.file("tuned.yaml"));
  ASSERT_EQ(tune.code, 0) << tune.out;
  EXPECT_NE(tune.out.find("K  "), std::string::npos) << tune.out;
  EXPECT_NE(tune.out.find("games.h5 ("), std::string::npos) << tune.out;
  const eval::Weights w = eval::load_weights<EwnGame>(dir.file("tuned.yaml"));
  EXPECT_EQ(w.name, "tuned");
  EXPECT_FALSE(fs::exists(dir.file("unused.yaml")));  // --out replaced weights.output

  // Input errors exit 2 with the file, line and key.
  std::ofstream(dir.file("bad.yaml")) << "data: {inputs: [\"" + dir.file("nothing*.h5") +
                                             "\"]}\nweights: {initial: " + initial +
                                             ", output: " + dir.file("bad-out.yaml") + "}\n";
  const Outcome bad = selfplay("tune " + dir.file("bad.yaml"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("bad.yaml:1:17: key 'data.inputs': '" + dir.file("nothing*.h5") +
                         "' matches no file"),
            std::string::npos)
      << bad.out;
  const Outcome explain = selfplay("tune --explain " + dir.file("tune.yaml"));
  EXPECT_EQ(explain.code, 0);
  EXPECT_NE(explain.out.find("learning_rate: 0.01"), std::string::npos) << explain.out;
}

// move_scores.fit: Gomoku self-play of the pattern search, then a fit of its move-score table to
// the moves played. The table fits the training moves better, reads back as fitted, keeps the
// ladder's value where no candidate carried an entry, and a game without a table is refused at
// the key.
TEST(TuneCli, TheMoveScoreTableIsFittedToThePlayedMoves) {
  TempDir dir;
  const std::string weights =
      std::string(SELFPLAY_SOURCE_DIR) + "/configs/gomoku/weights/pattern.yaml";
  std::ofstream(dir.file("campaign.yaml"))
      << "game: gomoku\nrules: {opening: random, opening_moves: 3}\n"
         "campaign: {games: 16, concurrency: 2, seed: 9}\n"
         "engines:\n"
         "  player0: {type: alphabeta, search: pattern, depth: 2, weights: \"" +
             weights +
             "\"}\n"
             "  player1: {type: alphabeta, search: pattern, depth: 2, weights: \"" +
             weights +
             "\"}\n"
             "backend: {name: cpu, threads: 1}\noutput: {path: unused.h5, positions_per_game: 0}\n";
  const Outcome run =
      selfplay("run " + dir.file("campaign.yaml") + " --out " + dir.file("games.h5") + " --quiet");
  ASSERT_EQ(run.code, 0) << run.out;
  const auto config = [&](const std::string& inputs, const std::string& initial) {
    return config_for("data: {inputs: [" + inputs + "], validation_fraction: 0.25}\n" +
                      "weights: {initial: " + initial + ", output: " + dir.file("out.yaml") +
                      "}\ntexel: {epochs: 0}\n" +
                      "move_scores: {fit: true, epochs: 60, learning_rate: 0.05}\n");
  };
  std::FILE* out = std::tmpfile();
  const TuneReport r = run_tune(config(dir.file("games.h5"), weights), out);
  std::rewind(out);
  std::string printed(1 << 16, '\0');
  printed.resize(std::fread(printed.data(), 1, printed.size(), out));
  std::fclose(out);
  ASSERT_TRUE(r.fitted_move_scores.has_value());
  const MoveScoreReport& m = *r.fitted_move_scores;
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_EQ(m.files[0].games, 16u);
  EXPECT_EQ(m.files[0].unreplayed, 0u);
  EXPECT_GT(m.train_choices, 100u);
  EXPECT_GT(m.validation_choices, 0u);
  EXPECT_EQ(m.train_choices + m.validation_choices, m.files[0].choices);
  EXPECT_LE(m.files[0].choices, m.files[0].plies);
  EXPECT_TRUE(m.temperature_fitted);
  EXPECT_GT(m.temperature, 0);
  EXPECT_LT(m.result.history.back().train.loss, m.result.history.front().train.loss);
  EXPECT_TRUE(m.result.diverged.empty()) << m.result.diverged;
  const eval::Weights back = eval::load_weights<GomokuGame>(dir.file("out.yaml"));
  EXPECT_EQ(back.move_scores, m.result.weights);
  const auto defaults = GomokuGame::move_score_defaults();
  int moved = 0;
  for (size_t j = 0; j < defaults.size(); ++j) {
    if (m.result.seen[j] == 0) {
      EXPECT_EQ(back.move_scores[j], defaults[j]) << j;
    }
    moved += back.move_scores[j] != defaults[j];
  }
  EXPECT_GT(moved, 10);
  std::ifstream in(dir.file("out.yaml"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("move_scores:  # fitted to " + std::to_string(m.train_choices) + " moves"),
            std::string::npos)
      << text;
  for (const std::string needle : {"moves       ", "move scores train", "valid loss", "top-1"})
    EXPECT_NE(printed.find(needle), std::string::npos) << needle << " missing in\n" << printed;

  // EWN has no table: refused at the key, nothing written.
  write_campaign(dir.file("ewn.h5"), meta_with(ewn_names(), 1),
                 ewn_games(ewn_truth(), 0.01, 20, 4, 41));
  std::ofstream(dir.file("ewn.yaml")) << weights_text(ewn_truth(), "start");
  fs::remove(dir.file("out.yaml"));
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::tmpfile(), &std::fclose);
  const std::string error =
      input_error([&] { run_tune(config(dir.file("ewn.h5"), dir.file("ewn.yaml")), sink.get()); });
  EXPECT_NE(error.find("tune.yaml:4:20: key 'move_scores.fit': ewn (the game of"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("has no move-score table"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(dir.file("out.yaml")));
}

TEST(TuneCli, OutputErrorsExitTwoAndADivergedFitExitsOne) {
  TempDir dir;
  TuneSetup setup(dir);
  std::ofstream(dir.file("tune.yaml"))
      << "data: {inputs: [" + dir.file("c1.h5") +
             "]}\nweights: {initial: " + dir.file("initial.yaml") +
             ", output: " + dir.file("out.yaml") +
             "}\ntexel: {epochs: 20, optimizer: gd, learning_rate: 1000}\n";
  const std::string config = dir.file("tune.yaml");
  const Outcome folder = selfplay("tune " + config + " --out " + dir.path().string());
  EXPECT_EQ(folder.code, 2) << folder.out;
  EXPECT_NE(folder.out.find("error: option --out: cannot write " + dir.path().string() +
                            ": it is a directory"),
            std::string::npos)
      << folder.out;
  // The output given as the config itself (it replaced a campaign file with YAML before).
  const Outcome self = selfplay("tune " + config + " --out " + config);
  EXPECT_EQ(self.code, 2) << self.out;
  EXPECT_NE(self.out.find("is the tune config"), std::string::npos) << self.out;
  const Outcome input = selfplay("tune " + config + " --out " + dir.file("c1.h5"));
  EXPECT_EQ(input.code, 2) << input.out;
  EXPECT_NE(input.out.find("is an input of data.inputs"), std::string::npos) << input.out;

  const Outcome diverged = selfplay("tune " + config);
  EXPECT_EQ(diverged.code, 1) << diverged.out;
  EXPECT_NE(diverged.out.find("warning     the fit diverged"), std::string::npos) << diverged.out;
  EXPECT_FALSE(fs::exists(dir.file("out.yaml")));
  const Outcome forced = selfplay("tune " + config + " --write-if-diverged");
  EXPECT_EQ(forced.code, 0) << forced.out;
  EXPECT_TRUE(fs::exists(dir.file("out.yaml")));

  // SPSA: its two outputs are checked before the first game.
  std::ofstream(dir.file("spsa.yaml"))
      << "method: spsa\nspsa:\n  match: " + std::string(SELFPLAY_SOURCE_DIR) +
             "/configs/ewn/match-mcts-vs-expectimax.yaml\n  output: " + dir.file("s.h5") +
             "\n  result: " + dir.file("s.h5") +
             "\n  parameters: [{name: exploration, start: 0.7, min: 0.1, max: 2}]\n";
  const Outcome same = selfplay("tune " + dir.file("spsa.yaml"));
  EXPECT_EQ(same.code, 2) << same.out;
  EXPECT_NE(same.out.find("key 'spsa.result': " + dir.file("s.h5") + " is also spsa.output"),
            std::string::npos)
      << same.out;
  const Outcome spsa_folder =
      selfplay("tune " + dir.file("spsa.yaml") + " --out " + dir.path().string());
  EXPECT_EQ(spsa_folder.code, 2) << spsa_folder.out;
  EXPECT_NE(spsa_folder.out.find("option --out: cannot write"), std::string::npos)
      << spsa_folder.out;
  EXPECT_FALSE(fs::exists(dir.file("s.h5")));
}

}  // namespace
}  // namespace sp::tune
