// Linear evaluations of EWN positions: one weight per feature of games/ewn/features.hpp, read from
// YAML files under configs/ewn/weights/. The score is w . features from the side to move's view,
// so it is antisymmetric by construction when the weights are (own_x = -opp_x).
#pragma once

#include <string>
#include <vector>

#include "games/ewn/ewn.hpp"
#include "games/ewn/features.hpp"

namespace sp::eval {

// Largest |weight| a file may give; it keeps every evaluation finite and bounded (see
// evaluation_bound), which the expectimax engine needs for its Star1 bounds.
inline constexpr double kMaxWeight = 1e6;

struct Weights {
  std::vector<double> w = std::vector<double>(ewn::kNumFeatures, 0.0);  // like ewn::kFeatureNames
  std::string name;
  std::string source;  // the file it was read from; empty when built in code
};

// Reads a weights file:
//   name: survival-distance        (required, non-empty)
//   description: ...               (optional)
//   weights: {own_cubes: 120, ...} (required: every feature of kFeatureNames, each once)
// Throws sp::InputError (a config::ConfigError) "FILE:LINE:COLUMN: key 'weights.x': what is wrong"
// for unknown features (with a "did you mean" hint), missing ones, values that are not finite
// numbers in [-kMaxWeight, kMaxWeight], and unknown top-level keys; "cannot read FILE: reason"
// when the file cannot be read.
Weights load_weights(const std::string& path);
// The same for YAML text; name stands for the file in messages and becomes source.
Weights load_weights_text(const std::string& text, const std::string& name);

// w . extract_features(s, rules): the score for the side to move. Precondition: state_ok(s),
// weights.w.size() == kNumFeatures. The die is ignored.
double evaluate(const Weights& weights, const ewn::State& s, const ewn::Rules& rules);

// V >= |evaluate(weights, s, rules)| for every position: sum of |w_i| times the largest value
// feature i can take (every feature is non-negative and bounded on a 5x5 board with 6 cubes).
double evaluation_bound(const Weights& weights);

}  // namespace sp::eval
