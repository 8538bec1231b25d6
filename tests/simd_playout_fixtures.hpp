// Shared fixtures of the SIMD playout tests (ewn_simd_playout_test.cpp for EWN,
// gomoku_simd_playout_test.cpp, checkers_simd_playout_test.cpp), so that each of them holds only
// its game's positions, policies and coverage checks: the fixture that runs a test once per path
// and skips the paths this processor lacks, a game's lane kernels on a task list against its
// scalar playout task by task, task lists of uneven sizes, and the CPU backend on a path against
// the scalar reference loop.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "core/simd/simd_path.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/rollout/lane_playouts.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {

// A test run once per playout path (TEST_P over SimdPath): a path this processor cannot run skips,
// naming the ISA it lacks. A game's suite derives its own name from it.
class SimdPathTest : public ::testing::TestWithParam<SimdPath> {
 protected:
  void SetUp() override {
    if (!simd_path_supported(GetParam()))
      GTEST_SKIP() << "this CPU lacks " << simd_path_isa(GetParam()) << " for the "
                   << simd_path_name(GetParam()) << " path";
  }
};

// The paths of INSTANTIATE_TEST_SUITE_P: the lane paths (what the lane kernels run), or those and
// the scalar one (what the CPU backend runs); each case is named after its path.
inline auto lane_paths() { return ::testing::Values(SimdPath::kAvx2, SimdPath::kAvx512); }
inline auto backend_paths() {
  return ::testing::Values(SimdPath::kScalar, SimdPath::kAvx2, SimdPath::kAvx512);
}
// gtest prints a path by its name.
inline void PrintTo(SimdPath path, std::ostream* os) { *os << simd_path_name(path); }
inline std::string path_case_name(const ::testing::TestParamInfo<SimdPath>& info) {
  return simd_path_name(info.param);
}

// The lane kernels of `path` (avx2 or avx512) on `tasks`: every task's totals. The counts start
// at a value no task gives, so a task the kernel leaves untouched shows.
template <Game G>
std::vector<LaneCounts> run_lanes(SimdPath path, const std::vector<LaneTask<G>>& tasks,
                                  const typename G::Rules& rules) {
  std::vector<LaneCounts> counts(tasks.size(), LaneCounts{{7, 7}, 7, 7});
  LanePlayouts<G>::run(path, tasks.data(), tasks.size(), rules, counts.data());
  return counts;
}

// What the lanes must give for `task`: its rollouts one after another with G::playout, each on
// its own stream.
template <Game G>
LaneCounts scalar_counts(const LaneTask<G>& task, const typename G::Rules& rules) {
  LaneCounts c{{0, 0}, 0, 0};
  for (uint32_t r = task.first; r < task.last; ++r) {
    BlockStream rng(task.key, task.ply, task.leaf, r);
    const typename G::Result res = G::playout(task.root, rules, task.policy, rng);
    if (res.winner == G::kNoWinner)
      ++c.draws;
    else
      ++c.wins[res.winner];
    c.plies += res.plies;
  }
  return c;
}

// Runs the lanes of `path` on `tasks` and expects every task's wins, draws and plies to equal
// scalar_counts' (with one rollout a task: every rollout's winner and plies); reports the first
// task that differs, named with `context`, and no more. Returns the scalar totals by task, for the
// caller's checks of what the positions reach.
template <Game G>
std::vector<LaneCounts> expect_lanes_equal_scalar(SimdPath path,
                                                  const std::vector<LaneTask<G>>& tasks,
                                                  const typename G::Rules& rules = {},
                                                  const std::string& context = "") {
  const std::vector<LaneCounts> got = run_lanes<G>(path, tasks, rules);
  std::vector<LaneCounts> want;
  bool reported = false;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const LaneCounts& g = got[t];
    const LaneCounts& w = want.emplace_back(scalar_counts<G>(tasks[t], rules));
    if (reported) continue;
    const std::string where =
        "task " + std::to_string(t) + " (leaf " + std::to_string(tasks[t].leaf) + ", rollouts " +
        std::to_string(tasks[t].first) + " to " + std::to_string(tasks[t].last) + ") " + context;
    EXPECT_EQ(g.plies, w.plies) << where;
    EXPECT_EQ(g.wins[0], w.wins[0]) << where;
    EXPECT_EQ(g.wins[1], w.wins[1]) << where;
    EXPECT_EQ(g.draws, w.draws) << where;
    reported = g.plies != w.plies || g.wins[0] != w.wins[0] || g.wins[1] != w.wins[1] ||
               g.draws != w.draws;
  }
  return want;
}

