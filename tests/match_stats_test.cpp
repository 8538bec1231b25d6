// Match statistics against numbers computed independently from the formulas of
// shared/reference/statistics.md (Python, standard library math only; the derivation is in the
// comment above each check), and against fastchess's published test values.
//
// Notation: z = 1.959963984540054 (Phi^-1(0.975)), c = 800 / ln 10 = 347.435..., L(e) = 1 / (1 +
// 10^(-e/400)), elo(s) = 400 log10(s / (1 - s)), Phi the standard normal CDF.
//
// The SPRT regularises its variance by default (SprtConfig::prior_samples, k = 3): n samples of
// observed variance var enter the LLR with (n var + k / 4) / (n + k). Checks of the formula of
// statistics.md use plain(), the same test without that prior; SprtRegularisedVariance checks the
// regularised one, and the published fastchess values hold for both.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/base/stats/match_stats.hpp"

namespace sp::stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTight = 1e-9;

Penta penta(uint64_t ll, uint64_t ld, uint64_t wl_dd, uint64_t wd, uint64_t ww) {
  Penta p;
  p.counts = {ll, ld, wl_dd, wd, ww};
  return p;
}

// The GSPRT of statistics.md as written: no variance prior.
SprtConfig plain(double elo0, double elo1, double alpha = 0.05, double beta = 0.05) {
  SprtConfig c{elo0, elo1, alpha, beta};
  c.prior_samples = 0;
  return c;
}

void expect_no_nan(const Estimate& e) {
  for (double v : {e.score, e.variance, e.score_err, e.score_lo, e.score_hi, e.elo, e.elo_lo,
                   e.elo_hi, e.elo_err, e.nelo, e.nelo_err, e.los})
    EXPECT_FALSE(std::isnan(v));
}

TEST(MatchStats, EloScoreConversions) {
  EXPECT_EQ(elo_from_score(0.5), 0.0);
  EXPECT_FALSE(std::signbit(elo_from_score(0.5)));  // +0, so it prints as +0.00
  // elo(0.75) = 400 log10(0.75 / 0.25) = 400 log10 3
  EXPECT_NEAR(elo_from_score(0.75), 190.84850188786498, kTight);
  EXPECT_NEAR(elo_from_score(0.25), -190.84850188786498, kTight);
  // elo(0.6) = 400 log10(1.5)
  EXPECT_NEAR(elo_from_score(0.6), 70.4365036222725, kTight);
  // L(400) = 1 / (1 + 10^-1) = 10/11; L(-100) = 1 / (1 + 10^0.25)
  EXPECT_NEAR(score_from_elo(400), 10.0 / 11.0, 1e-15);
  EXPECT_NEAR(score_from_elo(-100), 0.35993500019711494, 1e-15);
  EXPECT_EQ(score_from_elo(0), 0.5);
  for (double e : {-1200.0, -35.5, 0.0, 2.0, 700.0})
    EXPECT_NEAR(elo_from_score(score_from_elo(e)), e, 1e-9);
  EXPECT_EQ(elo_from_score(0), -kInf);
  EXPECT_EQ(elo_from_score(1), kInf);
  EXPECT_EQ(score_from_elo(kInf), 1.0);
  EXPECT_EQ(score_from_elo(-kInf), 0.0);
  // Phi(1) = 0.5 erfc(-1 / sqrt 2); Phi(z) = 0.975 by definition of z
  EXPECT_NEAR(normal_cdf(1), 0.8413447460685429, 1e-15);
  EXPECT_NEAR(normal_cdf(kZ95), 0.975, 1e-12);
}

TEST(MatchStats, TrinomialExample) {
  // W=60 D=20 L=20, N=100
  // s = (60 + 20/2) / 100 = 0.70
  // var = [60 (1-0.7)^2 + 20 (0.5-0.7)^2 + 20 (0.7)^2] / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16
  // half-width = z sqrt(0.16 / 100) = z * 0.04 -> [0.6216014406183978, 0.7783985593816021]
  // elo = 400 log10(0.7 / 0.3) = 147.19071411783773
  // err = (elo(0.77839...) - elo(0.62160...)) / 2 = (218.2517776410748 - 86.2250152003042) / 2
  // nElo = (0.7 - 0.5) / sqrt(0.16) * c = 0.5 c; its error z / sqrt(100) * c
  // LOS = Phi(0.2 / 0.04) = Phi(5)
  const Estimate e = estimate(Wdl{60, 20, 20});
  EXPECT_EQ(e.samples, 100u);
  EXPECT_EQ(e.games, 100u);
  EXPECT_NEAR(e.score, 0.7, 1e-15);
  EXPECT_NEAR(e.variance, 0.16, 1e-15);
  EXPECT_NEAR(e.score_err, kZ95 * 0.04, 1e-15);
  EXPECT_NEAR(e.score_lo, 0.6216014406183978, 1e-14);
  EXPECT_NEAR(e.score_hi, 0.7783985593816021, 1e-14);
  EXPECT_NEAR(e.elo, 147.19071411783773, kTight);
  EXPECT_NEAR(e.elo_lo, 86.2250152003042, kTight);
  EXPECT_NEAR(e.elo_hi, 218.2517776410748, kTight);
  EXPECT_NEAR(e.elo_err, 66.0133812203853, kTight);
  EXPECT_TRUE(e.elo_finite);
  EXPECT_NEAR(e.nelo, 173.7177927613007, kTight);
  EXPECT_NEAR(e.nelo_err, 68.09612345718847, kTight);
  EXPECT_NEAR(e.los, 0.9999997133484281, 1e-12);
}

