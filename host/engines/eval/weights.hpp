// Linear evaluations: one weight per evaluation feature of a game (FeatureGame, core/
// game.hpp), read from YAML files such as configs/ewn/weights/. The score is w . features from the
// side to move's view, so it is antisymmetric by construction when the weights are (own_x =
// -opp_x).
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"

namespace sp::eval {

// Largest |weight| a file may give; it keeps every evaluation finite and bounded (see
// evaluation_bound), which the expectimax engine needs for its Star1 bounds.
inline constexpr double kMaxWeight = 1e6;

struct Weights {
  std::vector<double> w;  // one per feature, in the order of the game's feature_names()
  std::string name;
  std::string source;  // the file it was read from; empty when built in code
};

// How many of G's features a weights file must weigh: the first G::kRequiredFeatures where the
// game declares them (the entries of evaluation tables follow, each 0 unless the file gives it),
// else all of them.
template <FeatureGame G>
constexpr size_t required_features() {
  if constexpr (requires { G::kRequiredFeatures; })
    return static_cast<size_t>(G::kRequiredFeatures);
  else
    return static_cast<size_t>(G::kNumFeatures);
}

// Reads a weights file for the features named by feature_names (a game's feature_names()):
//   name: survival-distance        (required, non-empty)
//   description: ...               (optional)
//   weights: {own_cubes: 120, ...} (required: each of the first `required` features, each once;
//                                   the others are 0 where left out)
// Throws sp::InputError (a config::ConfigError) "FILE:LINE:COLUMN: key 'weights.x': what is wrong"
// for unknown features (with a "did you mean" hint), missing ones, values that are not finite
// numbers in [-kMaxWeight, kMaxWeight], and unknown top-level keys; "cannot read FILE: reason"
// when the file cannot be read. The result has one weight per name, in that order.
Weights load_weights(const std::string& path, std::span<const std::string_view> feature_names,
                     size_t required = SIZE_MAX);
// The same for YAML text; name stands for the file in messages and becomes source.
Weights load_weights_text(const std::string& text, const std::string& name,
                          std::span<const std::string_view> feature_names,
                          size_t required = SIZE_MAX);
// The same for the features of game G.
template <FeatureGame G>
Weights load_weights(const std::string& path) {
  return load_weights(path, G::feature_names(), required_features<G>());
}
template <FeatureGame G>
Weights load_weights_text(const std::string& text, const std::string& name) {
  return load_weights_text(text, name, G::feature_names(), required_features<G>());
}

// w . G::extract_features(s, rules): the score for the side to move. Precondition: s is not over,
// weights.w.size() == G::kNumFeatures. The chance outcome is ignored.
template <FeatureGame G>
double evaluate(const Weights& weights, const typename G::State& s,
                const typename G::Rules& rules) {
  assert(weights.w.size() == static_cast<size_t>(G::kNumFeatures));
  float f[G::kNumFeatures];
  G::extract_features(s, rules, f);
  double v = 0;
  for (int i = 0; i < G::kNumFeatures; ++i) v += weights.w[i] * static_cast<double>(f[i]);
  return v;
}

// evaluate<G> for one set of weights, as the engines call it at every leaf: the same score bit for
// bit (the terms are added in feature order; a term of weight 0 adds nothing), without the
// multiplications by the weights that are 0, such as the table entries a file leaves out, and
// without computing the tables at all when none is weighed (G::extract_required_features).
template <FeatureGame G>
class LinearEvaluation {
 public:
  explicit LinearEvaluation(const Weights& weights) {
    assert(weights.w.size() == static_cast<size_t>(G::kNumFeatures));
    for (int i = 0; i < G::kNumFeatures; ++i)
      if (weights.w[i] != 0) terms_.push_back({i, weights.w[i]});
    if constexpr (requires(const typename G::State& s, const typename G::Rules& r, float* out) {
                    G::extract_required_features(s, r, out);
                  })
      required_only_ =
          terms_.empty() || terms_.back().feature < static_cast<int>(required_features<G>());
  }
  double operator()(const typename G::State& s, const typename G::Rules& rules) const {
    float f[G::kNumFeatures];
    if constexpr (requires { G::extract_required_features(s, rules, f); }) {
      if (required_only_)
        G::extract_required_features(s, rules, f);
      else
        G::extract_features(s, rules, f);
    } else {
      G::extract_features(s, rules, f);
    }
    double v = 0;
    for (const Term& t : terms_) v += t.weight * static_cast<double>(f[t.feature]);
    return v;
  }

 private:
  struct Term {
    int feature;
    double weight;
  };
  std::vector<Term> terms_;
  bool required_only_ = false;
};

// V >= |evaluate<G>(weights, s, rules)| for every position: sum of |w_i| times the largest value
// feature i can take (G::feature_max()). Precondition: weights.w.size() == G::kNumFeatures.
template <FeatureGame G>
double evaluation_bound(const Weights& weights) {
  assert(weights.w.size() == static_cast<size_t>(G::kNumFeatures));
  const std::span<const double> max = G::feature_max();
  double v = 0;
  for (int i = 0; i < G::kNumFeatures; ++i) v += std::abs(weights.w[i]) * max[i];
  return v;
}

}  // namespace sp::eval
