// `selfplay tune`: loads a tune config's inputs and initial weights, fits K and the weights, prints
// the progress and a table, and writes the tuned weights file.
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/engines/eval/weights.hpp"
#include "host/research/tune/dataset.hpp"
#include "host/research/tune/game_features.hpp"
#include "host/research/tune/move_choices.hpp"
#include "host/research/tune/move_score_fit.hpp"
#include "host/research/tune/texel.hpp"
#include "host/research/tune/tune_config.hpp"

namespace sp::tune {

// What the move-score fit did (move_scores.fit).
struct MoveScoreReport {
  std::vector<ChoiceFileSummary> files;
  size_t train_choices = 0, validation_choices = 0;
  double temperature = 0;
  bool temperature_fitted = false;  // else move_scores.temperature's
  MoveScoreFitResult result;        // weights: the table, rounded to integers as the search uses it
  size_t tuned = 0;                 // entries fitted
};

// What a tuning run did, for the provenance of the weights file.
struct TuneReport {
  std::string config_path;
  std::string game;                        // the inputs' game
  std::vector<std::string> feature_names;  // its features, the order of the weights
  eval::MoveScoreSpec move_scores;         // its move-score table (the initial's, written as read)
  std::string initial_path, initial_name;
  std::vector<FileSummary> files;
  std::vector<DuplicateFile> duplicates;  // inputs left out: the same data as another input
  size_t train_positions = 0, train_games = 0;
  size_t validation_positions = 0, validation_games = 0;
  KFit k;
  TexelResult result;
  std::vector<bool> tuned;                            // per feature
  std::optional<MoveScoreReport> fitted_move_scores;  // with move_scores.fit
  std::string date_utc;                               // "2026-12-01T10:00:00Z"
  std::string git_commit;
};

// The fit diverged (TexelResult::diverged) and texel.write_if_diverged is off: nothing was
// written. The CLI exits with 1.
class TuneDiverged : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The features of a game by name: game_features, or in tests one that knows a tests-only game.
using FeatureLookup = std::function<GameFeatures(const std::string& game)>;

// Runs the config (method texel), printing to out, and writes config.weights.output. Before it
// reads anything it checks that weights.output (and texel.log) can be written and name none of the
// files it reads (inputs, weights.initial, the config). The game is the inputs' (their `game`
// attribute, which must agree with each other and with config.game), and must have evaluation
// features; weights.tune and weights.bounds are checked against them. An input that is the same
// file as another or a byte-for-byte copy of it is read once, and said so. Throws sp::InputError
// (naming the file and, for config values, the key or the option that set it) for unusable inputs
// and outputs, and TuneDiverged when the fit diverged and texel.write_if_diverged is off; the
// output file is then left as it was. With move_scores.fit it also fits the game's move-score
// table to the moves played in the inputs' games (fit_move_score_table) and writes it too.
TuneReport run_tune(
    const TuneConfig& config, std::FILE* out,
    const FeatureLookup& lookup = [](const std::string& game) { return game_features(game); });

// The move-score fit of run_tune (move_scores.fit) on the inputs `files` of game `game` (whose
// table is `spec`), from the table `initial`, printing its progress to out. Throws InputError
// naming the key for a game without a table or inputs without a single choice.
MoveScoreReport fit_move_score_table(const TuneConfig& config,
                                     const std::vector<std::string>& files, const std::string& game,
                                     const eval::MoveScoreSpec& spec,
                                     const std::vector<double>& initial, std::FILE* out);

// Method spsa: the checks run_tune makes of its outputs, for spsa.output and spsa.result (which
// must differ, and be neither the tune config nor spsa.match). Call before run_spsa.
void check_spsa_outputs(const TuneConfig& config);

// "FILE: key 'KEY'", or "option --out" when a command-line option set the key (overridden_by).
std::string setting_name(const TuneConfig& config, const std::string& key);

// The weights file text: name, description, every weight (shortest text that reads back exactly),
// provenance in comments. load_weights_text() reads it back to the same values.
std::string weights_yaml(const TuneConfig& config, const eval::Weights& initial,
                         const TuneReport& report);

}  // namespace sp::tune
