// The lane-parallel Gomoku playouts (games/gomoku/lanes.hpp) against the scalar playout, on every
// path this processor runs (the others skip, naming the ISA they lack): each rollout's winner and
// plies, uniform and weighted (several weights, 0 included), from the empty board, random,
// near-terminal, full-board and threat positions (wins and blocks) under both win rules, lanes
// refilled across tasks of uneven sizes, mixed policies and mixed board sizes, and the CPU
// backend's statistics; 15x15 and 20x20 boards (each its own instantiation of the kernels).
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "games/common/philox.hpp"
#include "games/gomoku/game.hpp"
#include "games/gomoku/lanes.hpp"
#include "host/rollout/cpu_backend.hpp"
#include "host/rollout/simd/simd_path.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {
namespace {

using gomoku::lanes::Counts;
using gomoku::lanes::Task;

void run_lanes(SimdPath path, const std::vector<Task>& tasks, std::vector<Counts>& counts) {
  counts.assign(tasks.size(), Counts{{7, 7}, 7, 7});  // overwritten, never added to
  if (path == SimdPath::kAvx2)
    gomoku::lanes::run_avx2(tasks.data(), tasks.size(), counts.data());
  else
    gomoku::lanes::run_avx512(tasks.data(), tasks.size(), counts.data());
}

// Random games under `rules`, each cut `back` plies before its end (0: the finished position,
// counted at once), so lanes start anywhere from the empty board to one ply before a win or a
// full board.
std::vector<gomoku::State> positions(uint64_t seed, int games, const gomoku::Rules& rules) {
  std::vector<gomoku::State> out;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  for (int g = 0; g < games; ++g) {
    std::vector<gomoku::State> line{gomoku::initial_state(rules)};
    while (!gomoku::is_over(line.back())) {
      gomoku::State s = line.back();
      gomoku::MoveList moves;
      gomoku::generate_moves(s, moves);
      gomoku::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      line.push_back(s);
    }
    const uint32_t cut = g % 3 == 0 ? rng.below(static_cast<uint32_t>(line.size()))
                                    : rng.below(6);  // near the end, or anywhere
    out.push_back(line[line.size() - 1 - cut]);
  }
  return out;
}

// A board of `size` filled without five in a row (a draw by a full board when played out): rows of
// pattern blocks that never line up five of one colour, with the last squares left empty.
gomoku::State nearly_full(int empty_left, int size = 15) {
  gomoku::State s = gomoku::initial_state(gomoku::Rules{static_cast<uint8_t>(size)});
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      if (y * size + x >= size * size - empty_left) continue;
      const int side = ((x / 2) + y) % 2;  // pairs alternating, shifted by a row: no five
      s.stones[side][(y * size + x) >> 6] |= uint64_t{1} << ((y * size + x) & 63);
      ++s.ply;
    }
  s.side = static_cast<uint8_t>(s.ply % 2);
  return s;
}

std::vector<gomoku::Rules> all_rules(int size = 15) {
  const auto n = static_cast<uint8_t>(size);
  return {gomoku::Rules{n, gomoku::WinRule::kFreestyle},
          gomoku::Rules{n, gomoku::WinRule::kStandard}};
}

class GomokuSimdPlayout : public ::testing::TestWithParam<SimdPath> {
 protected:
  void SetUp() override {
    if (!simd_path_supported(GetParam()))
      GTEST_SKIP() << "this CPU lacks " << simd_path_isa(GetParam()) << " for the "
                   << simd_path_name(GetParam()) << " path";
  }
};

