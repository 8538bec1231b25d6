// `selfplay tune` configs (YAML): every key declared once in tune_config.cpp with its type, range,
// default and help; configs/ewn/tune.yaml is the commented example. The config names no game's
// types: the game is its `game:` key or that of the inputs (Texel: the campaign files' `game`
// attribute; SPSA: spsa.match's `game:`), and feature names are checked against that game's
// features (FeatureGame, core/game.hpp) once it is known.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/schema.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/texel.hpp"

namespace sp::tune {

enum class Method { kTexel, kSpsa };  // kSpsa: tuning by matches instead of positions

// A path or glob pattern from the config, with where it was written for messages.
struct InputPattern {
  std::string pattern;
  config::Mark at;
  friend bool operator==(const InputPattern& a, const InputPattern& b) {
    return a.pattern == b.pattern;
  }
};

// The `game:` key: a game of games/games.hpp, or "" for the game of the inputs.
struct GameKey {
  std::string name;
  config::Mark at;
  friend bool operator==(const GameKey& a, const GameKey& b) { return a.name == b.name; }
};

// A feature named in weights.tune or weights.bounds, with where it was written: names are checked
// against the game's features once the game is known (check_features).
struct FeatureName {
  std::string name;
  config::Mark at;
  friend bool operator==(const FeatureName& a, const FeatureName& b) { return a.name == b.name; }
};
struct FeatureBounds {
  double lo = 0, hi = 0;
  config::Mark at;  // of the feature's key
  friend bool operator==(const FeatureBounds& a, const FeatureBounds& b) {
    return a.lo == b.lo && a.hi == b.hi;
  }
};

struct TuneConfig {
  GameKey game;  // "" = the inputs' game
  Method method = Method::kTexel;
  uint64_t seed = 1;  // validation split and per-game position sampling

  struct Data {
    std::vector<InputPattern> inputs;  // campaign HDF5 files or globs; at least one
    double validation_fraction = 0.1;  // of the games, never of the positions
    uint32_t positions_per_game = 0;   // 0 = every stored position
    // Positions where any of these features (names or patterns) is nonzero are left out: the
    // tactical positions a search decides, not the evaluation. Empty = none left out.
    std::vector<FeatureName> skip_positions_with;
  } data;

  struct WeightsKeys {
    std::string initial;                          // method texel: required
    std::string output;                           // method texel: required (or --out)
    std::string name = "tuned";                   // the output file's name: key
    std::vector<FeatureName> tune;                // empty = all
    std::map<std::string, FeatureBounds> bounds;  // feature -> [lo, hi]
  } weights;

  struct K {
    KSearch method = KSearch::kGolden;
    double min = 1e-5, max = 10;
    int grid_points = 100;
  } k;

  struct Texel {
    Optimizer optimizer = Optimizer::kAdam;
    Loss loss = Loss::kMse;
    double learning_rate = 0.01;
    int epochs = 300;
    double l2 = 0;
    int report_every = 10;
    std::string log;                 // CSV of every printed epoch (epoch, K, losses); "" = none
    bool write_if_diverged = false;  // write weights.output even when the fit diverged
  } texel;

  // The move-score table of the game's search (Gomoku's pattern search: move_scores.hpp), fitted
  // to the moves played in the inputs' games (move_score_fit.hpp) when fit is set.
  // move_scores.fit, with where it was written (a game without a table is found late).
  struct FitSwitch {
    bool on = false;
    config::Mark at;
    friend bool operator==(const FitSwitch& a, const FitSwitch& b) { return a.on == b.on; }
  };
  struct MoveScores {
    FitSwitch fit;
    double temperature = 0;  // 0 = fitted with the initial table
    double learning_rate = 0.05;
    int epochs = 200;
    double l2 = 1e-4;
    int report_every = 20;
    std::vector<FeatureName> tune;  // entry names and patterns; empty = all
  } move_scores;

  SpsaSettings spsa;  // method: spsa

  std::string source_path;  // the file it was read from
  std::string source_text;
  // Keys whose value a command-line option replaced, with the option ("weights.output" ->
  // "--out"): messages about the value name the option the user typed.
  std::map<std::string, std::string> overridden_by;
};

// Reads the YAML file at path; omitted keys take their defaults. Throws config::ConfigError (an
// sp::InputError) "FILE:LINE:COLUMN: key 'a.b': what is wrong" for unknown keys (with a
// did-you-mean hint), wrong types, out-of-range values, an unknown game, bounds with lo > hi,
// bounds on features that are not tuned, a missing data.inputs (texel), a missing spsa.match or
// spsa.parameters (spsa); with a `game:` key also for feature names that are not the game's
// (check_features) and for method texel on a game without features; "cannot read FILE: reason"
// when the file cannot be read.
TuneConfig load_tune_config(const std::string& path);
TuneConfig load_tune_config_text(const std::string& text, const std::string& name);

// The effective configuration as commented YAML: every key with its default filled in.
std::string explain_tune_config(const TuneConfig& config);

// Checks the feature names of weights.tune and weights.bounds against the features of `game`
// (names: its G::feature_names()), throwing ConfigError at the name, with a did-you-mean hint or
// the list of the game's features, for one the game lacks.
void check_features(const TuneConfig& config, const std::string& game,
                    std::span<const std::string_view> names);

// Checks move_scores.fit and move_scores.tune against the move-score table of `game` (names:
// G::move_score_names(), empty for a game without one), throwing ConfigError at the key.
void check_move_scores(const TuneConfig& config, const std::string& game,
                       std::span<const std::string_view> names);

// Throws ConfigError "FILE:LINE:COLUMN: key 'PATH': WHAT" at the config's mark for path (as
// config::Document::fail_key would while loading), for errors found after loading, e.g. a glob
// in data.inputs that matches no file.
[[noreturn]] void fail_at(const TuneConfig& config, config::Mark at, const std::string& path,
                          const std::string& what);

}  // namespace sp::tune