TEST(MatchStats, PentanomialExample) {
  // pairs LL=10 LD=20 (WL or DD)=40 WD=20 WW=30, 120 pairs, 240 games
  // s = (10*0 + 20*0.25 + 40*0.5 + 20*0.75 + 30*1) / 120 = 70 / 120 = 0.58333...
  // var_pair = [10 (0-s)^2 + 20 (0.25-s)^2 + 40 (0.5-s)^2 + 20 (0.75-s)^2 + 30 (1-s)^2] / 120
  //          = (3.40278 + 2.22222 + 0.27778 + 0.55556 + 5.20833) / 120 = 0.0972222...
  // se = sqrt(0.0972222 / 120) = 0.028463752127665554 -> [0.5275454042982336, 0.6391212623684331]
  // elo = 400 log10(0.58333 / 0.41667) = 400 log10(1.4) = 58.45121427129523
  // err = (99.28878841639708 - 19.159906475032326) / 2 = 40.06444097068238
  // nElo = (s - 0.5) / sqrt(2 * 0.0972222) * c = 65.6591539933512; error z / sqrt(240) * c
  // LOS = Phi((s - 0.5) / 0.028463752127665554) = 0.9982926044109411
  const Estimate e = estimate(penta(10, 20, 40, 20, 30));
  EXPECT_EQ(e.samples, 120u);
  EXPECT_EQ(e.games, 240u);
  EXPECT_NEAR(e.score, 70.0 / 120.0, 1e-15);
  EXPECT_NEAR(e.variance, 0.09722222222222224, 1e-15);
  EXPECT_NEAR(e.score_lo, 0.5275454042982336, 1e-14);
  EXPECT_NEAR(e.score_hi, 0.6391212623684331, 1e-14);
  EXPECT_NEAR(e.elo, 58.45121427129523, kTight);
  EXPECT_NEAR(e.elo_err, 40.06444097068238, kTight);
  EXPECT_NEAR(e.nelo, 65.6591539933512, kTight);
  EXPECT_NEAR(e.nelo_err, 43.9558586818292, kTight);
  EXPECT_NEAR(e.los, 0.9982926044109411, 1e-12);
}

