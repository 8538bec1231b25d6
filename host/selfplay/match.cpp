#include "host/selfplay/match.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "games/common/errors.hpp"
#include "host/common/log.hpp"
#include "host/common/system.hpp"
#include "host/config/load.hpp"
#include "host/io/campaign_file.hpp"
#include "host/selfplay/campaign.hpp"
#include "host/selfplay/driver.hpp"
#include "host/selfplay/memory.hpp"

namespace sp::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
using stats::GameResult;

float score_of(GameResult r) {
  return r == GameResult::kWin ? 1.0f : r == GameResult::kDraw ? 0.5f : 0.0f;
}

std::string elo_text(const stats::Estimate& e) {
  return e.elo_finite ? fmt::format("{:+.1f} +/- {:.1f}", e.elo, e.elo_err)
                      : fmt::format("{:+.1f} [{:+.1f}, {:+.1f}]", e.elo, e.elo_lo, e.elo_hi);
}

// The status line: a terminal gets it rewritten in place every half second, a log every 10 s.
class MatchProgress {
 public:
  MatchProgress(uint64_t pairs, bool live, bool quiet)
      : pairs_(pairs), live_(live), quiet_(quiet) {}

  void game_finished() { ++games_; }
  void tick(const MatchResult& r, bool force = false) {
    if (quiet_) return;
    const auto now = Clock::now();
    if (!force && std::chrono::duration<double>(now - last_).count() < (live_ ? 0.5 : 10.0)) return;
    last_ = now;
    const double t = std::chrono::duration<double>(now - start_).count();
    const stats::Estimate e = stats::estimate(r.counter.penta());
    std::string line = fmt::format("pairs {}/{}  score {:.1f}%  Elo {}", r.counter.penta().pairs(),
                                   pairs_, 100 * e.score, elo_text(e));
    if (r.sprt)
      line +=
          fmt::format("  LLR {:.2f} [{:.2f}, {:.2f}]", r.sprt->llr, r.sprt->lower, r.sprt->upper);
    line += fmt::format("  {:.2f} games/s", t > 0 ? games_ / t : 0.0);
    if (live_)
      std::fprintf(stderr, "\r%-110s", line.c_str());
    else
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
  void end() {
    if (live_ && !quiet_) std::fputc('\n', stderr);
  }
  double elapsed_s() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  uint64_t pairs_;
  bool live_, quiet_;
  uint64_t games_ = 0;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

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

}  // namespace

config::CampaignConfig with_overrides(config::CampaignConfig cfg, const MatchOptions& options) {
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
  if (options.backend) cfg.backend.name = *options.backend;
  if (options.threads) cfg.backend.threads = *options.threads;
  return cfg;
}

stats::SprtConfig sprt_config_of(const config::SprtSettings& s) {
  stats::SprtConfig c{s.elo0, s.elo1, s.alpha, s.beta};
  c.min_samples = s.min_pairs;
  return c;
}

GameResult result_for_a(const config::CampaignConfig& cfg, uint32_t game_id, int winner) {
  if (winner != 0 && winner != 1) return GameResult::kDraw;
  return engine_for_player(cfg, game_id, winner) == 0 ? GameResult::kWin : GameResult::kLoss;
}

std::vector<PairResult> play_pairs(const config::CampaignConfig& match_cfg, uint32_t pairs,
                                   rollout::Backend<EwnGame>& backend,
                                   const std::atomic<bool>& stop) {
  if (!match_cfg.paired) throw std::invalid_argument("play_pairs: not a paired config");
  config::CampaignConfig cfg = match_cfg;
  cfg.match.pairs = pairs;
  cfg.games = 2 * uint64_t{pairs};
  std::vector<uint32_t> ids(cfg.games);
  for (uint32_t g = 0; g < cfg.games; ++g) ids[g] = g;
  std::vector<std::optional<GameResult>> results(cfg.games);
  Driver driver(cfg, backend, std::move(ids));
  driver.run(
      [&](FinishedGame&& game) {
        results[game.game_id] = result_for_a(cfg, game.game_id, game.winner);
      },
      [](const BatchInfo&) {}, stop);
  std::vector<PairResult> out;
  for (uint32_t k = 0; k < pairs && results[2 * k] && results[2 * k + 1]; ++k)
    out.push_back({*results[2 * k], *results[2 * k + 1]});
  return out;
}

MatchResult run_match(const config::CampaignConfig& requested, const MatchOptions& options,
                      const std::atomic<bool>& stop) {
  config::CampaignConfig cfg = requested;  // make_campaign_backend resolves concurrency auto in it
  check_memory(cfg);  // before any file or engine exists (auto: in make_campaign_backend)
  namespace fs = std::filesystem;
  if (!cfg.paired || cfg.games != 2 * uint64_t{cfg.match.pairs})
    throw std::invalid_argument("run_match: not a match config (read it with load_match_config)");
  const std::string& path = cfg.output.path;
  // From here on no other writer touches the file: what is read below is what resume() keeps.
  auto [lock, unfinished] = claim_output(path, options.resume, "match");

  MatchResult result;
  const bool use_sprt = cfg.match.sprt.enabled;
  const config::SprtSettings& sprt = cfg.match.sprt;
  result.sprt_config = sprt_config_of(sprt);
  if (use_sprt) stats::validate(result.sprt_config);

  // Results of the games already in the file, by game id (resume).
  const std::string identity = run_identity(cfg, true);
  std::map<uint32_t, GameResult> waiting;
  uint64_t in_file = 0;  // complete games, those outside this run's game ids included
  if (options.resume && !unfinished) {
    check_resume_identity(path, identity, true);
    io::CampaignReader reader(path);
    std::set<uint64_t> ids;
    for (const io::GameRow& g : reader.games()) {
      if (g.game_id == io::kNoGame || !ids.insert(g.game_id).second) continue;
      if (g.game_id < cfg.games)
        waiting[static_cast<uint32_t>(g.game_id)] =
            result_for_a(cfg, static_cast<uint32_t>(g.game_id), g.winner);
    }
    in_file = ids.size();
  }

  auto backend = make_campaign_backend(cfg);
  // Counts the pairs that are complete in pair order; stops at the SPRT's decision. The rows of
  // newly counted pairs wait in `new_rows` until they are handed to the writer.
  uint64_t next_pair = 0;
  bool decided = false;
  std::vector<io::MatchPairRow> new_rows;
  const auto advance = [&] {
    while (!decided && next_pair < cfg.match.pairs) {
      const uint32_t first = static_cast<uint32_t>(2 * next_pair);
      const auto a = waiting.find(first), b = waiting.find(first + 1);
      if (a == waiting.end() || b == waiting.end()) return;
      result.counter.add_pair(a->second, b->second);
      io::MatchPairRow row;
      row.pair_id = next_pair;
      row.result_1 = score_of(a->second);
      row.result_2 = score_of(b->second);
      if (use_sprt) {
        result.sprt = stats::sprt(result.counter.penta(), result.sprt_config);
        row.llr = result.sprt->llr;
        decided = result.sprt->decision != stats::SprtState::kContinue;
      }
      new_rows.push_back(row);
      waiting.erase(a);
      waiting.erase(b);
      ++next_pair;
    }
  };
  advance();  // the pairs already in the file

  std::vector<uint32_t> todo;
  if (!decided)
    for (uint32_t g = 0; g < cfg.games; ++g)
      if (g / 2 >= next_pair && !waiting.count(g)) todo.push_back(g);
  // The driver, its engines and their tables exist before the file is touched: a config too large
  // for memory leaves no file.
  std::unique_ptr<Driver> driver = make_driver(cfg, *backend, todo);
  io::FileMeta meta = file_meta(cfg, backend->info(), config::explain_match_config(cfg));
  meta.identity = identity;
  result.engine_a = make_engine(cfg.engines[0], cfg.game.rules, 0)->describe();
  result.engine_b = make_engine(cfg.engines[1], cfg.game.rules, 1)->describe();
  io::MatchMeta match;
  match.engine_a = result.engine_a;
  match.engine_b = result.engine_b;
  match.pairs = cfg.match.pairs;
  match.sprt_enabled = use_sprt;
  match.sprt_elo0 = sprt.elo0;
  match.sprt_elo1 = sprt.elo1;
  match.sprt_alpha = sprt.alpha;
  match.sprt_beta = sprt.beta;
  if (use_sprt) {
    const stats::SprtState bounds = stats::sprt_bounds(result.sprt_config);
    match.sprt_lower = bounds.lower;
    match.sprt_upper = bounds.upper;
  }
  meta.match = match;
  io::WriterOptions wopts;
  wopts.flush_seconds = cfg.output.flush_seconds;
  io::CampaignWriter writer = options.resume
                                  ? io::CampaignWriter::resume(std::move(lock), path, meta, wopts)
                                  : io::CampaignWriter::create(std::move(lock), path, meta, wopts);
  if (writer.resume_report().started_afresh)
    log::info("resume: " + path +
              " held no complete game (a run killed while creating it): starting afresh");
  const uint64_t rows_in_file = options.resume ? writer.resume_report().match_pairs : 0;
  for (const io::MatchPairRow& row : new_rows)
    if (row.pair_id >= rows_in_file) writer.append_match_pair(row);
  new_rows.clear();
  log::info(
      fmt::format("match: engine A {} against engine B {}, {} pairs{}, backend {} ({}), output {}",
                  result.engine_a, result.engine_b, cfg.match.pairs,
                  in_file ? fmt::format(" ({} games already in the file)", in_file) : "",
                  backend->info().name, backend->info().device, path));

  MatchProgress progress(cfg.match.pairs, options.live, log::quiet());
  uint64_t rollouts = 0, after_decision = 0;
  driver->run(
      [&](FinishedGame&& game) {
        GameRows rows = to_rows(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features));
        ++result.games_played;
        progress.game_finished();
        if (decided) {
          ++after_decision;
        } else {
          waiting[game.game_id] = result_for_a(cfg, game.game_id, game.winner);
          advance();
          for (const io::MatchPairRow& row : new_rows) writer.append_match_pair(row);
          new_rows.clear();
          if (decided) driver->stop_starting();
        }
        progress.tick(result);
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        rollouts += b.rollouts;
        progress.tick(result);
      },
      stop);
  writer.close();
  progress.tick(result, true);
  progress.end();