// One task per rollout: every rollout's winner and plies equal gomoku::playout's on its stream,
// and the lanes refill from the next task whenever one finishes.
TEST_P(GomokuSimdPlayout, EveryRolloutEqualsScalarPlayout) {
  for (const gomoku::Rules& rules : all_rules()) {
    std::vector<gomoku::State> roots = positions(31 + rules.size, 90, rules);
    for (int e : {1, 2, 5, 9}) roots.push_back(nearly_full(e));
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i) {
      if (rules.rule == gomoku::WinRule::kStandard) roots[i].rule = rules.rule;
      for (uint32_t r = 0; r < 1 + i % 4; ++r)
        tasks.push_back(
            Task{roots[i], stream_key(77, i % 13), i % 3, i, r, r + 1, gomoku::Policy{}});
    }
    std::vector<Counts> counts;
    run_lanes(GetParam(), tasks, counts);
    int wins[2] = {0, 0}, draws = 0;
    for (size_t t = 0; t < tasks.size(); ++t) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, tasks[t].first);
      const gomoku::PlayoutResult want = gomoku::playout(tasks[t].root, gomoku::Policy{}, rng);
      const Counts& c = counts[t];
      ASSERT_EQ(c.plies, want.plies) << "task " << t << " rule " << int(rules.rule);
      ASSERT_EQ(c.wins[0], want.winner == 0 ? 1u : 0u) << "task " << t;
      ASSERT_EQ(c.wins[1], want.winner == 1 ? 1u : 0u) << "task " << t;
      ASSERT_EQ(c.draws, want.winner == gomoku::kNoWinner ? 1u : 0u) << "task " << t;
      if (want.winner == gomoku::kNoWinner)
        ++draws;
      else
        ++wins[want.winner];
    }
    EXPECT_GT(wins[0], 50);
    EXPECT_GT(wins[1], 50);
    EXPECT_GE(draws, 3);
  }
}

// Tasks of uneven sizes (empty, one rollout, a lane's count plus or minus one, many) keep their
// totals apart.
TEST_P(GomokuSimdPlayout, UnevenTasksKeepTheirTotals) {
  const auto roots = positions(41, 30, gomoku::Rules{});
  const uint32_t sizes[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 3};
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const uint32_t first = (i % 4) * 5;
    tasks.push_back(Task{roots[i], stream_key(5, i), 2, i, first,
                         first + sizes[i % std::size(sizes)], gomoku::Policy{}});
  }
  std::vector<Counts> counts;
  run_lanes(GetParam(), tasks, counts);
  for (size_t t = 0; t < tasks.size(); ++t) {
    Counts want{{0, 0}, 0, 0};
    for (uint32_t r = tasks[t].first; r < tasks[t].last; ++r) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, r);
      const auto res = gomoku::playout(tasks[t].root, gomoku::Policy{}, rng);
      if (res.winner == gomoku::kNoWinner)
        ++want.draws;
      else
        ++want.wins[res.winner];
      want.plies += res.plies;
    }
    EXPECT_EQ(counts[t].wins[0], want.wins[0]) << "task " << t;
    EXPECT_EQ(counts[t].wins[1], want.wins[1]) << "task " << t;
    EXPECT_EQ(counts[t].draws, want.draws) << "task " << t;
    EXPECT_EQ(counts[t].plies, want.plies) << "task " << t;
  }
}

// The CPU backend on this path: the scalar reference loop's statistics, on batches that mix
// uniform and weighted leaves, 15x15 and 20x20 boards, on one and on several threads.
TEST_P(GomokuSimdPlayout, BackendEqualsScalarReference) {
  std::vector<Leaf<GomokuGame>> leaves;
  uint32_t i = 0;
  for (const gomoku::Rules& rules :
       {all_rules()[0], all_rules()[1], gomoku::Rules{20, gomoku::WinRule::kFreestyle}})
    for (const gomoku::State& s : positions(51 + rules.size + int(rules.rule), 40, rules)) {
      Leaf<GomokuGame> l;
      l.state = s;
      l.game = i % 7;
      l.ply = s.ply;
      l.leaf = i;
      l.rollouts = 1 + (i * 37) % 70;
      l.policy = i % 5 == 0 ? 1 : 0;
      leaves.push_back(l);
      ++i;
    }
  for (int variant = 0; variant < 2; ++variant) {
    PlayoutParams<GomokuGame> p;
    p.seed = 123 + variant;
    p.policies[1].kind = gomoku::PolicyKind::kWeighted;
    if (variant == 1)  // weighted both: the default, and adjacent squares never
      p.policies[0] = gomoku::Policy{gomoku::PolicyKind::kWeighted, 0, 2 * gomoku::kWeightOne};
    std::vector<LeafStats> expected(leaves.size());
    for (size_t j = 0; j < leaves.size(); ++j)
      for (uint32_t r = 0; r < leaves[j].rollouts; ++r) {
        BlockStream rng(StreamId{p.seed, leaves[j].game, leaves[j].ply, leaves[j].leaf, r});
        const auto res = gomoku::playout(leaves[j].state, p.policies[leaves[j].policy], rng);
        if (res.winner == gomoku::kNoWinner)
          ++expected[j].draws;
        else
          ++expected[j].wins[res.winner];
        ++expected[j].rollouts;
        expected[j].plies += res.plies;
      }
    for (int t : {1, 3}) {
      BackendOptions o = threads(t);
      o.simd = GetParam();
      auto backend = make_cpu_backend<GomokuGame>(o);
      EXPECT_EQ(backend->info().playout_path, simd_path_name(GetParam()));
      std::vector<LeafStats> out(leaves.size());
      backend->run(leaves, p, out);
      EXPECT_EQ(out, expected) << t << " threads, variant " << variant;
    }
  }
}