// Published values: fastchess app/tests/elo_test.cpp (github.com/Disservin/fastchess, commit
// 2f5e88819ee01f879ed3078208092099f04cfba3), which asserts them to 2 decimals. Its Stats(w, l, d)
// takes wins, losses, draws and Stats(ll, ld, wl, dd, wd, ww) the pentanomial counts; it uses the
// same formulas (nElo of a pair with sigma = sqrt(2 var_pair)) and z = 1.959963984540054.
TEST(MatchStats, FastchessPublishedElo) {
  {
    // "EloWDL 2": Stats(136, 96, 111): 40.70 +/- 30.43, nElo 49.77 +/- 36.77, LOS "99.60 %".
    // s = (136 + 111/2) / 343 = 0.558309..., elo = 40.7024581865 (Python)
    const Estimate e = estimate(Wdl{136, 111, 96});
    EXPECT_NEAR(e.elo, 40.70, 0.005);
    EXPECT_NEAR(e.elo_err, 30.43, 0.005);
    EXPECT_NEAR(e.nelo, 49.77, 0.005);
    EXPECT_NEAR(e.nelo_err, 36.77, 0.005);
    EXPECT_NEAR(100 * e.los, 99.60, 0.005);
  }
  {
    // "EloWDL 1": Stats(76, 89, 123): nElo -20.76 +/- 40.13, LOS "15.53 %".
    const Estimate e = estimate(Wdl{76, 123, 89});
    EXPECT_NEAR(e.nelo, -20.76, 0.005);
    EXPECT_NEAR(e.nelo_err, 40.13, 0.005);
    EXPECT_NEAR(100 * e.los, 15.53, 0.005);
  }
  {
    // "EloPentanomial 1": Stats(34, 54, 31, 32, 64, 75): 55.58 +/- 27.65, nElo 57.94 +/- 28.28,
    // LOS "100.00 %". WL + DD = 31 + 32 = 63; s = (54/4 + 63/2 + 64*3/4 + 75) / 290 = 168 / 290.
    const Estimate e = estimate(penta(34, 54, 63, 64, 75));
    EXPECT_NEAR(e.score, 168.0 / 290.0, 1e-15);
    EXPECT_NEAR(e.elo, 55.58, 0.005);
    EXPECT_NEAR(e.elo_err, 27.65, 0.005);
    EXPECT_NEAR(e.nelo, 57.94, 0.005);
    EXPECT_NEAR(e.nelo_err, 28.28, 0.005);
    EXPECT_NEAR(100 * e.los, 100.00, 0.005);
  }
  {
    // "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334): -8.64 +/- 10.33, nElo -9.17 +/-
    // 10.96, LOS "5.05 %".
    const Estimate e = estimate(penta(332, 433, 457 + 41, 333, 334));
    EXPECT_NEAR(e.elo, -8.64, 0.005);
    EXPECT_NEAR(e.elo_err, 10.33, 0.005);
    EXPECT_NEAR(e.nelo, -9.17, 0.005);
    EXPECT_NEAR(e.nelo_err, 10.96, 0.005);
    EXPECT_NEAR(100 * e.los, 5.05, 0.005);
  }
}

TEST(MatchStats, SprtBounds) {
  // alpha = beta = 0.05: lower = ln(0.05 / 0.95) = -ln 19, upper = ln(0.95 / 0.05) = ln 19
  const SprtState s = sprt_bounds({0, 2, 0.05, 0.05});
  EXPECT_NEAR(s.lower, -2.9444389791664403, 1e-14);
  EXPECT_NEAR(s.upper, 2.9444389791664403, 1e-14);
  // alpha = 0.05, beta = 0.1: lower = ln(0.1 / 0.95), upper = ln(0.9 / 0.05) = ln 18
  const SprtState t = sprt_bounds({0, 2, 0.05, 0.1});
  EXPECT_NEAR(t.lower, -2.251291798606495, 1e-14);
  EXPECT_NEAR(t.upper, 2.8903717578961645, 1e-14);
}

TEST(MatchStats, SprtTrinomialDecisions) {
  const SprtConfig cfg = plain(0, 10);
  // s0 = L(0) = 0.5, s1 = L(10) = 0.5143871841659987; LLR = N (s1 - s0)(2s - s0 - s1) / (2 var)
  {
    // W=560 L=440: s = 0.56, var = 0.56 * 0.44 = 0.2464
    // LLR = 1000 * 0.014387184 * (1.12 - 1.014387184) / (2 * 0.2464) = 3.0833 >= 2.944 -> H1
    const SprtState s = sprt(Wdl{560, 0, 440}, cfg);
    EXPECT_NEAR(s.llr, 3.0833421909364507, kTight);
    EXPECT_EQ(s.decision, SprtState::kAcceptH1);
  }
  {
    // W=450 L=550: s = 0.45, var = 0.2475; LLR = 1000 * 0.014387184 * (0.9 - 1.014387184) / 0.495
    // = -3.3247 <= -2.944 -> H0
    const SprtState s = sprt(Wdl{450, 0, 550}, cfg);
    EXPECT_NEAR(s.llr, -3.3246656259115848, kTight);
    EXPECT_EQ(s.decision, SprtState::kAcceptH0);
  }
  {
    // W=510 L=490: s = 0.51, var = 0.2499; LLR = 1000 * 0.014387184 * (1.02 - 1.014387184) / 0.4998
    // = 0.1616 -> continue
    const SprtState s = sprt(Wdl{510, 0, 490}, cfg);
    EXPECT_NEAR(s.llr, 0.1615698581304731, kTight);
    EXPECT_EQ(s.decision, SprtState::kContinue);
  }
}

TEST(MatchStats, SprtPentanomialDecision) {
  // pairs LL=60 WL=280 WW=160 (no draws, as in EWN), 500 pairs, [0, 10]
  // s = (280 * 0.5 + 160) / 500 = 0.6, var_pair = [60 * 0.36 + 280 * 0.01 + 160 * 0.16] / 500 = 0.1
  // LLR = 500 * 0.014387184 * (1.2 - 1.014387184) / (2 * 0.1) = 6.6761 -> H1
  const SprtState s = sprt(penta(60, 0, 280, 0, 160), plain(0, 10));
  EXPECT_NEAR(s.llr, 6.676114412433443, kTight);
  EXPECT_EQ(s.decision, SprtState::kAcceptH1);
}

