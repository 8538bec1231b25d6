// CUDA backend against the CPU backend: bit-identical statistics for every game, on the uniform
// and the weighted policy and a batch that mixes them, on batches of many sizes and block sizes;
// for Gomoku both board sizes (each size and policy is a kernel of its own). Every test skips,
// saying why, when no CUDA device is usable (no GPU, no driver, or a build without CUDA).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/games.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "tests/game_types.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {
namespace {

// What the tests need of each game: start positions that reach every playout variant, and the
// game's weighted policy.
template <class G>
struct GpuCase;

template <>
struct GpuCase<EwnGame> {
  static ewn::State start(uint64_t seed, uint32_t game) { return ewn_start(seed, game); }
  static EwnGame::Policy weighted() {
    EwnGame::Policy p;
    p.kind = ewn::PolicyKind::kHeavy;
    return p;
  }
};

template <>
struct GpuCase<CheckersGame> {
  static checkers::State start(uint64_t, uint32_t) { return checkers::initial_state(); }
  static checkers::Policy weighted() {
    checkers::Policy p;
    p.kind = checkers::PolicyKind::kWeighted;
    return p;
  }
};

template <>
struct GpuCase<GomokuGame> {
  // Both sizes and both win rules, one after the other.
  static gomoku::State start(uint64_t, uint32_t game) {
    gomoku::Rules rules;
    rules.size = game % 2 ? 20 : 15;
    rules.rule = game % 4 >= 2 ? gomoku::WinRule::kStandard : gomoku::WinRule::kFreestyle;
    return gomoku::initial_state(rules);
  }
  static gomoku::Policy weighted() {
    gomoku::Policy p;
    p.kind = gomoku::PolicyKind::kWeighted;
    return p;
  }
};

enum class Mix { kUniform, kWeighted, kMixed };

template <class G>
PlayoutParams<G> params_for(std::vector<Leaf<G>>& leaves, Mix mix, uint64_t seed) {
  PlayoutParams<G> p;
  p.seed = seed;
  if (mix == Mix::kWeighted) p.policies[0] = GpuCase<G>::weighted();
  p.policies[1] = GpuCase<G>::weighted();
  if (mix == Mix::kMixed)
    for (size_t i = 0; i < leaves.size(); ++i) leaves[i].policy = static_cast<uint32_t>(i % 3 % 2);
  return p;
}

template <class G>
class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (!cuda_available(&reason)) GTEST_SKIP() << "no usable CUDA device: " << reason;
  }
};

using Games = test::GameTypes<>;  // the game list (games/games.hpp)
TYPED_TEST_SUITE(CudaBackendTest, Games);

TYPED_TEST(CudaBackendTest, BitIdenticalWithCpuOnEveryPolicyAndManySizes) {
  using G = TypeParam;
  auto cpu = make_cpu_backend<G>(threads(0));
  BackendOptions o = threads(0);
  for (int block : {0, 64, 256}) {
    o.block_size = block;
    auto cuda = make_backend<G>("cuda", o);
    for (size_t n : {size_t{1}, size_t{31}, size_t{127}, size_t{1000}}) {
      for (bool uniform_count : {true, false}) {
        for (Mix mix : {Mix::kUniform, Mix::kWeighted, Mix::kMixed}) {
          auto leaves =
              random_batch<G>(GpuCase<G>::start, 100 + n, n, n == 1 ? 1 : 37, uniform_count);
          const PlayoutParams<G> p = params_for(leaves, mix, 4242 + n);
          EXPECT_EQ(run(*cuda, leaves, p), run(*cpu, leaves, p))
              << G::kName << " n=" << n << " block=" << block << " mix=" << static_cast<int>(mix);
        }
      }
    }
  }
}

TYPED_TEST(CudaBackendTest, OneLeafManyRolloutsAndEmptyBatch) {
  using G = TypeParam;
  auto cpu = make_cpu_backend<G>(threads(0));
  auto cuda = make_backend<G>("cuda", threads(0));
  for (Mix mix : {Mix::kUniform, Mix::kWeighted}) {
    auto leaves = random_batch<G>(GpuCase<G>::start, 7, 1, 20000, true);
    const PlayoutParams<G> p = params_for(leaves, mix, 5);
    EXPECT_EQ(run(*cuda, leaves, p), run(*cpu, leaves, p)) << G::kName;
  }
  EXPECT_EQ(run(*cuda, std::vector<Leaf<G>>{}, PlayoutParams<G>{}).size(), 0u);
}

TYPED_TEST(CudaBackendTest, CheckBackendPassesAndDoubleBufferingKeepsOrder) {
  using G = TypeParam;
  auto check = make_backend<G>("check", threads(0));
  auto a = random_batch<G>(GpuCase<G>::start, 8, 500, 64, false);
  auto b = random_batch<G>(GpuCase<G>::start, 9, 700, 32, true);
  const PlayoutParams<G> p = params_for(a, Mix::kMixed, 3);
  std::vector<LeafStats> ra(a.size()), rb(b.size());
  const Ticket ta = check->submit(a, p), tb = check->submit(b, p);
  check->wait(ta, ra);
  check->wait(tb, rb);
  EXPECT_EQ(ra, reference(a, p));
  EXPECT_EQ(rb, reference(b, p));
}

}  // namespace
}  // namespace sp::rollout