// Rollouts by outcome over task totals, for tests that insist their positions reach each one.
struct Outcomes {
  uint64_t wins[2] = {0, 0};
  uint64_t draws = 0;

  void add(const std::vector<LaneCounts>& counts) {
    for (const LaneCounts& c : counts) {
      wins[0] += c.wins[0];
      wins[1] += c.wins[1];
      draws += c.draws;
    }
  }
};

// Appends positions from `games` random games of G (uniform legal moves drawn from rng) that
// start at `start`, each cut before its end: every third one anywhere from the start to the
// finished position, the others at most five plies before the end (0: the finished position,
// whose rollouts the lanes count at once).
template <Game G>
void append_cut_games(std::vector<typename G::State>& out, const typename G::State& start,
                      const typename G::Rules& rules, int games, WordStream& rng) {
  for (int g = 0; g < games; ++g) {
    std::vector<typename G::State> line{start};
    while (!G::is_over(line.back())) {
      typename G::State s = line.back();
      typename G::MoveList moves;
      G::generate_moves(s, rules, moves);
      G::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      line.push_back(s);
    }
    const uint32_t cut = g % 3 == 0 ? rng.below(static_cast<uint32_t>(line.size())) : rng.below(6);
    out.push_back(line[line.size() - 1 - cut]);
  }
}

// Task sizes for the tests of uneven tasks: empty, one rollout, a lane count (8 or 16) plus or
// minus one, many.
inline constexpr uint32_t kUnevenSizes[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 100, 3};

// Gives task i the rollouts [first, first + kUnevenSizes[i % 15]), first = (i % 4) * 5, so that
// the lanes refill across tasks of every size.
template <Game G>
void make_uneven(std::vector<LaneTask<G>>& tasks) {
  for (size_t i = 0; i < tasks.size(); ++i) {
    tasks[i].first = static_cast<uint32_t>(i % 4) * 5;
    tasks[i].last = tasks[i].first + kUnevenSizes[i % std::size(kUnevenSizes)];
  }
}

// A leaf per state, numbered on from the leaves already there (leaf i: game i % 7, rollouts
// 1 + 37 i % 70), leaf i playing policy 1 when i % policy_one_every is 0, else policy 0.
template <Game G>
void append_leaves(std::vector<Leaf<G>>& leaves, const std::vector<typename G::State>& states,
                   uint32_t policy_one_every) {
  for (const typename G::State& s : states) {
    const auto i = static_cast<uint32_t>(leaves.size());
    Leaf<G> l;
    l.state = s;
    l.game = i % 7;
    l.ply = s.ply;
    l.leaf = i;
    l.rollouts = 1 + (i * 37) % 70;
    l.policy = i % policy_one_every == 0 ? 1 : 0;
    leaves.push_back(l);
  }
}

// The CPU backend on `path`, on one and on three threads: it names the path, and every leaf's
// statistics equal the scalar reference loop's (reference()); reports the first leaf that differs
// on each thread count, named with `context`.
template <Game G>
void expect_backend_equals_reference(SimdPath path, const std::vector<Leaf<G>>& leaves,
                                     const PlayoutParams<G>& p, const std::string& context = "") {
  const std::vector<LeafStats> expected = reference(leaves, p);
  for (int t : {1, 3}) {
    BackendOptions o = threads(t);
    o.simd = path;
    auto backend = make_cpu_backend<G>(o);
    EXPECT_EQ(backend->info().playout_path, simd_path_name(path));
    const std::vector<LeafStats> out = run(*backend, leaves, p);
    ASSERT_EQ(out.size(), expected.size());
    for (size_t j = 0; j < leaves.size(); ++j)
      if (out[j] != expected[j]) {
        ADD_FAILURE() << "leaf " << j << ", " << t << " threads " << context << ": wins "
                      << out[j].wins[0] << "/" << out[j].wins[1] << " draws " << out[j].draws
                      << " rollouts " << out[j].rollouts << " plies " << out[j].plies
                      << ", the reference wins " << expected[j].wins[0] << "/"
                      << expected[j].wins[1] << " draws " << expected[j].draws << " rollouts "
                      << expected[j].rollouts << " plies " << expected[j].plies;
        break;
      }
  }
}

}  // namespace sp::rollout