TEST(MatchStats, SprtRegularisedVariance) {
  // The two examples above with the default prior of 3 samples of variance 1/4:
  // W=560 L=440: var = (1000 * 0.2464 + 0.75) / 1003 = 0.24641076769690926, close to 1/4 already,
  // LLR = 1000 * 0.014387184 * (1.12 - 1.014387184) / (2 var) = 3.0832074545591004 (was 3.08334)
  const SprtState t = sprt(Wdl{560, 0, 440}, {0, 10, 0.05, 0.05});
  EXPECT_NEAR(t.llr, 3.0832074545591004, kTight);
  EXPECT_EQ(t.decision, SprtState::kAcceptH1);
  // LL=60 WL=280 WW=160: var = (500 * 0.1 + 0.75) / 503 = 0.10089463220675944,
  // LLR = 500 * 0.014387184 * (1.2 - 1.014387184) / (2 var) = 6.61691733882566 (was 6.67611)
  const SprtState p = sprt(penta(60, 0, 280, 0, 160), {0, 10, 0.05, 0.05});
  EXPECT_NEAR(p.llr, 6.61691733882566, kTight);
  EXPECT_EQ(p.decision, SprtState::kAcceptH1);
  // A prior of k samples of variance 1/4 is what the LLR sees: the plain GSPRT with that variance.
  SprtConfig five = plain(0, 10);
  five.prior_samples = 5;
  const Estimate e = estimate(penta(3, 0, 1, 0, 4));
  EXPECT_NEAR(sprt(penta(3, 0, 1, 0, 4), five).llr,
              gsprt_llr(8, e.score, (8 * e.variance + 5 * 0.25) / 13, 0.5, score_from_elo(10)),
              kTight);
  // Three straight WW pairs have no observed variance: the plain GSPRT falls back to the point
  // mass, 3 ln(L(50) / 0.5) = 0.40358; the prior gives var = 0.75 / 6 = 0.125 and
  // 3 (L(50) - 0.5)(2 - 0.5 - L(50)) / 0.25 = 0.79381, the same order and finite.
  EXPECT_NEAR(sprt(penta(0, 0, 0, 0, 3), plain(0, 50)).llr, 3 * std::log(2 * score_from_elo(50)),
              kTight);
  EXPECT_NEAR(sprt(penta(0, 0, 0, 0, 3), {0, 50, 0.05, 0.05}).llr,
              3 * (score_from_elo(50) - 0.5) * (1.5 - score_from_elo(50)) / 0.25, kTight);
  // The prior only shrinks |LLR| towards 0 (the observed variance here is below 1/4).
  double last = kInf;
  for (double k : {0.0, 1.0, 3.0, 10.0, 100.0}) {
    SprtConfig c = plain(0, 10);
    c.prior_samples = k;
    const double llr = sprt(penta(2, 0, 9, 0, 5), c).llr;
    EXPECT_GT(llr, 0) << k;
    EXPECT_LT(llr, last) << k;
    last = llr;
  }
}

TEST(MatchStats, SprtMinSamplesWithholdsTheDecision) {
  // 500 pairs with an LLR of 6.6 accept H1, unless 501 are required; the LLR is the same.
  SprtConfig c{0, 10, 0.05, 0.05};
  c.min_samples = 501;
  const SprtState early = sprt(penta(60, 0, 280, 0, 160), c);
  EXPECT_EQ(early.decision, SprtState::kContinue);
  EXPECT_NEAR(early.llr, 6.61691733882566, kTight);
  EXPECT_NE(format_match_table(Wdl{}, penta(60, 0, 280, 0, 160), &c)
                .find("LLR 6.62 [-2.94, 2.94] continue (no decision before 501 pairs)"),
            std::string::npos);
  c.min_samples = 500;
  EXPECT_EQ(sprt(penta(60, 0, 280, 0, 160), c).decision, SprtState::kAcceptH1);
  // Per game for the trinomial model: 600 draws accept H0 at 600 games, not before 601.
  c = plain(0, 2);
  c.min_samples = 601;
  EXPECT_EQ(sprt(Wdl{0, 600, 0}, c).decision, SprtState::kContinue);
  EXPECT_NE(format_match_table(Wdl{0, 600, 0}, Penta{}, &c).find("(no decision before 601 games)"),
            std::string::npos);
  c.min_samples = 600;
  EXPECT_EQ(sprt(Wdl{0, 600, 0}, c).decision, SprtState::kAcceptH0);
}

