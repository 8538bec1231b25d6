// The lane-parallel checkers playouts (games/checkers/lanes.hpp) against the scalar playout, on
// every path this processor runs (the others skip, naming the ISA they lack): each rollout's winner
// and plies under both policies and several draw rules, from the start, from random mid-game and
// near-terminal positions (multi-jumps and crowning among them) and from king endgames; lanes
// refilled across tasks of uneven sizes; and the CPU backend's statistics on 1 and 3 threads on
// every path, scalar included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/checkers/game.hpp"
#include "games/checkers/lanes.hpp"
#include "games/common/philox.hpp"
#include "host/rollout/cpu_backend.hpp"
#include "host/rollout/simd/simd_path.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {
namespace {

using checkers::lanes::Counts;
using checkers::lanes::Task;

void run_lanes(SimdPath path, const std::vector<Task>& tasks, std::vector<Counts>& counts) {
  counts.assign(tasks.size(), Counts{{7, 7}, 7, 7});  // overwritten, never added to
  if (path == SimdPath::kAvx2)
    checkers::lanes::run_avx2(tasks.data(), tasks.size(), counts.data());
  else
    checkers::lanes::run_avx512(tasks.data(), tasks.size(), counts.data());
}

// The draw rules the tests play under: the default, tight limits (many draws by either counter),
// no quiet limit, and a ply cap a few plies away.
std::vector<checkers::Rules> all_rules() {
  return {checkers::Rules{}, checkers::Rules{60, 6, 3}, checkers::Rules{1000, 0, 3},
          checkers::Rules{12, 80, 3}};
}

// Both policies: the default weights, weights below 1.0 (negative differences between the step
// weights) and large ones (saturating capture weights).
std::vector<checkers::Policy> all_policies() {
  using checkers::kWeightOne;
  return {checkers::Policy{},
          checkers::Policy{checkers::PolicyKind::kWeighted, 2 * kWeightOne, 4 * kWeightOne,
                           2 * kWeightOne},
          checkers::Policy{checkers::PolicyKind::kWeighted, kWeightOne / 2, kWeightOne / 4,
                           kWeightOne / 3},
          checkers::Policy{checkers::PolicyKind::kWeighted, 100 * kWeightOne, 100 * kWeightOne,
                           100 * kWeightOne}};
}

// What the positions hold, so that a test can insist the hard cases are there.
struct Coverage {
  int multi_jumps = 0;      // roots whose side to move has a capture of two or more jumps
  int double_crowning = 0;  // roots where one man has two jumps that crown
  int crowning = 0;         // roots where a man can crown this ply
  int kings = 0;            // roots with kings
};

void cover(const checkers::State& s, Coverage& c) {
  checkers::MoveList moves;
  checkers::generate_moves(s, moves);
  bool multi = false, crowns = false;
  uint32_t crowning_from = 0;
  for (int i = 0; i < moves.size; ++i) {
    const checkers::Move m = moves.moves[i];
    multi = multi || checkers::move_jumps(m) >= 2;
    const checkers::MoveEffect e = checkers::effect_of(m);
    const bool crowning = !(s.kings & e.from) && (e.to & checkers::crown_row(s.side)) != 0;
    crowns = crowns || crowning;
    if (crowning && checkers::move_jumps(m) == 1) {
      c.double_crowning += (crowning_from & e.from) != 0;
      crowning_from |= e.from;
    }
  }
  c.multi_jumps += multi;
  c.crowning += crowns;
  c.kings += s.kings != 0;
}

// Positions where a man of `side` (to move) has two single jumps that both crown, one for each
// square where that fits, with a few other pieces so that the rest of the game varies.
std::vector<checkers::State> double_crowning(int side, const checkers::Rules& rules) {
  std::vector<checkers::State> out;
  const int ahead[2] = {side == 0 ? checkers::kSouthWest : checkers::kNorthEast,
                        side == 0 ? checkers::kSouthEast : checkers::kNorthWest};
  for (int sq = 0; sq < checkers::kSquares; ++sq) {
    checkers::State s = checkers::initial_state(rules);
    s.pieces[0] = s.pieces[1] = 0;
    s.side = static_cast<uint8_t>(side);
    s.pieces[side] = 1u << sq;
    bool fits = true;
    for (int d : ahead) {
      const int over = checkers::reference_step(sq, d);
      const int to = over < 0 ? -1 : checkers::reference_step(over, d);
      fits = fits && to >= 0 && ((1u << to) & checkers::crown_row(side));
      if (fits) s.pieces[side ^ 1] |= 1u << over;
    }
    if (!fits) continue;
    s.pieces[side] |= checkers::back_row(side) & ~(1u << sq) & 0x0000F00Fu;  // far from the fight
    s.pieces[side ^ 1] |= (side == 0 ? 0x00F00000u : 0x00000F00u) & ~s.pieces[side];
    out.push_back(s);
  }
  return out;
}

// Random games under `rules`, each cut `back` plies before its end (0: the finished position,
// counted at once), so lanes start anywhere from the start position to one ply before the end;
// plus king endgames (a few pieces, most of them kings), where the quiet counter runs.
std::vector<checkers::State> positions(uint64_t seed, int games, const checkers::Rules& rules,
                                       Coverage* coverage = nullptr) {
  std::vector<checkers::State> out{checkers::initial_state(rules)};
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  for (int g = 0; g < games; ++g) {
    std::vector<checkers::State> line{checkers::initial_state(rules)};
    while (!checkers::is_over(line.back())) {
      checkers::State s = line.back();
      checkers::MoveList moves;
      checkers::generate_moves(s, moves);
      checkers::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      line.push_back(s);
    }
    const uint32_t cut = g % 3 == 0 ? rng.below(static_cast<uint32_t>(line.size()))
                                    : rng.below(6);  // near the end, or anywhere
    out.push_back(line[line.size() - 1 - cut]);
  }
  for (int g = 0; g < games / 4; ++g) {
    checkers::State s = checkers::initial_state(rules);
    s.pieces[0] = s.pieces[1] = 0;
    for (int side = 0; side < 2; ++side)
      for (uint32_t i = 0, n = 1 + rng.below(3); i < n; ++i) {
        const uint32_t sq = 1u << rng.below(32);
        if ((s.pieces[0] | s.pieces[1]) & sq) continue;
        s.pieces[side] |= sq;
        if (rng.below(4) != 0 || (sq & checkers::crown_row(side))) s.kings |= sq;
      }
    s.side = static_cast<uint8_t>(rng.below(2));
    s.ply = static_cast<uint16_t>(rng.below(rules.max_plies));
    if (rules.quiet_limit) s.quiet = static_cast<uint8_t>(rng.below(rules.quiet_limit));
    EXPECT_TRUE(checkers::state_ok(s));
    out.push_back(s);
  }
  for (int side = 0; side < 2; ++side)
    for (const checkers::State& s : double_crowning(side, rules)) out.push_back(s);
  if (coverage)
    for (const checkers::State& s : out) cover(s, *coverage);
  return out;
}

class CheckersSimdPlayout : public ::testing::TestWithParam<SimdPath> {
 protected:
  void SetUp() override {
    if (!simd_path_supported(GetParam()))
      GTEST_SKIP() << "this CPU lacks " << simd_path_isa(GetParam()) << " for the "
                   << simd_path_name(GetParam()) << " path";
  }
};

// One task per rollout: every rollout's winner and plies equal checkers::playout's on its stream,
// and the lanes refill from the next task whenever one finishes. The policies alternate from task
// to task, so blocks mix uniform and weighted lanes.
TEST_P(CheckersSimdPlayout, EveryRolloutEqualsScalarPlayout) {
  const std::vector<checkers::Policy> policies = all_policies();
  Coverage coverage;
  int wins[2] = {0, 0}, draws = 0;
  for (const checkers::Rules& rules : all_rules()) {
    const std::vector<checkers::State> roots =
        positions(31 + rules.max_plies + rules.quiet_limit, 150, rules, &coverage);
    for (size_t p = 0; p < policies.size(); ++p) {
      std::vector<Task> tasks;
      for (uint32_t i = 0; i < roots.size(); ++i)
        for (uint32_t r = 0; r < 1 + i % 4; ++r)
          tasks.push_back(Task{roots[i], stream_key(77, i % 13), i % 3, i, r, r + 1,
                               policies[(p + r) % policies.size()]});
      std::vector<Counts> counts;
      run_lanes(GetParam(), tasks, counts);
      for (size_t t = 0; t < tasks.size(); ++t) {
        BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, tasks[t].first);
        const checkers::PlayoutResult want = checkers::playout(tasks[t].root, tasks[t].policy, rng);
        const Counts& c = counts[t];
        ASSERT_EQ(c.plies, want.plies) << "task " << t << " max_plies " << rules.max_plies
                                       << " policy " << (p + tasks[t].first) % policies.size();
        ASSERT_EQ(c.wins[0], want.winner == 0 ? 1u : 0u) << "task " << t;
        ASSERT_EQ(c.wins[1], want.winner == 1 ? 1u : 0u) << "task " << t;
        ASSERT_EQ(c.draws, want.winner == checkers::kNoWinner ? 1u : 0u) << "task " << t;
        if (want.winner == checkers::kNoWinner)
          ++draws;
        else
          ++wins[want.winner];
      }
    }
  }
  EXPECT_GT(wins[0], 1000);
  EXPECT_GT(wins[1], 1000);
  EXPECT_GT(draws, 1000);
  EXPECT_GE(coverage.multi_jumps, 10);
  EXPECT_GE(coverage.crowning, 20);
  EXPECT_GE(coverage.double_crowning, 16);
  EXPECT_GE(coverage.kings, 200);
}

