#include "host/play/selfplay/match.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/system/log.hpp"
#include "host/base/system/system.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/selfplay/memory.hpp"

namespace sp::selfplay {
namespace match_detail {

using Clock = std::chrono::steady_clock;
using stats::GameResult;

float score_of(GameResult r) {
  return r == GameResult::kWin ? 1.0f : r == GameResult::kDraw ? 0.5f : 0.0f;
}

std::string forfeits_text(const MatchResult& r) {
  static constexpr const char* kPlural[search::kTerminations] = {"", "time losses", "crashes",
                                                                 "illegal moves"};
  std::string out;
  for (int e = 0; e < 2; ++e) {
    std::string counts;
    for (int t = 1; t < search::kTerminations; ++t) {
      const uint64_t n = r.forfeits[e][t];
      if (n == 0) continue;
      counts +=
          (counts.empty() ? "" : ", ") + std::to_string(n) + " " +
          (n == 1 ? search::termination_name(static_cast<search::Termination>(t)) : kPlural[t]);
    }
    if (!counts.empty())
      out += (out.empty() ? "" : "; ") + std::string(e == 0 ? "A: " : "B: ") + counts;
  }
  return out;
}

std::string elo_text(const stats::Estimate& e) {
  return e.elo_finite ? fmt::format("{:+.1f} +/- {:.1f}", e.elo, e.elo_err)
                      : fmt::format("{:+.1f} [{:+.1f}, {:+.1f}]", e.elo, e.elo_lo, e.elo_hi);
}

void MatchProgress::tick(const MatchResult& r, bool force) {
  if (quiet_) return;
  const auto now = Clock::now();
  if (!force && std::chrono::duration<double>(now - last_).count() < (live_ ? 0.5 : 10.0)) return;
  last_ = now;
  const double t = std::chrono::duration<double>(now - start_).count();
  const stats::Estimate e = stats::estimate(r.counter.penta());
  std::string line = fmt::format("pairs {}/{}  score {:.1f}%  Elo {}", r.counter.penta().pairs(),
                                 pairs_, 100 * e.score, elo_text(e));
  if (r.sprt)
    line += fmt::format("  LLR {:.2f} [{:.2f}, {:.2f}]", r.sprt->llr, r.sprt->lower, r.sprt->upper);
  line += fmt::format("  {:.2f} games/s", t > 0 ? games_ / t : 0.0);
  if (live_)
    std::fprintf(stderr, "\r%-110s", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

std::string sprt_line(const MatchResult& r) {
  if (!r.sprt) return "SPRT off\n";
  const stats::SprtState& s = *r.sprt;
  const stats::SprtConfig& c = r.sprt_config;
  const uint64_t n = r.counter.penta().pairs();
  switch (s.decision) {
    case stats::SprtState::kAcceptH1:
      return fmt::format(
          "SPRT: H1 accepted after {} pairs (LLR {:.2f} >= {:.2f}): engine A is stronger, Elo "
          "{:+g} rather than {:+g}\n",
          n, s.llr, s.upper, c.elo1, c.elo0);
    case stats::SprtState::kAcceptH0:
      return fmt::format(
          "SPRT: H0 accepted after {} pairs (LLR {:.2f} <= {:.2f}): engine A is not stronger by "
          "{:+g} Elo; {:+g} is the better fit\n",
          n, s.llr, s.lower, c.elo1, c.elo0);
    case stats::SprtState::kContinue:
      break;
  }
  if (n < c.min_samples)
    return fmt::format(
        "SPRT: no decision after {} pairs (LLR {:.2f}, bounds [{:.2f}, {:.2f}]; "
        "sprt.min_pairs is {})\n",
        n, s.llr, s.lower, s.upper, c.min_samples);
  return fmt::format("SPRT: no decision after {} pairs (LLR {:.2f} within [{:.2f}, {:.2f}])\n", n,
                     s.llr, s.lower, s.upper);
}

}  // namespace match_detail

void apply_overrides(config::CampaignConfig& cfg, const MatchOptions& options) {
  if (options.pairs) {
    if (*options.pairs == 0 || *options.pairs > 500'000'000)
      throw InputError("--pairs must be in [1, 500000000]");
    cfg.match.pairs = *options.pairs;
    cfg.games = 2 * cfg.match.pairs;
  }
  if (options.output) {
    if (options.output->empty()) throw InputError("--out must name a file");
    cfg.output.path = *options.output;
  }
  if (options.backend) cfg.backend.name = backend_override(*options.backend);
  if (options.threads) cfg.backend.threads = *options.threads;
  if (options.device) cfg.backend.device = *options.device;
}

stats::SprtConfig sprt_config_of(const config::SprtSettings& s) {
  stats::SprtConfig c{s.elo0, s.elo1, s.alpha, s.beta};
  c.min_samples = s.min_pairs;
  return c;
}

stats::GameResult result_for_a(const config::CampaignConfig& cfg, uint32_t game_id, int winner) {
  using stats::GameResult;
  if (winner != 0 && winner != 1) return GameResult::kDraw;
  return engine_for_player(cfg, game_id, winner) == 0 ? GameResult::kWin : GameResult::kLoss;
}

void PairCount::advance() {
  while (!decided_ && next_pair_ < cfg_.match.pairs) {
    const uint32_t first = static_cast<uint32_t>(2 * next_pair_);
    const auto a = waiting_.find(first), b = waiting_.find(first + 1);
    if (a == waiting_.end() || b == waiting_.end()) return;
    result_.counter.add_pair(a->second, b->second);
    io::MatchPairRow row;
    row.pair_id = next_pair_;
    row.result_1 = match_detail::score_of(a->second);
    row.result_2 = match_detail::score_of(b->second);
    if (use_sprt_) {
      result_.sprt = stats::sprt(result_.counter.penta(), result_.sprt_config);
      row.llr = result_.sprt->llr;
      decided_ = result_.sprt->decision != stats::SprtState::kContinue;
    }
    rows.push_back(row);
    waiting_.erase(a);
    waiting_.erase(b);
    ++next_pair_;
  }
}

uint64_t add_stored_results(const std::string& path, const config::CampaignConfig& cfg,
                            PairCount& pairs) {
  io::CampaignReader reader(path);
  std::set<uint64_t> ids;
  for (const io::GameRow& g : reader.games()) {
    if (g.game_id == io::kNoGame || !ids.insert(g.game_id).second) continue;
    if (g.game_id < cfg.games)
      pairs.add_waiting(static_cast<uint32_t>(g.game_id),
                        result_for_a(cfg, static_cast<uint32_t>(g.game_id), g.winner));
  }
  return ids.size();
}

std::vector<uint32_t> match_todo(const config::CampaignConfig& cfg, const PairCount& pairs) {
  std::vector<uint32_t> todo;
  if (!pairs.decided())
    for (uint32_t g = 0; g < cfg.games; ++g)
      if (g / 2 >= pairs.next_pair() && !pairs.has(g)) todo.push_back(g);
  return todo;
}

void write_match_report(MatchResult& result, const config::CampaignConfig& cfg,
                        uint64_t after_decision, uint64_t rollouts, double t,
                        const std::string& backend, const std::string& path) {
  const bool use_sprt = cfg.match.sprt.enabled;
  const bool decided = result.sprt && result.sprt->decision != stats::SprtState::kContinue;
  const uint64_t counted = result.counter.penta().pairs();
  result.sprt_stopped = decided && counted < cfg.match.pairs;
  result.interrupted = !decided && counted < cfg.match.pairs;
  std::string& s = result.report;
  // An engine with a label: "label (description)", as the exports and the viewer name it.
  const auto named = [](const std::string& label, const std::string& description) {
    return label.empty() ? description : label + " (" + description + ")";
  };
  s += fmt::format("engine A  {}  (engines.player0)\n",
                   named(cfg.engines[0].label, result.engine_a));
  s += fmt::format("engine B  {}  (engines.player1)\n",
                   named(cfg.engines[1].label, result.engine_b));
  s += stats::format_match_table(result.counter, use_sprt ? &result.sprt_config : nullptr);
  s += match_detail::sprt_line(result);
  s += fmt::format("pairs counted       {} of {} (in pair order{})\n", counted, cfg.match.pairs,
                   after_decision ? fmt::format("; {} games that were running at the decision were "
                                                "finished and written but are not counted",
                                                after_decision)
                                  : "");
  s += fmt::format("games played        {} (this run), {} in the file\n", result.games_played,
                   result.games_in_file);
  if (const std::string f = match_detail::forfeits_text(result); !f.empty())
    s += fmt::format("forfeits            {} (this run; the engine lost those games)\n", f);
  s += fmt::format("throughput          {:.3f} games/s, {:.3g} rollouts/s over {:.1f} s\n",
                   t > 0 ? result.games_played / t : 0.0, t > 0 ? rollouts / t : 0.0, t);
  s += fmt::format("backend             {}\n", backend);
  s += fmt::format("output              {}\n", path);
}

}  // namespace sp::selfplay