// A position on a board of `size` from lists of (x, y) stones of each side, `side` to move.
gomoku::State with_stones(std::initializer_list<std::pair<int, int>> black,
                          std::initializer_list<std::pair<int, int>> white, int side,
                          gomoku::WinRule rule, int size = 15) {
  gomoku::State s = gomoku::initial_state(gomoku::Rules{static_cast<uint8_t>(size), rule});
  int colour = 0;
  for (const auto& stones : {black, white}) {
    for (const auto& [x, y] : stones) {
      const int sq = y * size + x;
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
// only, so a threat the standard rule's check drops).
std::vector<gomoku::State> threat_positions(gomoku::WinRule rule) {
  std::vector<gomoku::State> out;
  for (int side = 0; side < 2; ++side) {
    out.push_back(with_stones({{3, 7}, {4, 7}, {5, 7}, {6, 7}}, {{3, 9}, {4, 9}, {5, 9}, {10, 10}},
                              side, rule));
    out.push_back(with_stones({{2, 2}, {3, 3}, {5, 5}, {6, 6}, {12, 1}},
                              {{8, 2}, {8, 3}, {8, 4}, {0, 14}}, side, rule));
    out.push_back(with_stones({{0, 5}, {1, 5}, {2, 5}, {3, 5}, {5, 5}, {6, 5}},
                              {{7, 5}, {9, 9}, {10, 11}, {13, 2}, {12, 3}}, side, rule));
    out.push_back(with_stones({{14, 0}, {13, 1}, {12, 2}, {10, 4}},
                              {{0, 14}, {1, 14}, {2, 14}, {3, 14}}, side, rule));
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
  for (const gomoku::Rules& rules : all_rules()) {
    std::vector<gomoku::State> roots = positions(61 + int(rules.rule), 40, rules);
    for (int e : {1, 2, 5, 9}) roots.push_back(nearly_full(e));
    for (const gomoku::State& s : threat_positions(rules.rule)) roots.push_back(s);
    roots.push_back(gomoku::initial_state(rules));
    for (gomoku::State& s : roots) s.rule = rules.rule;
    const auto policies = weighted_policies();
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t p = 0; p < policies.size(); ++p)
        for (uint32_t r = 0; r < 1 + (i + p) % 3; ++r)
          tasks.push_back(
              Task{roots[i], stream_key(78, i % 11), i % 3, i * 8 + p, r, r + 1, policies[p]});
    std::vector<Counts> counts;
    run_lanes(GetParam(), tasks, counts);
    int wins[2] = {0, 0}, draws = 0, quick = 0;
    for (size_t t = 0; t < tasks.size(); ++t) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, tasks[t].first);
      const gomoku::PlayoutResult want = gomoku::playout(tasks[t].root, tasks[t].policy, rng);
      const Counts& c = counts[t];
      ASSERT_EQ(c.plies, want.plies) << "task " << t << " rule " << int(rules.rule);
      ASSERT_EQ(c.wins[0], want.winner == 0 ? 1u : 0u) << "task " << t;
      ASSERT_EQ(c.wins[1], want.winner == 1 ? 1u : 0u) << "task " << t;
      ASSERT_EQ(c.draws, want.winner == gomoku::kNoWinner ? 1u : 0u) << "task " << t;
      if (want.winner == gomoku::kNoWinner)
        ++draws;
      else
        ++wins[want.winner];
      quick += want.plies > 0 && want.plies <= 3;
    }
    EXPECT_GT(wins[0], 100);
    EXPECT_GT(wins[1], 100);
    EXPECT_GE(draws, 3);
    EXPECT_GT(quick, 40);  // wins and blocks taken at once
  }
}

// Weighted and uniform tasks of uneven sizes in one call keep their totals apart.
TEST_P(GomokuSimdPlayout, WeightedUnevenMixedTasksKeepTheirTotals) {
  auto roots = positions(43, 30, gomoku::Rules{});
  for (const gomoku::State& s : threat_positions(gomoku::WinRule::kStandard)) roots.push_back(s);
  const uint32_t sizes[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 3};
  const auto policies = weighted_policies();
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const uint32_t first = (i % 4) * 5;
    const gomoku::Policy policy = i % 4 == 3 ? gomoku::Policy{} : policies[i % policies.size()];
    tasks.push_back(
        Task{roots[i], stream_key(6, i), 2, i, first, first + sizes[i % std::size(sizes)], policy});
  }
  std::vector<Counts> counts;
  run_lanes(GetParam(), tasks, counts);
  for (size_t t = 0; t < tasks.size(); ++t) {
    Counts want{{0, 0}, 0, 0};
    for (uint32_t r = tasks[t].first; r < tasks[t].last; ++r) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, r);
      const auto res = gomoku::playout(tasks[t].root, tasks[t].policy, rng);
      if (res.winner == gomoku::kNoWinner)
        ++want.draws;
      else
        ++want.wins[res.winner];
      want.plies += res.plies;
    }
    EXPECT_EQ(counts[t].wins[0], want.wins[0]) << "task " << t;
    EXPECT_EQ(counts[t].wins[1], want.wins[1]) << "task " << t;
    EXPECT_EQ(counts[t].draws, want.draws) << "task " << t;
    EXPECT_EQ(counts[t].plies, want.plies) << "task " << t;
  }
}

