// The one list of games. Commands dispatch on a game's name (`game:` in configs, `--game` on the
// command line) through with_game; backends and kernels are instantiated for each. The list is
// SELFPLAY_GAMES in games/games.cmake, from which CMake writes games/game_list.hpp (in the build
// tree): adding a game is its folder and its name there. Device-safe: host code that needs the
// games' host parts includes games/hosts.hpp.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "games/game_list.hpp"  // generated: every game's game.hpp and SP_GAME_LIST

namespace sp {

// X(G) for every game G, in order: the list itself. Backends and kernels instantiate their
// per-game templates with it (explicit instantiations, one line per template).
#define SP_FOR_EACH_GAME(X) SP_GAME_LIST(X)

template <class... Gs>
struct GameList {
  static std::vector<std::string> names() { return {Gs::kName...}; }
};

namespace games_detail {
template <class First, class... Gs>
struct DropFirst {
  using type = GameList<Gs...>;
};
#define SP_GAMES_DETAIL_COMMA_THEN(G) , G
}  // namespace games_detail

// The games of SP_FOR_EACH_GAME as a type list.
using Games =
    typename games_detail::DropFirst<void SP_FOR_EACH_GAME(SP_GAMES_DETAIL_COMMA_THEN)>::type;

// "ewn, checkers, gomoku": the known games, for messages.
inline std::string game_names_text() {
  std::string out;
  for (const std::string& n : Games::names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

inline bool is_game(std::string_view name) {
  for (const std::string& n : Games::names())
    if (n == name) return true;
  return false;
}

namespace games_detail {
template <class F, class G, class... Rest>
decltype(auto) dispatch(std::string_view name, F&& f, GameList<G, Rest...>) {
  if constexpr (sizeof...(Rest) == 0) {
    if (name != G::kName)
      throw InputError("unknown game '" + std::string(name) +
                       "'; known games: " + game_names_text());
    return std::forward<F>(f).template operator()<G>();
  } else {
    if (name == G::kName) return std::forward<F>(f).template operator()<G>();
    return dispatch(name, std::forward<F>(f), GameList<Rest...>{});
  }
}
}  // namespace games_detail

// Calls f.template operator()<G>() for the game named `name` and returns its result; throws
// InputError listing the known games for another name.
template <class F>
decltype(auto) with_game(std::string_view name, F&& f) {
  return games_detail::dispatch(name, std::forward<F>(f), Games{});
}

}  // namespace sp
