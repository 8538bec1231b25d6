// The CPU backend's scalar fallback for leaves a game's lanes refuse (LanePlayouts::handles and
// kScalarCases, host/engines/rollout/cpu_backend_impl.hpp). Every shipped game's lanes take every
// leaf, so a test game shows it: tic-tac-toe under another name, whose stand-in lanes refuse
// positions with a stone in the centre. On a lane path the refused leaves play scalar and only the
// others reach the lanes, the statistics equal the scalar loop's, and the log says once how many
// chunks play scalar and why; a batch the lanes take whole, and the scalar path, say nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "host/engines/rollout/lane_playouts.hpp"
#include "tests/games/tictactoe/game.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp {

// Tic-tac-toe under another name, so that it has lanes while TicTacToe keeps none.
struct PickyTicTacToe : TicTacToe {
  static constexpr const char* kName = "picky-tictactoe";
};
static_assert(Game<PickyTicTacToe>);

namespace rollout {

// Stand-in lanes: run() plays its tasks with the scalar playout (the lane-parallel kernels are the
// games' tests' business) and counts the rollouts it is given, and those of refused leaves.
template <>
struct LanePlayouts<PickyTicTacToe> {
  static constexpr bool kAvailable = true;
  static constexpr const char* kScalarCases = "positions with a stone in the centre";
  static bool handles(const ttt::State& s, const ttt::Policy&) {
    return (((s.occ[0] | s.occ[1]) >> 4) & 1u) == 0;
  }
  static inline std::atomic<uint64_t> rollouts{0}, refused{0};

  static void run(SimdPath, const LaneTask<PickyTicTacToe>* tasks, size_t n,
                  const ttt::Rules& rules, LaneCounts* counts) {
    for (size_t i = 0; i < n; ++i) {
      const LaneTask<PickyTicTacToe>& t = tasks[i];
      LaneCounts& c = counts[i];
      c = LaneCounts{{0, 0}, 0, 0};
      PickyTicTacToe::playout_many(t.root, rules, t.policy, t.key, t.ply, t.leaf, t.first, t.last,
                                   [&c](uint32_t, const ttt::Result& res) {
                                     if (res.winner == ttt::kNoWinner)
                                       ++c.draws;
                                     else
                                       ++c.wins[res.winner];
                                     c.plies += res.plies;
                                   });
      rollouts += t.last - t.first;
      if (!handles(t.root, t.policy)) refused += t.last - t.first;
    }
  }
};

}  // namespace rollout
}  // namespace sp

// After the specialization: the backend's templates see it when they are instantiated here.
#include "host/engines/rollout/cpu_backend_impl.hpp"