// threat_positions on a 20x20 board turned half a turn, so that their stones lie in its far corner
// (columns and rows 15 to 19, which only a 20x20 board has), fours along its last column and
// last row, and fours and threes on diagonals that run into its last row.
std::vector<gomoku::State> threat_positions_20(gomoku::WinRule rule) {
  std::vector<gomoku::State> out;
  for (const gomoku::State& small : threat_positions(rule)) {
    gomoku::State s = gomoku::initial_state(gomoku::Rules{20, rule});
    for (int side = 0; side < 2; ++side)
      for (int sq = 0; sq < 15 * 15; ++sq)
        if ((small.stones[side][sq >> 6] >> (sq & 63)) & 1u) {
          const int turned = (19 - sq / 15) * 20 + (19 - sq % 15);
          s.stones[side][turned >> 6] |= uint64_t{1} << (turned & 63);
        }
    s.ply = small.ply;
    s.side = small.side;
    out.push_back(s);
  }
  for (int side = 0; side < 2; ++side) {
    out.push_back(with_stones({{19, 15}, {19, 16}, {19, 17}, {19, 19}, {4, 4}},
                              {{15, 19}, {16, 19}, {17, 19}, {18, 19}}, side, rule, 20));
    // Fours on a diagonal and an anti-diagonal that run into the last row: one end off the board.
    out.push_back(with_stones({{10, 19}, {11, 18}, {12, 17}, {13, 16}},
                              {{4, 19}, {3, 18}, {2, 17}, {1, 16}}, side, rule, 20));
    out.push_back(with_stones({{4, 19}, {3, 18}, {2, 17}, {1, 16}},
                              {{10, 19}, {11, 18}, {12, 17}, {13, 16}}, side, rule, 20));
    // Threes there, made fours by the playouts.
    out.push_back(with_stones({{10, 19}, {11, 18}, {12, 17}, {1, 1}},
                              {{4, 19}, {3, 18}, {2, 17}, {18, 1}}, side, rule, 20));
    out.push_back(with_stones({{4, 19}, {3, 18}, {2, 17}, {1, 1}},
                              {{10, 19}, {11, 18}, {12, 17}, {18, 1}}, side, rule, 20));
  }
  return out;
}

// How often the rollouts checked by expect_each_rollout_equals_scalar ended each way.
struct Outcomes {
  int wins[2] = {0, 0}, draws = 0, quick = 0;  // quick: won or drawn within three plies
};

