// MCTS memory on wide games (issue 9): a node stores statistics and its move, not a game state,
// so a Gomoku-sized tree (hundreds of moves a node, a 100-byte state) costs a few dozen bytes a
// node, and the arena never grows past node_budget MiB. A tests-only wide game stands in for
// Gomoku until it lands.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "host/engines/search/mcts.hpp"

namespace sp {
namespace {

// 400 moves everywhere, a 100-byte state, over after kPlies plies. The state records the moves
// played, so two paths give equal states only when they play the same moves.
struct WideGame {
  static constexpr const char* kName = "wide";
  static constexpr int kMoves = 400;
  static constexpr int kPlies = 12;
  static constexpr uint8_t kNoWinner = 2;
  static constexpr int kMaxMoves = kMoves;

  struct State {
    uint16_t moves[kPlies];  // moves played so far, in order
    uint8_t fill[74];        // ballast up to a Gomoku-sized state
    uint8_t ply;
    uint8_t side;
  };
  static_assert(sizeof(State) == 100);
  struct Move {
    uint16_t index = 0;
    bool operator==(const Move&) const = default;
  };
  struct MoveList {
    Move moves[kMoves];
    int size = 0;
  };
  struct Rules {};
  struct Policy {};
  struct Result {
    uint8_t winner;
    uint16_t plies;
  };

  static State initial() {
    State s;
    std::memset(&s, 0, sizeof s);
    return s;
  }
  static void generate_moves(const State&, const Rules&, MoveList& list) {
    list.size = kMoves;
    for (int i = 0; i < kMoves; ++i) list.moves[i].index = static_cast<uint16_t>(i);
  }
  static void apply(State& s, Move m) {
    s.moves[s.ply++] = m.index;
    s.side ^= 1;
  }
  static bool is_over(const State& s) { return s.ply >= kPlies; }
  static int winner(const State& s) { return s.moves[0] % 3; }  // 2: a draw
  static int side_to_move(const State& s) { return s.side; }
  static Result playout(const State& s, const Rules&, const Policy&, BlockStream&) {
    return Result{static_cast<uint8_t>(winner(s)), 0};
  }
  template <class Sink>
  static void playout_many(const State& s, const Rules& r, const Policy& p, PhiloxKey, uint32_t,
                           uint32_t, uint32_t first, uint32_t last, Sink&& sink) {
    BlockStream rng(PhiloxKey{}, 0, 0, 0);
    for (uint32_t i = first; i < last; ++i) sink(i, playout(s, r, p, rng));
  }
};
static_assert(DeterministicGame<WideGame>);

using Tree = search::Mcts<WideGame>;

uint64_t state_hash(const WideGame::State& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&s);
  for (size_t i = 0; i < sizeof s; ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

// Leaves answered from a hash of their state: player 0 wins when its low bit is clear.
std::vector<rollout::LeafStats> answer(const std::vector<rollout::Leaf<WideGame>>& leaves) {
  std::vector<rollout::LeafStats> stats(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    stats[i].rollouts = leaves[i].rollouts;
    stats[i].wins[state_hash(leaves[i].state) & 1] = leaves[i].rollouts;
  }
  return stats;
}

search::MctsParams wide_params(double budget_mib, uint32_t rollouts) {
  search::MctsParams p;
  p.node_budget = budget_mib;
  p.rollouts_per_move = rollouts;
  p.rollouts_per_leaf = 1;
  p.leaves_per_round = 64;
  return p;
}

TEST(MctsMemory, ANodeOfAWideGameHoldsNoState) {
  // 48 bytes whatever the state: 200k nodes of a 20x20 Gomoku tree in under 10 MiB.
  EXPECT_LE(Tree::bytes_per_node(), 48u);
  EXPECT_LT(Tree::bytes_per_node(), sizeof(WideGame::State));
  EXPECT_LE(200'000 * Tree::bytes_per_node(), size_t{10} << 20);
  // The EWN node, which the config help and README quote.
  EXPECT_EQ(search::Mcts<EwnGame>::bytes_per_node(), 48u);
  EXPECT_EQ(Tree::nodes_for_budget(1), (size_t{1} << 20) / Tree::bytes_per_node());
}

TEST(MctsMemory, AFullTreeStaysWithinItsBudget) {
  const double budget_mib = 1;
  Tree tree(wide_params(budget_mib, 30000), WideGame::Rules{});
  tree.begin(WideGame::initial(), search::SearchIds{0, 0, 1});
  std::vector<rollout::Leaf<WideGame>> leaves;
  while (!tree.finished()) {
    leaves.clear();
    tree.select_leaves(leaves);
    tree.backup(answer(leaves));
  }
  search::MoveStats stats;
  tree.best_move(&stats);
  EXPECT_GE(stats.rollouts, 30000u) << "a full tree keeps evaluating leaves";
  // Full: another expansion of 400 children would not fit.
  EXPECT_LE(tree.tree_size(), tree.node_limit());
  EXPECT_GT(tree.tree_size() + WideGame::kMoves, tree.node_limit());
  EXPECT_LE(tree.node_bytes(), static_cast<size_t>(budget_mib * (1 << 20)));
}

TEST(MctsMemory, LeafStatesAreRebuiltAlongTheirPath) {
  // From the root, the first 400 leaves are the root's children in generation order, then the
  // search goes deeper: every leaf's state must be the root with its path's moves applied, which
  // the state's move record shows (and which equal states from two paths would break).
  Tree tree(wide_params(16, 1000), WideGame::Rules{});  // room for every expansion
  const WideGame::State root = WideGame::initial();
  tree.begin(root, search::SearchIds{0, 0, 1});
  std::vector<rollout::Leaf<WideGame>> leaves;
  size_t seen = 0;
  int deeper = 0;
  while (!tree.finished()) {
    leaves.clear();
    tree.select_leaves(leaves);
    for (const auto& leaf : leaves) {
      if (seen < WideGame::kMoves) {
        WideGame::State expected = root;
        WideGame::apply(expected, WideGame::Move{static_cast<uint16_t>(seen)});
        EXPECT_EQ(std::memcmp(&leaf.state, &expected, sizeof expected), 0) << "leaf " << seen;
      } else {
        ASSERT_GE(leaf.state.ply, 2) << "leaf " << seen << " is not below a root child";
        deeper += 1;
        EXPECT_EQ(leaf.state.side, leaf.state.ply % 2);
      }
      ++seen;
    }
    tree.backup(answer(leaves));
  }
  EXPECT_GT(deeper, 0);
}

}  // namespace
}  // namespace sp
