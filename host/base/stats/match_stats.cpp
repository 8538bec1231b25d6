#include "host/base/stats/match_stats.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace sp::stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// The largest variance of a sample taking values in [0, 1] (Popoviciu's inequality).
constexpr double kMaxVariance = 0.25;
// 800 / ln 10: converts a score difference in standard deviations to normalized Elo.
const double kNeloScale = 800.0 / std::log(10.0);

// Mean, variance and the derived quantities of samples taking values[i] counts[i] times; games is
// the number of games they cover (n for games, 2n for pairs), games_per_sample 1 or 2.
template <size_t K>
Estimate estimate_from(const std::array<double, K>& values, const std::array<uint64_t, K>& counts,
                       int games_per_sample) {
  Estimate e;
  for (uint64_t c : counts) e.samples += c;
  e.games = e.samples * games_per_sample;
  if (e.samples == 0) {
    e.elo_lo = -kInf;
    e.elo_hi = kInf;
    e.elo_err = kInf;
    e.nelo_err = kInf;
    return e;
  }
  const double n = static_cast<double>(e.samples);
  double total = 0;
  for (size_t i = 0; i < K; ++i) total += values[i] * static_cast<double>(counts[i]);
  e.score = total / n;
  double ss = 0;
  for (size_t i = 0; i < K; ++i)
    ss += static_cast<double>(counts[i]) * (values[i] - e.score) * (values[i] - e.score);
  e.variance = ss / n;

  e.score_err = kZ95 * std::sqrt(e.variance / n);
  e.score_lo = std::max(0.0, e.score - e.score_err);
  e.score_hi = std::min(1.0, e.score + e.score_err);
  e.elo = elo_from_score(e.score);
  e.elo_lo = elo_from_score(e.score_lo);
  e.elo_hi = elo_from_score(e.score_hi);
  e.elo_finite = std::isfinite(e.elo) && std::isfinite(e.elo_lo) && std::isfinite(e.elo_hi);
  e.elo_err = e.elo_finite ? (e.elo_hi - e.elo_lo) / 2 : kInf;

  const double sigma_game = std::sqrt(e.variance * games_per_sample);
  const double diff = e.score - 0.5;
  e.nelo_err = kZ95 / std::sqrt(static_cast<double>(e.games)) * kNeloScale;
  if (e.variance > 0) {
    e.nelo = diff / sigma_game * kNeloScale;
    e.los = normal_cdf(diff / std::sqrt(e.variance / n));
  } else {
    // Every sample scored e.score: certain superiority, inferiority or equality.
    e.nelo = diff > 0 ? kInf : diff < 0 ? -kInf : 0.0;
    e.los = diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5;
  }
  return e;
}

// Largest probability that a distribution on [0, 1] with mean m can put on the value a.
double point_mass_bound(double a, double m) {
  if (a == m) return 1.0;
  return a > m ? m / a : (1 - m) / (1 - a);
}

// The GSPRT after the samples of e (validates the config): the regularised variance of
// SprtConfig::prior_samples, then the decision unless min_samples are still missing.
SprtState decide(const Estimate& e, const SprtConfig& config) {
  SprtState state = sprt_bounds(config);
  const double n = static_cast<double>(e.samples), k = config.prior_samples;
  const double variance = n > 0 ? (n * e.variance + k * kMaxVariance) / (n + k) : 0;
  state.llr =
      gsprt_llr(n, e.score, variance, score_from_elo(config.elo0), score_from_elo(config.elo1));
  if (e.samples < config.min_samples) return state;
  if (state.llr >= state.upper)
    state.decision = SprtState::kAcceptH1;
  else if (state.llr <= state.lower)
    state.decision = SprtState::kAcceptH0;
  return state;
}

const char* decision_name(SprtState::Decision d) {
  switch (d) {
    case SprtState::kAcceptH0:
      return "accept H0";
    case SprtState::kAcceptH1:
      return "accept H1";
    case SprtState::kContinue:
      break;
  }
  return "continue";
}

std::string format_row(const char* model, const Estimate& e) {
  if (e.samples == 0 || e.variance == 0) {
    // Every sample alike (a short match: 2 pairs both lost): the normal approximation gives no
    // interval (it would print +/- 0 and an infinite nElo), so say so instead of inventing one.
    const std::string elo = std::isfinite(e.elo) ? fmt::format("{:+.2f}", e.elo)
                            : e.elo > 0          ? std::string("+inf (all won)")
                                                 : std::string("-inf (all lost)");
    const std::string none = e.samples == 0 ? "no samples" : "all samples alike";
    return fmt::format("{:<12} {:<20} {:<26} {:<22} {:>7}\n", model,
                       fmt::format("{:.4f} ({})", e.score, e.samples == 0 ? "none" : "no spread"),
                       e.samples == 0 ? std::string("-") : elo, "- (" + none + ")", "-");
  }
  const std::string score = fmt::format("{:.4f} +/- {:.4f}", e.score, e.score_err);
  // With an infinite end the symmetric error says nothing: show the interval instead.
  const std::string elo =
      e.elo_finite ? fmt::format("{:+.2f} +/- {:.2f}", e.elo, e.elo_err)
                   : fmt::format("{:+.2f} [{:+.1f}, {:+.1f}]", e.elo, e.elo_lo, e.elo_hi);
  const std::string nelo = fmt::format("{:+.2f} +/- {:.2f}", e.nelo, e.nelo_err);
  return fmt::format("{:<12} {:<20} {:<26} {:<22} {:6.2f}%\n", model, score, elo, nelo,
                     100 * e.los);
}

}  // namespace

