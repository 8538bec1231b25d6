// Rollout backends: the CPU backend equals a plain single-threaded loop, results do not depend on
// threads or batch split, the weighted policy differs from uniform, the check backend catches a
// difference, and (with a GPU) cuda is bit-identical to cpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "games/gomoku/game.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/check_backend.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "host/engines/rollout/device_batch.hpp"
#include "host/engines/rollout/leaf_order.hpp"
#include "host/engines/rollout/null_backend.hpp"
#include "tests/rollout_fixtures.hpp"

namespace sp::rollout {
namespace {

using EwnLeaf = Leaf<EwnGame>;

TEST(CpuBackend, EqualsSingleThreadedReferenceLoop) {
  const auto leaves = random_batch(11, 300, 40, false);
  PlayoutParams<EwnGame> p;
  p.seed = 99;
  const auto expected = reference(leaves, p);
  auto backend = make_cpu_backend<EwnGame>(threads(2));
  EXPECT_EQ(run(*backend, leaves, p), expected);
  uint64_t total = 0;
  for (const auto& s : expected) total += s.rollouts;
  EXPECT_GT(total, 300u);
}

TEST(CpuBackend, IndependentOfThreadCount) {
  const auto leaves = random_batch(12, 200, 300, false);
  PlayoutParams<EwnGame> p;
  p.seed = 5;
  const auto one = run(*make_cpu_backend<EwnGame>(threads(1)), leaves, p);
  for (int t : {2, 3, 8})
    EXPECT_EQ(run(*make_cpu_backend<EwnGame>(threads(t)), leaves, p), one) << t;
}

TEST(CpuBackend, IndependentOfBatchSplit) {
  const auto leaves = random_batch(13, 257, 50, false);
  PlayoutParams<EwnGame> p;
  p.seed = 7;
  auto backend = make_cpu_backend<EwnGame>(threads(2));
  const auto whole = run(*backend, leaves, p);
  // Split in uneven parts, two in flight at a time.
  std::vector<LeafStats> parts(leaves.size());
  const size_t cuts[] = {0, 1, 100, 101, 257};
  for (int i = 0; i + 1 < 5; i += 2) {
    std::span<const EwnLeaf> a(leaves.data() + cuts[i], cuts[i + 1] - cuts[i]);
    const size_t end = i + 2 < 5 ? cuts[i + 2] : cuts[i + 1];
    std::span<const EwnLeaf> b(leaves.data() + cuts[i + 1], end - cuts[i + 1]);
    const Ticket ta = backend->submit(a, p);
    const Ticket tb = backend->submit(b, p);
    backend->wait(ta, std::span(parts.data() + cuts[i], a.size()));
    backend->wait(tb, std::span(parts.data() + cuts[i + 1], b.size()));
  }
  EXPECT_EQ(parts, whole);
}

TEST(CpuBackend, SeedChangesResults) {
  const auto leaves = random_batch(14, 50, 64, true);
  PlayoutParams<EwnGame> p;
  p.seed = 1;
  auto backend = make_cpu_backend<EwnGame>(threads(2));
  const auto a = run(*backend, leaves, p);
  p.seed = 2;
  EXPECT_NE(run(*backend, leaves, p), a);
}

TEST(CpuBackend, RejectsMisuse) {
  const auto leaves = random_batch(15, 4, 4, true);
  PlayoutParams<EwnGame> p;
  auto backend = make_cpu_backend<EwnGame>(threads(1));
  const Ticket t0 = backend->submit(leaves, p);
  const Ticket t1 = backend->submit(leaves, p);
  EXPECT_THROW(backend->submit(leaves, p), std::logic_error);  // max_in_flight is 2
  std::vector<LeafStats> out(leaves.size());
  EXPECT_THROW(backend->wait(t1, out), std::logic_error);  // must wait in order
  backend->wait(t0, out);
  backend->wait(t1, out);
}

TEST(CpuBackend, RefusesBatchesOverEitherLimitWithoutDisturbingTheOneInFlight) {
  BackendOptions o = threads(2);
  o.max_leaves = 64;
  o.max_rollouts = 1000;
  auto backend = make_cpu_backend<EwnGame>(o);
  PlayoutParams<EwnGame> p;
  p.seed = 3;
  const auto good = random_batch(21, 40, 20, true);  // 800 rollouts
  const Ticket t = backend->submit(good, p);
  const auto too_many_rollouts = random_batch(22, 40, 30, true);  // 1200
  const auto too_many_leaves = random_batch(23, 65, 1, true);
  try {
    backend->submit(too_many_rollouts, p);
    ADD_FAILURE() << "a batch of 1200 rollouts was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("1200 rollouts exceeds max_rollouts 1000"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(backend->submit(too_many_leaves, p), std::invalid_argument);
  std::vector<LeafStats> out(good.size());
  backend->wait(t, out);
  EXPECT_EQ(out, reference(good, p));
  // The refused batches took no ticket: the next batch is waited for as usual.
  EXPECT_EQ(run(*backend, good, p), reference(good, p));
}

TEST(LeafOrder, GroupsByPolicyAndSideStablyAndRestoresBatchOrder) {
  auto leaves = random_batch(31, 500, 9, false);
  for (size_t i = 0; i < leaves.size(); ++i) leaves[i].policy = static_cast<uint32_t>((i * 7) % 3);
  PlayoutParams<EwnGame> p;
  p.seed = 77;
  p.policies[2].kind = ewn::PolicyKind::kHeavy;
  std::vector<uint32_t> order(leaves.size());
  uint32_t variant_start[2] = {};
  device_order<EwnGame>(leaves, p, order, variant_start);
  EXPECT_EQ(variant_start[0], 0u);  // one variant: the whole batch
  EXPECT_EQ(variant_start[1], leaves.size());
  std::vector<uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i) << "not a permutation";
  int sides[2] = {0, 0};
  for (size_t k = 0; k < order.size(); ++k) {
    const EwnLeaf& leaf = leaves[order[k]];
    ++sides[EwnGame::side_to_move(leaf.state)];
    if (k == 0) continue;
    const EwnLeaf& prev = leaves[order[k - 1]];
    const auto key = [](const EwnLeaf& l) { return l.policy * 2 + EwnGame::side_to_move(l.state); };
    ASSERT_LE(key(prev), key(leaf)) << k;
    if (key(prev) == key(leaf)) {
      ASSERT_LT(order[k - 1], order[k]) << "not stable at " << k;
    }
  }
  EXPECT_GT(sides[0], 100);  // both sides and all three policies really occur
  EXPECT_GT(sides[1], 100);

  // Statistics of the device-ordered batch, mapped back, equal those of the batch as submitted.
  std::vector<EwnLeaf> device(leaves.size());
  for (size_t k = 0; k < order.size(); ++k) device[k] = leaves[order[k]];
  const auto device_stats = reference(device, p);
  std::vector<LeafStats> restored(leaves.size());
  to_batch_order(order, device_stats.data(), restored);
  EXPECT_EQ(restored, reference(leaves, p));
  EXPECT_NE(device_stats, reference(leaves, p));  // the order really changed something
}

// A SIMT backend's staging (device_batch.hpp): each playout variant's leaves contiguous, of that
// variant only, with offsets of their own from 0; every leaf staged once. Gomoku has four variants
// (board size x policy kind); a batch mixing them all, leaves of one variant absent in another.
TEST(StageBatch, OneSegmentPerVariantWithItsOwnOffsets) {
  const auto start = [](uint64_t, uint32_t game) {
    gomoku::Rules rules;
    rules.size = game % 3 == 0 ? 20 : 15;
    return gomoku::initial_state(rules);
  };
  for (int present : {0b1111, 0b0101, 0b1000}) {  // which variants the batch holds
    auto leaves = random_batch<GomokuGame>(start, 5, 400, 30, false);
    PlayoutParams<GomokuGame> p;
    p.policies[1].kind = gomoku::PolicyKind::kWeighted;
    p.policies[3].kind = gomoku::PolicyKind::kWeighted;
    std::vector<Leaf<GomokuGame>> kept;
    for (size_t i = 0; i < leaves.size(); ++i) {
      leaves[i].policy = static_cast<uint32_t>(i % 4);
      const int v = gomoku::playout_variant(leaves[i].state, p.policies[leaves[i].policy]);
      if (present >> v & 1) kept.push_back(leaves[i]);
    }
    std::vector<uint32_t> order(kept.size());
    std::vector<Leaf<GomokuGame>> staged(kept.size());
    std::vector<uint32_t> offsets(offsets_capacity<GomokuGame>(kept.size()), 0xDEADu);
    const auto segments = stage_batch<GomokuGame>(kept, p, order, staged.data(), offsets.data());
    uint32_t next = 0;
    for (int v = 0; v < gomoku::kPlayoutVariants; ++v) {
      const Segment& seg = segments[v];
      EXPECT_EQ(seg.leaves > 0, (present >> v & 1) != 0) << "variant " << v;
      EXPECT_EQ(seg.first, next) << "variant " << v;
      next += seg.leaves;
      uint64_t total = 0;
      for (uint32_t l = 0; l < seg.leaves; ++l) {
        const Leaf<GomokuGame>& leaf = staged[seg.first + l];
        const Leaf<GomokuGame>& from = kept[order[seg.first + l]];
        EXPECT_EQ(std::memcmp(&leaf.state, &from.state, sizeof leaf.state), 0);
        EXPECT_EQ(leaf.leaf, from.leaf);
        EXPECT_EQ(leaf.rollouts, from.rollouts);
        EXPECT_EQ(leaf.policy, from.policy);
        EXPECT_EQ(gomoku::playout_variant(leaf.state, p.policies[leaf.policy]), v);
        EXPECT_EQ(offsets[seg.offsets_at + l], total);
        total += leaf.rollouts;
      }
      EXPECT_EQ(offsets[seg.offsets_at + seg.leaves], total);
      EXPECT_EQ(seg.total, total);
      EXPECT_EQ(seg.uniform, 0u);  // rollout counts vary
    }
    EXPECT_EQ(next, kept.size());
  }
  // Equal counts within a segment: uniform, so the kernel needs no offsets.
  auto leaves = random_batch<GomokuGame>(start, 6, 50, 16, true);
  PlayoutParams<GomokuGame> p;
  std::vector<uint32_t> order(leaves.size());
  std::vector<Leaf<GomokuGame>> staged(leaves.size());
  std::vector<uint32_t> offsets(offsets_capacity<GomokuGame>(leaves.size()));
  const auto segments = stage_batch<GomokuGame>(leaves, p, order, staged.data(), offsets.data());
  EXPECT_EQ(segments[0].uniform, 16u);
  EXPECT_EQ(segments[2].uniform, 16u);
  EXPECT_EQ(segments[0].leaves + segments[2].leaves, leaves.size());
}

TEST(Policy, WeightedDiffersFromUniformAndPrefersWins) {
  // Player 0's cube 1 on d2 is one diagonal step from e1; player 1's cube 1 on b4 is one step from
  // a5. Uniform player 0 misses the win two times in three and then risks losing.
  const ewn::State s = ewn::parse_position("5/1a3/5/3A1/5 0 1");
  EwnLeaf leaf{s, 0, 0, 0, 4000};
  PlayoutParams<EwnGame> uniform, heavy;
  heavy.policies[0].kind = ewn::PolicyKind::kHeavy;
  const auto u = reference({leaf}, uniform)[0];
  const auto h = reference({leaf}, heavy)[0];
  EXPECT_EQ(h.wins[0], 4000u);  // heavy always takes the winning step
  EXPECT_LT(u.wins[0], 4000u);
  EXPECT_NE(u, h);
  // Across random positions the two policies give different statistics, and heavy playouts are
  // shorter (they take wins and captures).
  const auto leaves = random_batch(16, 100, 64, true);
  auto backend = make_cpu_backend<EwnGame>(threads(2));
  const auto ru = run(*backend, leaves, uniform), rh = run(*backend, leaves, heavy);
  EXPECT_NE(ru, rh);
  uint64_t pu = 0, ph = 0;
  for (size_t i = 0; i < leaves.size(); ++i) pu += ru[i].plies, ph += rh[i].plies;
  EXPECT_LT(ph, pu);
}

// A backend that perturbs one statistic of one leaf, to prove the check backend notices.
class PerturbingBackend final : public Backend<EwnGame> {
 public:
  explicit PerturbingBackend(size_t leaf)
      : inner_(make_cpu_backend<EwnGame>(threads(1))), leaf_(leaf) {
    info_ = inner_->info();
    info_.name = "perturbed";
  }
  const BackendInfo& info() const override { return info_; }
  Ticket submit(std::span<const EwnLeaf> l, const PlayoutParams<EwnGame>& p) override {
    return inner_->submit(l, p);
  }
  bool ready(Ticket t) override { return inner_->ready(t); }
  BatchTiming wait(Ticket t, std::span<LeafStats> out) override {
    const BatchTiming timing = inner_->wait(t, out);
    out[leaf_].plies += 1;
    return timing;
  }