// Published values: fastchess app/tests/sprt_test.cpp (github.com/Disservin/fastchess, commit
// 0cbac4988fbac5bbe90716a4c36737c00c238bc5), "logistic" model, alpha = beta = 0.05, asserted to 2
// decimals. fastchess computes the exact maximum-likelihood GSPRT (van den Bergh); the
// approximation here gives -1.5719, -2.5930, -3.0743, -4.9782 (Python), the same to 0.005, and
// with the default variance prior (3 samples among 41,648 to 221,056) -1.5718, -2.5930, -3.0728,
// -4.9774: the prior's weight vanishes at these sizes. Both are checked.
TEST(MatchStats, FastchessPublishedLlr) {
  for (const double prior : {0.0, kSprtPriorSamples}) {
    SCOPED_TRACE(prior);
    {
      // "logistic trinomial 1": Stats(21404, 21184, 40708), [0.5, 2.5] -> -1.57, continue
      SprtConfig c{0.5, 2.5, 0.05, 0.05};
      c.prior_samples = prior;
      const SprtState s = sprt(Wdl{21404, 40708, 21184}, c);
      EXPECT_NEAR(s.llr, -1.57, 0.005);
      EXPECT_EQ(s.decision, SprtState::kContinue);
    }
    {
      // "logistic trinomial 2": Stats(57433, 57030, 106593), [0, 2] -> -2.59, continue
      SprtConfig c{0, 2, 0.05, 0.05};
      c.prior_samples = prior;
      const SprtState s = sprt(Wdl{57433, 106593, 57030}, c);
      EXPECT_NEAR(s.llr, -2.59, 0.005);
      EXPECT_EQ(s.decision, SprtState::kContinue);
    }
    {
      // "logistic pentanomial 1": Stats(223, 9863, 20279, 1000, 10037, 246), [0.5, 2.5] -> -3.07,
      // H0
      SprtConfig c{0.5, 2.5, 0.05, 0.05};
      c.prior_samples = prior;
      const SprtState s = sprt(penta(223, 9863, 20279 + 1000, 10037, 246), c);
      EXPECT_NEAR(s.llr, -3.07, 0.005);
      EXPECT_EQ(s.decision, SprtState::kAcceptH0);
    }
    {
      // "logistic pentanomial 2": Stats(871, 26175, 55003, 980, 26678, 821), [0, 2] -> -4.98, H0
      SprtConfig c{0, 2, 0.05, 0.05};
      c.prior_samples = prior;
      const SprtState s = sprt(penta(871, 26175, 55003 + 980, 26678, 821), c);
      EXPECT_NEAR(s.llr, -4.98, 0.005);
      EXPECT_EQ(s.decision, SprtState::kAcceptH0);
    }
  }
}

TEST(MatchStats, SymmetricCases) {
  // W=L=5: s = 0.5 exactly, var = 0.25, elo 0, LOS 0.5, nElo 0;
  // interval 0.5 -/+ z sqrt(0.025) = [0.19010248384771922, 0.8098975161522808],
  // elo -/+251.7769102888547
  const Estimate e = estimate(Wdl{5, 0, 5});
  EXPECT_EQ(e.score, 0.5);
  EXPECT_EQ(e.elo, 0.0);
  EXPECT_EQ(e.los, 0.5);
  EXPECT_EQ(e.nelo, 0.0);
  EXPECT_NEAR(e.elo_hi, 251.7769102888547, kTight);
  EXPECT_NEAR(e.elo_lo, -251.7769102888547, kTight);
  EXPECT_NEAR(e.elo_err, 251.7769102888547, kTight);

  // Swapping the engines negates Elo and nElo, keeps the errors, and complements LOS.
  const Estimate a = estimate(Wdl{60, 20, 20}), b = estimate(Wdl{20, 20, 60});
  EXPECT_NEAR(b.elo, -a.elo, 1e-12);
  EXPECT_NEAR(b.elo_err, a.elo_err, 1e-12);
  EXPECT_NEAR(b.nelo, -a.nelo, 1e-12);
  EXPECT_NEAR(b.los, 1 - a.los, 1e-12);
  const Estimate p = estimate(penta(10, 20, 40, 20, 30)), q = estimate(penta(30, 20, 40, 20, 10));
  EXPECT_NEAR(q.elo, -p.elo, 1e-12);
  EXPECT_NEAR(q.elo_err, p.elo_err, 1e-12);
  EXPECT_NEAR(q.los, 1 - p.los, 1e-12);

  // Symmetric hypotheses around a score of 1/2: s0 + s1 = L(-5) + L(5) = 1, so 2s - s0 - s1 = 0.
  EXPECT_NEAR(sprt(Wdl{40, 20, 40}, {-5, 5, 0.05, 0.05}).llr, 0.0, 1e-12);
  EXPECT_NEAR(sprt(penta(5, 10, 20, 10, 5), {-5, 5, 0.05, 0.05}).llr, 0.0, 1e-12);
}

