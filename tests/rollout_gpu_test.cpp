// CUDA backend against the CPU backend: bit-identical statistics. Every test skips, saying why,
// when no CUDA device is usable (no GPU, no driver, or a build without CUDA).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/ewn/host.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/cpu_backend.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {
namespace {

using EwnLeaf = Leaf<EwnGame>;

// ---- GPU: bit-identity with the CPU backend. Skipped without a device.

class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (!cuda_available(&reason)) GTEST_SKIP() << "no usable CUDA device: " << reason;
  }
};

TEST_F(CudaBackendTest, BitIdenticalWithCpuOnManySizes) {
  auto cpu = make_cpu_backend<EwnGame>(threads(0));
  BackendOptions o = threads(0);
  for (int block : {0, 64, 256}) {
    o.block_size = block;
    auto cuda = make_backend<EwnGame>("cuda", o);
    for (size_t n : {size_t{1}, size_t{31}, size_t{127}, size_t{1000}, size_t{4099}}) {
      for (bool uniform_count : {true, false}) {
        const auto leaves = random_batch(100 + n, n, n == 1 ? 1 : 37, uniform_count);
        for (auto kind : {ewn::PolicyKind::kUniform, ewn::PolicyKind::kHeavy}) {
          PlayoutParams<EwnGame> p;
          p.seed = 4242 + n;
          p.policies[0].kind = kind;
          EXPECT_EQ(run(*cuda, leaves, p), run(*cpu, leaves, p)) << "n=" << n << " block=" << block;
        }
      }
    }
  }
}

TEST_F(CudaBackendTest, OneLeafManyRolloutsAndEmptyBatch) {
  auto cpu = make_cpu_backend<EwnGame>(threads(0));
  auto cuda = make_backend<EwnGame>("cuda", threads(0));
  const auto leaves = random_batch(7, 1, 100000, true);
  PlayoutParams<EwnGame> p;
  EXPECT_EQ(run(*cuda, leaves, p), run(*cpu, leaves, p));
  EXPECT_EQ(run(*cuda, {}, p).size(), 0u);
}

TEST_F(CudaBackendTest, CheckBackendPassesAndDoubleBufferingKeepsOrder) {
  auto check = make_backend<EwnGame>("check", threads(0));
  const auto a = random_batch(8, 500, 64, false), b = random_batch(9, 700, 32, true);
  PlayoutParams<EwnGame> p;
  std::vector<LeafStats> ra(a.size()), rb(b.size());
  const Ticket ta = check->submit(a, p), tb = check->submit(b, p);
  check->wait(ta, ra);
  check->wait(tb, rb);
  EXPECT_EQ(ra, reference(a, p));
  EXPECT_EQ(rb, reference(b, p));
}

}  // namespace
}  // namespace sp::rollout
