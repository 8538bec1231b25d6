// The games of games/games.hpp as GoogleTest type lists, so that typed suites follow the one list
// of games: a game added there runs in every suite that takes its kind.
#pragma once

#include <gtest/gtest.h>

#include <type_traits>

#include "games/games.hpp"

namespace sp::test {

namespace game_types_detail {
template <class List, class... Extra>
struct Append;
template <class... Gs, class... Extra>
struct Append<GameList<Gs...>, Extra...> {
  using type = ::testing::Types<Gs..., Extra...>;
};

template <bool Keep, class G, class List>
struct PrependIf {
  using type = List;
};
template <class G, class... Gs>
struct PrependIf<true, G, GameList<Gs...>> {
  using type = GameList<G, Gs...>;
};

template <class List>
struct Deterministic;
template <>
struct Deterministic<GameList<>> {
  using type = GameList<>;
};
template <class G, class... Gs>
struct Deterministic<GameList<G, Gs...>> {
  using type = typename PrependIf<DeterministicGame<G>, G,
                                  typename Deterministic<GameList<Gs...>>::type>::type;
};
}  // namespace game_types_detail

// Every shipped game, then Extra (tests-only games such as TicTacToe).
template <class... Extra>
using GameTypes = typename game_types_detail::Append<Games, Extra...>::type;

// The shipped games without chance, then Extra.
template <class... Extra>
using DeterministicGameTypes =
    typename game_types_detail::Append<typename game_types_detail::Deterministic<Games>::type,
                                       Extra...>::type;

}  // namespace sp::test
