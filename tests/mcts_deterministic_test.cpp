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

// The leaves of the first round of tree's search of root (seed 1).
std::vector<rollout::Leaf<G>> first_round(Mcts<G>& tree, const G::State& root) {
  tree.begin(root, SearchIds{0, 0, 1});
  std::vector<rollout::Leaf<G>> leaves;
  tree.select_leaves(leaves);
  return leaves;
}

// fanout: a descent that expands a node sends its children as the leaves (all when they fit,
// else the tactical ones and a uniform sample of the rest), up to fanout, leaves_per_round
// descents a round, never more than the budget needs.
TEST(MctsDeterministic, FanoutSendsTheExpandedNodesChildren) {
  MctsParams p = mcts(9 * 8);
  p.leaves_per_round = 1;
  p.fanout = 9;
  Mcts<G> tree(p, G::Rules{});
  const G::State root = ttt::initial_state();
  std::vector<rollout::Leaf<G>> leaves = first_round(tree, root);
  ASSERT_EQ(leaves.size(), 9u);  // the root's first visit expands it: its nine children
  G::MoveList moves;
  G::generate_moves(root, G::Rules{}, moves);
  for (int i = 0; i < 9; ++i) {
    G::State child = root;
    G::apply(child, moves.moves[i]);
    EXPECT_EQ(ttt::to_string(leaves[i].state), ttt::to_string(child)) << i;
    EXPECT_EQ(leaves[i].rollouts, 8u);
    EXPECT_EQ(leaves[i].leaf, static_cast<uint32_t>(i));
  }
  tree.backup(std::vector<rollout::LeafStats>(9, rollout::LeafStats{{4, 4}, 0, 8, 40}));
  EXPECT_TRUE(tree.finished());
  EXPECT_EQ(tree.tree_size(), 10u);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(tree.root_child_visits(i), 1u) << i;

  // The budget left caps a descent's leaves: 20 rollouts need three leaves of 8.
  p.rollouts_per_move = 20;
  Mcts<G> capped(p, G::Rules{});
  EXPECT_EQ(first_round(capped, root).size(), 3u);

  // Two descents a round: the root's first visit sends four of its nine children (a uniform
  // sample: fewer fit than it has), the second descent goes to an unvisited child (the first in
  // generation order that is not in flight) and sends four of its eight replies.
  p.rollouts_per_move = 1000;
  p.leaves_per_round = 2;
  p.fanout = 4;
  Mcts<G> two(p, G::Rules{});
  leaves = first_round(two, root);
  ASSERT_EQ(leaves.size(), 8u);
  std::set<std::string> children, sent;
  for (int i = 0; i < 9; ++i) {
    G::State child = root;
    G::apply(child, moves.moves[i]);
    children.insert(ttt::to_string(child));
  }
  for (int i = 0; i < 4; ++i) sent.insert(ttt::to_string(leaves[i].state));
  EXPECT_EQ(sent.size(), 4u);
  for (const std::string& leaf : sent) EXPECT_TRUE(children.count(leaf)) << leaf;
  // The second descent's leaves: replies (two stones, the root's side to move again).
  for (int i = 4; i < 8; ++i) {
    G::State leaf = leaves[i].state;
    EXPECT_EQ(G::side_to_move(leaf), G::side_to_move(root)) << i;
    int stones = 0;
    for (char ch : ttt::to_string(leaf)) stones += ch == 'x' || ch == 'o';
    EXPECT_GE(stones, 2) << ttt::to_string(leaf);
    sent.insert(ttt::to_string(leaf));
  }
  EXPECT_EQ(sent.size(), 8u) << "eight different leaves";
  two.backup(std::vector<rollout::LeafStats>(8, rollout::LeafStats{{4, 4}, 0, 8, 40}));
  uint32_t root_visits = 0;
  for (int i = 0; i < 9; ++i) root_visits += two.root_child_visits(i);
  EXPECT_EQ(root_visits, 8u);
  int fanned = 0;
  for (int i = 0; i < 9; ++i) fanned += two.root_child_visits(i) == 4;
  EXPECT_EQ(fanned, 1) << "one root child got its four replies' visits";

  // The same ids draw the same sample: the search is deterministic.
  Mcts<G> again(p, G::Rules{});
  const std::vector<rollout::Leaf<G>> same = first_round(again, root);
  ASSERT_EQ(same.size(), 8u);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(ttt::to_string(same[i].state), ttt::to_string(leaves[i].state)) << i;
}

