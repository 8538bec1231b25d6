// Linear evaluations: one weight per evaluation feature of a game (FeatureGame, core/
// game.hpp), read from YAML files such as configs/ewn/weights/. The score is w . features from the
// side to move's view, so it is antisymmetric by construction when the weights are (own_x =
// -opp_x).
#pragma once

#include <cassert>
#include <cmath>
#include <concepts>
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
  // The game's move-score table (MoveScoreGame: Gomoku's pattern search), one value per
  // G::move_score_names(), the file's `move_scores:` or the defaults; empty for other games.
  std::vector<double> move_scores;
  std::string name;
  std::string source;  // the file it was read from; empty when built in code
};

// A game whose weights files may also hold a move-score table for its own search, under
// `move_scores:` (each entry optional, G::move_score_defaults() where left out).
template <class G>
concept MoveScoreGame = requires {
  { G::move_score_names() } -> std::convertible_to<std::span<const std::string_view>>;
  { G::move_score_defaults() } -> std::convertible_to<std::span<const double>>;
};

// The names and defaults of a move-score table; empty for games without one.
struct MoveScoreSpec {
  std::span<const std::string_view> names;
  std::span<const double> defaults;
};
template <class G>
constexpr MoveScoreSpec move_score_spec() {
  if constexpr (MoveScoreGame<G>)
    return {G::move_score_names(), G::move_score_defaults()};
  else
    return {};
}

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
//   move_scores: {attack_6000: 2560} (only for games with a move-score table: each entry
//                                   optional, its default where left out)
// Throws sp::InputError (a config::ConfigError) "FILE:LINE:COLUMN: key 'weights.x': what is wrong"
// for unknown features (with a "did you mean" hint), missing ones, values that are not finite
// numbers in [-kMaxWeight, kMaxWeight], and unknown top-level keys; "cannot read FILE: reason"
// when the file cannot be read. The result has one weight per name, in that order.
Weights load_weights(const std::string& path, std::span<const std::string_view> feature_names,
                     size_t required = SIZE_MAX, const MoveScoreSpec& move_scores = {});
// The same for YAML text; name stands for the file in messages and becomes source.
Weights load_weights_text(const std::string& text, const std::string& name,
                          std::span<const std::string_view> feature_names,
                          size_t required = SIZE_MAX, const MoveScoreSpec& move_scores = {});