// Tasks of one rollout each: every task's counts are gomoku::playout's winner and plies on the
// task's stream. Stops at the first difference.
Outcomes expect_each_rollout_equals_scalar(const std::vector<Task>& tasks,
                                           const std::vector<Counts>& counts) {
  Outcomes seen;
  for (size_t t = 0; t < tasks.size(); ++t) {
    BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, tasks[t].first);
    const gomoku::PlayoutResult want = gomoku::playout(tasks[t].root, tasks[t].policy, rng);
    const Counts& c = counts[t];
    const Counts expected{{want.winner == 0 ? 1u : 0u, want.winner == 1 ? 1u : 0u},
                          want.winner == gomoku::kNoWinner ? 1u : 0u,
                          want.plies};
    if (c.wins[0] != expected.wins[0] || c.wins[1] != expected.wins[1] ||
        c.draws != expected.draws || c.plies != expected.plies) {
      ADD_FAILURE() << "task " << t << " (board " << int(tasks[t].root.size) << ", rule "
                    << int(tasks[t].root.rule) << ", policy " << int(tasks[t].policy.kind)
                    << "): lanes " << c.wins[0] << "/" << c.wins[1] << "/" << c.draws << " in "
                    << c.plies << " plies, scalar winner " << int(want.winner) << " in "
                    << want.plies;
      return seen;
    }
    if (want.winner == gomoku::kNoWinner)
      ++seen.draws;
    else
      ++seen.wins[want.winner];
    seen.quick += want.plies > 0 && want.plies <= 3;
  }
  return seen;
}

// 20x20 boards, uniform: every rollout's winner and plies equal gomoku::playout's on its stream,
// from the empty board, random positions anywhere in a game and near-full boards under both
// rules, the lanes refilled from the next task whenever one finishes.
TEST_P(GomokuSimdPlayout, TwentyEveryRolloutEqualsScalarPlayout) {
  for (const gomoku::Rules& rules : all_rules(20)) {
    std::vector<gomoku::State> roots = positions(131 + int(rules.rule), 60, rules);
    for (int e : {1, 2, 5, 9, 23}) roots.push_back(nearly_full(e, 20));
    roots.push_back(gomoku::initial_state(rules));
    for (gomoku::State& s : roots) s.rule = rules.rule;
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t r = 0; r < 1 + i % 4; ++r)
        tasks.push_back(
            Task{roots[i], stream_key(79, i % 13), i % 3, i, r, r + 1, gomoku::Policy{}});
    std::vector<Counts> counts;
    run_lanes(GetParam(), tasks, counts);
    const Outcomes seen = expect_each_rollout_equals_scalar(tasks, counts);
    EXPECT_GT(seen.wins[0], 30) << "rule " << int(rules.rule);
    EXPECT_GT(seen.wins[1], 30) << "rule " << int(rules.rule);
    EXPECT_GE(seen.draws, 5) << "rule " << int(rules.rule);
  }
}

// 20x20 boards, weighted: every rollout's winner and plies equal gomoku::playout's on its stream,
// from the empty board, random positions, near-full boards and threat positions (wins and blocks
// on the squares only a 20x20 board has), under both rules and every policy of
// weighted_policies.
TEST_P(GomokuSimdPlayout, TwentyWeightedEveryRolloutEqualsScalarPlayout) {
  for (const gomoku::Rules& rules : all_rules(20)) {
    std::vector<gomoku::State> roots = positions(141 + int(rules.rule), 30, rules);
    for (int e : {1, 2, 5, 9, 23}) roots.push_back(nearly_full(e, 20));
    for (const gomoku::State& s : threat_positions_20(rules.rule)) roots.push_back(s);
    roots.push_back(gomoku::initial_state(rules));
    for (gomoku::State& s : roots) s.rule = rules.rule;
    const auto policies = weighted_policies();
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t p = 0; p < policies.size(); ++p)
        for (uint32_t r = 0; r < 1 + (i + p) % 3; ++r)
          tasks.push_back(
              Task{roots[i], stream_key(80, i % 11), i % 3, i * 8 + p, r, r + 1, policies[p]});
    std::vector<Counts> counts;
    run_lanes(GetParam(), tasks, counts);
    const Outcomes seen = expect_each_rollout_equals_scalar(tasks, counts);
    EXPECT_GT(seen.wins[0], 100) << "rule " << int(rules.rule);
    EXPECT_GT(seen.wins[1], 100) << "rule " << int(rules.rule);
    EXPECT_GE(seen.draws, 5) << "rule " << int(rules.rule);
    EXPECT_GT(seen.quick, 40) << "wins and blocks taken at once, rule " << int(rules.rule);
  }
}

