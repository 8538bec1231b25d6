// Match statistics for engine-vs-engine results: logistic Elo, trinomial (per game) and pentanomial
// (per game pair) estimates with 95% intervals, normalized Elo, LOS, and the generalized SPRT of
// fishtest/cutechess/fastchess. Formulas: shared/reference/statistics.md. Everything is from
// engine A's point of view; no I/O.
//
// Degenerate inputs never produce NaN. The conventions:
//  - Elo of a score of 0 or 1 is -inf / +inf (IEEE infinities, not a large finite number);
//    Estimate::elo_finite says whether elo and both interval ends are finite, and elo_err is +inf
//    whenever one of them is not.
//  - The score interval is clamped to [0, 1], so an end that reaches 0 or 1 has an infinite Elo.
//  - No samples (0 games / 0 pairs): score 1/2 ± 1/2, variance 0, Elo 0 in (-inf, +inf),
//    nElo 0 with error +inf, LOS 1/2, LLR 0 (continue).
//  - Zero variance with samples (every game, or every pair, scored the same): interval of width 0,
//    LOS 1, 0 or 1/2 and nElo +inf, -inf or 0 as the score is above, below or at 1/2; the LLR uses
//    the exact GSPRT likelihood of that point mass (see gsprt_llr), which stays finite.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace sp::stats {

// Two-sided 95% normal quantile, Phi^-1(0.975) (statistics.md rounds it to 1.96).
inline constexpr double kZ95 = 1.959963984540054;

// Logistic Elo of an expected score s in [0, 1]: 400 log10(s / (1 - s)); -inf at s <= 0, +inf at
// s >= 1.
double elo_from_score(double s);
// Expected score of an Elo difference: 1 / (1 + 10^(-elo / 400)); 0 at -inf, 1 at +inf.
double score_from_elo(double elo);
// Standard normal cumulative distribution function.
double normal_cdf(double x);

enum class GameResult : uint8_t { kLoss, kDraw, kWin };  // of engine A

// Per-game counts.
struct Wdl {
  uint64_t wins = 0, draws = 0, losses = 0;
  uint64_t games() const { return wins + draws + losses; }
};

// Per-pair counts, indexed by the pair score in quarters: counts[k] pairs scored k/4.
struct Penta {
  static constexpr int kLL = 0, kLD = 1, kWLorDD = 2, kWD = 3, kWW = 4;
  std::array<uint64_t, 5> counts{};
  uint64_t pairs() const { return counts[0] + counts[1] + counts[2] + counts[3] + counts[4]; }
};

// A score estimate from n samples (games for Wdl, pairs for Penta). Scores are per game in [0, 1].
struct Estimate {
  uint64_t samples = 0;
  uint64_t games = 0;
  double score = 0.5;
  double variance = 0;     // of one sample's score: per game (Wdl) or per pair (Penta)
  double score_err = 0.5;  // 95% half-width kZ95 sqrt(variance / n), before clamping; 1/2 at n == 0
  double score_lo = 0, score_hi = 1;  // score -/+ score_err, clamped to [0, 1]
  double elo = 0, elo_lo = 0, elo_hi = 0;
  double elo_err = 0;  // (elo_hi - elo_lo) / 2, +inf unless elo_finite
  bool elo_finite = false;
  // (score - 1/2) / sigma * 800 / ln 10, sigma the per-game standard deviation (sqrt(2 variance)
  // for pairs); nelo_err = kZ95 / sqrt(games) * 800 / ln 10, its 95% half-width.
  double nelo = 0, nelo_err = 0;
  double los = 0.5;  // Phi((score - 1/2) / sqrt(variance / n))
};

Estimate estimate(const Wdl& wdl);
Estimate estimate(const Penta& penta);

// Pseudo-samples of variance 1/4 that sprt() mixes into its variance estimate by default (see
// SprtConfig::prior_samples). Chosen by simulation (tests/sprt_simulation_test.cpp,
// docs/engines-and-matches.md): with it the error rates of simulated matches (EWN-like and
// chess-like pairs, elo1 - elo0 from 10 to 100) stay at or below alpha and beta, where the plain
// GSPRT exceeds them by up to 2x.
inline constexpr double kSprtPriorSamples = 3;

// GSPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo) with error rates alpha and beta.
struct SprtConfig {
  double elo0 = 0, elo1 = 2;
  double alpha = 0.05, beta = 0.05;
  // Regularisation of the variance: sprt() uses (n var + k / 4) / (n + k) for n samples of
  // observed variance var, k = prior_samples, as if k more samples with the largest variance a
  // score in [0, 1] can have had been seen. Over the first samples the observed variance is often
  // far too small (three straight pair wins have none), which makes the plug-in GSPRT decide on a
  // handful of samples and exceed its error rates. No sample variance exceeds 1/4, so the prior
  // only makes the variance larger and |LLR| smaller than the plug-in formula would with the
  // observed variance, and its weight vanishes as n grows. 0 gives the plain plug-in GSPRT of
  // fastchess and cutechess.
  double prior_samples = kSprtPriorSamples;
  // No decision before this many samples (pairs or games); the LLR is computed all the same.
  uint64_t min_samples = 0;
};

struct SprtState {
  enum Decision { kContinue, kAcceptH0, kAcceptH1 };
  double llr = 0, lower = 0, upper = 0;
  Decision decision = kContinue;
};

// Throws std::invalid_argument unless 0 < alpha, 0 < beta, alpha + beta < 1, elo0 < elo1 are
// finite and prior_samples is finite and >= 0. Parameters come from user configuration, so this is
// an edge check, not an assert.
void validate(const SprtConfig& config);

// lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). Validates the config.
SprtState sprt_bounds(const SprtConfig& config);

// LLR of n samples with mean score s and per-sample variance var (s in [0, 1], per game; samples
// take values in [0, 1]), for hypothesised mean scores s0 = L(elo0), s1 = L(elo1):
// n (s1 - s0)(2 s - s0 - s1) / (2 var). With var == 0 (all samples equal s) that approximation has
// no value; the exact GSPRT LLR n ln(P(s | s1) / P(s | s0)) is returned instead, where P(a | m) is
// the largest probability a distribution on [0, 1] with mean m can give the value a: 1 if a == m,
// m / a if a > m, (1 - m) / (1 - a) if a < m. E.g. n straight wins give n ln(s1 / s0). n == 0: 0.
double gsprt_llr(double n, double s, double var, double s0, double s1);

// The GSPRT on per-game results (trinomial) or on game pairs (pentanomial, n = pairs): gsprt_llr
// with the observed score and the variance regularised by config.prior_samples; validates the
// config. The decision is kAcceptH1 at llr >= upper, kAcceptH0 at llr <= lower, and kContinue
// whatever the LLR while n < config.min_samples.
SprtState sprt(const Wdl& wdl, const SprtConfig& config);
SprtState sprt(const Penta& penta, const SprtConfig& config);

// Accumulates game pairs (the same opening/dice stream with colours swapped): per-game W/D/L and
// the pentanomial counts, both for engine A.
class PairCounter {
 public:
  void add_pair(GameResult first, GameResult second);
  const Wdl& wdl() const { return wdl_; }
  const Penta& penta() const { return penta_; }

 private:
  Wdl wdl_;
  Penta penta_;
};

// A compact plain-text table for a lab notebook: games and W/D/L, pentanomial counts (when pairs
// > 0), score ± half-width, Elo ± error (95%), nElo, LOS for the trinomial and pentanomial models,
// then, when sprt_config is given, the LLR, its bounds and the decision (with a note while fewer
// than min_samples are in). The SPRT uses the
// pentanomial model when there are pairs, the trinomial one otherwise. Ends with a newline.
std::string format_match_table(const Wdl& wdl, const Penta& penta,
                               const SprtConfig* sprt_config = nullptr);
std::string format_match_table(const PairCounter& counter, const SprtConfig* sprt_config = nullptr);

}  // namespace sp::stats