 private:
  std::unique_ptr<Backend<EwnGame>> inner_;
  size_t leaf_;
  BackendInfo info_;
};

TEST(CheckBackend, AgreesWhenBackendsAgree) {
  const auto leaves = random_batch(17, 64, 16, false);
  auto check = make_check_backend<EwnGame>(make_cpu_backend<EwnGame>(threads(2)),
                                           make_cpu_backend<EwnGame>(threads(1)));
  PlayoutParams<EwnGame> p;
  EXPECT_EQ(run(*check, leaves, p), reference(leaves, p));
}

TEST(CheckBackend, CatchesInjectedDifferenceAndNamesTheLeaf) {
  const auto leaves = random_batch(18, 64, 16, false);
  auto check = make_check_backend<EwnGame>(make_cpu_backend<EwnGame>(threads(2)),
                                           std::make_unique<PerturbingBackend>(37));
  std::vector<LeafStats> out(leaves.size());
  try {
    check->run(leaves, PlayoutParams<EwnGame>{}, out);
    FAIL() << "check backend accepted different statistics";
  } catch (const BackendMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("leaf 37 "), std::string::npos) << e.what();
  }
}

TEST(NullBackend, AnswersFromLeafIdsAloneAndKeepsTheBatchRules) {
  auto backend = make_backend<EwnGame>("null", threads(1));
  EXPECT_EQ(backend->info().name, "null");
  auto leaves = random_batch(41, 300, 50, false);
  PlayoutParams<EwnGame> p;
  p.seed = 11;
  const auto a = run(*backend, leaves, p);
  uint64_t wins[2] = {0, 0}, draws = 0;
  for (size_t i = 0; i < leaves.size(); ++i) {
    EXPECT_EQ(a[i].rollouts, leaves[i].rollouts);
    EXPECT_EQ(a[i].wins[0] + a[i].wins[1] + a[i].draws, a[i].rollouts);
    EXPECT_EQ(a[i], null_stats(leaves[i], p.seed));
    wins[0] += a[i].wins[0], wins[1] += a[i].wins[1], draws += a[i].draws;
  }
  EXPECT_GT(wins[0], 0u);
  EXPECT_GT(wins[1], 0u);
  EXPECT_GT(draws, 0u);
  // The state is not looked at: another position with the same ids gets the same answer ...
  auto moved = leaves;
  for (auto& leaf : moved) leaf.state = leaves[0].state;
  EXPECT_EQ(run(*backend, moved, p), a);
  // ... while other ids or another seed change it.
  moved[0].leaf += 1;
  EXPECT_NE(run(*backend, moved, p)[0], a[0]);
  p.seed = 12;
  EXPECT_NE(run(*backend, leaves, p), a);
  BackendOptions small = threads(1);
  small.max_rollouts = 10;
  EXPECT_THROW(make_backend<EwnGame>("null", small)->submit(leaves, p), std::invalid_argument);
}

TEST(Registry, NamesAndErrors) {
  EXPECT_THROW(make_backend<EwnGame>("gpu9000", threads(1)), InputError);
  EXPECT_EQ(make_backend<EwnGame>("cpu", threads(1))->info().name, "cpu");
  const auto autob = make_backend<EwnGame>("auto", threads(1));
  std::string reason;
  EXPECT_EQ(autob->info().name, cuda_available(&reason) ? "cuda" : "cpu");
  if (!cuda_available(&reason)) {
    EXPECT_FALSE(reason.empty());
    EXPECT_THROW(make_backend<EwnGame>("cuda", threads(1)), std::runtime_error);
  }
}

}  // namespace
}  // namespace sp::rollout