TEST(MatchStats, NoGames) {
  for (const Estimate& e : {estimate(Wdl{}), estimate(Penta{})}) {
    expect_no_nan(e);
    EXPECT_EQ(e.samples, 0u);
    EXPECT_EQ(e.score, 0.5);
    EXPECT_EQ(e.score_err, 0.5);
    EXPECT_EQ(e.score_lo, 0.0);
    EXPECT_EQ(e.score_hi, 1.0);
    EXPECT_EQ(e.elo, 0.0);
    EXPECT_EQ(e.elo_lo, -kInf);
    EXPECT_EQ(e.elo_hi, kInf);
    EXPECT_EQ(e.elo_err, kInf);
    EXPECT_FALSE(e.elo_finite);
    EXPECT_EQ(e.nelo, 0.0);
    EXPECT_EQ(e.nelo_err, kInf);
    EXPECT_EQ(e.los, 0.5);
  }
  const SprtState s = sprt(Wdl{}, {0, 5, 0.05, 0.05});
  EXPECT_EQ(s.llr, 0.0);
  EXPECT_EQ(s.decision, SprtState::kContinue);
  EXPECT_EQ(sprt(Penta{}, {0, 5, 0.05, 0.05}).llr, 0.0);
  EXPECT_EQ(gsprt_llr(0, 0.5, 0, 0.5, 0.51), 0.0);
}

TEST(MatchStats, ZeroVarianceAllWins) {
  // 10 wins: s = 1, var = 0, interval [1, 1], Elo +inf, LOS 1, nElo +inf.
  const Estimate e = estimate(Wdl{10, 0, 0});
  expect_no_nan(e);
  EXPECT_EQ(e.score, 1.0);
  EXPECT_EQ(e.variance, 0.0);
  EXPECT_EQ(e.score_lo, 1.0);
  EXPECT_EQ(e.elo, kInf);
  EXPECT_EQ(e.elo_err, kInf);
  EXPECT_FALSE(e.elo_finite);
  EXPECT_EQ(e.nelo, kInf);
  EXPECT_EQ(e.los, 1.0);
  // Exact GSPRT of a point mass at 1: P(1 | m) = m, LLR = 10 ln(L(10) / 0.5) = 0.28368 -> continue
  // (the plain GSPRT: with the default prior the variance is never 0, see below)
  const SprtState s = sprt(Wdl{10, 0, 0}, plain(0, 10));
  EXPECT_NEAR(s.llr, 0.2836816005010653, kTight);
  EXPECT_EQ(s.decision, SprtState::kContinue);
  // [0, 2]: 500 ln(2 L(2)) = 2.86995 continues, 600 ln(2 L(2)) = 3.44394 accepts H1, so an SPRT
  // over straight wins terminates.
  EXPECT_NEAR(sprt(Wdl{500, 0, 0}, plain(0, 2)).llr, 2.8699471961966916, kTight);
  const SprtState t = sprt(Wdl{600, 0, 0}, plain(0, 2));
  EXPECT_NEAR(t.llr, 3.44393663543603, kTight);
  EXPECT_EQ(t.decision, SprtState::kAcceptH1);
  // 10 losses: P(0 | m) = 1 - m, LLR = 10 ln((1 - L(10)) / 0.5) = -0.29196
  const Estimate l = estimate(Wdl{0, 0, 10});
  expect_no_nan(l);
  EXPECT_EQ(l.elo, -kInf);
  EXPECT_EQ(l.los, 0.0);
  EXPECT_NEAR(sprt(Wdl{0, 0, 10}, plain(0, 10)).llr, -0.2919646727474484, kTight);
  // With the default prior: var = 3 * 0.25 / 13, LLR = 10 * 0.014387184 * (2 - 1.014387184) /
  // (2 var) = 1.2289500684736034, finite and positive.
  EXPECT_NEAR(sprt(Wdl{10, 0, 0}, {0, 10, 0.05, 0.05}).llr, 1.2289500684736034, kTight);
}