// fanout_backup: best. The fanned node and the nodes above it learn one result, its best child's
// mean for the side to move there; each leaf counts for its own child. A terminal child is scored
// exactly and can be that best.
TEST(MctsDeterministic, FanoutBestBacksUpTheBestChildOnce) {
  MctsParams p = mcts(1000);
  p.leaves_per_round = 1;
  p.fanout = 9;
  const G::State root = ttt::initial_state();  // x (player 0) to move
  std::vector<rollout::LeafStats> stats;
  for (uint32_t i = 0; i < 9; ++i) stats.push_back(rollout::LeafStats{{i, 8 - i}, 0, 8, 40});
  for (const bool best : {false, true}) {
    p.fanout_best = best;
    Mcts<G> tree(p, G::Rules{});
    ASSERT_EQ(first_round(tree, root).size(), 9u);
    tree.backup(std::vector<rollout::LeafStats>(stats.begin(), stats.begin() + 9));
    for (int i = 0; i < 9; ++i) {
      const auto child = tree.node_stats(std::vector<int>{i});
      EXPECT_EQ(child.visits, 1u) << i;
      EXPECT_EQ(child.results, 8.0) << i;
    }
    const auto r = tree.node_stats(std::vector<int>{});
    uint32_t sum = 0;
    double w = 0;
    for (int i = 0; i < 9; ++i) w += tree.node_stats(std::vector<int>{i}).wins0;
    for (int i = 0; i < 9; ++i) sum += tree.node_stats(std::vector<int>{i}).visits;
    EXPECT_EQ(sum, 9u);
    if (best) {
      // The child of 8 wins in 8 is x's best: the root gets its mean, once.
      EXPECT_EQ(r.visits, 1u);
      EXPECT_EQ(r.results, 8.0);
      EXPECT_DOUBLE_EQ(r.wins0, 8.0);
    } else {
      EXPECT_EQ(r.visits, 9u);
      EXPECT_EQ(r.results, 72.0);
      EXPECT_DOUBLE_EQ(r.wins0, w);
    }
  }

  // The next descent goes below a root child into a fresh grandchild and fans out its seven
  // children: with best, the grandchild, the child and the root each learn one more result.
  p.fanout_best = true;
  Mcts<G> tree(p, G::Rules{});
  first_round(tree, root);
  tree.backup(std::vector<rollout::LeafStats>(stats.begin(), stats.begin() + 9));
  std::vector<rollout::Leaf<G>> leaves;
  tree.select_leaves(leaves);
  ASSERT_EQ(leaves.size(), 7u);
  tree.backup(std::vector<rollout::LeafStats>(7, rollout::LeafStats{{2, 6}, 0, 8, 40}));
  EXPECT_EQ(tree.node_stats(std::vector<int>{}).visits, 2u);
  EXPECT_EQ(tree.node_stats(std::vector<int>{}).results, 16.0);
  int grown = 0;
  for (int i = 0; i < 9; ++i) {
    const auto child = tree.node_stats(std::vector<int>{i});
    if (child.children == 0) continue;
    ++grown;
    EXPECT_EQ(child.visits, 2u);
    int fanned = 0;
    for (int j = 0; j < child.children; ++j) {
      const auto g = tree.node_stats(std::vector<int>{i, j});
      if (g.children == 0) continue;
      ++fanned;
      EXPECT_EQ(g.visits, 1u);
      EXPECT_DOUBLE_EQ(g.wins0, 2.0) << "each of its children's leaves scored 2 of 8 for x";
    }
    EXPECT_EQ(fanned, 1);
  }
  EXPECT_EQ(grown, 1);

  // x to move with a win on c3: the terminal child is scored exactly and is the best, whatever
  // the other children's leaves say.
  Mcts<G> wins(p, G::Rules{});
  const G::State threat = ttt::parse_position("xx./oo./... x");
  const auto sent = first_round(wins, threat);
  ASSERT_FALSE(sent.empty());
  wins.backup(std::vector<rollout::LeafStats>(sent.size(), rollout::LeafStats{{0, 8}, 0, 8, 40}));
  const auto top = wins.node_stats(std::vector<int>{});
  EXPECT_EQ(top.visits, 1u);
  EXPECT_DOUBLE_EQ(top.wins0, 8.0) << "the win, not the leaves' losses";
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
  for (const uint32_t fanout : {1u, 4u, 9u, 104u})  // 104: fanout 4, fanout_backup best
    for (const Puzzle& pz : puzzles) {
      MctsParams p = mcts(20000);
      p.fanout = fanout % 100;
      p.fanout_best = fanout >= 100;
      Mcts<G> tree(p, G::Rules{});
      const G::Move m = search(tree, ttt::parse_position(pz.position), 7);
      EXPECT_TRUE(pz.good.count(ttt::to_string(m)))
          << pz.position << ": " << ttt::to_string(m) << ", fanout " << fanout;
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