  const uint64_t counted = result.counter.penta().pairs();
  result.games_in_file = in_file + result.games_played;
  result.sprt_stopped = decided && counted < cfg.match.pairs;
  result.interrupted = !decided && counted < cfg.match.pairs;
  const double t = progress.elapsed_s();
  std::string& s = result.report;
  s += fmt::format("engine A  {}  (engines.player0)\n", result.engine_a);
  s += fmt::format("engine B  {}  (engines.player1)\n", result.engine_b);
  s += stats::format_match_table(result.counter, use_sprt ? &result.sprt_config : nullptr);
  s += sprt_line(result);
  s += fmt::format("pairs counted       {} of {} (in pair order{})\n", counted, cfg.match.pairs,
                   after_decision ? fmt::format("; {} games that were running at the decision were "
                                                "finished and written but are not counted",
                                                after_decision)
                                  : "");
  s += fmt::format("games played        {} (this run), {} in the file\n", result.games_played,
                   result.games_in_file);
  s += fmt::format("throughput          {:.3f} games/s, {:.3g} rollouts/s over {:.1f} s\n",
                   t > 0 ? result.games_played / t : 0.0, t > 0 ? rollouts / t : 0.0, t);
  s += fmt::format("backend             {} ({})\n", backend->info().name, backend->info().device);
  s += fmt::format("output              {}\n", path);
  return result;
}

}  // namespace sp::selfplay