// The same for the features of game G.
template <FeatureGame G>
Weights load_weights(const std::string& path) {
  return load_weights(path, G::feature_names(), required_features<G>(), move_score_spec<G>());
}
template <FeatureGame G>
Weights load_weights_text(const std::string& text, const std::string& name) {
  return load_weights_text(text, name, G::feature_names(), required_features<G>(),
                           move_score_spec<G>());
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

// A game whose table entries (the features after G::kRequiredFeatures) a linear evaluation can
// weigh straight from the position: G::table_score(s, rules, w) = sum over the entries j of w[j]
// times entry j, up to rounding.
template <class G>
concept TableScoreGame = FeatureGame<G> &&
    requires(const typename G::State& s, const typename G::Rules& r, float* out, const double* w) {
  G::extract_required_features(s, r, out);
  { G::table_score(s, r, w) } -> std::convertible_to<double>;
};

// A game whose first G::kPrefixFeatures features come cheaper by themselves:
// G::extract_prefix_features(s, rules, out) writes those of G::extract_features and no other.
template <class G>
concept PrefixFeatureGame = FeatureGame<G> &&
    requires(const typename G::State& s, const typename G::Rules& r, float* out) {
  { G::kPrefixFeatures } -> std::convertible_to<int>;
  G::extract_prefix_features(s, r, out);
};

// A game that gives the features [G::kChildFeaturesFirst, G::kChildFeaturesEnd) of every child of
// a position at once, cheaper than child by child: G::child_features(s, rules, moves, n, out)
// writes, for the position after moves[k], those features of G::extract_features at
// out[k * (End - First)], and a move passes the turn (the child's side to move is the other).
template <class G>
concept ChildFeatureGame = FeatureGame<G> &&
    requires(const typename G::State& s, const typename G::Rules& r, const typename G::Move* m,
             int n, float* out) {
  { G::kChildFeaturesFirst } -> std::convertible_to<int>;
  { G::kChildFeaturesEnd } -> std::convertible_to<int>;
  G::child_features(s, r, m, n, out);
};

// evaluate<G> for one set of weights, as the engines call it at every leaf, without the terms
// that weigh 0. The same score bit for bit (the terms added in feature order) when no table entry
// is weighed, and then without computing the tables at all; with table entries weighed, a game
// that has G::table_score sums them from the pieces (the same score up to rounding, for a fraction
// of the cost of extracting every entry). Weights on a game's prefix features alone
// (PrefixFeatureGame) read only those: the same score bit for bit.
template <FeatureGame G>
class LinearEvaluation {
 public:
  explicit LinearEvaluation(const Weights& weights) {
    assert(weights.w.size() == static_cast<size_t>(G::kNumFeatures));
    const int required = static_cast<int>(required_features<G>());
    bool tables = false;
    for (int i = 0; i < G::kNumFeatures; ++i)
      if (weights.w[i] != 0) {
        if (!TableScoreGame<G> || i < required) terms_.push_back({i, weights.w[i]});
        tables = tables || i >= required;
      }
    if constexpr (TableScoreGame<G>) {
      mode_ = tables ? Mode::kTableScore : Mode::kRequired;
      if (tables) table_weights_.assign(weights.w.begin() + required, weights.w.end());
    }
    if constexpr (PrefixFeatureGame<G>)
      if (!tables && (terms_.empty() || terms_.back().feature < G::kPrefixFeatures))
        mode_ = Mode::kPrefix;
    if constexpr (ChildFeatureGame<G>)
      children_ = !tables && !terms_.empty() && mode_ != Mode::kPrefix &&
                  terms_.front().feature >= G::kChildFeaturesFirst &&
                  terms_.back().feature < G::kChildFeaturesEnd;
  }

  // Whether children() reads every child at once (ChildFeatureGame, every weighed feature among
  // those it gives); else it evaluates them one by one.
  bool children_at_once() const { return children_; }

  // out[k]: the score of the position after moves[k] (for its side to move), bit for bit as
  // operator() gives it.
  void children(const typename G::State& s, const typename G::Rules& rules,
                const typename G::Move* moves, int n, double* out) const {
    if constexpr (ChildFeatureGame<G>) {
      if (children_) {
        constexpr int kFirst = G::kChildFeaturesFirst, kWidth = G::kChildFeaturesEnd - kFirst;
        std::vector<float> f(static_cast<size_t>(n) * kWidth);
        G::child_features(s, rules, moves, n, f.data());
        for (int k = 0; k < n; ++k) {
          const float* x = f.data() + static_cast<size_t>(k) * kWidth;
          double v = 0;
          for (const Term& t : terms_) v += t.weight * static_cast<double>(x[t.feature - kFirst]);
          out[k] = v;
        }
        return;
      }
    }
    for (int k = 0; k < n; ++k) {
      typename G::State child = s;
      G::apply(child, moves[k]);
      out[k] = (*this)(child, rules);
    }
  }
  double operator()(const typename G::State& s, const typename G::Rules& rules) const {
    float f[G::kNumFeatures];
    if constexpr (PrefixFeatureGame<G>)
      if (mode_ == Mode::kPrefix) {
        G::extract_prefix_features(s, rules, f);
        double v = 0;
        for (const Term& t : terms_) v += t.weight * static_cast<double>(f[t.feature]);
        return v;
      }
    if constexpr (TableScoreGame<G>) {
      G::extract_required_features(s, rules, f);
      double v = 0;
      for (const Term& t : terms_) v += t.weight * static_cast<double>(f[t.feature]);
      if (mode_ == Mode::kTableScore) v += G::table_score(s, rules, table_weights_.data());
      return v;
    } else {
      G::extract_features(s, rules, f);
      double v = 0;
      for (const Term& t : terms_) v += t.weight * static_cast<double>(f[t.feature]);
      return v;
    }
  }

 private:
  struct Term {
    int feature;
    double weight;
  };
  enum class Mode { kAll, kRequired, kTableScore, kPrefix };
  std::vector<Term> terms_;
  std::vector<double> table_weights_;  // kTableScore: the table entries' weights
  Mode mode_ = Mode::kAll;
  bool children_ = false;  // children() reads every child at once
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
