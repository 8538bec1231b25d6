// What Texel tuning needs of a game: the names of its evaluation features (FeatureGame,
// core/game.hpp), in the order weights files and /positions/features list them, and how many of
// them a weights file must weigh. The one place Texel tuning looks at a game; the fitting itself
// works on feature vectors.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/game.hpp"
#include "games/games.hpp"
#include "host/engines/eval/weights.hpp"

namespace sp::tune {

struct GameFeatures {
  std::string game;                         // G::kName
  std::span<const std::string_view> names;  // G::feature_names() (static); empty: no features
  size_t required = 0;  // eval::required_features<G>(): the rest are table entries, 0 by default
  eval::MoveScoreSpec move_scores;  // the weights files' move-score table (Gomoku), else empty
};

template <Game G>
GameFeatures game_features() {
  if constexpr (FeatureGame<G>)
    return {G::kName, G::feature_names(), eval::required_features<G>(), eval::move_score_spec<G>()};
  else
    return {G::kName, {}, 0, {}};
}

// Whether an entry of a list of features to tune (tune's weights.tune, improve's tune.features)
// selects the feature `name`: the same name, or a pattern where * stands for any characters and ?
// for one, as in man_* (every entry of the man_open and man_end tables).
constexpr bool feature_selected(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}
constexpr bool is_feature_pattern(std::string_view entry) {
  return entry.find_first_of("*?") != std::string_view::npos;
}

// The features of the game named `game` (games/games.hpp); throws InputError listing the known
// games for another name.
inline GameFeatures game_features(const std::string& game) {
  return with_game(game, []<class G>() { return game_features<G>(); });
}

// Why method texel cannot tune `game`, a game without features.
inline std::string no_features_text(const std::string& game) {
  return game +
         " has no evaluation features (FeatureGame): method texel fits the weights of a "
         "game's features";
}

}  // namespace sp::tune