double elo_from_score(double s) {
  if (s <= 0) return -kInf;
  if (s >= 1) return kInf;
  // log10(s / (1 - s)) rather than -log10(1/s - 1): gives +0, not -0, at s = 1/2.
  return 400 * std::log10(s / (1 - s));
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

Estimate estimate(const Wdl& wdl) {
  return estimate_from<3>({1.0, 0.5, 0.0}, {wdl.wins, wdl.draws, wdl.losses}, 1);
}

Estimate estimate(const Penta& penta) {
  return estimate_from<5>({0.0, 0.25, 0.5, 0.75, 1.0}, penta.counts, 2);
}

void validate(const SprtConfig& c) {
  if (!(c.alpha > 0 && c.beta > 0 && c.alpha + c.beta < 1))
    throw std::invalid_argument(
        fmt::format("SPRT: need alpha > 0, beta > 0, alpha + beta < 1 (got alpha {}, beta {})",
                    c.alpha, c.beta));
  if (!(std::isfinite(c.elo0) && std::isfinite(c.elo1) && c.elo0 < c.elo1))
    throw std::invalid_argument(
        fmt::format("SPRT: need finite elo0 < elo1 (got elo0 {}, elo1 {})", c.elo0, c.elo1));
  if (!(std::isfinite(c.prior_samples) && c.prior_samples >= 0))
    throw std::invalid_argument(
        fmt::format("SPRT: need finite prior_samples >= 0 (got {})", c.prior_samples));
}

SprtState sprt_bounds(const SprtConfig& config) {
  validate(config);
  SprtState state;
  state.lower = std::log(config.beta / (1 - config.alpha));
  state.upper = std::log((1 - config.beta) / config.alpha);
  return state;
}

double gsprt_llr(double n, double s, double var, double s0, double s1) {
  assert(s0 > 0 && s0 < 1 && s1 > 0 && s1 < 1 && s >= 0 && s <= 1);
  if (n <= 0) return 0;
  if (var > 0) return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var);
  return n * (std::log(point_mass_bound(s, s1)) - std::log(point_mass_bound(s, s0)));
}

SprtState sprt(const Wdl& wdl, const SprtConfig& config) { return decide(estimate(wdl), config); }

SprtState sprt(const Penta& penta, const SprtConfig& config) {
  return decide(estimate(penta), config);
}

void PairCounter::add_pair(GameResult first, GameResult second) {
  // Quarter points of the pair: a loss is worth 0 quarters, a draw 1, a win 2.
  int quarters = 0;
  for (GameResult r : {first, second}) {
    switch (r) {
      case GameResult::kWin:
        ++wdl_.wins;
        quarters += 2;
        break;
      case GameResult::kDraw:
        ++wdl_.draws;
        quarters += 1;
        break;
      case GameResult::kLoss:
        ++wdl_.losses;
        break;
    }
  }
  ++penta_.counts[quarters];
}

std::string format_match_table(const Wdl& wdl, const Penta& penta, const SprtConfig* sprt_config) {
  const auto& c = penta.counts;
  std::string out =
      fmt::format("games {}  W {}  D {}  L {}", wdl.games(), wdl.wins, wdl.draws, wdl.losses);
  if (penta.pairs() > 0)
    out +=
        fmt::format("  pairs {}  LL {}  LD {}  WL+DD {}  WD {}  WW {}", penta.pairs(),
                    c[Penta::kLL], c[Penta::kLD], c[Penta::kWLorDD], c[Penta::kWD], c[Penta::kWW]);
  out += '\n';
  out += fmt::format("{:<12} {:<20} {:<26} {:<22} {:>7}\n", "model", "score (95%)", "Elo (95%)",
                     "nElo (95%)", "LOS");
  out += format_row("trinomial", estimate(wdl));
  if (penta.pairs() > 0) out += format_row("pentanomial", estimate(penta));
  if (sprt_config) {
    const bool paired = penta.pairs() > 0;
    const SprtState s = paired ? sprt(penta, *sprt_config) : sprt(wdl, *sprt_config);
    const uint64_t n = paired ? penta.pairs() : wdl.games();
    const std::string waiting =
        n < sprt_config->min_samples
            ? fmt::format(" (no decision before {} {})", sprt_config->min_samples,
                          paired ? "pairs" : "games")
            : "";
    out += fmt::format(
        "SPRT ({}) elo0 {:.2f} elo1 {:.2f} alpha {} beta {}: LLR {:.2f} [{:.2f}, {:.2f}] {}{}\n",
        paired ? "pentanomial" : "trinomial", sprt_config->elo0, sprt_config->elo1,
        sprt_config->alpha, sprt_config->beta, s.llr, s.lower, s.upper, decision_name(s.decision),
        waiting);
  }
  return out;
}

std::string format_match_table(const PairCounter& counter, const SprtConfig* sprt_config) {
  return format_match_table(counter.wdl(), counter.penta(), sprt_config);
}

}  // namespace sp::stats