namespace sp::rollout {
namespace {

using Lanes = LanePlayouts<PickyTicTacToe>;
using PickyLeaf = Leaf<PickyTicTacToe>;

// Leaves from random games cut anywhere (finished positions included), about half of them with a
// stone in the centre, with 1 to 200 rollouts each (one chunk or several).
std::vector<PickyLeaf> leaves_of(uint64_t seed, int n) {
  std::vector<PickyLeaf> out;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  for (int i = 0; i < n; ++i) {
    ttt::State s;
    for (uint32_t plies = rng.below(10); plies > 0 && !ttt::is_over(s); --plies) {
      ttt::MoveList moves;
      ttt::generate_moves(s, moves);
      ttt::apply(s, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
    }
    PickyLeaf l;
    l.state = s;
    l.game = static_cast<uint32_t>(i % 5);
    l.leaf = static_cast<uint32_t>(i);
    l.rollouts = 1 + rng.below(200);
    out.push_back(l);
  }
  return out;
}

// The reference loop's statistics for `leaves` under `seed` (reference() of rollout_fixtures.hpp).
std::vector<LeafStats> scalar_loop(const std::vector<PickyLeaf>& leaves, uint64_t seed) {
  PlayoutParams<PickyTicTacToe> p;
  p.seed = seed;
  return reference(leaves, p);
}

struct BatchRun {
  std::vector<LeafStats> stats;
  std::string log;
  uint64_t lane_rollouts, refused;
};

BatchRun run_batch(Backend<PickyTicTacToe>& backend, const std::vector<PickyLeaf>& leaves,
                   uint64_t seed) {
  Lanes::rollouts = 0;
  Lanes::refused = 0;
  PlayoutParams<PickyTicTacToe> p;
  p.seed = seed;
  BatchRun r;
  r.stats.resize(leaves.size());
  ::testing::internal::CaptureStderr();
  backend.run(leaves, p, r.stats);
  r.log = ::testing::internal::GetCapturedStderr();
  r.lane_rollouts = Lanes::rollouts;
  r.refused = Lanes::refused;
  return r;
}

std::unique_ptr<Backend<PickyTicTacToe>> backend_on(SimdPath path, int thread_count) {
  BackendOptions o = threads(thread_count);
  o.simd = path;
  return make_cpu_backend<PickyTicTacToe>(o);
}

const std::string kSaid = "play the scalar path, not ";

TEST(LaneFallback, RefusedLeavesPlayScalarAndTheLogSaysSoOnce) {
  if (!simd_path_supported(SimdPath::kAvx2)) GTEST_SKIP() << "this CPU lacks AVX2";
  const auto leaves = leaves_of(7, 60);
  uint64_t taken = 0, chunks = 0, scalar_chunks = 0;
  for (const PickyLeaf& l : leaves) {
    const uint64_t c = (l.rollouts + cpu_detail::kChunkRollouts - 1) / cpu_detail::kChunkRollouts;
    chunks += c;
    if (Lanes::handles(l.state, {}))
      taken += l.rollouts;
    else
      scalar_chunks += c;
  }
  ASSERT_GT(taken, 0u);
  ASSERT_GT(scalar_chunks, 0u);
  for (int threads : {1, 3}) {
    auto backend = backend_on(SimdPath::kAvx2, threads);
    for (uint64_t seed : {5, 6}) {
      const BatchRun r = run_batch(*backend, leaves, seed);
      EXPECT_EQ(r.stats, scalar_loop(leaves, seed)) << threads << " threads, seed " << seed;
      EXPECT_EQ(r.lane_rollouts, taken) << "only the leaves handles() takes reach the lanes";
      EXPECT_EQ(r.refused, 0u);
      if (seed == 5)
        EXPECT_NE(r.log.find("cpu backend: " + std::to_string(scalar_chunks) + " of the " +
                             std::to_string(chunks) + " rollout chunks of a batch " + kSaid +
                             "avx2 (positions with a stone in the centre have no lane-parallel "
                             "playouts)"),
                  std::string::npos)
            << r.log;
      else
        EXPECT_EQ(r.log.find(kSaid), std::string::npos) << "said once per backend: " << r.log;
    }
  }
}

TEST(LaneFallback, NothingIsSaidWhenTheLanesTakeEveryLeafOrThePathIsScalar) {
  std::vector<PickyLeaf> taken;
  for (const PickyLeaf& l : leaves_of(8, 60))
    if (Lanes::handles(l.state, {})) taken.push_back(l);
  ASSERT_GT(taken.size(), 10u);
  uint64_t rollouts = 0;
  for (const PickyLeaf& l : taken) rollouts += l.rollouts;
  if (simd_path_supported(SimdPath::kAvx2)) {
    auto backend = backend_on(SimdPath::kAvx2, 2);
    const BatchRun r = run_batch(*backend, taken, 9);
    EXPECT_EQ(r.stats, scalar_loop(taken, 9));
    EXPECT_EQ(r.lane_rollouts, rollouts);
    EXPECT_EQ(r.log.find(kSaid), std::string::npos) << r.log;
  }
  const auto leaves = leaves_of(7, 60);
  auto scalar = backend_on(SimdPath::kScalar, 2);
  EXPECT_EQ(scalar->info().playout_path, "scalar");
  const BatchRun r = run_batch(*scalar, leaves, 5);
  EXPECT_EQ(r.stats, scalar_loop(leaves, 5));
  EXPECT_EQ(r.lane_rollouts, 0u) << "the scalar path never calls the lanes";
  EXPECT_EQ(r.log.find(kSaid), std::string::npos) << r.log;
}

}  // namespace
}  // namespace sp::rollout
