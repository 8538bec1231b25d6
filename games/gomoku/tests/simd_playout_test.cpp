// The lane-parallel Gomoku playouts (games/gomoku/lanes.hpp) against the scalar playout, on every
// path this processor runs (the others skip, naming the ISA they lack): each rollout's winner and
// plies, uniform and weighted (several weights, 0 included), from the empty board, random,
// near-terminal, full-board and threat positions (wins and blocks) under both win rules on 15x15
// and 20x20 boards (each its own instantiation of the kernels), lanes refilled across tasks of
// uneven sizes, mixed policies and mixed board sizes, and the CPU backend's statistics.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/philox.hpp"
#include "core/simd/simd_path.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/lanes.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "tests/rollout_fixtures.hpp"
#include "tests/simd_playout_fixtures.hpp"

namespace sp::rollout {
namespace {

using gomoku::lanes::Task;

// The board sizes the lanes play (every size of the rules): the lane tests run on each, under both
// win rules. Seeds add size - kFirstSize, so that 15x15 keeps the positions it always had.
constexpr uint8_t kLaneSizes[] = {15, 20};
constexpr int kFirstSize = kLaneSizes[0];

std::vector<gomoku::Rules> lane_rules() {
  std::vector<gomoku::Rules> out;
  for (uint8_t size : kLaneSizes)
    for (gomoku::WinRule rule : {gomoku::WinRule::kFreestyle, gomoku::WinRule::kStandard})
      out.push_back(gomoku::Rules{size, rule});
  return out;
}

std::string describe(const gomoku::Rules& rules) {
  return std::to_string(rules.size) + "x" + std::to_string(rules.size) +
         (rules.rule == gomoku::WinRule::kStandard ? " standard" : " freestyle");
}

// Random games under `rules` cut before their end (append_cut_games), so lanes start anywhere
// from the empty board to one ply before a win or a full board.
std::vector<gomoku::State> positions(uint64_t seed, int games, const gomoku::Rules& rules) {
  std::vector<gomoku::State> out;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  append_cut_games<GomokuGame>(out, gomoku::initial_state(rules), rules, games, rng);
  return out;
}

// A board of `rules` filled without five in a row (a draw by a full board when played out): rows
// of pattern blocks that never line up five of one colour, with the last squares left empty.
gomoku::State nearly_full(const gomoku::Rules& rules, int empty_left) {
  gomoku::State s = gomoku::initial_state(rules);
  const int n = rules.size;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      if (y * n + x >= n * n - empty_left) continue;
      const int side = ((x / 2) + y) % 2;  // pairs alternating, shifted by a row: no five
      s.stones[side][(y * n + x) >> 6] |= uint64_t{1} << ((y * n + x) & 63);
      ++s.ply;
    }
  s.side = static_cast<uint8_t>(s.ply % 2);
  return s;
}

class GomokuSimdPlayout : public SimdPathTest {};

// One task per rollout: every rollout's winner and plies equal gomoku::playout's on its stream,
// and the lanes refill from the next task whenever one finishes.
TEST_P(GomokuSimdPlayout, EveryRolloutEqualsScalarPlayout) {
  for (const gomoku::Rules& rules : lane_rules()) {
    std::vector<gomoku::State> roots = positions(31 + rules.size, 90, rules);
    for (int e : {1, 2, 5, 9}) roots.push_back(nearly_full(rules, e));
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t r = 0; r < 1 + i % 4; ++r)
        tasks.push_back(
            Task{roots[i], stream_key(77, i % 13), i % 3, i, r, r + 1, gomoku::Policy{}});
    Outcomes outcomes;
    outcomes.add(expect_lanes_equal_scalar<GomokuGame>(GetParam(), tasks, rules, describe(rules)));
    EXPECT_GT(outcomes.wins[0], 50u) << describe(rules);
    EXPECT_GT(outcomes.wins[1], 50u) << describe(rules);
    EXPECT_GE(outcomes.draws, 3u) << describe(rules);
  }
}

// Tasks of uneven sizes (empty, one rollout, a lane's count plus or minus one, many) keep their
// totals apart.
TEST_P(GomokuSimdPlayout, UnevenTasksKeepTheirTotals) {
  for (uint8_t size : kLaneSizes) {
    const gomoku::Rules rules{size, gomoku::WinRule::kFreestyle};
    const auto roots = positions(41 + size - kFirstSize, 30, rules);
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      tasks.push_back(Task{roots[i], stream_key(5, i), 2, i, 0, 0, gomoku::Policy{}});
    make_uneven(tasks);
    expect_lanes_equal_scalar<GomokuGame>(GetParam(), tasks, rules, describe(rules));
  }
}

