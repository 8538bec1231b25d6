// The lane-parallel EWN playouts (games/ewn/lanes.hpp) against the scalar playout, on every path
// this processor runs (the others skip, naming the ISA they lack): each rollout's winner and plies
// from random and near-terminal positions under every rules variant, lanes refilled across tasks
// of uneven sizes, and the CPU backend's statistics on batches that mix policies. Also the path
// selection: SELFPLAY_SIMD, unsupported and unknown names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/simd/simd_path.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/lanes.hpp"
#include "games/games.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "tests/games/tictactoe/game.hpp"
#include "tests/rollout_fixtures.hpp"
#include "tests/simd_playout_fixtures.hpp"

namespace sp::rollout {
namespace {

using ewn::lanes::Task;

// Positions one to four plies before the end of random games (die rolled or not), and a few
// finished ones: where lanes finish within their first block.
std::vector<ewn::State> near_terminal(uint64_t seed, int games, const ewn::Rules& rules) {
  std::vector<ewn::State> out;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  for (int g = 0; g < games; ++g) {
    std::vector<ewn::State> line{ewn_start(seed, static_cast<uint32_t>(g))};
    while (!ewn::is_over(line.back())) {
      ewn::State s = line.back();
      s.die = static_cast<uint8_t>(1 + rng.below(6));
      ewn::MoveList moves;
      ewn::generate_moves(s, rules, moves);
      ewn::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      line.push_back(s);
    }
    const size_t back = 1 + rng.below(4);
    ewn::State s = line[line.size() > back ? line.size() - 1 - back : 0];
    if (rng.below(2)) s.die = static_cast<uint8_t>(1 + rng.below(6));
    out.push_back(s);
    if (g % 16 == 0) out.push_back(line.back());
  }
  return out;
}

std::vector<ewn::Rules> all_rules() {
  std::vector<ewn::Rules> out;
  for (bool own : {true, false})
    for (auto sub : {ewn::Substitution::kNextLowerOrHigher, ewn::Substitution::kNearest})
      out.push_back(ewn::Rules{own, sub});
  return out;
}

class SimdPlayout : public SimdPathTest {};

// Uniform, weighted with the default weights, with zero weights (the walk's default move) and with
// odd ones.
std::vector<ewn::PlayoutPolicy> all_policies() {
  using ewn::PolicyKind;
  return {ewn::PlayoutPolicy{},
          ewn::PlayoutPolicy{PolicyKind::kHeavy, 2 * ewn::kWeightOne, 2 * ewn::kWeightOne},
          ewn::PlayoutPolicy{PolicyKind::kHeavy, 0, 0},
          ewn::PlayoutPolicy{PolicyKind::kHeavy, 0, 3 * ewn::kWeightOne},
          ewn::PlayoutPolicy{PolicyKind::kHeavy, 77, ewn::kMaxWeight}};
}

// One task per rollout: every rollout's winner and plies equal ewn::playout's on its stream, with
// the policies mixed task by task, and the lanes refill from the next task whenever one finishes.
TEST_P(SimdPlayout, EveryRolloutEqualsScalarPlayout) {
  const auto policies = all_policies();
  for (const ewn::Rules& rules : all_rules()) {
    std::vector<ewn::State> roots;
    for (const EwnLeaf& l : random_batch(31, 120, 1, true)) roots.push_back(l.state);
    for (const ewn::State& s : near_terminal(32, 120, rules)) roots.push_back(s);
    std::vector<Task> tasks;
    for (uint32_t i = 0; i < roots.size(); ++i)
      for (uint32_t r = 0; r < 1 + i % 5; ++r)
        tasks.push_back(Task{roots[i], stream_key(77, i % 13), i % 3, i, r, r + 1,
                             policies[(i + r) % policies.size()]});
    Outcomes outcomes;
    outcomes.add(expect_lanes_equal_scalar<EwnGame>(
        GetParam(), tasks, rules, "capture_own " + std::to_string(rules.capture_own)));
    EXPECT_GT(outcomes.wins[0] + outcomes.wins[1], 500u);
  }
}

// Tasks of uneven sizes (empty, one rollout, a lane's count plus or minus one, many) keep their
// totals apart.
TEST_P(SimdPlayout, UnevenTasksKeepTheirTotals) {
  std::vector<Task> tasks;
  for (const EwnLeaf& l : random_batch(41, 40, 1, true))
    tasks.push_back(
        Task{l.state, stream_key(5, l.game), l.ply, l.leaf, 0, 0, ewn::PlayoutPolicy{}});
  make_uneven(tasks);
  expect_lanes_equal_scalar<EwnGame>(GetParam(), tasks, ewn::Rules{});
}

// The CPU backend on this path: the scalar reference loop's statistics, on batches with uneven
// rollout counts and uniform and weighted leaves mixed, on one and on several threads.
TEST_P(SimdPlayout, BackendEqualsScalarReference) {
  auto leaves = random_batch(51, 300, 70, false);
  for (size_t i = 0; i < leaves.size(); i += 3) leaves[i].policy = 1 + i % 2;
  PlayoutParams<EwnGame> p;
  p.seed = 123;
  p.policies[1] = all_policies()[1];
  p.policies[2] = all_policies()[4];
  for (const ewn::Rules& rules : all_rules()) {
    p.rules = rules;
    expect_backend_equals_reference(GetParam(), leaves, p,
                                    "capture_own " + std::to_string(rules.capture_own));
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, SimdPlayout, lane_paths(), path_case_name);

// Sets SELFPLAY_SIMD for one scope.
class SimdEnv {
 public:
  explicit SimdEnv(const char* value) { setenv("SELFPLAY_SIMD", value, 1); }
  ~SimdEnv() { unsetenv("SELFPLAY_SIMD"); }
};

TEST(SimdPathSelection, AutoIsTheFastestSupportedPath) {
  unsetenv("SELFPLAY_SIMD");
  const SimdPath want = simd_path_supported(SimdPath::kAvx512) ? SimdPath::kAvx512
                        : simd_path_supported(SimdPath::kAvx2) ? SimdPath::kAvx2
                                                               : SimdPath::kScalar;
  EXPECT_EQ(resolve_simd_path(SimdPath::kAuto), want);
  EXPECT_EQ(make_cpu_backend<EwnGame>(threads(1))->info().playout_path, simd_path_name(want));
}

TEST(SimdPathSelection, EnvironmentPinsThePath) {
  SimdEnv env("scalar");
  EXPECT_EQ(resolve_simd_path(SimdPath::kAuto), SimdPath::kScalar);
  auto backend = make_cpu_backend<EwnGame>(threads(1));
  EXPECT_EQ(backend->info().playout_path, "scalar");
  EXPECT_NE(backend->info().device.find("scalar playouts"), std::string::npos)
      << backend->info().device;
  // An explicit request wins over the variable.
  if (simd_path_supported(SimdPath::kAvx2)) {
    EXPECT_EQ(resolve_simd_path(SimdPath::kAvx2), SimdPath::kAvx2);
  }
}

TEST(SimdPathSelection, UnknownAndUnsupportedNamesAreInputErrors) {
  {
    SimdEnv env("sse9");
    try {
      resolve_simd_path(SimdPath::kAuto);
      FAIL() << "sse9 accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("SELFPLAY_SIMD: unknown playout path 'sse9'"),
                std::string::npos)
          << e.what();
    }
  }
  for (SimdPath p : {SimdPath::kAvx2, SimdPath::kAvx512})
    if (!simd_path_supported(p)) {
      EXPECT_THROW(resolve_simd_path(p), InputError) << simd_path_name(p);
    }
  EXPECT_EQ(parse_simd_path("avx512", "x"), SimdPath::kAvx512);
  EXPECT_THROW(parse_simd_path("AVX512", "x"), InputError);
}

// Without a GPU, the check backend plays every batch on the fastest path and on the scalar one and
// compares them leaf by leaf.
TEST(SimdPathSelection, CheckWithoutGpuComparesThePathWithScalar) {
  if (cuda_available()) GTEST_SKIP() << "with a GPU, check compares cuda with cpu";
  unsetenv("SELFPLAY_SIMD");
  auto check = make_backend<EwnGame>("check", threads(2));
  const std::string device = check->info().device;
  const std::string fastest = simd_path_name(resolve_simd_path(SimdPath::kAuto));
  EXPECT_NE(device.find(", " + fastest + " playouts | "), std::string::npos) << device;
  EXPECT_NE(device.find("1 thread on "), std::string::npos) << device;
  EXPECT_EQ(device.substr(device.size() - std::string(", scalar playouts").size()),
            ", scalar playouts")
      << device;
  const auto leaves = random_batch(61, 100, 40, false);
  PlayoutParams<EwnGame> p;
  p.seed = 3;
  EXPECT_EQ(run(*check, leaves, p), reference(leaves, p));
}

// Games without lanes play scalar whatever is asked (the test game: every shipped game has lanes).
TEST(SimdPathSelection, GamesWithoutLanesStayScalar) {
  BackendOptions o = threads(1);
  o.simd = SimdPath::kAuto;
  EXPECT_EQ(make_backend<TicTacToe>("cpu", o)->info().playout_path, "scalar");
}

}  // namespace
}  // namespace sp::rollout
