// What Texel tuning needs of a game: the names of its evaluation features (FeatureGame,
// core/game.hpp), in the order weights files and /positions/features list them. The one
// place Texel tuning looks at a game; the fitting itself works on feature vectors.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/game.hpp"
#include "games/games.hpp"

namespace sp::tune {

struct GameFeatures {
  std::string game;                         // G::kName
  std::span<const std::string_view> names;  // G::feature_names() (static); empty: no features
};

template <Game G>
GameFeatures game_features() {
  if constexpr (FeatureGame<G>)
    return {G::kName, G::feature_names()};
  else
    return {G::kName, {}};
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
