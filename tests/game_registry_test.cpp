// Adding a game is its folder and its name in the list (issue 23, item 2): the tests-only
// tic-tac-toe, a folder tests/games/tictactoe/ with game.hpp and host.hpp, is registered here by
// one more name and type in the same sp_game_list call that games/CMakeLists.txt makes for the
// shipped games (tests/CMakeLists.txt), and becomes the fourth game of games/games.hpp in this
// binary: the list, the dispatch by name and the typed test lists all take it. The other test
// binaries build with the shipped list alone.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "games/games.hpp"
#include "tests/game_types.hpp"

namespace sp {
namespace {

TEST(GameRegistry, ANewGameFolderAndOneNameMakeItAGameOfTheList) {
  EXPECT_EQ(Games::names(), (std::vector<std::string>{"ewn", "checkers", "gomoku", "tictactoe"}));
  const std::string dispatched =
      with_game("tictactoe", []<class G>() { return std::string(G::kName); });
  EXPECT_EQ(dispatched, "tictactoe");
  EXPECT_TRUE(with_game("tictactoe", []<class G>() { return DeterministicGame<G>; }));
  EXPECT_THROW(with_game("chess", []<class G>() { return 0; }), InputError);
}

// The typed test lists follow: every suite over test::GameTypes runs the new game too.
TEST(GameRegistry, TheTypedTestListsTakeTheNewGame) {
  EXPECT_TRUE((std::is_same_v<test::GameTypes<>,
                              ::testing::Types<EwnGame, CheckersGame, GomokuGame, TicTacToe>>));
  EXPECT_TRUE((std::is_same_v<test::DeterministicGameTypes<>,
                              ::testing::Types<CheckersGame, GomokuGame, TicTacToe>>));
}

}  // namespace
}  // namespace sp