// Tasks of uneven sizes (empty, one rollout, a lane's count plus or minus one, many) keep their
// totals apart.
TEST_P(CheckersSimdPlayout, UnevenTasksKeepTheirTotals) {
  const auto roots = positions(41, 30, checkers::Rules{});
  const std::vector<checkers::Policy> policies = all_policies();
  const uint32_t sizes[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 3};
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const uint32_t first = (i % 4) * 5;
    tasks.push_back(Task{roots[i], stream_key(5, i), 2, i, first,
                         first + sizes[i % std::size(sizes)], policies[i % 2]});
  }
  std::vector<Counts> counts;
  run_lanes(GetParam(), tasks, counts);
  for (size_t t = 0; t < tasks.size(); ++t) {
    Counts want{{0, 0}, 0, 0};
    for (uint32_t r = tasks[t].first; r < tasks[t].last; ++r) {
      BlockStream rng(tasks[t].key, tasks[t].ply, tasks[t].leaf, r);
      const auto res = checkers::playout(tasks[t].root, tasks[t].policy, rng);
      if (res.winner == checkers::kNoWinner)
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

INSTANTIATE_TEST_SUITE_P(Paths, CheckersSimdPlayout,
                         ::testing::Values(SimdPath::kAvx2, SimdPath::kAvx512),
                         [](const auto& info) { return std::string(simd_path_name(info.param)); });

class CheckersBackendPaths : public CheckersSimdPlayout {};

// The CPU backend on this path: the scalar reference loop's statistics, on batches that mix
// uniform and weighted leaves, on one and on three threads.
TEST_P(CheckersBackendPaths, BackendEqualsScalarReference) {
  std::vector<Leaf<CheckersGame>> leaves;
  uint32_t i = 0;
  for (const checkers::Rules& rules : all_rules())
    for (const checkers::State& s : positions(51 + rules.max_plies, 24, rules)) {
      Leaf<CheckersGame> l;
      l.state = s;
      l.game = i % 7;
      l.ply = s.ply;
      l.leaf = i;
      l.rollouts = 1 + (i * 37) % 70;
      l.policy = i % 3 == 0 ? 1 : 0;
      leaves.push_back(l);
      ++i;
    }
  PlayoutParams<CheckersGame> p;
  p.seed = 123;
  p.policies[1] = all_policies()[1];
  std::vector<LeafStats> expected(leaves.size());
  for (size_t j = 0; j < leaves.size(); ++j)
    for (uint32_t r = 0; r < leaves[j].rollouts; ++r) {
      BlockStream rng(StreamId{p.seed, leaves[j].game, leaves[j].ply, leaves[j].leaf, r});
      const auto res = checkers::playout(leaves[j].state, p.policies[leaves[j].policy], rng);
      if (res.winner == checkers::kNoWinner)
        ++expected[j].draws;
      else
        ++expected[j].wins[res.winner];
      ++expected[j].rollouts;
      expected[j].plies += res.plies;
    }
  for (int t : {1, 3}) {
    BackendOptions o = threads(t);
    o.simd = GetParam();
    auto backend = make_cpu_backend<CheckersGame>(o);
    EXPECT_EQ(backend->info().playout_path, simd_path_name(GetParam()));
    std::vector<LeafStats> out(leaves.size());
    backend->run(leaves, p, out);
    for (size_t j = 0; j < leaves.size(); ++j)
      ASSERT_EQ(out[j], expected[j]) << "leaf " << j << ", " << t << " threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, CheckersBackendPaths,
                         ::testing::Values(SimdPath::kScalar, SimdPath::kAvx2, SimdPath::kAvx512),
                         [](const auto& info) { return std::string(simd_path_name(info.param)); });

}  // namespace
}  // namespace sp::rollout
