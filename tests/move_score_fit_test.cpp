// The move-score fit (host/research/tune/move_score_fit.hpp): on choices drawn from a known table
// (the played candidate ~ softmax(score / T) with a fixed generator) the temperature fit recovers
// T and the table fit recovers the table's order; entries no choice carries stay exactly at their
// prior, untuned ones too; L2 holds entries near the prior; ranks follow the search's ordering
// (rounded entries, ties in candidate order); the sums do not depend on the thread count.
#include <gtest/gtest.h>
#include <omp.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "core/errors.hpp"
#include "host/research/tune/move_score_fit.hpp"

namespace sp::tune {
namespace {

// Entries 0..kEntries-1 with scores on the scale of the Gomoku ladder (hundreds); entry
// kEntries - 1 is never drawn, so no choice carries it.
constexpr int kEntries = 12;
const std::vector<double> kTruth = {0, 40, 90, 150, 220, 300, 400, 520, 650, 800, 1000, 777};
constexpr double kTrueT = 120;

MoveChoices synthetic(size_t games, size_t per_game, uint64_t seed) {
  std::mt19937_64 rng(seed);
  MoveChoices c;
  std::vector<std::array<int32_t, 2>> cands;
  std::vector<double> p;
  for (size_t g = 0; g < games; ++g)
    for (size_t i = 0; i < per_game; ++i) {
      const size_t n = 2 + rng() % 20;
      cands.clear();
      p.clear();
      double z = 0;
      for (size_t k = 0; k < n; ++k) {
        const auto a = static_cast<int32_t>(rng() % (kEntries - 1));
        const int32_t b = rng() % 3 == 0 ? -1 : static_cast<int32_t>(rng() % (kEntries - 1));
        cands.push_back({a, b});
        const double s =
            kTruth[static_cast<size_t>(a)] + (b >= 0 ? kTruth[static_cast<size_t>(b)] : 0);
        p.push_back(std::exp(s / kTrueT));
        z += p.back();
      }
      double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * z;
      uint32_t played = 0;
      while (played + 1 < n && u >= p[played]) u -= p[played++];
      c.add(cands, played, 100 + g);
    }
  return c;
}

TEST(MoveScoreFit, TheTemperatureOfTheTrueTableIsRecovered) {
  const MoveChoices c = synthetic(400, 20, 7);
  const TemperatureFit t = fit_temperature(c, kTruth, 1, 1e5);
  EXPECT_NEAR(t.t, kTrueT, 0.1 * kTrueT);
  EXPECT_FALSE(t.at_boundary);
  // A table scoring every candidate alike cannot fix T.
  EXPECT_THROW(fit_temperature(c, std::vector<double>(kEntries, 0.0), 1, 1e5), InputError);
}

TEST(MoveScoreFit, RecoversTheOrderOfTheTableFromAFlatStart) {
  const MoveChoices all = synthetic(400, 20, 11);
  const ChoiceSplit s = split_choices_by_game(all, 0.2, 3);
  ASSERT_GT(s.validation.size(), 0u);
  std::vector<double> w0(kEntries, 300.0);
  w0[0] = 0;  // a little order to fit T with
  w0[10] = 600;
  MoveScoreFitOptions o;
  o.epochs = 150;
  o.learning_rate = 0.1;
  o.l2 = 0;
  o.report_every = 50;
  const MoveScoreFitResult r = fit_move_scores(s.train, s.validation, w0, kTrueT, o);
  ASSERT_TRUE(r.diverged.empty()) << r.diverged;
  EXPECT_LT(r.history.back().train.loss, r.history.front().train.loss);
  EXPECT_LT(r.history.back().validation.loss, r.history.front().validation.loss);
  EXPECT_GT(r.history.back().validation.top1, r.history.front().validation.top1);
  EXPECT_LT(r.objective_after, r.objective_before);
  // Softmax is blind to a constant added to every score of a choice, and every candidate here
  // carries an attack entry: differences are what the data fix.
  for (int j = 1; j < kEntries - 1; ++j) {
    EXPECT_GT(r.weights[static_cast<size_t>(j)], r.weights[static_cast<size_t>(j - 1)]) << j;
    EXPECT_NEAR(r.weights[static_cast<size_t>(j)] - r.weights[0],
                kTruth[static_cast<size_t>(j)] - kTruth[0], 40)
        << j;
  }
  // No choice carries the last entry: it stays exactly at its prior.
  EXPECT_EQ(r.seen[kEntries - 1], 0u);
  EXPECT_EQ(r.weights[kEntries - 1], w0[kEntries - 1]);
}

TEST(MoveScoreFit, UntunedEntriesStayAndL2HoldsThePrior) {
  const MoveChoices c = synthetic(200, 20, 5);
  std::vector<double> w0(kEntries, 300.0);
  MoveScoreFitOptions o;
  o.epochs = 100;
  o.tuned.assign(kEntries, true);
  o.tuned[4] = false;
  const MoveScoreFitResult free = fit_move_scores(c, {}, w0, kTrueT, o);
  EXPECT_EQ(free.weights[4], 300.0);
  EXPECT_NE(free.weights[9], 300.0);
  EXPECT_TRUE(std::isnan(free.history.back().validation.loss));
  o.l2 = 100;
  const MoveScoreFitResult held = fit_move_scores(c, {}, w0, kTrueT, o);
  double moved_free = 0, moved_held = 0;
  for (int j = 0; j < kEntries; ++j) {
    moved_free += std::abs(free.weights[static_cast<size_t>(j)] - 300);
    moved_held += std::abs(held.weights[static_cast<size_t>(j)] - 300);
  }
  EXPECT_LT(moved_held, 0.1 * moved_free);
}

TEST(MoveScoreFit, RanksAreTheSearchsOrderOfTheRoundedTable) {
  MoveChoices c;
  const std::vector<double> w = {10.4, 9.6, 20, 0};
  // Candidates scored 10 (entry 0 rounded), 10 (entry 1 rounded), 20: the played second one is
  // third (the first ties and comes first in cell order).
  c.add(std::vector<std::array<int32_t, 2>>{{0, -1}, {1, -1}, {2, -1}}, 1, 1);
  // The played candidate scores highest: first.
  c.add(std::vector<std::array<int32_t, 2>>{{0, -1}, {2, 0}, {3, -1}}, 1, 2);
  // Seven candidates tied at 0 and the played last: rank 6, outside the first five.
  c.add(std::vector<std::array<int32_t, 2>>(7, {3, -1}), 6, 3);
  const ChoiceStats s = choice_stats(c, w, 10);
  EXPECT_DOUBLE_EQ(s.top1, 1.0 / 3);
  EXPECT_DOUBLE_EQ(s.top5, 2.0 / 3);
  // The loss of the second choice alone: -log softmax at T = 10 (unrounded entries).
  MoveChoices one;
  one.append(c, 1);
  const double e0 = 10.4 / 10, e1 = 30.4 / 10, e2 = 0;
  const double want = std::log(std::exp(e0) + std::exp(e1) + std::exp(e2)) - e1;
  EXPECT_NEAR(choice_stats(one, w, 10).loss, want, 1e-12);
}

TEST(MoveScoreFit, DeterministicWhateverTheThreadCount) {
  const MoveChoices c = synthetic(3000, 20, 9);  // enough candidates for the parallel sums
  ASSERT_GE(c.candidates(), size_t{1} << 16);
  std::vector<double> w0(kEntries, 200.0);
  MoveScoreFitOptions o;
  o.epochs = 5;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const MoveScoreFitResult one = fit_move_scores(c, {}, w0, 100, o);
  omp_set_num_threads(3);
  const MoveScoreFitResult three = fit_move_scores(c, {}, w0, 100, o);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.weights, three.weights);
  EXPECT_EQ(one.history.back().train.loss, three.history.back().train.loss);
}

TEST(MoveScoreFit, ADivergingFitIsReported) {
  const MoveChoices c = synthetic(100, 10, 2);
  MoveScoreFitOptions o;
  o.epochs = 50;
  o.learning_rate = 500;  // steps far past any minimum
  const MoveScoreFitResult r = fit_move_scores(c, {}, kTruth, kTrueT, o);
  EXPECT_FALSE(r.diverged.empty());
}

}  // namespace
}  // namespace sp::tune