// The CPU backend on this path: the scalar reference loop's statistics, on batches that mix
// uniform and weighted leaves and both board sizes, on one and on several threads.
TEST_P(GomokuSimdPlayout, BackendEqualsScalarReference) {
  std::vector<Leaf<GomokuGame>> leaves;
  for (const gomoku::Rules& rules : lane_rules())
    append_leaves<GomokuGame>(leaves, positions(51 + rules.size + int(rules.rule), 40, rules), 5);
  for (int variant = 0; variant < 2; ++variant) {
    PlayoutParams<GomokuGame> p;
    p.seed = 123 + variant;
    p.policies[1].kind = gomoku::PolicyKind::kWeighted;
    if (variant == 1)  // weighted both: the default, and adjacent squares never
      p.policies[0] = gomoku::Policy{gomoku::PolicyKind::kWeighted, 0, 2 * gomoku::kWeightOne};
    expect_backend_equals_reference(GetParam(), leaves, p, "variant " + std::to_string(variant));
  }
}

// A position on a board of `rules` from lists of (x, y) stones of each side, `side` to move.
gomoku::State with_stones(std::initializer_list<std::pair<int, int>> black,
                          std::initializer_list<std::pair<int, int>> white, int side,
                          const gomoku::Rules& rules) {
  gomoku::State s = gomoku::initial_state(rules);
  int colour = 0;
  for (const auto& stones : {black, white}) {
    for (const auto& [x, y] : stones) {
      const int sq = y * rules.size + x;
      s.stones[colour][sq >> 6] |= uint64_t{1} << (sq & 63);
      ++s.ply;
    }
    ++colour;
  }
  s.side = static_cast<uint8_t>(side);
  return s;
}

// Positions where the weighted policy wins or blocks at once: an open four and a broken four of
// either side to move, and a row where the gap would make six (a win under the freestyle rule
// only, so a threat the standard rule's check drops). The stones stand within the first 15 rows
// and columns, so every board size takes them (some on the edge of a 15x15 board). On a 20x20
// board also the same turned half a turn into its far corner (columns and rows 15 to 19, which
// only 20x20 has), fours along its last column and row, and fours and threes (made fours by the
// playouts) on a diagonal and an anti-diagonal that run into its last row, one end off the board.
std::vector<gomoku::State> threat_positions(const gomoku::Rules& rules) {
  std::vector<gomoku::State> out;
  for (int side = 0; side < 2; ++side) {
    out.push_back(with_stones({{3, 7}, {4, 7}, {5, 7}, {6, 7}}, {{3, 9}, {4, 9}, {5, 9}, {10, 10}},
                              side, rules));
    out.push_back(with_stones({{2, 2}, {3, 3}, {5, 5}, {6, 6}, {12, 1}},
                              {{8, 2}, {8, 3}, {8, 4}, {0, 14}}, side, rules));
    out.push_back(with_stones({{0, 5}, {1, 5}, {2, 5}, {3, 5}, {5, 5}, {6, 5}},
                              {{7, 5}, {9, 9}, {10, 11}, {13, 2}, {12, 3}}, side, rules));
    out.push_back(with_stones({{14, 0}, {13, 1}, {12, 2}, {10, 4}},
                              {{0, 14}, {1, 14}, {2, 14}, {3, 14}}, side, rules));
  }
  if (rules.size != 20) return out;
  for (size_t i = 0, n = out.size(); i < n; ++i) {
    gomoku::State turned = gomoku::initial_state(rules);
    for (int colour = 0; colour < 2; ++colour)
      for (int sq = 0; sq < 20 * 20; ++sq)
        if ((out[i].stones[colour][sq >> 6] >> (sq & 63)) & 1u) {
          const int to = 20 * 20 - 1 - sq;  // (x, y) to (19 - x, 19 - y)
          turned.stones[colour][to >> 6] |= uint64_t{1} << (to & 63);
        }
    turned.ply = out[i].ply;
    turned.side = out[i].side;
    out.push_back(turned);
  }
  for (int side = 0; side < 2; ++side) {
    out.push_back(with_stones({{19, 15}, {19, 16}, {19, 17}, {19, 19}, {4, 4}},
                              {{15, 19}, {16, 19}, {17, 19}, {18, 19}}, side, rules));
    out.push_back(with_stones({{10, 19}, {11, 18}, {12, 17}, {13, 16}},
                              {{4, 19}, {3, 18}, {2, 17}, {1, 16}}, side, rules));
    out.push_back(with_stones({{4, 19}, {3, 18}, {2, 17}, {1, 16}},
                              {{10, 19}, {11, 18}, {12, 17}, {13, 16}}, side, rules));
    out.push_back(with_stones({{10, 19}, {11, 18}, {12, 17}, {1, 1}},
                              {{4, 19}, {3, 18}, {2, 17}, {18, 1}}, side, rules));
    out.push_back(with_stones({{4, 19}, {3, 18}, {2, 17}, {1, 1}},
                              {{10, 19}, {11, 18}, {12, 17}, {18, 1}}, side, rules));
  }
  return out;
}