// One call with tasks of both board sizes and both policies, interleaved and of uneven sizes: each
// (size, policy) group goes to its kernel and every task keeps its totals.
TEST_P(GomokuSimdPlayout, MixedBoardSizesAndPoliciesKeepTheirTotals) {
  std::vector<gomoku::State> roots;
  const auto small = positions(45, 24, gomoku::Rules{15, gomoku::WinRule::kStandard});
  const auto large = positions(46, 24, gomoku::Rules{20, gomoku::WinRule::kFreestyle});
  for (size_t i = 0; i < small.size(); ++i) roots.push_back(small[i]), roots.push_back(large[i]);
  for (const gomoku::State& s : threat_positions_20(gomoku::WinRule::kStandard)) roots.push_back(s);
  const uint32_t sizes[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 3};
  const auto policies = weighted_policies();
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const uint32_t first = (i % 4) * 5;
    const gomoku::Policy policy = i % 3 == 2 ? gomoku::Policy{} : policies[i % policies.size()];
    tasks.push_back(
        Task{roots[i], stream_key(7, i), 2, i, first, first + sizes[i % std::size(sizes)], policy});
  }
  std::vector<Counts> counts;
  run_lanes(GetParam(), tasks, counts);
  for (size_t t = 0; t < tasks.size(); ++t) {
    Counts want{{0, 0}, 0, 0};
    for (uint32_t r = tasks[t].first; r < tasks[t].last; ++r) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, r);
      const auto res = gomoku::playout(tasks[t].root, tasks[t].policy, rng);
      if (res.winner == gomoku::kNoWinner)
        ++want.draws;
      else
        ++want.wins[res.winner];
      want.plies += res.plies;
    }
    EXPECT_EQ(counts[t].wins[0], want.wins[0]) << "task " << t;
    EXPECT_EQ(counts[t].wins[1], want.wins[1]) << "task " << t;
    EXPECT_EQ(counts[t].draws, want.draws) << "task " << t;
    EXPECT_EQ(counts[t].plies, want.plies) << "task " << t;
  }
}

// The CPU backend on this path with 20x20 leaves only (both rules, random and threat positions,
// uniform and weighted): the scalar reference loop's statistics, on one and on three threads.
TEST_P(GomokuSimdPlayout, TwentyBackendEqualsScalarReference) {
  std::vector<Leaf<GomokuGame>> leaves;
  uint32_t i = 0;
  for (const gomoku::Rules& rules : all_rules(20)) {
    std::vector<gomoku::State> roots = positions(151 + int(rules.rule), 40, rules);
    for (const gomoku::State& s : threat_positions_20(rules.rule)) roots.push_back(s);
    for (const gomoku::State& s : roots) {
      Leaf<GomokuGame> l;
      l.state = s;
      l.state.rule = rules.rule;
      l.game = i % 7;
      l.ply = s.ply;
      l.leaf = i;
      l.rollouts = 1 + (i * 37) % 70;
      l.policy = i % 3;
      leaves.push_back(l);
      ++i;
    }
  }
  PlayoutParams<GomokuGame> p;
  p.seed = 321;
  p.policies[1] = weighted_policies()[0];
  p.policies[2] = weighted_policies()[4];
  std::vector<LeafStats> expected(leaves.size());
  for (size_t j = 0; j < leaves.size(); ++j)
    for (uint32_t r = 0; r < leaves[j].rollouts; ++r) {
      BlockStream rng(StreamId{p.seed, leaves[j].game, leaves[j].ply, leaves[j].leaf, r});
      const auto res = gomoku::playout(leaves[j].state, p.policies[leaves[j].policy], rng);
      if (res.winner == gomoku::kNoWinner)
        ++expected[j].draws;
      else
        ++expected[j].wins[res.winner];
      ++expected[j].rollouts;
      expected[j].plies += res.plies;
    }
  for (int t : {1, 3}) {
    BackendOptions o = threads(t);
    o.simd = GetParam();
    auto backend = make_cpu_backend<GomokuGame>(o);
    EXPECT_EQ(backend->info().playout_path, simd_path_name(GetParam()));
    std::vector<LeafStats> out(leaves.size());
    backend->run(leaves, p, out);
    EXPECT_EQ(out, expected) << t << " threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, GomokuSimdPlayout,
                         ::testing::Values(SimdPath::kAvx2, SimdPath::kAvx512),
                         [](const auto& info) { return std::string(simd_path_name(info.param)); });

}  // namespace
}  // namespace sp::rollout