TEST(MatchStats, ZeroVarianceDrawsAndPairs) {
  // 600 draws: s = 0.5 = s0, elo 0 +/- 0, LOS 0.5, nElo 0; P(0.5 | 0.5) = 1 and
  // P(0.5 | s1) = (1 - s1) / 0.5, LLR = 600 ln(2 (1 - L(2))) = -3.46382 -> H0
  const Estimate d = estimate(Wdl{0, 600, 0});
  expect_no_nan(d);
  EXPECT_EQ(d.elo, 0.0);
  EXPECT_EQ(d.elo_err, 0.0);
  EXPECT_TRUE(d.elo_finite);
  EXPECT_EQ(d.nelo, 0.0);
  EXPECT_EQ(d.los, 0.5);
  const SprtState s = sprt(Wdl{0, 600, 0}, plain(0, 2));
  EXPECT_NEAR(s.llr, -3.463818643546124, kTight);
  EXPECT_EQ(s.decision, SprtState::kAcceptH0);
  // 20 pairs all WD: s = 0.75 exactly, elo(0.75) = 190.848... +/- 0, nElo +inf, LOS 1;
  // P(0.75 | m) = m / 0.75, LLR = 20 ln(L(10) / 0.5) = 0.56736
  const Estimate p = estimate(penta(0, 0, 0, 20, 0));
  expect_no_nan(p);
  EXPECT_EQ(p.score, 0.75);
  EXPECT_NEAR(p.elo, 190.84850188786498, kTight);
  EXPECT_EQ(p.elo_err, 0.0);
  EXPECT_TRUE(p.elo_finite);
  EXPECT_EQ(p.nelo, kInf);
  EXPECT_EQ(p.los, 1.0);
  EXPECT_NEAR(sprt(penta(0, 0, 0, 20, 0), plain(0, 10)).llr, 0.5673632010021306, kTight);
}

TEST(MatchStats, IntervalClampedAtOne) {
  // W=99 L=1: s = 0.99, var = 0.99 * 0.01 = 0.0099, s + z sqrt(0.0099 / 100) = 1.0095 -> clamped to
  // 1: elo 798.2540778390198, lower end elo(0.9704986045820121) = 606.8609426633235, upper +inf.
  const Estimate e = estimate(Wdl{99, 0, 1});
  expect_no_nan(e);
  EXPECT_EQ(e.score_hi, 1.0);
  EXPECT_NEAR(e.score_lo, 0.9704986045820121, 1e-14);
  EXPECT_NEAR(e.elo, 798.2540778390198, 1e-8);
  EXPECT_NEAR(e.elo_lo, 606.8609426633235, 1e-8);
  EXPECT_EQ(e.elo_hi, kInf);
  EXPECT_EQ(e.elo_err, kInf);
  EXPECT_FALSE(e.elo_finite);
  // nElo = 0.49 / sqrt(0.0099) * c = 1711.0109189030084
  EXPECT_NEAR(e.nelo, 1711.0109189030084, 1e-8);
}

TEST(MatchStats, InvalidSprtConfigThrows) {
  EXPECT_THROW(sprt_bounds({0, 2, 0.0, 0.05}), std::invalid_argument);
  EXPECT_THROW(sprt_bounds({0, 2, 0.05, 0.0}), std::invalid_argument);
  EXPECT_THROW(sprt_bounds({0, 2, 0.5, 0.5}), std::invalid_argument);
  EXPECT_THROW(sprt_bounds({2, 2, 0.05, 0.05}), std::invalid_argument);
  EXPECT_THROW(sprt_bounds({3, 2, 0.05, 0.05}), std::invalid_argument);
  EXPECT_THROW(sprt(Wdl{1, 0, 0}, {std::nan(""), 2, 0.05, 0.05}), std::invalid_argument);
  EXPECT_THROW(sprt(Penta{}, {0, kInf, 0.05, 0.05}), std::invalid_argument);
  SprtConfig c{0, 2, 0.05, 0.05};
  for (double prior : {-1.0, std::nan(""), kInf}) {
    c.prior_samples = prior;
    EXPECT_THROW(sprt(Penta{}, c), std::invalid_argument) << prior;
  }
}

// Quarter points per pair (loss 0, draw 1, win 2): WW 4, WL 2, LW 2, DD 2, WD 3, LD 1, LL 0, DW 3.
PairCounter example_pairs() {
  using R = GameResult;
  constexpr std::pair<R, R> kPairs[] = {
      {R::kWin, R::kWin},  {R::kWin, R::kLoss},  {R::kLoss, R::kWin},  {R::kDraw, R::kDraw},
      {R::kWin, R::kDraw}, {R::kLoss, R::kDraw}, {R::kLoss, R::kLoss}, {R::kDraw, R::kWin}};
  PairCounter c;
  for (const auto& [first, second] : kPairs) c.add_pair(first, second);
  return c;
}