// Weighted policies: the default, weights of 0 (adjacent and near squares never, or nothing
// weighed at all: uniform among the empty squares), equal weights and the largest weight.
std::vector<gomoku::Policy> weighted_policies() {
  using gomoku::kWeightOne;
  return {gomoku::Policy{gomoku::PolicyKind::kWeighted},
          gomoku::Policy{gomoku::PolicyKind::kWeighted, 0, 0},
          gomoku::Policy{gomoku::PolicyKind::kWeighted, 0, 3 * kWeightOne},
          gomoku::Policy{gomoku::PolicyKind::kWeighted, kWeightOne, kWeightOne},
          gomoku::Policy{gomoku::PolicyKind::kWeighted, gomoku::kMaxWeight, 1}};
}

// Weighted: every rollout's winner and plies equal gomoku::playout's on its stream, from the
// empty board, random positions anywhere in a game, near-full boards and threat positions, under
// both rules and every policy of weighted_policies.
TEST_P(GomokuSimdPlayout, WeightedEveryRolloutEqualsScalarPlayout) {
  const auto policies = weighted_policies();
  for (const gomoku::Rules& rules : lane_rules()) {
    std::vector<gomoku::State> roots =
        positions(61 + rules.size - kFirstSize + int(rules.rule), 40, rules);
    for (int e : {1, 2, 5, 9}) roots.push_back(nearly_full(rules, e));
    for (const gomoku::State& s : threat_positions(rules)) roots.push_back(s);
    roots.push_back(gomoku::initial_state(rules));
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t p = 0; p < policies.size(); ++p)
        for (uint32_t r = 0; r < 1 + (i + p) % 3; ++r)
          tasks.push_back(
              Task{roots[i], stream_key(78, i % 11), i % 3, i * 8 + p, r, r + 1, policies[p]});
    const std::vector<LaneCounts> want =
        expect_lanes_equal_scalar<GomokuGame>(GetParam(), tasks, rules, describe(rules));
    Outcomes outcomes;
    outcomes.add(want);
    int quick = 0;  // wins and blocks taken at once
    for (const LaneCounts& c : want) quick += c.plies > 0 && c.plies <= 3;
    EXPECT_GT(outcomes.wins[0], 100u) << describe(rules);
    EXPECT_GT(outcomes.wins[1], 100u) << describe(rules);
    EXPECT_GE(outcomes.draws, 3u) << describe(rules);
    EXPECT_GT(quick, 40) << describe(rules);
  }
}

// Weighted and uniform tasks of uneven sizes in one call keep their totals apart.
TEST_P(GomokuSimdPlayout, WeightedUnevenMixedTasksKeepTheirTotals) {
  const auto policies = weighted_policies();
  for (uint8_t size : kLaneSizes) {
    const gomoku::Rules rules{size, gomoku::WinRule::kFreestyle};
    auto roots = positions(43 + size - kFirstSize, 30, rules);
    for (const gomoku::State& s : threat_positions({size, gomoku::WinRule::kStandard}))
      roots.push_back(s);
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i) {
      const gomoku::Policy policy = i % 4 == 3 ? gomoku::Policy{} : policies[i % policies.size()];
      tasks.push_back(Task{roots[i], stream_key(6, i), 2, i, 0, 0, policy});
    }
    make_uneven(tasks);
    expect_lanes_equal_scalar<GomokuGame>(GetParam(), tasks, rules, describe(rules));
  }
}

// One call with tasks of both board sizes and both policies, interleaved and of uneven sizes: each
// (size, policy) group goes to its kernel and every task keeps its totals (the rules travel in the
// states, so the call's rules are the default ones).
TEST_P(GomokuSimdPlayout, MixedBoardSizesAndPoliciesKeepTheirTotals) {
  const auto policies = weighted_policies();
  const auto small = positions(45, 24, gomoku::Rules{15, gomoku::WinRule::kStandard});
  const auto large = positions(46, 24, gomoku::Rules{20, gomoku::WinRule::kFreestyle});
  std::vector<gomoku::State> roots;
  for (size_t i = 0; i < small.size(); ++i) roots.push_back(small[i]), roots.push_back(large[i]);
  for (const gomoku::State& s : threat_positions({20, gomoku::WinRule::kStandard}))
    roots.push_back(s);
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const gomoku::Policy policy = i % 3 == 2 ? gomoku::Policy{} : policies[i % policies.size()];
    tasks.push_back(Task{roots[i], stream_key(7, i), 2, i, 0, 0, policy});
  }
  make_uneven(tasks);
  expect_lanes_equal_scalar<GomokuGame>(GetParam(), tasks, {}, "mixed sizes");
}

INSTANTIATE_TEST_SUITE_P(Paths, GomokuSimdPlayout, lane_paths(), path_case_name);

}  // namespace
}  // namespace sp::rollout
