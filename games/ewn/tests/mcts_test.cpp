// MCTS on hand-made EWN positions: wins in one, parries a threat, and on tiny endgames its root
// values converge to exact expectimax values computed by brute force.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <map>
#include <vector>

#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/search/mcts.hpp"

namespace sp::search {
namespace {

using Tree = Mcts<EwnGame>;

// Runs the search of the move at `root` (ply `ply` of game 0) on `tree`, which reuses the subtree
// advance() kept, with the plain CPU loop as the backend.
void run_search(Tree& tree, const ewn::State& root, uint32_t ply, uint64_t seed) {
  tree.begin(root, SearchIds{0, ply, seed});
  rollout::PlayoutParams<EwnGame> params;
  params.seed = seed;
  std::vector<rollout::Leaf<EwnGame>> leaves;
  std::vector<rollout::LeafStats> stats;
  int guard = 0;
  while (!tree.finished()) {
    leaves.clear();
    tree.select_leaves(leaves);
    stats.resize(leaves.size());
    WorkPool pool(1);
    rollout::run_rollouts_cpu<EwnGame>(leaves, params, stats, pool);
    tree.backup(stats);
    if (++guard > 1000000) ADD_FAILURE() << "search does not finish";
  }
}

// A whole search for the position in a new tree.
Tree search(const ewn::State& root, MctsParams p, uint64_t seed = 1) {
  Tree tree(p, ewn::Rules{});
  run_search(tree, root, 0, seed);
  return tree;
}

// Every node's statistics by its path of child indices, with the first `strip` indices removed.
using Snapshot = std::map<std::vector<int>, Tree::NodeStats>;
void snapshot(const Tree& t, std::vector<int>& path, size_t strip, Snapshot& out) {
  const Tree::NodeStats n = t.node_stats(path);
  out[std::vector<int>(path.begin() + static_cast<std::ptrdiff_t>(strip), path.end())] = n;
  for (int c = 0; c < n.children; ++c) {
    path.push_back(c);
    snapshot(t, path, strip, out);
    path.pop_back();
  }
}
Snapshot snapshot(const Tree& t, std::vector<int> below = {}) {
  Snapshot out;
  const size_t strip = below.size();
  snapshot(t, below, strip, out);
  return out;
}

// Exact probability that `player` wins from s (die rolled) with best play by both sides.
double expectimax(const ewn::State& s, int player, std::map<std::string, double>& memo) {
  const std::string key = ewn::to_string(s);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  ewn::MoveList moves;
  ewn::generate_moves(s, ewn::Rules{}, moves);
  double best = -1;
  for (int i = 0; i < moves.size; ++i) {
    ewn::State child = s;
    ewn::apply(child, moves.moves[i]);
    double v;
    if (ewn::is_over(child)) {
      v = child.winner == s.side ? 1.0 : 0.0;
    } else {
      v = 0;
      for (int die = 1; die <= 6; ++die) {
        child.die = static_cast<uint8_t>(die);
        v += (1.0 - expectimax(child, child.side, memo)) / 6.0;  // child.side is the opponent
      }
    }
    best = std::max(best, v);
  }
  const double result = player == s.side ? best : 1.0 - best;
  memo[key] = result;
  return result;
}

// Exact value of each root move for the side to move.
std::vector<double> exact_move_values(const ewn::State& s) {
  std::map<std::string, double> memo;
  ewn::MoveList moves;
  ewn::generate_moves(s, ewn::Rules{}, moves);
  std::vector<double> out;
  for (int i = 0; i < moves.size; ++i) {
    ewn::State child = s;
    ewn::apply(child, moves.moves[i]);
    if (ewn::is_over(child)) {
      out.push_back(child.winner == s.side ? 1.0 : 0.0);
      continue;
    }
    double v = 0;
    for (int die = 1; die <= 6; ++die) {
      child.die = static_cast<uint8_t>(die);
      v += (1.0 - expectimax(child, child.side, memo)) / 6.0;
    }
    out.push_back(v);
  }
  return out;
}

MctsParams params(uint32_t rollouts) {
  MctsParams p;
  p.rollouts_per_move = rollouts;
  p.rollouts_per_leaf = 4;
  p.leaves_per_round = 4;
  p.exploration = 0.7;
  return p;
}

TEST(EwnMcts, TakesAWinInOne) {
  // Player 0's cube 1 on d2: d2-e1 wins at once; player 1 threatens to win next move from b4.
  const ewn::State s = ewn::parse_position("5/1a3/5/3A1/5 0 1");
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Tree t = search(s, params(400), seed);
    EXPECT_EQ(ewn::to_string(t.best_move()), "d2-e1") << "seed " << seed;
  }
}

TEST(EwnMcts, TakesAWinByEliminatingTheLastCube) {
  // Player 1's only cube stands on c3; player 0's cube 2 on b4 can take it (b4-c3).
  const ewn::State s = ewn::parse_position("5/1B3/2a2/5/5 0 2");
  const Tree t = search(s, params(400));
  EXPECT_EQ(ewn::to_string(t.best_move()), "b4-c3");
}

TEST(EwnMcts, PreventsAnImmediateLoss) {
  // Player 1's cube 1 on b4 is one step from its goal a5 and moves on rolls 1-5 (cube 6 is its
  // only other cube). Player 0 rolled 1: cube 1 on a5 must take it (a5-b4); a5-b5 and a5-a4 lose
  // five times in six. The capture does not end the game (cube 6 remains).
  const ewn::State s = ewn::parse_position("A4/1a3/4f/5/3B1 0 1");
  const Tree t = search(s, params(600));
  EXPECT_EQ(ewn::to_string(t.best_move()), "a5-b4");
}

TEST(EwnMcts, RootValuesConvergeToExpectimaxOnTinyEndgames) {
  // One cube against one (and one against two): trees small enough for the search to see through.
  const char* positions[] = {"5/5/1A3/3a1/5 0 3", "5/1A3/5/2a2/4b 0 5", "A4/5/2B2/5/3ab 0 4"};
  for (const char* pos : positions) {
    const ewn::State s = ewn::parse_position(pos);
    const std::vector<double> exact = exact_move_values(s);
    for (const uint32_t fanout : {1u, 6u}) {
      MctsParams p = params(60000);
      p.chance = ChanceSelection::kRoundRobin;
      p.rollouts_per_leaf = 8;
      p.fanout = fanout;
      const Tree t = search(s, p);
      int best_exact = 0;
      for (int i = 1; i < static_cast<int>(exact.size()); ++i)
        if (exact[i] > exact[best_exact]) best_exact = i;
      int best_visits = 0;
      for (int i = 1; i < t.root_children(); ++i)
        if (t.root_child_visits(i) > t.root_child_visits(best_visits)) best_visits = i;
      EXPECT_NEAR(t.root_child_value(best_visits), exact[best_exact], 0.03)
          << pos << ", fanout " << fanout;
      EXPECT_NEAR(exact[best_visits], exact[best_exact], 0.01)
          << pos << ", fanout " << fanout << ": chose a clearly worse move";
    }
  }
}

// fanout in a game with chance: the root's expansion sends its first moves' chance nodes (the
// state after the move, the die not yet rolled), each with rollouts_per_leaf rollouts.
TEST(EwnMcts, FanoutSendsTheRootMovesChanceNodes) {
  const ewn::State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  ewn::MoveList moves;
  ewn::generate_moves(s, ewn::Rules{}, moves);
  ASSERT_GE(moves.size, 2);
  MctsParams p = params(4000);
  p.leaves_per_round = 1;
  p.fanout = 8;
  Tree tree(p, ewn::Rules{});
  tree.begin(s, SearchIds{0, 0, 1});
  std::vector<rollout::Leaf<EwnGame>> leaves;
  tree.select_leaves(leaves);
  ASSERT_EQ(leaves.size(), static_cast<size_t>(std::min(moves.size, 8)));
  for (size_t i = 0; i < leaves.size(); ++i) {
    ewn::State child = s;
    ewn::apply(child, moves.moves[i]);
    EXPECT_EQ(ewn::to_string(leaves[i].state), ewn::to_string(child)) << i;
    EXPECT_EQ(leaves[i].rollouts, p.rollouts_per_leaf);
  }
  // And a whole search with it finds the win in one.
  const ewn::State win = ewn::parse_position("5/1a3/5/3A1/5 0 1");
  EXPECT_EQ(ewn::to_string(search(win, p).best_move()), "d2-e1");
}

TEST(EwnMcts, NodeBudgetDegradesGracefully) {
  const ewn::State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  MctsParams p = params(4000);
  p.node_budget = 50.0 * Tree::bytes_per_node() / (1 << 20);  // 50 nodes, in MiB
  const Tree t = search(s, p);
  EXPECT_LE(t.tree_size(), 50u);
  MoveStats stats;
  t.best_move(&stats);
  EXPECT_GE(stats.rollouts, 4000u);
}

// The played move and the rolled die of `s`'s search: the subtree advance() keeps sits at path
// {move index, chance class index}; sets *next to the state after the move with `die` rolled.
std::vector<int> kept_path(const ewn::State& s, ewn::Move m, int die, ewn::State* next) {
  ewn::MoveList moves;
  ewn::generate_moves(s, ewn::Rules{}, moves);
  int move_index = -1;
  for (int i = 0; i < moves.size; ++i)
    if (moves.moves[i] == m) move_index = i;
  ewn::State after = s;
  ewn::apply(after, m);
  *next = after;
  next->die = static_cast<uint8_t>(die);
  int representative[EwnGame::kChanceOutcomes], weight[EwnGame::kChanceOutcomes];
  const int classes = EwnGame::chance_classes(after, ewn::Rules{}, representative, weight);
  int class_index = -1;
  for (int k = 0; k < classes; ++k) {
    ewn::State c = after;
    EwnGame::set_chance(c, representative[k]);
    if (EwnGame::same_class(c, *next, ewn::Rules{})) class_index = k;
  }
  EXPECT_GE(move_index, 0);
  EXPECT_GE(class_index, 0);
  return {move_index, class_index};
}

TEST(EwnMcts, TreeReuseKeepsTheSubtreeWithItsStatistics) {
  const ewn::State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  Tree t = search(s, params(3000));
  const ewn::Move m = t.best_move();
  ewn::State next;
  const std::vector<int> kept = kept_path(s, m, 4, &next);
  const Snapshot before = snapshot(t, kept);
  ASSERT_GT(before.at({}).visits, 0u) << "the kept subtree was searched";
  ASSERT_GT(before.size(), 1u);
  t.advance(m, next);
  // The new tree is exactly that subtree: the same nodes, visits, result sums and counts.
  EXPECT_EQ(t.tree_size(), before.size());
  EXPECT_EQ(snapshot(t), before);
  ASSERT_EQ(t.root_children(), before.at({}).children);
  for (int k = 0; k < t.root_children(); ++k)
    EXPECT_EQ(t.root_child_visits(k), before.at({k}).visits);

  // The next search starts from those statistics and adds to them: no node loses anything, and
  // the root and its children gain exactly the results of this search's rollouts.
  run_search(t, next, 1, 1);
  MoveStats stats;
  t.best_move(&stats);
  const Snapshot after = snapshot(t);
  for (const auto& [path, old] : before) {
    const Tree::NodeStats& now = after.at(path);
    EXPECT_GE(now.visits, old.visits);
    EXPECT_GE(now.results, old.results);
  }
  EXPECT_EQ(after.at({}).results - before.at({}).results, static_cast<double>(stats.rollouts));
  double gained = 0;
  for (int k = 0; k < t.root_children(); ++k)
    gained += after.at({k}).results - before.at({k}).results;
  EXPECT_EQ(gained, static_cast<double>(stats.rollouts));
  EXPECT_GE(stats.rollouts, 3000u);
}

// Without tree reuse, advance() drops the tree and the next search is the search of the new root
// in a fresh tree, node for node.
TEST(EwnMcts, WithoutReuseTheNextSearchEqualsAFreshOne) {
  const ewn::State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  MctsParams p = params(2000);
  p.reuse_tree = false;
  Tree t = search(s, p);
  const ewn::Move m = t.best_move();
  ewn::State next;
  kept_path(s, m, 4, &next);
  t.advance(m, next);
  run_search(t, next, 1, 1);
  Tree fresh(p, ewn::Rules{});
  run_search(fresh, next, 1, 1);
  EXPECT_EQ(snapshot(t), snapshot(fresh));
  EXPECT_EQ(t.best_move(), fresh.best_move());
}

TEST(EwnMcts, SameSeedSameSearch) {
  const ewn::State s = ewn::parse_position("ABC2/DE3/F3f/3ed/2cba 0 3");
  const Tree a = search(s, params(2000), 7), b = search(s, params(2000), 7);
  ASSERT_EQ(a.root_children(), b.root_children());
  for (int i = 0; i < a.root_children(); ++i) {
    EXPECT_EQ(a.root_child_visits(i), b.root_child_visits(i));
    EXPECT_EQ(a.root_child_value(i), b.root_child_value(i));
  }
}

}  // namespace
}  // namespace sp::search
