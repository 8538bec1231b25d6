// MCTS on a game without chance (tic-tac-toe): moves lead straight to decision nodes and a leaf is
// a decision node on its first visit; the search finds wins, blocks threats and, against itself,
// draws from the empty board, with and without tree reuse.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "host/engines/search/engine.hpp"
#include "host/engines/search/mcts.hpp"
#include "tests/engine_loop.hpp"
#include "tests/games/tictactoe/game.hpp"

namespace sp::search {
namespace {

using G = TicTacToe;

rollout::PlayoutParams<G> params(uint64_t seed) {
  rollout::PlayoutParams<G> p;
  p.seed = seed;
  return p;
}

MctsParams mcts(uint32_t rollouts, bool reuse = true) {
  MctsParams m;
  m.rollouts_per_move = rollouts;
  m.rollouts_per_leaf = 8;
  m.leaves_per_round = 4;
  m.exploration = 0.7;
  m.reuse_tree = reuse;
  return m;
}

// Runs one search of `tree` at `root` to the end of its budget.
G::Move search(Mcts<G>& tree, const G::State& root, uint64_t seed) {
  tree.begin(root, SearchIds{0, 0, seed});
  std::vector<rollout::Leaf<G>> leaves;
  std::vector<rollout::LeafStats> stats;
  while (!tree.finished()) {
    leaves.clear();
    tree.select_leaves(leaves);
    stats.assign(leaves.size(), rollout::LeafStats{});
    WorkPool pool(1);
    if (!leaves.empty()) rollout::run_rollouts_cpu<G>(leaves, params(seed), stats, pool);
    tree.backup(stats);
  }
  return tree.best_move();
}

TEST(MctsDeterministic, ALeafIsADecisionNodeOnItsFirstVisit) {
  // From the empty board: nine root moves. Nine leaves visit each child once (ten nodes, no
  // chance layer); the tenth expands one child straight into its eight replies.
  MctsParams p = mcts(9 * 8);
  p.leaves_per_round = 1;
  Mcts<G> tree(p, G::Rules{});
  search(tree, ttt::initial_state(), 1);
  EXPECT_EQ(tree.root_children(), 9);
  EXPECT_EQ(tree.tree_size(), 10u);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(tree.root_child_visits(i), 1u) << i;

  p.rollouts_per_move = 10 * 8;
  Mcts<G> deeper(p, G::Rules{});
  search(deeper, ttt::initial_state(), 1);
  EXPECT_EQ(deeper.tree_size(), 10u + 8u);
  uint32_t visits = 0;
  for (int i = 0; i < 9; ++i) visits += deeper.root_child_visits(i);
  EXPECT_EQ(visits, 10u);
}

struct Puzzle {
  const char* position;
  std::set<std::string> good;  // the moves that neither lose nor miss a win
};

TEST(MctsDeterministic, TakesTheWinAndBlocksTheThreat) {
  const Puzzle puzzles[] = {
      {"xx./oo./... x", {"c3"}},                    // X wins on c3 (O threatens c2)
      {"xx./oo./... o", {"c2"}},                    // O wins on c2
      {"x../oo./x.. x", {"c2"}},                    // X has no win and must block c2
      {"o.x/.x./... o", {"a1"}},                    // O must block the diagonal at a1
      {".../.x./... o", {"a1", "c1", "a3", "c3"}},  // O must take a corner: an edge loses
  };
  for (const Puzzle& pz : puzzles) {
    Mcts<G> tree(mcts(20000), G::Rules{});
    const G::Move m = search(tree, ttt::parse_position(pz.position), 7);
    EXPECT_TRUE(pz.good.count(ttt::to_string(m))) << pz.position << ": " << ttt::to_string(m);
  }
}

TEST(MctsDeterministic, DrawsAgainstItselfFromTheEmptyBoard) {
  for (const bool reuse : {true, false})
    for (uint32_t game = 0; game < 4; ++game) {
      MctsEngine<G> a(mcts(4000, reuse), G::Rules{}, 0), b(mcts(4000, reuse), G::Rules{}, 0);
      Engine<G>* players[2] = {&a, &b};
      const auto played = test::play_game<G>(
          players, ttt::initial_state(static_cast<int>(game % 2)), params(100 + game), game);
      EXPECT_TRUE(G::is_over(played.final));
      EXPECT_EQ(G::winner(played.final), G::kNoWinner)
          << "game " << game << (reuse ? " with" : " without") << " tree reuse ended "
          << ttt::to_string(played.final);
    }
}

TEST(MctsDeterministic, NeverLosesToRandomMoves) {
  for (uint32_t game = 0; game < 10; ++game) {
    MctsEngine<G> m(mcts(2000), G::Rules{}, 0);
    RandomEngine<G> r{G::Rules{}};
    const int mcts_side = static_cast<int>(game % 2);
    Engine<G>* players[2];
    players[mcts_side] = &m;
    players[mcts_side ^ 1] = &r;
    const auto played = test::play_game<G>(
        players, ttt::initial_state(static_cast<int>((game / 2) % 2)), params(300 + game), game);
    EXPECT_NE(G::winner(played.final), mcts_side ^ 1)
        << "game " << game << ": " << ttt::to_string(played.final);
  }
}

}  // namespace
}  // namespace sp::search
