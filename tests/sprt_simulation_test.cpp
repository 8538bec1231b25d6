// The match SPRT's error rates, by simulation: matches whose pair outcomes are drawn from known
// pentanomial distributions run the GSPRT exactly as run_match does (the match's SprtConfig from
// sprt_config_of, the pairs added in order with PairCounter::add_pair, stats::sprt after each pair,
// stop at the first decision), and the decisions are counted. Between engines at elo0 H1 must be
// accepted in at most alpha of the matches, between engines at elo1 H0 in at most beta.
//
// Tolerance: with N matches and a true rate of exactly alpha, the observed rate has standard
// deviation sqrt(alpha (1 - alpha) / N); the checks allow 3 of them (a true rate of alpha passes
// with probability 99.87%). N = 10000 makes that 0.65 points at alpha = 0.05, small enough for the
// plain plug-in GSPRT (6.2% false H1 and 7.3% false H0 in the EWN-like case, far more in the wide
// one) to fail. The generator is Philox with fixed keys, so the counts are the same on every run.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/philox.hpp"
#include "host/base/stats/match_stats.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/selfplay/match.hpp"

namespace sp::stats {
namespace {

constexpr int kMatches = 10000;
constexpr uint64_t kMaxPairs = 1'000'000;  // a match that long counts as undecided

// A family of pair-outcome distributions: pentanomial probabilities (LL, LD, WL+DD, WD, WW) with a
// given mean pair score.
enum class Family {
  kEwnLike,    // no draws, 60% of pairs split (WL): like EWN's pairs with shared dice
  kChessLike,  // mostly drawn pairs, few LL and WW
};

std::array<double, 5> pentanomial(Family family, double score) {
  if (family == Family::kEwnLike) return {0.7 - score, 0, 0.6, 0, score - 0.3};  // score 0.3..0.7
  // {0.02, 0.2, 0.56, 0.2, 0.02} has mean 1/2; moving 2d from LD to WD adds d to the mean.
  const double d = score - 0.5;
  return {0.02, 0.2 - 2 * d, 0.56, 0.2 + 2 * d, 0.02};
}

struct Scenario {
  std::string name;
  Family family;
  double elo0, elo1;
};

struct Counts {
  int h0 = 0, h1 = 0, undecided = 0;
  uint64_t pairs = 0;  // summed over the matches
};

// Plays `kMatches` simulated matches between engines `true_elo` apart under the SPRT `config`.
Counts simulate(const Scenario& sc, double true_elo, const SprtConfig& config, uint64_t key) {
  const std::array<double, 5> p = pentanomial(sc.family, score_from_elo(true_elo));
  // Cumulative thresholds on a 32-bit word; the last category takes the rest.
  std::array<uint64_t, 4> below{};
  double cumulative = 0;
  for (int k = 0; k < 4; ++k) {
    EXPECT_GE(p[k], 0) << sc.name;
    cumulative += p[k];
    below[k] = static_cast<uint64_t>(std::llround(cumulative * 4294967296.0));
  }
  using R = GameResult;
  // One pair per category: its two games' results for engine A, in quarters 0..4.
  constexpr R kPairs[5][2] = {{R::kLoss, R::kLoss},
                              {R::kLoss, R::kDraw},
                              {R::kWin, R::kLoss},
                              {R::kWin, R::kDraw},
                              {R::kWin, R::kWin}};
  WordStream rng({key, 0, 0, 0, 0});
  Counts c;
  for (int m = 0; m < kMatches; ++m) {
    PairCounter counter;
    SprtState::Decision decision = SprtState::kContinue;
    while (decision == SprtState::kContinue && counter.penta().pairs() < kMaxPairs) {
      const uint64_t u = rng.next();
      int k = 0;
      while (k < 4 && u >= below[k]) ++k;
      counter.add_pair(kPairs[k][0], kPairs[k][1]);
      decision = sprt(counter.penta(), config).decision;
    }
    c.pairs += counter.penta().pairs();
    if (decision == SprtState::kAcceptH0)
      ++c.h0;
    else if (decision == SprtState::kAcceptH1)
      ++c.h1;
    else
      ++c.undecided;
  }
  return c;
}

// The SprtConfig a match with these settings runs.
SprtConfig match_config(const Scenario& sc) {
  config::SprtSettings s;
  s.elo0 = sc.elo0;
  s.elo1 = sc.elo1;
  s.alpha = 0.05;
  s.beta = 0.05;
  return selfplay::sprt_config_of(s);
}

double tolerance(double rate) { return 3 * std::sqrt(rate * (1 - rate) / kMatches); }

const Scenario kEwn50{"EWN-like pairs, [0, 50]", Family::kEwnLike, 0, 50};
const Scenario kEwn100{"EWN-like pairs, [0, 100]", Family::kEwnLike, 0, 100};
const Scenario kChess50{"chess-like pairs, [0, 50]", Family::kChessLike, 0, 50};

TEST(SprtSimulation, ErrorRatesStayWithinAlphaAndBeta) {
  uint64_t key = 1;
  for (const Scenario& sc : {kEwn50, kEwn100, kChess50}) {
    SCOPED_TRACE(sc.name);
    const SprtConfig config = match_config(sc);
    const Counts at_elo0 = simulate(sc, sc.elo0, config, key++);
    const Counts at_elo1 = simulate(sc, sc.elo1, config, key++);
    const double false_h1 = static_cast<double>(at_elo0.h1) / kMatches;
    const double false_h0 = static_cast<double>(at_elo1.h0) / kMatches;
    EXPECT_EQ(at_elo0.undecided + at_elo1.undecided, 0);
    EXPECT_LE(false_h1, config.alpha + tolerance(config.alpha))
        << "H1 accepted between engines at elo0; " << at_elo0.pairs / double{kMatches}
        << " pairs per match";
    EXPECT_LE(false_h0, config.beta + tolerance(config.beta))
        << "H0 accepted between engines at elo1; " << at_elo1.pairs / double{kMatches}
        << " pairs per match";
  }
}

// The scenario is one where the regularisation matters: the plain plug-in GSPRT (no prior) accepts
// the wrong hypothesis well beyond its nominal rates, so the test above can fail.
TEST(SprtSimulation, ThePlainPlugInGsprtExceedsItsErrorRates) {
  SprtConfig plain = match_config(kEwn100);
  plain.prior_samples = 0;
  const Counts at_elo0 = simulate(kEwn100, kEwn100.elo0, plain, 101);
  const Counts at_elo1 = simulate(kEwn100, kEwn100.elo1, plain, 102);
  EXPECT_GT(static_cast<double>(at_elo0.h1) / kMatches, plain.alpha + tolerance(plain.alpha));
  EXPECT_GT(static_cast<double>(at_elo1.h0) / kMatches, plain.beta + tolerance(plain.beta));
}

}  // namespace
}  // namespace sp::stats