TEST(MatchStats, PairCounter) {
  const PairCounter c = example_pairs();
  EXPECT_EQ(c.wdl().wins, 6u);
  EXPECT_EQ(c.wdl().draws, 5u);
  EXPECT_EQ(c.wdl().losses, 5u);
  const std::array<uint64_t, 5> expected{1, 1, 3, 2, 1};
  EXPECT_EQ(c.penta().counts, expected);
  EXPECT_EQ(c.penta().pairs(), 8u);
  // Both models see the same score: (6 + 5/2) / 16 = (1/4 + 3/2 + 2*3/4 + 1) / 8 = 0.53125
  EXPECT_EQ(estimate(c.wdl()).score, 0.53125);
  EXPECT_EQ(estimate(c.penta()).score, 0.53125);
  EXPECT_EQ(estimate(c.penta()).games, c.wdl().games());
}

TEST(MatchStats, FormatTable) {
  // The PairCounter example above: pentanomial s = 0.53125, elo = 21.74306492903707, err
  // 149.6214657857373, nElo 26.339023765437492 +/- 170.24030864297117, LOS 0.6191462180260963.
  const PairCounter c = example_pairs();
  const SprtConfig cfg{0, 10, 0.05, 0.05};
  // Trinomial 6/5/5: var = [6 (0.46875)^2 + 5 (0.03125)^2 + 5 (0.53125)^2] / 16 = 0.170898...,
  // half-width z sqrt(var / 16) = 0.2026, elo err 150.1071, nElo 26.2637 +/- 170.2403, LOS 0.6188;
  // LLR (pairs) with the default prior: var = (8 * 0.0849609375 + 3 / 4) / 11 = 0.12997159...,
  // 8 * 0.014387184 * (1.0625 - 1.014387184) / (2 var) = 0.0213 (0.0326 without the prior).
  const std::string table = format_match_table(c, &cfg);
  EXPECT_EQ(table, R"(games 16  W 6  D 5  L 5  pairs 8  LL 1  LD 1  WL+DD 3  WD 2  WW 1
model        score (95%)          Elo (95%)                  nElo (95%)                 LOS
trinomial    0.5312 +/- 0.2026    +21.74 +/- 150.11          +26.26 +/- 170.24       61.88%
pentanomial  0.5312 +/- 0.2020    +21.74 +/- 149.62          +26.34 +/- 170.24       61.91%
SPRT (pentanomial) elo0 0.00 elo1 10.00 alpha 0.05 beta 0.05: LLR 0.02 [-2.94, 2.94] continue
)");

  // Unpaired results: no pentanomial row, trinomial SPRT; all games won: an infinite Elo, said in
  // words, and no interval where the samples have no spread.
  const std::string wins = format_match_table(Wdl{600, 0, 0}, Penta{}, &cfg);
  EXPECT_EQ(wins.find("pentanomial"), std::string::npos) << wins;
  EXPECT_NE(wins.find("1.0000 (no spread)   +inf (all won)"), std::string::npos) << wins;
  EXPECT_EQ(wins.find("+/-"), std::string::npos) << wins;
  EXPECT_NE(wins.find("SPRT (trinomial)"), std::string::npos) << wins;
  EXPECT_NE(wins.find("accept H1"), std::string::npos) << wins;
  EXPECT_EQ(wins.find("nan"), std::string::npos) << wins;
  EXPECT_EQ(format_match_table(Wdl{}, Penta{}).find("nan"), std::string::npos);
  // A 2-pair match whose pairs were both lost (issue 41, item 7: it printed "+/- 0.0000" and
  // "nElo -inf"): no interval and no infinite nElo, the score and the Elo as they are.
  PairCounter two;
  two.add_pair(GameResult::kLoss, GameResult::kLoss);
  two.add_pair(GameResult::kLoss, GameResult::kLoss);
  const std::string lost = format_match_table(two, nullptr);
  EXPECT_EQ(lost, R"(games 4  W 0  D 0  L 4  pairs 2  LL 2  LD 0  WL+DD 0  WD 0  WW 0
model        score (95%)          Elo (95%)                  nElo (95%)                 LOS
trinomial    0.0000 (no spread)   -inf (all lost)            - (all samples alike)        -
pentanomial  0.0000 (no spread)   -inf (all lost)            - (all samples alike)        -
)");
  // Mixed results keep their intervals.
  two.add_pair(GameResult::kWin, GameResult::kDraw);
  EXPECT_NE(format_match_table(two, nullptr).find("+/-"), std::string::npos);
}

}  // namespace
}  // namespace sp::stats
